#!/usr/bin/env python3
"""H200 throughput model of the ML-KEM batch kernels (gpu/kernels/mlkem.cuh).

A MODEL, not a measurement: no GPU was available. Input: the PTX of
gpu/model/mlkem_probes.cu, whose kernels each run one building block once:

  nvcc -std=c++20 -I. -arch=sm_90 -O3 -ptx gpu/model/mlkem_probes.cu -o probes.ptx
  python3 gpu/model/mlkem_model.py probes.ptx

Cost unit: 32-bit warp-instructions. A 64-bit PTX logic/shift/add op counts
2 (the SM has 32-bit integer lanes); ld.param, mov, bra, bar, ret are free.
Loops: a probe's backward branch guarded by `setp.ne.s32 %p, %r, N` is taken
as an N-trip loop with a step-1 counter (the Keccak round loop).

What one instance costs is the sum over its warps of the blocks each warp
issues. Lanes of one warp that run the same task in lock-step (e.g. 9
SampleNTT lanes) issue it once; a task alone on its lane (G) issues it just as
often. The hash pass (H(ek) or J(z || c), one instance per thread) issues each
permutation once per 32 instances. Counted: the Keccak-f[1600] permutations, NTT / inverse NTT
butterflies, base multiplications, ByteEncode12 and the compression of the
ciphertext. NOT counted: the sponges' byte copies, rejection sampling and
CBD bit extraction, ByteDecode12 / Decompress and the global loads and
stores. So the figures are upper bounds on the kernel's rate.

Rate: the instructions are integer/logic, and an H200 SM retires 64 such
lanes per clock = 2 warp-instructions: instances/s = 132 SMs * 1.98 GHz * 2 /
(warp-instructions per instance). End to end, the PCIe bound (H100-measured
35 GB/s host->device, 53 GB/s device->host, copies overlapped with kernels by
4 streams) is min(35e9 / in bytes, 53e9 / out bytes).
"""
import re
import sys

SMS, CLOCK, ALU_WARPS_PER_CLOCK = 132, 1.98e9, 2
PCIE_H2D, PCIE_D2H = 35e9, 53e9
SKIP = re.compile(r"^(mov|ld\.param|ret|bra|bar|cvta)\b")


def parse(path):
    """name -> list of (instruction text) per entry, and loop info."""
    entries, cur = {}, None
    for line in open(path):
        s = line.strip()
        m = re.match(r"\.visible \.entry (\w+)\(", s)
        if m:
            cur = entries.setdefault(m.group(1), [])
            continue
        if cur is None or not s or s.startswith(("//", ".", "{", "}", ")")):
            continue
        cur.append(s)
    return entries


def weight(ins):
    s = re.sub(r"^@!?%p\d+\s+", "", ins)
    if s.startswith("$") or SKIP.match(s):
        return 0
    op = s.split()[0]
    if re.search(r"\.(b64|u64|s64)$", op) and not op.startswith(("ld", "st")):
        return 2
    return 1


def cost(lines):
    """Dynamic cost: loops guarded by `setp.ne.s32 %p, %r, N` run N times."""
    labels = {l[:-1]: i for i, l in enumerate(lines) if l.startswith("$") and l.endswith(":")}
    total, mult = 0, [1] * len(lines)
    for i, l in enumerate(lines):
        m = re.match(r"@%p\d+ bra\s+(\$\w+);", l)
        if m and labels.get(m.group(1), i + 1) < i:
            n = re.search(r"setp\.ne\.s32\s+%p\d+, %r\d+, (\d+);", lines[i - 1])
            trips = int(n.group(1)) if n else 1
            for k in range(labels[m.group(1)], i + 1):
                mult[k] = trips
    for i, l in enumerate(lines):
        total += weight(l) * mult[i]
    return total


def main(path):
    e = parse(path)
    c = {name: cost(lines) for name, lines in e.items()}
    def get(key):
        return next(v for k, v in c.items() if key in k)
    keccak, ntt, inv = get("probe_keccak"), get("probe_ntt"), get("probe_invntt")
    bm, cmp8 = get("probe_basemul"), get("probe_compress8")
    print(f"building blocks (32-bit warp-instructions): Keccak-f1600 {keccak}, NTT butterfly {ntt}, "
          f"inverse butterfly {inv}, basemul pair + encode {bm}, add+compress 8 coefficients {cmp8}\n")
    rows = []
    for K, level in ((2, 512), (3, 768), (4, 1024)):
        ek, dk = 384 * K + 32, 768 * K + 96
        ct = 32 * (11 if K == 4 else 10) * K + 32 * (5 if K == 4 else 4)
        h = lambda nbytes: nbytes // 136 + 1  # SHA3-256 / SHAKE256 permutations
        noise1 = 2 if K == 2 else 1             # eta1 = 3 needs 192 bytes of SHAKE256
        sample = 3                              # SampleNTT: 3 squeezes in >99 % of entries
        warps = 4                               # 128 lanes
        # Keccak permutations issued per instance by the main kernel's warps,
        # and by the hash pass (32 instances per warp).
        perms = {
            "keygen": 1 + sample + noise1,      # G, A, s/e
            "encaps": sample + 1 + noise1 + 1,  # A^T, G, r, e1/e2
            "decaps": sample + 1 + noise1 + 1,  # A^T, G, r, e1/e2
        }
        passperms = {"keygen": h(ek), "encaps": h(ek), "decaps": h(32 + ct)}  # H(ek), J
        # Arithmetic, 4 warps each: butterflies per lane (7 layers x polys),
        # basemul pairs per lane, compress groups.
        arith = {
            "keygen": 7 * 2 * K * ntt + K * K * bm,
            "encaps": 7 * K * ntt + 7 * (K + 1) * inv + (K * K + K) * bm
                      + (K + 1) * 32 * cmp8 / 128,
            "decaps": 7 * K * ntt + 7 * inv + K * bm + 7 * K * ntt + 7 * (K + 1) * inv
                      + (K * K + K) * bm + (K + 1) * 32 * cmp8 / 128,
        }
        io = {"keygen": (64, ek + dk), "encaps": (ek + 32, ct + 33), "decaps": (dk + ct, 32)}
        for op in ("keygen", "encaps", "decaps"):
            w = (perms[op] + passperms[op] / 32) * keccak + warps * arith[op]
            rate = SMS * CLOCK * ALU_WARPS_PER_CLOCK / w
            pin, pout = io[op]
            pcie = min(PCIE_H2D / pin, PCIE_D2H / pout)
            rows.append((level, op, f"{perms[op]} + {passperms[op]}/32",
                         int((perms[op] + passperms[op] / 32) * keccak), int(warps * arith[op]),
                         int(w), rate, pcie, min(rate, pcie)))
    print("| level | op | Keccak-f perms (main + pass/32) | Keccak warp-instr | arithmetic warp-instr | total | "
          "kernel-only bound (M/s) | PCIe bound (M/s) | end-to-end bound (M/s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| ML-KEM-{r[0]} | {r[1]} | {r[2]} | {r[3]:,} | {r[4]:,} | {r[5]:,} | "
              f"{r[6] / 1e6:,.1f} | {r[7] / 1e6:,.1f} | {r[8] / 1e6:,.1f} |")


if __name__ == "__main__":
    main(sys.argv[1])
