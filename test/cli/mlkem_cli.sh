#!/bin/bash
# ML-KEM-512/768/1024 through the real openssl binary (genpkey, seeded keys,
# pkey -text, -pubout, DER round trips, OIDs and sizes) and the gpucrypto-kem
# tool (keygen/encap/decap round trip, tampered ciphertext, wrong length).
# Env (set by ctest): OPENSSL, MODULE_DIR, BUILD_DIR, SOURCE_DIR.
set -euo pipefail
: "${OPENSSL:=openssl}" "${MODULE_DIR:?}" "${BUILD_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=(-provider-path "$MODULE_DIR" -provider gpucrypto -provider default)
KEM="$BUILD_DIR/gpucrypto-kem"
fail() { echo "FAIL: $*" >&2; exit 1; }

# alg, OID arc, |ek|, |ct|
while read -r ALG ARC EK CT; do
  "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -out "$T/k.pem"
  grep -q -- "-----BEGIN PRIVATE KEY-----" "$T/k.pem" || fail "$ALG: genpkey did not write PKCS#8 PEM"
  "$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -text -noout > "$T/k.txt"
  grep -q "^$ALG Private-Key:" "$T/k.txt" || fail "$ALG: text output lacks the key type"
  grep -q "^seed:" "$T/k.txt" || fail "$ALG: text output lacks the seed"
  "$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -pubout -out "$T/pub.pem"
  "$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -text -noout > "$T/pub.txt"
  grep -q "^$ALG Public-Key:" "$T/pub.txt" || fail "$ALG: public text output"
  diff <(sed -n '/^ek:/,$p' "$T/k.txt") <(sed -n '/^ek:/,$p' "$T/pub.txt") \
    || fail "$ALG: ek differs between the private and public files"
  # Standard OIDs; seed-form PKCS#8 (86 bytes); SPKI carries the whole ek.
  "$OPENSSL" asn1parse -in "$T/pub.pem" | grep -q "OBJECT *:2.16.840.1.101.3.4.4.$ARC" || fail "$ALG: SPKI OID"
  "$OPENSSL" asn1parse -in "$T/pub.pem" | grep -q "l= *$((EK + 1)) prim: BIT STRING" || fail "$ALG: SPKI size"
  "$OPENSSL" asn1parse -in "$T/k.pem" | grep -q "OBJECT *:2.16.840.1.101.3.4.4.$ARC" || fail "$ALG: PKCS#8 OID"
  "$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -outform DER -out "$T/k.der"
  [ "$(stat -c %s "$T/k.der")" -eq 86 ] || fail "$ALG: seed-form PKCS#8 DER must be 86 bytes"
  "$OPENSSL" pkey "${P[@]}" -inform DER -in "$T/k.der" -out "$T/k2.pem"
  cmp "$T/k.pem" "$T/k2.pem" || fail "$ALG: DER round trip changed the key"
  "$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -outform DER -out "$T/pub.der"
  "$OPENSSL" pkey "${P[@]}" -pubin -inform DER -in "$T/pub.der" -out "$T/pub2.pem"
  cmp "$T/pub.pem" "$T/pub2.pem" || fail "$ALG: SPKI DER round trip"

  # Reproducible keys from a seed (d || z); another seed, another key.
  SEED=$(printf '%0128x' 7)
  "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -pkeyopt hexseed:"$SEED" -out "$T/s1.pem"
  "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -pkeyopt hexseed:"$SEED" -out "$T/s2.pem"
  cmp "$T/s1.pem" "$T/s2.pem" || fail "$ALG: same seed, different keys"
  "$KEM" keygen -provider-path "$MODULE_DIR" -alg "$ALG" -seed "$SEED" -out "$T/s3.pem"
  cmp "$T/s1.pem" "$T/s3.pem" || fail "$ALG: gpucrypto-kem and openssl disagree on a seeded key"
  "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -pkeyopt hexseed:"$(printf '%0128x' 8)" -out "$T/s4.pem"
  if cmp -s "$T/s1.pem" "$T/s4.pem"; then fail "$ALG: different seeds, same key"; fi
  if "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -pkeyopt hexseed:00 -out "$T/bad.pem" 2> "$T/err"; then
    fail "$ALG: a 1-byte seed was accepted"
  fi
  grep -q "seed" "$T/err" || fail "$ALG: short seed error should name the seed"

  # gpucrypto-kem: keys from openssl; encap with the public key, decap with the private one.
  "$KEM" encap -provider-path "$MODULE_DIR" -pubin "$T/pub.pem" -ct "$T/ct.bin" -secret "$T/ss1.bin"
  "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/ct.bin" -secret "$T/ss2.bin"
  [ "$(stat -c %s "$T/ct.bin")" -eq "$CT" ] || fail "$ALG: ciphertext must be $CT bytes"
  [ "$(stat -c %s "$T/ss1.bin")" -eq 32 ] || fail "$ALG: shared secret must be 32 bytes"
  cmp "$T/ss1.bin" "$T/ss2.bin" || fail "$ALG: encap/decap secrets differ"
  "$KEM" keygen -provider-path "$MODULE_DIR" -alg "$ALG" -out "$T/t.pem" -pubout "$T/tpub.pem"
  "$OPENSSL" pkey "${P[@]}" -in "$T/t.pem" -pubout | cmp - "$T/tpub.pem" || fail "$ALG: tool pubout differs"
  "$KEM" encap -provider-path "$MODULE_DIR" -in "$T/t.pem" -ct "$T/c" -secret "$T/a"
  "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/t.pem" -ct "$T/c" -secret "$T/b"
  cmp "$T/a" "$T/b" || fail "$ALG: tool round trip"
  # Tampered ciphertext: implicit rejection (another secret, deterministic).
  cp "$T/ct.bin" "$T/bad.bin"
  printf '\x55' | dd of="$T/bad.bin" bs=1 seek=100 conv=notrunc status=none
  cmp -s "$T/ct.bin" "$T/bad.bin" && printf '\xaa' | dd of="$T/bad.bin" bs=1 seek=100 conv=notrunc status=none
  "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/bad.bin" -secret "$T/r1.bin"
  "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/bad.bin" -secret "$T/r2.bin"
  if cmp -s "$T/r1.bin" "$T/ss1.bin"; then fail "$ALG: tampered ciphertext gave the real secret"; fi
  cmp "$T/r1.bin" "$T/r2.bin" || fail "$ALG: implicit rejection is not deterministic"
  # Wrong ciphertext length: a clear error, no output.
  head -c $((CT - 1)) "$T/ct.bin" > "$T/short.bin"
  if "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/short.bin" -secret "$T/x.bin" 2> "$T/err"; then
    fail "$ALG: a short ciphertext was accepted"
  fi
  grep -q "wrong length" "$T/err" || fail "$ALG: wrong-length error not reported"
  [ ! -e "$T/x.bin" ] || fail "$ALG: output written despite the error"
  echo "$ALG ok"
done <<'LIST'
ML-KEM-512 1 800 768
ML-KEM-768 2 1184 1088
ML-KEM-1024 3 1568 1568
LIST
# Aliases and the dotted OID name the same algorithm.
"$OPENSSL" genpkey "${P[@]}" -algorithm MLKEM768 -out "$T/alias.pem"
"$OPENSSL" pkey "${P[@]}" -in "$T/alias.pem" -text -noout | grep -q "^ML-KEM-768 Private-Key:" || fail "alias MLKEM768"
# babyKyber stays the tool's default algorithm.
"$KEM" keygen -provider-path "$MODULE_DIR" -out "$T/bk.pem"
"$OPENSSL" pkey "${P[@]}" -in "$T/bk.pem" -text -noout | grep -q "babyKyber Private-Key" || fail "tool default changed"
echo "ML-KEM CLI: all checks passed"
