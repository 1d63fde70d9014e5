#!/usr/bin/env python3
"""Per-kernel instruction counts and the H200 throughput model of gpu/README.md.

Input: PTX (nvcc -ptx) or SASS (cuobjdump -sass) of gpu/kernels.cu (the table
family) and gpu/kernels_ct.cu (the constant-time family), one or more files, built with
-DGPUCRYPTO_MODEL_FULL_UNROLL, so every round loop is unrolled and the static
count of a kernel is what one thread executes for its blocks (plus the
shared-table fill, which every thread runs at most once). The bit-sliced
kernels do 2 (AesCt, SkinnyCt) or 8 (Sm4Ct) blocks per thread; the counts
are divided by that to give instructions per block.

End-to-end bounds, per CTR transfer mode (gpu/README.md, "CTR transfer modes"):
  ship       data host->device and back: min(kernel, H2D, D2H) (full duplex);
  keystream  keystream device->host only: min(kernel, D2H);
and, for both, the host staging copies the runtime does on one thread
(HOST_COPY below, an assumption until gpu/check.sh measures it).

  count_instructions.py kernels.ptx kernels_ct.ptx   # PTX (what this repo's CI can do)
  count_instructions.py --sass kernels.sass          # SASS (on a machine with cuobjdump)
"""
import re
import sys

# H200 SXM (GH100): 132 SMs, 1.98 GHz boost; per SM and clock: 4 warp
# schedulers (128 thread-instructions issued), 64 lanes of 32-bit integer /
# logic / shift (CUDA C++ Programming Guide, arithmetic instruction
# throughput, compute capability 9.0), 32 lanes of shared-memory loads
# (32 banks x 4 bytes).
SMS, CLOCK = 132, 1.98e9
ISSUE, ALU, LDS = 128, 64, 32
# Random 4-byte look-ups of 32 threads into 32 banks collide: the expected
# largest bank load is about 3.5 for 32 uniform indices (balls into bins).
CONFLICT = 3.5
PCIE_H2D, PCIE_D2H = 35e9, 53e9  # measured on an H100 host (bytes/s); 280 / 424 Gb/s
# Bytes per second one host thread moves through the staging buffers per byte
# of payload: ship = memcpy in->pinned + memcpy pinned->out, keystream = XOR
# (two reads, one write) + the wipe of the staged keystream. ~12 GB/s of
# memcpy per server core (out of cache) gives ~6 GB/s for two copies. An
# ASSUMPTION, not a measurement (check.sh's end-to-end rows measure it).
HOST_COPY = {"ship": 6e9, "keystream": 6e9}

PTX_SKIP = re.compile(r"^(mov|ld\.param|ret|bra|bar|cvta|mov\.u64)\b")
SASS_SKIP = re.compile(r"^(MOV|NOP|EXIT|BRA|BAR|S2R|S2UR|ULDC|CS2R|LDC|UMOV|BSYNC|BSSY|WARPSYNC)\b")


OPS = ["ecb-enc", "ecb-dec", "ctr", "keystream"]
# Blocks per thread of the bit-sliced bodies (kBlocksPerThread).
LANES = {"AesCt": 2, "SkinnyCt": 2, "Sm4Ct": 8}
CONSTANT_TIME = ("AesCt", "SkinnyCt", "Sm4Ct", "Rectangle")


def short(name):
    m = re.search(r"CipherKernelINS\d_(\d+)(\w+?)(?:ILi(\d+)E)?E+LNS\d_2OpE(\d)", name)
    if not m:
        return name[:60]
    cls, rounds, op = m.group(2), m.group(3), int(m.group(4))
    return f"{cls}{'<' + rounds + '>' if rounds else ''} {OPS[op]}"


def lanes(name):
    return LANES.get(name.split("<")[0].split(" ")[0], 1)


def sass_line(line):
    """(kernel name, None) at a function header, (None, mnemonic) for a
    counted instruction, (None, None) otherwise."""
    m = re.search(r"Function : (\S+)", line)
    if m:
        return m.group(1), None
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if not m or SASS_SKIP.match(m.group(1)):
        return None, None
    return None, m.group(1)


def ptx_line(line):
    """The same for PTX: the instruction text without its predicate."""
    s = line.strip()
    m = re.match(r"(?:\.(?:visible|weak)\s+)?\.entry (\S+)\(", s)
    if m:
        return m.group(1), None
    if not s or s.startswith(("//", ".", "$", "{", "}", ")")):
        return None, None
    s = re.sub(r"^@!?%p\d+\s+", "", s)
    return (None, None) if PTX_SKIP.match(s) else (None, s)


def classify(op, sass):
    """Which counter an instruction adds to besides "all": shared-memory
    loads (lds), global loads/stores and shared stores (mem), the rest (alu)."""
    lds, mem = (("LDS",), ("LDG", "STG")) if sass else (("ld.shared",), ("ld.global", "st.global", "st.shared"))
    return "lds" if op.startswith(lds) else "mem" if op.startswith(mem) else "alu"


def parse(path, sass):
    kernels, cur = {}, None
    for line in open(path, errors="replace"):
        name, op = (sass_line if sass else ptx_line)(line)
        if name:
            cur = kernels.setdefault(short(name), {"alu": 0, "lds": 0, "mem": 0, "all": 0})
        elif op is not None and cur is not None:
            cur["all"] += 1
            cur[classify(op, sass)] += 1
    return kernels


def gbps(bytes_per_second):
    return f"{bytes_per_second * 8 / 1e9:,.0f}"


def main():
    sass = "--sass" in sys.argv
    kernels = {}
    for path in [a for a in sys.argv[1:] if not a.startswith("--")]:
        kernels.update(parse(path, sass))
    print("| kernel | family | instr/block | ALU | LDS | kernel-only (Gb/s) | "
          "ship: PCIe / +host (Gb/s) | keystream: PCIe / +host (Gb/s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in sorted(kernels):
        k = kernels[name]
        block = 8 if "Rectangle" in name else 16
        per = lanes(name)
        family = "constant-time" if name.startswith(CONSTANT_TIME) else "tables"
        # SM clocks per cipher block: the busiest of instruction issue, the
        # integer pipe and the shared-memory port, over the thread's blocks.
        clocks = max(k["all"] / ISSUE, k["alu"] / ALU, k["lds"] * CONFLICT / LDS) / per
        bps = SMS * CLOCK * block / clocks
        ship = min(bps, PCIE_H2D, PCIE_D2H)
        ks = min(bps, PCIE_D2H)
        cells = [name, family, f"{k['all'] / per:,.0f}", f"{k['alu'] / per:,.0f}", f"{k['lds'] / per:,.0f}",
                 gbps(bps)]
        if name.endswith(("ctr", "keystream")):
            cells += [f"{gbps(ship)} / {gbps(min(ship, HOST_COPY['ship']))}" if name.endswith("ctr") else "-",
                      f"{gbps(ks)} / {gbps(min(ks, HOST_COPY['keystream']))}" if name.endswith("keystream") else "-"]
        else:
            cells += [f"{gbps(ship)} / {gbps(min(ship, HOST_COPY['ship']))}", "-"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
