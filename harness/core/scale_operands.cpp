#include "harness/core/scale_operands.hpp"

#include <vector>

#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"

namespace mmaemu {
namespace {

std::string shape_text(const std::vector<size_t>& dims, bool batched, const char* lead) {
  std::string s = "[";
  if (batched) s += std::string(lead) + ", ";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

void check_one(const ref::Instruction& in, char role, const NpyArray& arr, const std::string& file, size_t batch,
               size_t rows, size_t cols, bool batched) {
  const std::string what = std::string("scale operand of ") + role;
  const size_t off = batched ? 1 : 0;
  if (arr.shape.size() != off + 2 || (batched && arr.shape[0] != batch) || arr.shape[off] != rows ||
      arr.shape[off + 1] != cols)
    throw InputError(file, "the " + what + " has shape " + arr.shape_string() + "; " + in.name + " needs " +
                               shape_text({rows, cols}, batched, std::to_string(batch).c_str()) + " (one " +
                               std::string(ref::format_name(in.scale->format)) + " per " +
                               std::to_string(in.scale->block) + " k, the last for what K leaves)");
  if (arr.word_bytes != 1)
    throw InputError(file, "the " + what + " has dtype " + arr.dtype_name() + "; " + in.name + "'s scales are " +
                               std::string(ref::format_name(in.scale->format)) + ", stored as uint8");
  check_unused_bits_clear(arr, file, role, in.scale->format);
}

}  // namespace

void check_scale_operands(const ref::Instruction& in, const ScaleFiles& files, const NpyArray& sa, const NpyArray& sb,
                          const ScaledShape& shape, bool batched) {
  const size_t S = ref::scale_count(in, shape.K);
  check_one(in, 'A', sa, files.a, shape.batch, shape.M, S, batched);
  check_one(in, 'B', sb, files.b, shape.batch, S, shape.N, batched);
}

bool scale_operands_expected(const ref::Instruction& in, const ScaleFiles& files) {
  if (!in.scale) {
    if (!files.a.empty() || !files.b.empty())
      throw InputError(files.a.empty() ? "--scale-b" : "--scale-a", in.name + " is not block-scaled: it takes no scales");
    return false;
  }
  if (files.a.empty() || files.b.empty())
    throw InputError(files.a.empty() ? "--scale-a" : "--scale-b",
                     in.name + " is block-scaled: it needs --scale-a and --scale-b (one " +
                         std::string(ref::format_name(in.scale->format)) + " per " + std::to_string(in.scale->block) +
                         " k of each row of A and column of B)");
  return true;
}

void read_scale_operands(const ref::Instruction& in, const ScaleFiles& files, const ScaledShape& shape,
                         bool batched, NpyArray& sa, NpyArray& sb) {
  if (!scale_operands_expected(in, files)) return;
  sa = read_npy(files.a);
  sb = read_npy(files.b);
  check_scale_operands(in, files, sa, sb, shape, batched);
}

}  // namespace mmaemu
