#!/usr/bin/env bash
# Quick start command 2: build and run the whole test suite (GoogleTest units
# and the CLI tests that drive the real openssl binary).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
gpucrypto_deps
BUILD=${BUILD_DIR:-build}
# BUILD_TYPE: RelWithDebInfo (default), Release, Debug. Warnings are errors here
# (GPUCRYPTO_WERROR=OFF turns that off for a compiler the project has not met).
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" \
  -DGPUCRYPTO_WERROR="${GPUCRYPTO_WERROR:-ON}" $(gpucrypto_cmake_args) >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" "$@"
