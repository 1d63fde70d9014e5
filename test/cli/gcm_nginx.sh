#!/usr/bin/env bash
# A real server and client from Debian's packages with gpucrypto's GCM
# preferred host-wide through openssl.cnf (OPENSSL_CONF): nginx started on
# 127.0.0.1 (random port, test certificate, its own prefix and temp paths,
# bounded time), curl fetching 2 MiB over TLS 1.3 (AES-128-GCM, AES-256-GCM)
# and TLS 1.2 (ECDHE-RSA-AES128/256-GCM), checked by SHA-256. The provider
# log of the nginx worker and of curl (printed at exit) proves that
# gpucrypto's GCM served the records; a ChaCha20-Poly1305 control shows 0.
# shellcheck source=common.sh.inc
. "$(dirname "$0")/common.sh.inc"
. "$(dirname "$0")/gcm_tls.inc"
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
if [ ! -x "$NGINX" ] || ! command -v curl >/dev/null; then
  echo "SKIP: nginx or curl not installed (scripts/deps.sh installs them)"
  exit 0
fi
mkcerts
write_cnf
export OPENSSL_CONF=$TMP/openssl.cnf
mkdir -p "$TMP/www" "$TMP/logs" "$TMP/tmp"
head -c $((2 << 20)) /dev/urandom >"$TMP/www/data.bin"
want=$(sha256sum <"$TMP/www/data.bin" | cut -d' ' -f1)
port=$(free_port)
nginx_conf "$TMP/tmp" "$port" "$TMP/rsa.pem" "$TMP/rsa.key" "user root;
daemon off;
worker_processes 1;
pid $TMP/nginx.pid;
error_log $TMP/logs/error.log info;" "    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_ciphers ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384;
    ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256;
    location / { root $TMP/www; }" >"$TMP/nginx.conf"
timeout 120 "${APP[@]}" "$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -e "$TMP/logs/error.log" 2>"$TMP/nginx.stderr" &
npid=$!
stop_nginx() {
  [ -n "${npid:-}" ] || return 0
  kill -QUIT "$(cat "$TMP/nginx.pid" 2>/dev/null || echo "$npid")" 2>/dev/null || true
  wait "$npid" 2>/dev/null || true
  npid=
}
trap 'stop_nginx; rm -rf "$TMP"' EXIT
wait_port "$port" || { cat "$TMP/nginx.stderr" "$TMP/logs/error.log" >&2; fail "nginx did not listen"; }

# The client: curl with gpucrypto (its own records are counted too), or, when
# curl cannot start with the ASan runtime preloaded (the ASan job), curl
# without it and without gpucrypto: nginx's side is still counted.
CURL=(timeout 30 "${APP[@]}" curl)
curl_counts=1
if ! curl_runs; then
  echo "note: client-side counts skipped: $CURL_SKIP; curl runs without gpucrypto"
  CURL=(timeout 30 env -u LD_PRELOAD OPENSSL_CONF=/dev/null curl)
  curl_counts=0
fi
fetch() {  # fetch <label> <min curl records|control> <curl args...>
  local label=$1 want_records=$2
  shift 2
  "${CURL[@]}" -sS --cacert "$TMP/rsa.pem" "$@" -o "$TMP/got.bin" "https://127.0.0.1:$port/data.bin" \
    2>"$TMP/curl.err" || { cat "$TMP/curl.err" >&2; fail "$label: curl failed"; }
  [ "$(sha256sum <"$TMP/got.bin" | cut -d' ' -f1)" = "$want" ] || fail "$label: data differs"
  [ "$curl_counts" = 1 ] || { echo "ok: $label"; return 0; }
  local c
  c=$(served "$TMP/curl.err")
  echo "ok: $label (curl: gpucrypto GCM records $c)"
  if [ "$want_records" = control ]; then
    [ "$c" -eq 0 ] || fail "$label: curl counted $c GCM records"
  else
    [ "$c" -ge "$want_records" ] || fail "$label: curl opened $c GCM records for 2 MiB"
  fi
}
fetch "TLS 1.3 AES-128-GCM" 128 --tlsv1.3 --tls13-ciphers TLS_AES_128_GCM_SHA256
fetch "TLS 1.3 AES-256-GCM" 128 --tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384
fetch "TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256" 128 --tlsv1.2 --tls-max 1.2 --ciphers ECDHE-RSA-AES128-GCM-SHA256
fetch "TLS 1.2 ECDHE-RSA-AES256-GCM-SHA384" 128 --tlsv1.2 --tls-max 1.2 --ciphers ECDHE-RSA-AES256-GCM-SHA384
fetch "control: TLS 1.3 ChaCha20-Poly1305" control --tlsv1.3 --tls13-ciphers TLS_CHACHA20_POLY1305_SHA256
stop_nginx
# nginx's stderr goes to its error log; the worker (which served the four GCM
# fetches: 4 x 2 MiB, at least 128 records each) logs its count at exit.
w=$(served "$TMP/logs/error.log")
[ "$w" -ge $((4 * 128)) ] || { cat "$TMP/logs/error.log" >&2; fail "nginx: gpucrypto GCM served $w records"; }
echo "ok: nginx worker: gpucrypto GCM records $w"
echo "PASS: gcm_nginx"
