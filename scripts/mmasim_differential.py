#!/usr/bin/env python3
"""mmaemu against MMA-Sim (a model, not hardware), instruction by instruction, bit for bit.

Covers mma.sync and wgmma (wgmma at N = 8, as `mmaemu info` lists it).

For every instruction both model on an architecture, draws tiles of raw operand bits from several
families, computes D with `mmaemu mma` and with MMA-Sim (PyPI `mmasim`, run on the CPU through
PyTorch), and compares the raw bits. Prints one line per instruction and a verdict table; writes the
same as JSON with --json. Exit 0 when every output agrees, 1 when any differs, 2 on bad use.

    python3 scripts/mmasim_differential.py --mmaemu build/harness/cli/mmaemu --arch sm120 [--tiles 64]

Needs numpy, torch and mmasim (pip install mmasim==2.1.1 torch). Operand storage is mmaemu's (README:
fp6 and fp4 in the low bits of a byte); MMA-Sim holds fp4 in bits 5:2 of its byte, as the hardware's
registers do, so the script shifts fp4 codes by two for it.
"""
import argparse
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

# mmaemu's profile names -> MMA-Sim's architecture names.
ARCHS = {"sm70": "Volta", "sm75": "Turing", "sm80": "Ampere", "sm86": "Ampere", "sm89": "Ada Lovelace",
         "sm90": "Hopper", "sm100": "Blackwell", "sm120": "RTX Blackwell"}
SUB_BYTE_BITS = {"e2m1": 4, "e3m2": 6, "e2m3": 6}
WORD = {"f32": np.uint32, "tf32": np.uint32, "f16": np.uint16, "bf16": np.uint16, "e4m3": np.uint8,
        "e5m2": np.uint8, "e2m1": np.uint8, "e3m2": np.uint8, "e2m3": np.uint8}
FAMILIES = ["random_bits", "cancellation", "c_specials", "small_values"]


def parse(name):
    """mma.m16n8k32.f32.e2m1.e3m2.f32 -> (m, n, k, d, a, b, c); wgmma.m64n8k16.f32.f16.f16: c is d."""
    parts = name.split(".")
    if parts[0] == "wgmma":
        parts.append(parts[2])
    shape = parts[1]
    m = int(shape[1:shape.index("n")])
    n = int(shape[shape.index("n") + 1:shape.index("k")])
    k = int(shape[shape.index("k") + 1:])
    return m, n, k, parts[2], parts[3], parts[4], parts[5]


def mmasim_name(name):
    """mmaemu spelling -> MMA-Sim's shape_and_type (kind::f8f6f4 where the types need it)."""
    m, n, k, d, a, b, c = parse(name)
    shape = f"m{m}n{n}k{k}"
    return shape, (f"{d}.{a}.{b}" if name.startswith("wgmma.") else f"{d}.{a}.{b}.{c}")


def random_codes(rng, fmt, shape):
    bits = SUB_BYTE_BITS.get(fmt, 8 * np.dtype(WORD[fmt]).itemsize)
    return rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(WORD[fmt])


def c_values(rng, fmt, shape, family):
    if fmt == "f32":
        v = rng.standard_normal(shape).astype(np.float32) * np.float32(2.0) ** rng.integers(-20, 20, size=shape)
        out = v.astype(np.float32).view(np.uint32)
        if family == "c_specials":
            specials = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000, 0x00000001, 0x7F7FFFFF, 0x807FFFFF],
                                dtype=np.uint32)
            mask = rng.random(shape) < 0.3
            out = np.where(mask, specials[rng.integers(0, len(specials), size=shape)], out)
        return out.astype(np.uint32)
    v = (rng.standard_normal(shape) * 2.0 ** rng.integers(-10, 6, size=shape)).astype(np.float16).view(np.uint16)
    if family == "c_specials":
        specials = np.array([0x7C00, 0xFC00, 0x7E00, 0x8000, 0x0001, 0x7BFF], dtype=np.uint16)
        mask = rng.random(shape) < 0.3
        v = np.where(mask, specials[rng.integers(0, len(specials), size=shape)], v)
    return v.astype(np.uint16)


def negate(fmt, codes):
    bits = SUB_BYTE_BITS.get(fmt, 8 * np.dtype(WORD[fmt]).itemsize)
    return (codes ^ (1 << (bits - 1))).astype(WORD[fmt])


def draw(rng, name, tiles, family):
    m, n, k, d, a, b, c = parse(name)
    A = random_codes(rng, a, (tiles, m, k))
    B = random_codes(rng, b, (tiles, k, n))
    if family == "cancellation":  # each row's second half is the first half negated: exact sums cancel
        half = k // 2
        A[:, :, half:2 * half] = negate(a, A[:, :, :half])
        B[:, half:2 * half, :] = B[:, :half, :]
    if family == "small_values":  # codes with small exponents: sums of many similar magnitudes
        for fmt, X in ((a, A), (b, B)):
            bits = SUB_BYTE_BITS.get(fmt, 8 * np.dtype(WORD[fmt]).itemsize)
            X &= (1 << (bits - 1)) | ((1 << (bits - 2)) - 1)  # sign and the lower half of the magnitudes
    C = c_values(rng, c, (tiles, m, n), family)
    return A, B, C


def run_mmaemu(binary, arch, name, A, B, C):
    with tempfile.TemporaryDirectory() as tmp:
        paths = {x: os.path.join(tmp, x + ".npy") for x in "abcd"}
        for x, arr in zip("abc", (A, B, C)):
            np.save(paths[x], arr)
        r = subprocess.run([binary, "mma", "--arch", arch, "--instr", name, "--a", paths["a"], "--b", paths["b"],
                            "--c", paths["c"], "--out", paths["d"]], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"mmaemu mma {name}: exit {r.returncode}: {r.stderr.strip()}")
        return np.load(paths["d"])


def torch_operand(torch, fmt, codes):
    t = torch.from_numpy(codes.astype(np.int64)).to(torch.uint8) if WORD[fmt] == np.uint8 else None
    if fmt == "e4m3":
        return t.view(torch.float8_e4m3fn)
    if fmt == "e5m2":
        return t.view(torch.float8_e5m2)
    if fmt == "e2m1":
        return (t << 2).to(torch.uint8)  # MMA-Sim: fp4 in bits 5:2
    if fmt in ("e3m2", "e2m3"):
        return t
    if fmt in ("f16", "bf16"):
        return torch.from_numpy(codes.view(np.int16).copy()).view(torch.float16 if fmt == "f16" else torch.bfloat16)
    return torch.from_numpy(codes.view(np.int32).copy()).view(torch.float32)


def run_mmasim(torch, sim, isa_mma, isa_wgmma, arch, name, A, B, C):
    m, n, k, d, a, b, c = parse(name)
    shape, types = mmasim_name(name)
    candidates = [f"{shape}.{types}", f"{shape}.kind::f8f6f4.{types}"]
    wgmma = name.startswith("wgmma.")
    lists = isa_wgmma.wgmma_shape_and_type if wgmma else isa_mma.mma_shape_and_type
    supported = lists.get(ARCHS[arch], [])
    spelled = next((s for s in candidates if s in supported), None)
    if spelled is None:
        return None
    op = (sim.WGMMA if wgmma else sim.MMA)(ARCHS[arch], spelled)
    out = np.empty((A.shape[0], m, n), dtype=WORD[d])
    for t in range(A.shape[0]):
        D = op(torch_operand(torch, a, A[t]), torch_operand(torch, b, B[t]), torch_operand(torch, c, C[t]))
        raw = D.view(torch.int32 if d == "f32" else torch.int16).numpy()
        out[t] = raw.view(WORD[d])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mmaemu", required=True, help="the mmaemu program")
    p.add_argument("--arch", required=True, choices=sorted(ARCHS))
    p.add_argument("--instr", action="append", help="only these instructions (default: every one both model)")
    p.add_argument("--tiles", type=int, default=32, help="tiles per family and instruction")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the results here as JSON")
    args = p.parse_args()
    try:
        import torch
        import mmasim
        from mmasim.nv_ptx import sim, isa_mma, isa_wgmma
    except ImportError as e:
        print(f"mmasim_differential: {e}; install with: pip install mmasim==2.1.1 torch", file=sys.stderr)
        return 2
    info = subprocess.run([args.mmaemu, "info"], capture_output=True, text=True, check=True).stdout
    names, current = [], None
    for line in info.splitlines():
        if line and not line.startswith(" "):
            current = line.split(" ")[0]
        elif current == args.arch and (line.startswith("  mma.") or line.startswith("  wgmma.")):
            names.append(line.split()[0])
    if args.instr:
        names = [n for n in names if n in args.instr]
    rng = np.random.default_rng(args.seed)
    results, compared, differing = [], 0, 0
    for name in names:
        row = {"instr": name, "compared": 0, "differing": 0, "first": None}
        for family in FAMILIES:
            A, B, C = draw(rng, name, args.tiles, family)
            theirs = run_mmasim(torch, sim, isa_mma, isa_wgmma, args.arch, name, A, B, C)
            if theirs is None:
                row["skipped"] = "MMA-Sim does not model it"
                break
            ours = run_mmaemu(args.mmaemu, args.arch, name, A, B, C)
            diff = np.argwhere(ours != theirs)
            row["compared"] += ours.size
            row["differing"] += len(diff)
            if len(diff) and row["first"] is None:
                t, i, j = diff[0]
                row["first"] = {"family": family, "tile": int(t), "m": int(i), "n": int(j),
                                "a": [int(x) for x in A[t, i]], "b": [int(x) for x in B[t, :, j]], "c": int(C[t, i, j]),
                                "mmaemu": int(ours[t, i, j]), "mmasim": int(theirs[t, i, j])}
        results.append(row)
        compared += row["compared"]
        differing += row["differing"]
        verdict = row.get("skipped") or ("agree" if row["differing"] == 0 else f"{row['differing']} differ")
        print(f"{name:40s} {row['compared']:8d} {verdict}", flush=True)
    modelled = [r for r in results if "skipped" not in r]
    print(f"\n{args.arch}: {len(modelled)} instructions both model ({len(results) - len(modelled)} only mmaemu), "
          f"{compared} outputs compared, {differing} differ (mmasim {importlib.metadata.version('mmasim')}, "
          f"torch {torch.__version__})")
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"arch": args.arch, "seed": args.seed, "tiles_per_family": args.tiles, "families": FAMILIES,
                       "torch": torch.__version__, "results": results}, f, indent=1)
        os.replace(tmp, args.json)
    return 0 if differing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
