/*
 * babyKyber: the toy Kyber of the "Kyber - How does it work?" worked example
 * (ring Z_17[x]/(x^4 + 1), rank 2, 4-bit messages, no compression) as a
 * Fujisaki-Okamoto KEM in the style of ML-KEM (FIPS 203).
 *
 *   *** NO SECURITY. There are only 16 possible messages, so a shared secret
 *   *** is found by trying 16 candidates. For teaching, testing and throughput
 *   *** experiments only.
 *
 * C API. Every function returns BABYKYBER_OK (0) or a negative error code;
 * babykyber_strerror() describes it. Hashing (SHA3-256, SHA3-512, SHAKE256)
 * is fetched from `libctx` (NULL = the default library context), so a
 * provider offering SHA-3 (normally "default") must be available there.
 *
 * Byte encodings (coefficients mod 17, 5 bits each, little-endian bit
 * packing as FIPS 203's ByteEncode_5; see kem/README.md for the details):
 *   public key  (15 bytes) = A (2x2 polynomials) || t (2 polynomials)
 *   private key (84 bytes) = s (5 bytes) || public key (15) || SHA3-256(public key) (32) || z (32)
 *   ciphertext   (8 bytes) = u (2 polynomials) || v (1 polynomial) || 4 zero bits
 *   shared secret (32 bytes)
 *
 * Batch functions process `n` independent instances stored back to back
 * (instance i of a public-key array starts at i * BABYKYBER_PUBLICKEY_BYTES,
 * and so on), vectorised over instances (AVX-512 or AVX2 when the CPU has
 * them) and split across the provider's thread pool:
 * `threads` = 0 uses every pool thread, 1 only the calling thread, t > 1 at
 * most t threads. Results are identical to n one-by-one calls. Output buffers
 * must not overlap inputs.
 */
#ifndef GPUCRYPTO_BABYKYBER_H
#define GPUCRYPTO_BABYKYBER_H

#include <openssl/types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BABYKYBER_PUBLICKEY_BYTES 15
#define BABYKYBER_SECRETKEY_BYTES 84
#define BABYKYBER_CIPHERTEXT_BYTES 8
#define BABYKYBER_SHARED_SECRET_BYTES 32
/* Key generation seed: d (32 bytes, expanded into A, s, e) || z (32 bytes,
 * the implicit-rejection secret). */
#define BABYKYBER_KEYGEN_SEED_BYTES 64
/* Encapsulation randomness: the message m, one byte holding 4 bits (0..15). */
#define BABYKYBER_ENCAPS_SEED_BYTES 1

/* The bare public-key encryption scheme (no hashing, no FO transform). */
#define BABYKYBER_PKE_SECRETKEY_BYTES 5
#define BABYKYBER_PKE_KEYGEN_COINS_BYTES 35
#define BABYKYBER_PKE_ENCRYPT_COINS_BYTES 4
#define BABYKYBER_PKE_MESSAGE_BYTES 1

#define BABYKYBER_OK 0
#define BABYKYBER_ERR_ARGS (-1)   /* NULL pointer, or a message above 15 */
#define BABYKYBER_ERR_KEY (-2)    /* malformed key: coefficient >= 17, or a private
                                     key whose stored hash does not match its public key */
#define BABYKYBER_ERR_HASH (-3)   /* SHA3/SHAKE could not be fetched from libctx, or failed */
#define BABYKYBER_ERR_RAND (-4)   /* the DRBG failed */
#define BABYKYBER_ERR_MEMORY (-5)

const char* babykyber_strerror(int rc);

/* --- one instance ------------------------------------------------------- */

/* Deterministic key generation from a 64-byte seed (d || z). */
int babykyber_keypair_derand(OSSL_LIB_CTX* libctx, uint8_t pk[BABYKYBER_PUBLICKEY_BYTES],
                             uint8_t sk[BABYKYBER_SECRETKEY_BYTES],
                             const uint8_t seed[BABYKYBER_KEYGEN_SEED_BYTES]);
/* Key generation with a seed from RAND_bytes_ex(libctx). */
int babykyber_keypair(OSSL_LIB_CTX* libctx, uint8_t pk[BABYKYBER_PUBLICKEY_BYTES],
                      uint8_t sk[BABYKYBER_SECRETKEY_BYTES]);

/* Encapsulation with a caller-chosen message m (0..15). Rejects a public key
 * with a coefficient >= 17 (BABYKYBER_ERR_KEY). */
int babykyber_encaps_derand(OSSL_LIB_CTX* libctx, uint8_t ct[BABYKYBER_CIPHERTEXT_BYTES],
                            uint8_t ss[BABYKYBER_SHARED_SECRET_BYTES],
                            const uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], uint8_t m);
int babykyber_encaps(OSSL_LIB_CTX* libctx, uint8_t ct[BABYKYBER_CIPHERTEXT_BYTES],
                     uint8_t ss[BABYKYBER_SHARED_SECRET_BYTES],
                     const uint8_t pk[BABYKYBER_PUBLICKEY_BYTES]);

/* Decapsulation. Never fails on a well-formed private key: a ciphertext that
 * does not re-encrypt identically yields the implicit-rejection secret
 * SHAKE256(z || ct). The private key is not re-validated here (do it once with
 * babykyber_check_secretkey when importing it). */
int babykyber_decaps(OSSL_LIB_CTX* libctx, uint8_t ss[BABYKYBER_SHARED_SECRET_BYTES],
                     const uint8_t ct[BABYKYBER_CIPHERTEXT_BYTES],
                     const uint8_t sk[BABYKYBER_SECRETKEY_BYTES]);

/* Key validation (FIPS 203 section 7 style input checks). */
int babykyber_check_publickey(const uint8_t pk[BABYKYBER_PUBLICKEY_BYTES]);
int babykyber_check_secretkey(OSSL_LIB_CTX* libctx, const uint8_t sk[BABYKYBER_SECRETKEY_BYTES]);

/* --- batches of n independent instances ---------------------------------- */

/* seeds: n * 64 bytes, or NULL for fresh random seeds. */
int babykyber_keypair_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* pks, uint8_t* sks,
                            const uint8_t* seeds, unsigned threads);
/* ms: n message bytes (each 0..15), or NULL for random messages. Fails with
 * BABYKYBER_ERR_KEY, writing nothing, when any public key is malformed. */
int babykyber_encaps_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* cts, uint8_t* sss,
                           const uint8_t* pks, const uint8_t* ms, unsigned threads);
int babykyber_decaps_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* sss, const uint8_t* cts,
                           const uint8_t* sks, unsigned threads);

/* The bare PKE over given randomness (what the seed paper's GPU figures
 * measure). pke secret keys are 5 bytes; messages one byte (0..15). */
int babykyber_pke_keygen_batch(size_t n, uint8_t* pks, uint8_t* pke_sks, const uint8_t* coins,
                               unsigned threads);
int babykyber_pke_encrypt_batch(size_t n, uint8_t* cts, const uint8_t* pks, const uint8_t* ms,
                                const uint8_t* coins, unsigned threads);
int babykyber_pke_decrypt_batch(size_t n, uint8_t* ms, const uint8_t* cts,
                                const uint8_t* pke_sks, unsigned threads);

/* Name of the vector path the batch functions use on this CPU
 * ("avx512", "avx2" or "ref"; follows GPUCRYPTO_BACKEND caps). */
const char* babykyber_batch_impl(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUCRYPTO_BABYKYBER_H */
