#include "harness/cublaslt/lt_capture.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/json_integer.hpp"

namespace mmaemu::lt {
namespace {

constexpr size_t kSessionWorkspace = size_t{32} << 20;  // max_workspace 0: the session's (lt_resolver.cpp)

// "file:line:column" of `key` in a line's text (the column of its quoted name; 1 when absent).
std::string at(const std::filesystem::path& file, size_t line, const std::string& text, const std::string& key = "") {
  size_t column = 1;
  if (!key.empty()) {
    const size_t p = text.find('"' + key + '"');
    if (p != std::string::npos) column = p + 1;
  }
  return file.string() + ":" + std::to_string(line) + ":" + std::to_string(column);
}

void only_keys(const nlohmann::json& j, const std::set<std::string>& allowed, const std::string& what,
               const std::filesystem::path& file, size_t line, const std::string& text) {
  if (!j.is_object()) throw InputError(at(file, line, text), what + " is not a JSON object");
  for (const auto& [key, value] : j.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
      throw InputError(at(file, line, text, key), "unknown key '" + key + "' in " + what + " (" + list + ")");
    }
}

const nlohmann::json& required(const nlohmann::json& j, const std::string& key, nlohmann::json::value_t type,
                               const std::string& what, const std::filesystem::path& file, size_t line,
                               const std::string& text) {
  if (!j.contains(key)) throw InputError(at(file, line, text), what + " needs '" + key + "'");
  const nlohmann::json& v = j.at(key);
  const bool ok = type == nlohmann::json::value_t::number_unsigned ? v.is_number_unsigned() : v.type() == type;
  if (!ok) throw InputError(at(file, line, text, key), "'" + key + "' in " + what + " has the wrong type");
  return v;
}

std::string optional_text(const nlohmann::json& j, const std::string& key, const std::string& what,
                          const std::filesystem::path& file, size_t line, const std::string& text) {
  if (!j.contains(key)) return "";
  if (!j.at(key).is_string()) throw InputError(at(file, line, text, key), "'" + key + "' in " + what + " is text");
  return j.at(key).get<std::string>();
}

CaptureHeader read_header(const nlohmann::json& j, const std::filesystem::path& file, const std::string& text) {
  using vt = nlohmann::json::value_t;
  only_keys(j, {"schema", "library", "gpu", "torch", "source"}, "the header", file, 1, text);
  if (required(j, "schema", vt::string, "the header", file, 1, text) != kCaptureSchema)
    throw InputError(at(file, 1, text, "schema"), std::string("schema is not ") + kCaptureSchema);
  CaptureHeader h;
  const auto& lib = required(j, "library", vt::object, "the header", file, 1, text);
  only_keys(lib, {"name", "version", "sha256"}, "'library'", file, 1, text);
  h.library_name = required(lib, "name", vt::string, "'library'", file, 1, text).get<std::string>();
  h.library_version = required(lib, "version", vt::number_unsigned, "'library'", file, 1, text).get<long long>();
  h.library_sha256 = optional_text(lib, "sha256", "'library'", file, 1, text);
  const auto& gpu = required(j, "gpu", vt::object, "the header", file, 1, text);
  only_keys(gpu, {"name", "sm_count", "driver"}, "'gpu'", file, 1, text);
  h.gpu = required(gpu, "name", vt::string, "'gpu'", file, 1, text).get<std::string>();
  h.sm_count = required(gpu, "sm_count", vt::number_unsigned, "'gpu'", file, 1, text).get<int>();
  if (h.sm_count <= 0) throw InputError(at(file, 1, text, "sm_count"), "sm_count must be positive");
  h.driver = optional_text(gpu, "driver", "'gpu'", file, 1, text);
  h.torch = optional_text(j, "torch", "the header", file, 1, text);
  h.source = optional_text(j, "source", "the header", file, 1, text);
  return h;
}

CapturedCall read_call(const nlohmann::json& j, const std::filesystem::path& file, size_t line, const std::string& text) {
  using vt = nlohmann::json::value_t;
  only_keys(j, {"op", "call", "config"}, "a call", file, line, text);
  CapturedCall c;
  c.line = line;
  c.op = optional_text(j, "op", "a call", file, line, text);
  const auto& call = required(j, "call", vt::object, "a call", file, line, text);
  only_keys(call, {"a", "b", "c", "d", "compute", "m", "n", "k", "alpha", "beta", "scale_a", "scale_b", "fast_accum",
                   "layout", "max_workspace", "epilogue", "batch"},
            "'call'", file, line, text);
  c.call = call_from_json(call, at(file, line, text, "call"));
  const auto& config = required(j, "config", vt::object, "a call", file, line, text);
  only_keys(config, {"algo_id", "tile", "stages", "split_k", "reduction", "swizzle", "custom", "inner_shape", "cluster",
                     "workspace", "tile_name", "stages_name"},
            "'config'", file, line, text);
  c.config = algo_from_json(config, at(file, line, text, "config"));
  return c;
}

}  // namespace

std::string Capture::key(const LtCall& c) {
  std::ostringstream s;
  s << ref::format_name(c.a) << '|' << ref::format_name(c.b) << '|' << ref::format_name(c.d) << '|'
    << compute_name(c.compute) << '|' << layout_name(c.layout) << '|' << c.M << '|' << c.N << '|' << c.K << '|'
    << c.batch << '|' << (c.bias ? "bias" : "none") << '|' << c.fast_accum << '|'
    << (c.max_workspace ? c.max_workspace : kSessionWorkspace);
  return s.str();
}

Capture Capture::read(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "cannot read the capture");
  Capture cap;
  cap.file_ = file;
  std::string text;
  size_t line = 0;
  bool header = false;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw InputError(file.string() + ":" + std::to_string(line) + ":" + std::to_string(e.byte),
                       std::string("not JSON: ") + e.what());
    } catch (const nlohmann::json::exception& e) {  // a number beyond a double's range (out_of_range 406)
      throw InputError(file.string() + ":" + std::to_string(line), std::string("not JSON: ") + e.what());
    }
    try {
      if (!header) {
        if (line != 1) throw InputError(at(file, line, text), "the header must be the first line");
        cap.header_ = read_header(j, file, text);
        header = true;
        continue;
      }
      CapturedCall c = read_call(j, file, line, text);
      const std::string k = key(c.call);
      if (const auto seen = cap.by_key_.find(k); seen != cap.by_key_.end()) {
        const CapturedCall& first = cap.calls_[seen->second];
        if (!(first.config == c.config))
          throw InputError(at(file, line, text, "config"), "the same call as line " + std::to_string(first.line) +
                                                               " with another configuration (" + c.config.describe() +
                                                               "; there " + first.config.describe() + ")");
        continue;  // a model repeats its shapes: the first line stands for them
      }
      cap.by_key_.emplace(k, cap.calls_.size());
      cap.calls_.push_back(std::move(c));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(at(file, line, text), std::string("malformed: ") + e.what());
    }
  }
  if (!header) throw InputError(file.string(), "an empty capture (no header line)");
  return cap;
}

const CapturedCall* Capture::find(const LtCall& call) const {
  const auto it = by_key_.find(key(call));
  return it == by_key_.end() ? nullptr : &calls_[it->second];
}

std::optional<std::string> Capture::incompatible(long long library_version, int sm_count) const {
  if (header_.library_version != library_version)
    return "captured with " + header_.library_name + " " + std::to_string(header_.library_version) +
           ", not the profile's library (" + std::to_string(library_version) + "): another build picks other configurations";
  if (header_.sm_count != sm_count)
    return "captured on " + header_.gpu + " with " + std::to_string(header_.sm_count) + " SMs, not the profile's " +
           std::to_string(sm_count) + ": the heuristic plans its waves for the SM count";
  return std::nullopt;
}

std::string capture_line(const CapturedCall& c) {
  nlohmann::json j = {{"call", to_json(c.call)}, {"config", to_json(c.config)}};
  if (!c.op.empty()) j["op"] = c.op;
  return j.dump();
}

std::string capture_header_line(const CaptureHeader& h) {
  nlohmann::json lib = {{"name", h.library_name}, {"version", h.library_version}};
  if (!h.library_sha256.empty()) lib["sha256"] = h.library_sha256;
  nlohmann::json gpu = {{"name", h.gpu}, {"sm_count", h.sm_count}};
  if (!h.driver.empty()) gpu["driver"] = h.driver;
  nlohmann::json j = {{"schema", kCaptureSchema}, {"library", lib}, {"gpu", gpu}};
  if (!h.torch.empty()) j["torch"] = h.torch;
  if (!h.source.empty()) j["source"] = h.source;
  return j.dump();
}

}  // namespace mmaemu::lt
