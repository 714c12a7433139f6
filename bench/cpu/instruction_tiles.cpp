#include "bench/cpu/instruction_tiles.hpp"

#include <string>

#include "generators/families.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"

namespace mmaemu::bench {
namespace {

int storage_bytes(ref::FormatId f) {
  const int bits = ref::spec(f).storage_bits;
  return bits <= 8 ? 1 : bits <= 16 ? 2 : 4;
}

void write_words(const std::filesystem::path& file, ref::FormatId f, std::vector<size_t> shape,
                 const std::vector<uint32_t>& words) {
  NpyArray a;
  a.word_bytes = storage_bytes(f);
  a.shape = std::move(shape);
  a.values = words;
  write_npy(file, a);
}

}  // namespace

const ref::InstructionModel& find_instruction(ref::Arch arch, const std::string& name) {
  for (const ref::InstructionModel& m : ref::instructions_of(arch))
    if (m.instr.name == name) return m;
  throw InputError("", "no instruction " + name + " on " + std::string(ref::arch_name(arch)));
}

InstructionTiles make_instruction_tiles(const ref::InstructionModel& m, size_t count, uint64_t seed) {
  InstructionTiles t;
  t.shape = {count, static_cast<size_t>(m.instr.m), static_cast<size_t>(m.instr.n), static_cast<size_t>(m.instr.k)};
  t.A.resize(kernels::a_count(t.shape));
  t.B.resize(kernels::b_count(t.shape));
  t.C.resize(kernels::c_count(t.shape));
  const size_t a = t.shape.M * t.shape.K, b = t.shape.K * t.shape.N, c = t.shape.M * t.shape.N;
  for (size_t i = 0; i < count; ++i)
    gen::generate_tile(gen::Family::realistic, m.instr, seed + i, t.A.data() + i * a, t.B.data() + i * b,
                       t.C.data() + i * c);
  return t;
}

void write_instruction_tiles(const ref::InstructionModel& m, const InstructionTiles& t, const std::filesystem::path& dir) {
  const ref::Instruction& in = m.instr;
  write_words(dir / "a.npy", in.a, {t.shape.batch, t.shape.M, t.shape.K}, t.A);
  write_words(dir / "b.npy", in.b, {t.shape.batch, t.shape.K, t.shape.N}, t.B);
  write_words(dir / "c.npy", in.c, {t.shape.batch, t.shape.M, t.shape.N}, t.C);
}

}  // namespace mmaemu::bench
