#!/usr/bin/env python3
"""mmaemu against MMA-Sim (a model, not hardware), instruction by instruction, bit for bit.

Covers mma.sync, wgmma and tcgen05.mma (N = 8 where the family takes every N, as `mmaemu info` lists
them), block-scaled instructions included (their scales drawn with the operands).

For every instruction both model on an architecture, draws tiles of raw operand bits from several
families, computes D with `mmaemu mma` and with MMA-Sim (PyPI `mmasim`, run on the CPU through
PyTorch), and compares the raw bits. Prints one line per instruction and a verdict table; writes the
same as JSON with --json. Exit 0 when every output agrees, 1 when any differs, 2 on bad use.

    python3 scripts/mmasim_differential.py --mmaemu build/harness/cli/mmaemu --arch sm120 [--tiles 64]
    python3 scripts/mmasim_differential.py --mmaemu build/harness/cli/mmaemu --against-recording fixtures/h200

Needs numpy, torch and mmasim (pip install mmasim==2.1.1 torch). Operand storage is mmaemu's (README:
fp6 and fp4 in the low bits of a byte); MMA-Sim holds fp4 in bits 5:2 of its byte, as the hardware's
registers do, so the script shifts fp4 codes by two for it; its kind::mxf4 and mxf4nvf4 take two fp4 per
byte (the element of even k in the high nibble), so the script packs them for it.
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
        "e5m2": np.uint8, "e2m1": np.uint8, "e3m2": np.uint8, "e2m3": np.uint8, "f64": np.uint64}
FAMILIES = ["random_bits", "cancellation", "c_specials", "small_values", "wide_cancellation"]


def parse(name):
    """An mmaemu spelling -> dict(family, m, n, k, kind, block, d, a, b, c, s).

    mma.m16n8k32.f32.e2m1.e3m2.f32; wgmma.m64n8k16.f32.f16.f16 (c is d);
    tcgen05.mma.m128n8k32.kind::f8f6f4.f32.e4m3.e2m1 (c is d);
    mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3.
    """
    parts = name.split(".")
    family = "tcgen05" if parts[0] == "tcgen05" else parts[0]
    rest = parts[2:] if family == "tcgen05" else parts[1:]
    shape, rest = rest[0], rest[1:]
    kind = block = None
    if rest and rest[0].startswith("kind::"):
        kind, rest = rest[0][len("kind::"):], rest[1:]
    if rest and rest[0] == "block_scale":
        block, rest = int(rest[1][len("block"):]), rest[2:]
    d, a, b = rest[0], rest[1], rest[2]
    c = rest[3] if family == "mma" else d
    s = rest[-1] if block else None
    m = int(shape[1:shape.index("n")])
    n = int(shape[shape.index("n") + 1:shape.index("k")])
    k = int(shape[shape.index("k") + 1:])
    return dict(family=family, m=m, n=n, k=k, kind=kind, block=block, d=d, a=a, b=b, c=c, s=s)


def mmasim_candidates(name):
    """mmaemu spelling -> MMA-Sim's shape_and_type spellings to try (kind::f8f6f4 where the types need it)."""
    p = parse(name)
    shape = f"m{p['m']}n{p['n']}k{p['k']}"
    types = f"{p['d']}.{p['a']}.{p['b']}" + (f".{p['c']}" if p["family"] == "mma" else "")
    if p["block"]:
        return [f"{shape}.kind::{p['kind']}.block{p['block']}.{types}.{p['s']}"]
    if p["kind"]:
        return [f"{shape}.kind::{p['kind']}.{types}"]
    return [f"{shape}.{types}", f"{shape}.kind::f8f6f4.{types}"]


def random_codes(rng, fmt, shape):
    if fmt == "f64":
        return rng.integers(0, 1 << 64, size=shape, dtype=np.uint64, endpoint=False)
    bits = SUB_BYTE_BITS.get(fmt, 8 * np.dtype(WORD[fmt]).itemsize)
    return rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(WORD[fmt])


def c_values(rng, fmt, shape, family):
    if fmt == "f64":
        out = (rng.standard_normal(shape) * 2.0 ** rng.integers(-40, 40, size=shape)).view(np.uint64)
        if family == "c_specials":
            specials = np.array([0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x8000000000000000, 1,
                                 0x7FEFFFFFFFFFFFFF], dtype=np.uint64)
            out = np.where(rng.random(shape) < 0.3, specials[rng.integers(0, len(specials), size=shape)], out)
        return out.astype(np.uint64)
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


def scale_codes(rng, fmt, shape, family):
    """Scales near 1 (ue8m0 codes 117..137, ue4m3 any finite code), with NaN and the extremes in the
    scale_specials family."""
    if fmt == "ue8m0":
        v = rng.integers(117, 138, size=shape, dtype=np.uint64)
        if family == "scale_specials":
            v = np.where(rng.random(shape) < 0.25, rng.choice(np.array([0, 1, 254, 255], dtype=np.uint64), size=shape), v)
    else:
        v = rng.integers(0, 0x7F, size=shape, dtype=np.uint64)
        if family == "scale_specials":
            v = np.where(rng.random(shape) < 0.25, rng.choice(np.array([0, 1, 0x7E, 0x7F], dtype=np.uint64), size=shape), v)
    return v.astype(np.uint8)


def draw(rng, name, tiles, family):
    p = parse(name)
    m, n, k, a, b = p["m"], p["n"], p["k"], p["a"], p["b"]
    A = random_codes(rng, a, (tiles, m, k))
    B = random_codes(rng, b, (tiles, k, n))
    if family in ("cancellation", "wide_cancellation"):  # each row's second half is the first half negated
        half = k // 2
        A[:, :, half:2 * half] = negate(a, A[:, :, :half])
        B[:, half:2 * half, :] = B[:, :half, :]
    if family == "small_values":  # codes with small exponents: sums of many similar magnitudes
        for fmt, X in ((a, A), (b, B)):
            bits = SUB_BYTE_BITS.get(fmt, 8 * np.dtype(WORD[fmt]).itemsize)
            X &= (1 << (bits - 1)) | ((1 << (bits - 2)) - 1)  # sign and the lower half of the magnitudes
    # wide_cancellation: C's codes over its whole format too (subnormals and the largest exponents), so that
    # the cancelled sum leaves C beside the products' truncation residues at every exponent distance.
    C = random_codes(rng, p["c"], (tiles, m, n)) if family == "wide_cancellation" else c_values(rng, p["c"], (tiles, m, n), family)
    if not p["block"]:
        return A, B, C, None, None
    S = k // p["block"]
    return A, B, C, scale_codes(rng, p["s"], (tiles, m, S), family), scale_codes(rng, p["s"], (tiles, S, n), family)


def run_mmaemu(binary, arch, name, A, B, C, SA=None, SB=None):
    with tempfile.TemporaryDirectory() as tmp:
        paths = {x: os.path.join(tmp, x + ".npy") for x in ("a", "b", "c", "d", "sa", "sb")}
        for x, arr in (("a", A), ("b", B), ("c", C), ("sa", SA), ("sb", SB)):
            if arr is not None:
                np.save(paths[x], arr)
        cmd = [binary, "mma", "--arch", arch, "--instr", name, "--a", paths["a"], "--b", paths["b"], "--c", paths["c"],
               "--out", paths["d"]]
        if SA is not None:
            cmd += ["--scale-a", paths["sa"], "--scale-b", paths["sb"]]
        r = subprocess.run(cmd, capture_output=True, text=True)
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
    if fmt == "f64":
        return torch.from_numpy(codes.view(np.int64).copy()).view(torch.float64)
    return torch.from_numpy(codes.view(np.int32).copy()).view(torch.float32)


def pack_fp4_pairs(codes, axis):
    """Two fp4 codes per byte along `axis`, the even element in the high nibble (MMA-Sim's mxf4 layout)."""
    x = np.moveaxis(codes.astype(np.uint8), axis, -1)
    packed = (x[..., 0::2] << 4) | x[..., 1::2]
    return np.moveaxis(packed, -1, axis)


def mmasim_op(sim, lists, arch, name):
    """The MMA-Sim operator for an instruction, or None when MMA-Sim does not model it on `arch`."""
    p = parse(name)
    key = (p["family"], p["block"] is not None)
    supported = lists[key].get(ARCHS[arch], [])
    spelled = next((s for s in mmasim_candidates(name) if s in supported), None)
    if spelled is None:
        return None
    ctor = {("mma", False): sim.MMA, ("wgmma", False): sim.WGMMA, ("tcgen05", False): sim.TCGen05MMA,
            ("mma", True): sim.MMABlockScale, ("tcgen05", True): sim.TCGen05MMABlockScale}[key]
    return ctor(ARCHS[arch], spelled)


def run_mmasim(torch, op, name, A, B, C, SA=None, SB=None):
    p = parse(name)
    packed = p["kind"] in ("mxf4", "mxf4nvf4")
    out = np.empty((A.shape[0], p["m"], p["n"]), dtype=WORD[p["d"]])
    for t in range(A.shape[0]):
        if packed:
            a = torch.from_numpy(pack_fp4_pairs(A[t], 1).copy())
            b = torch.from_numpy(pack_fp4_pairs(B[t], 0).copy())
        else:
            a, b = torch_operand(torch, p["a"], A[t]), torch_operand(torch, p["b"], B[t])
        c = torch_operand(torch, p["c"], C[t])
        if SA is None:
            D = op(a, b, c)
        else:
            sdt = torch.float8_e8m0fnu if p["s"] == "ue8m0" else torch.float8_e4m3fn
            D = op(a, b, c, torch.from_numpy(SA[t].copy()).view(sdt), torch.from_numpy(SB[t].copy()).view(sdt))
        raw = D.view({"f32": torch.int32, "f64": torch.int64}.get(p["d"], torch.int16)).numpy()
        out[t] = raw.view(WORD[p["d"]])
    return out


def is_nan(fmt, bits):
    """Whether raw bits of an output format are a NaN (fp32, fp16, fp64)."""
    width = {"f32": (8, 23), "f16": (5, 10), "f64": (11, 52)}[fmt]
    e, m = width
    return ((bits >> m) & ((1 << e) - 1)) == (1 << e) - 1 and (bits & ((1 << m) - 1)) != 0


def score_recording(torch, sim, lists, set_dir, json_out):
    """MMA-Sim on the inputs of a set recorded on a GPU, against the GPU's D: how the model scores on hardware."""
    with open(os.path.join(set_dir, "manifest.yaml")) as f:
        arch = next(line.split(":", 1)[1].strip() for line in f if line.startswith("arch:"))
    results, compared, differing = [], 0, 0
    for name in sorted(d for d in os.listdir(set_dir) if os.path.isdir(os.path.join(set_dir, d))):
        op = mmasim_op(sim, lists, arch, name)
        if op is None:
            print(f"{name:40s} MMA-Sim does not model it on {ARCHS[arch]}")
            results.append({"instr": name, "skipped": "MMA-Sim does not model it"})
            continue
        A, B, C, D = (np.load(os.path.join(set_dir, name, r + ".npy")) for r in "abcd")
        theirs = run_mmasim(torch, op, name, A, B, C)
        bad = np.argwhere(theirs != D)
        d_fmt = parse(name)["d"]
        both_nan = sum(1 for t, i, j in bad if is_nan(d_fmt, int(D[t, i, j])) and is_nan(d_fmt, int(theirs[t, i, j])))
        results.append({"instr": name, "compared": int(D.size), "differing": int(len(bad)), "both_nan": both_nan})
        compared += D.size
        differing += len(bad)
        verdict = "agree" if len(bad) == 0 else f"{len(bad)} differ ({both_nan} of them NaN in both, another payload)"
        print(f"{name:40s} {D.size:8d} {verdict}", flush=True)
    print(f"\nMMA-Sim {importlib.metadata.version('mmasim')} ({ARCHS[arch]}) on {set_dir}: {compared} recorded outputs, "
          f"{differing} differ")
    if json_out:
        with open(json_out + ".tmp", "w") as f:
            json.dump({"set": set_dir, "arch": arch, "torch": torch.__version__, "results": results}, f, indent=1)
        os.replace(json_out + ".tmp", json_out)
    return 0 if differing == 0 else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mmaemu", required=True, help="the mmaemu program")
    p.add_argument("--arch", choices=sorted(ARCHS), help="the profile (not with --against-recording)")
    p.add_argument("--against-recording", metavar="SET",
                   help="instead: MMA-Sim on a recorded fixture set's inputs against the GPU's D (e.g. fixtures/h200-fp64)")
    p.add_argument("--instr", action="append", help="only these instructions (default: every one both model)")
    p.add_argument("--tiles", type=int, default=32, help="tiles per family and instruction")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="write the results here as JSON")
    args = p.parse_args()
    try:
        import torch
        import mmasim
        from mmasim.nv_ptx import sim, isa_mma, isa_wgmma, isa_tcgen05mma
    except ImportError as e:
        print(f"mmasim_differential: {e}; install with: pip install mmasim==2.1.1 torch", file=sys.stderr)
        return 2
    lists = {("mma", False): isa_mma.mma_shape_and_type, ("wgmma", False): isa_wgmma.wgmma_shape_and_type,
             ("tcgen05", False): isa_tcgen05mma.tcgen05mma_shape_and_type,
             ("mma", True): isa_mma.mma_block_scale_shape_and_type,
             ("tcgen05", True): isa_tcgen05mma.tcgen05mma_block_scale_shape_and_type}
    if args.against_recording:
        return score_recording(torch, sim, lists, args.against_recording, args.json)
    if not args.arch:
        p.error("--arch is required (or --against-recording SET)")
    info = subprocess.run([args.mmaemu, "info"], capture_output=True, text=True, check=True).stdout
    names, current = [], None
    for line in info.splitlines():
        if line and not line.startswith(" "):
            current = line.split(" ")[0]
        elif current == args.arch and line.startswith(("  mma.", "  wgmma.", "  tcgen05.")):
            names.append(line.split()[0])
    if args.instr:
        names = [n for n in names if n in args.instr]
    rng = np.random.default_rng(args.seed)
    results, compared, differing = [], 0, 0
    for name in names:
        row = {"instr": name, "compared": 0, "differing": 0, "both_nan": 0, "first": None}
        op = mmasim_op(sim, lists, args.arch, name)
        if op is None:
            row["skipped"] = "MMA-Sim does not model it"
        for family in FAMILIES + (["scale_specials"] if parse(name)["block"] else []) if op else []:
            A, B, C, SA, SB = draw(rng, name, args.tiles, family)
            theirs = run_mmasim(torch, op, name, A, B, C, SA, SB)
            ours = run_mmaemu(args.mmaemu, args.arch, name, A, B, C, SA, SB)
            diff = np.argwhere(ours != theirs)
            row["compared"] += ours.size
            row["differing"] += len(diff)
            d_fmt = parse(name)["d"]
            row["both_nan"] += sum(1 for t, i, j in diff if d_fmt in ("f32", "f16", "f64") and
                                   is_nan(d_fmt, int(ours[t, i, j])) and is_nan(d_fmt, int(theirs[t, i, j])))
            if len(diff) and row["first"] is None:
                t, i, j = diff[0]
                row["first"] = {"family": family, "tile": int(t), "m": int(i), "n": int(j),
                                "a": [int(x) for x in A[t, i]], "b": [int(x) for x in B[t, :, j]], "c": int(C[t, i, j]),
                                "mmaemu": int(ours[t, i, j]), "mmasim": int(theirs[t, i, j])}
                if SA is not None:
                    row["first"].update(scale_a=[int(x) for x in SA[t, i]], scale_b=[int(x) for x in SB[t, :, j]])
        results.append(row)
        compared += row["compared"]
        differing += row["differing"]
        verdict = row.get("skipped") or ("agree" if row["differing"] == 0 else
                                         f"{row['differing']} differ ({row['both_nan']} of them NaN in both, another payload)")
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
