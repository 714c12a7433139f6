// The GEMM model of a library call: what cuBLASLt (13.1, on an H200) computes for
//   D = alpha * scale_a * scale_b * (A x B) + beta * C
// above the tensor-core instruction: how its kernels walk K, split it, promote FP8 accumulators,
// reduce the slices and apply the epilogue. Every rule here was read off recordings of the library
// (fixtures/cublaslt-h200, README there); nothing is taken from documentation alone.
//
// The rules, per output element:
//   1. Main loop, per K slice, from +0: 16-bit inputs chain wgmma k16 blocks, FP8 inputs wgmma k32
//      blocks (the e8m13 accumulator), tf32 wgmma k8 blocks on inputs rounded to tf32 to nearest-even
//      (the library converts fp32 -> tf32, the tensor core would truncate; an fp32 NaN stays a NaN even
//      when its payload lies only in the bits tf32 drops: reports/h200/t5), fp32 (SIMT) an FMA chain.
//   2. FP8 without fast accumulation: the tensor-core accumulator is added into an fp32 accumulator
//      (IEEE, nearest-even) every `promotion_k` = 128 products, starting again from +0.
//   3. Split-K into S slices: K is dealt in grains of 128 bytes of A (64 16-bit, 32 tf32 and fp32, 128
//      FP8 elements), whatever the depth of the kernel's pipeline stages:
//      chunk = ceil(ceil(K / grain) / S) * grain, slice s = [s * chunk, (s + 1) * chunk).
//      The tf32 and fp32 kernels (algorithms 21, 20) with K no multiple of that grain slice K in
//      grains of 16 bytes instead (chunk = ceil(K / S) rounded up to 4 elements), and a tf32 slice
//      runs its residue (length mod the stage's K depth) first, then whole K tiles.
//      fp32 algorithm 55 interleaves instead: K blocks of the stage depth (8) are dealt to the slices
//      in turn (block j to slice j mod S), each slice an FMA chain over its blocks in K order.
//   4. Reduction and epilogue. The fp32 partials are added in slice order (algorithm 55 with custom
//      option 1: slice t paired with slice t + ceil(S/2) first, see LibraryPlan::reduction). Then
//      D = fma(alpha', acc, beta * C) without split-K and for algorithm 55 (reduced in the kernel),
//      D = fma(beta, C, alpha' * acc) after a split-K reduction and for algorithm 62;
//      beta = 0: alpha' * acc, C unread. alpha' = alpha for non-FP8 calls, (alpha * scale_a) * scale_b
//      for FP8, alpha * (scale_a * scale_b) in algorithm 62.
//   5. D is rounded to its type to nearest-even; NaN is the canonical NaN of that type.
//   Algorithms 23 and 24 (calls of sizes no multiple of 8) are mma.sync kernels: 16-bit inputs chain
//   mma.m16n8k16 (algorithm 24 in bf16: mma.m16n8k8), tf32 its k8; each slice runs the residue of its
//   K tile (the stage depth the configuration names, else 16) first; slices are cut in 16-byte grains
//   when K is no multiple of the 128-byte grain; the epilogue is fma(beta, C, alpha' * acc); with
//   reduction scheme 4 (REDUCTION_SCHEME_OUTPUT_TYPE) each slice's partial is rounded to D's type
//   before the fp32 reduction. All 3,330,928 outputs of their H200 recording
//   (fixtures/cublaslt-h200/plan-algos.yaml) agree.
// An algorithm id the recordings do not name (or -1, unknown) gets the rules of its input type above
// (those of algorithms 66, 21 and 20).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mmaemu/reference/decline.hpp"
#include "mmaemu/reference/format.hpp"

namespace mmaemu::ref {

struct LibraryCall {
  FormatId a = FormatId::bf16, b = FormatId::bf16;  // tf32: fp32 storage, CUBLAS_COMPUTE_32F_FAST_TF32
  FormatId c = FormatId::fp32, d = FormatId::fp32;
  size_t M = 0, N = 0, K = 0;
  float alpha = 1.0f, beta = 0.0f;
  float scale_a = 1.0f, scale_b = 1.0f;  // FP8 only
  bool fast_accum = false;               // FP8 only
  // CUBLASLT_EPILOGUE_BIAS: C holds the bias vector broadcast along D's rows (C[m][n] = bias[m], in D's
  // type) and beta is 1 here (cuBLASLt's own beta is 0: the bias is the epilogue's, not beta * C's).
  bool bias = false;
};

// The part of the library's algorithm configuration the arithmetic depends on.
struct LibraryAlgo {
  int split_k = 1;
  size_t stage_k = 0;  // the K depth of a pipeline stage ("16x6" -> 16); 0: unknown (16, or 8 for algo 55)
  int algo_id = -1;    // CUBLASLT_ALGO_CONFIG_ID; -1: unknown (the input type's default kernel rules)
  int custom = 0;      // CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION (algorithm 55: 1 = paired reduction)
  int reduction = 0;   // CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME (4: partials in the output type)
};

// Why the library refuses a call (the heuristic offers no algorithm), or nullopt when it runs it.
Declined library_refuses(const LibraryCall& call);  // code library_refuses

// The algorithms whose rules the model has (fitted from H200 recordings; 43 is tf32 with 21's rules), and
// -1 (unknown: the input type's default rules). A configuration of any other algorithm (cuBLASLt's 10,
// 11, 13, 14, 63: GEMV-like
// and other kernels PyTorch's calls reach, reports/h200/torch-bits) is not computed with rules that are
// not its own: model_declines names the algorithm.
const std::vector<int>& modelled_algorithms();
std::string modelled_algorithm_list();  // "20, 21, ...": modelled_algorithms() but -1, for people
Declined model_declines(const LibraryAlgo& algo);  // code library_algorithm_without_rules, with the ID
// The same, and for a call: configurations of a modelled algorithm whose rules miss recorded bits
// (code library_configuration_without_rules): computed they would give other bits than the library.
Declined model_declines(const LibraryCall& call, const LibraryAlgo& algo);

// The K grain of split-K slicing and the slices' bounds, for reports and tests.
size_t split_grain(const LibraryCall& call, const LibraryAlgo& algo);
size_t split_chunk(const LibraryCall& call, const LibraryAlgo& algo);
// Where the S slices end: K, or less where algorithm 66 leaves the last K % grain values out (K = q
// grains + r with q a multiple of S and r < S, as cuBLASLt 13.1 does on sm_90).
size_t split_slices_end(const LibraryCall& call, const LibraryAlgo& algo);

// The rules above decided for one call and configuration: what the per-output arithmetic does. Both
// this reference and the kernels' library GEMM (kernels/library_gemm.hpp) follow it.
struct InstructionModel;

// One step of the split-K reduction: slice `first`'s fp32 partial, with slice `second`'s added to it
// first when the kernel pairs them.
struct ReductionStep {
  static constexpr size_t kAlone = SIZE_MAX;
  size_t first = 0;
  size_t second = kAlone;
  bool paired() const { return second != kAlone; }
  bool operator==(const ReductionStep& o) const { return first == o.first && second == o.second; }  // (C++17: CUDA)
};

// Where EPILOGUE_BIAS adds the bias (PyTorch's bias calls on an H100, reports/h100/torch-uncovered Q1).
enum class BiasEpilogue : uint8_t {
  none,                   // no bias epilogue (beta * C, if any, as beta_fma says)
  added_once,             // D = round_D(acc + bias): without split-K, and under reduction scheme 2
  in_place,               // reduction scheme 1: D starts as the bias, then D = round_D(D + partial) slice by slice
  after_output_rounding,  // reduction scheme 4: D = round_D(round_D(acc) + bias)
};

struct LibraryPlan {
  const InstructionModel* instruction = nullptr;  // the wgmma chained along K; nullptr: fp32 FMA chains
  bool tf32_rounded = false;  // A and B rounded fp32 -> tf32 to nearest-even first
  size_t promotion_k = 0;     // FP8 without fast accumulation: promote into fp32 every this many products
  size_t slices = 1;          // split-K count S
  size_t chunk = 0;           // consecutive slices: [s * chunk, (s + 1) * chunk)
  size_t residue_first = 0;   // tf32 K tail: each slice's first (length mod this) products as one block
  size_t interleave_block = 0;  // non-zero (algorithm 55): K blocks of this size dealt to slices in turn
  // The order the slices' partials are added in: acc = step 0, then acc += each later step, in fp32.
  // It names the slices that exist for this K (consecutive slices past K do not), at least one.
  std::vector<ReductionStep> reduction;
  bool partials_in_output_type = false;  // each slice's partial rounded to D's type before the reduction
  bool in_place_slices = false;  // REDUCTION_SCHEME_INPLACE: each slice added into D in D's type (no bias)
  bool beta_fma = false;      // epilogue fma(beta, C, alpha * acc), else fma(alpha, acc, beta * C)
  BiasEpilogue bias = BiasEpilogue::none;  // a bias call's epilogue (alpha 1 only: model_declines)
  float alpha = 1.0f;         // alpha' (FP8 scales folded in)
};
// Throws std::invalid_argument for a call the library refuses.
LibraryPlan plan_library_gemm(const LibraryCall& call, const LibraryAlgo& algo);

// Every field of a plan as one line ("wgmma sm90 ... slices 3 chunk 640 ..."): two configurations whose
// plans read the same compute the same bits for every input, whatever else differs (tile, swizzle).
std::string describe_plan(const LibraryPlan& plan);

// D[M][N] from A[M][K], B[K][N], C[M][N] (row-major raw bits in the call's formats; tf32 operands are
// full fp32 patterns). Throws std::invalid_argument for a call the library refuses.
// Rows [first_row, end_row) of D only, when given (threads share a call this way: a call of fewer
// rows is another call, which the library may refuse where it runs this one).
void library_gemm(const LibraryCall& call, const LibraryAlgo& algo, const uint32_t* A, const uint32_t* B,
                  const uint32_t* C, uint32_t* D, size_t first_row = 0, size_t end_row = SIZE_MAX);

// The same with a plan given rather than decided from the rules: how `mmaemu probe --cublaslt` asks what
// each candidate rule would compute. The plan must fit the call (its reduction naming the slices K has).
void library_gemm_planned(const LibraryCall& call, const LibraryPlan& plan, const uint32_t* A, const uint32_t* B,
                          const uint32_t* C, uint32_t* D, size_t first_row = 0, size_t end_row = SIZE_MAX);

// The reduction orders of rule 4: slice order, or algorithm 55's pairing of slice t with t + ceil(S/2).
std::vector<ReductionStep> slice_reduction_order(size_t slices, bool paired);

}  // namespace mmaemu::ref
