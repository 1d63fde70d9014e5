#!/usr/bin/env bash
# Quick start command 2: build and run the whole test suite (GoogleTest units
# and the CLI tests that drive the real openssl binary).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
gpucrypto_deps
BUILD=${BUILD_DIR:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo $(gpucrypto_cmake_args) >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" "$@"
