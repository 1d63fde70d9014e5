#!/usr/bin/env bash
# Hardening CI jobs (README "Hardening"). Usage:
#
#   .ci/hardening.sh [job ...]        jobs: asan tsan valgrind ctgrind dudect fuzz (default: all)
#
#   asan      GCC ASan+UBSan build of everything; the whole ctest suite (LeakSanitizer on
#             for the GoogleTest executables; CLI/example tests with libasan preloaded
#             into the real openssl binary)
#   tsan      GCC TSan build of the multi-threaded tests: engine_test (thread pool, fork),
#             chained_dispatch_test (CBC/CFB decryption chunks across the pool, in place;
#             the emulated GPU), bulk_engine_test (16 application threads), load_test
#             (64 threads x 2 ops, <= 4 MiB), the GCM pool paths (gcm_vectors_test's chunk
#             combination, gcm_differential_test's 3 MiB)
#   valgrind  plain build: wipe_test and load_test natively, misuse_test under valgrind's
#             leak checker
#   ctgrind   plain build: test/ct/ct_harness under valgrind memcheck with secrets marked
#             undefined, and its canaries (a table S-box and an early-exit compare) must be
#             caught
#   dudect    plain build: test/ct/dudect times every runnable CPU path (AVX-512, VAES and
#             GFNI included, which valgrind cannot run) on fixed vs random secrets and
#             reports Welch's |t| per path (> 10 is flagged; DUDECT_STRICT=1 fails on it);
#             the job fails when its canaries are not caught
#   fuzz      clang-14 libFuzzer+ASan+UBSan build; fuzz_cipher, fuzz_gcm (the AEAD against
#             the default provider), fuzz_kem (babyKyber), fuzz_mlkem and fuzz_hybrid
#             (hybrid TLS key shares) for FUZZ_SECONDS each
#             (default 60) from a seed corpus
#
# Environment: BUILD_ROOT (default build-hardening), FUZZ_SECONDS (60), JOBS (nproc),
# GPUCRYPTO_VECTORS_DIR (as the normal tests). Run longer fuzzing with e.g.
#   FUZZ_SECONDS=3600 .ci/hardening.sh fuzz
# Installs clang-14, libclang-rt-14-dev and valgrind with apt-get when run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$PWD
. scripts/deps.sh

BUILD_ROOT=${BUILD_ROOT:-build-hardening}
case $BUILD_ROOT in /*) ;; *) BUILD_ROOT=$SRC/$BUILD_ROOT ;; esac
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-$(nproc)}
JOBS_TO_RUN=("$@")
[ ${#JOBS_TO_RUN[@]} -eq 0 ] && JOBS_TO_RUN=(asan tsan valgrind ctgrind dudect fuzz)

SUMMARY=()
note() { echo "== hardening: $*"; }
finish() { SUMMARY+=("$1"); note "$1"; }
started=$SECONDS
stamp() { echo "$((SECONDS - started))s"; }

configure() {  # configure <dir> <cmake args...>
  local dir=$1
  shift
  cmake -S "$SRC" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCRYPTO_WITH_CUDA=OFF \
    -DGPUCRYPTO_BUILD_BENCH=OFF "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
}
build() {  # build <dir> [targets...]
  local dir=$1
  shift
  local t=()
  for x in "$@"; do t+=(--target "$x"); done
  cmake --build "$dir" -j"$JOBS" "${t[@]}" >"$dir.build.log" 2>&1 ||
    { tail -60 "$dir.build.log"; return 1; }
}

# --- asan: ASan + UBSan, whole suite -------------------------------------------
job_asan() {
  local B=$BUILD_ROOT/asan
  mkdir -p "$BUILD_ROOT"
  note "asan: build ($(stamp))"
  # The CLI tests run the system openssl, which is not instrumented: they get
  # a wrapper that preloads the ASan runtime into openssl alone (so that it
  # can load the instrumented gpucrypto.so; preloading it into every process
  # of the scripts trips ASan on tools like dd). Leaks are not checked there
  # (they would be the openssl application's, at exit).
  local libasan
  libasan=$(gcc -print-file-name=libasan.so)
  mkdir -p "$B"
  printf '#!/bin/sh\nLD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 exec %s "$@"\n' \
    "$libasan" "$(command -v openssl)" >"$B/openssl-asan"
  chmod +x "$B/openssl-asan"
  configure "$B" -DGPUCRYPTO_SANITIZE=address,undefined -DOPENSSL_BIN="$B/openssl-asan"
  build "$B"
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  note "asan: GoogleTest executables, leak checking on ($(stamp))"
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1 \
    ctest --test-dir "$B" --output-on-failure -j"$JOBS" --timeout 900 -E '^(cli|examples)\.'
  note "asan: CLI and example tests, runtime preloaded into openssl ($(stamp))"
  ASAN_OPTIONS=detect_leaks=0 \
    ctest --test-dir "$B" --output-on-failure -j"$JOBS" --timeout 900 -R '^(cli|examples)\.'
  finish "asan: whole suite clean under ASan+UBSan ($(ctest --test-dir "$B" -N | tail -1)) ($(stamp))"
}

# --- tsan: the multi-threaded tests ---------------------------------------------
job_tsan() {
  local B=$BUILD_ROOT/tsan
  mkdir -p "$BUILD_ROOT"
  note "tsan: build ($(stamp))"
  configure "$B" -DGPUCRYPTO_SANITIZE=thread
  build "$B" gpucrypto engine_test chained_dispatch_test bulk_engine_test load_test gcm_vectors_test \
    gcm_differential_test
  # libcrypto is not instrumented; its lock-free refcounts look like races to
  # TSan when objects cross threads. Only reports whose every frame is inside
  # libcrypto are suppressed (called_from_lib) -- our code stays checked.
  printf 'called_from_lib:libcrypto.so.3\n' >"$B/tsan.supp"
  # die_after_fork=0: the fork test's children rebuild the pool (threads after a
  # multi-threaded fork), which TSan refuses by default.
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 die_after_fork=0 suppressions=$B/tsan.supp"
  export GPUCRYPTO_MODULE_DIR=$B
  for t in engine_test chained_dispatch_test bulk_engine_test; do
    note "tsan: $t ($(stamp))"
    "$B/test/$t"
  done
  note "tsan: load_test (64 threads, 2 ops each, sizes up to 4 MiB) ($(stamp))"
  GPUCRYPTO_LOAD_OPS=2 GPUCRYPTO_LOAD_MAX_BYTES=$((4 << 20)) "$B/test/load_test"
  note "tsan: GCM over the pool ($(stamp))"
  "$B/test/gcm_vectors_test" --gtest_filter='*Pool*'
  "$B/test/gcm_differential_test" --gtest_filter='*ThreeMebibytes*'
  unset GPUCRYPTO_MODULE_DIR TSAN_OPTIONS
  finish "tsan: engine_test, chained_dispatch_test, bulk_engine_test, load_test, GCM pool paths clean ($(stamp))"
}

# --- plain build shared by valgrind and ctgrind -----------------------------------
plain_build() {
  local B=$BUILD_ROOT/plain
  [ -n "${PLAIN_BUILT:-}" ] && return 0
  mkdir -p "$BUILD_ROOT"
  note "plain: build ($(stamp))"
  configure "$B"
  build "$B" gpucrypto ct_harness dudect misuse_test wipe_test load_test
  PLAIN_BUILT=1
}

job_valgrind() {
  plain_build
  local B=$BUILD_ROOT/plain
  export GPUCRYPTO_MODULE_DIR=$B
  note "valgrind: wipe_test ($(stamp))"
  "$B/test/wipe_test"
  note "valgrind: load_test ($(stamp))"
  "$B/test/load_test" | tee "$B/load.log"
  # Valgrind 3.19 decodes neither AVX-512 nor VAES/GFNI, nor the reg-reg VEX vmovq in
  # kem/babykyber/batch_avx2.cpp: cap the back end at the reference paths for this run.
  note "valgrind: misuse_test under memcheck --leak-check=full ($(stamp))"
  GPUCRYPTO_BACKEND=ref valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --error-exitcode=99 "$B/test/misuse_test"
  unset GPUCRYPTO_MODULE_DIR
  finish "valgrind: wipe_test, load_test ($(grep -o '^load:.*' "$B/load.log")), misuse_test leak-free ($(stamp))"
}

job_ctgrind() {
  plain_build
  local B=$BUILD_ROOT/plain
  note "ctgrind: secrets undefined, every runnable CPU path ($(stamp))"
  GPUCRYPTO_BACKEND=ref valgrind -q --suppressions="$SRC/test/ct/ct.supp" --error-exitcode=1 \
    "$B/test/ct/ct_harness" | tee "$B/ct.log"
  note "ctgrind: canaries must be caught ($(stamp))"
  valgrind -q "$B/test/ct/ct_harness" --canary 2>"$B/ct-canary.err" ||
    { cat "$B/ct-canary.err"; echo "ctgrind canary NOT caught: the check is blind" >&2; return 1; }
  finish "ctgrind: $(tail -1 "$B/ct.log"); canaries caught ($(stamp))"
}

job_dudect() {
  plain_build
  local B=$BUILD_ROOT/plain
  note "dudect: fixed vs random secrets, every runnable path ($(stamp))"
  local strict=()
  [ "${DUDECT_STRICT:-0}" = 1 ] && strict=(--strict)
  "$B/test/ct/dudect" --samples "${DUDECT_SAMPLES:-20000}" "${strict[@]}" | tee "$B/dudect.log"
  grep 'ABOVE THRESHOLD' "$B/dudect.log" || true
  finish "$(tail -1 "$B/dudect.log") ($(stamp))"
}

# --- fuzz: libFuzzer --------------------------------------------------------------
# key_seeds ALG KEY DIR SUFFIX DER_BYTE PEM_BYTE (inside job_fuzz: its pre,
# ossl and P): a key of ALG written by the openssl CLI through the provider
# as KEY.pem and KEY.der, its public key as KEY-pub.pem and KEY-pub.der, and
# the four seeds DIR/{der,pem}-{priv,pub}SUFFIX: each file after its first
# byte (a printf escape), DER_BYTE for the DER forms, PEM_BYTE for the PEM.
key_seeds() {
  local alg=$1 k=$2 dir=$3 sfx=$4 der=$5 pem=$6
  "${pre[@]}" "${ossl[@]}" genpkey "${P[@]}" -algorithm "$alg" -out "$k.pem"
  "${pre[@]}" "${ossl[@]}" pkey "${P[@]}" -in "$k.pem" -outform DER -out "$k.der"
  "${pre[@]}" "${ossl[@]}" pkey "${P[@]}" -in "$k.pem" -pubout -out "$k-pub.pem"
  "${pre[@]}" "${ossl[@]}" pkey "${P[@]}" -in "$k.pem" -pubout -outform DER -out "$k-pub.der"
  { printf %b "$der"; cat "$k.der"; } >"$dir/der-priv$sfx"
  { printf %b "$der"; cat "$k-pub.der"; } >"$dir/der-pub$sfx"
  { printf %b "$pem"; cat "$k.pem"; } >"$dir/pem-priv$sfx"
  { printf %b "$pem"; cat "$k-pub.pem"; } >"$dir/pem-pub$sfx"
}

job_fuzz() {
  local B=$BUILD_ROOT/fuzz
  mkdir -p "$BUILD_ROOT"
  note "fuzz: build with clang-14 ($(stamp))"
  CC=clang-14 CXX=clang++-14 configure "$B" -DGPUCRYPTO_FUZZ=ON \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
  build "$B" gpucrypto fuzz_cipher fuzz_gcm fuzz_kem fuzz_mlkem fuzz_hybrid gpucrypto-cipher-list
  local C=$B/corpus
  mkdir -p "$C/fuzz_cipher" "$C/fuzz_gcm" "$C/fuzz_kem" "$C/fuzz_mlkem" "$C/fuzz_hybrid"
  "$B/test/gpucrypto-cipher-list" --no-aliases >"$B/ciphers.txt"
  python3 "$SRC/test/fuzz/make_seeds.py" "$C" "$B/ciphers.txt"
  # babyKyber seeds: real keys written by the openssl CLI through the provider.
  local rt
  rt=$(clang++-14 -print-file-name=libclang_rt.asan-x86_64.so)
  [ -f "$rt" ] || rt=$(dirname "$(clang-14 -print-libgcc-file-name)")/libclang_rt.asan-x86_64.so
  local ossl=(openssl)
  local pre=(env LD_PRELOAD="$rt" ASAN_OPTIONS=detect_leaks=0)
  local P=(-provider-path "$B" -provider gpucrypto -provider default)
  key_seeds babyKyber "$C/k" "$C/fuzz_kem" "" '\x00' '\x01'
  head -c 120 /dev/zero | { printf '\x02\x0f\x54'; cat; } >"$C/fuzz_kem/raw"
  head -c 120 /dev/urandom | { printf '\x03\x01'; cat; } >"$C/fuzz_kem/decaps-seeded"
  { printf '\x03\x02'; tail -c 84 "$C/k.der"; head -c 20 /dev/urandom; } >"$C/fuzz_kem/decaps-key"
  # ML-KEM seeds: a key per level from the CLI (seed and expanded private
  # forms, public key), first byte = level index + 3 * operation.
  local i lv
  for i in 0 1 2; do
    lv=$((512 + 256 * i))
    key_seeds "ML-KEM-$lv" "$C/m$lv" "$C/fuzz_mlkem" "-$lv" "\\x$(printf %02x $i)" "\\x$(printf %02x $((i + 3)))"
    head -c 200 /dev/urandom | { printf "\\x$(printf %02x $((i + 9)))\\x01"; cat; } >"$C/fuzz_mlkem/decaps-seeded-$lv"
  done
  # Hybrid key shares: real client shares and server ciphertexts computed by
  # python3 cryptography (test/hybrid_interop.py; skipped without ML-KEM
  # there), first byte = hybrid index + 3 * (0 client share, 1 ciphertext).
  local g pub sec ct ss
  i=0
  if python3 "$SRC/test/hybrid_interop.py" check; then
    for g in X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024; do
      read -r pub sec < <(python3 "$SRC/test/hybrid_interop.py" keygen "$g")
      read -r ct ss < <(python3 "$SRC/test/hybrid_interop.py" encap "$g" "$pub")
      { printf "\\x$(printf %02x $i)\\x00"; echo "$pub" | xxd -r -p; } >"$C/fuzz_hybrid/share-$g"
      { printf "\\x$(printf %02x $((i + 3)))\\x00"; echo "$ct" | xxd -r -p; } >"$C/fuzz_hybrid/ct-$g"
      i=$((i + 1))
    done
  fi
  head -c 64 /dev/urandom | { printf '\x00\x01'; cat; } >"$C/fuzz_hybrid/short"
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export GPUCRYPTO_MODULE_DIR=$B
  local t stats=()
  for t in fuzz_cipher fuzz_gcm fuzz_kem fuzz_mlkem fuzz_hybrid; do
    note "fuzz: $t for ${FUZZ_SECONDS}s ($(stamp))"
    mkdir -p "$B/artifacts/$t" "$B/work/$t"
    # The shared ASan runtime (-shared-libsan, so that gpucrypto.so can use it
    # too) must be the first library loaded.
    LD_PRELOAD=$rt "$B/fuzz/$t" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -rss_limit_mb=4096 \
      -artifact_prefix="$B/artifacts/$t/" "$B/work/$t" "$C/$t" 2>"$B/$t.log" ||
      { tail -80 "$B/$t.log"; echo "fuzz: $t found a failure; input in $B/artifacts/$t/" >&2; return 1; }
    local runs cov
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$B/$t.log" | grep -o '[0-9]*$')
    cov=$(grep -o 'cov: [0-9]*' "$B/$t.log" | tail -1)
    stats+=("$t: $runs executions in ${FUZZ_SECONDS}s, $cov, corpus $(ls "$B/work/$t" | wc -l) inputs")
  done
  unset GPUCRYPTO_MODULE_DIR
  finish "fuzz: ${stats[*]} ($(stamp))"
}

# --- dependencies and dispatch ------------------------------------------------------
need=()
for j in "${JOBS_TO_RUN[@]}"; do
  case $j in
    fuzz) need+=(clang-14 libclang-rt-14-dev python3 xxd) ;;
    valgrind | ctgrind | dudect) need+=(valgrind) ;;  # one plain build serves all three
    asan | tsan) ;;
    *) echo "unknown job '$j' (asan tsan valgrind ctgrind dudect fuzz)" >&2; exit 2 ;;
  esac
done
gpucrypto_deps "${need[@]}"

for j in "${JOBS_TO_RUN[@]}"; do
  "job_$j"
done
echo
note "summary ($(stamp) total)"
printf '  %s\n' "${SUMMARY[@]}"
