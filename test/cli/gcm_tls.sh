#!/usr/bin/env bash
# TLS with gpucrypto's GCM preferred host-wide through openssl.cnf: openssl
# s_server / s_client handshakes and a 1 MiB transfer (checked by SHA-256)
# for TLS 1.3 (AES-128-GCM, AES-256-GCM) and TLS 1.2 (ECDHE-RSA and
# ECDHE-ECDSA with AES-128/256-GCM). Each side's provider log proves that
# gpucrypto's GCM served its records; a ChaCha20-Poly1305 control shows 0.
# shellcheck source=common.sh.inc
. "$(dirname "$0")/common.sh.inc"
. "$(dirname "$0")/gcm_tls.inc"
mkcerts
write_cnf
export OPENSSL_CONF=$TMP/openssl.cnf
mkdir -p "$TMP/www"
head -c $((1 << 20)) /dev/urandom >"$TMP/www/data.bin"
want=$(sha256sum <"$TMP/www/data.bin" | cut -d' ' -f1)

# run <label> <expect: gcm|none> <server args...> -- <client args...>
run() {
  local label=$1 expect=$2
  shift 2
  local sargs=() cargs=()
  while [ "$1" != "--" ]; do sargs+=("$1"); shift; done
  shift
  cargs=("$@")
  local port
  port=$(free_port)
  : >"$TMP/server.out"
  (cd "$TMP/www" && exec timeout 30 "$OPENSSL" s_server -accept "127.0.0.1:$port" -naccept 1 -WWW \
    "${sargs[@]}" >"$TMP/server.out" 2>"$TMP/server.err") &
  local spid=$!
  wait_file "$TMP/server.out" ACCEPT || fail "$label: s_server did not listen"
  printf 'GET /data.bin HTTP/1.0\r\n\r\n' |
    timeout 30 "$OPENSSL" s_client -connect "127.0.0.1:$port" -servername localhost -CAfile "$TMP/rsa.pem" \
      -quiet -ign_eof "${cargs[@]}" >"$TMP/client.out" 2>"$TMP/client.err" ||
    { cat "$TMP/client.err" "$TMP/server.err" >&2; fail "$label: s_client failed"; }
  wait "$spid" || { cat "$TMP/server.err" >&2; fail "$label: s_server failed"; }
  # Body after the HTTP header.
  local got
  got=$(OPENSSL_CONF=/dev/null python3 -c 'import sys,hashlib; d=open(sys.argv[1],"rb").read(); print(hashlib.sha256(d[d.index(b"\r\n\r\n")+4:]).hexdigest())' "$TMP/client.out")
  [ "$got" = "$want" ] || fail "$label: transferred data differs"
  local s c
  s=$(served "$TMP/server.err")
  c=$(served "$TMP/client.err")
  if [ "$expect" = gcm ]; then
    # 1 MiB is at least 64 records of 16 KiB each way (server sends them, client opens them).
    [ "$s" -ge 64 ] || { cat "$TMP/server.err" >&2; fail "$label: server: gpucrypto GCM served $s records"; }
    [ "$c" -ge 64 ] || { cat "$TMP/client.err" >&2; fail "$label: client: gpucrypto GCM served $c records"; }
  else
    [ "$s" -eq 0 ] && [ "$c" -eq 0 ] || fail "$label: control counted GCM records ($s, $c)"
  fi
  echo "ok: $label (gpucrypto GCM records: server $s, client $c)"
}

RSA=(-cert "$TMP/rsa.pem" -key "$TMP/rsa.key")
EC=(-cert "$TMP/ec.pem" -key "$TMP/ec.key")
run "TLS 1.3 TLS_AES_128_GCM_SHA256" gcm "${RSA[@]}" -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 -- -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256
run "TLS 1.3 TLS_AES_256_GCM_SHA384" gcm "${RSA[@]}" -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384 -- -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384
run "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256" gcm "${RSA[@]}" -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256 -- -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256
run "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384" gcm "${RSA[@]}" -tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384 -- -tls1_2 -cipher ECDHE-RSA-AES256-GCM-SHA384
run "TLS 1.2 ECDHE-ECDSA-AES128-GCM-SHA256" gcm "${EC[@]}" -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256 -- -tls1_2 -cipher ECDHE-ECDSA-AES128-GCM-SHA256 -CAfile "$TMP/ec.pem"
run "TLS 1.2 ECDHE-ECDSA-AES256-GCM-SHA384" gcm "${EC[@]}" -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384 -- -tls1_2 -cipher ECDHE-ECDSA-AES256-GCM-SHA384 -CAfile "$TMP/ec.pem"
run "control: TLS 1.3 ChaCha20-Poly1305" none "${RSA[@]}" -tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256 -- -tls1_3 -ciphersuites TLS_CHACHA20_POLY1305_SHA256
echo "PASS: gcm_tls"
