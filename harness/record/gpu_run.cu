#include "harness/record/gpu_run.hpp"

#include <cuda_runtime_api.h>

#include <cstring>

#include "harness/record/kernel_table.hpp"
#include "kernels/cuda/cuda_device.hpp"

namespace mmaemu::record {
namespace {

std::string cuda_error(const char* what, cudaError_t e) {
  return std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

// A device allocation freed however the run ends.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  cudaError_t allocate(size_t bytes) { return cudaMalloc(&ptr_, bytes); }
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

// Contract arrays travel widened to 32-bit words on the host (8-byte elements as two words, low first:
// already their little-endian image); the device gets the storage width.
std::vector<uint8_t> narrow(const std::vector<uint32_t>& values, int bytes) {
  const int step = bytes == 8 ? 4 : bytes;
  std::vector<uint8_t> out(values.size() * step);
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&out[i * step], &values[i], step);  // little-endian
  return out;
}

std::vector<uint32_t> widen(const std::vector<uint8_t>& raw, int bytes) {
  const int step = bytes == 8 ? 4 : bytes;
  std::vector<uint32_t> out(raw.size() / step, 0);
  for (size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], &raw[i * step], step);
  return out;
}

}  // namespace

std::optional<GpuDevice> open_device(int index, std::string* error) {
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess || count == 0) {
    if (e != cudaSuccess) cudaGetLastError();
    *error = kernels::no_cuda_device_reason(e);
    return std::nullopt;
  }
  if (index < 0 || index >= count) {
    *error = "CUDA device " + std::to_string(index) + " does not exist (" + std::to_string(count) + " present)";
    return std::nullopt;
  }
  if (cudaError_t e = cudaSetDevice(index); e != cudaSuccess) {
    *error = cuda_error("cudaSetDevice", e);
    return std::nullopt;
  }
  cudaDeviceProp p{};
  if (cudaError_t e = cudaGetDeviceProperties(&p, index); e != cudaSuccess) {
    *error = cuda_error("cudaGetDeviceProperties", e);
    return std::nullopt;
  }
  return GpuDevice{index, p.name, p.major, p.minor, p.multiProcessorCount};
}

bool device_has_instruction(const GpuDevice& dev, const std::string& instr, std::string* why) {
  const KernelEntry* k = find_kernel(instr);
  if (!k) {
    *why = "the recorder has no kernel for '" + instr + "'";
    return false;
  }
  if (dev.cc() < k->min_cc || (k->only_cc && dev.cc() != k->only_cc)) {
    *why = instr + " needs compute capability " + std::to_string(k->min_cc / 10) + "." +
           std::to_string(k->min_cc % 10) + (k->only_cc ? " exactly" : " or later") + "; " + dev.name + " has " +
           std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor);
    return false;
  }
  return true;
}

std::string run_on_gpu(const InstructionRecording& r, uint8_t poison_byte, std::vector<uint32_t>& d) {
  const KernelEntry* k = find_kernel(r.instr.name);
  if (!k) return "the recorder has no kernel for '" + r.instr.name + "'";
  const int ab = storage_bytes(r.instr.a), bb = storage_bytes(r.instr.b), cb = storage_bytes(r.instr.c),
            db = storage_bytes(r.instr.d);
  const auto a = narrow(r.a, ab), b = narrow(r.b, bb), c = narrow(r.c, cb);
  const size_t d_bytes = r.outputs() * db;
  DeviceBuffer da, dbuf, dc, dd;
  for (auto [buf, size] : {std::pair{&da, a.size()}, {&dbuf, b.size()}, {&dc, c.size()}, {&dd, d_bytes}})
    if (cudaError_t e = buf->allocate(size); e != cudaSuccess) return cuda_error("cudaMalloc", e);
  for (auto [buf, host] : {std::pair{&da, &a}, {&dbuf, &b}, {&dc, &c}})
    if (cudaError_t e = cudaMemcpy(buf->get(), host->data(), host->size(), cudaMemcpyHostToDevice); e != cudaSuccess)
      return cuda_error("cudaMemcpy to the device", e);
  if (cudaError_t e = cudaMemset(dd.get(), poison_byte, d_bytes); e != cudaSuccess)
    return cuda_error("cudaMemset (poisoning D)", e);
  k->launch(da.get(), dbuf.get(), dc.get(), dd.get(), r.tiles, nullptr);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return cuda_error("kernel launch", e);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_error("kernel execution", e);
  std::vector<uint8_t> raw(d_bytes);
  if (cudaError_t e = cudaMemcpy(raw.data(), dd.get(), d_bytes, cudaMemcpyDeviceToHost); e != cudaSuccess)
    return cuda_error("cudaMemcpy from the device", e);
  d = widen(raw, db);
  return "";
}

std::string cuda_compiler_version() {
  return "nvcc " + std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__) + "." +
         std::to_string(__CUDACC_VER_BUILD__);
}

}  // namespace mmaemu::record
