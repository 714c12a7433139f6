"""mmaemu.mma and mmaemu.gemm: the H200's recorded bits, the command line's results and messages."""
from __future__ import annotations

import numpy as np
import pytest

import mmaemu
from conftest import SOURCE_DIR, run_cli

H200 = SOURCE_DIR / "fixtures" / "h200"
RECORDED = sorted(p.name for p in H200.iterdir() if (p / "d.npy").exists())


def load(instr: str):
    return [np.load(H200 / instr / f"{r}.npy") for r in "abcd"]


def test_the_recordings_are_there():
    assert len(RECORDED) >= 7, RECORDED


@pytest.mark.parametrize("instr", RECORDED)
def test_mma_reproduces_the_h200_recording(instr):
    a, b, c, d = load(instr)
    got = mmaemu.mma("sm90", instr, a, b, c)
    assert got.dtype == d.dtype and got.shape == d.shape
    differ = np.flatnonzero(got != d)
    assert differ.size == 0, f"{differ.size} of {d.size} outputs differ, first at {differ[:5]}"


@pytest.mark.parametrize("instr", RECORDED)
@pytest.mark.parametrize("backend", ["host", "cpu"])
def test_cpu_backends_give_the_h200_bits(instr, backend):
    a, b, c, d = load(instr)
    assert np.array_equal(mmaemu.mma("sm90", instr, a[:64], b[:64], c[:64], backend=backend), d[:64])


def gemm_operands(rng, m, n, k, tiles_of):
    """A GEMM's operands drawn from a recording's own operand bits (specials, subnormals and all)."""
    a_pool, b_pool, c_pool = (x.ravel() for x in tiles_of)
    return (rng.choice(a_pool, (m, k)), rng.choice(b_pool, (k, n)), rng.choice(c_pool, (m, n)))


@pytest.mark.parametrize("instr", ["mma.m16n8k16.f32.bf16.bf16.f32", "wgmma.m64n8k16.f32.bf16.bf16",
                                   "mma.m16n8k32.f32.e4m3.e4m3.f32"])
def test_gemm_equals_the_command_line(cli, tmp_path, instr):
    rng = np.random.default_rng(7)
    a, b, c = gemm_operands(rng, 37, 24, 100, load(instr)[:3])
    for name, x in zip("abc", (a, b, c)):
        np.save(tmp_path / f"{name}.npy", x)
    r = run_cli(cli, "gemm", "--arch", "sm90", "--instr", instr, "--a", tmp_path / "a.npy", "--b", tmp_path / "b.npy",
                "--c", tmp_path / "c.npy", "--out", tmp_path / "d.npy", "--trace", tmp_path / "t.npy")
    assert r.returncode == 0, r.stderr
    d, trace = mmaemu.gemm("sm90", instr, a, b, c, trace=True)
    assert np.array_equal(d, np.load(tmp_path / "d.npy"))
    assert np.array_equal(trace, np.load(tmp_path / "t.npy"))
    assert np.array_equal(mmaemu.gemm("sm90", instr, a, b, c, backend="host"), d)
    assert np.array_equal(mmaemu.gemm("sm90", instr, a, b, c, backend="cpu"), d)


def test_gemm_without_c_adds_zeros():
    instr = "mma.m16n8k16.f32.bf16.bf16.f32"
    a, b, _ = gemm_operands(np.random.default_rng(3), 16, 8, 48, load(instr)[:3])
    zeros = np.zeros((16, 8), np.uint32)
    assert np.array_equal(mmaemu.gemm("sm90", instr, a, b), mmaemu.gemm("sm90", instr, a, b, zeros))


def test_float_dtypes_give_the_raw_bits_results():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    instr = "mma.m16n8k16.f32.bf16.bf16.f32"
    a, b, c, d = load(instr)
    got = mmaemu.mma("sm90", instr, a.view(ml_dtypes.bfloat16), b.view(ml_dtypes.bfloat16), c.view(np.float32))
    assert got.dtype == np.float32  # floats in, floats out
    assert np.array_equal(got.view(np.uint32), d)
    instr = "mma.m16n8k16.f16.f16.f16.f16"
    a, b, c, d = load(instr)
    got = mmaemu.mma("sm90", instr, a.view(np.float16), b.view(np.float16), c.view(np.float16))
    assert got.dtype == np.float16 and np.array_equal(got.view(np.uint16), d)


def test_a_float_dtype_of_another_format_is_refused():
    a, b, c, _ = load("mma.m16n8k16.f32.bf16.bf16.f32")
    with pytest.raises(mmaemu.InputError, match="a: has dtype float16, which holds fp16; a is read as bf16"):
        mmaemu.mma("sm90", "mma.m16n8k16.f32.bf16.bf16.f32", a.view(np.float16), b, c)


# Bad input: the exception carries the command line's exit-2 message. The operand files are named as
# Python names the arguments ("a", "b", "c"), so that the two messages are the same text.
BAD_INPUTS = [
    ("wrong shape", "mma", "mma.m16n8k16.f32.bf16.bf16.f32", lambda a, b, c: (a[:, :, :8], b, c)),
    ("wrong width", "mma", "mma.m16n8k16.f32.bf16.bf16.f32", lambda a, b, c: (a.astype(np.uint32), b, c)),
    ("tile counts", "mma", "mma.m16n8k16.f32.bf16.bf16.f32", lambda a, b, c: (a, b[:3], c)),
    ("gemm K", "gemm", "mma.m16n8k16.f32.bf16.bf16.f32", lambda a, b, c: (a[0], b[0][:8], c[0])),
    ("gemm batch", "gemm", "mma.m16n8k16.f32.bf16.bf16.f32", lambda a, b, c: (a[:2], b[0], c[:2])),
]


@pytest.mark.parametrize("what,command,instr,spoil", BAD_INPUTS, ids=[x[0] for x in BAD_INPUTS])
def test_errors_carry_the_command_line_message(cli, tmp_path, what, command, instr, spoil):
    a, b, c = spoil(*load(instr)[:3])
    for name, x in zip("abc", (a, b, c)):
        with open(tmp_path / name, "wb") as f:
            np.save(f, x)
    r = run_cli(cli, command, "--arch", "sm90", "--instr", instr, "--a", "a", "--b", "b", "--c", "c", "--out", "d.npy",
                cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    message = r.stderr.strip().removeprefix("mmaemu: error: ")
    with pytest.raises(mmaemu.InputError) as raised:
        getattr(mmaemu, command)("sm90", instr, a, b, c)
    assert str(raised.value) == message


def test_unknown_instruction_and_backend(cli):
    a, b, c, _ = load("mma.m16n8k16.f32.bf16.bf16.f32")
    with pytest.raises(mmaemu.InputError, match="sm70"):
        mmaemu.mma("sm70", "mma.m16n8k16.f32.bf16.bf16.f32", a, b, c)
    with pytest.raises(mmaemu.InputError, match="--arch: unknown architecture 'sm42'"):
        mmaemu.mma("sm42", "mma.m16n8k16.f32.bf16.bf16.f32", a, b, c)
    with pytest.raises(mmaemu.InputError, match="--backend"):
        mmaemu.mma("sm90", "mma.m16n8k16.f32.bf16.bf16.f32", a, b, c, backend="nonesuch")


def test_info_is_what_the_command_line_prints(cli):
    info = mmaemu.info()
    printed = run_cli(cli, "info").stdout
    names = [i["name"] for arch in info["architectures"] for i in arch["instructions"]]
    assert len(names) > 100 and all(f"  {n}   [" in printed for n in names)
    assert [b["name"] for b in info["backends"]][-2:] == ["host", "reference"]
    assert info["library_profiles"][0]["name"] == "cublaslt-h200"
    assert f"mmaemu {info['version']}" in printed and info["devices"]["status"] in printed
    assert [a["name"] for a in mmaemu.info("sm90")["architectures"]] == ["sm90"]


def cuda_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    if not torch.cuda.is_available() or not mmaemu._mmaemu.built_with_cuda:
        pytest.skip("no CUDA device, or mmaemu built without CUDA")
    return torch


@pytest.mark.parametrize("instr", RECORDED)
def test_mma_on_cuda_tensors_stays_on_the_device(instr):
    torch = cuda_torch()
    a, b, c, d = load(instr)
    signed = {1: np.uint8, 2: np.int16, 4: np.int32, 8: np.int64}
    on_gpu = [torch.from_numpy(x.view(signed[x.itemsize])).cuda() for x in (a, b, c)]
    got = mmaemu.mma("sm90", instr, *on_gpu, backend="simt")
    assert got.is_cuda and got.shape == d.shape
    assert np.array_equal(got.cpu().numpy().view(d.dtype), d)


def test_gemm_on_cuda_tensors_equals_the_host_gemm():
    torch = cuda_torch()
    instr = "mma.m16n8k16.f32.bf16.bf16.f32"
    a, b, c = gemm_operands(np.random.default_rng(5), 40, 24, 100, load(instr)[:3])
    host = mmaemu.gemm("sm90", instr, a, b, c)
    got = mmaemu.gemm("sm90", instr, torch.from_numpy(a.view(np.int16)).cuda(), torch.from_numpy(b.view(np.int16)).cuda(),
                      torch.from_numpy(c.view(np.int32)).cuda(), backend="auto")
    assert got.is_cuda and np.array_equal(got.cpu().numpy().view(np.uint32), host)
    bf16 = torch.from_numpy(a.view(np.int16)).cuda().view(torch.bfloat16)
    floats = mmaemu.gemm("sm90", instr, bf16, torch.from_numpy(b.view(np.int16)).cuda().view(torch.bfloat16))
    assert floats.dtype == torch.float32 and floats.is_cuda  # floats in, floats out, on the device
