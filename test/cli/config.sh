#!/usr/bin/env bash
# openssl.cnf activation, every provider-section key taking effect, the
# environment overriding it, and malformed values refusing to load.
. "$(dirname "$0")/common.sh.inc"

write_conf "backend = ref
threads = 3
mt_min_bytes = 64k
gpu_min_bytes = 32M
log = 1"
out=$(info)
grep -q "backend=ref threads=3 mt_min_bytes=65536 gpu_min_bytes=33554432 log=1" <<< "$out" ||
  fail "settings from openssl.cnf not in buildinfo: $out"
grep -q "active: none" <<< "$out" || fail "backend=ref must disable SIMD paths: $out"

# The environment overrides the file.
out=$(GPUCRYPTO_THREADS=1 GPUCRYPTO_BACKEND=avx2 info)
grep -q "backend=avx2 threads=1" <<< "$out" || fail "environment override: $out"

# Activation through openssl.cnf alone: a cipher works with no -provider flags.
head -c 3000000 /dev/urandom > "$TMP/p"
OPENSSL_CONF="$TMP/openssl.cnf" "$OPENSSL" enc -e -sm4-ctr -K 00112233445566778899aabbccddeeff \
  -iv 000102030405060708090a0b0c0d0e0f -propquery provider=gpucrypto -in "$TMP/p" -out "$TMP/c"
"$OPENSSL" enc -e -sm4-ctr -K 00112233445566778899aabbccddeeff -iv 000102030405060708090a0b0c0d0e0f \
  -in "$TMP/p" -out "$TMP/c2"
cmp -s "$TMP/c" "$TMP/c2" || fail "output differs from the default provider's SM4-CTR"
# log=1 reports large calls. (openssl enc feeds its cipher 4 KiB at a time;
# openssl speed makes one EVP call per buffer.)
OPENSSL_CONF="$TMP/openssl.cnf" "$OPENSSL" speed -elapsed -seconds 1 -bytes 1048576 \
  -propquery provider=gpucrypto -evp sm4-ctr > /dev/null 2> "$TMP/log"
grep -q "gpucrypto: 1048576 bytes CTR encrypt via thread-pool (.*, 3 threads)" "$TMP/log" ||
  fail "log=1 did not report the 1 MiB calls: $(head -3 "$TMP/log")"

# Malformed values: the provider refuses to load, naming key and value.
for bad in "backend = turbo" "threads = lots" "mt_min_bytes = -5" "gpu_min_bytes = 1q" "log = maybe" \
    "log = yes" "log = true" "log = on"; do
  write_conf "$bad"
  if out=$(OPENSSL_CONF="$TMP/openssl.cnf" "$OPENSSL" enc -e -rectangle-80-ctr -K 00112233445566778899 \
      -iv 0001020304050607 -in /dev/null 2>&1); then
    fail "loaded with '$bad'"
  fi
  key=${bad%% =*}
  grep -q "gpucrypto: .*'$key'" <<< "$out" || fail "no clear message for '$bad': $out"
done
out=$(GPUCRYPTO_MT_MIN_BYTES=zero "$OPENSSL" list -providers "${PROV[@]}" 2>&1) &&
  fail "loaded with a bad environment value"
grep -q "GPUCRYPTO_MT_MIN_BYTES" <<< "$out" || fail "message does not name the variable: $out"
echo "config: ok"
