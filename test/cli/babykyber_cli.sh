#!/bin/bash
# babyKyber through the real openssl binary (genpkey, pkey -text, pkey -pubout,
# DER round trips, seeded reproducible keys) and the gpucrypto-kem tool
# (keygen/encap/decap round trip, tampered ciphertext, wrong length).
# Env (set by ctest): OPENSSL, MODULE_DIR, BUILD_DIR, SOURCE_DIR.
set -euo pipefail
: "${OPENSSL:=openssl}" "${MODULE_DIR:?}" "${BUILD_DIR:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=(-provider-path "$MODULE_DIR" -provider gpucrypto -provider default)
KEM="$BUILD_DIR/gpucrypto-kem"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The exact lines of the issue.
"$OPENSSL" genpkey "${P[@]}" -algorithm babyKyber -out "$T/k.pem"
grep -q -- "-----BEGIN PRIVATE KEY-----" "$T/k.pem" || fail "genpkey did not write a PKCS#8 PEM"
"$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -text -noout > "$T/k.txt"
grep -q "babyKyber Private-Key" "$T/k.txt" || fail "text output lacks the key type"
grep -q "NO SECURITY" "$T/k.txt" || fail "text output must say the toy is insecure"
grep -q "s\[1\]" "$T/k.txt" || fail "text output lacks the secret polynomials"
"$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -pubout -out "$T/pub.pem"
grep -q -- "-----BEGIN PUBLIC KEY-----" "$T/pub.pem" || fail "pubout did not write SPKI PEM"

# The structures carry our (placeholder) OID; sizes as documented.
"$OPENSSL" asn1parse -in "$T/pub.pem" | grep -q "OBJECT *:1.3.6.1.4.1.99999.1.1" || fail "SPKI OID"
"$OPENSSL" asn1parse -in "$T/k.pem" | grep -q "l=  84 prim: OCTET STRING" || fail "PKCS#8 payload size"

# The public key printed from the private and the public file agree.
"$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -text -noout > "$T/pub.txt"
grep -q "babyKyber Public-Key" "$T/pub.txt" || fail "public text output"
diff <(sed -n '/^pub:/,/^coeff/p' "$T/k.txt") <(sed -n '/^pub:/,/^coeff/p' "$T/pub.txt") \
  || fail "public key differs between the private and public files"

# DER round trip: PEM -> DER -> PEM gives the same bytes.
"$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -outform DER -out "$T/k.der"
[ "$(stat -c %s "$T/k.der")" -eq 105 ] || fail "PKCS#8 DER must be 105 bytes"
"$OPENSSL" pkey "${P[@]}" -inform DER -in "$T/k.der" -out "$T/k2.pem"
cmp "$T/k.pem" "$T/k2.pem" || fail "DER round trip changed the key"
"$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -outform DER -out "$T/pub.der"
[ "$(stat -c %s "$T/pub.der")" -eq 34 ] || fail "SPKI DER must be 34 bytes"

# Reproducible keys from a seed; a different seed gives a different key.
SEED=$(printf '%0128x' 7)
"$OPENSSL" genpkey "${P[@]}" -algorithm babyKyber -pkeyopt hexseed:"$SEED" -out "$T/s1.pem"
"$OPENSSL" genpkey "${P[@]}" -algorithm babyKyber -pkeyopt hexseed:"$SEED" -out "$T/s2.pem"
cmp "$T/s1.pem" "$T/s2.pem" || fail "same seed, different keys"
"$OPENSSL" genpkey "${P[@]}" -algorithm babyKyber -pkeyopt hexseed:"$(printf '%0128x' 8)" -out "$T/s3.pem"
if cmp -s "$T/s1.pem" "$T/s3.pem"; then fail "different seeds, same key"; fi
if "$OPENSSL" genpkey "${P[@]}" -algorithm babyKyber -pkeyopt hexseed:00 -out "$T/bad.pem" 2> "$T/err"; then
  fail "a 1-byte seed was accepted"
fi
grep -q "seed" "$T/err" || fail "short seed error should name the seed"

# A corrupted private key (stored hash no longer matches) is refused.
"$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -outform DER -out "$T/c.der"
printf '\xff' | dd of="$T/c.der" bs=1 seek=60 conv=notrunc status=none
if "$OPENSSL" pkey "${P[@]}" -inform DER -in "$T/c.der" -noout 2> /dev/null; then
  fail "a corrupted private key was accepted"
fi

# gpucrypto-kem: keys from openssl, encap with the public key, decap with the private one.
"$KEM" encap -provider-path "$MODULE_DIR" -pubin "$T/pub.pem" -ct "$T/ct.bin" -secret "$T/ss1.bin"
"$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/ct.bin" -secret "$T/ss2.bin"
[ "$(stat -c %s "$T/ct.bin")" -eq 8 ] || fail "ciphertext must be 8 bytes"
[ "$(stat -c %s "$T/ss1.bin")" -eq 32 ] || fail "shared secret must be 32 bytes"
cmp "$T/ss1.bin" "$T/ss2.bin" || fail "encap/decap secrets differ"
# Keys from the tool work with openssl too.
"$KEM" keygen -provider-path "$MODULE_DIR" -out "$T/t.pem" -pubout "$T/tpub.pem"
"$OPENSSL" pkey "${P[@]}" -in "$T/t.pem" -pubout | cmp - "$T/tpub.pem" || fail "tool pubout differs"
for i in 1 2 3 4 5; do
  "$KEM" encap -provider-path "$MODULE_DIR" -in "$T/t.pem" -ct "$T/c$i" -secret "$T/a$i"
  "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/t.pem" -ct "$T/c$i" -secret "$T/b$i"
  cmp "$T/a$i" "$T/b$i" || fail "round trip $i"
done
# Tampered ciphertext: implicit rejection (a different secret, the same one each time).
cp "$T/ct.bin" "$T/bad.bin"
printf '\x01' | dd of="$T/bad.bin" bs=1 seek=0 conv=notrunc status=none
cmp -s "$T/ct.bin" "$T/bad.bin" && printf '\x02' | dd of="$T/bad.bin" bs=1 seek=0 conv=notrunc status=none
"$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/bad.bin" -secret "$T/r1.bin"
"$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/bad.bin" -secret "$T/r2.bin"
if cmp -s "$T/r1.bin" "$T/ss1.bin"; then fail "tampered ciphertext gave the real secret"; fi
cmp "$T/r1.bin" "$T/r2.bin" || fail "implicit rejection is not deterministic"
# Wrong ciphertext length: a clear error, no output.
head -c 7 "$T/ct.bin" > "$T/short.bin"
if "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/k.pem" -ct "$T/short.bin" -secret "$T/x.bin" 2> "$T/err"; then
  fail "a 7-byte ciphertext was accepted"
fi
grep -q "wrong length" "$T/err" || fail "wrong-length error not reported"
[ ! -e "$T/x.bin" ] || fail "output written despite the error"
# A public key cannot decapsulate.
if "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/pub.pem" -ct "$T/ct.bin" -secret "$T/x.bin" 2> /dev/null; then
  fail "decap with a public key file succeeded"
fi
echo "babyKyber CLI: all checks passed"
