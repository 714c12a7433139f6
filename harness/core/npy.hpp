// NumPy .npy files (format versions 1.0-3.0), the exchange format of the `mmaemu mma` contract:
// raw bit patterns, little-endian, C order. Only unsigned integer dtypes are used (u1, u2, u4).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu {

struct NpyArray {
  int word_bytes = 0;               // 1, 2 or 4 (dtype '|u1', '<u2', '<u4')
  std::vector<size_t> shape;        // C order
  std::vector<uint32_t> values;     // every element widened to 32 bits

  size_t size() const;
  std::string dtype_name() const;   // "uint8", "uint16", "uint32"
  std::string shape_string() const; // "(2, 16, 16)"
};

// Reads an .npy file. Throws InputError naming the file when it is missing, truncated, not an
// unsigned-integer little-endian C-order array, or when its data length does not match its header.
NpyArray read_npy(const std::filesystem::path& path);

// Serialises (format 1.0) and writes atomically.
std::string npy_bytes(const NpyArray& a);
void write_npy(const std::filesystem::path& path, const NpyArray& a);

}  // namespace mmaemu
