#include "harness/properties/problem.hpp"

#include "harness/core/comparator.hpp"
#include "harness/core/operands.hpp"

namespace mmaemu::props {
namespace {

NpyArray array_of(const std::vector<uint32_t>& v, std::vector<size_t> shape, ref::FormatId f) {
  NpyArray a;
  a.word_bytes = word_bytes(f);
  a.shape = std::move(shape);
  a.values = v;
  return a;
}

}  // namespace

int word_bytes(ref::FormatId f) { return storage_bytes(f); }

size_t steps_of(const Problem& p) { return ref::gemm_steps(*p.model, p.shape.K); }
size_t scales_of(const Problem& p) { return p.ops.SA.empty() ? 0 : ref::scale_count(p.model->instr, p.shape.K); }

Outputs reference_outputs(const Problem& p) {
  const kernels::GemmShape& s = p.shape;
  const size_t steps = steps_of(p);
  Outputs o;
  o.D.assign(kernels::c_count(s), 0);
  o.trace.assign(kernels::c_count(s) * steps, 0);
  const size_t S = scales_of(p);
  for (size_t t = 0; t < s.batch; ++t)
    ref::gemm(*p.model, s.M, s.N, s.K, p.ops.A.data() + t * s.M * s.K, p.ops.B.data() + t * s.K * s.N,
              p.ops.C.data() + t * s.M * s.N, o.D.data() + t * s.M * s.N, o.trace.data() + t * s.M * s.N * steps,
              S ? p.ops.SA.data() + t * s.M * S : nullptr, S ? p.ops.SB.data() + t * S * s.N : nullptr);
  return o;
}

std::string describe(const Problem& p) {
  const ref::Instruction& in = p.model->instr;
  const kernels::GemmShape& s = p.shape;
  return std::string(ref::arch_name(p.model->arch)) + " " + in.name + " batch " + std::to_string(s.batch) + " M " +
         std::to_string(s.M) + " N " + std::to_string(s.N) + " K " + std::to_string(s.K) +
         " a=" + hex_list(p.ops.A.data(), p.ops.A.size(), word_bytes(in.a)) + " b=" +
         hex_list(p.ops.B.data(), p.ops.B.size(), word_bytes(in.b)) + " c=" +
         hex_list(p.ops.C.data(), p.ops.C.size(), word_bytes(in.c)) +
         (p.ops.SA.empty() ? std::string()
                           : " scale_a=" + hex_list(p.ops.SA.data(), p.ops.SA.size(), 1) +
                                 " scale_b=" + hex_list(p.ops.SB.data(), p.ops.SB.size(), 1));
}

std::optional<Difference> first_difference(const Problem& p, const Outputs& expected, const Outputs& got,
                                           SameBits same) {
  const kernels::GemmShape& s = p.shape;
  const ref::FormatId d = p.model->instr.d;
  const auto differ = [&](uint32_t x, uint32_t y) { return same ? !same(d, x, y) : x != y; };
  const auto index = [&](size_t o) {
    const size_t t = o / (s.M * s.N), m = o / s.N % s.M, n = o % s.N;
    return "[" + std::to_string(t) + "][" + std::to_string(m) + "][" + std::to_string(n) + "]";
  };
  for (size_t o = 0; o < expected.D.size(); ++o)
    if (differ(expected.D[o], got.D[o])) return Difference{"D" + index(o), expected.D[o], got.D[o]};
  const size_t steps = steps_of(p);
  for (size_t i = 0; i < expected.trace.size() && i < got.trace.size(); ++i)
    if (differ(expected.trace[i], got.trace[i]))
      return Difference{"trace" + index(i / steps) + " after step " + std::to_string(i % steps + 1),
                        expected.trace[i], got.trace[i]};
  return std::nullopt;
}

void add_problem(Counterexample& c, const Problem& p, const std::string& prefix, const std::string& backend) {
  const ref::Instruction& in = p.model->instr;
  const kernels::GemmShape& s = p.shape;
  c.files.emplace_back(prefix + "a", array_of(p.ops.A, {s.batch, s.M, s.K}, in.a));
  c.files.emplace_back(prefix + "b", array_of(p.ops.B, {s.batch, s.K, s.N}, in.b));
  c.files.emplace_back(prefix + "c", array_of(p.ops.C, {s.batch, s.M, s.N}, in.c));
  const std::string f = "{dir}/" + prefix;
  std::string scales;
  if (const size_t S = scales_of(p)) {
    NpyArray sa, sb;
    sa.word_bytes = sb.word_bytes = 1;
    sa.shape = {s.batch, s.M, S};
    sa.values = p.ops.SA;
    sb.shape = {s.batch, S, s.N};
    sb.values = p.ops.SB;
    c.files.emplace_back(prefix + "sa", std::move(sa));
    c.files.emplace_back(prefix + "sb", std::move(sb));
    scales = " --scale-a " + f + "sa.npy --scale-b " + f + "sb.npy";
  }
  c.replay.push_back("mmaemu gemm --arch " + std::string(ref::arch_name(p.model->arch)) + " --instr " + in.name +
                     " --a " + f + "a.npy --b " + f + "b.npy --c " + f + "c.npy" + scales + " --out " + f + "d-" +
                     backend + ".npy --trace " + f + "trace-" + backend + ".npy --backend " + backend);
}

Counterexample problem_counterexample(const Problem& p, const Difference& d, const std::string& what,
                                      const std::string& backend) {
  Counterexample c;
  const int w = word_bytes(p.model->instr.d);
  c.what = what + ": " + d.where;
  c.inputs = describe(p);
  c.expected = hex_bits(d.expected, w);
  c.got = hex_bits(d.got, w);
  add_problem(c, p, "", backend);
  return c;
}

}  // namespace mmaemu::props
