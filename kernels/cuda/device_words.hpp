// Operands that already live on the GPU (a PyTorch tensor, say), in their format's native width, and
// the 32-bit words the kernels compute on: widened and narrowed in device memory, never through the
// host. And the poison check of cuda_device.hpp, run where the words are.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/cuda/device_buffer.hpp"

namespace mmaemu::kernels {

// words[r][c] of a [rows][cols] matrix stored row-major in 1-, 2-, 4- or 8-byte elements (8: two words
// each, low word first, as on the host), or, `transposed`, stored as its transpose's row-major array.
DeviceBuffer<uint32_t> widen_on_device(const void* src, int bytes, size_t rows, size_t cols, bool transposed,
                                       const char* what);

// The inverse: words [rows][cols] into `dst` in `bytes`-wide elements (transposed: dst holds the transpose).
void narrow_on_device(const uint32_t* words, size_t rows, size_t cols, void* dst, int bytes, bool transposed);

// A kernel's native-width result (1, 2 or 4 bytes per element, `count` of them) into 32-bit words,
// an all-ones element (the poison of cuda_device.hpp: never a result) into the all-ones word, so that
// first_unwritten_on_device still finds what the kernel left unwritten.
void widen_result_on_device(const void* src, int bytes, size_t count, uint32_t* words);

// The first of `count` outputs (each `words_per` words; its last word is checked) still holding the
// poison (all ones); nullopt when every one was written.
std::optional<size_t> first_unwritten_on_device(const uint32_t* words, size_t count, size_t words_per = 1);

}  // namespace mmaemu::kernels
