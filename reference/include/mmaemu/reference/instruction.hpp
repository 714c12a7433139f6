// The instruction catalogue: MMA instructions in PTX spelling (without .sync.aligned / .row.col /
// .cta_group), and which architecture has which.
//   mma.m16n8k16.f32.bf16.bf16.f32                      -> mma.sync, D=f32, A=bf16, B=bf16, C=f32
//   wgmma.m64n8k16.f32.f16.f16                          -> wgmma, D (= C) f32, A f16, B f16
//   tcgen05.mma.m128n64k32.kind::f8f6f4.f32.e4m3.e2m1   -> tcgen05.mma, D (= C) f32, A e4m3, B e2m1
//   mma.m16n8k64.kind::mxf4nvf4.block_scale.block16.f32.e2m1.e2m1.f32.ue4m3
//       -> block-scaled mma.sync: one ue4m3 scale per 16 consecutive k of A's rows and B's columns
//   tcgen05.mma.m128n8k32.kind::mxf8f6f4.block_scale.block32.f32.e5m2.e3m2.ue8m0
// tcgen05's types live in its instruction descriptor, not its PTX name; the spelling here names them
// after the kind as MMA-Sim does. `block16`/`block32` are PTX's names for scale_vec::4X/2X/1X at
// these K (elements per scale).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::ref {

enum class Arch : uint8_t { sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120, count };

std::string_view arch_name(Arch a);
std::optional<Arch> parse_arch(std::string_view name);  // "sm90", "sm_90", "sm90a"
const std::vector<Arch>& all_archs();

enum class InstrFamily : uint8_t { mma_sync, wgmma, tcgen05 };

// The scale operands of a block-scaled instruction: one scale of `format` per `block` consecutive k,
// for each row of A and each column of B.
struct BlockScale {
  FormatId format;
  int block;
};

struct Instruction {
  std::string name;  // canonical PTX spelling
  InstrFamily family;
  int m, n, k;
  FormatId a, b, c, d;
  std::string kind;                 // "f16", "f8f6f4", "mxf4nvf4", ...; empty where the spelling has none
  std::optional<BlockScale> scale;  // block-scaled instructions only
};

// wgmma and tcgen05.mma take every N that is a multiple of 8 up to 256. The catalogue lists N = 8,
// 16, 32, ..., 256, and N = 8 stands for the rest in the sweeps over the catalogue.
bool takes_any_n(InstrFamily f);
bool is_wide_n_variant(const Instruction& in);  // takes_any_n and N != 8

// The canonical spelling of an instruction (what parse_instruction reads back).
std::string spell(const Instruction& in);

// Parses a PTX spelling. Returns nullopt (with a reason in *why) when it is not well formed.
std::optional<Instruction> parse_instruction(std::string_view ptx, std::string* why = nullptr);

}  // namespace mmaemu::ref
