"""Splits t3-gpu-quick (tiers/T3.yaml) into small kernel-conformance suites for racecheck.

Reads `mmaemu info` on stdin (the instructions each profile lists: wgmma at n8, which is what the
suite's `instructions: [all]` runs) and prints a tier file with one suite per backend, profile and
chunk of instructions (four per chunk on sm90, whose 28 instructions dominate). tc runs only sm90:
it declines every other profile in t3-gpu-quick. An optional argument keeps only instructions whose
name starts with it (`wgmma` made round 2).
    mmaemu info | python3 split_t3_gpu_quick.py [PREFIX] > T3-racecheck.yaml
"""
import sys, re
only_prefix = sys.argv[1] if len(sys.argv) > 1 else ""
tag = only_prefix + "-" if only_prefix else ""
prof = None; table = {}
for line in sys.stdin:
    m = re.match(r"^(sm\d+) \(\d+ instructions\)", line)
    if m:
        prof = m.group(1); table[prof] = []; continue
    m = re.match(r"^  (\S+)\s+\[", line)
    if m and prof and m.group(1).startswith(only_prefix): table[prof].append(m.group(1))
out = ["tier: T3-racecheck",
       "description: >-",
       "  t3-gpu-quick of tiers/T3.yaml split into small suites (one backend, one profile, a few",
       "  instructions each), so that racecheck, which serialises every shared-memory access, can run",
       "  them side by side. Their union is t3-gpu-quick.",
       "suites:"]
n = 0
for b in ["v1", "v4", "tc"]:
    for p, ins in table.items():
        if b == "tc" and p != "sm90": continue  # tc runs only the GPU's own architecture
        if not ins: continue
        chunk = 4 if p == "sm90" else 100
        for i in range(0, len(ins), chunk):
            n += 1
            part = ", ".join(ins[i:i + chunk])
            out += [f"  - name: rc-{b}-{p}-{tag}{i // chunk}", "    kind: kernel-conformance", "    labels: [T3, gpu]",
                    "    device: gpu", f"    backends: [{b}]", f"    profiles: [{p}]", f"    instructions: [{part}]",
                    "    families: [all]", "    tiles: 2", "    gemms: [1x1x1, 3x5x7, 17x9x33]",
                    "    large_gemms: [65x24x100]", "    large_families: [realistic]", "    trace: true",
                    "    seed: 5", f"    require: [{b}]"]
            if b == "tc":
                out += ["    allowed_declines:", "      - backend: tc", "        reason: differs from this GPU",
                        "        why: the tensor cores give only their own architecture's bits"]
print("\n".join(out)); print(n, file=sys.stderr)
