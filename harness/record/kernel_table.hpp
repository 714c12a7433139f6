// Internal to the CUDA half: one launcher per recordable instruction.
#pragma once
#include <cuda_runtime_api.h>

#include <string_view>
#include <vector>

namespace mmaemu::record {

struct KernelEntry {
  std::string_view instr;  // PTX spelling
  int min_cc;              // compute capability * 10 the instruction needs (80, 89, 90)
  int only_cc;             // 0, or the one compute capability its code is built for (wgmma: sm_90a)
  // Launches one block per tile on `stream`; pointers are device buffers in the contract layout with
  // elements of the instruction's storage widths.
  void (*launch)(const void* a, const void* b, const void* c, void* d, int tiles, cudaStream_t stream);
};

const std::vector<KernelEntry>& mma_sync_kernels();
const std::vector<KernelEntry>& wgmma_kernels();
const KernelEntry* find_kernel(std::string_view instr);

}  // namespace mmaemu::record
