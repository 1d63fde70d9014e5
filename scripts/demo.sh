#!/usr/bin/env bash
# Quick start command 1: build gpucrypto and show it working through the
# stock openssl binary: the algorithm list, an encrypt/decrypt round trip of a
# sample file with every cipher, a KEM round trip, a side-by-side speed table
# against OpenSSL's default provider, the ratio table measured inside the host's
# own openssl speed, and one TLS handshake's key exchange, X25519 vs the
# hybrids (new: SecP384r1MLKEM1024 on our own P-384, next to OpenSSL's P-384 ECDH).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
gpucrypto_deps
BUILD=${BUILD_DIR:-build-release}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGPUCRYPTO_BUILD_TESTS=OFF \
  $(gpucrypto_cmake_args) >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
MOD=$(cd "$BUILD" && pwd)
PROV=(-provider-path "$MOD" -provider gpucrypto -provider default)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== gpucrypto provider =="
openssl list -providers -verbose "${PROV[@]}" | sed -n '/gpucrypto/,$p'
echo
echo "== Ciphers served by gpucrypto =="
openssl list -cipher-algorithms "${PROV[@]}" | grep "@ gpucrypto" | sed 's/^ *//' | sort
if openssl list -kem-algorithms "${PROV[@]}" 2>/dev/null | grep -q "@ gpucrypto"; then
  echo; echo "== KEMs served by gpucrypto =="
  openssl list -kem-algorithms "${PROV[@]}" | grep "@ gpucrypto" | sed 's/^ *//'
fi

echo
echo "== openssl enc round trips (sample: 1 MiB + 7 bytes) =="
head -c $((1048576 + 7)) /dev/urandom > "$TMP/sample"
# roundtrip NAME CIPHER MODE [peer]: openssl enc with ours both ways on the
# sample; with `peer` (AES, SM4) the default provider decrypts our file too.
roundtrip() {
  local name=$1 c=$2 m=$3 r
  if ! openssl enc -e "-$name" -pbkdf2 -pass pass:demo -propquery provider=gpucrypto "${PROV[@]}" \
       -in "$TMP/sample" -out "$TMP/ct" 2>"$TMP/err"; then
    printf '%-22s %-9s FAILED: %s\n' "$c" "$m" "$(head -1 "$TMP/err")"
    return
  fi
  openssl enc -d "-$name" -pbkdf2 -pass pass:demo -propquery provider=gpucrypto "${PROV[@]}" \
    -in "$TMP/ct" -out "$TMP/back"
  if cmp -s "$TMP/sample" "$TMP/back"; then r="round trip OK"; else r="MISMATCH"; fi
  if [[ ${4:-} == peer && ( $c == AES-* || $c == SM4 ) ]]; then
    openssl enc -d "-$name" -pbkdf2 -pass pass:demo -propquery provider=default "${PROV[@]}" \
      -in "$TMP/ct" -out "$TMP/back2" 2>/dev/null && cmp -s "$TMP/sample" "$TMP/back2" &&
      r="$r, default provider decrypts it too"
  fi
  printf '%-22s %-9s %s (%s bytes of ciphertext)\n' "$c" "$m" "$r" "$(stat -c %s "$TMP/ct")"
}
printf '%-22s %-9s %s\n' cipher mode "result"
for c in SKINNY-128-256 SKINNY-128-384 SM4 RECTANGLE-80 RECTANGLE-128 AES-128 AES-192 AES-256 \
         RIJNDAEL-192-128 RIJNDAEL-256-256; do
  for m in ECB CTR; do
    name="$c-$m"
    if [[ $c == RIJNDAEL-* && $m == CTR ]]; then
      # 24/32-byte IVs overrun openssl enc's 16-byte IV buffer (OpenSSL 3.0 apps);
      # use these through EVP (examples/evp_encrypt.c) instead.
      printf '%-22s %-9s %s\n' "$c" "$m" "skipped: openssl enc handles IVs up to 16 bytes only"
      continue
    fi
    roundtrip "$name" "$c" "$m"
  done
done
# The chained modes (CBC pads; CFB/OFB/CFB8/CFB1 are streams). AES and SM4
# files are also decrypted by the default provider: the formats are the same.
for name in SM4-CBC SM4-CFB SM4-OFB AES-128-CBC AES-256-CFB AES-192-OFB AES-128-CFB8 AES-256-CFB1 \
            SKINNY-128-256-CBC SKINNY-128-384-OFB RECTANGLE-80-CFB RECTANGLE-128-CBC; do
  c=${name%-*}
  m=${name##*-}
  roundtrip "$name" "$c" "$m" peer
done
"$BUILD/examples/evp_encrypt" "$MOD" RIJNDAEL-256-256-CTR

if [ -x "$BUILD/gpucrypto-kem" ]; then
  echo
  echo "== babyKyber KEM round trip (toy parameters: NOT secure) =="
  K="$BUILD/gpucrypto-kem"
  openssl genpkey "${PROV[@]}" -algorithm babyKyber -out "$TMP/k.pem"
  openssl pkey "${PROV[@]}" -in "$TMP/k.pem" -pubout -out "$TMP/pub.pem"
  openssl pkey "${PROV[@]}" -in "$TMP/k.pem" -text -noout | head -3
  "$K" encap -provider-path "$MOD" -pubin "$TMP/pub.pem" -ct "$TMP/ct.bin" -secret "$TMP/s1.bin"
  "$K" decap -provider-path "$MOD" -in "$TMP/k.pem" -ct "$TMP/ct.bin" -secret "$TMP/s2.bin"
  if cmp -s "$TMP/s1.bin" "$TMP/s2.bin"; then
    echo "shared secret agreed: $(od -An -tx1 "$TMP/s1.bin" | tr -d ' \n' | head -c 64)"
  else
    echo "shared secrets differ"; exit 1
  fi
fi

echo
echo "== TLS 1.2 CBC with gpucrypto preferred host-wide (openssl.cnf default_properties) =="
# New: libssl drives our AES-CBC in TLS record mode (padding, constant-time
# unpadding and MAC extraction); each side's log line counts our records.
cat >"$TMP/prefer.cnf" <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[algorithm_sect]
default_properties = ?provider=gpucrypto
[provider_sect]
default = default_sect
gpucrypto = gpucrypto_sect
[default_sect]
activate = 1
[gpucrypto_sect]
module = $MOD/gpucrypto.so
activate = 1
log = 1
CNF
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -keyout "$TMP/tls.key" \
  -out "$TMP/tls.pem" 2>/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
OPENSSL_CONF="$TMP/prefer.cnf" timeout 20 openssl s_server -accept "127.0.0.1:$PORT" -naccept 1 -rev \
  -tls1_2 -cert "$TMP/tls.pem" -key "$TMP/tls.key" >"$TMP/srv.log" 2>&1 &
SRV=$!
# Wait until it listens (a probe connection would use up its one accept).
if command -v ss >/dev/null; then
  for _ in $(seq 100); do ss -ltn | grep -q "127.0.0.1:$PORT " && break; sleep 0.1; done
else
  sleep 1
fi
{ echo "hello over TLS 1.2 CBC"; sleep 1; } | OPENSSL_CONF="$TMP/prefer.cnf" timeout 20 openssl s_client \
  -brief -connect "127.0.0.1:$PORT" -tls1_2 -cipher ECDHE-RSA-AES128-SHA256 >"$TMP/cli.out" 2>"$TMP/cli.err" || true
wait "$SRV" 2>/dev/null || true
grep -h "Ciphersuite" "$TMP/cli.err" "$TMP/cli.out" | head -1 | sed 's/^/  /'
echo "  the server sent back: $(grep -a "SLT" "$TMP/cli.out" | tr -d '\r' | head -1)"
for side in srv.log:server cli.err:client; do
  n=$(grep -h "TLS CBC served" "$TMP/${side%%:*}" || echo "TLS CBC not served by gpucrypto")
  echo "  ${side##*:}: $n"
done

echo
echo "== openssl speed -elapsed, one thread, through EVP (1 s per size) =="
echo "(16-byte CTR updates draw on keystream buffered a batch ahead; up to 16 SKINNY blocks take a"
echo " GFNI path with four blocks per register instead of a padded 128-block batch; CBC decryption"
echo " runs the parallel batch paths; GCM is new: OpenSSL 3.0's own AES-GCM vs ours)"
speed_row() {  # label propquery cipher [extra speed options]
  openssl speed -elapsed -seconds 1 "${PROV[@]}" -propquery "$2" "${@:4}" -evp "$3" 2>/dev/null |
    awk -v l="$1" 'f && NF >= 7 {printf "%-34s", l; for (i = NF - 5; i <= NF; i++) printf " %12s", $i; print ""}
                   /^type/ {f = 1}'
}
printf '%-34s %12s %12s %12s %12s %12s %12s\n' "(1000s of bytes/s)" 16B 64B 256B 1KiB 8KiB 16KiB
speed_row "SM4-CTR       default provider" provider=default SM4-CTR
speed_row "SM4-CTR       gpucrypto" provider=gpucrypto SM4-CTR
speed_row "AES-128-CTR   default provider" provider=default AES-128-CTR
speed_row "AES-128-CTR   gpucrypto" provider=gpucrypto AES-128-CTR
speed_row "SKINNY-128-256-CTR gpucrypto" provider=gpucrypto SKINNY-128-256-CTR
speed_row "SKINNY-128-256-ECB gpucrypto" provider=gpucrypto SKINNY-128-256-ECB
speed_row "RECTANGLE-128-CTR  gpucrypto" provider=gpucrypto RECTANGLE-128-CTR
speed_row "AES-128-GCM   default provider" provider=default AES-128-GCM
speed_row "AES-128-GCM   gpucrypto" provider=gpucrypto AES-128-GCM
speed_row "SM4-CBC decrypt default provider" provider=default SM4-CBC -decrypt
speed_row "SM4-CBC decrypt gpucrypto" provider=gpucrypto SM4-CBC -decrypt
speed_row "AES-128-CBC encrypt default" provider=default AES-128-CBC
speed_row "AES-128-CBC encrypt gpucrypto" provider=gpucrypto AES-128-CBC
echo
echo "== New: ours against this host's own openssl speed (gpucrypto-bench --against, one round) =="
echo "(both providers inside the system's openssl speed, alternated; README \"Ours against the"
echo " host's openssl speed\" has the full tables for OpenSSL 3.0 and 3.5; key setup now runs on"
echo " AES-NI / GFNI, so re-keyed messages cost what the default provider's do)"
"$BUILD/bench/gpucrypto-bench" --against "$(command -v openssl)" --module-dir "$MOD" \
  --filter '^(AES-128-GCM|AES-128-CBC|SM4-CBC)$' --sizes 16,16k --reps 1 2>/dev/null |
  sed -n '/^== ours/,/^Below/p'
echo
echo "== New: a TLS 1.3 key exchange, classical vs post-quantum hybrid (gpucrypto-kex) =="
echo "(the EVP calls libssl makes for one handshake's key exchange, both sides' secrets compared;"
echo " X25519 is OpenSSL's own, the hybrids and ML-KEM are ours; microseconds per exchange."
echo " New: SecP384r1MLKEM1024's P-384 half is our own constant-time P-384 -- an exchange is"
echo " two ECDH and two public keys, OpenSSL's P-384 ECDH alone costs:)"
openssl speed -seconds 1 ecdhp384 2>/dev/null | tail -1 | awk '{printf "  OpenSSL P-384 (openssl speed ecdhp384): %.0f us per ECDH\n", 1e6 / $NF}'
GPUCRYPTO_MODULE_DIR="$MOD" "$BUILD/bench/gpucrypto-kex" -iters 100 -rounds 3 -propquery '?provider=gpucrypto' \
  X25519 X25519MLKEM768 MLKEM768 SecP384r1MLKEM1024
echo
echo "Full benchmark (all ciphers, back ends, sizes, ratios): $BUILD/bench/gpucrypto-bench (see README)."
