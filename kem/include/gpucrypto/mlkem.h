/*
 * ML-KEM-512, ML-KEM-768 and ML-KEM-1024 (FIPS 203, August 2024), C API.
 *
 * A parameter set is named by its level: 512, 768 or 1024. Every function
 * returns MLKEM_OK (0) or a negative error code; mlkem_strerror() describes
 * it. Byte formats are FIPS 203's:
 *   ek (public)  = ByteEncode12(t_hat) || rho
 *   dk (private) = ByteEncode12(s_hat) || ek || H(ek) || z   (the "expanded" key)
 *   seed         = d || z (64 bytes): KeyGen_internal(d, z) reproduces ek and dk
 *   ct, and a 32-byte shared secret.
 *
 * Hashing is this library's own constant-time Keccak; OSSL_LIB_CTX is used
 * only for randomness (RAND_bytes_ex; NULL = the default library context).
 *
 * Input checks (FIPS 203 section 7): encapsulation rejects an ek whose length
 * is wrong or which holds a coefficient >= q (MLKEM_ERR_KEY, outputs zeroed).
 * Decapsulation does NOT re-run the dk hash check on every call (it costs a
 * SHA3-256 over ek): run mlkem_check_secretkey() once when a dk arrives from
 * outside (the provider does it on import and decode). The hash check cannot
 * see a corrupted ByteEncode12(s_hat) part: the provider also runs OpenSSL
 * 3.5's pairwise test (an encapsulation to ek decapsulated with dk). Decapsulation of any ciphertext
 * of the right length succeeds; a ciphertext that does not re-encrypt
 * identically yields the implicit-rejection secret SHAKE256(z || ct, 32).
 *
 * Batch functions take n instances stored back to back (instance i of an ek
 * array starts at i * mlkem_publickey_bytes(level), and so on), split across
 * the provider's thread pool: threads = 0 uses every pool thread, 1 only the
 * calling thread, t > 1 at most t. Results equal n single calls.
 */
#ifndef GPUCRYPTO_MLKEM_H
#define GPUCRYPTO_MLKEM_H

#include <openssl/types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MLKEM512_PUBLICKEY_BYTES 800
#define MLKEM512_SECRETKEY_BYTES 1632
#define MLKEM512_CIPHERTEXT_BYTES 768
#define MLKEM768_PUBLICKEY_BYTES 1184
#define MLKEM768_SECRETKEY_BYTES 2400
#define MLKEM768_CIPHERTEXT_BYTES 1088
#define MLKEM1024_PUBLICKEY_BYTES 1568
#define MLKEM1024_SECRETKEY_BYTES 3168
#define MLKEM1024_CIPHERTEXT_BYTES 1568
#define MLKEM_MAX_PUBLICKEY_BYTES 1568
#define MLKEM_MAX_SECRETKEY_BYTES 3168
#define MLKEM_MAX_CIPHERTEXT_BYTES 1568
#define MLKEM_SHARED_SECRET_BYTES 32
#define MLKEM_KEYGEN_SEED_BYTES 64 /* d || z */
#define MLKEM_ENCAPS_SEED_BYTES 32 /* m */

#define MLKEM_OK 0
#define MLKEM_ERR_ARGS (-1)   /* NULL pointer, or a level other than 512/768/1024 */
#define MLKEM_ERR_KEY (-2)    /* ek with a coefficient >= q, or dk failing the hash check */
#define MLKEM_ERR_RAND (-4)   /* the DRBG failed */
#define MLKEM_ERR_MEMORY (-5)

const char* mlkem_strerror(int rc);

/* Sizes for a level; 0 for an unknown level. */
size_t mlkem_publickey_bytes(int level);
size_t mlkem_secretkey_bytes(int level);
size_t mlkem_ciphertext_bytes(int level);

/* --- one instance ------------------------------------------------------- */

/* ML-KEM.KeyGen_internal(d, z) from seed = d || z. */
int mlkem_keypair_derand(int level, uint8_t* ek, uint8_t* dk,
                         const uint8_t seed[MLKEM_KEYGEN_SEED_BYTES]);
/* ML-KEM.KeyGen with a seed from RAND_bytes_ex(libctx); `seed_out` (64 bytes,
 * may be NULL) receives d || z for a seed-form private key. */
int mlkem_keypair(OSSL_LIB_CTX* libctx, int level, uint8_t* ek, uint8_t* dk, uint8_t* seed_out);

/* ML-KEM.Encaps_internal(ek, m). */
int mlkem_encaps_derand(int level, uint8_t* ct, uint8_t ss[MLKEM_SHARED_SECRET_BYTES],
                        const uint8_t* ek, const uint8_t m[MLKEM_ENCAPS_SEED_BYTES]);
int mlkem_encaps(OSSL_LIB_CTX* libctx, int level, uint8_t* ct,
                 uint8_t ss[MLKEM_SHARED_SECRET_BYTES], const uint8_t* ek);

/* ML-KEM.Decaps_internal(dk, ct) with implicit rejection (see above). */
int mlkem_decaps(int level, uint8_t ss[MLKEM_SHARED_SECRET_BYTES], const uint8_t* ct,
                 const uint8_t* dk);

/* FIPS 203 section 7.2 (modulus check) and 7.3 (hash check) on keys of the
 * level's exact length. */
int mlkem_check_publickey(int level, const uint8_t* ek);
int mlkem_check_secretkey(int level, const uint8_t* dk);

/* --- batches of n independent instances ---------------------------------- */

/* seeds: n * 64 bytes, or NULL for fresh random seeds. */
int mlkem_keypair_batch(OSSL_LIB_CTX* libctx, int level, size_t n, uint8_t* eks, uint8_t* dks,
                        const uint8_t* seeds, unsigned threads);
/* ms: n * 32 bytes, or NULL for random ones. Fails with MLKEM_ERR_KEY, all
 * outputs zeroed, when any ek fails the modulus check. */
int mlkem_encaps_batch(OSSL_LIB_CTX* libctx, int level, size_t n, uint8_t* cts, uint8_t* sss,
                       const uint8_t* eks, const uint8_t* ms, unsigned threads);
int mlkem_decaps_batch(int level, size_t n, uint8_t* sss, const uint8_t* cts,
                       const uint8_t* dks, unsigned threads);

/* The kernel set in use on this CPU ("avx512", "avx2" or "ref"; follows the
 * GPUCRYPTO_BACKEND cap). */
const char* mlkem_impl(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUCRYPTO_MLKEM_H */
