"""mmaemu.library_gemm, mmaemu.torch_gemm and mmaemu.resolve: PyTorch's calls on an H200 (the
torch-h200 fixture: torch's D as the GPU returned it) reproduced bit for bit, and the command line's
answers."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mmaemu
from conftest import TORCH_CALLS, run_cli


def torch_view(call, ops):
    """torch's operands from the library's: mat1 = B'^T [m, k], mat2 = A'^T [k, n], input = C'^T."""
    return (np.ascontiguousarray(ops["b"].T), np.ascontiguousarray(ops["a"].T), np.ascontiguousarray(ops["c"].T))


def assert_same_bits(got, expected, what):
    assert got.shape == expected.shape and got.dtype == expected.dtype, (got.shape, got.dtype, expected.shape)
    differ = np.argwhere(got != expected)
    assert differ.size == 0, f"{what}: {len(differ)} of {expected.size} outputs differ, first at {differ[:3].tolist()}"


@pytest.mark.parametrize("call_id", TORCH_CALLS)
def test_torch_gemm_reproduces_torch_on_the_h200(torch_calls, call_id):
    call, op, ops, d_lib = torch_calls[call_id]
    mat1, mat2, input = torch_view(call, ops)
    got = mmaemu.torch_gemm(op, mat1, mat2, input if op == "addmm" else None, mat1_type=call["b"],
                            mat2_type=call["a"], out_type=call["d"], alpha=call["alpha"], beta=call["beta"],
                            scale_a=call["scale_b"] if op == "scaled_mm" else None,
                            scale_b=call["scale_a"] if op == "scaled_mm" else None,
                            fast_accum=call["fast_accum"], backend="host")
    assert_same_bits(got, np.ascontiguousarray(d_lib.T), f"call {call_id} ({op})")


@pytest.mark.parametrize("call_id", [8, 60, 164])
def test_library_gemm_in_the_library_view(torch_calls, call_id):
    call, op, ops, d_lib = torch_calls[call_id]
    kwargs = dict(a_type=call["a"], b_type=call["b"], d_type=call["d"], alpha=call["alpha"], beta=call["beta"],
                  scale_a=call["scale_a"], scale_b=call["scale_b"], fast_accum=call["fast_accum"],
                  layout=call.get("layout", "TN"))  # recordings leave TN, the default, out
    for backend in ("reference", "host", "cpu"):
        assert_same_bits(mmaemu.library_gemm(ops["a"], ops["b"], ops["c"], backend=backend, **kwargs), d_lib, backend)


def test_a_configuration_given_as_a_dict(torch_calls):
    call, _, ops, d_lib = torch_calls[11]
    config = json.loads(json.dumps(call_config(call_id=11)))
    got = mmaemu.library_gemm(ops["a"], ops["b"], ops["c"], a_type="bf16", b_type="bf16", d_type="bf16",
                              layout="NN", algo=config)
    assert_same_bits(got, d_lib, "algo as a dict")


def call_config(call_id):
    from conftest import TORCH_FIXTURE
    recording = json.loads((TORCH_FIXTURE / "recording.json").read_text())
    return next(c for c in recording["calls"] if c["id"] == call_id)["runs"][0]["config"]


def test_resolve_equals_the_command_line(cli):
    args = dict(a_type="e4m3", b_type="e4m3", d_type="bf16", torch_op="scaled_mm", scale_a=2.0, scale_b=0.5)
    r = run_cli(cli, "resolve", "--library", "cublaslt-h200", "--torch", "scaled_mm", "--a-type", "e4m3", "--b-type",
                "e4m3", "--d-type", "bf16", "--m", 16, "--n", 4096, "--k", 4096, "--scale-a", 2, "--scale-b", 0.5)
    assert r.returncode == 0, r.stderr
    printed = json.loads(r.stdout)
    got = mmaemu.resolve(16, 4096, 4096, **args)
    assert got["config"] == printed["config"] and got["call"] == printed["call"] and "config" in got


def test_refused_and_unknown_calls_raise():
    a = np.zeros((32, 24), np.uint8)
    b = np.full((24, 16), 0x38, np.uint8)  # e4m3 1.0
    with pytest.raises(mmaemu.InputError, match="cuBLASLt refuses this call"):
        mmaemu.library_gemm(a, b, a_type="e4m3", b_type="e4m3", d_type="bf16")  # K = 24: no multiple of 16
    with pytest.raises(mmaemu.InputError, match="unknown library profile 'cublaslt-b200'"):
        mmaemu.library_gemm(a, b, a_type="e4m3", b_type="e4m3", d_type="bf16", profile="cublaslt-b200")
    with pytest.raises(mmaemu.InputError, match="d_type"):
        mmaemu.library_gemm(a, b, a_type="e4m3", b_type="e4m3")


def test_an_empty_operand_calls_no_library():
    """torch answers m, n or k = 0 without cuBLAS (aten's mm and addmm): an empty result, zeros, or for
    addmm beta * input (at::mul); mmaemu does the same instead of asking the resolver."""
    ones = lambda *shape: np.ones(shape, dtype=np.float32)  # noqa: E731
    assert mmaemu.torch_gemm("matmul", ones(0, 5), ones(5, 7), backend="host").shape == (0, 7)
    assert mmaemu.torch_gemm("linear", ones(3, 5), ones(5, 0), backend="cpu").shape == (3, 0)
    zeros = mmaemu.torch_gemm("matmul", ones(3, 0), ones(0, 4), backend="cpu")
    assert zeros.shape == (3, 4) and (zeros.view(np.uint32) == 0).all(), "+0, not -0"
    inp = np.array([[1.5, -2.0, np.nan], [3.0, 1e-45, -0.0]], dtype=np.float32)
    got = mmaemu.torch_gemm("addmm", ones(2, 0), ones(0, 3), inp, beta=1.0, backend="host")
    assert np.array_equal(got.view(np.uint32), inp.view(np.uint32)), "beta = 1: input itself"
    import ml_dtypes
    # beta 1.7 (at::mul): beta rounded to the dtype, the product rounded once. Inputs and torch's results
    # as recorded on an H100 (reports/h100/torch-uncovered, calls 83 and 183); fp32(1.7) * input rounded
    # once would miss every one of them.
    for dtype, pairs in ((ml_dtypes.bfloat16, [(0x3d9f, 0x3e07), (0xbf11, 0xbf77), (0x3f98, 0x4001), (0xbf48, 0xbfaa),
                                               (0xbfdd, 0xc03c), (0x3f44, 0x3fa7)]),
                         (np.float16, [(0xb7bb, 0xba92), (0xbd4a, 0xc07f), (0x3904, 0x3c44), (0x2a14, 0x2d2b),
                                       (0xaf89, 0xb268), (0x3939, 0x3c71)])):
        x = np.array([[p[0] for p in pairs]], dtype=np.uint16).view(dtype)
        got = mmaemu.torch_gemm("addmm", np.ones((1, 0), dtype), np.ones((0, len(pairs)), dtype), x, beta=1.7,
                                backend="host")
        assert [int(v) for v in got.view(np.uint16).ravel()] == [p[1] for p in pairs], dtype
    ignored = mmaemu.torch_gemm("addmm", ones(2, 0), ones(0, 3), inp, beta=0.0, backend="host")
    assert (ignored.view(np.uint32) == 0).all(), "beta = 0 ignores input, NaN included"
    bf = np.array([[1.0078125, -3.0]], dtype=ml_dtypes.bfloat16)
    got = mmaemu.torch_gemm("addmm", np.ones((1, 0), ml_dtypes.bfloat16), np.ones((0, 2), ml_dtypes.bfloat16), bf,
                            beta=1.0, backend="host")
    assert got.dtype == ml_dtypes.bfloat16 and np.array_equal(got.view(np.uint16), bf.view(np.uint16))
    answer = mmaemu.resolve(0, 4096, 4096, a_type="bf16", b_type="bf16", d_type="bf16", torch_op="matmul")
    assert "config" not in answer and "no library" in answer["model"], answer


def test_an_answer_the_resolver_is_not_sure_of_is_refused_when_strict(capfd):
    """bf16 2 x 158 x 5890 (torch's m, n, k): cuBLASLt's heuristic on the H200 is not what the fit can be sure
    of (a leaf of few answers); strict refuses it with the reason, the default computes it and warns."""
    import ml_dtypes
    answer = mmaemu.resolve(2, 158, 5890, a_type="bf16", b_type="bf16", d_type="bf16", torch_op="matmul")
    assert answer["certainty"] < mmaemu.CERTAINTY_GATE and not answer["certain"], answer
    assert "training answers" in answer["certainty_basis"]
    x = np.ones((2, 5890), ml_dtypes.bfloat16)
    w = np.ones((5890, 158), ml_dtypes.bfloat16)
    with pytest.raises(mmaemu.InputError, match="not sure"):
        mmaemu.torch_gemm("matmul", x, w, min_certainty=mmaemu.CERTAINTY_GATE, backend="cpu")
    d = mmaemu.torch_gemm("matmul", x, w, backend="cpu")
    assert d.shape == (2, 158)
    assert "not sure" in capfd.readouterr().err
    # a recorded call is certain
    recorded = mmaemu.resolve(1, 4096, 4096, a_type="bf16", b_type="bf16", d_type="bf16", torch_op="matmul")
    assert recorded["certainty"] == 1.0 and recorded["certain"], recorded


def test_torch_addmm_with_unit_scalars_on_algorithm_66_is_refused():
    """torch.addmm (C and D one buffer through cuBLAS) with alpha = beta = 1 on algorithm 66 unsplit in 16-bit
    gave other bits on an H100 than the model's epilogue (reports/h100/torch-uncovered): refused by name."""
    import ml_dtypes
    x = np.ones((64, 200), ml_dtypes.bfloat16)
    w = np.ones((200, 96), ml_dtypes.bfloat16)
    c = np.ones((64, 96), ml_dtypes.bfloat16)
    assert mmaemu.resolve(64, 96, 200, a_type="bf16", b_type="bf16", d_type="bf16", torch_op="addmm",
                          beta=1.0)["config"]["algo_id"] == 66
    with pytest.raises(mmaemu.InputError, match="algorithm 66 without split-K"):
        mmaemu.torch_gemm("addmm", x, w, c, alpha=1.0, beta=1.0, backend="cpu")
    d = mmaemu.torch_gemm("addmm", x, w, c, alpha=-1.25, beta=0.75, backend="cpu")  # the recorded scalars' form
    assert d.shape == (64, 96)
