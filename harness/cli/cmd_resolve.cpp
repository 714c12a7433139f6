// `mmaemu resolve`: the configuration a library profile's heuristic picks for a call, as JSON, without
// computing D (harness/cublaslt/lt_resolver.hpp). The call is the library's (--m --n --k, --layout),
// or a PyTorch call (--torch OP with torch's m, n, k), which is described as the library sees it.
//
//   mmaemu resolve --library cublaslt-h200 --torch matmul --a-type bf16 --b-type bf16 --d-type bf16
//                  --m 16 --n 4096 --k 4096
#include <iostream>
#include <memory>

#include "harness/api/library.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/library_call_options.hpp"
#include "harness/core/errors.hpp"

namespace mmaemu::cli {
namespace {

struct ResolveArgs {
  api::LibraryCallOptions call;
  size_t m = 0, n = 0, k = 0;
};

}  // namespace

void add_resolve(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("resolve", "Print, as JSON, the configuration a library profile's heuristic picks for a "
                                            "call (without computing D)");
  auto a = std::make_shared<ResolveArgs>();
  cmd->add_option("--library", a->call.library, "Library profile: cublaslt-h200")->required();
  cmd->add_option("--m", a->m, "M (with --torch: torch's m, the rows of mat1 and of the result)")->required();
  cmd->add_option("--n", a->n, "N (with --torch: torch's n)")->required();
  cmd->add_option("--k", a->k, "K")->required();
  cmd->add_option("--torch", a->call.torch_op,
                  "A PyTorch call (matmul, addmm, linear, scaled_mm), described as cuBLASLt sees it: the types are "
                  "mat1's and mat2's, the scale factors torch's");
  cmd->add_option("--scale-a", a->call.scale_a, "FP8: A's scale factor (with --torch: mat1's)");
  cmd->add_option("--scale-b", a->call.scale_b, "FP8: B's scale factor (with --torch: mat2's)");
  add_library_call_options(cmd, a->call, nullptr);
  cmd->callback([a, &status] {
    std::cout << api::resolve(a->call, a->m, a->n, a->k).dump(1) << "\n";
    status = kExitOk;
  });
}

}  // namespace mmaemu::cli
