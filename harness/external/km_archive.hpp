// The Khattak & Mikaitis recordings of real tensor cores ("Accurate Models of NVIDIA Tensor Cores",
// repository north-numerical-computing/MATLAB-tensor-core, model_validation data), read straight from
// their .tar.xz: nothing is extracted to disk.
//
// Layout inside the archive (one top folder, then GPU/format/):
//   a_<GPU>_<format>.txt, b_<GPU>_<format>.txt  K inputs per line, fp32 bit patterns in hex
//   c_<GPU>_fp32.txt                           the addend, one 32-character binary string per line
//   d_<GPU>_fp32.txt, d_<GPU>_fp16.txt         the GPU's result, same spelling (an fp16 result is
//                                              written widened to fp32)
// Line i of every file belongs to dot product i.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu::external {

// One recorded set: every dot product of one GPU, one input format and one output type.
struct KmSet {
  std::string gpu;     // "V100", "A100", "H200", ...
  std::string format;  // input format as the archive spells it: "fp16", "bf16", "tf32", "E4M3", "E5M2"
  std::string out;     // "fp32" | "fp16": which d file this set holds
  int k = 0;           // products per dot product
  std::vector<uint32_t> a, b;  // fp32 bits, k per case, case-major
  std::vector<uint32_t> c, d;  // fp32 bits, one per case (d widened to fp32 for an fp16 result)
  // Where the data came from, "<archive>!<member>", for messages; line of case i is i + 1.
  std::string a_file, b_file, c_file, d_file;

  size_t cases() const { return c.size(); }
};

// Reads every set of the archive, sorted by (gpu, format, out). Throws InputError: "<archive>" when
// the archive cannot be read or holds no set, "<archive>!<member>:<line>" for a malformed line, and
// "<archive>!<member>" when a set lacks a file or its files disagree in length.
std::vector<KmSet> read_km_archive(const std::filesystem::path& archive);

// "<archive>!<member>:<line>" (line counted from 1), the `where` of an error about one case.
std::string km_where(const std::string& file, size_t line);

}  // namespace mmaemu::external
