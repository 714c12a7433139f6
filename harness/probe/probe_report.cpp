#include "harness/probe/probe_report.hpp"

#include <nlohmann/json.hpp>

#include <sstream>

#include "harness/profiles/profile_words.hpp"

namespace mmaemu::probe {
namespace {

std::string lowering_text(const ref::Lowering& l) {
  return l.via + " parts=" + std::to_string(l.parts) + " run=" + std::to_string(l.run);
}

std::string finding_value(const InstructionProbe& p, const std::string& parameter) {
  for (const auto& f : p.findings)
    if (f.parameter == parameter) return f.value;
  return "";
}

size_t outputs_of(const InstructionProbe& p, bool fresh) {
  size_t n = 0;
  for (const auto& c : p.checks)
    if ((c.what.rfind("fresh", 0) == 0) == fresh) n += c.outputs;
  return n;
}
size_t misses_of(const InstructionProbe& p, bool fresh) {
  size_t n = 0;
  for (const auto& c : p.checks)
    if ((c.what.rfind("fresh", 0) == 0) == fresh) n += c.mismatches;
  return n;
}

std::string verdict(const Comparison& c) {
  if (!c.probe->reproduced()) return "NOT ESTABLISHED";
  if (!c.builtin) return "new";
  if (c.differs.empty()) return "equal";
  return c.same_bits.value_or(false) ? "equal in effect (" + c.differs + ")" : "DIFFERS (" + c.differs + ")";
}

}  // namespace

std::string builtin_value(const ref::InstructionModel& m, const std::string& parameter) {
  using namespace profiles;
  const ref::BlockModel& b = m.block;
  const bool block = !m.fma_chain && !m.lowering;
  if (parameter == "form") return m.fma_chain ? "fma-chain" : m.lowering ? "lowered" : "block";
  if (parameter == "lowered") return m.lowering ? lowering_text(*m.lowering) : "-";
  if (parameter == "c-entry") return m.fma_chain ? "" : m.lowering ? "after (IEEE add, nearest-even)" : "first block's addend";
  if (parameter == "nan-inf-zero") return m.fma_chain ? "" : "the model's rules";
  if (parameter == "subnormals") return m.fma_chain ? "" : "kept (not flushed)";
  if (!block) return parameter == "k" ? "-" : "";
  if (parameter == "k") return std::to_string(b.block_k);
  if (parameter == "frac-bits") return std::to_string(b.frac_bits);
  if (parameter == "truncation") return std::string(word_of(truncation_words(), b.truncation));
  if (parameter == "result") return std::string(word_of(block_result_words(), b.block_result));
  if (parameter == "rounding") return std::string(word_of(rounding_words(), b.rounding));
  if (parameter == "overflow") return std::string(word_of(overflow_words(), b.rz_overflow_to_inf));
  if (parameter == "zero-product-exp") return zero_exp_word(b.zero_product_exp);
  if (parameter == "zero-sign") return std::string(word_of(zero_sign_words(), b.zero_result_positive));
  if (parameter == "tf32-input") return std::string(word_of(rounding_words(), b.tf32_input));
  return "";
}

std::string report_markdown(const std::string& oracle, const std::string& command, const std::vector<Comparison>& rows) {
  std::ostringstream o;
  o << "# mmaemu probe\n\n- oracle: " << oracle << "\n- command: `" << command << "`\n\n";
  o << "| instruction | form | L | F | trunc. | block result | rounding | zero exp | probe outputs | fresh outputs | vs built-in |\n"
    << "|---|---|--:|--:|---|---|---|---|--:|--:|---|\n";
  for (const auto& c : rows) {
    const InstructionProbe& p = *c.probe;
    const auto ok = [&](bool fresh) {
      return std::to_string(outputs_of(p, fresh) - misses_of(p, fresh)) + " / " + std::to_string(outputs_of(p, fresh));
    };
    o << "| " << p.instr << " | " << finding_value(p, "form") << (finding_value(p, "form") == "lowered" ? " via " + finding_value(p, "lowered") : "")
      << " | " << finding_value(p, "k") << " | " << finding_value(p, "frac-bits") << " | " << finding_value(p, "truncation")
      << " | " << finding_value(p, "result") << " | " << finding_value(p, "rounding") << " | "
      << finding_value(p, "zero-product-exp") << " | " << ok(false) << " | " << ok(true) << " | " << verdict(c) << " |\n";
  }
  for (const auto& c : rows) {
    const InstructionProbe& p = *c.probe;
    o << "\n## " << p.instr << "\n\n";
    if (!p.stopped.empty()) o << "**Not established**: " << p.stopped << "\n\n";
    o << "| parameter | inferred | status | experiment | inputs | built-in | detail |\n|---|---|---|---|--:|---|---|\n";
    for (const auto& f : p.findings)
      o << "| " << f.parameter << " | " << f.value << " | " << status_name(f.status) << " | " << f.experiment << " | "
        << f.inputs << " | " << (c.builtin ? builtin_value(*c.builtin, f.parameter) : "") << " | " << f.detail << " |\n";
    o << "\n| check | outputs | mismatches | not in the recordings | first mismatch |\n|---|--:|--:|--:|---|\n";
    for (const auto& v : p.checks)
      o << "| " << v.what << " | " << v.outputs << " | " << v.mismatches << " | " << v.unanswered << " | " << v.first_mismatch << " |\n";
    o << "\n" << p.seconds << " s.\n";
  }
  return o.str();
}

std::string report_json(const std::string& oracle, const std::string& command, const std::vector<Comparison>& rows) {
  nlohmann::json j;
  j["oracle"] = oracle;
  j["command"] = command;
  j["instructions"] = nlohmann::json::array();
  for (const auto& c : rows) {
    const InstructionProbe& p = *c.probe;
    nlohmann::json ji;
    ji["instr"] = p.instr;
    ji["reproduced"] = p.reproduced();
    ji["stopped"] = p.stopped;
    ji["verdict"] = verdict(c);
    ji["differs_from_builtin"] = c.differs;
    if (c.same_bits) ji["builtin_same_bits"] = *c.same_bits;
    ji["seconds"] = p.seconds;
    for (const auto& f : p.findings)
      ji["findings"].push_back({{"parameter", f.parameter}, {"value", f.value}, {"status", status_name(f.status)},
                                {"experiment", f.experiment}, {"inputs", f.inputs}, {"detail", f.detail},
                                {"builtin", c.builtin ? builtin_value(*c.builtin, f.parameter) : ""}});
    for (const auto& v : p.checks)
      ji["checks"].push_back({{"what", v.what}, {"outputs", v.outputs}, {"mismatches", v.mismatches},
                              {"unanswered", v.unanswered}, {"first_mismatch", v.first_mismatch}});
    j["instructions"].push_back(ji);
  }
  return j.dump(2) + "\n";
}

}  // namespace mmaemu::probe
