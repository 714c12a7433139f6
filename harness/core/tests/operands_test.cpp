#include <gtest/gtest.h>

#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"

namespace mmaemu {
namespace {

NpyArray zeros(int word_bytes, std::vector<size_t> shape) {
  NpyArray a;
  a.word_bytes = word_bytes;
  a.shape = std::move(shape);
  a.values.assign(a.size(), 0);
  return a;
}

ref::Instruction instr(const char* ptx) {
  auto i = ref::parse_instruction(ptx);
  if (!i) throw std::runtime_error(std::string("test needs instruction ") + ptx);
  return *i;
}

// Expects an InputError whose `where` is `file` and whose message contains `words`.
template <class F>
void expect_input_error(F&& f, const std::string& file, const std::string& words) {
  try {
    f();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), file);
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Operands, AcceptsTheContractLayout) {
  const auto in = instr("mma.m16n8k16.f32.f16.f16.f32");
  EXPECT_EQ(check_operands(in, zeros(2, {3, 16, 16}), "a", zeros(2, {3, 16, 8}), "b", zeros(4, {3, 16, 8}), "c"), 3u);
  EXPECT_NO_THROW(check_result(in, 3, zeros(4, {3, 16, 8}), "d"));
  const auto fp8 = instr("mma.m16n8k32.f32.e4m3.e5m2.f32");
  EXPECT_EQ(check_operands(fp8, zeros(1, {1, 16, 32}), "a", zeros(1, {1, 32, 8}), "b", zeros(4, {1, 16, 8}), "c"), 1u);
  const auto tf32 = instr("mma.m16n8k8.f32.tf32.tf32.f32");
  EXPECT_EQ(check_operands(tf32, zeros(4, {2, 16, 8}), "a", zeros(4, {2, 8, 8}), "b", zeros(4, {2, 16, 8}), "c"), 2u);
}

TEST(Operands, ShapeThatDoesNotFitNamesTheFile) {
  const auto in = instr("mma.m16n8k16.f32.f16.f16.f32");
  const auto b = zeros(2, {3, 16, 8});
  const auto c = zeros(4, {3, 16, 8});
  expect_input_error([&] { check_operands(in, zeros(2, {3, 16, 8}), "a.npy", b, "b.npy", c, "c.npy"); }, "a.npy",
                     "(3, 16, 8)");
  expect_input_error([&] { check_operands(in, zeros(2, {16, 16}), "a.npy", b, "b.npy", c, "c.npy"); }, "a.npy",
                     "[T, M=16, K=16]");
  // B transposed: [T, N, K] instead of [T, K, N].
  expect_input_error([&] { check_operands(in, zeros(2, {3, 16, 16}), "a.npy", zeros(2, {3, 8, 16}), "b.npy", c, "c.npy"); },
                     "b.npy", "[T, K=16, N=8]");
  expect_input_error([&] { check_operands(in, zeros(2, {3, 16, 16}), "a.npy", b, "b.npy", zeros(4, {2, 16, 8}), "c.npy"); },
                     "c.npy", "tiles");
  expect_input_error([&] { check_result(in, 3, zeros(4, {3, 8, 16}), "d.npy"); }, "d.npy", "D has shape");
}

TEST(Operands, DtypeThatDoesNotFitNamesTheFile) {
  const auto in = instr("mma.m16n8k16.f32.bf16.bf16.f32");
  expect_input_error(
      [&] { check_operands(in, zeros(4, {1, 16, 16}), "a.npy", zeros(2, {1, 16, 8}), "b.npy", zeros(4, {1, 16, 8}), "c.npy"); },
      "a.npy", "uint16");
  expect_input_error(
      [&] { check_operands(in, zeros(2, {1, 16, 16}), "a.npy", zeros(2, {1, 16, 8}), "b.npy", zeros(2, {1, 16, 8}), "c.npy"); },
      "c.npy", "uint32");
  const auto fp8 = instr("mma.m16n8k32.f32.e4m3.e4m3.f32");
  expect_input_error(
      [&] { check_operands(fp8, zeros(2, {1, 16, 32}), "a.npy", zeros(1, {1, 32, 8}), "b.npy", zeros(4, {1, 16, 8}), "c.npy"); },
      "a.npy", "uint8");
}

TEST(Operands, ZeroTilesIsAnError) {
  const auto in = instr("mma.m16n8k16.f32.f16.f16.f32");
  expect_input_error([&] { check_operands(in, zeros(2, {0, 16, 16}), "a.npy", zeros(2, {0, 16, 8}), "b.npy", zeros(4, {0, 16, 8}), "c.npy"); },
                     "a.npy", "no tiles");
}

}  // namespace
}  // namespace mmaemu
