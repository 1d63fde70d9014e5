#!/usr/bin/env bash
# The whole test suite under OpenSSL 3.5 LTS: the module and the tests are built
# against this machine's OpenSSL 3.0 headers (the provider ABI is the same), then
# every GoogleTest binary starts under 3.5's libcrypto/libssl (CMake's
# CMAKE_CROSSCOMPILING_EMULATOR = 3.5's loader, scripts/openssl35.sh), the CLI
# tests drive 3.5's openssl, and curl, python3 and nginx run under 3.5's libssl
# (GPUCRYPTO_APP_RUNNER, test/cli/common.sh.inc). Nothing of the system's
# OpenSSL is touched.
#
#   scripts/test35.sh [ctest args...]     BUILD_DIR (default build-35), BUILD_TYPE (Release)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
gpucrypto_deps
D=$(scripts/openssl35.sh)
BUILD=${BUILD_DIR:-build-35}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DGPUCRYPTO_WERROR="${GPUCRYPTO_WERROR:-ON}" \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$D/run" -DOPENSSL_BIN="$D/bin/openssl" \
  $(gpucrypto_cmake_args) >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
echo "== under $("$D/run" openssl version)"
"$D/run" openssl list -providers -verbose -provider-path "$BUILD" -provider gpucrypto -provider default
export GPUCRYPTO_APP_RUNNER="$D/run" OPENSSL35_RUN="$D/run"
cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" "$@"
