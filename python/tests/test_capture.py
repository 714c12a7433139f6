"""Captures (mmaemu-capture/1): a call found in the capture computes with the configuration the library ran
for it, one not found is refused under a certainty requirement or resolved with a warning, and a capture
from another library build or SM count is refused unless forced. Real data: the configurations the H200
ran for PyTorch's calls (fixtures/torch-h200), and the capture of 200 fresh calls on an H100
(fixtures/captures)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mmaemu
from conftest import SOURCE_DIR, TORCH_CALLS
from test_library import assert_same_bits, call_config, torch_view

FRESH_CAPTURE = SOURCE_DIR / "fixtures" / "captures" / "torch-fresh-h100.jsonl"


def torch_kwargs(call, op):
    """torch_gemm's arguments for a recorded call (its library view: mat1 is B', mat2 is A')."""
    return dict(mat1_type=call["b"], mat2_type=call["a"], out_type=call["d"], alpha=call["alpha"], beta=call["beta"],
                scale_a=call["scale_b"] if op == "scaled_mm" else None,
                scale_b=call["scale_a"] if op == "scaled_mm" else None, fast_accum=call["fast_accum"])


def write_capture(path, lines, version=130100, sm_count=132):
    header = {"schema": "mmaemu-capture/1", "library": {"name": "cublasLt", "version": version},
              "gpu": {"name": "NVIDIA H200", "sm_count": sm_count}, "source": "a test"}
    path.write_text("\n".join(json.dumps(x) for x in [header] + lines) + "\n")
    return path


def capture_of(torch_calls, ids, tmp_path, **kw):
    """The configurations the H200 ran for these calls, keyed as the API describes each torch call."""
    lines = []
    for cid in ids:
        call, op, _, _ = torch_calls[cid]
        t = torch_kwargs(call, op)
        r = mmaemu.resolve(call["n"], call["m"], call["k"], a_type=t["mat1_type"], b_type=t["mat2_type"],
                           d_type=t["out_type"], alpha=t["alpha"], beta=t["beta"], scale_a=t["scale_a"],
                           scale_b=t["scale_b"], fast_accum=t["fast_accum"], torch_op=op)
        lines.append({"op": op, "call": r["call"], "config": call_config(cid)})
    return write_capture(tmp_path / "capture.jsonl", lines, **kw)


def test_each_captured_call_takes_the_configuration_the_library_ran(torch_calls, tmp_path):
    capture = capture_of(torch_calls, TORCH_CALLS, tmp_path)
    for cid in TORCH_CALLS:
        call, op, ops, d_lib = torch_calls[cid]
        mat1, mat2, input = torch_view(call, ops)
        got = mmaemu.torch_gemm(op, mat1, mat2, input if op == "addmm" else None, backend="cpu", calls=capture,
                                min_certainty=mmaemu.CERTAINTY_GATE, **torch_kwargs(call, op))
        assert_same_bits(got, np.ascontiguousarray(d_lib.T), f"call {cid} ({op}) from the capture")


def test_a_call_not_captured_is_refused_when_strict_and_resolved_with_a_warning_otherwise(torch_calls, tmp_path, capfd):
    capture = capture_of(torch_calls, TORCH_CALLS[:1], tmp_path)
    call, op, ops, d_lib = torch_calls[TORCH_CALLS[1]]
    mat1, mat2, input = torch_view(call, ops)
    args = (op, mat1, mat2, input if op == "addmm" else None)
    with pytest.raises(mmaemu.InputError, match="not in the capture"):
        mmaemu.torch_gemm(*args, calls=capture, min_certainty=mmaemu.CERTAINTY_GATE, **torch_kwargs(call, op))
    got = mmaemu.torch_gemm(*args, calls=capture, **torch_kwargs(call, op))
    assert "not in the capture" in capfd.readouterr().err
    assert_same_bits(got, mmaemu.torch_gemm(*args, **torch_kwargs(call, op)), "resolved as without a capture")


def test_a_capture_of_another_library_or_sm_count_is_refused_unless_forced(torch_calls, tmp_path, capfd):
    cid = TORCH_CALLS[0]
    call, op, ops, d_lib = torch_calls[cid]
    mat1, mat2, input = torch_view(call, ops)
    args = (op, mat1, mat2, input if op == "addmm" else None)
    for kw, words in (({"version": 130000}, "130000"), ({"sm_count": 114}, "114 SMs")):
        folder = tmp_path / str(kw)
        folder.mkdir()
        capture = capture_of(torch_calls, [cid], folder, **kw)
        with pytest.raises(mmaemu.InputError, match=words):
            mmaemu.torch_gemm(*args, calls=capture, **torch_kwargs(call, op))
        got = mmaemu.torch_gemm(*args, calls=capture, force_capture=True, min_certainty=mmaemu.CERTAINTY_GATE,
                                **torch_kwargs(call, op))
        assert "--force-capture" in capfd.readouterr().err
        assert_same_bits(got, np.ascontiguousarray(d_lib.T), "a forced capture")


def test_resolve_names_the_captured_configuration(torch_calls, tmp_path):
    cid = TORCH_CALLS[0]
    call, op, _, _ = torch_calls[cid]
    capture = capture_of(torch_calls, [cid], tmp_path)
    t = torch_kwargs(call, op)
    r = mmaemu.resolve(call["n"], call["m"], call["k"], a_type=t["mat1_type"], b_type=t["mat2_type"],
                       d_type=t["out_type"], alpha=t["alpha"], beta=t["beta"], torch_op=op, calls=capture)
    assert r["captured"] and r["certainty"] == 1 and "capture.jsonl:2" in r["certainty_basis"]
    assert r["config"]["algo_id"] == call_config(cid)["algo_id"]


def test_a_malformed_capture_is_named_by_file_and_line(tmp_path):
    bad = write_capture(tmp_path / "bad.jsonl", [{"op": "x", "call": {}, "confg": {}}])
    with pytest.raises(mmaemu.InputError, match=r"bad\.jsonl:2:\d+: unknown key 'confg'"):
        mmaemu.resolve(8, 8, 8, a_type="bf16", b_type="bf16", d_type="bf16", calls=bad)


def test_the_shipped_capture_answers_its_own_calls():
    """fixtures/captures/torch-fresh-h100.jsonl: each call, described again from its line, is found."""
    lines = FRESH_CAPTURE.read_text().splitlines()
    assert json.loads(lines[0])["gpu"]["sm_count"] == 132
    for line in lines[1:21]:
        entry = json.loads(line)
        c = entry["call"]
        if c.get("batch", 1) > 1 or c.get("epilogue") == "bias":
            continue  # library-level calls take neither (the torch view does)
        fp8 = c["a"] in ("e4m3", "e5m2")
        r = mmaemu.resolve(c["m"], c["n"], c["k"], a_type=c["a"], b_type=c["b"], d_type=c["d"],
                           layout=c.get("layout", "TN"), workspace=c["max_workspace"], fast_accum=c["fast_accum"],
                           scale_a=c["scale_a"] if fp8 else None, scale_b=c["scale_b"] if fp8 else None,
                           calls=FRESH_CAPTURE)
        assert r.get("captured"), (line, r)
        assert r["config"]["algo_id"] == entry["config"]["algo_id"]


# Two of the fresh calls' own lines in cuBLASLt's log on the H100 (reports/h100/torch-fresh,
# calls-lt-log.txt.xz: calls 0 and 12), as its logger hands them over.
H100_LINES = {
    "linear": "[cublasLtSSSMatmul] A=0X7F16C3E02A00 Adesc=[type=R_32F rows=13 cols=30 ld=13] B=0X7F16C3E00000 "
              "Bdesc=[type=R_32F rows=13 cols=204 ld=13] C=0X7F16C3E03200 Cdesc=[type=R_32F rows=30 cols=204 ld=30] "
              "D=0X7F16C3E03200 Ddesc=[type=R_32F rows=30 cols=204 ld=30] computeDesc=[computeType=COMPUTE_32F_FAST_TF32 "
              "scaleType=R_32F transa=OP_T smCountTarget=132] algo=[algoId=63 tile=MATMUL_TILE_32x32 "
              "stages=MATMUL_STAGES_64x3 ctaSwizzling=1] workSpace=0X0 workSpaceSizeInBytes=0 beta=0 outOfPlace=0 stream=0X0",
    "bmm": "[cublasLtSSSMatmul] A=0X7F16C3E00600 Adesc=[type=R_32F rows=128 cols=13 ld=128 batchCount=2 "
           "stridedBatchOffset=1664] B=0X7F16C3E00000 Bdesc=[type=R_32F rows=13 cols=11 ld=13 batchCount=2 "
           "stridedBatchOffset=143] C=0X7F16C3E03A00 Cdesc=[type=R_32F rows=128 cols=11 ld=128 batchCount=2 "
           "stridedBatchOffset=1408] D=0X7F16C3E03A00 Ddesc=[type=R_32F rows=128 cols=11 ld=128 batchCount=2 "
           "stridedBatchOffset=1408] computeDesc=[computeType=COMPUTE_32F_FAST_TF32 scaleType=R_32F smCountTarget=132] "
           "algo=[algoId=55 tile=MATMUL_TILE_32x32 stages=MATMUL_STAGES_8x3] workSpace=0X0 workSpaceSizeInBytes=0 beta=0 "
           "outOfPlace=0 stream=0X0",
}


def test_capture_pairs_each_call_with_its_log_line(tmp_path, monkeypatch):
    """mmaemu.torch.capture on the CPU with the library's log replayed: the H100's log lines for two fresh calls
    (linear and bmm in tf32), handed over as its logger would, give the entries capture_from_log.py wrote
    from the same log (fixtures/captures/torch-fresh-h100.jsonl). The GPU side (the logger callback on
    libcublasLt) runs only on a GPU."""
    torch = pytest.importorskip("torch")
    import types
    script = iter([H100_LINES["linear"], H100_LINES["bmm"]] + [""] * 8)

    class ScriptedLines(list):
        def clear(self):  # before each torch call: the line the library logs for it
            super().clear()
            self.append(next(script))

    class ReplayedLog:
        def __init__(self, torch_module):
            self.lines, self.version, self.path = ScriptedLines(), 130100, str(FRESH_CAPTURE)

        def close(self):
            pass

    monkeypatch.setattr(mmaemu.torch, "_LibraryLog", ReplayedLog)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties",
                        lambda i: types.SimpleNamespace(name="NVIDIA H100 80GB HBM3", multi_processor_count=132))
    out = tmp_path / "capture.jsonl"
    x, w = torch.randn(204, 13), torch.randn(30, 13)
    a, b = torch.randn(2, 11, 13), torch.randn(2, 13, 128)
    with mmaemu.torch.capture(out, tf32=True):
        torch.nn.functional.linear(x, w)
        torch.bmm(a, b)
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert got[0]["gpu"]["sm_count"] == 132 and got[0]["library"]["version"] == 130100
    shipped = [json.loads(line) for line in FRESH_CAPTURE.read_text().splitlines()[1:]]

    def same(entry):
        return any(s["call"] == entry["call"] and s["config"] == entry["config"] for s in shipped)
    assert len(got) == 3 and all(same(e) for e in got[1:]), got
    # and the capture replays: emulate(calls=) finds both calls, computes the bmm (algorithm 55) and
    # refuses the linear by name (algorithm 63 has no rules yet)
    with mmaemu.torch.emulate(calls=out, tf32=True, progress=False):
        torch.bmm(a, b)
        with pytest.raises(mmaemu.InputError, match="algorithm 63"):
            torch.nn.functional.linear(x, w)
