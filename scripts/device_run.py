#!/usr/bin/env python3
"""Runs a device plan: named, time-limited steps on a GPU machine, on binaries packed on the build machine.

    python3 scripts/device_run.py pack PLAN --build-dir build --out pack.tar.xz      (build machine)
    python3 scripts/device_run.py run PLAN --pack pack.tar.xz [--out DIR] [--only STEP]... [--skip STEP]...
                                          [--dry-run] [--keep-work]                 (GPU machine)
    python3 scripts/device_run.py check PLAN...                                     (CI)

The GPU machine has no build tools, lacks some of the shared libraries the binaries link, and returns
only a few files, so a run is split in two. `pack` copies the plan's binaries (stripped), the libraries
the GPU machine lacks and any other build outputs into one tarball, with a `commit` file (the source
commit, "+uncommitted" when the working tree differs from it) and `pack.json` (the plan and its sha256).
`run` unpacks it into a work directory $W, finds the repository root (the directory holding
tiers/T3.yaml: tier files are read from it), puts $W/lib and cuBLASLt's directory on LD_LIBRARY_PATH
and the CUDA tools (`ncu`, `compute-sanitizer`) on PATH, sets MMAEMU_SOURCE_COMMIT, writes the build,
the GPU and the library versions to steps.txt, then runs each step from the repository root under its
time limit. What comes back (in $OUT when set, else --out): manifest.json (plan and its sha256, the
runner's command line, commit, date, GPU, driver, compute capability, cuBLASLt and CUDA runtime
versions, every step's exit status, seconds and kept files), steps.txt ("name: exit N in S s" per step,
as the earlier hand-written scripts wrote it), logs.tar.xz (every step's log <name>.log and its output
directory <name>/), and the files the steps `keep`. Both manifest.json and steps.txt are rewritten after
every step, so a run cut off from outside keeps what finished; SIGTERM or SIGINT stops the current step
and still writes the archive.

Plans: scripts/device-plans/ holds examples (gpu-tests.yaml); each report folder under reports/ that
came from a GPU machine holds the plan of its run (plan.yaml, or plan-<name>.yaml for several), next to
the evidence, with a README saying which commit to build. CI runs `check` over all of them
(scripts/tests/device_run_test.py).

A plan is YAML (read with PyYAML when it is importable) or JSON (a file ending in .json, read with the
standard library alone, so that the runner works where PyYAML is missing). Its keys:

    description: text                      optional
    pack:                                  optional; `run` then needs --pack
      binaries: [path, ...]                relative to the build dir; each lands at $W/<file name>
      libraries: [soname, ...]             from /lib/x86_64-linux-gnu or /usr/lib/x86_64-linux-gnu
      extra:                               other build outputs (globs; a directory is copied whole):
        - glob                               copied to $W/<the same path relative to the build dir>
        - {files: glob, to: dir}             copied into $W/<dir>/ (e.g. mutant variants)
    env: {NAME: value, ...}                optional; exported to every step ($W expanded)
    system_cublaslt: false                 optional (true): leave the system cuBLASLt off LD_LIBRARY_PATH,
                                           for steps that must load PyTorch's own (one step of a plan
                                           that needs both: LD_LIBRARY_PATH=$MACHINE_LD_LIBRARY_PATH,
                                           the path as the machine had it)
    grace: seconds                         optional (30): SIGTERM to SIGKILL for a step over its limit
    steps:                                 required, run in order
      - name: t3                           unique; letters, digits, ".", "_", "-" (a file name)
        run: $W/mmaemu run tiers/T3.yaml --report-dir $O/t3
                                           a bash command line (pipefail), run from the repository
                                           root with $W the unpacked pack and $O this step's output
                                           directory (another step's is $O/../<name>; its log $O.log)
        limit: 120                         seconds (positive integer): then SIGTERM, SIGKILL after grace
        keep: [t3/T3.md]                   optional globs (relative to $O) copied beside manifest.json
        summary: grep ... $O/t3/T3.md      optional: its output is appended to steps.txt after the step
        allow_failure: true                optional: a failure does not make the run exit 1

Exit status: 0 every step passed (or may fail), 1 a step failed (or pack could not find a file), 2 a bad
plan or bad usage. The GPU machine returns at most about eight files: keep few.
"""
import argparse
import datetime
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

PLAN_KEYS = {"description", "pack", "env", "system_cublaslt", "grace", "steps"}
PACK_KEYS = {"binaries", "libraries", "extra"}
EXTRA_KEYS = {"files", "to"}
STEP_KEYS = {"name", "run", "limit", "keep", "summary", "allow_failure"}
STEP_REQUIRED = ("name", "run", "limit")
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
LIB_DIRS = ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu")
CUDA_TREES = ("/usr/local", "/usr/lib", "/opt")  # where the earlier scripts looked for cuBLASLt
SUMMARY_LIMIT = 60
OWN_FILES = ("manifest.json", "steps.txt", "logs.tar.xz")  # what `run` writes into the output itself


class PlanError(Exception):
    """A plan that cannot be used; the message names the file."""


# ---------------------------------------------------------------------------------------------- plans

def load_plan(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise PlanError(f"{path}: cannot read: {e.strerror}")
    if path.endswith(".json"):
        try:
            plan = json.loads(text)
        except ValueError as e:
            raise PlanError(f"{path}: not JSON: {e}")
    else:
        try:
            import yaml
        except ImportError:
            raise PlanError(f"{path}: a YAML plan needs PyYAML (pip install pyyaml), or write the plan as JSON")
        try:
            plan = yaml.safe_load(text)
        except yaml.YAMLError as e:
            raise PlanError(f"{path}: not YAML: {e}")
    errors = plan_errors(plan)
    if errors:
        raise PlanError("\n".join(f"{path}: {e}" for e in errors))
    return plan


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _str_list(v):
    return isinstance(v, list) and all(isinstance(x, str) and x for x in v)


def plan_errors(plan):
    """Every problem of a plan, each naming its key (a plan is small: report all at once)."""
    if not isinstance(plan, dict):
        return ["the plan must be a mapping with a `steps` list"]
    errs = [f"unknown key `{k}` (known: {', '.join(sorted(PLAN_KEYS))})" for k in plan if k not in PLAN_KEYS]
    if "description" in plan and not isinstance(plan["description"], str):
        errs.append("`description` must be text")
    if "system_cublaslt" in plan and not isinstance(plan["system_cublaslt"], bool):
        errs.append("`system_cublaslt` must be true or false")
    if "grace" in plan and not (_is_int(plan["grace"]) and plan["grace"] > 0):
        errs.append("`grace` must be a positive integer (seconds)")
    env = plan.get("env", {})
    if not (isinstance(env, dict) and all(isinstance(k, str) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k)
                                          and isinstance(v, (str, int)) and not isinstance(v, bool)
                                          for k, v in env.items())):
        errs.append("`env` must map variable names to text")
    if "pack" in plan:
        pack = plan["pack"]
        if not isinstance(pack, dict):
            errs.append("`pack` must be a mapping")
        else:
            errs += [f"unknown key `pack.{k}` (known: {', '.join(sorted(PACK_KEYS))})" for k in pack if k not in PACK_KEYS]
            for k in ("binaries", "libraries"):
                if k in pack and not _str_list(pack[k]):
                    errs.append(f"`pack.{k}` must be a list of paths")
            extra = pack.get("extra", [])
            if not isinstance(extra, list):
                errs.append("`pack.extra` must be a list")
                extra = []
            for i, e in enumerate(extra):
                if isinstance(e, dict):
                    errs += [f"unknown key `pack.extra[{i}].{k}` (known: files, to)" for k in e if k not in EXTRA_KEYS]
                    if not (isinstance(e.get("files"), str) and isinstance(e.get("to"), str)):
                        errs.append(f"`pack.extra[{i}]` needs `files` (a glob) and `to` (a directory)")
                elif not (isinstance(e, str) and e):
                    errs.append(f"`pack.extra[{i}]` must be a glob or {{files: glob, to: dir}}")
            for k in ("binaries", "extra"):
                for p in pack.get(k, []) if isinstance(pack.get(k), list) else []:
                    p = p.get("files", "") if isinstance(p, dict) else p
                    if isinstance(p, str) and (os.path.isabs(p) or ".." in p.split("/")):
                        errs.append(f"`pack.{k}`: `{p}` must be relative to the build dir, inside it")
    steps = plan.get("steps")
    if not isinstance(steps, list) or not steps:
        errs.append("`steps` is required: a non-empty list")
        return errs
    seen = set()
    for i, s in enumerate(steps):
        where = f"steps[{i}]"
        if not isinstance(s, dict):
            errs.append(f"{where} must be a mapping")
            continue
        name = s.get("name")
        if isinstance(name, str):
            where = f"step `{name}`"
        errs += [f"{where}: unknown key `{k}` (known: {', '.join(sorted(STEP_KEYS))})" for k in s if k not in STEP_KEYS]
        errs += [f"{where}: `{k}` is required" for k in STEP_REQUIRED if k not in s]
        if "name" in s:
            if not (isinstance(name, str) and SAFE_NAME.match(name)):
                errs.append(f"{where}: `name` must be a file name (letters, digits, '.', '_', '-')")
            elif name in seen:
                errs.append(f"{where}: the name is used twice")
            seen.add(name)
        if "run" in s and not (isinstance(s["run"], str) and s["run"].strip()):
            errs.append(f"{where}: `run` must be a command line")
        if "limit" in s and not (_is_int(s["limit"]) and s["limit"] > 0):
            errs.append(f"{where}: `limit` must be a positive integer (seconds)")
        if "keep" in s and not _str_list(s["keep"]):
            errs.append(f"{where}: `keep` must be a list of globs")
        if "summary" in s and not isinstance(s["summary"], str):
            errs.append(f"{where}: `summary` must be a command line")
        if "allow_failure" in s and not isinstance(s["allow_failure"], bool):
            errs.append(f"{where}: `allow_failure` must be true or false")
    return errs


def find_root(*starts):
    """The repository root: the first directory holding tiers/T3.yaml above one of `starts`."""
    for start in starts:
        d = os.path.abspath(start)
        while True:
            if os.path.isfile(os.path.join(d, "tiers", "T3.yaml")):
                return d
            if os.path.dirname(d) == d:
                break
            d = os.path.dirname(d)
    return None


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def git(root, *args):
    r = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
    return r.returncode, r.stdout.strip()


# ----------------------------------------------------------------------------------------------- pack

def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def copy_in(src, dst, strip):
    """Copies src (a file or directory, links followed) to dst; ELF files stripped when asked."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.isdir(src):
        shutil.copytree(src, dst, symlinks=False, dirs_exist_ok=True)
        return
    shutil.copy2(src, dst)  # follows links, as `cp -L`
    if strip and is_elf(dst):
        # A stripped copy is a fraction of the size; a file strip cannot handle is kept as it is.
        subprocess.run([strip, dst], capture_output=True)


def cmd_pack(args):
    plan = load_plan(args.plan)
    if "pack" not in plan:
        raise PlanError(f"{args.plan}: no `pack` section: nothing to pack")
    pack, build = plan["pack"], args.build_dir
    if not os.path.isdir(build):
        print(f"device_run: no build dir {build}", file=sys.stderr)
        return 2
    strip = shutil.which("strip")
    missing = []
    with tempfile.TemporaryDirectory(prefix="device-pack-") as p:
        names = [os.path.basename(b) for b in pack.get("binaries", [])]
        if len(set(names)) != len(names):
            raise PlanError(f"{args.plan}: two `pack.binaries` have one file name: they would land on one $W/<name>")
        for b in pack.get("binaries", []):
            src = os.path.join(build, b)
            if os.path.isfile(src):
                copy_in(src, os.path.join(p, os.path.basename(b)), strip)
            else:
                missing.append(src)
        for lib in pack.get("libraries", []):
            src = next((os.path.join(d, lib) for d in LIB_DIRS if os.path.exists(os.path.join(d, lib))), None)
            if src:
                copy_in(src, os.path.join(p, "lib", lib), None)
            else:
                missing.append(f"{lib} (in {' or '.join(LIB_DIRS)})")
        for e in pack.get("extra", []):
            pattern, to = (e["files"], e["to"]) if isinstance(e, dict) else (e, None)
            matches = sorted(glob.glob(os.path.join(build, pattern)))
            if not matches:
                missing.append(os.path.join(build, pattern))
            for m in matches:
                rel = os.path.relpath(m, build)
                copy_in(m, os.path.join(p, to, os.path.basename(m)) if to else os.path.join(p, rel), strip)
        if missing:
            for m in missing:
                print(f"device_run: {args.plan}: not found: {m}", file=sys.stderr)
            return 1
        root = find_root(os.path.dirname(args.plan) or ".", os.getcwd()) or os.getcwd()
        rc, head = git(root, "rev-parse", "HEAD")
        commit = head if rc == 0 else "unknown"
        if rc == 0 and subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD", "--"]).returncode != 0:
            commit += "+uncommitted"
        with open(os.path.join(p, "commit"), "w") as f:
            f.write(commit + "\n")
        with open(os.path.join(p, "pack.json"), "w") as f:
            json.dump({"plan": os.path.relpath(os.path.abspath(args.plan), root), "plan_sha256": sha256(args.plan),
                       "commit": commit, "packed": now()}, f, indent=1)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        write_archive(p, args.out)
    print(f"{args.out}: {os.path.getsize(args.out)} bytes, commit {commit}")
    return 0


def write_archive(folder, out):
    """folder's files as an .tar.xz. Mutant variants are copies of one binary that differ in a few
    kernels: xz in one stream with a window larger than a binary stores each after the first in a
    few hundred kilobytes, where tarfile's 8 MiB window would store each whole (the GPU machine takes
    64 MiB in all). Without the xz program, tarfile's own."""
    xz = shutil.which("xz")
    if not xz:
        with tarfile.open(out, "w:xz") as t:
            for name in sorted(os.listdir(folder)):
                t.add(os.path.join(folder, name), arcname=name)
        return
    plain = out + ".tar.tmp"
    with tarfile.open(plain, "w") as t:
        for name in sorted(os.listdir(folder)):
            t.add(os.path.join(folder, name), arcname=name)
    with open(out, "wb") as f:
        subprocess.run([xz, "-T1", "-c", "--lzma2=preset=6,dict=256MiB", plain], stdout=f, check=True)
    os.remove(plain)


# ------------------------------------------------------------------------------------------------ run

def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def version_of(name, stem):
    """(13, 1, 0, 3) for libcublasLt.so.13.1.0.3; None for a name without a version."""
    v = name[len(stem):].lstrip(".")
    return tuple(int(x) for x in v.split(".")) if re.match(r"^[0-9]+(\.[0-9]+)*$", v) else None


def find_cuda_libraries():
    """The newest cuBLASLt (by its file name) under the trees the earlier scripts searched, and the
    CUDA runtime beside it (or the newest found): {"cublaslt": path, "cudart": path}."""
    found = {"libcublasLt.so": [], "libcudart.so": []}
    for tree in CUDA_TREES:
        for d, dirs, files in os.walk(tree):
            dirs.sort()
            for f in files:
                for stem in found:
                    if f.startswith(stem + ".") and version_of(f, stem):
                        # libcublasLt.so.13 is a link to libcublasLt.so.13.1.0.3: the target names the version.
                        real = os.path.realpath(os.path.join(d, f))
                        path = real if os.path.basename(real).startswith(stem + ".") else os.path.join(d, f)
                        found[stem].append((version_of(os.path.basename(path), stem), path))
    best = {}
    lt = max(found["libcublasLt.so"], default=None)
    if lt:
        best["cublaslt"] = lt[1]
    rt = [c for c in found["libcudart.so"] if lt and os.path.dirname(c[1]) == os.path.dirname(lt[1])]
    rt = max(rt or found["libcudart.so"], default=None)
    if rt:
        best["cudart"] = rt[1]
    return best


def machine_facts():
    """What the earlier device-env.sh wrote into steps.txt, as text and as manifest fields."""
    facts, lines = {"gpus": []}, []
    smi = shutil.which("nvidia-smi")
    if smi:
        r = subprocess.run([smi, "--query-gpu=name,driver_version,compute_cap,clocks.max.sm,memory.total",
                            "--format=csv"], capture_output=True, text=True)
        lines += (r.stdout + r.stderr).strip().splitlines()
        for row in r.stdout.strip().splitlines()[1:]:
            cols = [c.strip() for c in row.split(",")]
            if len(cols) >= 3:
                facts["gpus"].append({"name": cols[0], "driver": cols[1], "compute_capability": cols[2]})
    else:
        lines.append("nvidia-smi: not found (no GPU driver on this machine)")
    first = facts["gpus"][0] if facts["gpus"] else {}
    facts.update(gpu=first.get("name"), driver=first.get("driver"), compute_capability=first.get("compute_capability"))
    libs = find_cuda_libraries()
    facts["cublaslt_path"] = libs.get("cublaslt")
    for key, label, stem, lib in (("cublaslt", "cuBLASLt", "libcublasLt.so", "cublaslt"),
                                  ("cuda_runtime", "CUDA runtime", "libcudart.so", "cudart")):
        name = os.path.basename(libs[lib]) if lib in libs else None
        facts[key] = ".".join(map(str, version_of(name, stem))) if name else None  # from the file name
        lines.append(f"{label}: {name or 'not found'}")
    facts["nproc"] = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    facts["cpu"] = None
    try:
        with open("/proc/cpuinfo") as f:
            facts["cpu"] = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), None)
    except OSError:
        pass
    lines += [str(facts["nproc"]), f"Model name: {facts['cpu']}"]
    return facts, lines


def cuda_tools_path(path):
    """PATH with the newest CUDA toolkit's bin/ behind it when Nsight Compute or Compute Sanitizer is
    not on it already (the earlier scripts looked for them in /usr/local/cuda*/bin)."""
    for tool in ("ncu", "compute-sanitizer"):
        if not shutil.which(tool, path=path):
            found = sorted(glob.glob(f"/usr/local/cuda*/bin/{tool}"))
            if found:
                path = path + os.pathsep + os.path.dirname(found[-1])
    return path


def ncu_version(path):
    ncu = shutil.which("ncu", path=path)
    if not ncu:
        return None
    r = subprocess.run([ncu, "--version"], capture_output=True, text=True)
    return (r.stdout.strip().splitlines() or [None])[-1]


class Stopped(Exception):
    """SIGTERM or SIGINT reached the runner: stop the current step, keep what ran."""


def _stop(signum, frame):
    raise Stopped(signal.Signals(signum).name)


def kill_group(proc, grace):
    """SIGTERM to the step's whole process group (a step's command is a shell with children), then
    SIGKILL if it has not gone after `grace` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            pass


def run_shell(command, cwd, env, log, limit, grace):
    """(exit status, timed out) of `bash -c command` under a time limit; output to the open file `log`."""
    proc = subprocess.Popen(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        return proc.wait(timeout=limit), False
    except subprocess.TimeoutExpired:
        kill_group(proc, grace)
        return 124, True  # the status `timeout` gives, as the earlier steps.txt files show
    except BaseException:
        kill_group(proc, grace)
        raise


def select_steps(plan, only, skip, where):
    names = [s["name"] for s in plan["steps"]]
    unknown = [n for n in (only or []) + (skip or []) if n not in names]
    if unknown:
        raise PlanError(f"{where}: no step named {', '.join(unknown)} (steps: {', '.join(names)})")
    return [s for s in plan["steps"] if (not only or s["name"] in only) and s["name"] not in (skip or [])]


def cmd_run(args):
    plan = load_plan(args.plan)
    steps = select_steps(plan, args.only, args.skip, args.plan)
    if args.dry_run:
        print(f"{args.plan}: {len(steps)} of {len(plan['steps'])} steps")
        if "pack" in plan:
            print(f"pack: {json.dumps(plan['pack'])}")
        for s in steps:
            may_fail = ", may fail" if s.get("allow_failure") else ""
            print(f"- {s['name']} (limit {s['limit']} s{may_fail}):")
            print("\n".join("    " + line for line in s["run"].strip().splitlines()))
        return 0
    if "pack" in plan and not args.pack:
        raise PlanError(f"{args.plan}: the plan has a `pack` section: give --pack PACK.tar.xz")
    out = os.path.abspath(os.environ.get("OUT") or args.out)
    if os.path.exists(os.path.join(out, "manifest.json")):
        raise PlanError(f"{out} holds an earlier run (manifest.json): give another output directory")
    os.makedirs(out, exist_ok=True)
    root = find_root(os.path.dirname(os.path.abspath(args.plan)), os.path.dirname(os.path.abspath(__file__)), os.getcwd())
    if root is None:
        raise PlanError(f"{args.plan}: no repository root (a directory holding tiers/T3.yaml) above it")
    work = tempfile.mkdtemp(prefix="device-run-")
    w, logs = os.path.join(work, "pack"), os.path.join(work, "logs")
    os.makedirs(w)
    os.makedirs(logs)
    if args.pack:
        with tarfile.open(args.pack) as t:
            if hasattr(tarfile, "data_filter"):
                t.extractall(w, filter="data")
            else:  # a Python without extraction filters (before 3.11.4): the pack is our own
                t.extractall(w)
    commit = "unknown"
    if os.path.isfile(os.path.join(w, "commit")):
        commit = open(os.path.join(w, "commit")).read().strip()
    elif not args.pack:
        rc, head = git(root, "rev-parse", "HEAD")
        commit = head if rc == 0 else commit

    facts, header = machine_facts()
    env = dict(os.environ)
    lt_dir = None
    if facts["cublaslt_path"] and plan.get("system_cublaslt", True):
        lt_dir = os.path.dirname(facts["cublaslt_path"])
    lib = os.path.join(w, "lib") if os.path.isdir(os.path.join(w, "lib")) else None
    env["MACHINE_LD_LIBRARY_PATH"] = env.get("LD_LIBRARY_PATH", "")
    env["LD_LIBRARY_PATH"] = ":".join(p for p in (lib, lt_dir, env.get("LD_LIBRARY_PATH")) if p)
    env["PATH"] = cuda_tools_path(env.get("PATH", os.defpath))
    facts["ncu"] = ncu_version(env["PATH"])
    if facts["ncu"]:
        header.append(f"Nsight Compute: {facts['ncu']}")
    env.update(W=w, MMAEMU_SOURCE_COMMIT=commit)
    for k, v in plan.get("env", {}).items():
        env[k] = os.path.expandvars(subst(str(v), W=w))
    grace = plan.get("grace", 30)

    plan_path = os.path.relpath(os.path.abspath(args.plan), root)
    manifest = {"plan": plan_path if not plan_path.startswith("..") else os.path.abspath(args.plan),
                "plan_sha256": sha256(args.plan), "command": shlex.join([sys.executable, *sys.argv]),
                "commit": commit, "date": now(), "finished": None, "root": root,
                **{k: v for k, v in facts.items() if k != "cublaslt_path"}, "steps": [], "status": "running"}
    text = [f"build: {commit}", manifest["date"], *header]

    def write_records():
        with open(os.path.join(out, "steps.txt"), "w") as f:
            f.write("\n".join(text) + "\n")
        with open(os.path.join(out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")

    write_records()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    failed = False
    try:
        for s in steps:
            name, o = s["name"], os.path.join(logs, s["name"])
            os.makedirs(o, exist_ok=True)
            record = {"name": name, "run": s["run"].strip(), "limit": s["limit"],
                      "allow_failure": s.get("allow_failure", False)}
            manifest["steps"].append(record)
            t0 = time.monotonic()
            with open(os.path.join(logs, name + ".log"), "w") as log:
                try:
                    status, timed_out = run_shell(s["run"], root, dict(env, O=o), log, s["limit"], grace)
                except Stopped as e:
                    record.update(exit=None, timed_out=False, stopped=str(e), seconds=round(time.monotonic() - t0))
                    text.append(f"{name}: stopped by {e} in {record['seconds']} s")
                    raise
            record.update(exit=status, timed_out=timed_out, seconds=round(time.monotonic() - t0))
            over = f" (over its limit of {s['limit']} s)" if timed_out else ""
            text.append(f"{name}: exit {status} in {record['seconds']} s{over}")
            print(text[-1], flush=True)
            if status != 0 and not record["allow_failure"]:
                failed = True
            if "summary" in s:
                with tempfile.TemporaryFile("w+", errors="replace") as f:
                    run_shell(s["summary"], root, dict(env, O=o), f, SUMMARY_LIMIT, 5)
                    f.seek(0)
                    text += f.read().rstrip("\n").splitlines()
            record["kept"] = keep(s.get("keep", []), o, out, name, w)
            write_records()
    except Stopped:
        failed = True
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        manifest.update(finished=now(), status="failed" if failed else "ok")
        write_records()
        shutil.copy(os.path.join(out, "steps.txt"), logs)
        with tarfile.open(os.path.join(out, "logs.tar.xz"), "w:xz") as t:
            for name in sorted(os.listdir(logs)):
                t.add(os.path.join(logs, name), arcname=name)
        if args.keep_work:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    n = len(os.listdir(out))
    if n > 8:
        print(f"device_run: note: {n} files in {out}; the GPU machine may return only about eight", file=sys.stderr)
    print(f"{out}: manifest.json, steps.txt, logs.tar.xz: {manifest['status']}")
    return 1 if failed else 0


def subst(text, **values):
    """`text` with $NAME and ${NAME} of `values` replaced (and no other variable)."""
    for k, v in values.items():
        text = re.sub(r"\$(\{%s\}|%s(?![A-Za-z0-9_]))" % (k, k), lambda m: v, text)
    return text


def keep(patterns, o, out, step, w):
    """Copies the files matching `patterns` (relative to the step's $O; $O and $W may be written) into
    the output; a name already there gets the step's name in front."""
    kept = []
    for pattern in patterns:
        pattern = subst(pattern, O=o, W=w)
        for m in sorted(glob.glob(pattern if os.path.isabs(pattern) else os.path.join(o, pattern))):
            if not os.path.isfile(m):
                continue
            dst = os.path.join(out, os.path.basename(m))
            if os.path.exists(dst) or os.path.basename(m) in OWN_FILES:
                dst = os.path.join(out, f"{step}-{os.path.basename(m)}")
            shutil.copy2(m, dst)
            kept.append(os.path.basename(dst))
    return kept


# ---------------------------------------------------------------------------------------------- check

def cmd_check(args):
    bad = 0
    for path in args.plans:
        try:
            plan = load_plan(path)
            print(f"{path}: ok, {len(plan['steps'])} steps")
        except PlanError as e:
            print(e, file=sys.stderr)
            bad += 1
    return 2 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="pack a build's binaries and libraries (build machine)")
    p.add_argument("plan")
    p.add_argument("--build-dir", default="build")
    p.add_argument("--out", required=True, help="the tarball to write (PACK.tar.xz)")
    r = sub.add_parser("run", help="run a plan's steps (GPU machine)")
    r.add_argument("plan")
    r.add_argument("--pack", help="the tarball `pack` wrote")
    r.add_argument("--out", default="device-out", help="output directory when $OUT is not set")
    r.add_argument("--only", action="append", metavar="STEP", help="run only this step (repeatable)")
    r.add_argument("--skip", action="append", metavar="STEP", help="leave this step out (repeatable)")
    r.add_argument("--dry-run", action="store_true", help="validate and print the steps; run nothing")
    r.add_argument("--keep-work", action="store_true", help="keep the work directory ($W and the logs)")
    c = sub.add_parser("check", help="validate plans (exit 2 on a bad one)")
    c.add_argument("plans", nargs="+")
    args = ap.parse_args(argv)
    try:
        return {"pack": cmd_pack, "run": cmd_run, "check": cmd_check}[args.command](args)
    except PlanError as e:
        print(e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
