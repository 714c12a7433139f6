// The GPU part of T6 in a build without CUDA: it skips, saying why.
#include "bench/t6/gemm_section.hpp"

namespace mmaemu::t6 {

GemmSectionResult run_gemm_section(const GemmSpec&, const std::string&, const bench::BenchProgress&) {
  GemmSectionResult r;
  r.skipped = "this build of mmaemu has no CUDA (the GEMM benchmark needs it)";
  return r;
}

bench::NativeLibraryTimer native_library_timer() {
  return [](ref::FormatId, const kernels::GemmShape&) {
    bench::NativeLibraryRate r;
    r.why = "this build of mmaemu has no CUDA (cuBLASLt needs it)";
    return r;
  };
}

}  // namespace mmaemu::t6
