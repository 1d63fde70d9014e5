// Constant-time check of the CPU cipher and KEM paths ("ctgrind", A. Langley
// 2010): run under valgrind memcheck with the secrets -- keys, plaintexts,
// KEM private keys and messages -- marked undefined. Memcheck then reports
// every branch ("Conditional jump or move depends on uninitialised value")
// and every memory address ("Use of uninitialised value of size 8") computed
// from a secret, i.e. exactly the timing leaks we rule out.
//
//   valgrind --error-exitcode=1 ct_harness            all runnable paths
//   valgrind ct_harness --canary                      self-check: must exit 0
//   ct_harness --list                                 what would run
//   valgrind --error-exitcode=1 ct_harness --tls      the TLS CBC unpadding alone
//   (--gcm, --p384: GCM or P-384 alone)
//
// Which paths run: every CipherHw of every algorithm whose `required`
// features the CPU *as valgrind presents it* has. Valgrind 3.19 decodes
// neither AVX-512 nor GFNI nor VAES, and its synthetic CPUID hides them, so
// the AVX-512 / GFNI / VAES implementations are listed as skipped; see the
// README section "Hardening" for how those are covered instead.
#include <openssl/crypto.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ciphers/block_cipher.h"
#include "engine/block_modes.h"
#include "gpu/kernels/host_tables.h"
#include "gpu/launch.h"
#include "ciphers/gcm/gcm_mode.h"
#include "ciphers/ghash/ghash.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/sm4/sm4.h"
#include "platform/cpu_features.h"
#include "provider/tls_cbc_pad.h"
#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"
#include "kem/mlkem/mlkem_impl.h"
#include "kem/p384/p384.h"
#include "test/ct/cipher_algos.h"

namespace {

using gpucrypto::CipherAlgo;
using gpucrypto::CipherHw;

void secret(const void* p, size_t n) { VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
// The secret parts of a babyKyber private key, s || pk || H(pk) || z: s and z.
// The embedded public key and its hash are public (decapsulation re-encrypts
// under pk and may validate it).
void secret_sk(const uint8_t* sk) {
  secret(sk, BABYKYBER_PKE_SECRETKEY_BYTES);
  secret(sk + BABYKYBER_SECRETKEY_BYTES - 32, 32);
}
// A babyKyber message is 4 secret bits in a byte whose high nibble must be
// zero: only the low nibble is secret (the range check on the high nibble
// is input validation, not a leak).
void secret_nibbles(uint8_t* p, size_t n) {
  std::vector<uint8_t> vbits(n, 0x0f);  // memcheck V bits: 1 = undefined
  (void)VALGRIND_SET_VBITS(p, vbits.data(), n);
}
// Results are public once computed (they leave the function); declassify so
// that checking them does not count as a leak.
void declassify(const void* p, size_t n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }
long errors_so_far() { return long(VALGRIND_COUNT_ERRORS); }

// Deterministic filler: the values do not matter to memcheck, only their
// definedness, but they must be valid keys/blocks.
void fill(uint8_t* p, size_t n, uint32_t seed) {
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    p[i] = uint8_t(x >> 24);
  }
}

void* alloc_ks(size_t n) {
  const size_t r = (n + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, r == 0 ? 64 : r);
  std::memset(p, 0, r == 0 ? 64 : r);
  return p;
}

struct Tally {
  int checked = 0, leaking = 0, skipped = 0;
};

// True when this CPU lacks features implementation `impl` of `what` needs:
// then the line "<what> <impl> skipped: needs <features>" (what padded to
// `width`) says so and the implementation counts as skipped.
bool unsupported(Tally* t, int width, const char* what, const char* impl, uint32_t required,
                 uint32_t have) {
  const uint32_t lacking = required & ~have;
  if (lacking == 0) return false;
  std::printf("%-*s %-12s skipped: needs %s\n", width, what, impl,
              gpucrypto::cpu_features_string(lacking).c_str());
  ++t->skipped;
  return true;
}

// The mode kernels on n blocks of secret pt; outputs declassified after.
void check_modes(const CipherHw& hw, const void* ks, size_t bs, uint8_t* pt, uint8_t* ct,
                 uint8_t* back, size_t n) {
  uint8_t reg[gpucrypto::kMaxBlockBytes];
  const auto fresh_iv = [&] { std::memset(reg, 0x3c, bs); };
  using Kernel = void (*)(const CipherHw&, const void*, size_t, uint8_t*, const uint8_t*, uint8_t*, size_t);
  const std::pair<Kernel, Kernel> pairs[] = {{gpucrypto::cbc_encrypt, gpucrypto::cbc_decrypt},
                                             {gpucrypto::cfb_encrypt, gpucrypto::cfb_decrypt},
                                             {gpucrypto::ofb_crypt, gpucrypto::ofb_crypt}};
  for (const auto& [enc, dec] : pairs) {
    secret(pt, n * bs);
    fresh_iv();
    enc(hw, ks, bs, reg, pt, ct, n);
    fresh_iv();
    dec(hw, ks, bs, reg, ct, back, n);
    fresh_iv();
    dec(hw, ks, bs, reg, ct, ct, n);  // in place (the composition's staging path)
    declassify(ct, n * bs);
    declassify(back, n * bs);
    declassify(reg, bs);
  }
  for (bool encrypt : {true, false}) {
    secret(pt, n * bs);
    fresh_iv();
    gpucrypto::cfb8_crypt(hw, ks, bs, reg, pt, ct, std::min<size_t>(n * bs, 2 * bs), encrypt);
    fresh_iv();
    gpucrypto::cfb1_crypt(hw, ks, bs, reg, pt, ct, 16, encrypt);
    declassify(ct, n * bs);
    declassify(reg, bs);
  }
}

// One implementation: key setup (encrypt and decrypt schedules), ECB both
// ways and CTR, over block counts that reach the SIMD main loop and its tail;
// the chained modes' kernels over it (engine/block_modes.h: CBC, CFB, OFB
// both ways, CFB8, CFB1), with secret plaintext and everything computed from
// it (the IV is public).
void check_impl(const CipherAlgo& a, const CipherHw& hw, Tally* t) {
  const size_t bs = a.block_bytes;
  const size_t max_blocks = std::max<size_t>(2 * hw.batch_blocks + 3, 33);
  std::vector<uint8_t> key(a.key_bytes), pt(max_blocks * bs), ct(max_blocks * bs),
      back(max_blocks * bs);
  fill(key.data(), key.size(), uint32_t(a.key_bytes * 131 + bs));
  fill(pt.data(), pt.size(), 7);
  void* ks = alloc_ks(hw.ks_bytes);
  const long before = errors_so_far();

  secret(key.data(), key.size());
  hw.setkey(ks, key.data(), key.size(), /*with_decrypt=*/true);
  // 1, 2, 4, 5, 16 and 33 blocks: the small-call paths inside the SIMD hooks
  // (one and several registers, groups; VAES AES hands up to 4 blocks to AES-NI) and the tails routed to a narrower
  // batch (SKINNY's AVX-512 hooks hand 17..64 blocks to the AVX2 batch); half
  // a batch + 1 and one block less than a batch: the masked multi-group paths
  // below a whole batch (RECTANGLE).
  for (size_t n : {size_t(1), size_t(2), size_t(4), size_t(5), size_t(16), size_t(33), hw.batch_blocks / 2 + 1,
                   hw.batch_blocks > 1 ? hw.batch_blocks - 1 : 1, hw.batch_blocks, max_blocks}) {
    secret(pt.data(), n * bs);
    hw.encrypt(ks, pt.data(), ct.data(), n);
    hw.decrypt(ks, ct.data(), back.data(), n);
    declassify(back.data(), n * bs);
    // The counter is public (it is the IV); start near the wrap so the carry
    // across the whole block runs too.
    uint8_t ctr[gpucrypto::kMaxBlockBytes];
    std::memset(ctr, 0xff, bs);
    ctr[0] = 0x5a;
    hw.ctr(ks, ctr, pt.data(), ct.data(), n);
    declassify(ct.data(), n * bs);
    declassify(ctr, bs);
    check_modes(hw, ks, bs, pt.data(), ct.data(), back.data(), n);
  }
  const long found = errors_so_far() - before;
  // Functional sanity, after declassifying: decrypt(encrypt(x)) == x.
  declassify(pt.data(), pt.size());
  bool roundtrip = true;
  hw.encrypt(ks, pt.data(), ct.data(), max_blocks);
  hw.decrypt(ks, ct.data(), back.data(), max_blocks);
  declassify(back.data(), back.size());
  roundtrip = std::memcmp(back.data(), pt.data(), pt.size()) == 0;

  OPENSSL_cleanse(ks, hw.ks_bytes);
  std::free(ks);
  std::printf("%-18s %-12s %s%s\n", a.name, hw.name,
              found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str(),
              roundtrip ? "" : "  ROUND TRIP FAILED");
  ++t->checked;
  if (found != 0 || !roundtrip) ++t->leaking;
}

void check_ciphers(Tally* t, bool list_only) {
  const uint32_t have = gpucrypto::cpu_features_detected();
  for (const CipherAlgo* a : gpucrypto::ct::all_algos()) {
    for (const CipherHw* hw : a->impls) {
      if (unsupported(t, 18, a->name, hw->name, hw->required, have)) continue;
      if (list_only) {
        std::printf("%-18s %-12s would run\n", a->name, hw->name);
        continue;
      }
      check_impl(*a, *hw, t);
    }
  }
}

// The GPU kernel bodies of the default (constant-time) family, compiled for
// the host and run by the host grid emulator (the same GPUCRYPTO_HD code nvcc
// compiles for the device): the host key schedule from a secret key, then ECB
// both ways, CTR and keystream over secret data, for block counts that leave
// the 2- and 8-block threads ragged. What memcheck sees is the bodies' own
// control flow and addressing; the device's (ptxas) is checked by reading
// the PTX (gpu/README.md, "Constant-time kernels").
void check_gpu_kernels(Tally* t) {
  namespace g = gpucrypto::gpu;
  using g::Cipher;
  for (const gpucrypto::CipherRow& row : gpucrypto::cipher_rows()) {
    if (!row.gpu) continue;
    const Cipher c = *row.gpu;
    const size_t bb = g::block_bytes(c), max_blocks = 19;
    std::vector<uint8_t> key(g::key_bytes(c)), pt(max_blocks * bb), out(max_blocks * bb),
        back(max_blocks * bb);
    fill(key.data(), key.size(), uint32_t(key.size() * 7 + bb));
    fill(pt.data(), pt.size(), 11);
    const long before = errors_so_far();
    bool roundtrip = true;
    for (gpucrypto::gpu::kern::Op op : {gpucrypto::gpu::kern::Op::kEncrypt, gpucrypto::gpu::kern::Op::kCtr,
                                        gpucrypto::gpu::kern::Op::kKeystream}) {
      g::CipherLaunch enc{c, op}, dec{c, gpucrypto::gpu::kern::Op::kDecrypt};
      secret(key.data(), key.size());
      g::build_schedule(c, key.data(), key.size(), &enc.ks);
      dec.ks = enc.ks;
      enc.threads = dec.threads = 8;  // several CTAs, ragged last thread
      for (uint32_t& w : enc.ctr_be) w = 0xffffffffu;  // public counter near the wrap
      for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(9), max_blocks}) {
        secret(pt.data(), n * bb);
        g::emulate_cipher(enc, {pt.data(), out.data(), n, &g::kern::host_tables()});
        if (op == gpucrypto::gpu::kern::Op::kEncrypt) {
          g::emulate_cipher(dec, {out.data(), back.data(), n, &g::kern::host_tables()});
          declassify(back.data(), n * bb);
          declassify(pt.data(), n * bb);
          roundtrip &= std::memcmp(back.data(), pt.data(), n * bb) == 0;
        }
        declassify(out.data(), n * bb);
      }
      OPENSSL_cleanse(&enc.ks, sizeof enc.ks);
      OPENSSL_cleanse(&dec.ks, sizeof dec.ks);
    }
    const long found = errors_so_far() - before;
    std::printf("%-18s %-12s %s%s\n", g::cipher_name(c), "gpu-ct (emu)",
                found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str(),
                roundtrip ? "" : "  ROUND TRIP FAILED");
    ++t->checked;
    if (found != 0 || !roundtrip) ++t->leaking;
  }
}

// GHASH, every implementation valgrind can run: H and the data secret
// through init, extend, ghash (1, 3, 4, 5, 33 and 100 blocks: the
// aggregated loops and their tails) and mul; then GCM end to end on the
// implementations valgrind decodes (AES-NI/ref AES and SM4 with
// PCLMULQDQ/ref GHASH): secret key, AAD and plaintext, and the tag check of
// a right and of a wrong secret tag (the comparison must not branch).
void check_gcm(Tally* t) {
  const uint32_t have = gpucrypto::cpu_features_detected();
  auto step = [&](const std::string& what, long before) {
    const long found = errors_so_far() - before;
    std::printf("%-44s %s\n", what.c_str(),
                found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str());
    ++t->checked;
    if (found != 0) ++t->leaking;
  };
  for (const gpucrypto::GhashHw* g : gpucrypto::ghash_impls()) {
    if (unsupported(t, 0, "GHASH", g->name, g->required, have)) continue;
    uint8_t h[16], x[16], r[16];
    std::vector<uint8_t> data(16 * 100);
    fill(h, sizeof h, 41);
    fill(x, sizeof x, 42);
    fill(data.data(), data.size(), 43);
    auto* key = static_cast<gpucrypto::GhashKey*>(alloc_ks(sizeof(gpucrypto::GhashKey)));
    const long before = errors_so_far();
    secret(h, sizeof h);
    g->init(key, h);
    for (uint32_t want : {1u, 4u, 8u, 16u, 32u}) {  // every power level
      g->extend(key, want);
      for (size_t n : {size_t(1), size_t(3), size_t(4), size_t(5), size_t(33), size_t(100)}) {
        secret(data.data(), 16 * n);
        secret(x, sizeof x);
        g->ghash(key, x, data.data(), n);
      }
    }
    g->mul(r, x, h);
    declassify(r, sizeof r);
    step(std::string("GHASH ") + g->name, before);
    OPENSSL_cleanse(key, sizeof *key);
    std::free(key);
  }
  struct Combo {
    const gpucrypto::CipherAlgo* algo;
    const char* block;
    const char* ghash;
  };
  for (const Combo& c : {Combo{&gpucrypto::aes128(), "aesni", "pclmul"}, Combo{&gpucrypto::aes192(), "aesni", "pclmul"},
                         Combo{&gpucrypto::aes256(), "aesni", "pclmul"},
                         Combo{&gpucrypto::aes128(), "ref", "ref"}, Combo{&gpucrypto::sm4(), "ref", "pclmul"}}) {
    const gpucrypto::CipherHw* hw = gpucrypto::find_hw(*c.algo, c.block);
    const gpucrypto::GhashHw* gh = gpucrypto::find_ghash(c.ghash);
    const std::string name = std::string(c.algo->name) + "-GCM " + c.block + "+" + c.ghash;
    if (hw == nullptr || gh == nullptr || ((hw->required | gh->required) & ~have) != 0) {
      std::printf("%-44s skipped\n", name.c_str());
      ++t->skipped;
      continue;
    }
    auto* k = static_cast<gpucrypto::GcmKey*>(alloc_ks(sizeof(gpucrypto::GcmKey)));
    gpucrypto::GcmState st;
    uint8_t key[32], iv[12], tag[16], wrong[16];
    std::vector<uint8_t> aad(45), pt(16 * 40 + 7), ct(pt.size());
    fill(key, sizeof key, 51);
    fill(iv, sizeof iv, 52);
    fill(aad.data(), aad.size(), 53);
    fill(pt.data(), pt.size(), 54);
    const long before = errors_so_far();
    secret(key, sizeof key);
    gpucrypto::gcm_set_key(k, *c.algo, have, key, c.block, c.ghash, false);
    gpucrypto::gcm_full_powers(*k);
    gpucrypto::gcm_set_iv(*k, &st, iv, sizeof iv);  // the IV is public
    secret(aad.data(), aad.size());
    secret(pt.data(), pt.size());
    gpucrypto::gcm_aad(*k, &st, aad.data(), 13);
    gpucrypto::gcm_aad(*k, &st, aad.data() + 13, aad.size() - 13);
    gpucrypto::gcm_crypt(*k, &st, pt.data(), ct.data(), 9, true);
    gpucrypto::gcm_crypt(*k, &st, pt.data() + 9, ct.data() + 9, pt.size() - 9, true);
    gpucrypto::gcm_tag(*k, &st, tag);
    declassify(ct.data(), ct.size());
    step(name + " encrypt", before);
    // Decrypt and check a right and a wrong tag, both secret.
    for (int bad = 0; bad < 2; ++bad) {
      const long b2 = errors_so_far();
      std::memcpy(wrong, tag, 16);
      wrong[7] ^= uint8_t(bad);
      secret(wrong, sizeof wrong);
      gpucrypto::gcm_set_iv(*k, &st, iv, sizeof iv);
      gpucrypto::gcm_aad(*k, &st, aad.data(), aad.size());
      gpucrypto::gcm_crypt(*k, &st, ct.data(), pt.data(), ct.size(), false);
      bool ok = gpucrypto::gcm_check_tag(*k, &st, wrong, 16);
      declassify(&ok, sizeof ok);
      declassify(pt.data(), pt.size());
      step(name + (bad ? " decrypt, wrong tag" : " decrypt, right tag"), b2);
      if (ok == bool(bad)) std::printf("%s: tag check gave the wrong verdict\n", name.c_str()), ++t->leaking;
    }
    // Records (13-byte AAD; three whole blocks and a tail, twenty and a
    // tail): their blocks pend and the tag hashes them with the AAD's and
    // the lengths at once; the longer one's CTR is the kernel's short-run CTR.
    {
      const long b4 = errors_so_far();
      for (size_t len : {size_t(53), size_t(333)})
        for (int enc = 1; enc >= 0; --enc) {
          gpucrypto::gcm_set_iv(*k, &st, iv, sizeof iv);
          gpucrypto::gcm_aad(*k, &st, aad.data(), 13);
          gpucrypto::gcm_crypt(*k, &st, enc ? pt.data() : ct.data(), enc ? ct.data() : pt.data(), len, enc);
          gpucrypto::gcm_tag(*k, &st, tag);
        }
      declassify(ct.data(), ct.size());
      declassify(pt.data(), pt.size());
      declassify(tag, sizeof tag);
      step(name + " record (pending blocks)", b4);
    }
    // One-shot use (key and IV together, as `openssl speed`): the key pass's
    // keystream for the first blocks, the power levels a short run adds.
    if (c.algo->block_bytes == 16 && std::strcmp(c.block, "aesni") == 0) {
      const long b3 = errors_so_far();
      for (size_t len : {size_t(16), size_t(64), size_t(256)}) {
        gpucrypto::gcm_set_key_iv(k, *c.algo, have, key, iv, sizeof iv);
        gpucrypto::gcm_set_iv(*k, &st, iv, sizeof iv);
        gpucrypto::gcm_crypt(*k, &st, pt.data(), ct.data(), len, true);
        gpucrypto::gcm_tag(*k, &st, tag);
      }
      declassify(ct.data(), ct.size());
      declassify(tag, sizeof tag);
      step(std::string(c.algo->name) + "-GCM one-shot key+IV (best paths)", b3);
    }
    OPENSSL_cleanse(k, sizeof *k);
    std::free(k);
  }
}

// babyKyber: key generation from a secret seed, encapsulation of a secret
// message, decapsulation with a secret key (of a valid and of a tampered
// ciphertext: the implicit-rejection choice must not branch), and the batch
// paths (the vector path babykyber_batch_impl() names; under valgrind 3.19
// run with GPUCRYPTO_BACKEND=ref: valgrind cannot decode the reg-reg VEX
// vmovq that GCC emits in kem/babykyber/avx2.cpp).
void check_kem(Tally* t) {
  uint8_t seed[BABYKYBER_KEYGEN_SEED_BYTES], pk[BABYKYBER_PUBLICKEY_BYTES],
      sk[BABYKYBER_SECRETKEY_BYTES], ct[BABYKYBER_CIPHERTEXT_BYTES],
      ss[BABYKYBER_SHARED_SECRET_BYTES], ss2[BABYKYBER_SHARED_SECRET_BYTES];
  fill(seed, sizeof seed, 99);
  struct Step {
    const char* what;
    long errors;
  };
  std::vector<Step> steps;
  auto run = [&](const char* what, auto&& fn) {
    const long before = errors_so_far();
    const int rc = fn();
    steps.push_back({what, errors_so_far() - before});
    if (rc != BABYKYBER_OK) std::printf("babyKyber %s: rc %d (%s)\n", what, rc, babykyber_strerror(rc));
  };
  run("keypair_derand", [&] {
    secret(seed, sizeof seed);
    const int rc = babykyber_keypair_derand(nullptr, pk, sk, seed);
    declassify(pk, sizeof pk);  // the public key is public, inside sk too
    declassify(sk + BABYKYBER_PKE_SECRETKEY_BYTES, BABYKYBER_PUBLICKEY_BYTES + 32);
    return rc;
  });
  run("encaps_derand", [&] {
    uint8_t m = 11;
    secret_nibbles(&m, 1);
    const int rc = babykyber_encaps_derand(nullptr, ct, ss, pk, m);
    declassify(ct, sizeof ct);
    declassify(ss, sizeof ss);
    return rc;
  });
  run("decaps (valid ct)", [&] {
    secret_sk(sk);
    const int rc = babykyber_decaps(nullptr, ss2, ct, sk);
    declassify(ss2, sizeof ss2);
    return rc;
  });
  run("decaps (tampered ct)", [&] {
    uint8_t bad[BABYKYBER_CIPHERTEXT_BYTES];
    std::memcpy(bad, ct, sizeof bad);
    bad[0] ^= 1;
    secret_sk(sk);
    const int rc = babykyber_decaps(nullptr, ss2, bad, sk);
    declassify(ss2, sizeof ss2);
    return rc;
  });
  constexpr size_t kN = 37;  // a full vector batch and a tail
  std::vector<uint8_t> seeds(kN * BABYKYBER_KEYGEN_SEED_BYTES), pks(kN * BABYKYBER_PUBLICKEY_BYTES),
      sks(kN * BABYKYBER_SECRETKEY_BYTES), cts(kN * BABYKYBER_CIPHERTEXT_BYTES),
      sss(kN * BABYKYBER_SHARED_SECRET_BYTES), ms(kN);
  fill(seeds.data(), seeds.size(), 5);
  for (size_t i = 0; i < kN; ++i) ms[i] = uint8_t(i & 15);
  run("keypair_batch", [&] {
    secret(seeds.data(), seeds.size());
    const int rc = babykyber_keypair_batch(nullptr, kN, pks.data(), sks.data(), seeds.data(), 1);
    declassify(pks.data(), pks.size());
    for (size_t i = 0; i < kN; ++i)
      declassify(sks.data() + i * BABYKYBER_SECRETKEY_BYTES + BABYKYBER_PKE_SECRETKEY_BYTES,
                 BABYKYBER_PUBLICKEY_BYTES + 32);
    return rc;
  });
  run("encaps_batch", [&] {
    secret_nibbles(ms.data(), ms.size());
    const int rc = babykyber_encaps_batch(nullptr, kN, cts.data(), sss.data(), pks.data(), ms.data(), 1);
    declassify(cts.data(), cts.size());
    return rc;
  });
  run("decaps_batch", [&] {
    cts[3] ^= 0x10;  // one implicit rejection among valid ones
    for (size_t i = 0; i < kN; ++i) secret_sk(sks.data() + i * BABYKYBER_SECRETKEY_BYTES);
    const int rc = babykyber_decaps_batch(nullptr, kN, sss.data(), cts.data(), sks.data(), 1);
    declassify(sss.data(), sss.size());
    return rc;
  });
  for (const Step& s : steps) {
    std::printf("babyKyber %-22s (%s) %s\n", s.what, babykyber_batch_impl(),
                s.errors == 0 ? "clean" : (std::to_string(s.errors) + " secret-dependent uses").c_str());
    ++t->checked;
    if (s.errors != 0) ++t->leaking;
  }
}

// ML-KEM, every kernel set valgrind can run (ref, avx2), every level:
// KeyGen_internal from a secret d || z, Encaps_internal of a secret m, and
// Decaps_internal of a valid and of a tampered ciphertext under a secret dk.
// rho = G(d)[0:32] is public (it is the tail of ek), and SampleNTT's
// rejection loop branches on it by design: test/ct/ct.supp lets exactly that
// loop (rej_uniform, the matrix expansion) through; everything else in the
// call stays checked.
void check_mlkem(Tally* t) {
  namespace mk = gpucrypto::kem::mlkem;
  const uint32_t have = gpucrypto::cpu_features_detected();
  for (const mk::Impl* impl : mk::impls()) {
    if (unsupported(t, 0, "ML-KEM", impl->name, impl->required, have)) continue;
    for (int level : {512, 768, 1024}) {
      const mk::LevelOps& ops = impl->ops[mk::level_index(level)];
      std::vector<uint8_t> ek(mlkem_publickey_bytes(level)), dk(mlkem_secretkey_bytes(level)),
          ct(mlkem_ciphertext_bytes(level));
      const size_t dk_pke = 384 * size_t(level / 256);  // ByteEncode12(s_hat)
      uint8_t seed[64], m[32], ss[32], ss2[32];
      fill(seed, sizeof seed, uint32_t(level));
      fill(m, sizeof m, uint32_t(level + 1));
      auto secret_dk = [&] {
        secret(dk.data(), dk_pke);                 // s_hat
        secret(dk.data() + dk.size() - 32, 32);    // z
      };
      auto step = [&](const char* what, auto&& fn) {
        const long before = errors_so_far();
        fn();
        const long found = errors_so_far() - before;
        std::printf("ML-KEM-%-4d %-8s %-20s %s\n", level, impl->name, what,
                    found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str());
        ++t->checked;
        if (found != 0) ++t->leaking;
      };
      step("keygen", [&] {
        secret(seed, sizeof seed);
        ops.keygen(ek.data(), dk.data(), seed, seed + 32);
        declassify(ek.data(), ek.size());
        declassify(dk.data() + dk_pke, ek.size() + 32);  // ek || H(ek) inside dk
      });
      step("encaps", [&] {
        secret(m, sizeof m);
        (void)ops.encaps(ct.data(), ss, ek.data(), m);
        declassify(ct.data(), ct.size());
        declassify(ss, sizeof ss);
      });
      step("decaps (valid ct)", [&] {
        secret_dk();
        ops.decaps(ss2, ct.data(), dk.data());
        declassify(ss2, sizeof ss2);
      });
      step("decaps (tampered)", [&] {
        ct[5] ^= 0x40;
        secret_dk();
        ops.decaps(ss2, ct.data(), dk.data());
        declassify(ss2, sizeof ss2);
      });
      declassify(dk.data(), dk.size());
    }
  }
}

// P-384 (the classical half of SecP384r1MLKEM1024), both implementations:
// the private scalar secret; d*G (the comb, its table scanned with masks) and
// x(d*P) (Jacobian windows, identity handled by masks, the final inversion).
// The peer's point is public; the yes/no answer and the output leave
// declassified.
void check_p384(Tally* t) {
  namespace p384 = gpucrypto::p384;
  // Valgrind decodes MULX/ADCX/ADOX but its synthetic CPUID hides ADX: under
  // valgrind the ADX path is run regardless (checked: it executes there).
  const uint32_t adx = gpucrypto::kBMI2 | gpucrypto::kADX;
  const uint32_t have = gpucrypto::cpu_features_detected() | (RUNNING_ON_VALGRIND != 0 ? adx : 0);
  const struct {
    const char* name;
    uint32_t required, features;
  } impls[] = {{"portable", 0, 0}, {"adx", adx, have}};
  for (const auto& impl : impls) {
    if (unsupported(t, 0, "P-384", impl.name, impl.required, have)) continue;
    uint8_t d[48], e[48], peer[97], pub[97], ss[48];
    fill(d, sizeof d, 384);
    fill(e, sizeof e, 385);
    d[0] &= 0x7f;  // below n
    e[0] &= 0x7f;
    (void)p384::public_key(peer, e, impl.features);
    auto step = [&](const char* what, auto&& fn) {
      const long before = errors_so_far();
      fn();
      const long found = errors_so_far() - before;
      std::printf("P-384 %-8s %-20s %s\n", impl.name, what,
                  found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str());
      ++t->checked;
      if (found != 0) ++t->leaking;
    };
    step("public key", [&] {
      secret(d, sizeof d);
      bool ok = p384::public_key(pub, d, impl.features);
      declassify(&ok, sizeof ok);
      declassify(pub, sizeof pub);
      if (!ok) std::printf("P-384 %s: public key failed\n", impl.name);
    });
    step("ecdh", [&] {
      secret(d, sizeof d);
      bool ok = p384::ecdh(ss, d, peer, impl.features);
      declassify(&ok, sizeof ok);
      declassify(ss, sizeof ss);
      if (!ok) std::printf("P-384 %s: ecdh failed\n", impl.name);
    });
    declassify(d, sizeof d);
  }
}

// TLS CBC record unpadding (provider/tls_cbc_pad.h, the Lucky Thirteen
// path): the whole decrypted record secret -- payload, MAC, padding and its
// length byte -- and the random MAC, for SSL 3.0 and TLS rules, block sizes 8,
// 16 and 32, MAC sizes 0 (encrypt-then-MAC), 20, 32 and 48, record lengths
// inside and beyond the 256-byte scan window, good and bad paddings. The
// record length is public; the payload length, the MAC and `good` come out
// declassified (libssl checks the MAC next).
void check_tls_unpad(Tally* t) {
  const long before = errors_so_far();
  int runs = 0;
  bool right = true;
  for (bool ssl3 : {false, true}) {
    for (size_t bs : {size_t(8), size_t(16), size_t(32)}) {
      for (size_t mac_size : {size_t(0), size_t(20), size_t(32), size_t(48)}) {
        for (size_t len : {size_t(4) * bs, size_t(96), size_t(1024) + bs}) {
          for (int bad = 0; bad < 2; ++bad) {
            len -= len % bs;
            std::vector<uint8_t> rec(len);
            uint8_t randmac[gpucrypto::tls::kMaxMacBytes], mac[gpucrypto::tls::kMaxMacBytes];
            fill(rec.data(), rec.size(), uint32_t(len + mac_size + bs));
            fill(randmac, sizeof randmac, 77);
            const size_t pad = ssl3 ? bs - 1 : (len - mac_size - 1) % 256 / bs * bs + (bs - 1);
            if (len < mac_size + 1 + pad) continue;
            for (size_t i = 0; i <= pad; ++i) rec[len - 1 - i] = uint8_t(pad);
            if (bad) rec[len - 2] ^= 0x40;  // a padding byte (SSL 3.0 does not check it)
            secret(rec.data(), rec.size());
            secret(randmac, sizeof randmac);
            size_t out = len;
            const gpucrypto::tls::Unpadded u = gpucrypto::tls::remove_padding_and_mac(
                ssl3, rec.data(), &out, bs, mac_size, randmac, mac);
            declassify(&out, sizeof out);
            declassify(mac, sizeof mac);
            size_t good = u.good;
            declassify(&good, sizeof good);
            declassify(rec.data(), rec.size());
            const bool want_good = ssl3 || !bad;
            right &= u.publicly_valid && (good != 0) == want_good &&
                     out == len - mac_size - (want_good ? pad + 1 : 0);
            ++runs;
          }
        }
      }
    }
  }
  const long found = errors_so_far() - before;
  std::printf("%-44s %s%s\n", ("TLS CBC unpad + MAC copy (" + std::to_string(runs) + " records)").c_str(),
              found == 0 ? "clean" : (std::to_string(found) + " secret-dependent uses").c_str(),
              right ? "" : "  WRONG RESULT");
  ++t->checked;
  if (found != 0 || !right) ++t->leaking;
}

// --- canaries: code that leaks on purpose, to prove the check sees it -------

// A classic table-based S-box: the memory index is the secret byte.
__attribute__((noinline)) void table_sbox(const uint8_t* in, uint8_t* out, size_t n) {
  static const uint8_t kTable[256] = {
      0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76};
  for (size_t i = 0; i < n; ++i) out[i] = kTable[in[i]];
}

// Early-exit comparison: the branch depends on secret bytes.
__attribute__((noinline)) int early_exit_compare(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return 1;
  return 0;
}

// TLS padding checked the naive way: stops at the first bad byte and reads
// only the padding length's worth (the timing Lucky Thirteen measures).
__attribute__((noinline)) bool naive_tls_unpad(const uint8_t* rec, size_t len) {
  const size_t pad = rec[len - 1];
  if (pad + 1 > len) return false;
  for (size_t i = 0; i <= pad; ++i)
    if (rec[len - 1 - i] != pad) return false;
  return true;
}

int run_canaries() {
  uint8_t k[16], out[16];
  fill(k, sizeof k, 3);
  int missed = 0;
  long before = errors_so_far();
  secret(k, sizeof k);
  table_sbox(k, out, sizeof k);
  declassify(out, sizeof out);
  long found = errors_so_far() - before;
  std::printf("canary table-lookup S-box:   %ld reports (%s)\n", found, found > 0 ? "caught" : "MISSED");
  missed += found == 0;
  before = errors_so_far();
  uint8_t other[16] = {};
  secret(k, sizeof k);
  volatile int r = early_exit_compare(k, other, sizeof k);
  (void)r;
  found = errors_so_far() - before;
  std::printf("canary early-exit compare:   %ld reports (%s)\n", found, found > 0 ? "caught" : "MISSED");
  missed += found == 0;
  {
    uint8_t rec[64];
    fill(rec, sizeof rec, 9);
    rec[63] = 3;
    before = errors_so_far();
    secret(rec, sizeof rec);
    volatile bool ok = naive_tls_unpad(rec, sizeof rec);
    (void)ok;
    found = errors_so_far() - before;
    std::printf("canary naive TLS unpadding:  %ld reports (%s)\n", found, found > 0 ? "caught" : "MISSED");
    missed += found == 0;
  }
  // The GPU T-table AES kernel (gpu_kernels=tables) on the host emulator:
  // its secret shared-memory indices must be reported.
  {
    namespace g = gpucrypto::gpu;
    uint8_t key[16], pt[64], ct[64];
    fill(key, sizeof key, 5);
    fill(pt, sizeof pt, 6);
    g::CipherLaunch l{g::Cipher::kAES128, g::kern::Op::kEncrypt};
    l.family = g::KernelFamily::kTables;
    g::build_schedule(l.cipher, key, sizeof key, &l.ks);
    before = errors_so_far();
    secret(pt, sizeof pt);
    g::emulate_cipher(l, {pt, ct, 4, &g::kern::host_tables()});
    declassify(ct, sizeof ct);
    found = errors_so_far() - before;
    std::printf("canary GPU T-table AES:      %ld reports (%s)\n", found, found > 0 ? "caught" : "MISSED");
    missed += found == 0;
  }
  return missed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool under = RUNNING_ON_VALGRIND != 0;
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // keep the report if a path dies
  if (mode == "--canary") {
    if (!under) {
      std::fprintf(stderr, "--canary only means something under valgrind\n");
      return 2;
    }
    return run_canaries();
  }
  Tally t;
  if (mode == "--tls" || mode == "--gcm" || mode == "--p384") {  // one part alone
    (mode == "--tls" ? check_tls_unpad : mode == "--gcm" ? check_gcm : check_p384)(&t);
    if (!under) return 2;
    return t.leaking == 0 ? 0 : 1;
  }
  std::printf("CPU features seen: %s\n",
              gpucrypto::cpu_features_string(gpucrypto::cpu_features_detected()).c_str());
  check_ciphers(&t, mode == "--list");
  if (mode == "--list") return 0;
  check_gcm(&t);
  check_kem(&t);
  check_mlkem(&t);
  check_p384(&t);
  check_tls_unpad(&t);
  check_gpu_kernels(&t);
  std::printf("checked %d paths, %d with secret-dependent branches or indices, %d skipped%s\n",
              t.checked, t.leaking, t.skipped, under ? "" : " (NOT under valgrind: nothing was checked)");
  if (!under) return 2;
  return t.leaking == 0 ? 0 : 1;
}
