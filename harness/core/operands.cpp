#include "harness/core/operands.hpp"

#include <vector>

#include "harness/core/comparator.hpp"
#include "harness/core/errors.hpp"

namespace mmaemu {
namespace {

std::string dims_string(const std::vector<std::string>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
  return s + "]";
}

const char* dtype_of_width(int bytes) { return bytes == 1 ? "uint8" : bytes == 2 ? "uint16" : bytes == 8 ? "uint64" : "uint32"; }

// Checks one operand against [T, rows, cols] and its format's storage width; returns its T.
size_t check_operand(const ref::Instruction& instr, char role, ref::FormatId format, size_t rows,
                     const char* row_name, size_t cols, const char* col_name, const NpyArray& arr,
                     const std::string& file) {
  const std::string expect = dims_string({"T", std::string(row_name) + "=" + std::to_string(rows),
                                          std::string(col_name) + "=" + std::to_string(cols)});
  if (arr.shape.size() != 3 || arr.shape[1] != rows || arr.shape[2] != cols)
    throw InputError(file, std::string(1, role) + " has shape " + arr.shape_string() + "; " + instr.name +
                               " needs " + expect);
  const int want = storage_bytes(format);
  if (arr.word_bytes != want)
    throw InputError(file, std::string(1, role) + " has dtype " + arr.dtype_name() + "; " + instr.name + " reads " +
                               std::string(1, role) + " as " + std::string(ref::format_name(format)) +
                               ", stored as " + dtype_of_width(want));
  check_unused_bits_clear(arr, file, role, format);
  return arr.shape[0];
}

}  // namespace

int storage_bytes(ref::FormatId f) { return ref::spec(f).storage_bytes(); }

void check_unused_bits_clear(const NpyArray& arr, const std::string& file, char role, ref::FormatId format) {
  const int bits = ref::spec(format).storage_bits;
  if (bits >= 8 * storage_bytes(format)) return;
  const uint32_t unused = ~((1u << bits) - 1u);
  for (size_t i = 0; i < arr.values.size(); ++i)
    if (arr.values[i] & unused)
      throw InputError(file, std::string(1, role) + " element " + std::to_string(i) + " (flat index) is 0x" +
                                 hex_bits(arr.values[i], storage_bytes(format)) + ", but " +
                                 std::string(ref::format_name(format)) + " takes the low " + std::to_string(bits) +
                                 " bits of each byte and the others must be zero");
}

size_t check_operands(const ref::Instruction& instr, const NpyArray& a, const std::string& a_file,
                      const NpyArray& b, const std::string& b_file, const NpyArray& c,
                      const std::string& c_file) {
  const size_t m = static_cast<size_t>(instr.m), n = static_cast<size_t>(instr.n), k = static_cast<size_t>(instr.k);
  const size_t ta = check_operand(instr, 'A', instr.a, m, "M", k, "K", a, a_file);
  if (ta == 0) throw InputError(a_file, "A holds no tiles (T = 0)");
  const size_t tb = check_operand(instr, 'B', instr.b, k, "K", n, "N", b, b_file);
  if (tb != ta)
    throw InputError(b_file, "B holds " + std::to_string(tb) + " tiles but A (" + a_file + ") holds " + std::to_string(ta));
  const size_t tc = check_operand(instr, 'C', instr.c, m, "M", n, "N", c, c_file);
  if (tc != ta)
    throw InputError(c_file, "C holds " + std::to_string(tc) + " tiles but A (" + a_file + ") holds " + std::to_string(ta));
  return ta;
}

void check_result(const ref::Instruction& instr, size_t tiles, const NpyArray& d, const std::string& d_file) {
  const size_t td = check_operand(instr, 'D', instr.d, static_cast<size_t>(instr.m), "M",
                                  static_cast<size_t>(instr.n), "N", d, d_file);
  if (td != tiles)
    throw InputError(d_file, "D holds " + std::to_string(td) + " tiles but the operands hold " + std::to_string(tiles));
}

}  // namespace mmaemu
