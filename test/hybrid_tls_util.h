// In-process TLS 1.3 handshakes through libssl (client and server in one
// thread, joined by a BIO pair), for hybrid_tls_test and the handshake-rate
// harness hybrid_tls_rate: a self-signed P-256 certificate made in memory,
// no session tickets (every handshake is a full one), one group list per side.
#pragma once
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <string>

namespace gpucrypto::test {

class TlsPair {
 public:
  // server_groups / client_groups: SSL_CTX_set1_groups_list strings.
  TlsPair(OSSL_LIB_CTX* lib, const char* server_groups, const char* client_groups) {
    key_ = EVP_PKEY_Q_keygen(lib, nullptr, "EC", "P-256");
    cert_ = X509_new_ex(lib, nullptr);
    if (key_ == nullptr || cert_ == nullptr) return;
    ASN1_INTEGER_set(X509_get_serialNumber(cert_), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert_), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert_), 3600);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(cert_), "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
    X509_set_issuer_name(cert_, X509_get_subject_name(cert_));
    X509_set_pubkey(cert_, key_);
    if (X509_sign(cert_, key_, EVP_sha256()) == 0) return;
    server_ = make(lib, true, server_groups);
    client_ = make(lib, false, client_groups);
  }
  ~TlsPair() {
    SSL_CTX_free(server_);
    SSL_CTX_free(client_);
    X509_free(cert_);
    EVP_PKEY_free(key_);
  }
  TlsPair(const TlsPair&) = delete;
  TlsPair& operator=(const TlsPair&) = delete;
  bool ok() const { return server_ != nullptr && client_ != nullptr; }

  // One full handshake; the group the server negotiated (its TLS code point),
  // or -1 on failure (error text in *err when given).
  int handshake(std::string* err = nullptr) {
    SSL* c = SSL_new(client_);
    SSL* s = SSL_new(server_);
    BIO *cb = nullptr, *sb = nullptr;
    int group = -1;
    if (c != nullptr && s != nullptr && BIO_new_bio_pair(&cb, 0, &sb, 0) == 1) {
      SSL_set_bio(c, cb, cb);
      SSL_set_bio(s, sb, sb);
      SSL_set_connect_state(c);
      SSL_set_accept_state(s);
      bool cdone = false, sdone = false;
      for (int i = 0; i < 20 && !(cdone && sdone); ++i) {
        if (!cdone) cdone = step(c);
        if (!sdone) sdone = step(s);
      }
      if (cdone && sdone) group = SSL_get_negotiated_group(s) & 0xffff;
    }
    if (group < 0 && err != nullptr) {
      char buf[256];
      unsigned long e;
      while ((e = ERR_get_error()) != 0) {
        ERR_error_string_n(e, buf, sizeof buf);
        *err += buf;
        *err += "\n";
      }
    }
    ERR_clear_error();
    SSL_free(c);
    SSL_free(s);
    return group;
  }

 private:
  // Advances one side; true when its handshake is complete. A side that
  // failed stays "not done" and the loop above gives up.
  static bool step(SSL* ssl) {
    const int r = SSL_do_handshake(ssl);
    return r == 1;
  }
  SSL_CTX* make(OSSL_LIB_CTX* lib, bool server, const char* groups) {
    SSL_CTX* ctx = SSL_CTX_new_ex(lib, nullptr, server ? TLS_server_method() : TLS_client_method());
    if (ctx == nullptr) return nullptr;
    bool ok = SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) == 1 &&
              SSL_CTX_set1_groups_list(ctx, groups) == 1;
    SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    if (server) {
      SSL_CTX_set_num_tickets(ctx, 0);
      ok = ok && SSL_CTX_use_certificate(ctx, cert_) == 1 && SSL_CTX_use_PrivateKey(ctx, key_) == 1;
    }
    if (!ok) {
      SSL_CTX_free(ctx);
      return nullptr;
    }
    return ctx;
  }
  EVP_PKEY* key_ = nullptr;
  X509* cert_ = nullptr;
  SSL_CTX* server_ = nullptr;
  SSL_CTX* client_ = nullptr;
};

}  // namespace gpucrypto::test
