"""mmaemu.torch.emulate: a model's matmuls (torch.matmul, @, torch.addmm, F.linear, torch._scaled_mm)
through the library profile, giving torch's bits as the H200 returned them, on the CPU."""
from __future__ import annotations

import json
import numpy as np
import pytest

import mmaemu
from conftest import TORCH_CALLS

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
F = torch.nn.functional

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32, "e4m3": torch.float8_e4m3fn,
          "e5m2": torch.float8_e5m2}
SIGNED = {1: torch.uint8, 2: torch.int16, 4: torch.int32}


def tensor(bits: np.ndarray, fmt: str):
    bits = np.ascontiguousarray(bits)
    return torch.from_numpy(bits.view(f"i{bits.itemsize}") if bits.itemsize > 1 else bits).view(DTYPES[fmt])


def bits(t) -> np.ndarray:
    return t.contiguous().view(SIGNED[t.element_size()]).numpy().view(f"u{t.element_size()}")


def run_as_torch(call, op, ops):
    X = tensor(ops["b"].T, call["b"])   # mat1 [m, k]
    W = tensor(ops["a"].T, call["a"])   # mat2 [k, n]
    if op == "matmul":
        return X @ W
    if op == "addmm":
        return torch.addmm(tensor(ops["c"].T, call["d"]), X, W, beta=call["beta"], alpha=call["alpha"])
    if op == "linear":
        return F.linear(X, W.t())       # the weight [n, k]
    return torch._scaled_mm(X, W, scale_a=torch.tensor(call["scale_b"]), scale_b=torch.tensor(call["scale_a"]),
                            out_dtype=DTYPES[call["d"]], use_fast_accum=call["fast_accum"])


@pytest.mark.parametrize("backend", ["host", "cpu"])
@pytest.mark.parametrize("call_id", TORCH_CALLS)
def test_emulate_gives_the_h200_bits(torch_calls, call_id, backend):
    call, op, ops, d_lib = torch_calls[call_id]
    with mmaemu.torch.emulate("cublaslt-h200", backend=backend, progress=False):
        out = run_as_torch(call, op, ops)
    assert out.dtype == DTYPES[call["d"]]
    assert np.array_equal(bits(out), np.ascontiguousarray(d_lib.T)), f"call {call_id} ({op})"


def test_leading_dimensions_fold_as_torch_folds_them(torch_calls):
    call, _, ops, d_lib = torch_calls[112]  # linear bf16 65 x 33 x 130: torch's m = 33
    X = tensor(ops["b"].T, "bf16").reshape(3, 11, -1)
    with mmaemu.torch.emulate(progress=False):
        out = F.linear(X, tensor(ops["a"], "bf16"))
    assert out.shape == (3, 11, 65)
    assert np.array_equal(bits(out.reshape(33, 65)), np.ascontiguousarray(d_lib.T))


def test_unmodelled_calls_raise_or_run_natively():
    x, w, v = torch.ones(4, 16, dtype=torch.bfloat16), torch.ones(8, 16, dtype=torch.bfloat16), torch.ones(16)
    with mmaemu.torch.emulate(progress=False):
        with pytest.raises(mmaemu.InputError, match="dot product"):
            torch.matmul(v, v)
        with pytest.raises(mmaemu.InputError, match="gemv"):
            torch.matmul(x.float(), v)
        y = x + 1  # other ops run natively
    assert torch.equal(y, x + 1)
    with mmaemu.torch.emulate(strict=False, progress=False):
        with pytest.warns(UserWarning, match="runs natively"):
            out = torch.matmul(v, v)
    assert torch.equal(out, torch.matmul(v, v))


gpu = pytest.mark.skipif(not torch.cuda.is_available() or not mmaemu._mmaemu.built_with_cuda,
                         reason="no CUDA device, or mmaemu built without CUDA")


@gpu
@pytest.mark.parametrize("call_id", TORCH_CALLS)
def test_emulate_on_cuda_tensors_computes_on_the_device(torch_calls, call_id):
    call, op, ops, d_lib = torch_calls[call_id]
    with mmaemu.torch.emulate("cublaslt-h200", backend="cuda", progress=False):
        X = tensor(ops["b"].T, call["b"]).cuda()
        W = tensor(ops["a"].T, call["a"]).cuda()
        if op == "matmul":
            out = X @ W
        elif op == "addmm":
            out = torch.addmm(tensor(ops["c"].T, call["d"]).cuda(), X, W, beta=call["beta"], alpha=call["alpha"])
        elif op == "linear":
            out = F.linear(X, W.t())
        else:
            out = torch._scaled_mm(X, W, scale_a=torch.tensor(call["scale_b"]).cuda(),
                                   scale_b=torch.tensor(call["scale_a"]).cuda(), out_dtype=DTYPES[call["d"]],
                                   use_fast_accum=call["fast_accum"])
    assert out.is_cuda and out.dtype == DTYPES[call["d"]]
    assert np.array_equal(bits(out.cpu()), np.ascontiguousarray(d_lib.T)), f"call {call_id} ({op})"


def test_a_bias_goes_where_torch_sends_it():
    """addmm with a 1-D input and linear with a bias: cuBLASLt's bias epilogue with a 1 MiB workspace limit
    when beta is 1 (torch's Lt path; a single row too), else a GEMM with the bias broadcast; beta 1 with
    n or k = 1 (a path not recorded) refused."""
    call = mmaemu._call("cublaslt-h200", "bf16", "bf16", "bf16", 1.0, 1.0, None, None, False, "TN", None, "linear",
                        bias=True)
    on_lt = json.loads(mmaemu._mmaemu.resolve(call, 64, 128, 256))["call"]
    assert on_lt.get("epilogue") == "bias" and on_lt["max_workspace"] == 1 << 20
    assert json.loads(mmaemu._mmaemu.resolve(call, 1, 128, 256))["call"].get("epilogue") == "bias"  # m = 1 too
    with pytest.raises(mmaemu.InputError, match="not recorded"):
        mmaemu._mmaemu.resolve(call, 64, 1, 256)
    scaled = mmaemu._call("cublaslt-h200", "bf16", "bf16", "bf16", 1.0, 0.5, None, None, False, "TN", None, "addmm",
                          bias=True)
    plain = json.loads(mmaemu._mmaemu.resolve(scaled, 64, 128, 256))["call"]
    assert "epilogue" not in plain and plain["beta"] == 0.5 and plain["max_workspace"] == 32 << 20


def test_batched_products_each_take_the_batched_calls_configuration():
    x = torch.randn(3, 16, 64).bfloat16()
    y = torch.randn(3, 64, 24).bfloat16()
    with mmaemu.torch.emulate(strict=False, progress=False):
        d = torch.bmm(x, y)
    for i in range(3):
        one = mmaemu.torch_gemm("matmul", x[i], y[i], batch=3, backend="cpu")
        assert torch.equal(d[i].view(torch.int16), one.view(torch.int16))
    r = mmaemu.resolve(16, 24, 64, a_type="bf16", b_type="bf16", d_type="bf16", torch_op="matmul")
    call = mmaemu._call("cublaslt-h200", "bf16", "bf16", "bf16", 1.0, 0.0, None, None, False, "TN", None, "matmul")
    call.batch = 3
    batched = json.loads(mmaemu._mmaemu.resolve(call, 16, 24, 64))
    assert batched["config"]["split_k"] == 1 and batched["call"]["batch"] == 3 and "config" in r
    assert "a batched call" in batched["certainty_basis"] and "batched tree" in batched["certainty_basis"]


def test_the_call_kinds_measurement_beside_the_resolver_is_read_and_a_malformed_one_named(tmp_path):
    import shutil
    resolver = mmaemu._resolver_of("cublaslt-h200")
    # The measured rule answers batched calls for a resolver without batched trees: drop the shipped ones.
    doc = json.load(open(resolver))
    doc.pop("batched", None)
    (tmp_path / "resolver.json").write_text(json.dumps(doc))

    def batched_call(where=tmp_path):
        call = mmaemu._mmaemu.LibraryCall("cublaslt-h200", "fp16", "fp16", "fp16", 1.0, 0.0, "", "", False, "TN", None,
                                          str(where / "resolver.json"), "matmul", None)
        call.batch = 4
        return call
    (tmp_path / "call-kinds.json").write_text(json.dumps({
        "schema": "mmaemu-cublaslt-call-kinds/1", "source": "a test", "rules": {},
        "kinds": {"batched": {"fp16": {"calls": 200, "same_arithmetic": 199}}}}))
    r = json.loads(mmaemu._mmaemu.resolve(batched_call(), 64, 64, 64))
    assert r["certainty"] == pytest.approx(200 / 202) and "199 of 200" in r["certainty_basis"]
    bad = tmp_path / "bad"
    bad.mkdir()
    shutil.copy(tmp_path / "resolver.json", bad / "resolver.json")
    (bad / "call-kinds.json").write_text('{"schema": "mmaemu-cublaslt-call-kinds/1", "kinds": 3}')
    call = batched_call(bad)
    with pytest.raises(mmaemu.InputError, match="call-kinds.json"):
        mmaemu._mmaemu.resolve(call, 64, 64, 64)


def test_a_call_the_model_declines_runs_natively_when_not_strict():
    """fp32 at 5 x 7 x 9 runs a kernel without rules (the resolver's answer): refused under strict, run
    natively with a warning otherwise, as for the calls the Python side refuses."""
    x, w = torch.randn(5, 9), torch.randn(9, 7)
    with mmaemu.torch.emulate(progress=False, tf32=False):
        with pytest.raises(mmaemu.InputError, match="algorithm"):
            torch.matmul(x, w)
    with mmaemu.torch.emulate(strict=False, progress=False, tf32=False):
        with pytest.warns(UserWarning, match="runs natively"):
            out = torch.matmul(x, w)
    assert torch.equal(out, torch.matmul(x, w))


def test_a_transformer_block_runs_under_emulate():
    """Linear layers with and without a bias, attention's 4-D matmuls, GELU: under strict=False every
    matmul is emulated or runs natively with a warning (never an exception); strict refuses by name."""
    torch.manual_seed(0)

    class Block(torch.nn.Module):
        def __init__(self, d=64, h=4):
            super().__init__()
            self.h = h
            self.qkv, self.o = torch.nn.Linear(d, 3 * d), torch.nn.Linear(d, d)
            self.up, self.down = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d, bias=False)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = (z.view(b, t, self.h, -1).transpose(1, 2) for z in self.qkv(x).split(d, dim=-1))
            a = torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1) @ v
            x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
            return x + self.down(F.gelu(self.up(x)))

    block, x = Block().bfloat16(), torch.randn(2, 7, 64).bfloat16()
    import warnings
    with mmaemu.torch.emulate(strict=False, progress=False) as mode:
        with warnings.catch_warnings(record=True) as caught:  # a call the model declines runs natively, warned
            warnings.simplefilter("always")
            y = block(x)
    assert all("runs natively" in str(w.message) for w in caught)
    assert y.shape == (2, 7, 64) and mode.calls >= 4
    with mmaemu.torch.emulate(strict=True, progress=False):
        with pytest.raises(mmaemu.InputError, match="not sure|algorithm"):
            block(x)


def test_what_describes_a_torch_call_is_refused_where_it_cannot_be_honoured():
    """The batch count and operand views describe torch's calls only; torch.linear with a transposed input
    is TT to cuBLAS, which the resolver has no answers for: each refused by name, never resolved as another."""
    call = mmaemu._call("cublaslt-h200", "bf16", "bf16", "bf16", 1.0, 0.0, None, None, False, "TN", None, "")
    call.batch = 4
    with pytest.raises(mmaemu.InputError, match="--batch"):
        mmaemu._mmaemu.resolve(call, 64, 64, 64)
    linear = mmaemu._call("cublaslt-h200", "bf16", "bf16", "bf16", 1.0, 0.0, None, None, False, "TN", None, "linear",
                          mat1_transposed=True)
    with pytest.raises(mmaemu.InputError, match="TT"):
        mmaemu._mmaemu.resolve(linear, 64, 64, 64)
