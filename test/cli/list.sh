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
# Aliases and OIDs exactly as the default provider lists them, for every AES
# and SM4 name both serve ("{ 2.16.840.1.101.3.4.1.2, AES-128-CBC, AES128 }").
"$OPENSSL" list -cipher-algorithms -provider default > "$TMP/default"
m=0
while read -r line; do
  grep -qF "${line% @ default} @ gpucrypto" "$TMP/list" || fail "not as the default provider lists it: $line"
  m=$((m + 1))
done < <(grep -E '^ *\{.*\b(SM4|AES-(128|192|256))-(ECB|CBC|CFB|OFB|CTR)\b.* @ default' "$TMP/default")
[ "$m" -ge 15 ] || fail "only $m alias groups found in the default provider's list"
echo "list: all $(wc -l <<< "$CIPHERS") names shown, $m alias/OID groups as the default provider's"
