#!/bin/bash
# babyKyber through the real openssl binary (genpkey, pkey -text, pkey -pubout,
# DER round trips, seeded reproducible keys) and the gpucrypto-kem tool
# (keygen/encap/decap round trip, tampered ciphertext, wrong length).
# Env (set by ctest): OPENSSL, MODULE_DIR, BUILD_DIR, SOURCE_DIR.
. "$(dirname "$0")/kem.sh.inc"

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
der_round_trip babyKyber 105
"$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -outform DER -out "$T/pub.der"
[ "$(stat -c %s "$T/pub.der")" -eq 34 ] || fail "SPKI DER must be 34 bytes"

# Reproducible keys from a seed; a different seed gives a different key.
seeded_keys babyKyber

# A corrupted private key (stored hash no longer matches) is refused.
"$OPENSSL" pkey "${P[@]}" -in "$T/k.pem" -outform DER -out "$T/c.der"
cp "$T/c.der" "$T/c0.der"
printf '\xff' | dd of="$T/c.der" bs=1 seek=60 conv=notrunc status=none
# A key whose byte 60 was 0xff already (once in 256 runs) gets 0x00 instead.
cmp -s "$T/c0.der" "$T/c.der" && printf '\x00' | dd of="$T/c.der" bs=1 seek=60 conv=notrunc status=none
if "$OPENSSL" pkey "${P[@]}" -inform DER -in "$T/c.der" -noout 2> /dev/null; then
  fail "a corrupted private key was accepted"
fi

# gpucrypto-kem with openssl's keys (round trip, tampered and short
# ciphertexts), and the tool's default-algorithm keys with openssl.
kem_tool babyKyber 8 0
kem_tool_keys babyKyber 5
# A public key cannot decapsulate.
if "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/pub.pem" -ct "$T/ct.bin" -secret "$T/x.bin" 2> /dev/null; then
  fail "decap with a public key file succeeded"
fi
echo "babyKyber CLI: all checks passed"
