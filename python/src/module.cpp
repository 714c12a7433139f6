// mmaemu._mmaemu: the harness API (harness/api) for Python. Each function takes raw-bit arrays and
// strings, releases the GIL while it computes, and raises mmaemu.InputError (a ValueError) with the
// message the command line prints for its exit-2 errors, or mmaemu.KernelError when a backend fails.
// The public functions, with float dtypes, torch tensors and defaults, are in mmaemu/__init__.py.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "harness/api/compute.hpp"
#include "harness/api/info.hpp"
#include "harness/api/library.hpp"
#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_resolver.hpp"
#include "python/src/arrays.hpp"

#if defined(MMAEMU_HAVE_CUDA)
#include <cuda_runtime_api.h>
#define MMAEMU_PYTHON_CUDA true
#else
#define MMAEMU_PYTHON_CUDA false
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace mmaemu::python {
namespace {

std::optional<api::Operand> optional_operand(const std::optional<HostArray>& a, const char* name) {
  if (!a) return std::nullopt;
  return operand(*a, name);
}

api::ComputeRequest compute_request(const std::string& arch, const std::string& instr, const HostArray& a,
                                    const HostArray& b, const HostArray& c, const std::optional<HostArray>& scale_a,
                                    const std::optional<HostArray>& scale_b, const std::string& backend) {
  api::ComputeRequest r;
  r.arch = arch;
  r.instr = instr;
  r.backend = backend;
  api::find_instruction(arch, instr);  // the options' errors first, as on the command line
  r.a = operand(a, "a");
  r.b = operand(b, "b");
  r.c = operand(c, "c");
  r.scale_a = optional_operand(scale_a, "scale_a");
  r.scale_b = optional_operand(scale_b, "scale_b");
  return r;
}

nb::tuple mma(const std::string& arch, const std::string& instr, const HostArray& a, const HostArray& b,
              const HostArray& c, const std::optional<HostArray>& scale_a, const std::optional<HostArray>& scale_b,
              const std::string& backend) {
  const api::ComputeRequest r = compute_request(arch, instr, a, b, c, scale_a, scale_b, backend);
  api::ComputeResult out;
  {
    nb::gil_scoped_release unlocked;
    out = api::mma(r);
  }
  return nb::make_tuple(to_numpy(std::move(out.d)), out.run.info.backend);
}

nb::tuple gemm(const std::string& arch, const std::string& instr, const HostArray& a, const HostArray& b,
               const HostArray& c, const std::optional<HostArray>& scale_a, const std::optional<HostArray>& scale_b,
               const std::string& backend, bool trace) {
  api::ComputeRequest r = compute_request(arch, instr, a, b, c, scale_a, scale_b, backend);
  r.trace = trace;
  api::ComputeResult out;
  {
    nb::gil_scoped_release unlocked;
    out = api::gemm(r);
  }
  nb::object steps = nb::none();
  if (trace) steps = nb::cast(to_numpy(std::move(out.trace)));
  return nb::make_tuple(to_numpy(std::move(out.d)), steps, out.run.info.backend);
}

api::LibraryCallOptions call_options(const std::string& library, const std::string& a_type, const std::string& b_type,
                                     const std::string& d_type, float alpha, float beta, const std::string& scale_a,
                                     const std::string& scale_b, bool fast_accum, const std::string& layout,
                                     std::optional<size_t> workspace, const std::string& resolver, const std::string& torch_op,
                                     std::optional<double> min_certainty) {
  api::LibraryCallOptions o;
  o.library = library;
  o.a_type = a_type;
  o.b_type = b_type;
  o.d_type = d_type;
  o.alpha = alpha;
  o.beta = beta;
  o.scale_a = scale_a;
  o.scale_b = scale_b;
  o.fast_accum = fast_accum;
  o.layout = layout;
  o.workspace = workspace;
  o.resolver = resolver;
  o.torch_op = torch_op;
  o.min_certainty = min_certainty;
  return o;
}

nb::ndarray<nb::numpy> library_gemm(const HostArray& a, const HostArray& b, const HostArray& c,
                                    const api::LibraryCallOptions& options, const std::optional<std::string>& config,
                                    const std::string& engine) {
  api::LibraryRequest r;
  r.call = options;
  r.engine = engine;
  if (config) r.config = lt::algo_from_json(nlohmann::json::parse(*config), "algo");
  r.a = operand(a, options.torch_op.empty() ? "a" : "mat1");
  r.b = operand(b, options.torch_op.empty() ? "b" : "mat2");
  r.c = operand(c, "c");
  NpyArray d;
  {
    nb::gil_scoped_release unlocked;
    d = options.torch_op.empty() ? api::library_gemm(r) : api::torch_gemm(r);
  }
  return to_numpy(std::move(d));
}

#if defined(MMAEMU_HAVE_CUDA)
using DeviceIn = nb::ndarray<nb::ro, nb::c_contig, nb::device::cuda>;
using DeviceOut = nb::ndarray<nb::c_contig, nb::device::cuda>;

template <class Array>
api::DeviceArray device_operand(const Array& x, const char* name) {
  const auto dt = x.dtype();
  const bool integer = dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::UInt) ||
                       dt.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Int);
  if (!integer || dt.lanes != 1)
    throw InputError(name, "needs raw bits (integers) on the CUDA device");
  api::DeviceArray a{const_cast<void*>(static_cast<const void*>(x.data())), dt.bits / 8, {}, name};
  for (size_t i = 0; i < x.ndim(); ++i) a.shape.push_back(x.shape(i));
  return a;
}

std::optional<api::DeviceArray> optional_device(const std::optional<DeviceIn>& x, const char* name) {
  if (!x) return std::nullopt;
  return device_operand(*x, name);
}

std::string instruction_cuda(bool single, const std::string& arch, const std::string& instr, const DeviceIn& a,
                             const DeviceIn& b, const DeviceIn& c, const DeviceOut& d,
                             const std::optional<DeviceIn>& scale_a, const std::optional<DeviceIn>& scale_b,
                             const std::string& backend) {
  api::DeviceComputeRequest r;
  r.arch = arch;
  r.instr = instr;
  r.backend = backend;
  api::find_instruction(arch, instr);  // the options' errors first, as on the command line
  r.a = device_operand(a, "a");
  r.b = device_operand(b, "b");
  r.c = device_operand(c, "c");
  r.d = device_operand(d, "out");
  r.scale_a = optional_device(scale_a, "scale_a");
  r.scale_b = optional_device(scale_b, "scale_b");
  if (cudaSetDevice(a.device_id()) != cudaSuccess) throw kernels::KernelError("cudaSetDevice failed");
  nb::gil_scoped_release unlocked;
  return single ? api::mma_on_device(r) : api::gemm_on_device(r);
}

void library_gemm_cuda(const DeviceIn& a, const DeviceIn& b, const DeviceIn& c, const DeviceOut& d,
                       const api::LibraryCallOptions& options, const std::optional<std::string>& config) {
  const bool torch = !options.torch_op.empty();
  std::optional<lt::LtAlgoConfig> algo;
  if (config) algo = lt::algo_from_json(nlohmann::json::parse(*config), "algo");
  const api::DeviceArray A = device_operand(a, torch ? "mat1" : "a"), B = device_operand(b, torch ? "mat2" : "b"),
                         C = device_operand(c, torch ? "input" : "c"), D = device_operand(d, "out");
  if (cudaSetDevice(a.device_id()) != cudaSuccess) throw kernels::KernelError("cudaSetDevice failed");
  nb::gil_scoped_release unlocked;
  api::library_gemm_on_device(options, algo, A, B, C, D);
}
#endif

}  // namespace
}  // namespace mmaemu::python

NB_MODULE(_mmaemu, m) {
  using namespace mmaemu;
  using namespace mmaemu::python;
  m.doc() = "mmaemu's harness API: raw-bit arrays in, raw-bit NumPy arrays out (see the mmaemu package)";
  static nb::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static nb::exception<kernels::KernelError> kernel_error(m, "KernelError", PyExc_RuntimeError);
  // What the command line maps onto exit status 2 is an InputError here too.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ref::UnsupportedInstruction& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    }
  });

  nb::class_<api::LibraryCallOptions>(m, "LibraryCall")
      .def(nb::new_(&call_options), "library"_a, "a_type"_a, "b_type"_a, "d_type"_a, "alpha"_a, "beta"_a,
           "scale_a"_a, "scale_b"_a, "fast_accum"_a, "layout"_a, "workspace"_a.none(), "resolver"_a, "torch_op"_a,
           "min_certainty"_a.none() = nb::none())
      .def_rw("bias", &api::LibraryCallOptions::bias)
      .def_rw("mat2_transposed", &api::LibraryCallOptions::mat2_transposed)
      .def_rw("mat1_transposed", &api::LibraryCallOptions::mat1_transposed)
      .def_rw("batch", &api::LibraryCallOptions::batch)
      .def_rw("calls", &api::LibraryCallOptions::calls)
      .def_rw("force_capture", &api::LibraryCallOptions::force_capture)
      .def_rw("rows", &api::LibraryCallOptions::rows);

  m.def("mma", &mma, "arch"_a, "instr"_a, "a"_a, "b"_a, "c"_a, "scale_a"_a.none(), "scale_b"_a.none(), "backend"_a,
        "D [T, M, N] of one instruction over T tiles, and the backend that ran: (d, backend)");
  m.def("gemm", &gemm, "arch"_a, "instr"_a, "a"_a, "b"_a, "c"_a, "scale_a"_a.none(), "scale_b"_a.none(), "backend"_a,
        "trace"_a, "D of a GEMM as the architecture's MMA loop computes it: (d, trace or None, backend)");
  m.def("library_gemm", &library_gemm, "a"_a, "b"_a, "c"_a, "call"_a, "config"_a.none(), "engine"_a,
        "D of a library call (the library's A [M, K], B [K, N], C [M, N]; or, for a torch call, torch's mat1, "
        "mat2 and input) as the library profile's model computes it; config: a configuration as JSON, None for "
        "the resolver's");
#if defined(MMAEMU_HAVE_CUDA)
  m.def("library_gemm_cuda", &library_gemm_cuda, "a"_a, "b"_a, "c"_a, "out"_a, "call"_a, "config"_a.none(),
        "library_gemm on the GPU engine with every array on the CUDA device (no copy to the host): D into out");
  m.def("mma_cuda", [](const std::string& arch, const std::string& instr, const DeviceIn& a, const DeviceIn& b,
                       const DeviceIn& c, const DeviceOut& out, const std::optional<DeviceIn>& scale_a,
                       const std::optional<DeviceIn>& scale_b, const std::string& backend) {
          return instruction_cuda(true, arch, instr, a, b, c, out, scale_a, scale_b, backend);
        }, "arch"_a, "instr"_a, "a"_a, "b"_a, "c"_a, "out"_a, "scale_a"_a.none(), "scale_b"_a.none(), "backend"_a,
        "mma with every array on the CUDA device (no copy to the host): D into out; returns the backend");
  m.def("gemm_cuda", [](const std::string& arch, const std::string& instr, const DeviceIn& a, const DeviceIn& b,
                        const DeviceIn& c, const DeviceOut& out, const std::optional<DeviceIn>& scale_a,
                        const std::optional<DeviceIn>& scale_b, const std::string& backend) {
          return instruction_cuda(false, arch, instr, a, b, c, out, scale_a, scale_b, backend);
        }, "arch"_a, "instr"_a, "a"_a, "b"_a, "c"_a, "out"_a, "scale_a"_a.none(), "scale_b"_a.none(), "backend"_a,
        "gemm with every array on the CUDA device (no copy to the host): D into out; returns the backend");
#endif
  m.attr("built_with_cuda") = MMAEMU_PYTHON_CUDA;
  // The certainty strict calls require of the resolver's answer (lt::kCertaintyGate).
  m.attr("certainty_gate") = lt::kCertaintyGate;
  m.def("resolve", [](const api::LibraryCallOptions& call, size_t m_, size_t n, size_t k) {
          return api::resolve(call, m_, n, k).dump();
        }, "call"_a, "m"_a, "n"_a, "k"_a, "The configuration the profile's heuristic picks, as JSON text");
  m.def("arithmetic", [](const api::LibraryCallOptions& call, size_t m_, size_t n, size_t k, const std::string& config) {
          return api::arithmetic(call, m_, n, k, lt::algo_from_json(nlohmann::json::parse(config), "config")).dump();
        }, "call"_a, "m"_a, "n"_a, "k"_a, "config"_a,
        "What the library model computes for the call under a configuration (JSON text: arithmetic or decline)");
  m.def("instruction", [](const std::string& arch, const std::string& instr) {
          const ref::Instruction& in = api::find_instruction(arch, instr).instr;
          nb::dict d;
          d["name"] = in.name;
          d["m"] = in.m;
          d["n"] = in.n;
          d["k"] = in.k;
          for (const auto& [role, f] : {std::pair{"a", in.a}, {"b", in.b}, {"c", in.c}, {"d", in.d}})
            d[role] = std::string(ref::format_name(f));
          if (in.scale) {
            d["scale"] = std::string(ref::format_name(in.scale->format));
            d["scale_block"] = in.scale->block;
          }
          return d;
        }, "arch"_a, "instr"_a, "The instruction's shape and its operands' formats, as a dict");
  m.def("info", [](const std::optional<std::string>& arch, bool every_n) { return api::info(arch, every_n).dump(); },
        "arch"_a.none(), "every_n"_a, "What `mmaemu info` says, as JSON text");
}
