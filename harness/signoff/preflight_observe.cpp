// What preflight observes: this build (from CMake), git, and in a CUDA build the GPU and the software
// stack. The GPU facts come from the recorder's collect_provenance(), the very function that wrote the
// recorded values, so that both sides are spelled alike ("9.0", "580.159.04", "130100"); only what it
// does not report (memory, the cuBLASLt file) is asked here.
#include <sstream>

#include "harness/core/host_info.hpp"
#include "harness/tiers/run_info.hpp"
#include "harness/signoff/preflight.hpp"
#include "harness/signoff/process.hpp"

#ifdef MMAEMU_HAVE_CUDA
#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include "harness/cublaslt/lt_loader.hpp"
#include "harness/record/gpu_run.hpp"
#include "harness/record/provenance.hpp"
#include "kernels/cuda/cuda_device.hpp"
#endif

#ifndef MMAEMU_SIGNOFF_BUILD_TYPE
#define MMAEMU_SIGNOFF_BUILD_TYPE ""
#define MMAEMU_SIGNOFF_CXX_FLAGS ""
#define MMAEMU_SIGNOFF_CUDA_FLAGS ""
#define MMAEMU_SIGNOFF_CUDA_GENCODE ""
#define MMAEMU_SIGNOFF_SOURCE_DIR ""
#define MMAEMU_SIGNOFF_CONFIGURED_COMMIT "unknown"
#endif

namespace mmaemu::signoff {
namespace fs = std::filesystem;

namespace {

// The gencode flags as CMake passes them: separated by spaces.
std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  std::string item;
  while (s >> item) out.push_back(item);
  return out;
}

std::string build_flags(const BuildFacts& b) {
  std::string s = (b.build_type.empty() ? "(no build type)" : b.build_type) + ": C++ [" + b.cxx_flags + "]";
  if (b.with_cuda) {
    s += "; CUDA [" + b.cuda_flags + "]";
    for (const std::string& g : b.cuda_gencode) s += " " + g;
  }
  return s;
}

// `git status --porcelain` with untracked files: an untracked source compiled into the build is as
// much a difference from the commit as a modified one.
Observation worktree(const fs::path& dir) {
  if (const char* c = std::getenv("MMAEMU_SOURCE_COMMIT"); c && *c) {
    const std::string commit = c;
    if (commit.size() > 6 && commit.compare(commit.size() - 6, 6, "-dirty") == 0) return Observation::seen("modified");
    return Observation::not_available("MMAEMU_SOURCE_COMMIT is set: this tree is a copy and git cannot tell");
  }
  const ProgramOutput out = run_program({"git", "-C", dir.string(), "status", "--porcelain"}, dir, 60);
  if (!out.ran || out.exit_code != 0)
    return Observation::not_available("git status failed in " + dir.string() + (out.error.empty() ? "" : ": " + out.error));
  std::stringstream lines(out.output);
  std::string line;
  std::vector<std::string> changed;
  while (std::getline(lines, line))
    if (!line.empty()) changed.push_back(line);
  if (changed.empty()) return Observation::seen("clean");
  std::string s = std::to_string(changed.size()) + " changed:";
  for (size_t i = 0; i < changed.size() && i < 5; ++i) s += " '" + changed[i] + "'";
  if (changed.size() > 5) s += " ...";
  return Observation::seen(s);
}

Observation commit(const fs::path& dir) {
  const std::string head = git_commit(dir);  // MMAEMU_SOURCE_COMMIT first, as every report
  if (head == "unknown") return Observation::not_available("no git commit at " + dir.string());
  Observation o = Observation::seen(head);
  // Not a failure (CMake configures once, the commit moves on), but worth a line in the report.
  const std::string configured = this_build().configured_commit;
  if (configured != "unknown" && configured.substr(0, 40) != head.substr(0, 40))
    o.note = "this build was configured at " + configured;
  return o;
}

#ifdef MMAEMU_HAVE_CUDA
void observe_gpu(ObservedEnvironment& env) {
  const record::Provenance p = record::collect_provenance(0, "mmaemu signoff", "-");
  const auto from_provenance = [&](const char* check, const char* key, const std::string& why_absent) {
    const std::string v = p.get(key);
    env[check] = v.empty() || v == "unknown" ? Observation::not_available(why_absent) : Observation::seen(v);
  };
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) cudaGetLastError();
  const std::string no_device = kernels::no_cuda_device_reason(e);
  from_provenance("gpu_name", "gpu", no_device);
  from_provenance("compute_capability", "compute_capability", no_device);
  from_provenance("sm_count", "sm_count", no_device);
  cudaDeviceProp prop{};
  if (count > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    env["gpu_memory"] = Observation::seen(std::to_string(prop.totalGlobalMem >> 20) + " MiB");
  else
    env["gpu_memory"] = Observation::not_available(no_device);
  from_provenance("driver", "driver", "driver version unknown (neither NVML nor nvidia-smi answered)");
  from_provenance("cuda_runtime", "cuda_runtime", "cudaRuntimeGetVersion failed");
  from_provenance("cublaslt_version", "cublaslt", "cublasLtGetVersion failed");
  // The file cuBLASLt was loaded from (lt_loader.hpp: on first use, so this loads it).
  const lt::CublasLtLibrary& lt_library = lt::cublaslt_library();
  env["cublaslt_file"] = lt_library.loaded ? Observation::seen(lt_library.file) : Observation::not_available(lt_library.error);
  env["cuda_compiler"] = Observation::seen(record::cuda_compiler_version());
}
#else
void observe_gpu(ObservedEnvironment& env) {
  for (const char* check : {"gpu_name", "compute_capability", "sm_count", "gpu_memory", "driver", "cuda_runtime",
                            "cublaslt_version", "cublaslt_file", "cuda_compiler"})
    env[check] = Observation::not_available("built without CUDA");
}
#endif

}  // namespace

const BuildFacts& this_build() {
  static const BuildFacts facts = [] {
    BuildFacts b;
    b.build_type = MMAEMU_SIGNOFF_BUILD_TYPE;
    b.cxx_flags = MMAEMU_SIGNOFF_CXX_FLAGS;
#ifdef MMAEMU_HAVE_CUDA
    b.with_cuda = true;
#endif
    b.cuda_flags = MMAEMU_SIGNOFF_CUDA_FLAGS;
    b.cuda_gencode = split_words(MMAEMU_SIGNOFF_CUDA_GENCODE);
    b.source_dir = MMAEMU_SIGNOFF_SOURCE_DIR;
    b.configured_commit = MMAEMU_SIGNOFF_CONFIGURED_COMMIT;
    return b;
  }();
  return facts;
}

ObservedEnvironment observe_environment(const fs::path& source_dir) {
  const fs::path dir = source_dir.empty() ? this_build().source_dir : source_dir;
  ObservedEnvironment env;
  observe_gpu(env);
  env["compiler"] = Observation::seen(host_compiler());
  env["build_flags"] = Observation::seen(build_flags(this_build()));
  env["commit"] = commit(dir);
  env["clean_worktree"] = worktree(dir);
  return env;
}

}  // namespace mmaemu::signoff
