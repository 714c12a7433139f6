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
