#include "harness/record/input_writer.hpp"

#include <nlohmann/json.hpp>

#include "harness/core/atomic_file.hpp"
#include "harness/core/npy.hpp"

namespace mmaemu::record {
namespace {

NpyArray array_of(const std::vector<uint32_t>& values, int word_bytes, std::vector<size_t> shape) {
  NpyArray a;
  a.word_bytes = word_bytes;
  a.shape = std::move(shape);
  a.values = values;
  return a;
}

}  // namespace

std::string instruction_directory(const std::string& instr) {
  std::string out;
  for (size_t i = 0; i < instr.size(); ++i) {
    if (instr.compare(i, 2, "::") == 0) {
      out += '-';
      ++i;
    } else {
      out += instr[i];
    }
  }
  return out;
}

void write_recording_inputs(const std::filesystem::path& dir, const std::string& arch, uint64_t seed,
                            const std::string& command_line, const std::vector<InstructionRecording>& recordings) {
  nlohmann::json index = {{"arch", arch}, {"seed", seed}, {"command", command_line}, {"instructions", nlohmann::json::array()}};
  for (const InstructionRecording& r : recordings) {
    const ref::Instruction& in = r.instr;
    const std::string sub = instruction_directory(in.name);
    std::filesystem::create_directories(dir / sub);
    const size_t T = static_cast<size_t>(r.tiles), M = in.m, N = in.n, K = in.k;
    write_npy(dir / sub / "a.npy", array_of(r.a, storage_bytes(in.a), {T, M, K}));
    write_npy(dir / sub / "b.npy", array_of(r.b, storage_bytes(in.b), {T, K, N}));
    write_npy(dir / sub / "c.npy", array_of(r.c, storage_bytes(in.c), {T, M, N}));
    if (r.scales_per_row) {
      write_npy(dir / sub / "sa.npy", array_of(r.sa, 1, {T, M, r.scales_per_row}));
      write_npy(dir / sub / "sb.npy", array_of(r.sb, 1, {T, r.scales_per_row, N}));
    }
    nlohmann::json families = nlohmann::json::array();
    for (const FamilyRange& f : r.families)
      families.push_back({{"name", gen::family_name(f.family)}, {"first", f.first}, {"last", f.last}});
    index["instructions"].push_back({{"instr", in.name}, {"dir", sub}, {"tiles", r.tiles},
                                     {"scaled", r.scales_per_row != 0}, {"families", families}});
  }
  write_file_atomic(dir / "inputs.json", index.dump(1) + "\n");
}

}  // namespace mmaemu::record
