"""Parses /tmp/rec/x logs into /tmp/analysis/calls_parsed.json: per call, the cuBLASLt lines (function,
descriptors, computeDesc, algo, beta, config dict as assemble.py builds it) and the cuBLAS API calls."""
import json
import os, re, sys
sys.path.insert(0, "scripts/torch_fixture")
from assemble import config_of

REC = os.environ.get("MMAEMU_EXPLORE_DIR", "/tmp/rec/x")  # explore.py's output
SKIP = {"cublasSetStream_v2", "cublasSetWorkspace_v2", "cublasSetMathMode", "cublasGetMathMode", "cublasCreate_v2"}


def desc(line, name):
    m = re.search(name + r"=\[([^\]]*)\]", line)
    if not m:
        return None
    return dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)


def lt_lines(seg):
    out = []
    for l in seg.splitlines():
        m = re.search(r"\]\[(cublasLt\w+)\] (.*)", l)
        if not m:
            if l.strip():
                out.append({"fn": "?", "raw": l})
            continue
        fn = m.group(1)
        e = {"fn": fn, "raw": l}
        for k in ("Adesc", "Bdesc", "Cdesc", "Ddesc", "computeDesc", "algo"):
            e[k] = desc(l, k)
        b = re.search(r" beta=(\S+)", l)
        e["beta"] = b.group(1) if b else None
        if "algo=[" in l and "algoId" in l:
            e["config"] = config_of(l)
        out.append(e)
    return out


def cublas_calls(seg):
    out = []
    cur = None
    for l in seg.splitlines():
        m = re.match(r"I! cuBLAS \(v[\d.]+\) function \S+ (\w+)\(", l)
        if m:
            cur = {"fn": m.group(1), "params": {}}
            out.append(cur)
            continue
        m = re.match(r"i!\s+(\w+): type=[^;]*; val=(.*)", l)
        if m and cur is not None:
            cur["params"][m.group(1)] = m.group(2)
    return [c for c in out if c["fn"] not in SKIP]


def main():
    d = json.load(open(f"{REC}/explore.json"))
    lt = open(f"{REC}/lt-log.txt", "rb").read()
    cb = open(f"{REC}/cublas-log.txt", "rb").read()
    res = []
    for c in d["calls"]:
        s, e = c["log"]
        cs, ce = c["cublas_log"]
        res.append({"id": c["id"], "name": c["name"], "type": c["type"], "shapes": c["shapes"],
                    "lt": lt_lines(lt[s:e].decode()), "cublas": cublas_calls(cb[cs:ce].decode())})
    json.dump(res, open(os.path.join(os.environ.get("MMAEMU_ANALYSIS_DIR", "/tmp/analysis"), "calls_parsed.json"), "w"), indent=1)
    # consistency: every byte of the logs belongs to one call
    covered = sorted(tuple(c["log"]) for c in d["calls"])
    gaps = [(a[1], b[0]) for a, b in zip(covered, covered[1:]) if a[1] != b[0]]
    print("lt log bytes", len(lt), "covered until", covered[-1][1], "gaps", gaps[:5])
    covered = sorted(tuple(c["cublas_log"]) for c in d["calls"])
    gaps = [(a[1], b[0]) for a, b in zip(covered, covered[1:]) if a[1] != b[0]]
    print("cublas log bytes", len(cb), "covered until", covered[-1][1], "gaps", gaps[:5])


if __name__ == "__main__":
    main()
