// The CUDA data type cuBLASLt reads a format as (tf32 operands are fp32 storage), for harness/cublaslt/lt_live.cpp,
// through which the recorder, the parity suite and the throughput benchmark's native rows all call the library.
#pragma once
#include <library_types.h>

#include <stdexcept>
#include <string>

#include "mmaemu/reference/format.hpp"

namespace mmaemu::lt {

inline cudaDataType_t cuda_storage_type(ref::FormatId f) {
  switch (f) {
    case ref::FormatId::fp16: return CUDA_R_16F;
    case ref::FormatId::bf16: return CUDA_R_16BF;
    case ref::FormatId::tf32:
    case ref::FormatId::fp32: return CUDA_R_32F;
    case ref::FormatId::e4m3: return CUDA_R_8F_E4M3;
    case ref::FormatId::e5m2: return CUDA_R_8F_E5M2;
    default: throw std::invalid_argument("cuBLASLt has no storage type for " + std::string(ref::format_name(f)));
  }
}

}  // namespace mmaemu::lt
