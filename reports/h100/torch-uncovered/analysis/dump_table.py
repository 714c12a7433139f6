"""Writes all_calls_table.txt: every call's cuBLASLt line (descriptors, computeDesc, algo, beta, workspace)
and cuBLAS API calls, from calls_parsed.json."""
import json
import os

P = json.load(open(os.path.join(os.environ.get("MMAEMU_ANALYSIS_DIR", "/tmp/analysis"), "calls_parsed.json")))
with open(os.path.join(os.environ.get("MMAEMU_ANALYSIS_DIR", "/tmp/analysis"), "all_calls_table.txt"), "w") as f:
    for c in P:
        print(c["id"], c["name"], c["type"], file=f)
        for l in c["lt"]:
            def s(x):
                return " ".join(f"{k}={v}" for k, v in x.items() if k != "type") if x else "-"
            print("   LT", l["fn"], *(f"{r}[ {l[r + 'desc'].get('type')} {s(l[r + 'desc'])} ]" for r in "ABCD"),
                  " ".join(f"{k}={v}" for k, v in l["computeDesc"].items()), "| algo",
                  " ".join(f"{k}={v}" for k, v in l["algo"].items()), "| beta", l["beta"], "| ws",
                  l["raw"].split("workSpaceSizeInBytes=")[1].split()[0], file=f)
        for x in c["cublas"]:
            print("   CB", x["fn"], " ".join(f"{k}={v}" for k, v in x["params"].items()
                                          if k not in ("handle", "A", "B", "C", "x", "y", "result", "alpha", "beta")), file=f)
