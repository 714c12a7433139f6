// The instruction catalogue: MMA instructions in PTX spelling (without .sync.aligned / .row.col), and
// which architecture has which.
//   mma.m16n8k16.f32.bf16.bf16.f32   -> mma.sync, shape m16n8k16, D=f32, A=bf16, B=bf16, C=f32
//   wgmma.m64n8k16.f32.f16.f16       -> wgmma, D (= C) f32, A f16, B f16
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::ref {

enum class Arch : uint8_t { sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120, count };

std::string_view arch_name(Arch a);
std::optional<Arch> parse_arch(std::string_view name);  // "sm90", "sm_90", "sm90a"
const std::vector<Arch>& all_archs();

enum class InstrFamily : uint8_t { mma_sync, wgmma };

struct Instruction {
  std::string name;  // canonical PTX spelling
  InstrFamily family;
  int m, n, k;
  FormatId a, b, c, d;
};

// Parses a PTX spelling. Returns nullopt (with a reason in *why) when it is not well formed.
std::optional<Instruction> parse_instruction(std::string_view ptx, std::string* why = nullptr);

}  // namespace mmaemu::ref
