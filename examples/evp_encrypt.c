/*
 * A complete program using gpucrypto through the plain EVP API: load the
 * provider (and the default provider, for random numbers), fetch a cipher by
 * name, encrypt a buffer in CTR mode in several updates, decrypt it, and
 * check the round trip. Build: cc evp_encrypt.c -lcrypto
 * Run:   ./a.out [provider-dir] [cipher]   (default cipher: SKINNY-128-256-CTR)
 */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int crypt_all(EVP_CIPHER *cipher, int enc, const unsigned char *key,
                     const unsigned char *iv, const unsigned char *in, int inl,
                     unsigned char *out, int *outl)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx != NULL && EVP_CipherInit_ex2(ctx, cipher, key, iv, enc, NULL);
    int done = 0, n = 0;
    /* Uneven pieces on purpose: CTR keeps its keystream position. */
    for (int pos = 0, step = 1000; ok && pos < inl; pos += step, step += 777) {
        int len = inl - pos < step ? inl - pos : step;
        ok = EVP_CipherUpdate(ctx, out + done, &n, in + pos, len);
        done += n;
    }
    ok = ok && EVP_CipherFinal_ex(ctx, out + done, &n);
    *outl = done + n;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    const char *name = argc > 2 ? argv[2] : "SKINNY-128-256-CTR";
    int ret = EXIT_FAILURE;

    if (dir != NULL && !OSSL_PROVIDER_set_default_search_path(NULL, dir))
        goto err;
    OSSL_PROVIDER *gpu = OSSL_PROVIDER_load(NULL, "gpucrypto");
    OSSL_PROVIDER *def = OSSL_PROVIDER_load(NULL, "default");
    if (gpu == NULL || def == NULL) {
        fprintf(stderr, "cannot load the providers (is gpucrypto.so in %s?)\n",
                dir != NULL ? dir : "the OpenSSL modules directory");
        goto err;
    }
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, name, "provider=gpucrypto");
    if (cipher == NULL)
        goto err;

    enum { LEN = 3 * 1024 * 1024 + 5 };
    unsigned char key[64], iv[32];
    unsigned char *pt = malloc(LEN), *ct = malloc(LEN + 64), *back = malloc(LEN + 64);
    int ctl = 0, backl = 0;
    if (pt == NULL || ct == NULL || back == NULL
        || RAND_bytes(key, sizeof(key)) != 1 || RAND_bytes(iv, sizeof(iv)) != 1
        || RAND_bytes(pt, LEN) != 1)
        goto err_free;
    if (!crypt_all(cipher, 1, key, iv, pt, LEN, ct, &ctl)
        || !crypt_all(cipher, 0, key, iv, ct, ctl, back, &backl))
        goto err_free;
    if (backl != LEN || memcmp(pt, back, LEN) != 0 || memcmp(pt, ct, 64) == 0) {
        fprintf(stderr, "round trip failed\n");
        goto err_free;
    }
    printf("%s: encrypted and decrypted %d bytes with provider %s\n", name, LEN,
           OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)));
    ret = EXIT_SUCCESS;
err_free:
    free(pt);
    free(ct);
    free(back);
    EVP_CIPHER_free(cipher);
err:
    if (ret != EXIT_SUCCESS)
        ERR_print_errors_fp(stderr);
    return ret;
}
