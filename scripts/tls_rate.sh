#!/usr/bin/env bash
# The handshake-rate table: full TLS 1.3 handshakes per second on one core
# (gpucrypto-tls-rate: client and server in one thread), per key-exchange group,
# on this machine's OpenSSL and under OpenSSL 3.5 LTS's libraries
# (scripts/openssl35.sh) with ours preferred (?provider=gpucrypto) and with
# 3.5's own (?provider=default). Every round runs every group once, the order
# alternating between rounds; each cell is the median handshakes/s, the ratio is
# to X25519 in the same configuration, with the lowest and highest per-round
# ratio.
#
#   scripts/tls_rate.sh [rounds] [seconds]    BUILD_DIR (default build-rel), CPU (default 1),
#                                             TLS_GROUPS (default: X25519 and the hybrids, MLKEM768)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
seconds=${2:-2}
BUILD=${BUILD_DIR:-build-rel}
cpu=${CPU:-1}
read -r -a groups <<<"${TLS_GROUPS:-X25519 X25519MLKEM768 SecP256r1MLKEM768 MLKEM768}"
tool=$BUILD/gpucrypto-tls-rate
[ -x "$tool" ] || cmake --build "$BUILD" --target gpucrypto-tls-rate >/dev/null
export GPUCRYPTO_MODULE_DIR=$PWD/$BUILD
D=$(scripts/openssl35.sh)

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) (family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')), pinned to CPU $cpu"
echo "$rounds rounds x ${seconds} s per group; cells: median handshakes/s, ratio to X25519 [min-max per round]"

# label | runner prefix | propquery
configs=("OpenSSL $(openssl version | awk '{print $2}'), ours|-|?provider=gpucrypto"
         "OpenSSL 3.5, ours preferred|$D/run|?provider=gpucrypto"
         "OpenSSL 3.5, its own|$D/run|?provider=default")
for cfg in "${configs[@]}"; do
  IFS='|' read -r label runner propq <<<"$cfg"
  run=()
  [ "$runner" = - ] || run=("$runner")
  out=$(mktemp)
  for ((r = 0; r < rounds; r++)); do
    order=("${groups[@]}")
    if ((r % 2)); then  # reversed order every other round
      order=()
      for ((i = ${#groups[@]} - 1; i >= 0; i--)); do order+=("${groups[i]}"); done
    fi
    taskset -c "$cpu" "${run[@]}" "$tool" -seconds "$seconds" -propquery "$propq" "${order[@]}" |
      awk -v r="$r" 'NR > 1 { print r, $1, $2 }' >>"$out"
  done
  echo
  echo "$label"
  awk -v base=X25519 '
    { v[$2, $1] = $3; if (!($2 in ord)) { ord[$2] = ++n; name[n] = $2 }; rs[$1] = 1 }
    function median(a, k,   i, j, t) {
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    END {
      printf "  %-20s %10s %8s %s\n", "group", "hs/s", "vs X25519", "[per-round]"
      for (g = 1; g <= n; g++) {
        k = 0; lo = 1e9; hi = 0; delete a; delete q
        for (r in rs) { a[++k] = v[name[g], r]; x = v[name[g], r] / v[base, r]; if (x < lo) lo = x; if (x > hi) hi = x }
        m = median(a, k)
        k = 0; for (r in rs) q[++k] = v[base, r]
        printf "  %-20s %10.0f %8.2f [%.2f-%.2f]\n", name[g], m, m / median(q, k), lo, hi
      }
    }' "$out"
  rm -f "$out"
done
