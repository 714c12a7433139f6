#include "kernels/cuda/tma_map.hpp"

#include <cuda_runtime.h>

#include <string>

#include "kernels/backend.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace mmaemu::kernels {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's encoder through the runtime (no link against the driver library).
EncodeTiled encoder() {
  static const EncodeTiled fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cuda_check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &found),
               "tensor maps: cudaGetDriverEntryPointByVersion");
    if (found != cudaDriverEntryPointSuccess || !f) throw KernelError("tensor maps: the driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return fn;
}

CUtensorMapDataType raw_type(int elem_bytes) {  // plain bits: the copy must not convert anything
  switch (elem_bytes) {
    case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case 2: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
    case 4: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  }
  throw KernelError("tensor maps: elements of " + std::to_string(elem_bytes) + " bytes");
}

}  // namespace

TmaMap k_major_tensor_map(const KMajorOperand& op, int box_rows) {
  const TmaLayout t = k_major_tma_layout(op, box_rows);
  const cuuint64_t dims[3] = {t.dims[0], t.dims[1], t.dims[2]}, strides[2] = {t.strides[0], t.strides[1]};
  const cuuint32_t box[3] = {t.box[0], t.box[1], t.box[2]}, unit[3] = {1, 1, 1};
  TmaMap out{};
  out.z_inner = t.z_inner;
  const CUresult r = encoder()(&out.map, raw_type(op.elem_bytes), 3, const_cast<void*>(op.data), dims, strides, box,
                               unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                               CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw KernelError("tensor maps: cuTensorMapEncodeTiled refused an operand (error " + std::to_string(static_cast<int>(r)) +
                      "; k " + std::to_string(op.k) + ", rows " + std::to_string(op.rows) + ", ld " + std::to_string(op.ld) +
                      ", z " + std::to_string(op.z) + ", z_stride " + std::to_string(op.z_stride) + ")");
  return out;
}

}  // namespace mmaemu::kernels
