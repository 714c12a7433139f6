#!/usr/bin/env python3
"""Writes MMA-Sim's outputs as mmaemu fixture sets (a model's outputs, not a GPU's), one set per profile.

For each profile: `mmaemu record --inputs-only` writes the inputs of every instruction from mmaemu's own
input families (and the scales of block-scaled instructions); MMA-Sim 2.1.1 (PyPI `mmasim`, PyTorch on
the CPU) computes D from them; the script writes D, the manifest (schema mmaemu-fixtures/1,
`source: model`) and a README into OUT/<profile>/. T2 replays the sets through the reference without
torch (tiers/T2.yaml). Instructions MMA-Sim does not model are left out and listed in the README.

    python3 scripts/mmasim_fixtures.py --mmaemu build/harness/cli/mmaemu --out fixtures/mmasim-2.1.1 \\
        [--arch sm120]... [--tiles-per-family 1] [--seed 1]

tcgen05.mma at M = 128 without block scaling is left out of the sets (M = 64 stands for it: the same
block model; the differential script compares both M against MMA-Sim) to keep the sets small.
Needs numpy, torch and mmasim (pip install mmasim==2.1.1 torch). Exit 0 on success, 2 on bad use.
"""
import argparse
import datetime
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mmasim_differential as diff  # noqa: E402  (the same operand conventions and MMA-Sim calls)

ROLES = ("a", "b", "c", "d", "sa", "sb")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def kept(name):
    """Whether an instruction goes into the set (tcgen05 at M = 128 only when block-scaled)."""
    p = diff.parse(name)
    return not (p["family"] == "tcgen05" and p["m"] == 128 and not p["block"])


# Why MMA-Sim and mmaemu differ where the H200 has settled it (fixtures/h200-fp64).
FP64_NAN_WHY = ("both NaN, with another payload: MMA-Sim's fp64 chain is the CPU's std::fma, which keeps a's NaN "
                "first, then b's, then the accumulator's (x86); the H200's DMMA keeps b's, then the accumulator's, "
                "then a's, and gives 0xFFF8000000000000 for inf * 0 (fixtures/h200-fp64: every one of 6,508 NaN "
                "outputs of four shapes). The recording wins: mmaemu follows the H200")


def find_disagreements(name, families, mmasim_d, mmaemu_d):
    """[(group, differing, outputs, why)] per input family; exits 1 on a disagreement nobody has explained."""
    p = diff.parse(name)
    out = []
    per_tile = p["m"] * p["n"]
    for fam in families:
        x = mmasim_d[fam["first"]:fam["last"]].reshape(-1)
        y = mmaemu_d[fam["first"]:fam["last"]].reshape(-1)
        bad = np.nonzero(x != y)[0]
        if bad.size == 0:
            continue
        group = f"{name}/{fam['name']}"
        both_nan = p["d"] == "f64" and all(is_f64_nan(int(x[i])) and is_f64_nan(int(y[i])) for i in bad)
        if not both_nan:
            sys.exit(f"{group}: {bad.size} outputs differ from mmaemu, and no recording explains it")
        out.append((group, int(bad.size), (fam["last"] - fam["first"]) * per_tile, FP64_NAN_WHY))
    return out


def is_f64_nan(bits):
    return (bits & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000


def git_commit(repo):
    try:
        out = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain"], capture_output=True, text=True).stdout
        return out.stdout.strip() + ("-dirty" if dirty.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_set(args, arch, torch, sim, lists):
    out_dir = os.path.join(args.out, arch)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.mmaemu, "record", "--inputs-only", "--arch", arch, "--out", tmp, "--seed", str(args.seed),
               "--tiles-per-family", str(args.tiles_per_family)]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        with open(os.path.join(tmp, "inputs.json")) as f:
            index = json.load(f)
        staging = out_dir + ".tmp"
        shutil.rmtree(staging, ignore_errors=True)
        os.makedirs(staging)
        entries, left_out, outputs, disagreements = [], [], 0, []
        for inst in index["instructions"]:
            name = inst["instr"]
            if not kept(name):
                continue
            op = diff.mmasim_op(sim, lists, arch, name)
            if op is None:
                left_out.append(name)
                continue
            src = os.path.join(tmp, inst["dir"])
            arrays = {r: np.load(os.path.join(src, r + ".npy")) for r in ("a", "b", "c", "sa", "sb")
                      if os.path.exists(os.path.join(src, r + ".npy"))}
            arrays["d"] = diff.run_mmasim(torch, op, name, arrays["a"], arrays["b"], arrays["c"], arrays.get("sa"),
                                          arrays.get("sb"))
            ours = diff.run_mmaemu(args.mmaemu, arch, name, arrays["a"], arrays["b"], arrays["c"], arrays.get("sa"),
                                   arrays.get("sb"))
            disagreements += find_disagreements(name, inst["families"], arrays["d"], ours)
            os.makedirs(os.path.join(staging, inst["dir"]))
            files = {}
            for role in ROLES:
                if role not in arrays:
                    continue
                rel = inst["dir"] + "/" + role + ".npy"
                np.save(os.path.join(staging, rel), arrays[role])
                files[role] = (rel, sha256(os.path.join(staging, rel)))
            outputs += arrays["d"].size
            entries.append((name, inst["tiles"], inst["families"], files))
    versions = {"mmasim": importlib.metadata.version("mmasim"), "torch": torch.__version__, "numpy": np.__version__}
    lines = ["# MMA-Sim's outputs on mmaemu's inputs: a model of the hardware, not a GPU. See README.md.", "",
             "schema: mmaemu-fixtures/1", f"set: mmasim-{versions['mmasim']}-{arch}", f"arch: {arch}", "source: model",
             "recorded:",
             f"  model: \"MMA-Sim {versions['mmasim']} (PyPI mmasim; Xie et al., arXiv 2511.10909), "
             f"architecture '{diff.ARCHS[arch]}'\"",
             f"  torch: \"{versions['torch']}\"", f"  numpy: \"{versions['numpy']}\"",
             f"  inputs: \"{index['command'].replace(tmp, '<tmp>')}\"",
             f"  command: \"python3 scripts/mmasim_fixtures.py --out {args.out} --arch {arch} "
             f"--tiles-per-family {args.tiles_per_family} --seed {args.seed}\"",
             f"  commit: \"{git_commit(os.path.dirname(os.path.abspath(__file__)))}\"",
             f"  date_utc: \"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}\"",
             "instructions:"]
    for name, tiles, families, files in entries:
        lines += [f"  - instr: {name}", f"    tiles: {tiles}", "    families:"]
        lines += [f"      - {{name: {f['name']}, first: {f['first']}, last: {f['last']}}}" for f in families]
        lines.append("    files:")
        lines += [f"      {role}: {{path: \"{rel}\", sha256: \"{digest}\"}}" for role, (rel, digest) in files.items()]
    with open(os.path.join(staging, "manifest.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    readme = [f"# MMA-Sim {versions['mmasim']} on {arch} ({diff.ARCHS[arch]}): a model's outputs, not hardware", "",
              "D in this set was computed by MMA-Sim (PyPI `mmasim`, the reference model of Xie et al., arXiv "
              "2511.10909), run on the CPU through PyTorch; no GPU ran these inputs. The inputs are mmaemu's own "
              "input families (`mmaemu record --inputs-only`), the scales of block-scaled instructions included. "
              "T2 replays the set through mmaemu's reference (`mmaemu run tiers/T2.yaml --suite "
              f"mmasim-{arch}`): every output must be equal bit for bit. Replaying it pins no profile: a model "
              "is evidence, hardware is proof; where a recording of a GPU and this model disagree, the recording "
              "wins and the difference is written here.", "",
              f"- instructions: {len(entries)}, outputs: {outputs:,}, {args.tiles_per_family} tile(s) per input family",
              f"- versions: mmasim {versions['mmasim']}, torch {versions['torch']}, numpy {versions['numpy']}",
              "- regenerate: `python3 scripts/mmasim_fixtures.py --mmaemu build/harness/cli/mmaemu --out "
              f"{args.out} --arch {arch}`", "",
              "Left out, and why:", ""]
    def why_left_out(name):
        p = diff.parse(name)
        if arch in ("sm90", "sm100") and p["family"] == "mma" and p["a"] in ("e4m3", "e5m2"):
            return ("MMA-Sim does not model it: FP8 mma.sync, which the compiler lowers to fp16 HMMAs on this "
                    "architecture (mmaemu models the lowering; fixtures/h200 records it on an H200)")
        return "MMA-Sim does not model it"
    readme += [f"- `{n}`: {why_left_out(n)}" for n in left_out] or ["- nothing MMA-Sim models"]
    if arch == "sm100":
        readme.append("- `tcgen05.mma` at M = 128 without block scaling: M = 64 stands for it (the same block "
                      "model); `scripts/mmasim_differential.py --arch sm100` compares both M with MMA-Sim")
    if not disagreements:
        readme += ["", "Disagreements between MMA-Sim and mmaemu on this set: none (T2 lists any it finds)."]
    else:
        readme += ["", "Disagreements between MMA-Sim and mmaemu on this set (T2 replays them as known mismatches of "
                   "these groups, tiers/T2.yaml; every other output of the set must be equal):", "",
                   "| group | outputs differing | why |", "|---|--:|---|"]
        readme += [f"| {g} | {n} of {total} | {why} |" for g, n, total, why in disagreements]
    with open(os.path.join(staging, "disagreements.json"), "w") as f:
        json.dump([{"group": g, "differ": n, "outputs": total, "why": why} for g, n, total, why in disagreements], f,
                  indent=1)
    with open(os.path.join(staging, "README.md"), "w") as f:
        f.write("\n".join(readme) + "\n")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.replace(staging, out_dir)
    print(f"{arch}: {len(entries)} instructions, {outputs} outputs -> {out_dir} ({len(left_out)} left out)", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mmaemu", required=True, help="the mmaemu program")
    p.add_argument("--out", required=True, help="root of the sets (one folder per profile)")
    p.add_argument("--arch", action="append", choices=sorted(diff.ARCHS), help="profiles (default: every one)")
    p.add_argument("--tiles-per-family", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    try:
        import torch
        from mmasim.nv_ptx import sim, isa_mma, isa_wgmma, isa_tcgen05mma
    except ImportError as e:
        print(f"mmasim_fixtures: {e}; install with: pip install mmasim==2.1.1 torch", file=sys.stderr)
        return 2
    lists = {("mma", False): isa_mma.mma_shape_and_type, ("wgmma", False): isa_wgmma.wgmma_shape_and_type,
             ("tcgen05", False): isa_tcgen05mma.tcgen05mma_shape_and_type,
             ("mma", True): isa_mma.mma_block_scale_shape_and_type,
             ("tcgen05", True): isa_tcgen05mma.tcgen05mma_block_scale_shape_and_type}
    for arch in args.arch or sorted(diff.ARCHS, key=lambda a: int(a[2:])):
        write_set(args, arch, torch, sim, lists)
    return 0


if __name__ == "__main__":
    sys.exit(main())
