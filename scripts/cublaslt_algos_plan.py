#!/usr/bin/env python3
"""Writes the plan that runs the cuBLASLt kernels the library model has no rules for yet (fixtures/
cublaslt-h200/plan-algos.yaml): from a heuristic sweep (heuristic.csv), the TN calls whose first choice
is such an algorithm, a few per type and algorithm (the smallest, split-K counts spread), each run on
summation-order probes and realistic data with two epilogues, to read the kernels' rules off their bits.

    python3 scripts/cublaslt_algos_plan.py HEURISTIC.csv > fixtures/cublaslt-h200/plan-algos.yaml
"""
import collections
import csv
import sys

MODELLED = {"20", "21", "55", "62", "66"}
PER_ALGO = 8
MAX_VOLUME = 1 << 26  # M * N * K: small enough for the CPU replay


def main():
    picks = collections.defaultdict(dict)  # (types, fast, algo) -> {split_k: (volume, shape)}
    for r in csv.DictReader(open(sys.argv[1])):
        if r["layout"] != "TN" or r["max_workspace"] != "0" or r["beta"] != "0" or r["refused"] or r["algo"] in MODELLED:
            continue
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        if m * n * k > MAX_VOLUME:
            continue
        key = (f'{r["a"]} {r["b"]} {r["d"]} {r["compute"]}', r["fast_accum"], r["algo"])
        slot = picks[key].setdefault(r["split_k"], [])
        slot.append((m * n * k, f"{m}x{n}x{k}"))
    out = ["plan: h200-cublaslt-algos",
           "description: >-",
           "  The kernels the heuristic picks that the library model has no rules for (written by",
           "  scripts/cublaslt_algos_plan.py from the heuristic sweep): a few TN calls per type and algorithm,",
           "  run on summation-order probes (fp16: cancellation) and realistic data, with two epilogues.",
           "seed: 1713",
           "heuristic_results: 1",
           "groups:"]
    for (types, fast, algo), by_split in sorted(picks.items()):
        shapes = []
        # one shape per split-K count first (the smallest), then the next smallest, up to PER_ALGO
        for depth in range(PER_ALGO):
            for s in sorted(by_split, key=int):
                cands = sorted(set(by_split[s]))
                if depth < len(cands) and len(shapes) < PER_ALGO and cands[depth][1] not in shapes:
                    shapes.append(cands[depth][1])
        out += [f"  - name: algo{algo}-{types.split()[0]}-{types.split()[2]}" + ("-fast" if fast == "1" else ""),
                f'    types: ["{types}"]',
                "    shapes: [" + ", ".join(shapes) + "]",
                '    scalars: ["1 0", "0.3 -1.7"]',
                # pair_probe needs fp32's exponent range in A, B and D
                "    families: [" + ("realistic, cancellation" if "fp16" in types else "pair_probe, realistic") + "]"]
        if types.startswith(("e4m3", "e5m2")):
            out.append(f"    fast_accum: [{'true' if fast == '1' else 'false'}]")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
