#!/usr/bin/env bash
# openssl.cnf.example as shipped: activates default + gpucrypto, and every
# documented key, once uncommented, takes effect.
. "$(dirname "$0")/common.sh.inc"
EX="$SOURCE_DIR/openssl.cnf.example"
# As shipped (module path set, keys commented): loads with the defaults.
sed "s|^# module = .*|module = $MODULE_DIR/gpucrypto.so|" "$EX" > "$TMP/a.cnf"
out=$(OPENSSL_CONF="$TMP/a.cnf" "$OPENSSL" list -providers -verbose)
grep -q "backend=auto threads=[0-9]* mt_min_bytes=262144 gpu_min_bytes=auto" <<< "$out" ||
  fail "defaults not as documented: $out"
# Every key uncommented with a non-default value.
sed -e "s|^# module = .*|module = $MODULE_DIR/gpucrypto.so|" \
    -e "s|^# backend = auto|backend = avx2|" -e "s|^# threads = 0|threads = 5|" \
    -e "s|^# mt_min_bytes = 256k|mt_min_bytes = 512k|" -e "s|^# gpu_min_bytes = auto|gpu_min_bytes = 64m|" \
    -e "s|^# log = 0|log = 1|" -e "s|^# alg_section|alg_section|" "$EX" > "$TMP/b.cnf"
out=$(OPENSSL_CONF="$TMP/b.cnf" "$OPENSSL" list -providers -verbose)
grep -q "backend=avx2 threads=5 mt_min_bytes=524288 gpu_min_bytes=67108864 log=1" <<< "$out" ||
  fail "keys from openssl.cnf.example did not take effect: $out"
grep -q "active: .*avx2" <<< "$out" && ! grep -q "active: .*avx512f" <<< "$out" ||
  fail "backend = avx2 did not cap the CPU features: $out"
# default_properties = ?provider=gpucrypto: a plain AES fetch now lands on us.
OPENSSL_CONF="$TMP/b.cnf" "$OPENSSL" speed -elapsed -seconds 1 -bytes 2097152 -evp aes-128-ctr \
  > /dev/null 2> "$TMP/log"
grep -q "gpucrypto: 2097152 bytes CTR encrypt via thread-pool" "$TMP/log" ||
  fail "AES-128-CTR was not served by gpucrypto under default_properties: $(head -2 "$TMP/log")"
echo "config_example: ok"
