#include "provider/cipher_table.h"

#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "provider/cipher_generic.h"

namespace gpucrypto {
namespace {

using GC = gpu::Cipher;

const CipherAlgo& aes128_algo() { return rijndael(128, 128); }
const CipherAlgo& aes192_algo() { return rijndael(128, 192); }
const CipherAlgo& aes256_algo() { return rijndael(128, 256); }
template <unsigned B, unsigned K>
const CipherAlgo& rijndael_algo() { return rijndael(B, K); }

// One descriptor per registered name; the property string is shared.
constexpr CipherDesc kSkinny256Ecb{"SKINNY-128-256-ECB:SKINNY-256-ECB", skinny128_256, Mode::kECB, GC::kSkinny128_256};
constexpr CipherDesc kSkinny256Ctr{"SKINNY-128-256-CTR:SKINNY-256-CTR", skinny128_256, Mode::kCTR, GC::kSkinny128_256};
constexpr CipherDesc kSkinny384Ecb{"SKINNY-128-384-ECB", skinny128_384, Mode::kECB, GC::kSkinny128_384};
constexpr CipherDesc kSkinny384Ctr{"SKINNY-128-384-CTR", skinny128_384, Mode::kCTR, GC::kSkinny128_384};
constexpr CipherDesc kSm4Ecb{"SM4-ECB:1.2.156.10197.1.104.1", sm4, Mode::kECB, GC::kSM4};
constexpr CipherDesc kSm4Ctr{"SM4-CTR:1.2.156.10197.1.104.7", sm4, Mode::kCTR, GC::kSM4};
constexpr CipherDesc kRect80Ecb{"RECTANGLE-80-ECB", rectangle80, Mode::kECB, GC::kRectangle80};
constexpr CipherDesc kRect80Ctr{"RECTANGLE-80-CTR", rectangle80, Mode::kCTR, GC::kRectangle80};
constexpr CipherDesc kRect128Ecb{"RECTANGLE-128-ECB", rectangle128, Mode::kECB, GC::kRectangle128};
constexpr CipherDesc kRect128Ctr{"RECTANGLE-128-CTR", rectangle128, Mode::kCTR, GC::kRectangle128};
constexpr CipherDesc kAes128Ecb{"AES-128-ECB:2.16.840.1.101.3.4.1.1", aes128_algo, Mode::kECB, GC::kAES128};
constexpr CipherDesc kAes192Ecb{"AES-192-ECB:2.16.840.1.101.3.4.1.21", aes192_algo, Mode::kECB, GC::kAES192};
constexpr CipherDesc kAes256Ecb{"AES-256-ECB:2.16.840.1.101.3.4.1.41", aes256_algo, Mode::kECB, GC::kAES256};
constexpr CipherDesc kAes128Ctr{"AES-128-CTR", aes128_algo, Mode::kCTR, GC::kAES128};
constexpr CipherDesc kAes192Ctr{"AES-192-CTR", aes192_algo, Mode::kCTR, GC::kAES192};
constexpr CipherDesc kAes256Ctr{"AES-256-CTR", aes256_algo, Mode::kCTR, GC::kAES256};

#define GPUC_WIDE(B, K)                                                                       \
  constexpr CipherDesc kRijndael##B##_##K##Ecb{"RIJNDAEL-" #B "-" #K "-ECB",                  \
                                                rijndael_algo<B, K>, Mode::kECB, std::nullopt}; \
  constexpr CipherDesc kRijndael##B##_##K##Ctr{"RIJNDAEL-" #B "-" #K "-CTR",                  \
                                                rijndael_algo<B, K>, Mode::kCTR, std::nullopt};
GPUC_WIDE(192, 128)
GPUC_WIDE(192, 192)
GPUC_WIDE(192, 256)
GPUC_WIDE(256, 128)
GPUC_WIDE(256, 192)
GPUC_WIDE(256, 256)
#undef GPUC_WIDE

constexpr const char kProps[] = "provider=gpucrypto";

template <const CipherDesc* D>
OSSL_ALGORITHM entry(const char* description) {
  return {D->names, kProps, CipherDispatch<D>::table(), description};
}

}  // namespace

const OSSL_ALGORITHM* cipher_algorithms() {
  static const OSSL_ALGORITHM kTable[] = {
      entry<&kSkinny256Ecb>("SKINNY-128-256 (48 rounds) in ECB mode"),
      entry<&kSkinny256Ctr>("SKINNY-128-256 (48 rounds) in CTR mode"),
      entry<&kSkinny384Ecb>("SKINNY-128-384 (56 rounds) in ECB mode"),
      entry<&kSkinny384Ctr>("SKINNY-128-384 (56 rounds) in CTR mode"),
      entry<&kSm4Ecb>("SM4 in ECB mode (GB/T 32907)"),
      entry<&kSm4Ctr>("SM4 in CTR mode (GB/T 32907)"),
      entry<&kRect80Ecb>("RECTANGLE-80 in ECB mode (64-bit block)"),
      entry<&kRect80Ctr>("RECTANGLE-80 in CTR mode (64-bit counter)"),
      entry<&kRect128Ecb>("RECTANGLE-128 in ECB mode (64-bit block)"),
      entry<&kRect128Ctr>("RECTANGLE-128 in CTR mode (64-bit counter)"),
      entry<&kAes128Ecb>("AES-128 in ECB mode"),
      entry<&kAes192Ecb>("AES-192 in ECB mode"),
      entry<&kAes256Ecb>("AES-256 in ECB mode"),
      entry<&kAes128Ctr>("AES-128 in CTR mode"),
      entry<&kAes192Ctr>("AES-192 in CTR mode"),
      entry<&kAes256Ctr>("AES-256 in CTR mode"),
      entry<&kRijndael192_128Ecb>("Rijndael, 192-bit block, 128-bit key, ECB"),
      entry<&kRijndael192_128Ctr>("Rijndael, 192-bit block, 128-bit key, CTR"),
      entry<&kRijndael192_192Ecb>("Rijndael, 192-bit block, 192-bit key, ECB"),
      entry<&kRijndael192_192Ctr>("Rijndael, 192-bit block, 192-bit key, CTR"),
      entry<&kRijndael192_256Ecb>("Rijndael, 192-bit block, 256-bit key, ECB"),
      entry<&kRijndael192_256Ctr>("Rijndael, 192-bit block, 256-bit key, CTR"),
      entry<&kRijndael256_128Ecb>("Rijndael, 256-bit block, 128-bit key, ECB"),
      entry<&kRijndael256_128Ctr>("Rijndael, 256-bit block, 128-bit key, CTR"),
      entry<&kRijndael256_192Ecb>("Rijndael, 256-bit block, 192-bit key, ECB"),
      entry<&kRijndael256_192Ctr>("Rijndael, 256-bit block, 192-bit key, CTR"),
      entry<&kRijndael256_256Ecb>("Rijndael, 256-bit block, 256-bit key, ECB"),
      entry<&kRijndael256_256Ctr>("Rijndael, 256-bit block, 256-bit key, CTR"),
      {nullptr, nullptr, nullptr, nullptr}};
  return kTable;
}

}  // namespace gpucrypto
