#!/usr/bin/env python3
"""Writes the seed corpus for fuzz_cipher into <out>/fuzz_cipher (make_seeds.py OUT LIST).

Seeds are laid out as fuzz_cipher.cpp reads them:
  [cipher index][key][iv][flags][chunks][len u16 LE][plaintext][op program]
with the key, IV and plaintext of official vectors (the ones the unit tests
type in), each followed by an op program exercising every op once.
The babyKyber seeds (fuzz_kem) are real DER/PEM keys written by the openssl
CLI at CI time (.ci/hardening.sh), like test/cli/babykyber_cli.sh does.
"""
import os
import sys

# (name, key bytes, block bytes) in the order of fuzz_cipher.cpp targets():
# read from the registry's list (gpucrypto-cipher-list --no-aliases, whose
# lines are "NAME KEYBYTES IVBYTES BLOCKBYTES"), given as the second argument.
CIPHERS = []


def read_ciphers(path):
    with open(path) as f:
        for line in f:
            name, k, _iv, b = line.split()
            CIPHERS.append((name, int(k), int(b)))
    if not CIPHERS:
        sys.exit(f"{path}: no cipher listed")

H = bytes.fromhex
# NIST SP 800-38A F.5.1 (AES-128-CTR): key, initial counter block, plaintext.
SP800_KEY = H("2b7e151628aed2a6abf7158809cf4f3c")
SP800_CTR = H("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
SP800_PT = H("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
             "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
# GB/T 32907-2016 Example 1 (SM4): key = plaintext.
SM4_KEY = H("0123456789abcdeffedcba9876543210")

# One op of each kind (fuzz_cipher.cpp program(): op % 9).
PROGRAM = bytes([0, 17,  1, 0x30, 0x01,  2, 0,  3,  4,  0, 5,  6, 3,  7,  5, 0x02] +
                list(SP800_CTR) + [0, 40, 8, 20, 1, 7, 5, 0x04, 0, 33, 7])


def seed(i, key, iv, pt, flags, chunks):
    name, kl, bl = CIPHERS[i]
    key = (key * 4)[:kl]
    iv = (iv * 2)[:bl]
    out = bytes([i]) + key + iv + bytes([flags]) + bytes(chunks)
    return out + len(pt).to_bytes(2, "little") + pt + PROGRAM


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_seeds.py OUTDIR CIPHER_LIST_FILE")
    read_ciphers(sys.argv[2])
    out = os.path.join(sys.argv[1], "fuzz_cipher")
    os.makedirs(out, exist_ok=True)
    n = 0
    for i in range(len(CIPHERS)):
        key = SM4_KEY if CIPHERS[i][0].startswith("SM4") else SP800_KEY
        for j, (flags, chunks, pt) in enumerate([
                (0x01, [], SP800_PT),                    # padding, one update
                (0x00 | 3 << 5, [1, 15, 16], SP800_PT),  # no padding, 3 chunks
                (0x01 | 1 << 5 | 2 << 2, [7, 0, 9, 0, 5], SP800_PT[:23]),
                (0x01, [], b"")]):
            with open(os.path.join(out, f"{CIPHERS[i][0]}-{j}"), "wb") as f:
                f.write(seed(i, key, SP800_CTR, pt, flags, chunks))
            n += 1
    print(f"wrote {n} seeds to {out}")


if __name__ == "__main__":
    main()
