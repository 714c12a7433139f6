// `mmaemu gemm --library cublaslt-h200 --algo CONFIG.json` (lt::read_algo_config), and the
// configuration read given to the library model on a small call as the command does: whatever
// configuration the reader accepts must be one the model can run or refuse with an InputError.
#include "fuzz/fuzz_support.hpp"
#include "harness/cublaslt/lt_call.hpp"
#include "harness/cublaslt/lt_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("algo.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::lt::LtAlgoConfig algo = mmaemu::lt::read_algo_config(file);
    mmaemu::lt::LtCall call;
    call.a = call.b = mmaemu::ref::FormatId::bf16;
    call.c = call.d = mmaemu::ref::FormatId::fp32;
    call.M = 8;
    call.N = 8;
    call.K = 96;
    mmaemu::lt::LtOperands ops;
    ops.a.assign(call.M * call.K, 0x3f80);  // 1.0 in bf16
    ops.b.assign(call.K * call.N, 0x3f80);
    ops.c.assign(call.M * call.N, 0);
    (void)mmaemu::lt::model_d(call, algo, ops, mmaemu::kernels::LibraryEngine::reference);
    (void)mmaemu::lt::model_d(call, algo, ops, mmaemu::kernels::LibraryEngine::host);
  });
  return 0;
}
