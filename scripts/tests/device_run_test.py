#!/usr/bin/env python3
"""Tests of scripts/device_run.py on a CPU machine: every plan of the repository validates, a fake pack
runs end to end (a step that passes, one that overruns its limit and is killed), bad plans are refused
with exit 2 naming the file. The repository's plans are YAML, so this test needs PyYAML.

    python3 scripts/tests/device_run_test.py
"""
import glob
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "scripts", "device_run.py")

try:
    import yaml  # noqa: F401  (the plans under reports/ and scripts/device-plans are YAML)
except ImportError:
    sys.exit("device_run_test: PyYAML is needed to read the repository's plans (pip install pyyaml)")


def runner(*args, env=None, cwd=ROOT):
    return subprocess.run([sys.executable, RUNNER, *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def load_module():
    spec = importlib.util.spec_from_file_location("device_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RepositoryPlans(unittest.TestCase):
    def test_every_plan_validates(self):
        plans = sorted(glob.glob(os.path.join(ROOT, "scripts", "device-plans", "*.yaml")) +
                       glob.glob(os.path.join(ROOT, "reports", "**", "plan*.yaml"), recursive=True))
        self.assertIn(os.path.join(ROOT, "scripts", "device-plans", "gpu-tests.yaml"), plans)
        self.assertGreater(len(plans), 1)
        r = runner("check", *plans)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.count(": ok,"), len(plans), r.stdout)

    def test_no_run_script_sources_a_missing_setup(self):
        # The hand-written run scripts that needed an uncommitted pack or device-env.sh became plans.
        for script in glob.glob(os.path.join(ROOT, "reports", "**", "*.sh"), recursive=True):
            with open(script) as f:
                self.assertNotIn("device-env.sh", f.read(), script)

    def test_dry_run_prints_the_steps(self):
        plan = os.path.join(ROOT, "scripts", "device-plans", "gpu-tests.yaml")
        r = runner("run", plan, "--dry-run")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("- info (limit 60 s)", r.stdout)
        self.assertIn("mmaemu run tiers/T3.yaml --quick", r.stdout)


class EndToEnd(unittest.TestCase):
    """A pack whose "binary" is a shell script, run on this machine with no GPU."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="device-run-test-")
        t = self.tmp.name
        os.makedirs(os.path.join(t, "build", "bin"))
        self.binary = os.path.join(t, "build", "bin", "fake-mmaemu")
        with open(self.binary, "w") as f:
            f.write('#!/bin/sh\necho "fake mmaemu $*"\necho 42 > "$O/result.txt"\n')
        os.chmod(self.binary, 0o755)
        self.plan = os.path.join(t, "plan.yaml")
        with open(self.plan, "w") as f:
            f.write("""description: a fake run
pack:
  binaries: [bin/fake-mmaemu]
  extra: [{files: "bin/fake-*", to: variants}]
env: {FAKE_SETTING: "$W/setting"}
grace: 2
steps:
  - name: ok
    run: $W/fake-mmaemu info; echo "setting $FAKE_SETTING"; test -f tiers/T3.yaml
    limit: 20
    keep: [result.txt]
    summary: echo "result $(cat $O/result.txt)"
  - name: may-fail
    run: exit 3
    limit: 20
    allow_failure: true
  - name: slow
    run: sleep 5
    limit: 1
""")
        self.pack = os.path.join(t, "pack.tar.xz")
        r = runner("pack", self.plan, "--build-dir", os.path.join(t, "build"), "--out", self.pack)
        self.assertEqual(r.returncode, 0, r.stderr)

    def tearDown(self):
        self.tmp.cleanup()

    def test_pack_holds_the_binary_the_extra_and_the_commit(self):
        with tarfile.open(self.pack) as t:
            names = t.getnames()
            commit = t.extractfile("commit").read().decode().strip()
        self.assertIn("fake-mmaemu", names)
        self.assertIn("variants/fake-mmaemu", names)
        self.assertIn("pack.json", names)
        self.assertRegex(commit, r"^([0-9a-f]{40}(\+uncommitted)?|unknown)$")

    def test_run_records_a_pass_and_a_timeout(self):
        out = os.path.join(self.tmp.name, "out")
        t0 = time.monotonic()
        r = runner("run", self.plan, "--pack", self.pack, env={"OUT": out})
        took = time.monotonic() - t0
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # slow failed and may not fail
        self.assertLess(took, 30, "the step over its limit was not stopped")
        self.assertEqual(sorted(os.listdir(out)), ["logs.tar.xz", "manifest.json", "result.txt", "steps.txt"])

        with open(os.path.join(out, "manifest.json")) as f:
            m = json.load(f)
        import hashlib
        with open(self.plan, "rb") as f:
            self.assertEqual(m["plan_sha256"], hashlib.sha256(f.read()).hexdigest())
        self.assertIn("run", m["command"])
        self.assertIn(self.pack, m["command"])
        for key in ("commit", "date", "finished", "gpu", "driver", "compute_capability", "cublaslt", "cuda_runtime",
                    "nproc", "cpu"):
            self.assertIn(key, m)
        self.assertEqual(m["status"], "failed")
        steps = {s["name"]: s for s in m["steps"]}
        self.assertEqual(list(steps), ["ok", "may-fail", "slow"])
        self.assertEqual((steps["ok"]["exit"], steps["ok"]["timed_out"], steps["ok"]["kept"]), (0, False, ["result.txt"]))
        self.assertEqual((steps["may-fail"]["exit"], steps["may-fail"]["allow_failure"]), (3, True))
        self.assertEqual((steps["slow"]["exit"], steps["slow"]["timed_out"], steps["slow"]["limit"]), (124, True, 1))
        self.assertLessEqual(steps["slow"]["seconds"], 4)

        with open(os.path.join(out, "steps.txt")) as f:
            text = f.read()
        self.assertTrue(text.startswith(f"build: {m['commit']}\n"), text)
        self.assertRegex(text, r"\nok: exit 0 in \d+ s\nresult 42\n")
        self.assertIn("\nslow: exit 124 in ", text)
        with tarfile.open(os.path.join(out, "logs.tar.xz")) as t:
            names = t.getnames()
            log = t.extractfile("ok.log").read().decode()
        for name in ("ok.log", "may-fail.log", "slow.log", "ok/result.txt", "steps.txt"):
            self.assertIn(name, names)
        self.assertIn("fake mmaemu info", log)
        self.assertRegex(log, r"setting /\S+/setting")  # $W expanded in the plan's env

    def test_allowed_failures_leave_the_run_passing(self):
        out = os.path.join(self.tmp.name, "out2")
        r = runner("run", self.plan, "--pack", self.pack, "--out", out, "--skip", "slow", env={"OUT": ""})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(out, "manifest.json")) as f:
            m = json.load(f)
        self.assertEqual([s["name"] for s in m["steps"]], ["ok", "may-fail"])
        self.assertEqual(m["status"], "ok")

    def test_only_an_unknown_step_is_a_usage_error(self):
        r = runner("run", self.plan, "--pack", self.pack, "--only", "nope", "--dry-run")
        self.assertEqual(r.returncode, 2)
        self.assertIn("nope", r.stderr)


class BadPlans(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="device-run-test-")

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_unknown_key_exits_2_naming_file_and_key(self):
        bad = self.write("bad.yaml", "steps:\n  - name: a\n    run: true\n    limit: 5\n    limt: 6\n")
        good = os.path.join(ROOT, "scripts", "device-plans", "gpu-tests.yaml")
        r = runner("check", good, bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn(bad, r.stderr)
        self.assertIn("limt", r.stderr)
        self.assertNotIn(good, r.stderr)

    def test_schema(self):
        errors = load_module().plan_errors
        self.assertEqual(errors({"steps": [{"name": "a", "run": "true", "limit": 1}]}), [])
        cases = {
            "`steps` is required": {"pack": {}},
            "unknown key `stpes`": {"stpes": [], "steps": [{"name": "a", "run": "x", "limit": 1}]},
            "unknown key `pack.bins`": {"pack": {"bins": []}, "steps": [{"name": "a", "run": "x", "limit": 1}]},
            "`limit` is required": {"steps": [{"name": "a", "run": "x"}]},
            "positive integer": {"steps": [{"name": "a", "run": "x", "limit": 0}]},
            "positive integer (seconds)": {"steps": [{"name": "a", "run": "x", "limit": True}]},
            "used twice": {"steps": [{"name": "a", "run": "x", "limit": 1}, {"name": "a", "run": "y", "limit": 1}]},
            "a file name": {"steps": [{"name": "../a", "run": "x", "limit": 1}]},
            "inside it": {"pack": {"binaries": ["/bin/sh"]}, "steps": [{"name": "a", "run": "x", "limit": 1}]},
        }
        for needle, plan in cases.items():
            self.assertTrue(any(needle in e for e in errors(plan)), (needle, errors(plan)))

    def test_json_plans_need_no_pyyaml(self):
        bad = self.write("bad.json", json.dumps({"steps": [{"name": "a", "run": "true", "limit": 5}], "extra": 1}))
        good = self.write("good.json", json.dumps({"steps": [{"name": "a", "run": "true", "limit": 5}]}))
        # The runner with `import yaml` failing, as where PyYAML is not installed.
        code = ("import runpy, sys; sys.modules['yaml'] = None; sys.argv = sys.argv[1:]; "
                "runpy.run_path(sys.argv[0], run_name='__main__')")
        r = subprocess.run([sys.executable, "-c", code, RUNNER, "check", good], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([sys.executable, "-c", code, RUNNER, "check", bad], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{bad}: unknown key `extra`", r.stderr)
        yaml_plan = self.write("plan.yaml", "steps: []\n")
        r = subprocess.run([sys.executable, "-c", code, RUNNER, "check", yaml_plan], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{yaml_plan}: a YAML plan needs PyYAML", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
