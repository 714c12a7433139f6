// NumPy .npy files (format versions 1.0-3.0), the exchange format of the `mmaemu mma` contract:
// raw bit patterns, little-endian, C order. Only unsigned integer dtypes are used (u1, u2, u4, u8).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu {

struct NpyArray {
  int word_bytes = 0;               // bytes per element: 1, 2, 4 or 8 (dtype '|u1', '<u2', '<u4', '<u8')
  std::vector<size_t> shape;        // C order
  // Every element widened to a 32-bit word; an 8-byte element (fp64) as two words, low word first
  // (ref::words_per_element).
  std::vector<uint32_t> values;

  size_t size() const;              // elements
  size_t word_count() const { return size() * (word_bytes == 8 ? 2 : 1); }  // entries of values
  std::string dtype_name() const;   // "uint8", "uint16", "uint32", "uint64"
  std::string shape_string() const; // "(2, 16, 16)"
};

// Reads an .npy file. Throws InputError naming the file when it is missing, truncated, not an
// unsigned-integer little-endian C-order array, or when its data length does not match its header.
NpyArray read_npy(const std::filesystem::path& path);

// Serialises (format 1.0) and writes atomically.
std::string npy_bytes(const NpyArray& a);
void write_npy(const std::filesystem::path& path, const NpyArray& a);

}  // namespace mmaemu
