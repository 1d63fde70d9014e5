#!/usr/bin/env bash
# Installs the built provider into OpenSSL's modules directory, uses it with a
# plain `openssl enc -provider gpucrypto` (no -provider-path), then
# uninstalls it again (the documented uninstall path). Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}
[ "$(id -u)" -eq 0 ] || { echo "install_check: needs root, skipped"; exit 0; }
cmake --install "$BUILD" > /dev/null
trap 'xargs rm -f < "$BUILD/install_manifest.txt"' EXIT
MODDIR=$(openssl version -m | sed 's/^MODULESDIR: "\(.*\)"$/\1/')
[ -f "$MODDIR/gpucrypto.so" ] || { echo "install_check: not installed in $MODDIR"; exit 1; }
TMP=$(mktemp -d)
head -c 100000 /dev/urandom > "$TMP/p"
K=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
IV=000102030405060708090a0b0c0d0e0f
openssl enc -e -skinny-128-256-ctr -K $K -iv $IV -provider gpucrypto -provider default -in "$TMP/p" -out "$TMP/c"
openssl enc -d -skinny-128-256-ctr -K $K -iv $IV -provider gpucrypto -provider default -in "$TMP/c" -out "$TMP/b"
cmp -s "$TMP/p" "$TMP/b" || { echo "install_check: round trip failed"; exit 1; }
rm -rf "$TMP"
echo "install_check: installed to $MODDIR, used without -provider-path, uninstalled"
