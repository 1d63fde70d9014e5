#!/usr/bin/env bash
# `openssl speed -evp` runs every CTR cipher through the provider.
. "$(dirname "$0")/common.sh.inc"
while read -r name _; do
  [[ $name == *-CTR ]] || continue
  "$OPENSSL" speed -elapsed -seconds 1 -bytes 16384 "${PROV[@]}" -propquery provider=gpucrypto \
    -evp "$name" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "speed $name"; }
  grep -qi "^$name\b" "$TMP/out" || { cat "$TMP/out"; fail "no result row for $name"; }
done <<< "$(grep -E '^(SKINNY-128|SM4|RECTANGLE|AES-128|RIJNDAEL-256-256)' <<< "$CIPHERS")"
echo "speed: ok"
