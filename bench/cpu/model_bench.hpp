// A model's forward pass natively and under mmaemu.torch.emulate (T6's `model` section): the number users
// ask first, how much slower their forward pass gets. A child Python (bench/cpu/model_rate.py) builds each
// model (the FP8 MLP example, the Llama and GPT-2 of scripts/torch_fixture/models.py in bf16) on each
// device, times its forward natively and under emulate (the cpu engine on the CPU, cuda on the GPU) and,
// on a GPU, compares the emulated logits with the native ones bit for bit. Rows are tokens per second;
// an emulated row carries its slowdown over the native one. Where the interpreter lacks torch, mmaemu or
// transformers, or there is no GPU for PyTorch, the rows are skipped with the reason.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/cpu/dot_bench.hpp"
#include "bench/sample_stats.hpp"

namespace mmaemu::bench {

struct ModelBenchOptions {
  std::vector<std::string> models;        // model_rate.py's names: fp8-mlp, llama-bf16, gpt2-bf16
  std::vector<std::string> devices{"cpu", "cuda"};
  int repetitions = 3;                    // timed forwards per row, after one untimed
  std::string python = "python3";         // MMAEMU_PYTHON overrides it; it must import torch and mmaemu
  std::filesystem::path script;           // bench/cpu/model_rate.py
  std::filesystem::path scratch;
  double timeout_seconds = 1800;          // per device
};

struct ModelRow {
  std::string model, device, mode;  // mode: "native" or "emulate:<backend>"
  std::string status, reason;       // "measured", "skipped", "error"
  size_t tokens = 0;                // per forward
  std::vector<double> seconds;      // per forward
  std::optional<SampleStats> rate;  // tokens per second
  size_t calls = 0, native_calls = 0;  // emulated rows: matmul-family calls per forward, those run natively
  double matmul_seconds = 0;        // emulated rows: the calls' share of a forward
  std::optional<bool> equal_to_native;  // emulated rows on a GPU: logits bit for bit
  std::optional<double> slowdown;   // emulated rows: median seconds over the native row's
  std::string versions;

  std::string key() const;  // "model/llama-bf16/cuda/emulate:cuda"
};

std::vector<ModelRow> run_model_bench(const ModelBenchOptions& options, const BenchProgress& progress);

}  // namespace mmaemu::bench
