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
  # Standard OIDs (asn1parse prints the number on 3.0, the name on 3.5, which
  # knows it); seed-form PKCS#8 (86 bytes); SPKI carries the whole ek.
  OID="OBJECT *:(2\.16\.840\.1\.101\.3\.4\.4\.$ARC|$ALG)\s*$"
  "$OPENSSL" asn1parse -in "$T/pub.pem" | grep -Eq "$OID" || fail "$ALG: SPKI OID"
  "$OPENSSL" asn1parse -in "$T/pub.pem" | grep -q "l= *$((EK + 1)) prim: BIT STRING" || fail "$ALG: SPKI size"
  "$OPENSSL" asn1parse -in "$T/k.pem" | grep -Eq "$OID" || fail "$ALG: PKCS#8 OID"
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
# OpenSSL 3.5's own ML-KEM (no gpucrypto loaded: OPENSSL_CONF=/dev/null)
# against our keys: it reads our PKCS#8 and SPKI files, encapsulates to our
# public key, and both decapsulations (ours, 3.5's) give its secret.
if [ -z "${OPENSSL35_RUN:-}" ]; then
  echo "SKIP part: no OpenSSL 3.5 (set OPENSSL35_RUN, see scripts/openssl35.sh)"
else
  for ALG in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
    "$OPENSSL" genpkey "${P[@]}" -algorithm "$ALG" -out "$T/x.pem"
    "$OPENSSL" pkey "${P[@]}" -in "$T/x.pem" -pubout -out "$T/xpub.pem"
    OPENSSL_CONF=/dev/null "$OPENSSL35_RUN" openssl pkeyutl -encap -pubin -inkey "$T/xpub.pem" \
      -out "$T/x.ct" -secret "$T/x.ss35" || fail "$ALG: 3.5 cannot encapsulate to our public key"
    "$KEM" decap -provider-path "$MODULE_DIR" -in "$T/x.pem" -ct "$T/x.ct" -secret "$T/x.ours"
    cmp -s "$T/x.ss35" "$T/x.ours" || fail "$ALG: our decapsulation of 3.5's ciphertext differs"
    OPENSSL_CONF=/dev/null "$OPENSSL35_RUN" openssl pkeyutl -decap -inkey "$T/x.pem" -in "$T/x.ct" \
      -secret "$T/x.ss35d" || fail "$ALG: 3.5 cannot read our private key"
    cmp -s "$T/x.ss35" "$T/x.ss35d" || fail "$ALG: 3.5's decapsulation with our key differs"
    echo "$ALG: OpenSSL 3.5's own ML-KEM reads our keys; secrets agree both ways"
  done
fi
# Aliases and the dotted OID name the same algorithm.
"$OPENSSL" genpkey "${P[@]}" -algorithm MLKEM768 -out "$T/alias.pem"
"$OPENSSL" pkey "${P[@]}" -in "$T/alias.pem" -text -noout | grep -q "^ML-KEM-768 Private-Key:" || fail "alias MLKEM768"
# babyKyber stays the tool's default algorithm.
"$KEM" keygen -provider-path "$MODULE_DIR" -out "$T/bk.pem"
"$OPENSSL" pkey "${P[@]}" -in "$T/bk.pem" -text -noout | grep -q "babyKyber Private-Key" || fail "tool default changed"
echo "ML-KEM CLI: all checks passed"
