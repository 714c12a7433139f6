#include "bench/gemm_inputs.hpp"

#include <charconv>
#include <cstring>
#include <string>

#include "harness/core/errors.hpp"
#include "generators/families.hpp"

namespace mmaemu::bench {

kernels::GemmShape parse_shape(std::string_view text) {
  size_t dims[3] = {0, 0, 0};
  std::string_view rest = text;
  for (int i = 0; i < 3; ++i) {
    const size_t x = rest.find_first_of("xX");
    const std::string_view part = i < 2 ? rest.substr(0, x) : rest;
    if ((i < 2 && x == std::string_view::npos) || part.empty())
      throw InputError("--shape", "'" + std::string(text) + "' is not MxNxK");
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), dims[i]);
    if (ec != std::errc() || end != part.data() + part.size() || dims[i] == 0)
      throw InputError("--shape", "'" + std::string(text) + "': each of M, N, K must be a positive integer");
    if (i < 2) rest = rest.substr(x + 1);
  }
  // The generators index a tile with int.
  if (dims[0] * dims[2] > (size_t{1} << 31) - 1 || dims[2] * dims[1] > (size_t{1} << 31) - 1 ||
      dims[0] * dims[1] > (size_t{1} << 31) - 1)
    throw InputError("--shape", "'" + std::string(text) + "': an operand over 2^31 elements");
  return kernels::GemmShape{1, dims[0], dims[1], dims[2]};
}

std::string shape_name(const kernels::GemmShape& s) {
  std::string n = std::to_string(s.M) + "x" + std::to_string(s.N) + "x" + std::to_string(s.K);
  return s.batch == 1 ? n : std::to_string(s.batch) + "*" + n;
}

const ref::InstructionModel& bench_model(ref::Arch arch, ref::InstrFamily family, ref::FormatId format, int n) {
  const ref::InstructionModel* best = nullptr;
  for (const auto& m : ref::instructions_of(arch)) {
    const auto& in = m.instr;
    if (in.family != family || in.scale || in.a != format || in.b != format || in.c != ref::FormatId::fp32 ||
        in.d != ref::FormatId::fp32)
      continue;
    if (!best || in.k > best->instr.k || (in.k == best->instr.k && in.n < best->instr.n)) best = &m;
  }
  if (!best)
    throw InputError("--format", std::string(ref::arch_name(arch)) + " has no " +
                                     (family == ref::InstrFamily::wgmma ? "wgmma" : "mma.sync") + " instruction with " +
                                     std::string(ref::format_name(format)) + " operands and fp32 accumulation");
  if (n <= 0 || n == best->instr.n) return *best;
  if (family != ref::InstrFamily::wgmma)
    throw InputError("n", "an instruction N (" + std::to_string(n) + ") is given only for wgmma");
  if (n % 8 != 0 || n > 256) throw InputError("n", "wgmma takes N = 8, 16, ..., 256, not " + std::to_string(n));
  ref::Instruction wide = best->instr;
  wide.n = n;
  return ref::lookup(arch, ref::spell(wide));
}

HostOperands realistic_operands(ref::FormatId a, ref::FormatId b, ref::FormatId c, const kernels::GemmShape& s,
                                uint64_t seed) {
  HostOperands ops;
  ops.a.resize(kernels::a_count(s));
  ops.b.resize(kernels::b_count(s));
  ops.c.resize(kernels::c_count(s));
  // The generator fills one "tile" of the instruction's shape: here the whole GEMM (one per batch).
  ref::Instruction whole{"gemm", ref::InstrFamily::mma_sync, static_cast<int>(s.M), static_cast<int>(s.N),
                         static_cast<int>(s.K), a, b, c, c, {}, std::nullopt};
  for (size_t t = 0; t < s.batch; ++t)
    gen::generate_tile(gen::Family::realistic, whole, seed + t, ops.a.data() + t * s.M * s.K,
                       ops.b.data() + t * s.K * s.N, ops.c.data() + t * s.M * s.N);
  return ops;
}

const HostOperands& OperandCache::get(ref::FormatId a, ref::FormatId b, ref::FormatId c,
                                      const kernels::GemmShape& s, uint64_t seed) {
  for (const Entry& e : entries_)
    if (e.a == a && e.b == b && e.c == c && e.seed == seed && e.shape.batch == s.batch && e.shape.M == s.M &&
        e.shape.N == s.N && e.shape.K == s.K)
      return e.ops;
  if (entries_.size() == kEntries) entries_.pop_front();  // before generating: peak memory
  entries_.push_back(Entry{a, b, c, s, seed, realistic_operands(a, b, c, s, seed)});
  return entries_.back().ops;
}

size_t storage_bytes(ref::FormatId f) { return static_cast<size_t>(ref::spec(f).storage_bytes()); }

std::vector<uint8_t> pack_storage(const std::vector<uint32_t>& bits, ref::FormatId f) {
  const size_t w = storage_bytes(f);
  std::vector<uint8_t> out(bits.size() * w);
  for (size_t i = 0; i < bits.size(); ++i)
    for (size_t byte = 0; byte < w; ++byte) out[i * w + byte] = static_cast<uint8_t>(bits[i] >> (8 * byte));
  return out;
}

}  // namespace mmaemu::bench
