#include "harness/api/compute_checks.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"

#if defined(MMAEMU_HAVE_CUDA)
#include "kernels/cuda/device_words.hpp"
#endif

namespace mmaemu::api {
namespace {

// The shape-and-width view of a device array the host checks read (no values: they stay on the GPU).
Operand shape_of(const DeviceArray& x) {
  Operand o;
  o.name = x.name;
  o.array.word_bytes = x.bytes;
  o.array.shape = x.shape;
  return o;
}

ComputeRequest as_request(const DeviceComputeRequest& r) {
  ComputeRequest q;
  q.arch = r.arch;
  q.instr = r.instr;
  q.backend = r.backend;
  q.a = shape_of(r.a);
  q.b = shape_of(r.b);
  q.c = shape_of(r.c);
  if (r.scale_a) q.scale_a = shape_of(*r.scale_a);
  if (r.scale_b) q.scale_b = shape_of(*r.scale_b);
  return q;
}

size_t elements(const std::vector<size_t>& shape) {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

#if defined(MMAEMU_HAVE_CUDA)
// The named backend, or auto's first, that runs this problem from device memory.
const kernels::Backend& device_backend(const std::string& name, const ref::InstructionModel& model,
                                       const kernels::GemmShape& shape) {
  std::string declined;
  for (const kernels::Backend* b : kernels::backends()) {
    if (name != "auto" && b->name() != name) continue;
    auto why = b->declines(model, shape, false);
    if (!why) why = b->declines_device_operands();
    if (!why) return *b;
    declined += "\n  " + b->name() + ": " + std::string(why->code_name()) + ": " + why->detail;
  }
  if (declined.empty()) throw InputError("--backend", "'" + name + "': unknown backend");
  throw InputError("--backend", "no backend runs " + model.instr.name + " from device memory here:" + declined);
}

std::string run_on_device(const DeviceComputeRequest& r, const CheckedRequest& checked) {
  const ref::Instruction& in = checked.model->instr;
  for (const auto& [x, f] : {std::pair{&r.a, in.a}, {&r.b, in.b}, {&r.c, in.c}})
    if (ref::spec(f).storage_bits < 8 * storage_bytes(f))
      throw InputError(x->name, std::string(ref::format_name(f)) + " operands are given from host memory (their unused "
                                    "bits are checked where the values are read)");
  if (r.d.bytes != storage_bytes(in.d) || r.d.shape != checked.d_shape)
    throw InputError(r.d.name, "the result array must be " + std::string(ref::format_name(in.d)) + " (" +
                                   std::to_string(storage_bytes(in.d)) + "-byte elements) shaped as C");
  const kernels::Backend& backend = device_backend(r.backend, *checked.model, checked.shape);
  auto widen = [](const DeviceArray& x) {
    return kernels::widen_on_device(x.data, x.bytes, elements(x.shape), 1, false, x.name.c_str());
  };
  const auto A = widen(r.a), B = widen(r.b), C = widen(r.c);
  kernels::DeviceBuffer<uint32_t> SA, SB;
  if (r.scale_a && r.scale_b) {
    SA = widen(*r.scale_a);
    SB = widen(*r.scale_b);
  }
  const size_t outputs = elements(r.d.shape);
  kernels::DeviceBuffer<uint32_t> D(outputs * (r.d.bytes == 8 ? 2 : 1));
  kernels::GemmProblem p{checked.model, checked.shape, A.get(), B.get(), C.get(), D.get(), nullptr, SA.get(), SB.get()};
  p.on_device = true;
  const kernels::RunInfo info = backend.run(p);
  kernels::narrow_on_device(D.get(), outputs, 1, r.d.data, r.d.bytes, false);
  return info.backend;
}
#else
std::string run_on_device(const DeviceComputeRequest&, const CheckedRequest&) {
  throw kernels::KernelError("device arrays: this mmaemu was built without CUDA");
}
#endif

}  // namespace

std::string mma_on_device(const DeviceComputeRequest& r) { return run_on_device(r, check_mma(as_request(r))); }

std::string gemm_on_device(const DeviceComputeRequest& r) { return run_on_device(r, check_gemm(as_request(r))); }

}  // namespace mmaemu::api
