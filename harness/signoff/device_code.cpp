#include "harness/core/input_file.hpp"
#include "harness/core/json_integer.hpp"
#include "harness/signoff/device_code.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/yaml_schema.hpp"
#include "harness/signoff/preflight.hpp"
#include "harness/signoff/process.hpp"

#ifndef MMAEMU_SIGNOFF_NVCC_DIR
#define MMAEMU_SIGNOFF_NVCC_DIR ""
#endif

namespace mmaemu::signoff {
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

// "mmaemu.3.sm_90a.cubin" -> "sm_90a"; "" when the name carries no architecture.
std::string arch_of(const std::string& name) {
  static const std::regex arch(R"(\.((?:sm|compute)_[0-9]+[a-z]?)\.(cubin|ptx)$)");
  std::smatch m;
  return std::regex_search(name, m, arch) ? m[1].str() : "";
}

std::string module_key(const std::string& binary, const std::string& name) { return binary + "\n" + name; }

std::string describe(const DeviceModule& m) { return m.sha256 + " (" + std::to_string(m.bytes) + " bytes)"; }

CheckRow fail_row(std::string name, std::string seen, std::string expected, std::string source, std::string reason) {
  return {std::move(name), Status::fail, std::move(seen), std::move(expected), std::move(source), std::move(reason), true};
}

// The modules of one kind ("elf" or "ptx") cuobjdump lists in `file`, or a FAIL row.
std::vector<ListedModule> list_kind(const fs::path& cuobjdump, const fs::path& file, const std::string& binary,
                                    const std::string& kind, const fs::path& workdir, std::vector<CheckRow>& problems) {
  const ProgramOutput out = run_program({cuobjdump.string(), kind == "elf" ? "--list-elf" : "--list-ptx", file.string()}, workdir);
  // A file without any device code is exit 255 with that sentence: a listing of nothing, which the
  // coverage rows then report.
  if (out.ran && out.exit_code != 0 && out.output.find("does not contain device code") != std::string::npos) return {};
  if (!out.ran || out.exit_code != 0) {
    problems.push_back(fail_row(binary, "cuobjdump --list-" + kind + " failed", "a listing", file.string(),
                                out.error.empty() ? out.output : out.error));
    return {};
  }
  return parse_cuobjdump_listing(out.output);
}

}  // namespace

std::vector<ListedModule> parse_cuobjdump_listing(std::string_view text) {
  static const std::regex line_re(R"(^\s*(ELF|PTX) file\s+[0-9]+:\s+(\S+)\s*$)");
  std::vector<ListedModule> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    ListedModule mod{m[2].str(), arch_of(m[2].str()), m[1].str() == "ELF" ? "elf" : "ptx"};
    if (mod.arch.empty()) throw InputError("cuobjdump listing", "module '" + mod.name + "' names no architecture");
    out.push_back(std::move(mod));
  }
  return out;
}

Gencode parse_gencode(const std::vector<std::string>& flags) {
  Gencode g;
  const auto add = [](std::vector<std::string>& to, const std::string& arch) {
    if (std::find(to.begin(), to.end(), arch) == to.end()) to.push_back(arch);
  };
  for (const std::string& flag : flags) {
    // "code=" after a comma or at the start: "-gencode=" itself ends in "code=".
    static const std::regex code_re(R"((?:^|[,\s])code=\[?"?([A-Za-z0-9_,]+))");
    static const std::regex arch_only_re(R"(^-{1,2}(?:arch|gpu-architecture)[= ](sm_[0-9]+[a-z]?)$)");
    std::smatch m;
    if (std::regex_search(flag, m, code_re)) {
      std::stringstream codes(m[1].str());
      std::string code;
      while (std::getline(codes, code, ',')) {
        if (code.rfind("sm_", 0) == 0) add(g.sass, code);
        if (code.rfind("compute_", 0) == 0) add(g.ptx, "sm_" + code.substr(8));
      }
    } else if (std::regex_match(flag, m, arch_only_re)) {
      add(g.sass, m[1].str());  // nvcc -arch=sm_XX: SASS for sm_XX and PTX for compute_XX
      add(g.ptx, m[1].str());
    }
  }
  return g;
}

ojson to_json(const DeviceCodeRecord& r) {
  ojson j;
  j["schema"] = kDeviceCodeRecordSchema;
  j["gencode"] = r.gencode;
  j["modules"] = ojson::array();
  for (const DeviceModule& m : r.modules)
    j["modules"].push_back({{"binary", m.binary}, {"name", m.name}, {"arch", m.arch}, {"kind", m.kind},
                            {"bytes", m.bytes}, {"sha256", m.sha256}});
  return j;
}

DeviceCodeRecord read_device_code_record(const fs::path& file) {
  const std::string where = file.string();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_input_file(file, "the device-code record"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object() || j.value("schema", "") != kDeviceCodeRecordSchema)
    throw InputError(where, std::string("schema is not ") + kDeviceCodeRecordSchema);
  DeviceCodeRecord r;
  try {
    r.gencode = j.at("gencode").get<std::vector<std::string>>();
    size_t i = 0;
    for (const auto& jm : j.at("modules")) {
      const std::string at = "modules[" + std::to_string(i++) + "]";
      DeviceModule m;
      m.binary = jm.at("binary").get<std::string>();
      m.name = jm.at("name").get<std::string>();
      m.arch = jm.at("arch").get<std::string>();
      m.kind = jm.at("kind").get<std::string>();
      m.bytes = json_integer<uint64_t>(jm.at("bytes"));
      m.sha256 = jm.at("sha256").get<std::string>();
      if (m.kind != "elf" && m.kind != "ptx") throw InputError(where, at + ": kind must be elf or ptx");
      if (m.sha256.size() != 64) throw InputError(where, at + ": sha256 must be 64 hex digits");
      r.modules.push_back(std::move(m));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("malformed record: ") + e.what());
  }
  return r;
}

void write_device_code_record(const fs::path& file, const DeviceCodeRecord& r) { write_json(file, to_json(r)); }

fs::path find_cuobjdump(std::string* searched) {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("MMAEMU_CUOBJDUMP"); env && *env) candidates.emplace_back(env);
  if (fs::path p = find_on_path("cuobjdump"); !p.empty()) candidates.push_back(p);
  if (std::string nvcc_dir = MMAEMU_SIGNOFF_NVCC_DIR; !nvcc_dir.empty()) candidates.push_back(fs::path(nvcc_dir) / "cuobjdump");
  candidates.emplace_back("/usr/local/cuda/bin/cuobjdump");
  if (searched) *searched = "$MMAEMU_CUOBJDUMP, PATH, beside this build's nvcc, /usr/local/cuda/bin";
  for (const fs::path& c : candidates)
    if (::access(c.c_str(), X_OK) == 0 && fs::is_regular_file(c)) return c;
  return {};
}

DeviceCodeListing list_device_code(const fs::path& build_dir, const std::vector<std::string>& binaries,
                                   const fs::path& cuobjdump) {
  DeviceCodeListing listing;
  for (const std::string& binary : binaries) {
    const fs::path file = fs::absolute(build_dir / binary);
    if (!fs::is_regular_file(file)) {
      listing.problems.push_back(fail_row(binary, "missing", "built", build_dir.string(), "not found at " + file.string()));
      continue;
    }
    // cuobjdump extracts into its working directory; the names it gives come from the binary, so
    // they and the hashes are the same whatever directory this is.
    ScratchDir scratch("mmaemu-signoff");
    const size_t problems_before = listing.problems.size();
    std::vector<ListedModule> listed = list_kind(cuobjdump, file, binary, "elf", scratch.path(), listing.problems);
    const std::vector<ListedModule> ptx = list_kind(cuobjdump, file, binary, "ptx", scratch.path(), listing.problems);
    listed.insert(listed.end(), ptx.begin(), ptx.end());
    if (listing.problems.size() != problems_before) continue;
    for (const char* flag : {"-xelf", "-xptx"}) {
      const bool wanted = std::any_of(listed.begin(), listed.end(), [&](const ListedModule& m) {
        return m.kind == (std::string(flag) == "-xelf" ? "elf" : "ptx");
      });
      if (!wanted) continue;
      const ProgramOutput out = run_program({cuobjdump.string(), flag, "all", file.string()}, scratch.path());
      if (!out.ran || out.exit_code != 0)
        listing.problems.push_back(fail_row(binary, std::string("cuobjdump ") + flag + " all failed", "the modules",
                                            file.string(), out.error.empty() ? out.output : out.error));
    }
    for (const ListedModule& m : listed) {
      const fs::path extracted = scratch.path() / m.name;
      if (m.name.find('/') != std::string::npos || !fs::is_regular_file(extracted)) {
        listing.problems.push_back(fail_row(binary + ": " + m.name, "not extracted", "a file", file.string(),
                                            "cuobjdump listed it but did not extract it"));
        continue;
      }
      listing.modules.push_back({binary, m.name, m.arch, m.kind, fs::file_size(extracted), sha256_file(extracted)});
    }
  }
  return listing;
}

std::vector<CheckRow> compare_with_record(const std::vector<DeviceModule>& listing, const DeviceCodeRecord& record,
                                          const std::vector<std::string>& binaries,
                                          const std::vector<std::string>& gencode, const std::string& record_name) {
  std::vector<CheckRow> rows;
  const std::string seen_gencode = join(gencode, " "), recorded_gencode = join(record.gencode, " ");
  rows.push_back({"gencode", seen_gencode == recorded_gencode ? Status::pass : Status::fail, seen_gencode,
                  recorded_gencode, record_name,
                  seen_gencode == recorded_gencode ? "" : "the record was made with another gencode", true});

  const std::set<std::string> checked(binaries.begin(), binaries.end());
  std::map<std::string, const DeviceModule*> recorded;
  std::set<std::string> unlisted_binaries;
  for (const DeviceModule& m : record.modules) {
    if (checked.count(m.binary)) recorded[module_key(m.binary, m.name)] = &m;
    else unlisted_binaries.insert(m.binary);
  }
  std::set<std::string> seen;
  for (const DeviceModule& m : listing) {
    const std::string key = module_key(m.binary, m.name);
    seen.insert(key);
    CheckRow row{m.binary + ": " + m.name, Status::pass, describe(m), "", record_name, "", true};
    const auto it = recorded.find(key);
    if (it == recorded.end()) {
      row.status = Status::fail;
      row.expected = "(not recorded)";
      row.reason = m.kind == "ptx" ? "PTX the record does not name: the driver would compile it when the program loads"
                                   : "added: the record does not name this module";
    } else {
      row.expected = describe(*it->second);
      if (it->second->sha256 != m.sha256 || it->second->bytes != m.bytes || it->second->kind != m.kind) {
        row.status = Status::fail;
        row.reason = "changed since the record";
      } else if (m.kind == "ptx") {
        row.reason = "PTX, named by the record";
      }
    }
    rows.push_back(std::move(row));
  }
  for (const DeviceModule& m : record.modules)
    if (checked.count(m.binary) && !seen.count(module_key(m.binary, m.name)))
      rows.push_back(fail_row(m.binary + ": " + m.name, "(absent)", describe(m), record_name,
                              "removed: the record names it, the build does not have it"));
  for (const std::string& b : unlisted_binaries)
    rows.push_back(fail_row("record: " + b, "(not checked)", "a binary the check lists", record_name,
                            "the record names a binary the check does not list"));
  return rows;
}

std::vector<CheckRow> check_coverage(const std::vector<DeviceModule>& listing, const std::vector<std::string>& binaries,
                                     const Gencode& gencode) {
  std::vector<CheckRow> rows;
  for (const std::string& binary : binaries) {
    std::map<std::string, size_t> sass, ptx;
    for (const DeviceModule& m : listing)
      if (m.binary == binary) ++(m.kind == "elf" ? sass : ptx)[m.arch];
    size_t most = 0;
    for (const std::string& a : gencode.sass) most = std::max(most, sass[a]);
    for (const std::string& a : gencode.sass) {
      const size_t n = sass[a];
      CheckRow row{binary + ": " + a + " SASS", Status::pass, std::to_string(n) + " modules",
                   "as many as each gencode architecture (" + std::to_string(most) + ")", "gencode", "", true};
      if (n == 0) {
        row.status = Status::fail;
        row.expected = "at least one module";
        row.reason = "no machine code for " + a + ": on such a GPU the program needs PTX or fails";
      } else if (n < most) {
        row.status = Status::fail;
        row.reason = std::to_string(most - n) + " translation unit(s) were built without " + a;
      }
      rows.push_back(std::move(row));
    }
    for (const std::string& a : gencode.ptx) {
      const size_t n = ptx[a];
      rows.push_back({binary + ": " + a + " PTX", n > 0 ? Status::pass : Status::fail, std::to_string(n) + " modules",
                      "at least one (the gencode asks for compute_" + a.substr(3) + ")", "gencode",
                      n > 0 ? "" : "the gencode asks for PTX the binary does not hold", true});
    }
  }
  return rows;
}

bool DeviceCodeResult::passed() const { return status == Status::pass || (status == Status::na && !required); }

namespace {

DeviceCodeResult na_result(const DeviceCodeSpec& spec, std::string reason) {
  DeviceCodeResult r;
  r.required = spec.required;
  r.record = spec.record.string();
  r.gencode = spec.gencode;
  r.reason = std::move(reason);
  return r;
}

}  // namespace

DeviceCodeResult evaluate_device_code(const DeviceCodeSpec& spec, const DeviceCodeListing& listing) {
  if (!spec.with_cuda) return na_result(spec, "built without CUDA");
  DeviceCodeResult r = na_result(spec, "");
  r.modules = listing.modules;
  r.checks = listing.problems;
  std::set<std::string> unlisted;  // binaries that could not be listed: no coverage rows on top
  for (const CheckRow& p : listing.problems) unlisted.insert(p.name.substr(0, p.name.find(": ")));
  if (fs::is_regular_file(spec.record)) {
    const DeviceCodeRecord record = read_device_code_record(spec.record);
    for (CheckRow& row : compare_with_record(listing.modules, record, spec.binaries, spec.gencode, r.record))
      r.checks.push_back(std::move(row));
  } else {
    r.checks.push_back(fail_row("record", "missing", "a record of the device code", r.record,
                                "no record at " + r.record + ": write one on purpose with the update"));
  }
  std::vector<std::string> listed;
  for (const std::string& b : spec.binaries)
    if (!unlisted.count(b)) listed.push_back(b);
  for (CheckRow& row : check_coverage(listing.modules, listed, parse_gencode(spec.gencode)))
    r.checks.push_back(std::move(row));
  r.status = std::all_of(r.checks.begin(), r.checks.end(), row_passes) ? Status::pass : Status::fail;
  return r;
}

namespace {

// The cuobjdump to use, or why the check cannot run here.
fs::path cuobjdump_for(const DeviceCodeSpec& spec, std::string& why_not) {
  if (!spec.with_cuda) {
    why_not = "built without CUDA";
    return {};
  }
  if (!spec.cuobjdump.empty()) {
    if (::access(spec.cuobjdump.c_str(), X_OK) == 0) return spec.cuobjdump;
    why_not = "cuobjdump not found at " + spec.cuobjdump.string();
    return {};
  }
  std::string searched;
  const fs::path c = find_cuobjdump(&searched);
  if (c.empty()) why_not = "cuobjdump not found (looked at " + searched + ")";
  return c;
}

}  // namespace

DeviceCodeResult run_device_code_check(const DeviceCodeSpec& spec) {
  std::string why_not;
  const fs::path cuobjdump = cuobjdump_for(spec, why_not);
  if (cuobjdump.empty()) return na_result(spec, why_not);
  return evaluate_device_code(spec, list_device_code(spec.build_dir, spec.binaries, cuobjdump));
}

DeviceCodeRecord update_device_code_record(const DeviceCodeSpec& spec) {
  std::string why_not;
  const fs::path cuobjdump = cuobjdump_for(spec, why_not);
  if (cuobjdump.empty()) throw InputError(spec.record.string(), "cannot update the device-code record: " + why_not);
  const DeviceCodeListing listing = list_device_code(spec.build_dir, spec.binaries, cuobjdump);
  if (!listing.problems.empty()) {
    const CheckRow& p = listing.problems.front();
    throw InputError(spec.record.string(), "cannot update the device-code record: " + p.name + ": " + p.seen + " (" +
                                               p.reason + ")");
  }
  DeviceCodeRecord record{spec.gencode, listing.modules};
  write_device_code_record(spec.record, record);
  return record;
}

ojson to_json(const DeviceCodeResult& r) {
  ojson j;
  j["schema"] = "mmaemu-device-code-check/1";
  j["passed"] = r.passed();
  j["status"] = status_name(r.status);
  j["reason"] = r.reason;
  j["required"] = r.required;
  j["record"] = r.record;
  j["gencode"] = r.gencode;
  j["checks"] = ojson::array();
  for (const CheckRow& c : r.checks)
    j["checks"].push_back({{"name", c.name},
                           {"status", status_name(c.status)},
                           {"seen", c.seen},
                           {"expected", c.expected},
                           {"source", c.source},
                           {"reason", c.reason}});
  j["modules"] = to_json(DeviceCodeRecord{{}, r.modules})["modules"];
  return j;
}

std::string render_table(const DeviceCodeResult& r) {
  std::string out = "Device code: the shipped binaries' CUDA modules against " + r.record + "\n";
  if (r.status == Status::na) return out + "device code N/A: " + r.reason + (r.passed() ? "\n" : " (required)\n");
  std::map<std::string, std::pair<size_t, size_t>> per_binary;  // sass, ptx
  for (const DeviceModule& m : r.modules) ++(m.kind == "elf" ? per_binary[m.binary].first : per_binary[m.binary].second);
  std::vector<std::vector<std::string>> rows;
  for (const CheckRow& c : r.checks)
    if (c.status != Status::pass) rows.push_back({std::string(status_name(c.status)), c.name, c.seen, c.expected, c.reason});
  for (const auto& [binary, n] : per_binary)
    out += "  " + binary + ": " + std::to_string(n.first) + " SASS, " + std::to_string(n.second) + " PTX modules\n";
  if (!rows.empty()) out += format_table({"status", "check", "seen", "expected", "reason"}, rows);
  const size_t passed = r.checks.size() - rows.size();
  out += std::string("device code ") + (r.status == Status::pass ? "PASSED" : "FAILED") + ": " + std::to_string(passed) +
         " of " + std::to_string(r.checks.size()) + " checks pass\n";
  return out;
}

DeviceCodeSpec device_code_spec_from_yaml(const YAML::Node& section, const fs::path& plan_file) {
  const std::string file = plan_file.string();
  static const Schema schema = {
      required_key("record", ValueType::file).described_as("device-code record"),
      required_key("binaries", ValueType::string_list),
      optional_key("required", ValueType::boolean),
  };
  const SchemaValues v = check_mapping(section, file, schema, "device_code section", plan_file.parent_path());
  DeviceCodeSpec spec;
  spec.record = v.at("record").path;  // may not exist yet: the update writes it, the check fails on it
  spec.binaries = v.at("binaries").list;
  if (spec.binaries.empty()) throw InputError(v.at("binaries").where, "'binaries' lists no binary");
  for (const std::string& b : spec.binaries)
    if (b.empty() || fs::path(b).is_absolute())
      throw InputError(v.at("binaries").where, "binaries are paths relative to the build directory, not '" + b + "'");
  if (v.count("required")) spec.required = v.at("required").flag;
  spec.gencode = this_build().cuda_gencode;
  spec.with_cuda = this_build().with_cuda;
  return spec;
}

}  // namespace mmaemu::signoff
