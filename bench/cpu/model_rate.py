#!/usr/bin/env python3
"""A model's forward pass natively and under mmaemu.torch.emulate, for T6's model section
(bench/cpu/model_bench.hpp): the number a user asks first, how much slower the forward pass gets.

Models (--model, repeatable): fp8-mlp (examples/fp8_mlp.py: FP8 linear layers through torch._scaled_mm,
bf16 output projection), llama-bf16 and gpt2-bf16 (scripts/torch_fixture/models.py's Llama and GPT-2 from
transformers, seeded weights, eager attention, in bf16). Each runs on --device (cpu or cuda) over seeded
token ids: one untimed forward, then --repetitions timed ones natively, then the same under
mmaemu.torch.emulate("cublaslt-h200", backend=--backend, strict=False) (every matmul-family call through
the library model; a call the resolver is unsure of is computed with a warning; one the model declines
runs natively with a warning, counted here as native_calls). Tokens
per second are batch x tokens over the forward's wall time (synchronised on a GPU). On a GPU the
emulated logits are compared with the native ones bit for bit (equal only where every call was exact);
on a CPU the native run is the CPU's own arithmetic, so no comparison is made.

Writes --out (JSON, atomically): {"rows": [{"model", "device", "mode" ("native" or "emulate:<backend>"),
"tokens", "seconds": [...], "calls", "native_calls", "matmul_seconds", "equal_to_native"}], "torch",
"transformers", "python", "threads"}.

Exit status: 0 measured (rows that could not run carry "skipped"); 3 torch or mmaemu cannot be imported
(the reason in --out as "skipped"); 2 bad use.
"""
import argparse
import json
import os
import platform
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
MODELS = ["fp8-mlp", "llama-bf16", "gpt2-bf16"]


def write_json(path, obj):
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(path + ".tmp", path)


def build(name, torch, device):
    """The model and its token ids (batch 2; 37 tokens for the transformers models, 16 for the MLP)."""
    g = torch.Generator().manual_seed(2026)
    if name == "fp8-mlp":
        sys.path.insert(0, os.path.join(ROOT, "examples"))
        import fp8_mlp
        model = fp8_mlp.TinyFP8Model(4096, 512, 2048, 2, 2026)
        tokens = torch.randint(0, 4096, (2, 16), generator=g)
    else:
        sys.path.insert(0, os.path.join(ROOT, "scripts", "torch_fixture"))
        import models
        model = models.build(name.split("-")[0], torch).to(torch.bfloat16)
        tokens = torch.randint(0, models.VOCAB, (models.BATCH, models.TOKENS), generator=g)
    return model.to(device).eval(), tokens.to(device)


def logits_of(out):
    return out.logits if hasattr(out, "logits") else out


def timed(torch, device, forward, repetitions, after_warmup=lambda: None):
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    with torch.no_grad():
        out = forward()
        sync()
        after_warmup()
        seconds = []
        for _ in range(repetitions):
            start = time.perf_counter()
            out = forward()
            sync()
            seconds.append(time.perf_counter() - start)
    return logits_of(out), seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", action="append", choices=MODELS, required=True)
    p.add_argument("--device", default="cpu")
    p.add_argument("--backend", default="cpu", help="mmaemu.torch.emulate's backend")
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    try:
        import torch
        import mmaemu
    except ImportError as e:
        why = f"torch or mmaemu is not importable here ({e}); run with the project's .venv and torch installed"
        write_json(args.out, {"skipped": why})
        print(why, file=sys.stderr)
        return 3
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        why = "no CUDA device for PyTorch here"
        write_json(args.out, {"skipped": why})
        print(why, file=sys.stderr)
        return 3
    rows = []
    try:
        import transformers
        transformers_version = transformers.__version__
    except ImportError:
        transformers_version = None
    for name in args.model:
        base = {"model": name, "device": args.device}
        if name != "fp8-mlp" and transformers_version is None:
            for mode in ("native", "emulate:" + args.backend):
                rows.append(dict(base, mode=mode, skipped="transformers is not importable here (pip install transformers)"))
            continue
        model, tokens = build(name, torch, args.device)
        count = tokens.numel()
        native, native_s = timed(torch, args.device, lambda: model(tokens), args.repetitions)
        rows.append(dict(base, mode="native", tokens=count, seconds=native_s))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with mmaemu.torch.emulate("cublaslt-h200", backend=args.backend, strict=False, progress=False) as mode:
                def counted_from_here():  # the timed forwards' calls only, not the warm-up's
                    mode.calls, mode.seconds = 0, 0.0
                    caught.clear()
                emulated, emulated_s = timed(torch, args.device, lambda: model(tokens), args.repetitions,
                                             counted_from_here)
        per_forward = args.repetitions
        row = dict(base, mode="emulate:" + args.backend, tokens=count, seconds=emulated_s,
                   calls=mode.calls // per_forward, matmul_seconds=mode.seconds / per_forward,
                   native_calls=sum(1 for w in caught if "runs natively" in str(w.message)) // per_forward)
        if args.device.startswith("cuda"):
            a = native.detach().contiguous().view(-1).view(torch.int16)
            b = emulated.detach().contiguous().view(-1).view(torch.int16)
            row["equal_to_native"] = bool(torch.equal(a, b))
        rows.append(row)
    write_json(args.out, {"rows": rows, "torch": torch.__version__, "transformers": transformers_version,
                          "mmaemu": mmaemu.__version__, "python": platform.python_version(),
                          "threads": torch.get_num_threads()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
