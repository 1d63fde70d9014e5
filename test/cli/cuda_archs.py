#!/usr/bin/env python3
"""Reads the CUDA architectures embedded in the built module and checks them
against the configured list (gpu/README.md, "CUDA architectures").

  cuda_archs.py <gpucrypto.so> <configured list>     e.g. "80-real,90"

The configured list is what gpu/CMakeLists.txt handed to CMake's
CUDA_ARCHITECTURES (the default, 80-real;90, or the user's choice), with
commas or semicolons between the entries; an empty
list means a build without CUDA, and the test is skipped (exit 77).

No cuobjdump needed: the .nv_fatbin section (objcopy) is a run of fat
binaries, each a 16-byte header (magic 0xBA55ED50, version, header size,
payload size) followed by entries; an entry header holds the kind at offset 0
(1 = PTX, 2 = ELF machine code), its own size at 4, the payload size at 8 and
the sm architecture at 28.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

SKIP = 77
MAGIC = 0xBA55ED50
PTX, ELF = 1, 2


def embedded(module):
    """{(kind, arch)} of every entry of every fat binary in the module."""
    with tempfile.TemporaryDirectory() as tmp:
        sec = os.path.join(tmp, "fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", module, sec],
                       check=True)
        data = open(sec, "rb").read()
    found, off = set(), 0
    while off + 16 <= len(data):
        magic, _, hsize, size = struct.unpack_from("<IHHQ", data, off)
        if magic != MAGIC:
            off += 8  # fat binaries are 8-byte aligned, zero padding between them
            continue
        entry, end = off + hsize, off + hsize + size
        while entry < end:
            kind, _, ehsize, payload = struct.unpack_from("<HHIQ", data, entry)
            (arch,) = struct.unpack_from("<I", data, entry + 28)
            found.add((kind, arch))
            entry += ehsize + payload
        off = end
    return found


def expected(configured):
    """{(kind, arch)} that CMake's CUDA_ARCHITECTURES list asks for, or None
    for lists whose content depends on the compiler or machine (all, native)."""
    want = set()
    for a in re.split(r"[;,]", configured):
        m = re.fullmatch(r"(\d+)a?(-real|-virtual)?", a)
        if not m:
            return None
        arch, suffix = int(m.group(1)), m.group(2)
        if suffix != "-virtual":
            want.add((ELF, arch))
        if suffix != "-real":
            want.add((PTX, arch))
    return want


def name(entry):
    kind, arch = entry
    return f"{'sm' if kind == ELF else 'compute'}_{arch}"


def main():
    module, configured = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    if not configured:
        print("SKIP: built without CUDA (no kernels embedded)")
        return SKIP
    got = embedded(module)
    print("embedded:", ", ".join(name(e) for e in sorted(got, key=lambda e: (e[1], -e[0]))) or "nothing")
    if not got:
        print(f"FAIL: {module} has no .nv_fatbin kernels")
        return 1
    want = expected(configured)
    if want is None:
        print(f"configured '{configured}': contents not predictable, only checked that kernels exist")
        return 0
    print("configured:", configured, "=", ", ".join(name(e) for e in sorted(want, key=lambda e: (e[1], -e[0]))))
    if got != want:
        print("FAIL: missing", sorted(map(name, want - got)), "unexpected", sorted(map(name, got - want)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
