#include "harness/api/compute.hpp"

#include "harness/api/compute_checks.hpp"

#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/scale_operands.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::api {
namespace {

// The scale operands' presence (by name: absent is an empty name) and, when the instruction takes
// them, their shapes and dtypes.
void check_scales(const ref::Instruction& in, const ComputeRequest& r, const ScaledShape& shape, bool batched) {
  const ScaleFiles names{r.scale_a ? r.scale_a->name : "", r.scale_b ? r.scale_b->name : ""};
  if (scale_operands_expected(in, names))
    check_scale_operands(in, names, r.scale_a->array, r.scale_b->array, shape, batched);
}

const uint32_t* words_or_null(const std::optional<Operand>& o) {
  return o && !o->array.values.empty() ? o->array.values.data() : nullptr;
}

const char* dtype_of(ref::FormatId f) {
  const int bytes = storage_bytes(f);
  return bytes == 1 ? "uint8" : bytes == 2 ? "uint16" : bytes == 8 ? "uint64" : "uint32";
}

// One GEMM operand's [rows, cols] (rank 2) or [batch, rows, cols] (rank 3), after its dtype check.
struct Matrix {
  size_t batch, rows, cols;
  bool batched;
};

Matrix check_matrix(const Operand& o, char role, const char* dims, ref::FormatId f, const std::string& instr) {
  const NpyArray& arr = o.array;
  if (arr.shape.size() != 2 && arr.shape.size() != 3)
    throw InputError(o.name, std::string(1, role) + " has shape " + arr.shape_string() + "; mmaemu gemm needs " + dims);
  if (arr.word_bytes != storage_bytes(f))
    throw InputError(o.name, std::string(1, role) + " has dtype " + arr.dtype_name() + "; " + instr + " reads " +
                                 std::string(1, role) + " as " + std::string(ref::format_name(f)) + ", stored as " +
                                 dtype_of(f));
  const bool batched = arr.shape.size() == 3;
  const size_t off = batched ? 1 : 0;
  return {batched ? arr.shape[0] : 1, arr.shape[off], arr.shape[off + 1], batched};
}

NpyArray result_like(const NpyArray& c, ref::FormatId d) {
  NpyArray out;
  out.word_bytes = storage_bytes(d);
  out.shape = c.shape;
  out.values.resize(out.word_count());
  return out;
}

}  // namespace

const ref::InstructionModel& find_instruction(const std::string& arch_name, const std::string& instr) {
  if (arch_name.empty() || instr.empty())
    throw InputError(arch_name.empty() ? "--arch" : "--instr",
                     "mmaemu gemm needs --arch and --instr (or --library for a library call)");
  const auto arch = ref::parse_arch(arch_name);
  if (!arch) throw InputError("--arch", "unknown architecture '" + arch_name + "' (sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120)");
  return ref::lookup(*arch, instr);  // UnsupportedInstruction (exit 2) when absent
}

CheckedRequest check_mma(const ComputeRequest& r) {
  const ref::InstructionModel& model = find_instruction(r.arch, r.instr);
  const size_t tiles = check_operands(model.instr, r.a.array, r.a.name, r.b.array, r.b.name, r.c.array, r.c.name);
  const size_t M = static_cast<size_t>(model.instr.m), N = static_cast<size_t>(model.instr.n),
               K = static_cast<size_t>(model.instr.k);
  check_scales(model.instr, r, {tiles, M, N, K}, true);
  // One instruction over T tiles is a GEMM with batch = T and the instruction's M, N, K.
  return {&model, {tiles, M, N, K}, {tiles, M, N}};
}

ComputeResult mma(const ComputeRequest& r) {
  const CheckedRequest checked = check_mma(r);
  ComputeResult out;
  out.d = result_like(r.c.array, checked.model->instr.d);
  out.d.shape = checked.d_shape;
  out.run = run_on_backend(r.backend, {checked.model, checked.shape, r.a.array.values.data(), r.b.array.values.data(),
                                       r.c.array.values.data(), out.d.values.data(), nullptr,
                                       words_or_null(r.scale_a), words_or_null(r.scale_b)});
  return out;
}

CheckedRequest check_gemm(const ComputeRequest& r) {
  const ref::InstructionModel& model = find_instruction(r.arch, r.instr);
  const ref::Instruction& in = model.instr;
  const Matrix a = check_matrix(r.a, 'A', "[M, K] or [batch, M, K]", in.a, in.name);
  const Matrix b = check_matrix(r.b, 'B', "[K, N] or [batch, K, N]", in.b, in.name);
  const Matrix c = check_matrix(r.c, 'C', "[M, N] or [batch, M, N]", in.c, in.name);
  const std::string a_shape = r.a.array.shape_string();
  if (b.batched != a.batched || b.batch != a.batch)
    throw InputError(r.b.name, "B has shape " + r.b.array.shape_string() + " but A (" + r.a.name + ") has " + a_shape +
                                   ": both [.., K] with the same batch, or neither batched");
  if (c.batched != a.batched || c.batch != a.batch)
    throw InputError(r.c.name, "C has shape " + r.c.array.shape_string() + " but A (" + r.a.name + ") has " + a_shape +
                                   ": both with the same batch, or neither batched");
  if (b.rows != a.cols)
    throw InputError(r.b.name, "B has K = " + std::to_string(b.rows) + " rows but A (" + r.a.name + ") has K = " +
                                   std::to_string(a.cols) + " columns");
  if (c.rows != a.rows || c.cols != b.cols)
    throw InputError(r.c.name, "C has shape " + r.c.array.shape_string() + "; A and B make D [" + std::to_string(a.rows) +
                                   ", " + std::to_string(b.cols) + "]");
  if (a.batch == 0 || a.rows == 0 || b.cols == 0)
    throw InputError(r.a.name, "the GEMM is empty (batch, M and N must be at least 1)");

  const kernels::GemmShape shape{a.batch, a.rows, b.cols, a.cols};
  check_scales(in, r, {shape.batch, shape.M, shape.N, shape.K}, a.batched);
  return {&model, shape, r.c.array.shape};
}

ComputeResult gemm(const ComputeRequest& r) {
  const CheckedRequest checked = check_gemm(r);
  const ref::InstructionModel& model = *checked.model;
  const ref::Instruction& in = model.instr;
  const kernels::GemmShape& shape = checked.shape;
  ComputeResult out;
  out.d = result_like(r.c.array, in.d);
  if (r.trace) {
    out.trace = result_like(r.c.array, in.d);
    out.trace.shape.push_back(ref::gemm_steps(model, shape.K));
    out.trace.values.resize(out.trace.word_count());
  }
  out.run = run_on_backend(r.backend, {&model, shape, r.a.array.values.data(), r.b.array.values.data(),
                                       r.c.array.values.data(), out.d.values.data(),
                                       r.trace ? out.trace.values.data() : nullptr, words_or_null(r.scale_a),
                                       words_or_null(r.scale_b)});
  return out;
}

}  // namespace mmaemu::api
