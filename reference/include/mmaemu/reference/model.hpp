// Arithmetic models and architecture profiles.
//
// The tensor cores of every NVIDIA architecture since Volta compute a block of products as a
// truncated fused dot-product-add, T-FDPA(L, F, rho): exact products, alignment to the largest
// exponent, truncation to F fraction bits, one exact sum, one rounding rho. An instruction whose K
// exceeds L chains blocks along K, each block's rounded result being the next block's addend.
// Which L, F and rho (and the smaller rules around them) an architecture uses is data: a BlockModel
// per (architecture, instruction), filled in profile.cpp from recordings of real GPUs.
#pragma once
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mmaemu/reference/format.hpp"
#include "mmaemu/reference/instruction.hpp"

namespace mmaemu::ref {

// How an aligned term loses the bits below 2^(emax-F).
enum class Truncation : uint8_t {
  toward_zero,  // sign-magnitude truncation (each term's magnitude is truncated)
  floor,        // two's-complement truncation (toward -inf)
};

struct BlockModel {
  int block_k = 0;                 // L: products fused per block
  int frac_bits = 0;               // F: fraction bits kept relative to 2^emax
  Truncation truncation = Truncation::toward_zero;
  int zero_product_exp = INT_MIN;  // exponent a zero product contributes to emax (INT_MIN: none)
  FormatId block_result = FormatId::fp32;  // format a block rounds to (fp32, fp16, e8m13)
  Rounding rounding = Rounding::toward_zero;
  bool rz_overflow_to_inf = true;  // a rounded-toward-zero overflow gives Inf, not the max finite
  Rounding tf32_input = Rounding::toward_zero;  // how fp32 patterns are read as tf32
  // Block-scaled instructions. 0: each product joins the block as a*b*sa*sb, aligned at its own
  // exponent (ea + eb + esa + esb). G > 0: the products of each run of G consecutive k are first summed
  // exactly, and the group's sum times sa*sb joins the block aligned at the scales' exponent esa + esb
  // (a group whose products are all zero, or whose scale is zero, is a zero term). MMA-Sim 2.1.1 calls
  // these ST-FDPA and GST-FDPA.
  int group_k = 0;
  // A block whose terms (products and c) are all zero: +0 whatever their signs (the H200: `mmaemu probe`
  // found -0 products with a -0 c give +0 on every instruction, and no H200 recording holds a -0
  // result), or, when false, -0 exactly when every term is -0 (IEEE's rule for sums; MMA-Sim's model).
  bool zero_result_positive = false;
};

struct InstructionModel;

// An instruction the architecture runs without a tensor-core unit of its own: the compiler lowers it
// to other instructions. Hopper and Blackwell (sm_100) mma.sync FP8 becomes, per output,
//   a, b -> fp16 (exact); acc = +0; for each part: acc = via(part's a, b, acc); d = acc + c (IEEE, RNE)
// where K is dealt into `parts` parts in runs of `run` consecutive k (part of k = (k / run) % parts).
struct Lowering {
  std::string via;                          // the instruction each part runs as
  int parts = 1;
  int run = 1;
  const InstructionModel* via_model = nullptr;  // resolved when the catalogue is built
};

struct InstructionModel {
  Arch arch;
  Instruction instr;
  BlockModel block;           // the tensor-core block; unused when the instruction is lowered or an fma chain
  std::optional<Lowering> lowering;
  // fp64 mma (DMMA): no block and no alignment window. Each k is one IEEE binary64 fused multiply-add,
  // rounded to nearest even, in k order from c: d = fma(a[K-1], b[K-1], ... fma(a[0], b[0], c) ...);
  // NaN payloads travel as the H200 does it (fma_chain.cpp). Operands and results take two words each
  // (words_per_element).
  bool fma_chain = false;
};

// Thrown when an architecture lacks an instruction; the CLI maps it to exit status 2.
class UnsupportedInstruction : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every instruction an architecture has, with its model: the built-in profile, or the one installed.
const std::vector<InstructionModel>& instructions_of(Arch a);

// Profiles as data. The built-in profile of each architecture is compiled in (profile.cpp); a profile
// file (harness/profiles) installs another for one architecture, for the rest of the process: its
// entries replace the instructions they name (an entry at N = 8 of wgmma or tcgen05 every N), and the
// built-in ones it does not name stay when keep_builtin, else go. Lowerings are resolved within the
// result; `origin` (the file) names it in errors and in profile_origin. References returned earlier
// stay valid (the replaced catalogue is kept), but install before running anything: models looked up
// before the call keep the old arithmetic.
const std::vector<InstructionModel>& builtin_instructions_of(Arch a);
void install_profile(Arch arch, const std::vector<InstructionModel>& models, bool keep_builtin,
                     const std::string& origin);
void restore_builtin_profile(Arch arch);
// The origin of the profile installed for `arch`, or "" for the built-in one.
std::string profile_origin(Arch arch);

// The model of `ptx` on `arch`. Throws UnsupportedInstruction naming both when `arch` lacks it,
// std::invalid_argument when `ptx` is not a well-formed instruction name.
const InstructionModel& lookup(Arch arch, std::string_view ptx);

// One output element: c + sum_{k<K} a[k]*b[k], as the architecture computes it, K = instr.k.
// Not for fma-chain (fp64) instructions, whose elements do not fit one word: mma() and gemm() take them.
// a, b are raw bits in the instruction's A and B formats, c in its C format; returns D's raw bits.
// Block-scaled instructions also take sa[j], sb[j]: the scales of k in [j*block, (j+1)*block)
// (instr.scale); the others ignore them.
uint32_t dot(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c,
             const uint32_t* sa = nullptr, const uint32_t* sb = nullptr);

// The same with an explicit K (a multiple of nothing in particular: blocks are chained and the last
// one is padded with zero products), for third-party recordings of dot products of other lengths.
uint32_t dot_k(const InstructionModel& m, const uint32_t* a, const uint32_t* b, uint32_t c, int k,
               const uint32_t* sa = nullptr, const uint32_t* sb = nullptr);

// Scales per row of A (and per column of B) for K elements: ceil(K / block); the last block's scale
// applies to the k it has. Throws std::invalid_argument when the instruction has no scales.
size_t scale_count(const Instruction& in, size_t K);
// The bits of the scale 1.0, which the padding past the end of K takes (ue8m0 0x7F, ue4m3 0x38).
uint32_t unit_scale_bits(FormatId f);

// A whole instruction over T tiles in the `mmaemu mma` layout (arrays of words: two per fp64 element):
//   A[T][M][K], B[T][K][N], C[T][M][N] -> D[T][M][N];
//   block-scaled: SA[T][M][K/block], SB[T][K/block][N].
void mma(const InstructionModel& m, size_t tiles, const uint32_t* A, const uint32_t* B,
         const uint32_t* C, uint32_t* D, const uint32_t* SA = nullptr, const uint32_t* SB = nullptr);

// A whole GEMM as the hardware's MMA loop runs it: K is padded with zeros to a multiple of the
// instruction's K, and the instruction is applied step by step along K, each step's D being the next
// step's C. Row-major raw bits: A[M][K], B[K][N], C[M][N] -> D[M][N]. C is in the instruction's C
// format and D in its D format; where they differ (Volta's m8n8k4 with an fp16 C and an fp32 D), the
// first step reads C in C's format and every later step runs chained_form(m), which reads the
// accumulator in D's, as a loop goes on with the instruction's D-typed form (.f32.f16.f16.f32).
// trace, when given, receives the accumulator after every step: trace[(m*N + n)*steps + s], so that
// a comparison covers the whole accumulation path and not only its end.
// Block-scaled instructions take SA[M][S], SB[S][N], S = scale_count(K); the padding past K has the
// scale 1.0.
size_t gemm_steps(const InstructionModel& m, size_t K);
// The instruction a GEMM's steps after the first run: m itself, or where m's C is in another format
// than its D, m's form with C in D's format (m8n8k4.f32.f16.f16.f16 -> m8n8k4.f32.f16.f16.f32).
const InstructionModel& chained_form(const InstructionModel& m);
void gemm(const InstructionModel& m, size_t M, size_t N, size_t K, const uint32_t* A, const uint32_t* B,
          const uint32_t* C, uint32_t* D, uint32_t* trace = nullptr, const uint32_t* SA = nullptr,
          const uint32_t* SB = nullptr);

}  // namespace mmaemu::ref
