"""Compares runs of examples/fp8_mlp.py with the first one (the H200's native run): are the logits'
bits equal, and how far apart are they in bf16 ulps. Prints one table, writes compare.json and,
when matplotlib is there, the distribution of the ulp distances (compare.png).

    python3 examples/compare_logits.py BASELINE_DIR RUN_DIR... [--out DIR] [--label NAME ...]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np


def ordered(bits: np.ndarray) -> np.ndarray:
    """bf16 patterns as integers in the order of their values (adjacent floats differ by one)."""
    b = bits.astype(np.int64)
    return np.where(b & 0x8000, -(b & 0x7FFF), b & 0x7FFF)


def as_float(bits: np.ndarray) -> np.ndarray:
    """bf16 patterns as float64 values."""
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="run directories; the first is the baseline")
    ap.add_argument("--label", action="append", default=[], help="a name per run, in order")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    labels = args.label + [os.path.basename(os.path.normpath(r)) for r in args.runs[len(args.label):]]
    logits = [np.load(os.path.join(r, "logits.npy")) for r in args.runs]
    base = logits[0]
    rows = []
    for label, run, x in zip(labels[1:], args.runs[1:], logits[1:]):
        if x.shape != base.shape:
            print(f"{run}: logits {x.shape}, baseline {base.shape}", file=sys.stderr)
            return 2
        ulps = np.abs(ordered(x) - ordered(base))
        # Ulps mislead near zero (a cancelled logit's sign flip is thousands of ulps): the normwise
        # difference, max |x - base| / max |base|, says how far the logits are as a whole.
        xf, bf = as_float(x), as_float(base)
        normwise = float(np.abs(xf - bf).max() / np.abs(bf).max())
        rows.append({"run": label, "dir": run, "outputs": int(x.size), "bits_equal": int((x == base).sum()),
                     "max_ulp": int(ulps.max()), "p99_ulp": float(np.percentile(ulps, 99)),
                     "median_ulp_of_differing": float(np.median(ulps[ulps > 0])) if (ulps > 0).any() else 0.0,
                     "normwise_difference": normwise,
                     "differ_pct": float(100.0 * (ulps > 0).mean()),
                     "histogram": {str(k): int(v) for k, v in zip(*np.unique(np.minimum(ulps, 16), return_counts=True))}})
    width = max(len(r["run"]) for r in rows)
    print(f"{'against ' + labels[0]:<{width}}  {'bits equal':>17}  {'differ':>7}  {'median ulp':>10}  {'p99 ulp':>7}  "
          f"{'max ulp':>7}  {'max|d|/max|x|':>13}")
    for r in rows:
        print(f"{r['run']:<{width}}  {r['bits_equal']:>8} / {r['outputs']:<6}  {r['differ_pct']:>6.2f}%  "
              f"{r['median_ulp_of_differing']:>10.0f}  {r['p99_ulp']:>7.0f}  {r['max_ulp']:>7}  {r['normwise_difference']:>13.2e}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "compare.json"), "w") as f:
        json.dump({"baseline": {"run": labels[0], "dir": args.runs[0]}, "runs": rows}, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return 0
    fig, ax = plt.subplots(figsize=(7, 3.6))
    edges = np.arange(0, 18) - 0.5
    for r, x in zip(rows, logits[1:]):
        ulps = np.minimum(np.abs(ordered(x) - ordered(base)), 16).ravel()
        ax.hist(ulps, bins=edges, histtype="step", linewidth=1.6, label=f"{r['run']} (max {r['max_ulp']})")
    ax.set_xlabel(f"bf16 ulps from {labels[0]}'s logits (16 = 16 or more)")
    ax.set_ylabel("logits")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "compare.png"), dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
