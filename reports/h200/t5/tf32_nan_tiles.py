"""Writes the operands of one tf32 instruction tile whose A holds fp32 NaNs with payloads only in the
13 bits tf32 drops (row 0: 0x7f801dd1, row 1: 0xff800c0f, row 2: 0x7f800001), B all ones, C zero:
`mmaemu mma --backend tc` (the H200's own tensor cores) against `--backend reference` says how the
instruction reads them. Usage: tf32_nan_tiles.py DIR M (M = 16 for mma.m16n8k8, 64 for wgmma.m64n8k8)"""
import struct
import sys

def npy(path, shape, values):
    header = "{'descr': '<u4', 'fortran_order': False, 'shape': (%s), }" % ", ".join(str(s) for s in shape)
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%dI" % len(values), *values))

out, m = sys.argv[1], int(sys.argv[2])
k, n = 8, 8
a = [0] * (m * k)
for row, bits in enumerate([0x7F801DD1, 0xFF800C0F, 0x7F800001]):
    a[row * k] = bits
npy(out + "/a.npy", (1, m, k), a)
npy(out + "/b.npy", (1, k, n), [0x3F800000] * (k * n))
npy(out + "/c.npy", (1, m, n), [0] * (m * n))
