#!/usr/bin/env bash
# OpenSSH from Debian's packages with gpucrypto preferred host-wide through
# openssl.cnf (OPENSSL_CONF, default_properties = ?provider=gpucrypto) for
# both sshd and ssh: sshd started on 127.0.0.1 (free port, its own host key,
# config and authorized_keys in the temp dir, key-only auth, bounded by
# timeout), ssh downloading $MIB MiB with aes128-ctr and with
# aes256-gcm@openssh.com, checked by SHA-256. Then the same with log = 1: the
# connections must survive -- sshd's sandboxed pre-auth child runs with
# RLIMIT_FSIZE = 0 and a stderr file, where the at-exit GCM line once raised
# SIGXFSZ and killed every connection ("preauth child terminated by signal
# 25") -- and the provider is shown at work (without that a pass would say
# nothing; see the end for what is counted and what only seen).
# Needs root (sshd's privilege separation); openssh-server and -client
# (scripts/deps.sh installs them).
# shellcheck source=common.sh.inc
. "$(dirname "$0")/common.sh.inc"
SSHD=${SSHD:-/usr/sbin/sshd}
MIB=${SSH_TEST_MIB:-256}
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
  echo "SKIP: openssh-server / openssh-client not installed (scripts/deps.sh installs them)"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "SKIP: sshd needs root for privilege separation"; exit 0; }
mkdir -p /run/sshd  # sshd's privilege-separation directory (normally made by systemd)
# Root's home and $TMP must not be group/world-writable for sshd's checks;
# StrictModes is off below, the temp dir is private anyway.
chmod 700 "$TMP"

preferred_cnf "$TMP/quiet.cnf"
preferred_cnf "$TMP/log.cnf" "log = 1"

ssh-keygen -q -t ed25519 -N '' -f "$TMP/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$TMP/user_key"
cp "$TMP/user_key.pub" "$TMP/authorized_keys"
head -c $((MIB << 20)) /dev/urandom >"$TMP/data.bin"
want=$(sha256sum <"$TMP/data.bin" | cut -d' ' -f1)

# run_case <cnf> <label>: one sshd, one download per cipher; sets $sshd_log.
run_case() {
  local cnf=$1 label=$2 port spid cipher got
  port=$(free_port)
  cat >"$TMP/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $TMP/host_key
PidFile $TMP/sshd.pid
AuthorizedKeysFile $TMP/authorized_keys
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
StrictModes no
Ciphers aes128-ctr,aes256-gcm@openssh.com
LogLevel VERBOSE
CONF
  sshd_log=$TMP/sshd.$label.log
  OPENSSL_CONF=$cnf timeout 80 "${APP[@]}" "$SSHD" -D -e -f "$TMP/sshd_config" 2>"$sshd_log" &
  spid=$!
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
  for cipher in aes128-ctr aes256-gcm@openssh.com; do
    OPENSSL_CONF=$cnf timeout 60 "${APP[@]}" ssh -F /dev/null -p "$port" -i "$TMP/user_key" \
      -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no \
      -o UserKnownHostsFile="$TMP/known_hosts" -o Ciphers="$cipher" \
      root@127.0.0.1 "cat $TMP/data.bin" 2>"$TMP/ssh.$label.$cipher.err" >"$TMP/got.bin" &
    cpid=$!
    # While the data flows: the session process sshd forked for it (its
    # title "sshd: root@notty") has gpucrypto mapped.
    mapped=0
    while kill -0 "$cpid" 2>/dev/null; do
      for p in $(pgrep -f '^sshd: root@notty' || true); do
        grep -q "$MODULE_DIR/gpucrypto.so" "/proc/$p/maps" 2>/dev/null && mapped=1
      done
      [ "$mapped" = 1 ] && break
      sleep 0.05
    done
    wait "$cpid" || true
    got=$(sha256sum <"$TMP/got.bin" | cut -d' ' -f1)
    [ "$mapped" = 1 ] || echo "$label, $cipher: the session ended before its process was seen" >&2
    sessions_mapped=$((sessions_mapped + mapped))
    if [ "$got" != "$want" ]; then
      cat "$TMP/ssh.$label.$cipher.err" "$sshd_log" >&2
      kill "$spid" 2>/dev/null || true
      fail "$label, $cipher: $MIB MiB not received intact"
    fi
    echo "$label, $cipher: $MIB MiB intact"
  done
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  if grep -q "terminated by signal" "$sshd_log"; then
    cat "$sshd_log" >&2
    fail "$label: an sshd child was killed"
  fi
}

sessions_mapped=0
run_case "$TMP/quiet.cnf" quiet
run_case "$TMP/log.cnf" log
# The proof that gpucrypto was used. ssh: its GCM count (printed when it
# unloads the provider at exit) and, for aes128-ctr, its log line at all
# (the provider was loaded and, by default_properties, preferred; ssh's
# packets of at most 32 KiB are below the 64 KiB the dispatcher logs). sshd:
# its session processes leave with _exit() (no at-exit line; the pre-auth
# child's is refused by its sandbox, as it must be), so gpucrypto mapped in
# every session process while it sent the data.
served() { awk '/gpucrypto: GCM served/ {if ($4 > n) n = $4} END {print n + 0}' "$@"; }
min=$((MIB * 16))  # records of at most 64 KiB: at least 16 a MiB
c=$(served "$TMP/ssh.log.aes256-gcm@openssh.com.err")
[ "$c" -ge "$min" ] || fail "ssh: gpucrypto GCM served $c records (want >= $min)"
grep -q "gpucrypto: GCM served" "$TMP/ssh.log.aes128-ctr.err" || fail "ssh (aes128-ctr): gpucrypto not loaded"
[ "$sessions_mapped" -eq 4 ] || fail "gpucrypto seen in $sessions_mapped of 4 sshd session processes"
echo "ssh: ok (ssh GCM records $c; gpucrypto in all 4 sshd session processes)"
