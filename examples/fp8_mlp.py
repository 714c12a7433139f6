"""An FP8 transformer MLP as real code writes it, with an H200's bits reproduced anywhere.

The model: token embeddings (bf16) through two pre-activation-free MLP blocks, each
    h = x + down(relu(gate(x)) * up(x))
with gate, up and down FP8 linear layers (weights bf16, quantised per tensor to e4m3, activations
quantised per tensor on the fly, torch._scaled_mm with per-tensor scales into bf16), then a bf16
output projection (nn.Linear, no bias) to the logits. Random weights from a seed: nothing is downloaded.

Every op other than the matmuls gives the same bits on every device, so that the matmuls alone decide
the logits' bits:
  - amax of |x| (a maximum: exact), the scale amax * (1/448) and its reciprocal (one IEEE-rounded fp32
    multiply or division each), x * (1/scale) in fp32 (one rounding), the cast to e4m3 (round to
    nearest even, in software on every device);
  - relu (exact), bf16 * bf16 (the product is exact in fp32, rounded once to bf16), bf16 + bf16
    (fp32 sum rounded to bf16, computed the same way by every device's kernel).
Division by a scale is written as a multiplication by its reciprocal: PyTorch's CUDA kernels turn a
division by a CPU scalar into one, its CPU kernels do not, so the multiplication is the portable form.

    python3 examples/fp8_mlp.py --device cuda --out run/h200        # natively on the GPU (H200)
    python3 examples/fp8_mlp.py --device cpu --emulate cpu --out run/emulated     # the cpu engine, every core
    python3 examples/fp8_mlp.py --device cuda --emulate cuda --out run/cuda-emulated
    python3 examples/fp8_mlp.py --device cpu --out run/cpu-native    # what the CPU computes by itself
    python3 examples/compare_logits.py run/h200 run/emulated run/cpu-native ...

Each run writes logits.npy (bf16 raw bits) and run.json (versions, device, shapes) to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

E4M3_MAX = 448.0


def quantise(t: torch.Tensor):
    """t in e4m3 with a per-tensor scale: (t * (1 / scale)).to(e4m3), scale = amax(|t|) / 448."""
    amax = t.abs().amax().float()
    scale = amax * (1.0 / E4M3_MAX)
    q = (t.float() * (1.0 / scale)).to(torch.float8_e4m3fn)
    return q, scale


class FP8Linear(nn.Module):
    """y = x W^T through torch._scaled_mm: e4m3 x e4m3 -> bf16, per-tensor scales, no bias."""

    def __init__(self, weight: torch.Tensor):
        super().__init__()
        self.weight = nn.Parameter(weight, requires_grad=False)  # bf16 [out, in]

    def forward(self, x):
        lead = x.shape[:-1]
        x2 = x.reshape(-1, x.shape[-1])
        xq, x_scale = quantise(x2)
        wq, w_scale = quantise(self.weight)
        y = torch._scaled_mm(xq, wq.t(), scale_a=x_scale, scale_b=w_scale, out_dtype=torch.bfloat16)
        return y.reshape(*lead, -1)


class MLPBlock(nn.Module):
    def __init__(self, d_model: int, d_ffn: int, g: torch.Generator):
        super().__init__()
        def w(o, i):
            return (torch.randn(o, i, generator=g) * i ** -0.5).to(torch.bfloat16)
        self.gate, self.up, self.down = FP8Linear(w(d_ffn, d_model)), FP8Linear(w(d_ffn, d_model)), FP8Linear(w(d_model, d_ffn))

    def forward(self, x):
        return x + self.down(F.relu(self.gate(x)) * self.up(x))


class TinyFP8Model(nn.Module):
    def __init__(self, vocab: int, d_model: int, d_ffn: int, blocks: int, seed: int):
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.embed = nn.Parameter((torch.randn(vocab, d_model, generator=g)).to(torch.bfloat16), requires_grad=False)
        self.blocks = nn.ModuleList(MLPBlock(d_model, d_ffn, g) for _ in range(blocks))
        self.head = nn.Linear(d_model, vocab, bias=False, dtype=torch.bfloat16)
        with torch.no_grad():
            self.head.weight.copy_((torch.randn(vocab, d_model, generator=g) * d_model ** -0.5).to(torch.bfloat16))

    def forward(self, tokens):
        x = self.embed[tokens]  # a gather: exact
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cpu", help="where the tensors live: cpu or cuda")
    ap.add_argument("--emulate", choices=["reference", "host", "cpu", "cuda"],
                    help="run the matmuls through mmaemu's cublaslt-h200 profile on this backend")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--seq", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=4096)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--d-ffn", type=int, default=2048)
    ap.add_argument("--blocks", type=int, default=2)
    args = ap.parse_args()

    model = TinyFP8Model(args.vocab, args.d_model, args.d_ffn, args.blocks, args.seed).to(args.device)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq), generator=torch.Generator().manual_seed(args.seed + 1))
    tokens = tokens.to(args.device)

    started = time.perf_counter()
    with torch.no_grad():
        if args.emulate:
            import mmaemu
            with mmaemu.torch.emulate("cublaslt-h200", backend=args.emulate):
                logits = model(tokens)
        else:
            logits = model(tokens)
    if args.device.startswith("cuda"):
        torch.cuda.synchronize()
    took = time.perf_counter() - started

    os.makedirs(args.out, exist_ok=True)
    bits = logits.detach().cpu().contiguous().view(torch.int16).numpy().view(np.uint16)
    np.save(os.path.join(args.out, "logits.npy"), bits)
    run = {"command": " ".join([os.path.basename(sys.executable)] + sys.argv), "device": args.device,
           "emulate": args.emulate, "seconds": round(took, 3), "logits_shape": list(bits.shape),
           "torch": torch.__version__, "python": platform.python_version(), "machine": platform.machine(),
           "cpu": platform.processor() or platform.machine(), "args": vars(args)}
    if args.device.startswith("cuda"):
        run["gpu"] = torch.cuda.get_device_name()
        run["cuda"] = torch.version.cuda
    if args.emulate:
        import mmaemu
        run["mmaemu"] = mmaemu.__version__
    with open(os.path.join(args.out, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
    print(f"{args.out}: logits {tuple(bits.shape)} on {args.device}"
          f"{' through mmaemu (' + args.emulate + ')' if args.emulate else ''} in {took:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
