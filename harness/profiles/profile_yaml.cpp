// Writing a profile file: the inverse of load_profile_file, field names from profile_words.hpp.
#include <sstream>

#include "harness/profiles/profile_file.hpp"
#include "harness/profiles/profile_words.hpp"

namespace mmaemu::profiles {
namespace {

void write_block(std::ostream& o, const ref::InstructionModel& m) {
  const ref::BlockModel& b = m.block;
  o << "    block: {k: " << b.block_k << ", frac-bits: " << b.frac_bits
    << ", truncation: " << word_of(truncation_words(), b.truncation)
    << ", zero-product-exp: " << zero_exp_word(b.zero_product_exp)
    << ", result: " << word_of(block_result_words(), b.block_result)
    << ", rounding: " << word_of(rounding_words(), b.rounding)
    << ", overflow: " << word_of(overflow_words(), b.rz_overflow_to_inf)
    << ", zero-sign: " << word_of(zero_sign_words(), b.zero_result_positive);
  if (m.instr.a == ref::FormatId::tf32) o << ", tf32-input: " << word_of(rounding_words(), b.tf32_input);
  if (m.instr.scale) o << ", group-k: " << b.group_k;
  o << "}\n";
}

void write_comment(std::ostream& o, const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) o << "  # " << line << "\n";
}

}  // namespace

std::string profile_yaml(const ProfileFile& p, const std::vector<std::string>& comments) {
  std::ostringstream o;
  o << "# mmaemu profile: the block model of each instruction (README.md, \"Profiles as files\")\n"
    << "mmaemu-profile: 1\n"
    << "profile: \"" << p.name << "\"\n"
    << "arch: " << ref::arch_name(p.arch) << "\n"
    << "keep-builtin: " << (p.keep_builtin ? "true" : "false") << "\n"
    << "instructions:\n";
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    const ref::InstructionModel& m = p.instructions[i];
    if (ref::is_wide_n_variant(m.instr)) continue;  // the N = 8 entry stands for them
    if (i < comments.size() && !comments[i].empty()) write_comment(o, comments[i]);
    o << "  - instr: " << m.instr.name << "\n";
    if (m.fma_chain)
      o << "    fma-chain: true\n";
    else if (m.lowering)
      o << "    lowered: {via: " << m.lowering->via << ", parts: " << m.lowering->parts << ", run: " << m.lowering->run << "}\n";
    else
      write_block(o, m);
  }
  return o.str();
}

}  // namespace mmaemu::profiles
