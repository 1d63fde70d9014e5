#!/usr/bin/env bash
# `openssl enc -e/-d` round trips for every cipher, with and without -nopad,
# plus known answers through the CLI.
. "$(dirname "$0")/common.sh.inc"
head -c 100003 /dev/urandom > "$TMP/plain"
head -c 4128 /dev/urandom > "$TMP/aligned"   # 43 * 96: a multiple of every block size
n=0
while read -r name key iv block; do
  # OpenSSL 3.0's `openssl enc` keeps the IV in a 16-byte (EVP_MAX_IV_LENGTH)
  # buffer and overruns it for longer IVs before the provider is involved;
  # wide-block CTR (24/32-byte IV) is tested through EVP instead.
  [ "$iv" -gt 16 ] && continue
  K=$(hexof "$key")
  IVARG=()
  [ "$iv" -gt 0 ] && IVARG=(-iv "$(hexof "$iv")")
  for pad in "" "-nopad"; do
    src="$TMP/plain"
    # Without padding ECB and CBC need whole blocks; the streams take any length.
    if [ -n "$pad" ] && [[ $name == *-ECB || $name == *-CBC ]]; then src="$TMP/aligned"; fi
    "$OPENSSL" enc -e "-$name" $pad -K "$K" "${IVARG[@]}" -propquery provider=gpucrypto \
      "${PROV[@]}" -in "$src" -out "$TMP/ct" || fail "$name $pad encrypt"
    "$OPENSSL" enc -d "-$name" $pad -K "$K" "${IVARG[@]}" -propquery provider=gpucrypto \
      "${PROV[@]}" -in "$TMP/ct" -out "$TMP/back" || fail "$name $pad decrypt"
    cmp -s "$src" "$TMP/back" || fail "$name $pad round trip differs"
    cmp -s "$src" "$TMP/ct" && fail "$name $pad ciphertext equals plaintext"
    n=$((n + 1))
  done
done <<< "$CIPHERS"
# A corrupted CBC ciphertext (its padding broken): "bad decrypt" (as the
# default provider says); the same file from the default provider is refused
# alike.
K=00112233445566778899aabbccddeeff
IV=000102030405060708090a0b0c0d0e0f
for name in AES-128-CBC SM4-CBC SKINNY-128-256-CBC; do
  kl=$(grep "^$name " <<< "$CIPHERS" | cut -d' ' -f2)
  KEY=$(printf '%s' "$K$K$K" | head -c $((2 * kl)))
  "$OPENSSL" enc -e "-$name" -K "$KEY" -iv "$IV" -propquery provider=gpucrypto "${PROV[@]}" \
    -in "$TMP/plain" -out "$TMP/ct"
  size=$(stat -c %s "$TMP/ct")
  # The last plaintext byte is the pad length p (16-byte blocks); CBC XORs the
  # previous ciphertext block into it, so XORing p into that block's last byte
  # makes the decrypted pad byte 0: invalid padding, always (overwriting the
  # last block itself would leave a random pad, valid about once in 256 runs).
  pad=$((16 - $(stat -c %s "$TMP/plain") % 16))
  at=$((size - 17))
  byte=$(od -An -tu1 -j "$at" -N1 "$TMP/ct" | tr -d ' ')
  printf "\\x$(printf %02x $((byte ^ pad)))" | dd of="$TMP/ct" bs=1 seek="$at" conv=notrunc status=none
  last=$("$OPENSSL" enc -d "-$name" -nopad -K "$KEY" -iv "$IV" -propquery provider=gpucrypto \
    "${PROV[@]}" -in "$TMP/ct" | tail -c 1 | od -An -tu1 | tr -d ' ')
  [ "$last" = 0 ] || fail "$name: the corrupted pad byte decrypts to '$last', not 0"
  if "$OPENSSL" enc -d "-$name" -K "$KEY" -iv "$IV" -propquery provider=gpucrypto "${PROV[@]}" \
      -in "$TMP/ct" -out "$TMP/back" 2> "$TMP/err"; then
    fail "$name: a ciphertext with broken padding decrypted"
  fi
  grep -q "bad decrypt" "$TMP/err" || fail "$name: no 'bad decrypt': $(cat "$TMP/err")"
  if [[ $name != SKINNY* ]] && "$OPENSSL" enc -d "-$name" -K "$KEY" -iv "$IV" -propquery provider=default \
      "${PROV[@]}" -in "$TMP/ct" -out "$TMP/back" 2> /dev/null; then
    fail "$name: the default provider accepted what we refused"
  fi
done
# Known answers of the new modes through the CLI: SP 800-38A F.2.1 (CBC),
# F.3.13 (CFB128), F.4.1 (OFB), F.3.7 (CFB8); draft-ribose-cfrg-sm4 A.2.2.1.
P38=6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51
K38=2b7e151628aed2a6abf7158809cf4f3c
I38=000102030405060708090a0b0c0d0e0f

# Password-based (PBKDF2 from the default provider) with our cipher.
"$OPENSSL" enc -e -skinny-128-256-ctr -pbkdf2 -pass pass:secret "${PROV[@]}" -in "$TMP/plain" -out "$TMP/ct"
"$OPENSSL" enc -d -skinny-128-256-ctr -pbkdf2 -pass pass:secret "${PROV[@]}" -in "$TMP/ct" -out "$TMP/back"
cmp -s "$TMP/plain" "$TMP/back" || fail "pbkdf2 round trip"

kat() {  # cipher key iv plaintext-hex expected-ciphertext-hex
  local ivarg=()
  [ -n "$3" ] && ivarg=(-iv "$3")
  local got
  got=$(printf '%s' "$4" | xxd -r -p | "$OPENSSL" enc -e "-$1" -nopad -K "$2" "${ivarg[@]}" \
        -propquery provider=gpucrypto "${PROV[@]}" | od -An -tx1 | tr -d ' \n')
  [ "$got" = "$5" ] || fail "$1 known answer: got $got want $5"
}
# SKINNY: ePrint 2016/660 App. B.2; SM4: GB/T 32907-2016 App. A Ex. 1;
# RECTANGLE: ePrint 2014/084 test vectors; AES: SP 800-38A F.5.1.
kat SKINNY-128-256-ECB 009cec81605d4ac1d2ae9e3085d7a1f31ac123ebfc00fddcf01046ceeddfcab3 "" \
    3a0c47767a26a68dd382a695e7022e25 b731d98a4bde147a7ed4a6f16b9b587f
kat SM4-ECB 0123456789abcdeffedcba9876543210 "" 0123456789abcdeffedcba9876543210 \
    681edf34d206965e86b3e94f536e4246
kat RECTANGLE-128-ECB ffffffffffffffffffffffffffffffff "" ffffffffffffffff e83eefee4a157a46
kat AES-128-CTR 2b7e151628aed2a6abf7158809cf4f3c f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff \
    6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51 \
    874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff
kat AES-128-CBC $K38 $I38 $P38 7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2
kat AES-128-CFB $K38 $I38 $P38 3b3fd92eb72dad20333449f8e83cfb4ac8a64537a0b3a93fcde3cdad9f1ce58b
kat AES-128-OFB $K38 $I38 $P38 3b3fd92eb72dad20333449f8e83cfb4a7789508d16918f03f53c52dac54ed825
kat AES-128-CFB8 $K38 $I38 6bc1bee22e409f96e93d7e117393172aae2d 3b79424c9c0dd436bace9e0ed4586a4f32b9
kat SM4-CBC 0123456789abcdeffedcba9876543210 $I38 \
    aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffffaaaaaaaabbbbbbbb \
    78ebb11cc40b0a48312aaeb2040244cb4cb7016951909226979b0d15dc6a8f6d
echo "enc: $n round trips, 9 known answers, bad decrypt OK (wide-block IVs: EVP tests only)"
