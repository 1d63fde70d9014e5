#!/usr/bin/env bash
# The gpu_kernels setting (README "Security notes"): constant-time by default
# and shown in `openssl list -providers -verbose`, tables only when openssl.cnf
# or GPUCRYPTO_GPU_KERNELS names it, malformed values refuse to load.
. "$(dirname "$0")/common.sh.inc"

write_conf ""
out=$(info)
grep -q "gpu_kernels=constant-time" <<< "$out" || fail "default is not constant-time: $out"
write_conf "gpu_kernels = tables"
out=$(info)
grep -q "gpu_kernels=tables" <<< "$out" || fail "openssl.cnf gpu_kernels = tables not shown: $out"
out=$(GPUCRYPTO_GPU_KERNELS=constant-time info)
grep -q "gpu_kernels=constant-time" <<< "$out" || fail "the environment does not override: $out"

for bad in "gpu_kernels = table" "gpu_kernels = Tables" "gpu_kernels = fast"; do
  write_conf "$bad"
  if out=$(OPENSSL_CONF="$TMP/openssl.cnf" "$OPENSSL" enc -e -aes-128-ctr -K 00112233445566778899aabbccddeeff \
      -iv 000102030405060708090a0b0c0d0e0f -propquery provider=gpucrypto -in /dev/null 2>&1); then
    fail "loaded with '$bad'"
  fi
  grep -q "gpucrypto: invalid value .* for 'gpu_kernels' (expected constant-time or tables)" <<< "$out" ||
    fail "no clear message for '$bad': $out"
done
out=$(GPUCRYPTO_GPU_KERNELS=ct "$OPENSSL" list -providers "${PROV[@]}" 2>&1) &&
  fail "loaded with GPUCRYPTO_GPU_KERNELS=ct"
grep -q "GPUCRYPTO_GPU_KERNELS" <<< "$out" || fail "message does not name the variable: $out"
echo "gpu_kernels: ok"
