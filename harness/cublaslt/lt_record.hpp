// `mmaemu record --cublaslt PLAN --out DIR`: makes the plan's calls on this machine's GPU through
// cuBLASLt and writes a recording (lt_recording.hpp). Needs CUDA and a GPU.
#pragma once
#include <filesystem>
#include <string>

namespace mmaemu::lt {

struct LtRecordOptions {
  std::filesystem::path plan;
  std::filesystem::path out_dir;
  int device = 0;
  size_t workspace_bytes = size_t{32} << 20;
  size_t store_operands_up_to = 0;  // store a call's operands when A, B and C hold at most this many elements
  std::string commit;               // default: the commit the recorder was built from
  std::string command_line;
};

// Returns the exit status: 0 recorded (refusals are outcomes, recorded as such), 1 a CUDA error.
int record_cublaslt(const LtRecordOptions& o);

}  // namespace mmaemu::lt
