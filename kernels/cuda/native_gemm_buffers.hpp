// A GEMM problem's arrays on the device in their native widths (uint8 for FP8, uint16 for 16-bit
// formats, uint32 for fp32 / tf32 patterns), as the tiled and tc kernels read and write them: the host's
// 32-bit-widened arrays are narrowed on upload and widened back on download, and D and the trace are
// poisoned before the run and checked after it (see cuda_device.hpp). D is followed by a poisoned guard
// of a tile's rows, checked too, so that a kernel writing past the end of D fails instead of passing.
// A problem whose arrays are device memory already (GemmProblem::on_device) is narrowed and widened
// on the device instead: no byte goes through the host but the guard's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_words.hpp"
#include "kernels/cuda/gemm_args.hpp"

namespace mmaemu::kernels {

template <class T>
DeviceBuffer<T> upload_narrowed(const uint32_t* host, size_t count) {
  std::vector<T> narrow(host, host + count);  // the raw patterns fit their storage width
  DeviceBuffer<T> dev(count);
  dev.upload(narrow.data());
  return dev;
}

// The same from words that are device memory (GemmProblem::on_device).
template <class T>
DeviceBuffer<T> narrowed_on_device(const uint32_t* words, size_t count) {
  DeviceBuffer<T> dev(count);
  narrow_on_device(words, count, 1, dev.get(), sizeof(T), false);
  return dev;
}

// Host or device words, as the problem says.
template <class T>
DeviceBuffer<T> native_copy(const GemmProblem& p, const uint32_t* words, size_t count) {
  return p.on_device ? narrowed_on_device<T>(words, count) : upload_narrowed<T>(words, count);
}

// Downloads the first `count` elements of `dev` into the host's 32-bit array. An all-ones pattern of the native width is the poison
// (never a result: NaN results are canonical, sign clear) and widens to kPoison for check_written.
template <class T>
void download_widened(const DeviceBuffer<T>& dev, uint32_t* host, size_t count) {
  std::vector<T> narrow(count);
  dev.download(narrow.data(), 0, count);
  for (size_t i = 0; i < narrow.size(); ++i)
    host[i] = narrow[i] == static_cast<T>(~T{0}) ? kPoison : static_cast<uint32_t>(narrow[i]);
}

// Rows of N elements after D that must keep the poison: a 64-row tile that ignores M can reach 63 rows
// past the last one.
inline constexpr size_t kGuardRows = 64;

template <class Operand, class Acc>
struct NativeGemmBuffers {
  DeviceBuffer<Operand> A, B;
  DeviceBuffer<Acc> C, D, trace;
  size_t S;  // scales per row (block-scaled instructions)
  DeviceBuffer<uint8_t> SA, SB;

  NativeGemmBuffers(const GemmProblem& p, size_t steps)
      : A(native_copy<Operand>(p, p.A, a_count(p.shape))),
        B(native_copy<Operand>(p, p.B, b_count(p.shape))),
        C(native_copy<Acc>(p, p.C, c_count(p.shape))),
        D(c_count(p.shape) + kGuardRows * p.shape.N),
        trace(p.trace ? c_count(p.shape) * steps : 0),
        S(scales_per_row(*p.model, p.shape)),
        SA(S ? native_copy<uint8_t>(p, p.SA, p.shape.batch * p.shape.M * S) : DeviceBuffer<uint8_t>()),
        SB(S ? native_copy<uint8_t>(p, p.SB, p.shape.batch * S * p.shape.N) : DeviceBuffer<uint8_t>()) {
    D.fill_bytes(0xFF);
    trace.fill_bytes(0xFF);
  }

  // The kernels' view of these buffers.
  GemmArgs<Operand, Acc> args(const GemmProblem& p, size_t steps) const {
    const GemmShape& s = p.shape;
    return {A.get(),
            B.get(),
            C.get(),
            D.get(),
            p.trace ? trace.get() : nullptr,
            static_cast<int>(s.M),
            static_cast<int>(s.N),
            static_cast<int>(s.K),
            static_cast<int>(steps),
            static_cast<int>(s.batch),
            S ? SA.get() : nullptr,
            S ? SB.get() : nullptr,
            static_cast<int>(S)};
  }

  // D (and the trace) back to the host; KernelError for the first output the kernel left unwritten, or
  // for a write past the end of D.
  void finish(const GemmProblem& p, size_t steps, const std::string& backend) const {
    const size_t outputs = c_count(p.shape);
    if (p.on_device) {
      widen_result_on_device(D.get(), sizeof(Acc), outputs, p.D);
      if (const auto at = first_unwritten_on_device(p.D, outputs))
        throw KernelError(backend + ": output " + std::to_string(*at) + " (flat index) left unwritten");
    } else {
      download_widened(D, p.D, outputs);
      check_written(p.D, p.shape, 1, (backend + ": output").c_str());
    }
    std::vector<Acc> guard(D.size() - outputs);
    D.download(guard.data(), outputs, guard.size());
    for (size_t i = 0; i < guard.size(); ++i)
      if (guard[i] != static_cast<Acc>(~Acc{0}))
        throw KernelError(backend + ": wrote past the end of D (" + std::to_string(i) + " elements after its last output)");
    if (p.trace && p.on_device) {
      widen_result_on_device(trace.get(), sizeof(Acc), trace.size(), p.trace);
      if (first_unwritten_on_device(p.trace, trace.size())) throw KernelError(backend + ": an entry of the trace left unwritten");
    } else if (p.trace) {
      download_widened(trace, p.trace, trace.size());
      check_written(p.trace, p.shape, steps, (backend + ": trace of output").c_str());
    }
  }
};

}  // namespace mmaemu::kernels
