#!/usr/bin/env bash
# `openssl list` shows the provider and every cipher name.
. "$(dirname "$0")/common.sh.inc"
"$OPENSSL" list -providers -verbose "${PROV[@]}" > "$TMP/prov"
grep -q "gpucrypto" "$TMP/prov" || fail "provider not listed"
grep -q "build info: gpucrypto" "$TMP/prov" || fail "no buildinfo"
grep -q "status: active" "$TMP/prov" || fail "provider not active"
"$OPENSSL" list -cipher-algorithms "${PROV[@]}" > "$TMP/list"
while read -r name _; do
  grep -qi "\b$name\b.*@ gpucrypto" "$TMP/list" || fail "$name missing from list -cipher-algorithms"
done <<< "$CIPHERS"
echo "list: all $(wc -l <<< "$CIPHERS") names shown"
