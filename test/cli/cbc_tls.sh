#!/usr/bin/env bash
# TLS 1.2 CBC suites with gpucrypto preferred host-wide (openssl.cnf
# default_properties = ?provider=gpucrypto): every AES CBC suite `openssl
# ciphers -tls1_2` lists (RSA and ECDSA certificates made here), ours on the
# server, the client, both and neither (the control), encrypt-then-MAC on
# (OpenSSL's default) and off; with OPENSSL35_RUN set (the run script of
# scripts/openssl35.sh) also against OpenSSL 3.5, ours on either side, the
# module loaded into 3.5 there. Each connection moves 3 MiB each way
# (s_server -rev sends every line back reversed) and compares the bytes; each
# side's provider log proves that gpucrypto's TLS record mode served its
# records (both sides pin the one suite). Without encrypt-then-MAC, libssl takes the default provider's
# stitched AES-CBC-HMAC-SHA1/SHA256 ciphers where the CPU has them (we have
# none): those rows only check the bytes; SHA384 suites reach us either way.
# shellcheck source=common.sh.inc
. "$(dirname "$0")/common.sh.inc"
. "$(dirname "$0")/gcm_tls.inc"
mkcerts
write_cnf
OURS=$TMP/openssl.cnf
PLAIN=/dev/null  # the default provider alone
# 3 MiB of base64 in 8000-byte lines (s_server -rev reads up to 16 KiB a line),
# then CLOSE, which ends the server's session.
head -c $((3 << 20)) /dev/urandom | base64 -w 8000 >"$TMP/up"
lines=$(wc -l <"$TMP/up")
rev <"$TMP/up" >"$TMP/want"
echo CLOSE >>"$TMP/up"
min_records=$lines  # one record a line each way, at least

cbc_served() { awk '/gpucrypto: TLS CBC served/ {if ($5 > n) n = $5} END {print n + 0}' "$1"; }

# conn <label> <expect: yes|no|any> <server cnf> <client cnf> <server openssl> <client openssl>
#      <cert: rsa|ec> <cipher> [extra args for both]
conn() {
  local label=$1 expect=$2 scnf=$3 ccnf=$4 sbin=$5 cbin=$6 cert=$7 cipher=$8
  shift 8
  local port
  port=$(free_port)
  : >"$TMP/s.out"
  # shellcheck disable=SC2086
  OPENSSL_CONF=$scnf timeout 30 $sbin s_server -accept "127.0.0.1:$port" -naccept 1 -rev -tls1_2 \
    -cipher "$cipher" -cert "$TMP/$cert.pem" -key "$TMP/$cert.key" "$@" >"$TMP/s.out" 2>"$TMP/s.err" &
  local spid=$!
  wait_file "$TMP/s.out" ACCEPT || { cat "$TMP/s.err" >&2; fail "$label: s_server did not listen"; }
  # shellcheck disable=SC2086
  OPENSSL_CONF=$ccnf timeout 30 $cbin s_client -connect "127.0.0.1:$port" -tls1_2 -cipher "$cipher" \
    -quiet -ign_eof "$@" <"$TMP/up" >"$TMP/c.out" 2>"$TMP/c.err" ||
    { cat "$TMP/c.err" "$TMP/s.err" >&2; fail "$label: s_client failed"; }
  wait "$spid" || { cat "$TMP/s.err" >&2; fail "$label: s_server failed"; }
  head -n "$lines" "$TMP/c.out" | cmp -s - "$TMP/want" || fail "$label: the bytes back differ"
  local s c
  s=$(cbc_served "$TMP/s.err")
  c=$(cbc_served "$TMP/c.err")
  case $expect in
    server) [ "$s" -ge "$min_records" ] && [ "$c" -eq 0 ] ;;
    client) [ "$c" -ge "$min_records" ] && [ "$s" -eq 0 ] ;;
    both) [ "$s" -ge "$min_records" ] && [ "$c" -ge "$min_records" ] ;;
    neither) [ "$s" -eq 0 ] && [ "$c" -eq 0 ] ;;
    any) true ;;
  esac || { cat "$TMP/s.err" "$TMP/c.err" >&2; fail "$label: gpucrypto served $s (server) and $c (client) records, expected $expect"; }
  printf 'ok: %-62s gpucrypto TLS CBC records: server %5d, client %5d\n' "$label" "$s" "$c"
}

cert_of() { case $1 in *ECDSA*) echo ec ;; *) echo rsa ;; esac; }
suites() {  # suites <openssl>: the TLS 1.2 AES CBC suites with RSA or ECDSA certificates
  # shellcheck disable=SC2086
  OPENSSL_CONF=/dev/null $1 ciphers -tls1_2 -s -v 'AES:!AESGCM:!AESCCM:!CHACHA:!PSK:!SRP:!aNULL:!DSS:!ARIA:!CAMELLIA' |
    awk '$2 == "TLSv1.2" || $2 == "SSLv3" || $2 == "TLSv1" {print $1}'
}

SUITES=$(suites "$OPENSSL")
[ "$(echo "$SUITES" | wc -l)" -ge 12 ] || fail "only these AES CBC suites listed: $SUITES"
echo "AES CBC suites of $("$OPENSSL" version): $(echo $SUITES)"
count=0
for s in $SUITES; do
  k=$(cert_of "$s")
  conn "$s ours: server" server "$OURS" "$PLAIN" "$OPENSSL" "$OPENSSL" "$k" "$s"
  conn "$s ours: client" client "$PLAIN" "$OURS" "$OPENSSL" "$OPENSSL" "$k" "$s"
  conn "$s ours: both" both "$OURS" "$OURS" "$OPENSSL" "$OPENSSL" "$k" "$s"
  count=$((count + 3))
  # Without encrypt-then-MAC (the MAC inside the padding): the SHA384 suites,
  # and two that libssl gives the stitched ciphers instead. The control (the
  # count must stay 0 without gpucrypto preferred) on two suites: each
  # connection costs about a second on a loaded 2-vCPU machine.
  case $s in
    *SHA384) conn "$s ours: both, no encrypt-then-MAC" both "$OURS" "$OURS" "$OPENSSL" "$OPENSSL" "$k" "$s" -no_etm ;;
    ECDHE-RSA-AES128-SHA | AES256-SHA256)
      conn "$s ours: both, no encrypt-then-MAC" any "$OURS" "$OURS" "$OPENSSL" "$OPENSSL" "$k" "$s" -no_etm
      conn "$s ours: neither (control)" neither "$PLAIN" "$PLAIN" "$OPENSSL" "$OPENSSL" "$k" "$s"
      count=$((count + 1))
      ;;
    *) continue ;;
  esac
  count=$((count + 1))
done

if [ -z "$OPENSSL35" ]; then
  echo "SKIP (OpenSSL 3.5 peer): OPENSSL35_RUN is unset (the run script of scripts/openssl35.sh)"
else
  SUITES35=$(suites "$OPENSSL35")
  echo "AES CBC suites of $($OPENSSL35 version): $(echo $SUITES35)"
  for s in $SUITES35; do
    k=$(cert_of "$s")
    conn "$s 3.5 server ours, 3.0 client" server "$OURS" "$PLAIN" "$OPENSSL35" "$OPENSSL" "$k" "$s"
    conn "$s 3.0 server, 3.5 client ours" client "$PLAIN" "$OURS" "$OPENSSL" "$OPENSSL35" "$k" "$s"
    count=$((count + 2))
    case $s in
      *SHA384)
        conn "$s 3.5 server ours, 3.0 client, no encrypt-then-MAC" server "$OURS" "$PLAIN" "$OPENSSL35" "$OPENSSL" "$k" "$s" -no_etm
        count=$((count + 1))
        ;;
    esac
  done
fi
echo "PASS: cbc_tls ($count connections, 3 MiB each way)"
