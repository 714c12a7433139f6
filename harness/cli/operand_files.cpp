#include "harness/cli/operand_files.hpp"

namespace mmaemu::cli {

api::Operand operand_file(const std::string& path) { return {read_npy(path), path}; }

api::ComputeRequest read_compute_request(const InstructionFiles& f) {
  api::ComputeRequest r;
  r.arch = f.arch;
  r.instr = f.instr;
  r.backend = f.backend;
  const ref::InstructionModel& model = api::find_instruction(r.arch, r.instr);
  r.a = operand_file(f.a);
  r.b = operand_file(f.b);
  r.c = operand_file(f.c);
  auto scale = [&](const std::string& path) -> std::optional<api::Operand> {
    if (path.empty()) return std::nullopt;
    return api::Operand{model.instr.scale ? read_npy(path) : NpyArray{}, path};
  };
  r.scale_a = scale(f.scales.a);
  r.scale_b = scale(f.scales.b);
  return r;
}

}  // namespace mmaemu::cli
