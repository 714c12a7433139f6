#include "harness/cli/library_call_options.hpp"

#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::cli {

void add_library_call_options(CLI::App* cmd, api::LibraryCallOptions& o, CLI::Option* needs) {
  auto need = [&](CLI::Option* opt) { return needs ? opt->needs(needs) : opt; };
  need(cmd->add_option("--a-type", o.a_type, "The library's A type (bf16 fp16 tf32 fp32 e4m3 e5m2); with --torch: mat1's"));
  need(cmd->add_option("--b-type", o.b_type, "The library's B type; with --torch: mat2's"));
  need(cmd->add_option("--d-type", o.d_type, "C's and D's type (bf16 fp16 fp32)"));
  need(cmd->add_option("--alpha", o.alpha, "alpha (default 1)"));
  need(cmd->add_option("--beta", o.beta, "beta (default 0)"));
  need(cmd->add_flag("--fast-accum", o.fast_accum, "FP8: CUBLASLT_MATMUL_DESC_FAST_ACCUM"));
  need(cmd->add_option("--layout", o.layout, "The layout the library sees: TN (default), NN or NT"));
  need(cmd->add_option("--workspace", o.workspace, "The workspace limit the heuristic plans for, bytes (default 32 MiB; with --torch, torch's: 1 MiB for scaled_mm)"));
  need(cmd->add_flag("--bias", o.bias, "cuBLASLt's bias epilogue: C is the bias vector broadcast along D's rows, with --beta 1 (with --torch addmm or linear: the input is, and the epilogue is taken where torch takes it)"));
  need(cmd->add_flag("--mat2-transposed", o.mat2_transposed, "--torch matmul or addmm: mat2 is a transposed view (the library sees TN)"));
  need(cmd->add_flag("--mat1-transposed", o.mat1_transposed, "--torch matmul or addmm: mat1 is a transposed view (the library sees NT)"));
  need(cmd->add_option("--batch", o.batch, "--torch matmul or addmm: one product of a strided batched call of this many (torch.bmm, baddbmm)"));
  need(cmd->add_option("--calls", o.calls,
                       "A capture of a model's calls (mmaemu-capture/1): a call found there takes the configuration "
                       "cuBLASLt ran for it; one not found the resolver's answer, with a warning (--strict: refused)")
           ->check(CLI::ExistingFile));
  need(cmd->add_flag("--force-capture", o.force_capture,
                     "--calls: take a capture made with another library build or SM count than the profile's (warned)"));
  need(cmd->add_option("--resolver", o.resolver, "The profile's resolver (default: the H200's, in this source tree)"));
  need(cmd->add_option("--min-certainty", o.min_certainty,
                       "--algo auto: refuse a call whose resolved configuration is less sure than this (0 ... 1)")
           ->check(CLI::Range(0.0, 1.0)));
  need(cmd->add_flag_callback(
      "--strict", [&o] { o.min_certainty = lt::kCertaintyGate; },
      "--algo auto: refuse a call whose resolved configuration is not certain (the resolver's gate, 99%); "
      "without it such a call is answered with a warning"));
  o.resolver = api::default_resolver().string();
}

}  // namespace mmaemu::cli
