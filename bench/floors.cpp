#include "bench/floors.hpp"

#include <cstdio>

namespace mmaemu::bench {

Ceilings ceilings_of(const DeviceFacts& dev, double bandwidth_tbs) {
  Ceilings c;
  c.memory_bytes_per_s = bandwidth_tbs * 1e12;
  c.cc_major = dev.cc_major;
  c.sm_count = dev.sm_count;
  c.sm_clock_ghz = dev.sm_clock_ghz;
  c.lane_ops_per_s = dev.sm_count * 128.0 * dev.sm_clock_ghz * 1e9;
  return c;
}

std::optional<double> tensor_macs_per_s(const Ceilings& c, ref::FormatId f) {
  if (c.cc_major != 9) return std::nullopt;
  double per_clock = 0;
  switch (f) {
    case ref::FormatId::fp16:
    case ref::FormatId::bf16: per_clock = 2048; break;
    case ref::FormatId::tf32: per_clock = 1024; break;
    case ref::FormatId::e4m3:
    case ref::FormatId::e5m2: per_clock = 4096; break;
    default: return std::nullopt;
  }
  return c.sm_count * per_clock * c.sm_clock_ghz * 1e9;
}

namespace {
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

FloorNote floor_note(const kernels::GemmShape& s, ref::FormatId a, ref::FormatId b, ref::FormatId c_format,
                     Engine engine, double measured_ms, const Ceilings& c) {
  FloorNote n;
  const double macs = static_cast<double>(s.batch) * s.M * s.N * s.K;
  n.min_bytes = static_cast<double>(kernels::a_count(s) * storage_bytes(a) + kernels::b_count(s) * storage_bytes(b) +
                                    2 * kernels::c_count(s) * storage_bytes(c_format));
  n.memory_floor_ms = n.min_bytes / c.memory_bytes_per_s * 1e3;
  if (c.lane_ops_per_s > 0 && macs > 0) n.lane_ops_per_mac = measured_ms * 1e-3 * c.lane_ops_per_s / macs;
  if (engine == Engine::tensor_cores)
    if (auto peak = tensor_macs_per_s(c, a)) n.compute_floor_ms = macs / *peak * 1e3;

  if (n.compute_floor_ms) {
    n.bound = *n.compute_floor_ms >= n.memory_floor_ms ? "compute" : "memory";
    const double floor = std::max(*n.compute_floor_ms, n.memory_floor_ms);
    n.summary = n.bound + " floor " + fmt("%.3g ms", floor) + ", " + fmt("%.0f%%", 100 * floor / measured_ms) +
                " of it reached";
  } else {
    // A CUDA-core emulation's arithmetic floor depends on its ops per MAC; the memory floor does not.
    n.bound = n.memory_floor_ms >= 0.5 * measured_ms ? "memory" : "compute";
    n.summary = n.bound + ": " + fmt("%.1f", n.lane_ops_per_mac) + " lane-ops/MAC; memory floor " +
                fmt("%.3g ms", n.memory_floor_ms);
  }
  return n;
}

}  // namespace mmaemu::bench
