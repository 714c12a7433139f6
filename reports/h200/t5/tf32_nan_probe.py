"""What an fp32 NaN whose payload lies only in the 13 low bits (the bits tf32 drops) becomes in a tf32
matmul on this GPU: NaN (the conversion keeps it a NaN) or Inf (the tensor core reads the pattern's
top bits only). Runs PyTorch's matmul, which calls the cuBLAS of PyTorch's own wheel: evidence of
that library's kernels on this GPU, not of the cuBLASLt build the library model was recorded with.
Prints one JSON object."""
import json
import torch

def f32(bits):
    signed = bits - (1 << 32) if bits >= (1 << 31) else bits
    return torch.tensor([signed], dtype=torch.int32).view(torch.float32)[0]

def hexbits(x):
    return "%08x" % (int(x.view(torch.int32).item()) & 0xFFFFFFFF)

inputs = {
    "nan_low_payload_pos": 0x7F801DD1,
    "nan_low_payload_neg": 0xFF800C0F,
    "nan_low_payload_one": 0x7F800001,
    "nan_high_payload": 0x7FC00000,
    "inf": 0x7F800000,
}
out = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0),
       "cublas": getattr(torch.backends.cuda, "cublas_version", lambda: None)() if hasattr(torch.backends.cuda, "cublas_version") else None,
       "results": []}
for tf32 in (True, False):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    for name, bits in inputs.items():
        for m, n, k in [(64, 64, 64), (256, 256, 256), (1024, 1024, 1024)]:
            a = torch.zeros(m, k, dtype=torch.float32)
            a[0, 0] = f32(bits)
            b = torch.ones(k, n, dtype=torch.float32)
            d = (a.cuda() @ b.cuda()).cpu()
            out["results"].append({"allow_tf32": tf32, "input": name, "a00": "%08x" % bits, "shape": [m, n, k],
                                   "d00": hexbits(d[0, 0]), "d01": hexbits(d[0, 1]), "d10": hexbits(d[1, 0])})
print(json.dumps(out, indent=1))
