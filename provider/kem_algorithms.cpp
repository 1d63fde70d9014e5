// The KEM-side algorithm tables, generated from the rows of
// provider/kem_table.h: per row one keymgmt, one KEM, five encoders
// (SubjectPublicKeyInfo and PrivateKeyInfo as DER and PEM, text) and two DER
// decoders, all under the row's names.
#include "provider/kem_algorithms.h"

#include <openssl/core_dispatch.h>

#include <array>

#include "provider/kem_dispatch.h"
#include "provider/kem_table.h"

namespace gpucrypto {
namespace {

using kemprov::Format;
using kemprov::kKemCount;
using kemprov::kKems;
using kemprov::Structure;

#define GPUC_PROPS "provider=gpucrypto"

struct Codec {
  const char* props;
  Format format;
  Structure structure;
};
constexpr Codec kEncoders[] = {
    {GPUC_PROPS ",output=der,structure=SubjectPublicKeyInfo", Format::kDer, Structure::kSpki},
    {GPUC_PROPS ",output=pem,structure=SubjectPublicKeyInfo", Format::kPem, Structure::kSpki},
    {GPUC_PROPS ",output=der,structure=PrivateKeyInfo", Format::kDer, Structure::kPki},
    {GPUC_PROPS ",output=pem,structure=PrivateKeyInfo", Format::kPem, Structure::kPki},
    {GPUC_PROPS ",output=text", Format::kText, Structure::kNone}};
constexpr Codec kDecoders[] = {
    {GPUC_PROPS ",input=der,structure=SubjectPublicKeyInfo", Format::kDer, Structure::kSpki},
    {GPUC_PROPS ",input=der,structure=PrivateKeyInfo", Format::kDer, Structure::kPki}};

// Row-major: each row's entries together, then the terminator (the unused
// tail stays zero: rows without a key format -- the hybrids -- get no
// encoders or decoders, as in OpenSSL 3.5).
template <size_t PerRow>
using AlgTable = std::array<OSSL_ALGORITHM, kKemCount * PerRow + 1>;

template <size_t PerRow, class Fn>
AlgTable<PerRow> build(const Fn& entry, bool codecs = false) {
  AlgTable<PerRow> t{};
  size_t n = 0;
  for (size_t r = 0; r < kKemCount; ++r) {
    if (codecs && kKems[r].oid_len == 0) continue;
    for (size_t i = 0; i < PerRow; ++i) t[n++] = entry(r, i);
  }
  return t;
}

OSSL_ALGORITHM alg(size_t row, const char* props, const OSSL_DISPATCH* fns) {
  return {kKems[row].names, props, fns, kKems[row].description};
}

const AlgTable<1> kKeymgmtAlgs =
    build<1>([](size_t r, size_t) { return alg(r, GPUC_PROPS, kemprov::keymgmt_dispatch(r)); });
const AlgTable<1> kKemAlgs =
    build<1>([](size_t r, size_t) { return alg(r, GPUC_PROPS, kemprov::kem_dispatch()); });
const AlgTable<std::size(kEncoders)> kEncoderAlgs = build<std::size(kEncoders)>([](size_t r, size_t i) {
  const Codec& c = kEncoders[i];
  return alg(r, c.props, kemprov::encoder_dispatch(r, c.format, c.structure));
}, true);
const AlgTable<std::size(kDecoders)> kDecoderAlgs = build<std::size(kDecoders)>([](size_t r, size_t i) {
  return alg(r, kDecoders[i].props, kemprov::decoder_dispatch(r, kDecoders[i].structure));
}, true);

#undef GPUC_PROPS

}  // namespace

const OSSL_ALGORITHM* kem_algorithms(int operation_id) {
  switch (operation_id) {
    case OSSL_OP_KEYMGMT:
      return kKeymgmtAlgs.data();
    case OSSL_OP_KEM:
      return kKemAlgs.data();
    case OSSL_OP_ENCODER:
      return kEncoderAlgs.data();
    case OSSL_OP_DECODER:
      return kDecoderAlgs.data();
    default:
      return nullptr;
  }
}

}  // namespace gpucrypto
