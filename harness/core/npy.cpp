#include "harness/core/npy.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu {

size_t NpyArray::size() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

std::string NpyArray::dtype_name() const {
  return word_bytes == 1 ? "uint8" : word_bytes == 2 ? "uint16" : word_bytes == 4 ? "uint32" : word_bytes == 8 ? "uint64" : "?";
}

std::string NpyArray::shape_string() const {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) s += ",";
  return s + ")";
}

namespace {

std::string dict_value(const std::string& header, const std::string& key, const std::string& file) {
  // The header is a Python dict literal; numpy writes the three keys in a fixed style, but tolerate
  // whitespace differences. Scanned by hand, not with std::regex: libstdc++'s regex matcher recurses
  // once per character, and a corrupt header of some ten thousand spaces overflowed the stack.
  const std::string quoted = "'" + key + "'";
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  for (size_t at = header.find(quoted); at != std::string::npos; at = header.find(quoted, at + 1)) {
    size_t i = at + quoted.size();
    while (i < header.size() && is_space(header[i])) ++i;
    if (i >= header.size() || header[i] != ':') continue;
    ++i;
    while (i < header.size() && is_space(header[i])) ++i;
    if (i >= header.size()) break;
    size_t end = std::string::npos;
    if (header[i] == '\'') end = header.find('\'', i + 1);
    else if (header[i] == '(') end = header.find(')', i + 1);
    else if (header.compare(i, 4, "True") == 0) end = i + 3;
    else if (header.compare(i, 5, "False") == 0) end = i + 4;
    if (end != std::string::npos) return header.substr(i, end - i + 1);
  }
  throw InputError(file, "npy header lacks '" + key + "'");
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string bytes = read_input_file(path, ".npy file");
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    throw InputError(file, "not an .npy file (bad magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, header_off = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    header_off = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw InputError(file, "truncated .npy header");
    for (int i = 0; i < 4; ++i) header_len |= size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    header_off = 12;
  } else {
    throw InputError(file, "unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() < header_off + header_len) throw InputError(file, "truncated .npy header");
  const std::string header = bytes.substr(header_off, header_len);

  NpyArray a;
  const std::string descr = dict_value(header, "descr", file);
  if (descr == "'|u1'" || descr == "'<u1'") a.word_bytes = 1;
  else if (descr == "'<u2'") a.word_bytes = 2;
  else if (descr == "'<u4'") a.word_bytes = 4;
  else if (descr == "'<u8'") a.word_bytes = 8;
  else throw InputError(file, "dtype " + descr + " is not a little-endian unsigned integer (uint8/16/32/64)");
  if (dict_value(header, "fortran_order", file) != "False")
    throw InputError(file, "Fortran-order arrays are not accepted; save in C order");
  std::string shape = dict_value(header, "shape", file);
  // Every run of digits is one dimension. A run too long for size_t is a corrupt header, not a
  // std::out_of_range out of std::stoull (which nothing caught: the program aborted).
  for (size_t i = 0; i < shape.size();) {
    if (shape[i] < '0' || shape[i] > '9') {
      ++i;
      continue;
    }
    size_t d = 0;
    for (; i < shape.size() && shape[i] >= '0' && shape[i] <= '9'; ++i) {
      const size_t digit = static_cast<size_t>(shape[i] - '0');
      if (d > (SIZE_MAX - digit) / 10) throw InputError(file, "npy header claims an impossible shape " + shape);
      d = d * 10 + digit;
    }
    a.shape.push_back(d);
  }

  const size_t data_off = header_off + header_len;
  const size_t have = bytes.size() - data_off;
  // A corrupt header can claim a shape whose byte count overflows size_t; refuse it before it wraps
  // around and passes the length check.
  size_t want = static_cast<size_t>(a.word_bytes);
  for (size_t d : a.shape) {
    if (d != 0 && want > SIZE_MAX / d)
      throw InputError(file, "npy header claims an impossible shape " + a.shape_string());
    want *= d;
  }
  if (have < want)
    throw InputError(file, "truncated .npy data: header " + a.shape_string() + " needs " +
                               std::to_string(want) + " bytes, file has " + std::to_string(have));
  if (have > want)
    throw InputError(file, "trailing bytes after .npy data (" + std::to_string(have - want) + ")");
  a.values.resize(a.word_count());
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + data_off);
  const int step = a.word_bytes == 8 ? 4 : a.word_bytes;  // bytes per word: an 8-byte element is two words
  for (size_t i = 0; i < a.values.size(); ++i) {
    uint32_t v = 0;
    for (int b = 0; b < step; ++b) v |= uint32_t(p[i * step + b]) << (8 * b);
    a.values[i] = v;
  }
  return a;
}

std::string npy_bytes(const NpyArray& a) {
  std::ostringstream h;
  h << "{'descr': '" << (a.word_bytes == 1 ? "|u1" : a.word_bytes == 2 ? "<u2" : a.word_bytes == 8 ? "<u8" : "<u4")
    << "', 'fortran_order': False, 'shape': " << a.shape_string() << ", }";
  std::string header = h.str();
  // Pad so that magic(6)+version(2)+len(2)+header ends on a 64-byte boundary, newline-terminated.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  const int step = a.word_bytes == 8 ? 4 : a.word_bytes;
  out.reserve(out.size() + a.values.size() * step);
  for (uint32_t v : a.values)
    for (int b = 0; b < step; ++b) out += static_cast<char>((v >> (8 * b)) & 0xff);
  return out;
}

void write_npy(const std::filesystem::path& path, const NpyArray& a) { write_file_atomic(path, npy_bytes(a)); }

}  // namespace mmaemu
