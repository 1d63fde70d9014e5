// The mode definitions (NIST SP 800-38A sections 6.2-6.5, CTR with a
// big-endian counter over the whole block, PKCS#7 for ECB/CBC), written
// the plain way over one block at a time of the portable reference ECB
// (find_hw(algo, "ref")): the model every mode of the provider is checked
// against where OpenSSL's default provider lacks the cipher (SKINNY,
// RECTANGLE, wide-block Rijndael). CFB keeps OpenSSL's convention for a
// final partial segment (the unused keystream is dropped). Header only:
// the GoogleTest suites and fuzz_cipher share it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ciphers/block_cipher.h"

namespace gpucrypto::test {

enum class ModelMode { kECB, kCBC, kCFB, kOFB, kCFB8, kCFB1, kCTR };

// "AES-128-CBC" -> kCBC; the suffix after the last '-'.
inline ModelMode model_mode_of(const std::string& name) {
  const std::string m = name.substr(name.rfind('-') + 1);
  if (m == "CBC") return ModelMode::kCBC;
  if (m == "CFB" || m == "CFB128") return ModelMode::kCFB;
  if (m == "OFB" || m == "OFB128") return ModelMode::kOFB;
  if (m == "CFB8") return ModelMode::kCFB8;
  if (m == "CFB1") return ModelMode::kCFB1;
  if (m == "CTR") return ModelMode::kCTR;
  return ModelMode::kECB;
}

inline bool model_padded(ModelMode m) { return m == ModelMode::kECB || m == ModelMode::kCBC; }

class ModeModel {
 public:
  ModeModel(const CipherAlgo& algo, const uint8_t* key)
      : ref_(*find_hw(algo, "ref")), bs_(algo.block_bytes),
        ks_(static_cast<uint8_t*>(std::aligned_alloc(64, round(ref_.ks_bytes))), &std::free) {
    std::memset(ks_.get(), 0, round(ref_.ks_bytes));
    ref_.setkey(ks_.get(), key, algo.key_bytes, true);
  }

  // One-shot encryption (decrypt = false: decryption) of `in`. With padding
  // (ECB/CBC) encryption pads; decryption strips and returns false on bad
  // padding. Without padding ECB/CBC need whole blocks (false otherwise).
  // CFB1 counts `nbits` bits when given (in holds ceil(nbits / 8) bytes;
  // output bits past nbits are zero).
  bool crypt(ModelMode m, bool encrypt, bool pad, const std::vector<uint8_t>& iv,
             std::vector<uint8_t> in, std::vector<uint8_t>* out, size_t nbits = SIZE_MAX) const {
    const size_t bs = bs_;
    std::vector<uint8_t> reg(iv);
    reg.resize(bs);
    out->assign(in.size(), 0);
    std::vector<uint8_t> k(bs);
    switch (m) {
      case ModelMode::kECB:
      case ModelMode::kCBC: {
        if (encrypt && pad) in.resize((in.size() / bs + 1) * bs, uint8_t(bs - in.size() % bs));
        if (in.size() % bs != 0 || (!encrypt && pad && in.empty())) return false;
        out->assign(in.size(), 0);
        for (size_t i = 0; i < in.size(); i += bs) {
          uint8_t* y = out->data() + i;
          const uint8_t* x = in.data() + i;
          if (encrypt) {
            for (size_t j = 0; j < bs; ++j) k[j] = uint8_t(x[j] ^ (m == ModelMode::kCBC ? reg[j] : 0));
            ref_.encrypt(ks_.get(), k.data(), y, 1);
            std::memcpy(reg.data(), y, bs);
          } else {
            ref_.decrypt(ks_.get(), x, y, 1);
            if (m == ModelMode::kCBC)
              for (size_t j = 0; j < bs; ++j) y[j] ^= reg[j];
            std::memcpy(reg.data(), x, bs);
          }
        }
        if (!encrypt && pad) {
          const uint8_t p = out->back();
          if (p == 0 || p > bs) return false;
          for (size_t j = out->size() - p; j < out->size(); ++j)
            if ((*out)[j] != p) return false;
          out->resize(out->size() - p);
        }
        return true;
      }
      case ModelMode::kCFB:
      case ModelMode::kOFB:
      case ModelMode::kCTR:
        for (size_t i = 0; i < in.size(); i += bs) {
          const size_t n = std::min(bs, in.size() - i);
          ref_.encrypt(ks_.get(), reg.data(), k.data(), 1);
          for (size_t j = 0; j < n; ++j) (*out)[i + j] = uint8_t(in[i + j] ^ k[j]);
          if (m == ModelMode::kOFB) {
            reg = k;
          } else if (m == ModelMode::kCTR) {
            for (size_t j = bs; j-- > 0;)
              if (++reg[j] != 0) break;
          } else if (n == bs) {
            std::memcpy(reg.data(), encrypt ? out->data() + i : in.data() + i, bs);
          }
        }
        return true;
      case ModelMode::kCFB8:
        for (size_t i = 0; i < in.size(); ++i) {
          ref_.encrypt(ks_.get(), reg.data(), k.data(), 1);
          (*out)[i] = uint8_t(in[i] ^ k[0]);
          reg.erase(reg.begin());
          reg.push_back(encrypt ? (*out)[i] : in[i]);
        }
        return true;
      case ModelMode::kCFB1: {
        const size_t bits = nbits == SIZE_MAX ? in.size() * 8 : nbits;
        for (size_t b = 0; b < bits; ++b) {
          ref_.encrypt(ks_.get(), reg.data(), k.data(), 1);
          const int x = (in[b / 8] >> (7 - b % 8)) & 1, y = x ^ (k[0] >> 7);
          (*out)[b / 8] = uint8_t((*out)[b / 8] | (y << (7 - b % 8)));
          const int c = encrypt ? y : x;
          for (size_t j = 0; j + 1 < bs; ++j) reg[j] = uint8_t((reg[j] << 1) | (reg[j + 1] >> 7));
          reg[bs - 1] = uint8_t((reg[bs - 1] << 1) | c);
        }
        return true;
      }
    }
    return false;
  }

 private:
  static size_t round(size_t n) { return (n + 63) / 64 * 64 + 64; }
  const CipherHw& ref_;
  size_t bs_;
  std::unique_ptr<uint8_t, decltype(&std::free)> ks_;
};

}  // namespace gpucrypto::test
