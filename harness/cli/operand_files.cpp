#include "harness/cli/operand_files.hpp"

namespace mmaemu::cli {

api::Operand operand_file(const std::string& path) { return {read_npy(path), path}; }

std::optional<api::Operand> scale_operand_file(const ref::InstructionModel& model, const std::string& path) {
  if (path.empty()) return std::nullopt;
  return api::Operand{model.instr.scale ? read_npy(path) : NpyArray{}, path};
}

}  // namespace mmaemu::cli
