#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs (as root), or prints the one
# apt line to run. Sourced by demo.sh and test.sh.
GPUCRYPTO_PKGS=(build-essential cmake pkg-config openssl libssl-dev libgtest-dev googletest
                libbenchmark-dev xxd nginx curl python3 openssh-server openssh-client)
# What the TLS tests drive besides openssl (test/cli/pq_tls.sh, gcm_tls.sh,
# gcm_nginx.sh: curl, nginx, python3's ssl; ssh.sh: sshd and ssh); in the base
# list too, so the README's test command installs them.
GPUCRYPTO_TLS_PKGS=(curl nginx python3 openssh-server openssh-client)
gpucrypto_deps() {
  local missing=() p
  for p in "${GPUCRYPTO_PKGS[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    echo "Installing: ${missing[*]}"
    # Packages such as nginx and openssh-server start their system service on
    # every address when installed; the tests start their own on 127.0.0.1, so
    # service starts are refused for the install (Debian's policy-rc.d, 101).
    local guard=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && guard=1
    fi
    local rc=0
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || rc=$?
    [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d
    return $rc
  else
    echo "Missing packages. Run:  sudo apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}
# CUDA is optional; use nvcc where the toolkit put it even if it is not on PATH.
gpucrypto_cmake_args() {
  if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc"
  fi
}
