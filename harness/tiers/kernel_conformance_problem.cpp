#include "harness/tiers/kernel_conformance_problem.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <span>
#include <thread>

#include "harness/core/operands.hpp"

namespace mmaemu::tiers {
namespace {

using kernels::kPoison;

// A slice of one problem: rows [row, row + rows) of batch entry `batch`.
struct Slice {
  size_t batch, row, rows;
};

// Runs `work` on every slice of the problem, on as many threads as the machine has. Slices are rows
// of one batch entry, so that each is itself a contiguous GEMM of batch 1. The first exception is rethrown.
void for_each_slice(const kernels::GemmShape& s, const std::function<void(const Slice&)>& work) {
  const size_t threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  // About four slices per thread over the whole problem, for balance; at least 1 row each.
  const size_t rows_per_slice = std::max<size_t>(1, s.batch * s.M / (4 * threads));
  std::vector<Slice> slices;
  for (size_t b = 0; b < s.batch; ++b)
    for (size_t r = 0; r < s.M; r += rows_per_slice) slices.push_back({b, r, std::min(rows_per_slice, s.M - r)});
  if (threads == 1 || slices.size() == 1) {
    for (const Slice& sl : slices) work(sl);
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  const auto worker = [&] {
    for (size_t i; !failed && (i = next++) < slices.size();) {
      try {
        work(slices[i]);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 0; t < std::min(threads, slices.size()); ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

GemmOutputs poisoned_outputs(const GemmInputs& in, bool trace) {
  GemmOutputs out;
  const size_t w = ref::words_per_element(in.model->instr.d);
  out.D.assign(in.outputs() * w, kPoison);
  if (trace) out.trace.assign(in.outputs() * in.steps() * w, kPoison);
  return out;
}

// Words per element of A, B and C/D (two for fp64).
struct Words {
  size_t a, b, c, d;
  explicit Words(const ref::Instruction& in)
      : a(ref::words_per_element(in.a)), b(ref::words_per_element(in.b)), c(ref::words_per_element(in.c)),
        d(ref::words_per_element(in.d)) {}
};

bool runs_on_the_cpu(const kernels::Backend& b) { return b.name() == "host" || b.name() == "reference"; }

}  // namespace

GemmOutputs reference_outputs(const GemmInputs& in, bool trace) {
  GemmOutputs out = poisoned_outputs(in, trace);
  const kernels::GemmShape& s = in.shape;
  const size_t steps = in.steps();
  const Words w(in.model->instr);
  for_each_slice(s, [&](const Slice& sl) {
    const size_t row0 = sl.batch * s.M + sl.row;  // first row of the slice among all batch rows
    ref::gemm(*in.model, sl.rows, s.N, s.K, &in.A[row0 * s.K * w.a], &in.B[sl.batch * s.K * s.N * w.b],
              &in.C[row0 * s.N * w.c], &out.D[row0 * s.N * w.d], trace ? &out.trace[row0 * s.N * steps * w.d] : nullptr,
              in.sa(sl.batch, sl.row), in.sb(sl.batch));
  });
  return out;
}

GemmOutputs backend_outputs(const kernels::Backend& backend, const GemmInputs& in, bool trace) {
  GemmOutputs out = poisoned_outputs(in, trace);
  const kernels::GemmShape& s = in.shape;
  if (!runs_on_the_cpu(backend)) {
    backend.run({in.model, s, in.A.data(), in.B.data(), in.C.data(), out.D.data(), trace ? out.trace.data() : nullptr,
                 in.sa(0, 0), in.sb(0)});
    return out;
  }
  const size_t steps = in.steps();
  const Words w(in.model->instr);
  for_each_slice(s, [&](const Slice& sl) {
    const size_t row0 = sl.batch * s.M + sl.row;
    backend.run({in.model, {1, sl.rows, s.N, s.K}, &in.A[row0 * s.K * w.a], &in.B[sl.batch * s.K * s.N * w.b],
                 &in.C[row0 * s.N * w.c], &out.D[row0 * s.N * w.d],
                 trace ? &out.trace[row0 * s.N * steps * w.d] : nullptr, in.sa(sl.batch, sl.row), in.sb(sl.batch)});
  });
  return out;
}

size_t compare_outputs(BitComparator& cmp, const std::string& group, const GemmInputs& in,
                       const GemmOutputs& expected, const GemmOutputs& got) {
  const ref::Instruction& ins = in.model->instr;
  const kernels::GemmShape& s = in.shape;
  const int a_bytes = storage_bytes(ins.a), b_bytes = storage_bytes(ins.b), c_bytes = storage_bytes(ins.c),
            d_bytes = storage_bytes(ins.d);
  const size_t steps = in.steps();
  const auto inputs_of = [&](size_t out) {
    const size_t t = out / (s.M * s.N), m = out / s.N % s.M, n = out % s.N;
    const size_t S = in.scales_per_row();
    return std::pair{"(" + std::to_string(t) + "," + std::to_string(m) + "," + std::to_string(n) + ")",
                     "a=" + hex_list(&in.A[word_offset((t * s.M + m) * s.K, a_bytes)], s.K, a_bytes) +
                         " b=" + hex_list(&in.B[word_offset(t * s.K * s.N + n, b_bytes)], s.K, b_bytes, s.N) +
                         " c=" + hex_bits(element_bits(in.C.data(), out, c_bytes), c_bytes) +
                         (S ? " scale_a=" + hex_list(in.sa(t, m), S, 1) + " scale_b=" + hex_list(in.sb(t) + n, S, 1, s.N)
                            : std::string())};
  };
  size_t differ = cmp.compare(group, expected.D, got.D, d_bytes, [&](size_t i) {
    auto [where, inputs] = inputs_of(i);
    return CaseDescription{"D " + where, inputs};
  });
  if (!expected.trace.empty() && !got.trace.empty())
    differ += cmp.compare(group, expected.trace, got.trace, d_bytes, [&](size_t i) {
      auto [where, inputs] = inputs_of(i / steps);
      return CaseDescription{"trace " + where + " step " + std::to_string(i % steps), inputs};
    });
  return differ;
}

}  // namespace mmaemu::tiers
