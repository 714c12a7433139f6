// What this machine offers for the GPU parts: CUDA devices and library versions. Without CUDA in the
// build, it says so instead.
#pragma once
#include <string>
#include <vector>

namespace mmaemu::api {

struct DeviceInfo {
  int index;
  std::string name;
  std::string compute_capability;
  int sm_count;
};

struct DeviceReport {
  bool built_with_cuda = false;
  std::string status;  // "2 devices", "no CUDA device: <cuda message>", "built without CUDA"
  std::vector<DeviceInfo> devices;
  std::string cuda_runtime;  // "13.0"
  std::string cuda_driver;   // "13.0" (driver API version), empty when none
  std::string cublaslt;      // "130100 (/usr/local/cuda/lib64/libcublasLt.so.13.1.0.3)", or why none loads
};

DeviceReport query_devices();

}  // namespace mmaemu::api
