#include "harness/profiles/profile_file.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/profiles/profile_words.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::profiles {
namespace {

const Schema& top_schema() {
  static const Schema s = {
      required_key("mmaemu-profile", ValueType::integer), required_key("profile", ValueType::string),
      required_key("arch", ValueType::string),           optional_key("keep-builtin", ValueType::boolean),
      required_key("instructions", ValueType::sequence),
  };
  return s;
}
const Schema& entry_schema() {
  static const Schema s = {required_key("instr", ValueType::string), optional_key("block", ValueType::mapping),
                           optional_key("lowered", ValueType::mapping), optional_key("fma-chain", ValueType::boolean)};
  return s;
}
const Schema& block_schema() {
  static const Schema s = {
      required_key("k", ValueType::integer),          required_key("frac-bits", ValueType::integer),
      required_key("result", ValueType::string),      required_key("rounding", ValueType::string),
      optional_key("truncation", ValueType::string),  optional_key("zero-product-exp", ValueType::string),
      optional_key("overflow", ValueType::string),    optional_key("tf32-input", ValueType::string),
      optional_key("group-k", ValueType::integer),    optional_key("zero-sign", ValueType::string),
  };
  return s;
}
const Schema& lowered_schema() {
  static const Schema s = {required_key("via", ValueType::string), required_key("parts", ValueType::integer),
                           required_key("run", ValueType::integer)};
  return s;
}

template <class E>
E word(const SchemaValues& v, const std::string& key, const std::vector<Word<E>>& table, E fallback) {
  const auto it = v.find(key);
  if (it == v.end()) return fallback;
  if (auto e = value_of(table, it->second.text)) return *e;
  throw InputError(it->second.where, key + " is '" + it->second.text + "'; it must be one of: " + choices_of(table));
}

int in_range(const SchemaValue& v, const std::string& key, uint64_t lo, uint64_t hi) {
  if (v.number < lo || v.number > hi)
    throw InputError(v.where, key + " is " + std::to_string(v.number) + "; it must lie in [" + std::to_string(lo) +
                                  ", " + std::to_string(hi) + "]");
  return static_cast<int>(v.number);
}

int zero_exp(const SchemaValues& v) {
  const auto it = v.find("zero-product-exp");
  if (it == v.end() || it->second.text == "none") return INT_MIN;
  const std::string& t = it->second.text;
  int e = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), e);
  if (ec != std::errc() || end != t.data() + t.size() || e < -1100 || e > 1100)
    throw InputError(it->second.where, "zero-product-exp is '" + t + "'; it must be an exponent in [-1100, 1100] or none");
  return e;
}

ref::BlockModel read_block(const YAML::Node& node, const std::string& file) {
  const SchemaValues v = check_mapping(node, file, block_schema(), "block", {});
  ref::BlockModel b;
  b.block_k = in_range(v.at("k"), "k", 1, 1024);
  b.frac_bits = in_range(v.at("frac-bits"), "frac-bits", 0, 60);
  b.block_result = word(v, "result", block_result_words(), ref::FormatId::fp32);
  b.rounding = word(v, "rounding", rounding_words(), ref::Rounding::toward_zero);
  b.truncation = word(v, "truncation", truncation_words(), ref::Truncation::toward_zero);
  b.zero_product_exp = zero_exp(v);
  b.rz_overflow_to_inf = word(v, "overflow", overflow_words(), true);
  b.tf32_input = word(v, "tf32-input", rounding_words(), ref::Rounding::toward_zero);
  b.zero_result_positive = word(v, "zero-sign", zero_sign_words(), false);
  if (v.count("group-k")) b.group_k = in_range(v.at("group-k"), "group-k", 0, 1024);
  return b;
}

ref::InstructionModel read_entry(const YAML::Node& node, const std::string& file, ref::Arch arch) {
  if (!node.IsMap()) throw InputError(where(file, node), "an instruction entry must be a mapping");
  const SchemaValues v = check_mapping(node, file, entry_schema(), "instruction entry", {});
  const SchemaValue& name = v.at("instr");
  std::string why;
  const auto parsed = ref::parse_instruction(name.text, &why);
  if (!parsed) throw InputError(name.where, name.text + ": " + why);
  ref::InstructionModel m{arch, *parsed, {}, std::nullopt, false};
  const int forms = static_cast<int>(v.count("block")) + static_cast<int>(v.count("lowered")) +
                    static_cast<int>(v.count("fma-chain") && v.at("fma-chain").flag);
  if (forms != 1)
    throw InputError(name.where, name.text + ": give exactly one of block, lowered, fma-chain: true");
  if (v.count("block")) m.block = read_block(v.at("block").node, file);
  if (v.count("fma-chain")) {
    const bool fp64 = parsed->a == ref::FormatId::fp64 && parsed->d == ref::FormatId::fp64;
    if (!fp64) throw InputError(v.at("fma-chain").where, name.text + ": an fma chain is for fp64 instructions only");
    m.fma_chain = true;
  }
  if (v.count("lowered")) {
    const SchemaValues l = check_mapping(v.at("lowered").node, file, lowered_schema(), "lowered", {});
    const SchemaValue& via = l.at("via");
    if (!ref::parse_instruction(via.text, &why)) throw InputError(via.where, via.text + ": " + why);
    m.lowering = ref::Lowering{via.text, in_range(l.at("parts"), "parts", 1, 64), in_range(l.at("run"), "run", 1, 64), nullptr};
  }
  if (v.count("block") && (parsed->a == ref::FormatId::fp64))
    throw InputError(name.where, name.text + ": fp64 instructions are fma chains (fma-chain: true), not blocks");
  return m;
}

}  // namespace

ProfileFile load_profile_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  const YAML::Node root = load_yaml_file(path);
  const SchemaValues v = check_mapping(root, file, top_schema(), "profile", path.parent_path());
  if (v.at("mmaemu-profile").number != 1)
    throw InputError(v.at("mmaemu-profile").where, "this mmaemu reads profile files of version 1");
  ProfileFile p;
  p.origin = file;
  p.name = v.at("profile").text;
  const auto arch = ref::parse_arch(v.at("arch").text);
  if (!arch) throw InputError(v.at("arch").where, "unknown architecture '" + v.at("arch").text + "'");
  p.arch = *arch;
  if (v.count("keep-builtin")) p.keep_builtin = v.at("keep-builtin").flag;
  const YAML::Node list = v.at("instructions").node;
  if (list.size() == 0) throw InputError(v.at("instructions").where, "a profile needs at least one instruction");
  for (const YAML::Node& e : list) {
    ref::InstructionModel m = read_entry(e, file, p.arch);
    for (const auto& seen : p.instructions)
      if (seen.instr.name == m.instr.name)
        throw InputError(where(file, e), m.instr.name + " is given twice");
    p.instructions.push_back(std::move(m));
  }
  // The lowerings must name instructions of the profile as it would be installed: check by building it
  // (the check only; nothing is installed here).
  for (std::size_t i = 0; i < p.instructions.size(); ++i) {
    const auto& m = p.instructions[i];
    if (!m.lowering) continue;
    // The file's own entry for the via instruction wins over the built-in one it replaces.
    const ref::InstructionModel* listed = nullptr;
    for (const auto& via : p.instructions)
      if (via.instr.name == m.lowering->via) listed = &via;
    bool found = listed && !listed->lowering;
    if (!listed && p.keep_builtin)
      for (const auto& via : ref::builtin_instructions_of(p.arch)) found |= via.instr.name == m.lowering->via && !via.lowering;
    if (!found)
      throw InputError(where(file, list[i]), m.instr.name + " is lowered via " + m.lowering->via +
                                                 ", which this profile does not define as a block");
  }
  return p;
}

ProfileFile install_profile_file(const std::filesystem::path& path) {
  ProfileFile p = load_profile_file(path);
  try {
    ref::install_profile(p.arch, p.instructions, p.keep_builtin, p.origin);
  } catch (const std::invalid_argument& e) {  // what the file's checks cannot see alone (a wide-N lowering)
    throw InputError("", e.what());  // the message names the file already
  }
  return p;
}

std::string describe_model(const ref::InstructionModel& m) {
  std::ostringstream s;
  if (m.fma_chain) return "fma-chain";
  if (m.lowering)
    return "lowered via " + m.lowering->via + " parts=" + std::to_string(m.lowering->parts) +
           " run=" + std::to_string(m.lowering->run);
  const ref::BlockModel& b = m.block;
  s << "block k=" << b.block_k << " frac-bits=" << b.frac_bits << " truncation=" << word_of(truncation_words(), b.truncation)
    << " zero-product-exp=" << zero_exp_word(b.zero_product_exp) << " result=" << word_of(block_result_words(), b.block_result)
    << " rounding=" << word_of(rounding_words(), b.rounding) << " overflow=" << word_of(overflow_words(), b.rz_overflow_to_inf)
    << " zero-sign=" << word_of(zero_sign_words(), b.zero_result_positive);
  if (m.instr.a == ref::FormatId::tf32) s << " tf32-input=" << word_of(rounding_words(), b.tf32_input);
  if (m.instr.scale) s << " group-k=" << b.group_k;
  return s.str();
}

bool same_model(const ref::InstructionModel& x, const ref::InstructionModel& y, std::string* diff) {
  std::vector<std::string> d;
  const auto check = [&](bool equal, const char* what) {
    if (!equal) d.push_back(what);
  };
  check(x.fma_chain == y.fma_chain, "fma-chain");
  check(x.lowering.has_value() == y.lowering.has_value(), "lowered");
  if (x.lowering && y.lowering) {
    check(x.lowering->via == y.lowering->via, "via");
    check(x.lowering->parts == y.lowering->parts, "parts");
    check(x.lowering->run == y.lowering->run, "run");
  }
  if (!x.fma_chain && !x.lowering && !y.fma_chain && !y.lowering) {
    const ref::BlockModel &a = x.block, &b = y.block;
    check(a.block_k == b.block_k, "k");
    check(a.frac_bits == b.frac_bits, "frac-bits");
    check(a.truncation == b.truncation, "truncation");
    check(a.zero_product_exp == b.zero_product_exp, "zero-product-exp");
    check(a.block_result == b.block_result, "result");
    check(a.rounding == b.rounding, "rounding");
    check(a.rz_overflow_to_inf == b.rz_overflow_to_inf, "overflow");
    check(a.zero_result_positive == b.zero_result_positive, "zero-sign");
    if (x.instr.a == ref::FormatId::tf32) check(a.tf32_input == b.tf32_input, "tf32-input");
    if (x.instr.scale) check(a.group_k == b.group_k, "group-k");
  }
  if (diff) {
    diff->clear();
    for (const auto& s : d) *diff += (diff->empty() ? "" : ", ") + s;
  }
  return d.empty();
}

}  // namespace mmaemu::profiles
