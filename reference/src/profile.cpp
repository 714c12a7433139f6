// Architecture profiles: which instructions each architecture has, and the block model of each.
// Every number here is data taken from recordings of real GPUs (fixtures/, and the third-party
// recordings); NUMERICS.md gives the published leads they started from.
#include <initializer_list>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "mmaemu/reference/model.hpp"

namespace mmaemu::ref {
namespace {

using F = FormatId;

// --- block models -------------------------------------------------------------------------------
BlockModel fp32_acc(int L, int frac_bits, int zero_exp = INT_MIN) {
  BlockModel b;
  b.block_k = L;
  b.frac_bits = frac_bits;
  b.block_result = F::fp32;
  b.rounding = Rounding::toward_zero;
  b.zero_product_exp = zero_exp;
  return b;
}
BlockModel fp16_acc(int L, int frac_bits, int zero_exp = INT_MIN) {
  BlockModel b = fp32_acc(L, frac_bits, zero_exp);
  b.block_result = F::fp16;
  b.rounding = Rounding::nearest_even;
  return b;
}
// Ada and Hopper FP8: the block rounds toward zero to fp32's range with 13 fraction bits.
BlockModel e8m13_acc(int L, int frac_bits, int zero_exp = INT_MIN) {
  BlockModel b = fp32_acc(L, frac_bits, zero_exp);
  b.block_result = F::e8m13;
  return b;
}

BlockModel positive_zero(BlockModel b) {
  b.zero_result_positive = true;
  return b;
}

// --- catalogue builders ---------------------------------------------------------------------------
struct Builder {
  Arch arch;
  std::vector<InstructionModel> out;

  void add(InstrFamily fam, int m, int n, int k, F d, F a, F b, F c, const BlockModel& bm,
           std::string kind = {}, std::optional<BlockScale> scale = std::nullopt) {
    Instruction in{"", fam, m, n, k, a, b, c, d, std::move(kind), scale};
    in.name = spell(in);
    out.push_back({arch, in, bm, std::nullopt});
  }
  // mma.sync with both accumulations where the type allows fp16 accumulation.
  void mma(int m, int n, int k, F ab, const BlockModel& f32, const BlockModel* f16 = nullptr) {
    add(InstrFamily::mma_sync, m, n, k, F::fp32, ab, ab, F::fp32, f32);
    if (f16) add(InstrFamily::mma_sync, m, n, k, F::fp16, ab, ab, F::fp16, *f16);
  }
  void mma_fp8(int m, int n, int k, const BlockModel& f32, const BlockModel* f16 = nullptr) {
    mma_mixed(m, n, k, {F::e4m3, F::e5m2}, f32, f16);
  }
  // Every A x B pair of `types` (the operands may differ), fp32 and (when given) fp16 accumulation.
  void mma_mixed(int m, int n, int k, std::initializer_list<F> types, const BlockModel& f32, const BlockModel* f16) {
    for (F a : types)
      for (F b : types) {
        add(InstrFamily::mma_sync, m, n, k, F::fp32, a, b, F::fp32, f32);
        if (f16) add(InstrFamily::mma_sync, m, n, k, F::fp16, a, b, F::fp16, *f16);
      }
  }
  // Volta's m8n8k4 (fp16 inputs), 4-element blocks with 23 fraction bits: C and D both fp32 or both
  // fp16, and an fp16 C with an fp32 D (the fp32 block: C is a term like any other, read as fp16; a
  // GEMM's later steps read the accumulator as fp32, see ref::gemm). Turing runs the same instruction
  // with Volta's arithmetic, not its own: MMA-Sim 2.1.1 models it so (a model's evidence; no Turing
  // recording of m8n8k4 here). The fp32 C with an fp16 D that PTX also allows is in neither model.
  void volta_m8n8k4() {
    const BlockModel f32 = fp32_acc(4, 23), f16 = fp16_acc(4, 23);
    mma(8, 8, 4, F::fp16, f32, &f16);
    add(InstrFamily::mma_sync, 8, 8, 4, F::fp32, F::fp16, F::fp16, F::fp16, f32);
  }
  // fp64 mma (DMMA): an IEEE fma chain, no block model (InstructionModel::fma_chain).
  void fp64(int m, int n, int k) {
    add(InstrFamily::mma_sync, m, n, k, F::fp64, F::fp64, F::fp64, F::fp64, {});
    out.back().fma_chain = true;
  }
  // mma.sync FP8 where the architecture has no FP8 warp-level unit: lowered to fp16 HMMAs (see
  // Lowering). The compiler (ptxas 13.0) deals each register's 4 consecutive k as two fp16 pairs, so
  // the first HMMA gets k % 4 in {0, 1} and the second k % 4 in {2, 3}.
  void mma_fp8_lowered(int m, int n, int k) {
    for (F a : {F::e4m3, F::e5m2})
      for (F b : {F::e4m3, F::e5m2}) {
        add(InstrFamily::mma_sync, m, n, k, F::fp32, a, b, F::fp32, {});
        out.back().lowering = Lowering{"mma.m16n8k16.f32.f16.f16.f32", 2, 2, nullptr};
        add(InstrFamily::mma_sync, m, n, k, F::fp16, a, b, F::fp16, {});
        out.back().lowering = Lowering{"mma.m16n8k16.f16.f16.f16.f16", 2, 2, nullptr};
      }
  }
  // wgmma: m64nNkK, N a multiple of 8 up to 256. The catalogue lists N = 8 ... 256 by powers of
  // two; lookup() accepts every legal N.
  void wgmma(int k, F a, F b, const BlockModel& f32, const BlockModel* f16) {
    for (int n = 8; n <= 256; n *= 2) {
      add(InstrFamily::wgmma, 64, n, k, F::fp32, a, b, F::fp32, f32);
      if (f16) add(InstrFamily::wgmma, 64, n, k, F::fp16, a, b, F::fp16, *f16);
    }
  }
  // tcgen05.mma (cta_group::1, no .ws) at M = 64 and 128, N = 8 ... 256 by powers of two (lookup()
  // accepts every multiple of 8, as MMA-Sim 2.1.1 does; PTX asks N % 16 == 0 at M = 128), D = C.
  void tcgen05(const char* kind, int k, F d, F a, F b, const BlockModel& bm) {
    for (int m : {64, 128})
      for (int n = 8; n <= 256; n *= 2) add(InstrFamily::tcgen05, m, n, k, d, a, b, d, bm, kind);
  }
  // The block-scaled kinds, fp32 results. kind::mxf8f6f4 (K = 32, one ue8m0 scale per 32 k) over every
  // A x B pair of `types`; kind::mxf4 (K = 64, ue8m0 per 32) and kind::mxf4nvf4 (K = 64, ue8m0 per 32 or
  // 16, ue4m3 per 16) on e2m1. mma.sync at m16n8; tcgen05 at M = 128, N as tcgen05() lists them.
  void block_scaled(InstrFamily fam, std::initializer_list<F> types, const BlockModel& mx8, const BlockModel& mx4) {
    const std::vector<int> ns = fam == InstrFamily::tcgen05 ? std::vector<int>{8, 16, 32, 64, 128, 256} : std::vector<int>{8};
    const int m = fam == InstrFamily::tcgen05 ? 128 : 16;
    const auto one = [&](int n, int k, const char* kind, F a, F b, BlockScale sc, const BlockModel& bm) {
      add(fam, m, n, k, F::fp32, a, b, F::fp32, bm, kind, sc);
    };
    for (int n : ns) {
      for (F a : types)
        for (F b : types) one(n, 32, "mxf8f6f4", a, b, {F::ue8m0, 32}, mx8);
      one(n, 64, "mxf4", F::e2m1, F::e2m1, {F::ue8m0, 32}, mx4);
      one(n, 64, "mxf4nvf4", F::e2m1, F::e2m1, {F::ue8m0, 32}, mx4);
      one(n, 64, "mxf4nvf4", F::e2m1, F::e2m1, {F::ue8m0, 16}, mx4);
      one(n, 64, "mxf4nvf4", F::e2m1, F::e2m1, {F::ue4m3, 16}, mx4);
    }
  }
};

// The Blackwell block-scaled models, MMA-Sim 2.1.1's (a model, not hardware; no Blackwell GPU has
// been recorded here). kind::mxf8f6f4: every product times its two scales is a term of its own, one
// 32-element block, F = 25, zero products at 2^-133, RZ to fp32. kind::mxf4 and mxf4nvf4: the products
// of each 16 consecutive k are summed exactly first, and each group (times its scales) is aligned at
// its scales' exponent; one 64-element block, F = 35, zero groups at 2^-139, RZ to fp32.
BlockModel mx_per_product() { return fp32_acc(32, 25, -133); }
BlockModel mx_grouped() {
  BlockModel b = fp32_acc(64, 35, -139);
  b.group_k = 16;
  return b;
}

std::vector<InstructionModel> build(Arch arch) {
  Builder c{arch, {}};
  switch (arch) {
    case Arch::sm70: {  // Volta: 4-element blocks
      c.volta_m8n8k4();
      break;
    }
    case Arch::sm75: {  // Turing: 8-element blocks, one more fraction bit; Volta's m8n8k4 as Volta runs it
      const BlockModel f32 = fp32_acc(8, 24), f16 = fp16_acc(8, 24);
      c.mma(16, 8, 8, F::fp16, f32, &f16);
      c.volta_m8n8k4();
      break;
    }
    case Arch::sm80:
    case Arch::sm86:
    case Arch::sm89: {  // Ampere and Ada: 8-element blocks for 16-bit inputs, 4 for tf32
      const BlockModel f32 = fp32_acc(8, 24), f16 = fp16_acc(8, 24), tf = fp32_acc(4, 24);
      for (int k : {8, 16}) {
        c.mma(16, 8, k, F::fp16, f32, &f16);
        c.mma(16, 8, k, F::bf16, f32);
      }
      for (int k : {4, 8}) c.mma(16, 8, k, F::tf32, tf);
      c.fp64(8, 8, 4);
      if (arch == Arch::sm89) {  // Ada FP8: 16-element blocks rounded to e8m13 (k16: one block)
        const BlockModel f8 = e8m13_acc(16, 13), f8h = fp16_acc(16, 13);
        for (int k : {32, 16}) c.mma_fp8(16, 8, k, f8, &f8h);
      }
      break;
    }
    case Arch::sm90: {  // Hopper: 16-element blocks with 25 fraction bits; FP8 32-element, e8m13
      // Zero results are +0 whatever the signs of the zero terms (the H200, reports/h200/probe).
      const BlockModel f32 = positive_zero(fp32_acc(16, 25, -133)), f16 = positive_zero(fp16_acc(16, 25, -21)),
                       tf = positive_zero(fp32_acc(8, 25, -133)), f8 = positive_zero(e8m13_acc(32, 13, -133)),
                       f8h = positive_zero(fp16_acc(32, 13, -21));
      for (int k : {8, 16}) {
        c.mma(16, 8, k, F::fp16, f32, &f16);
        c.mma(16, 8, k, F::bf16, f32);
      }
      for (int k : {4, 8}) c.mma(16, 8, k, F::tf32, tf);
      c.fp64(8, 8, 4);
      for (int k : {4, 8, 16}) c.fp64(16, 8, k);  // Hopper's own DMMA shapes
      c.mma_fp8_lowered(16, 8, 32);  // Hopper's FP8 unit is wgmma's; mma.sync FP8 is lowered
      c.wgmma(16, F::fp16, F::fp16, f32, &f16);
      c.wgmma(16, F::bf16, F::bf16, f32, nullptr);
      c.wgmma(8, F::tf32, F::tf32, tf, nullptr);
      for (F a : {F::e4m3, F::e5m2})
        for (F b : {F::e4m3, F::e5m2}) c.wgmma(32, a, b, f8, &f8h);
      break;
    }
    case Arch::sm100:
    case Arch::sm120: {  // Blackwell: 25 fraction bits
      const BlockModel f32 = fp32_acc(16, 25, -133), f16 = fp16_acc(16, 25, -21),
                       tf = fp32_acc(8, 25, -133);
      for (int k : {8, 16}) {
        c.mma(16, 8, k, F::fp16, f32, &f16);
        c.mma(16, 8, k, F::bf16, f32);
      }
      for (int k : {4, 8}) c.mma(16, 8, k, F::tf32, tf);
      c.fp64(8, 8, 4);  // Blackwell keeps Ampere's DMMA shape only (PTX: m16n8k{4,8,16} are sm_90 only)
      const std::initializer_list<F> f8f6f4 = {F::e5m2, F::e4m3, F::e3m2, F::e2m3, F::e2m1};
      if (arch == Arch::sm100) {
        c.mma_fp8_lowered(16, 8, 32);  // data-centre Blackwell lowers mma.sync FP8 like Hopper
        // tcgen05.mma: MMA-Sim 2.1.1's model (a model, not hardware): 32 bytes of operands per block
        // (L = 8 tf32, 16 fp16/bf16, 32 for the one-byte kinds), F = 25, zero products at 2^-133
        // (fp32 results, RZ) or 2^-21 (fp16, RNE). Unlike Hopper's wgmma, FP8 keeps 25 bits and fp32.
        const BlockModel b8 = fp32_acc(32, 25, -133), b8h = fp16_acc(32, 25, -21);
        c.tcgen05("tf32", 8, F::fp32, F::tf32, F::tf32, tf);
        for (F ab : {F::fp16, F::bf16}) c.tcgen05("f16", 16, F::fp32, ab, ab, f32);
        c.tcgen05("f16", 16, F::fp16, F::fp16, F::fp16, f16);
        for (F d : {F::fp32, F::fp16})
          for (F a : f8f6f4)
            for (F b : f8f6f4) c.tcgen05("f8f6f4", 32, d, a, b, d == F::fp32 ? b8 : b8h);
        c.block_scaled(InstrFamily::tcgen05, f8f6f4, mx_per_product(), mx_grouped());
      } else {
        // sm_120 has a native FP8/FP6/FP4 mma.sync (kind::f8f6f4 at m16n8k32, every A x B pair of
        // e5m2, e4m3, e3m2, e2m3, e2m1; and Ada's FP8 forms, m16n8k32 and m16n8k16). No recording of
        // an sm_120 GPU here: the model is MMA-Sim 2.1.1's (a model, not hardware): 32 bytes of
        // operands per block (L = 32 one-byte elements, whatever the format), F = 25, zero products
        // at 2^-133 (fp32) / 2^-21 (fp16), RZ to fp32 or RNE to fp16; independent probes of an RTX
        // 5090 report the same 25 bits (NUMERICS.md).
        const BlockModel f8 = fp32_acc(32, 25, -133), f8h = fp16_acc(32, 25, -21);
        c.mma_mixed(16, 8, 32, f8f6f4, f8, &f8h);
        c.mma_fp8(16, 8, 16, f8, &f8h);
        c.block_scaled(InstrFamily::mma_sync, f8f6f4, mx_per_product(), mx_grouped());
      }
      break;
    }
    case Arch::count: break;
  }
  return std::move(c.out);
}

// Points each lowered instruction at the model it runs as, in the same list.
void resolve_lowerings(std::vector<InstructionModel>& list, const std::string& origin) {
  for (auto& m : list) {
    if (!m.lowering) continue;
    m.lowering->via_model = nullptr;
    for (const auto& via : list)
      if (via.instr.name == m.lowering->via && !via.lowering) m.lowering->via_model = &via;
    if (!m.lowering->via_model)
      throw std::invalid_argument(origin + ": the lowering of " + m.instr.name + " names " + m.lowering->via +
                                  ", which the profile does not have (or which is lowered itself)");
  }
}

// The catalogues in use. Installing a profile adds a new list and points its architecture at it; the
// lists replaced stay alive, so references handed out earlier remain valid.
struct Catalogues {
  std::mutex mu;
  std::list<std::vector<InstructionModel>> storage;
  const std::vector<InstructionModel>* builtin[static_cast<size_t>(Arch::count)] = {};
  const std::vector<InstructionModel>* current[static_cast<size_t>(Arch::count)] = {};
  std::string origin[static_cast<size_t>(Arch::count)];
};

Catalogues& catalogues() {
  static Catalogues* all = [] {
    auto* c = new Catalogues;
    for (Arch x : all_archs()) {
      auto& list = c->storage.emplace_back(build(x));
      resolve_lowerings(list, "built-in profile " + std::string(arch_name(x)));
      c->builtin[static_cast<size_t>(x)] = c->current[static_cast<size_t>(x)] = &list;
    }
    return c;
  }();
  return *all;
}

const std::vector<InstructionModel>& catalogue(Arch a) {
  Catalogues& c = catalogues();
  std::lock_guard<std::mutex> lock(c.mu);
  return *c.current[static_cast<size_t>(a)];
}

// The same instruction apart from N (a wgmma or tcgen05 entry at N = 8 stands for every N).
bool same_but_n(const Instruction& x, const Instruction& y) {
  Instruction a = x, b = y;
  a.n = b.n = 8;
  return spell(a) == spell(b);
}

}  // namespace

const std::vector<InstructionModel>& instructions_of(Arch a) { return catalogue(a); }

const std::vector<InstructionModel>& builtin_instructions_of(Arch a) {
  return *catalogues().builtin[static_cast<size_t>(a)];
}

void install_profile(Arch arch, const std::vector<InstructionModel>& models, bool keep_builtin,
                     const std::string& origin) {
  std::vector<InstructionModel> list;
  if (keep_builtin) list = builtin_instructions_of(arch);
  for (const InstructionModel& m : models) {
    if (m.arch != arch) throw std::invalid_argument(origin + ": " + m.instr.name + " is given for another architecture");
    // An entry replaces the instruction it names; a wgmma/tcgen05 entry at N = 8 also every N it stands for.
    const bool any_n = takes_any_n(m.instr.family) && m.instr.n == 8;
    std::vector<InstructionModel> kept;
    for (auto& old : list) {
      const bool replaced = old.instr.name == m.instr.name || (any_n && same_but_n(old.instr, m.instr));
      if (!replaced) kept.push_back(std::move(old));
    }
    list = std::move(kept);
    list.push_back(m);
    if (any_n)
      for (int n = 16; n <= 256; n *= 2) {
        InstructionModel wide = m;
        wide.instr.n = n;
        wide.instr.name = spell(wide.instr);
        list.push_back(std::move(wide));
      }
  }
  resolve_lowerings(list, origin);
  Catalogues& c = catalogues();
  std::lock_guard<std::mutex> lock(c.mu);
  c.storage.push_back(std::move(list));
  c.current[static_cast<size_t>(arch)] = &c.storage.back();
  c.origin[static_cast<size_t>(arch)] = origin;
}

void restore_builtin_profile(Arch arch) {
  Catalogues& c = catalogues();
  std::lock_guard<std::mutex> lock(c.mu);
  c.current[static_cast<size_t>(arch)] = c.builtin[static_cast<size_t>(arch)];
  c.origin[static_cast<size_t>(arch)].clear();
}

std::string profile_origin(Arch arch) {
  Catalogues& c = catalogues();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.origin[static_cast<size_t>(arch)];
}

const InstructionModel& lookup(Arch arch, std::string_view ptx) {
  std::string why;
  const auto parsed = parse_instruction(ptx, &why);
  if (!parsed) throw std::invalid_argument(why);
  const std::vector<InstructionModel>& list = catalogue(arch);
  for (const auto& m : list)
    if (m.instr.name == ptx) return m;
  // wgmma and tcgen05 take any N that is a multiple of 8 up to 256: find the N = 8 row and instantiate.
  if (takes_any_n(parsed->family) && parsed->n % 8 == 0 && parsed->n <= 256) {
    Instruction n8 = *parsed;
    n8.n = 8;
    const std::string key = spell(n8);
    for (const auto& m : list) {
      if (m.instr.name != key) continue;
      static std::mutex mu;
      static std::map<std::pair<const void*, std::string>, InstructionModel> cache;  // per catalogue in use
      std::lock_guard<std::mutex> lock(mu);
      auto [it, inserted] = cache.try_emplace({&list, std::string(ptx)}, m);
      if (inserted) {
        it->second.instr.n = parsed->n;
        it->second.instr.name = std::string(ptx);
      }
      return it->second;
    }
  }
  std::string have;
  for (const auto& m : catalogue(arch))
    if (m.instr.family == parsed->family && !is_wide_n_variant(m.instr) &&
        (parsed->family != InstrFamily::tcgen05 || m.instr.m == parsed->m))
      have += "\n  " + m.instr.name;
  const std::string family = parsed->family == InstrFamily::wgmma     ? "wgmma"
                             : parsed->family == InstrFamily::tcgen05 ? "tcgen05.mma"
                                                                      : "mma";
  std::string msg = std::string(arch_name(arch)) + " does not have the instruction " + std::string(ptx);
  if (parsed->family == InstrFamily::wgmma && arch != Arch::sm90) msg += " (wgmma exists on sm90 only)";
  if (parsed->family == InstrFamily::tcgen05 && arch != Arch::sm100) msg += " (tcgen05.mma exists on sm100 only)";
  if (have.empty())
    msg += "; it has no " + family + " instructions";
  else
    msg += "; its " + family + " instructions" + (parsed->family == InstrFamily::tcgen05 ? " at this M" : "") +
           " are (N = 8 stands for every multiple of 8 up to 256 where the family allows it):" + have;
  throw UnsupportedInstruction(msg);
}

}  // namespace mmaemu::ref
