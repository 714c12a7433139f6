#!/usr/bin/env python3
"""MMA-Sim's speed on instruction tiles, for T6's mmasim section (bench/cpu/mmasim_bench.cpp).

Reads a.npy, b.npy, c.npy (raw bits, [tiles][M][K], [tiles][K][N], [tiles][M][N]) from --dir, turns every
tile into MMA-Sim's torch operands first (not timed), then times --repetitions passes of MMA-Sim over all
tiles on one torch thread. Writes d.npy (the last pass's D, raw bits) and result.json {"seconds": [...],
"mmasim": version, "torch": version, "python": version} into --dir, atomically.

Exit status: 0 measured; 3 MMA-Sim, torch or numpy cannot be imported, or MMA-Sim does not model the
instruction (the reason is the last line on stderr, and in result.json as "skipped"); 2 bad use.
The instruction names and operand conventions are those of scripts/mmasim_differential.py, imported.
"""
import argparse
import importlib.metadata
import json
import os
import platform
import sys
import time


def write_json(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(path + ".tmp", path)


def skip(out_dir, why):
    write_json(os.path.join(out_dir, "result.json"), {"skipped": why})
    print(why, file=sys.stderr)
    return 3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dir", required=True, help="holds a.npy, b.npy, c.npy; receives d.npy and result.json")
    p.add_argument("--arch", required=True, help="mmaemu's profile name (sm90)")
    p.add_argument("--instr", required=True, help="mmaemu's instruction name (mma.m16n8k16.f32.f16.f16.f32)")
    p.add_argument("--repetitions", type=int, default=3)
    args = p.parse_args()
    try:
        import numpy as np
        import torch
        from mmasim.nv_ptx import sim, isa_mma, isa_wgmma, isa_tcgen05mma
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
        import mmasim_differential as mdiff
    except ImportError as e:
        return skip(args.dir, f"MMA-Sim is not importable here ({e}); install with: pip install mmasim==2.1.1 torch numpy")
    torch.set_num_threads(1)
    lists = {("mma", False): isa_mma.mma_shape_and_type, ("wgmma", False): isa_wgmma.wgmma_shape_and_type,
             ("tcgen05", False): isa_tcgen05mma.tcgen05mma_shape_and_type}
    op = mdiff.mmasim_op(sim, lists, args.arch, args.instr)
    if op is None:
        return skip(args.dir, f"MMA-Sim {importlib.metadata.version('mmasim')} does not model {args.instr} on {args.arch}")
    shape = mdiff.parse(args.instr)
    A, B, C = (np.load(os.path.join(args.dir, x + ".npy")) for x in "abc")
    word = mdiff.WORD
    tiles = [(mdiff.torch_operand(torch, shape["a"], A[t].astype(word[shape["a"]])),
              mdiff.torch_operand(torch, shape["b"], B[t].astype(word[shape["b"]])),
              mdiff.torch_operand(torch, shape["c"], C[t].astype(word[shape["c"]]))) for t in range(A.shape[0])]
    raw = {"f32": torch.int32}.get(shape["d"], torch.int16)
    seconds, out = [], []
    for _ in range(args.repetitions):
        start = time.perf_counter()
        out = [op(a, b, c) for a, b, c in tiles]
        seconds.append(time.perf_counter() - start)
    D = np.stack([d.view(raw).numpy() for d in out]).view(word[shape["d"]])
    np.save(os.path.join(args.dir, "d.tmp.npy"), D)
    os.replace(os.path.join(args.dir, "d.tmp.npy"), os.path.join(args.dir, "d.npy"))
    write_json(os.path.join(args.dir, "result.json"),
               {"seconds": seconds, "mmasim": importlib.metadata.version("mmasim"), "torch": torch.__version__,
                "python": platform.python_version()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
