// cuBLASLt's entry points, forwarded to the library opened on first use (why: lt_loader.hpp).
//
// The definitions below use cublasLt.h's declarations, so the compiler checks every signature against the
// headers this build uses. They are hidden: the module that links this file (the `mmaemu` program, the
// Python module) binds its own calls to them, and neither exports them to a process that loads another
// cuBLASLt (PyTorch's) beside it. Only the functions the project calls are here; a new call to cuBLASLt
// fails to link until it is added. The headers cublasLt.h includes come first, outside the hidden region,
// so that only cuBLASLt's own declarations are hidden.
#include <cublas_api.h>
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#pragma GCC visibility push(hidden)
#include <cublasLt.h>
#pragma GCC visibility pop

#include "harness/cublaslt/lt_loader.hpp"

namespace mmaemu::lt {
namespace {

struct Loaded {
  void* handle = nullptr;
  CublasLtLibrary library;
};

std::vector<std::string> candidates() {
  // A file the user names is the only candidate: another library there might give other bits.
  if (const char* file = std::getenv("MMAEMU_CUBLASLT"); file && *file) return {file};
  std::vector<std::string> files;
  const std::string soname = "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
  files.push_back(soname);
#ifdef MMAEMU_CUBLASLT_TOOLKIT_DIR
  files.push_back(std::string(MMAEMU_CUBLASLT_TOOLKIT_DIR) + "/" + soname);
#endif
  return files;
}

const Loaded& loaded() {
  static const Loaded state = [] {
    Loaded s;
    for (const std::string& file : candidates()) {
      s.handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (s.handle) break;
      const char* why = ::dlerror();
      s.library.error += (s.library.error.empty() ? "" : "; ") + std::string(why ? why : file + ": not loadable");
    }
    if (!s.handle) {
      s.library.error = "cuBLASLt could not be loaded: " + s.library.error;
      return s;
    }
    s.library.loaded = true;
    s.library.error.clear();
    Dl_info info{};
    void* any = ::dlsym(s.handle, "cublasLtGetVersion");
    if (any && ::dladdr(any, &info) != 0 && info.dli_fname) {
      std::error_code ec;
      const std::filesystem::path real = std::filesystem::canonical(info.dli_fname, ec);
      s.library.file = ec ? info.dli_fname : real.string();
    }
    return s;
  }();
  return state;
}

// The library's definition of `name`, or nullptr when cuBLASLt is not loaded or lacks it.
template <typename Fn>
Fn* entry(const char* name) {
  const Loaded& s = loaded();
  return s.handle ? reinterpret_cast<Fn*>(::dlsym(s.handle, name)) : nullptr;
}

}  // namespace

const CublasLtLibrary& cublaslt_library() { return loaded().library; }

}  // namespace mmaemu::lt

// One forwarding definition per entry point: the library's function when there is one, else what the
// caller's error path expects (a status that is not success, a version of 0, a message saying why).
#define MMAEMU_LT_ENTRY(name, params, args)                                                      \
  cublasStatus_t CUBLASWINAPI name params {                                                      \
    static auto* const fn = mmaemu::lt::entry<decltype(::name)>(#name);                         \
    return fn ? fn args : CUBLAS_STATUS_NOT_INITIALIZED;                                          \
  }

extern "C" {

MMAEMU_LT_ENTRY(cublasLtCreate, (cublasLtHandle_t * handle), (handle))
MMAEMU_LT_ENTRY(cublasLtDestroy, (cublasLtHandle_t handle), (handle))
MMAEMU_LT_ENTRY(cublasLtMatmul,
                (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* A,
                 cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc, const void* beta,
                 const void* C, cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                 const cublasLtMatmulAlgo_t* algo, void* workspace, size_t workspaceSize, cudaStream_t stream),
                (handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo, workspace,
                 workspaceSize, stream))
MMAEMU_LT_ENTRY(cublasLtMatmulAlgoGetHeuristic,
                (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t Adesc,
                 cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                 cublasLtMatmulPreference_t preference, int requested, cublasLtMatmulHeuristicResult_t results[],
                 int* returned),
                (handle, desc, Adesc, Bdesc, Cdesc, Ddesc, preference, requested, results, returned))
MMAEMU_LT_ENTRY(cublasLtMatmulAlgoConfigGetAttribute,
                (const cublasLtMatmulAlgo_t* algo, cublasLtMatmulAlgoConfigAttributes_t attr, void* buf,
                 size_t size, size_t* written),
                (algo, attr, buf, size, written))
MMAEMU_LT_ENTRY(cublasLtMatmulAlgoConfigSetAttribute,
                (cublasLtMatmulAlgo_t * algo, cublasLtMatmulAlgoConfigAttributes_t attr, const void* buf,
                 size_t size),
                (algo, attr, buf, size))
MMAEMU_LT_ENTRY(cublasLtMatmulDescCreate,
                (cublasLtMatmulDesc_t * desc, cublasComputeType_t compute, cudaDataType_t scale),
                (desc, compute, scale))
MMAEMU_LT_ENTRY(cublasLtMatmulDescDestroy, (cublasLtMatmulDesc_t desc), (desc))
MMAEMU_LT_ENTRY(cublasLtMatmulDescSetAttribute,
                (cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, const void* buf, size_t size),
                (desc, attr, buf, size))
MMAEMU_LT_ENTRY(cublasLtMatmulPreferenceCreate, (cublasLtMatmulPreference_t * pref), (pref))
MMAEMU_LT_ENTRY(cublasLtMatmulPreferenceDestroy, (cublasLtMatmulPreference_t pref), (pref))
MMAEMU_LT_ENTRY(cublasLtMatmulPreferenceSetAttribute,
                (cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                 size_t size),
                (pref, attr, buf, size))
MMAEMU_LT_ENTRY(cublasLtMatrixLayoutCreate,
                (cublasLtMatrixLayout_t * layout, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld),
                (layout, type, rows, cols, ld))
MMAEMU_LT_ENTRY(cublasLtMatrixLayoutDestroy, (cublasLtMatrixLayout_t layout), (layout))
MMAEMU_LT_ENTRY(cublasLtMatrixLayoutSetAttribute,
                (cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr, const void* buf,
                 size_t size),
                (layout, attr, buf, size))

size_t CUBLASWINAPI cublasLtGetVersion(void) {
  static auto* const fn = mmaemu::lt::entry<decltype(::cublasLtGetVersion)>("cublasLtGetVersion");
  return fn ? fn() : 0;
}

const char* CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t status) {
  static auto* const fn = mmaemu::lt::entry<decltype(::cublasLtGetStatusName)>("cublasLtGetStatusName");
  return fn ? fn(status) : "CUBLASLT_NOT_LOADED";
}

const char* CUBLASWINAPI cublasLtGetStatusString(cublasStatus_t status) {
  static auto* const fn = mmaemu::lt::entry<decltype(::cublasLtGetStatusString)>("cublasLtGetStatusString");
  return fn ? fn(status) : mmaemu::lt::cublaslt_library().error.c_str();
}

}  // extern "C"
