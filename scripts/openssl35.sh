#!/usr/bin/env bash
# Fetches OpenSSL 3.5 LTS without touching the system's OpenSSL: Debian 13 ("trixie")
# packages openssl, openssl-provider-legacy, libssl3t64, libssl-dev and the glibc/zlib/zstd they need, downloaded with
# apt-get from the Debian mirror this machine's apt sources name, unpacked into DIR
# (default ~/.cache/gpucrypto-openssl-3.5; nothing is installed system-wide). Prints DIR.
#
#   scripts/openssl35.sh [DIR]
#   DIR/run openssl version       -> OpenSSL 3.5.x (3.5's openssl binary)
#   DIR/run <program> args...     -> any program (a test binary, curl) under 3.5's libcrypto/libssl
#   DIR/bin/openssl               -> 3.5's openssl as a single executable path
#
# The provider ABI is stable, so the module and the tests built against the system's 3.0
# headers run unchanged under 3.5: scripts/test35.sh runs the whole ctest that way
# (CMAKE_CROSSCOMPILING_EMULATOR=DIR/run).
set -euo pipefail
DIR=${1:-${GPUCRYPTO_OPENSSL35_DIR:-$HOME/.cache/gpucrypto-openssl-3.5}}
if [ -x "$DIR/run" ] && [ -x "$DIR/bin/openssl" ] && "$DIR/run" openssl version 2>/dev/null | grep -q '^OpenSSL 3\.5'; then
  echo "$DIR"; exit 0
fi
command -v apt-get >/dev/null || { echo "openssl35: needs apt-get (a Debian/Ubuntu host)" >&2; exit 1; }
mkdir -p "$DIR/.apt/parts" "$DIR/.apt/lists/partial" "$DIR/.apt/cache/archives/partial" "$DIR/.apt/debs"
: > "$DIR/.apt/empty"
uri=$(grep -h -m1 '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2; exit}' || true)
[ -n "$uri" ] || uri=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || { echo "openssl35: no Debian mirror found in this machine's apt sources" >&2; exit 1; }
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "openssl35: $keyring missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
printf 'Types: deb\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: %s\n' "$uri" "$keyring" \
  > "$DIR/.apt/parts/trixie.sources"
A=(-o Dir::Etc::SourceList="$DIR/.apt/empty" -o Dir::Etc::SourceParts="$DIR/.apt/parts"
   -o Dir::State::Lists="$DIR/.apt/lists" -o Dir::Cache="$DIR/.apt/cache" -o Dir::State::status="$DIR/.apt/empty"
   -o APT::Sandbox::User=root)
apt-get "${A[@]}" update -qq
( cd "$DIR/.apt/debs" && apt-get "${A[@]}" download -qq openssl openssl-provider-legacy libssl3t64 libssl-dev libc6 zlib1g libzstd1 )
for d in "$DIR"/.apt/debs/*.deb; do dpkg -x "$d" "$DIR"; done
cat > "$DIR/run" <<'RUN'
#!/bin/sh
# Runs a program with OpenSSL 3.5's libraries (and the glibc they were built for, through its own
# loader); "openssl" alone means 3.5's openssl binary. OPENSSL_MODULES defaults to 3.5's own
# modules folder, so that "legacy" comes from 3.5 too.
R=$(dirname "$(readlink -f "$0")")
export OPENSSL_MODULES="${OPENSSL_MODULES:-$R/usr/lib/x86_64-linux-gnu/ossl-modules}"
p=$1; shift
[ "$p" = openssl ] && p=$R/usr/bin/openssl
f=$(command -v "$p" || echo "$p")
# The loader runs ELF programs only: for a script of that name (a pyenv shim for
# python3, say) take the system's program of the same name.
if [ "$(head -c 4 "$f" 2>/dev/null | tail -c 3)" != ELF ] && [ -x "/usr/bin/$(basename "$p")" ]; then
  f=/usr/bin/$(basename "$p")
fi
exec "$R/usr/lib64/ld-linux-x86-64.so.2" --library-path "$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu" "$f" "$@"
RUN
chmod +x "$DIR/run"
# DIR/bin/openssl: 3.5's openssl as one executable path (for OPENSSL=..., cmake's OPENSSL_BIN).
mkdir -p "$DIR/bin"
printf '#!/bin/sh\nexec "$(dirname "$(readlink -f "$0")")/../run" openssl "$@"\n' > "$DIR/bin/openssl"
chmod +x "$DIR/bin/openssl"
"$DIR/run" openssl version >&2
echo "$DIR"
