#!/bin/bash
# ML-KEM-512/768/1024 through the real openssl binary (genpkey, seeded keys,
# pkey -text, -pubout, DER round trips, OIDs and sizes) and the gpucrypto-kem
# tool (keygen/encap/decap round trip, tampered ciphertext, wrong length).
# Env (set by ctest): OPENSSL, MODULE_DIR, BUILD_DIR, SOURCE_DIR.
. "$(dirname "$0")/kem.sh.inc"

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
  der_round_trip "$ALG" 86  # the seed form
  "$OPENSSL" pkey "${P[@]}" -pubin -in "$T/pub.pem" -outform DER -out "$T/pub.der"
  "$OPENSSL" pkey "${P[@]}" -pubin -inform DER -in "$T/pub.der" -out "$T/pub2.pem"
  cmp "$T/pub.pem" "$T/pub2.pem" || fail "$ALG: SPKI DER round trip"

  # Reproducible keys from a seed (d || z); another seed, another key; the
  # tool derives the same key from the seed.
  seeded_keys "$ALG"
  "$KEM" keygen -provider-path "$MODULE_DIR" -alg "$ALG" -seed "$SEED" -out "$T/s3.pem"
  cmp "$T/s1.pem" "$T/s3.pem" || fail "$ALG: gpucrypto-kem and openssl disagree on a seeded key"

  # gpucrypto-kem with openssl's keys (round trip, tampered and short
  # ciphertexts), and the tool's keys with openssl.
  kem_tool "$ALG" "$CT" 100
  kem_tool_keys "$ALG" 1 -alg "$ALG"
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
