#!/usr/bin/env python3
"""How far a table of cuBLASLt heuristic answers predicts the answers it never saw (a first measure).

Reads a heuristic.csv written by `mmaemu record --cublaslt fixtures/cublaslt-h200/plan-heuristic.yaml`:
the grid groups are the table, the held-out groups the test. The predictor answers a query with the
answer of the grid point nearest in log2(M), log2(N), log2(K), within the same types, layout, workspace
limit, fast accumulation and beta. Prints agreement per type and layout, for the whole configuration
and for the part that decides bits (algorithm, split-K, reduction scheme, custom option).

    python3 scripts/cublaslt_heuristic_fit.py DIR/heuristic.csv
"""
import collections
import csv
import math
import sys

KEY = ("a", "b", "d", "compute", "layout", "max_workspace", "fast_accum", "beta")
FULL = ("algo", "tile", "stages", "split_k", "reduction", "swizzle", "custom", "inner_shape", "cluster", "refused")
BITS = ("algo", "split_k", "reduction", "custom", "refused")


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    table = collections.defaultdict(list)
    tests = []
    for r in rows:
        key = tuple(r[k] for k in KEY)
        point = (math.log2(int(r["m"])), math.log2(int(r["n"])), math.log2(int(r["k"])))
        if r["group"].endswith("held-out"):
            tests.append((key, point, r))
        else:
            table[key].append((point, r))
    agree = collections.defaultdict(lambda: [0, 0, 0])  # (types, layout) -> full, bits, total
    distinct = collections.defaultdict(set)
    for key, entries in table.items():
        for _, r in entries:
            distinct[key[:5]].add(tuple(r[k] for k in BITS))
    for key, point, r in tests:
        entries = table.get(key)
        if not entries:
            continue
        _, guess = min(entries, key=lambda e: sum(abs(a - b) for a, b in zip(e[0], point)))
        slot = agree[(f"{key[0]}x{key[1]}->{key[2]} {key[3]}" + (" fast" if key[6] == "1" else ""), key[4])]
        slot[0] += all(guess[k] == r[k] for k in FULL)
        slot[1] += all(guess[k] == r[k] for k in BITS)
        slot[2] += 1
    print("| types | layout | held-out queries | whole configuration | algorithm, split-K, reduction, custom |")
    print("|---|---|--:|--:|--:|")
    tot = [0, 0, 0]
    for (types, layout), (full, bits, n) in sorted(agree.items()):
        print(f"| {types} | {layout} | {n} | {100 * full / n:.1f}% | {100 * bits / n:.1f}% |")
        tot = [tot[0] + full, tot[1] + bits, tot[2] + n]
    print(f"| all | | {tot[2]} | {100 * tot[0] / max(tot[2], 1):.1f}% | {100 * tot[1] / max(tot[2], 1):.1f}% |")
    print(f"\n{len(rows)} answers; grid {sum(len(v) for v in table.values())}, held out {len(tests)}; "
          f"distinct bit-deciding configurations per types/layout: "
          f"{min(len(v) for v in distinct.values())} to {max(len(v) for v in distinct.values())}")


if __name__ == "__main__":
    main()
