// A GEMM problem's arrays on the device in their native widths (uint8 for FP8, uint16 for 16-bit
// formats, uint32 for fp32 / tf32 patterns), as the v4 and tc kernels read and write them: the host's
// 32-bit-widened arrays are narrowed on upload and widened back on download, and D and the trace are
// poisoned before the run and checked after it (see cuda_device.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"

namespace mmaemu::kernels {

template <class T>
DeviceBuffer<T> upload_narrowed(const uint32_t* host, size_t count) {
  std::vector<T> narrow(host, host + count);  // the raw patterns fit their storage width
  DeviceBuffer<T> dev(count);
  dev.upload(narrow.data());
  return dev;
}

// Downloads `dev` into the host's 32-bit array. An all-ones pattern of the native width is the poison
// (never a result: NaN results are canonical, sign clear) and widens to kPoison for check_written.
template <class T>
void download_widened(const DeviceBuffer<T>& dev, uint32_t* host) {
  std::vector<T> narrow(dev.size());
  dev.download(narrow.data());
  for (size_t i = 0; i < narrow.size(); ++i)
    host[i] = narrow[i] == static_cast<T>(~T{0}) ? kPoison : static_cast<uint32_t>(narrow[i]);
}

template <class Operand, class Acc>
struct NativeGemmBuffers {
  DeviceBuffer<Operand> A, B;
  DeviceBuffer<Acc> C, D, trace;

  NativeGemmBuffers(const GemmProblem& p, size_t steps)
      : A(upload_narrowed<Operand>(p.A, a_count(p.shape))),
        B(upload_narrowed<Operand>(p.B, b_count(p.shape))),
        C(upload_narrowed<Acc>(p.C, c_count(p.shape))),
        D(c_count(p.shape)),
        trace(p.trace ? c_count(p.shape) * steps : 0) {
    D.fill_bytes(0xFF);
    trace.fill_bytes(0xFF);
  }

  // D (and the trace) back to the host; KernelError for the first output the kernel left unwritten.
  void finish(const GemmProblem& p, size_t steps, const std::string& backend) const {
    download_widened(D, p.D);
    check_written(p.D, p.shape, 1, (backend + ": output").c_str());
    if (p.trace) {
      download_widened(trace, p.trace);
      check_written(p.trace, p.shape, steps, (backend + ": trace of output").c_str());
    }
  }
};

}  // namespace mmaemu::kernels
