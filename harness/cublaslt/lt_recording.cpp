#include "harness/cublaslt/lt_recording.hpp"
#include "harness/core/json_integer.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/sha256.hpp"
#include "harness/cublaslt/lt_plan.hpp"

namespace mmaemu::lt {
namespace {

void append_narrow(std::string& bytes, const std::vector<uint32_t>& v, ref::FormatId f) {
  const int w = storage_bytes(f);
  for (uint32_t x : v)
    for (int i = 0; i < w; ++i) bytes.push_back(static_cast<char>(x >> (8 * i)));
}

NpyArray as_npy(const std::vector<uint32_t>& v, ref::FormatId f, std::vector<size_t> shape) {
  NpyArray a;
  a.word_bytes = storage_bytes(f);
  a.shape = std::move(shape);
  a.values = v;
  return a;
}

std::vector<uint32_t> read_checked(const std::filesystem::path& file, ref::FormatId f, size_t rows, size_t cols) {
  NpyArray a = read_npy(file);
  if (a.word_bytes != storage_bytes(f) || a.shape != std::vector<size_t>{rows, cols})
    throw InputError(file.string(), "expected " + std::to_string(rows) + " x " + std::to_string(cols) + " of " +
                                        std::string(ref::format_name(f)) + ", found " + a.dtype_name() + " " +
                                        a.shape_string());
  return std::move(a.values);
}

}  // namespace

std::string operands_sha256(const LtCall& call, const LtOperands& ops) {
  std::string bytes;
  append_narrow(bytes, ops.a, call.a);
  append_narrow(bytes, ops.b, call.b);
  append_narrow(bytes, ops.c, call.c);
  return sha256_hex(bytes);
}

void write_d(const std::filesystem::path& file, const LtCall& call, const std::vector<uint32_t>& d) {
  write_npy(file, as_npy(d, call.d, {call.M, call.N}));
}

std::vector<uint32_t> read_d(const std::filesystem::path& file, const LtCall& call) {
  return read_checked(file, call.d, call.M, call.N);
}

void write_operands(const std::filesystem::path& dir, size_t id, const LtCall& call, const LtOperands& ops) {
  const std::string stem = std::to_string(id);
  write_npy(dir / (stem + "-a.npy"), as_npy(ops.a, call.a, {call.M, call.K}));
  write_npy(dir / (stem + "-b.npy"), as_npy(ops.b, call.b, {call.K, call.N}));
  write_npy(dir / (stem + "-c.npy"), as_npy(ops.c, call.c, {call.M, call.N}));
}

LtOperands operands_of(const Recording& rec, const RecordedCall& c) {
  LtOperands ops;
  if (c.operands_stored) {
    const auto dir = rec.dir / "ops";
    const std::string stem = std::to_string(c.id);
    ops.a = read_checked(dir / (stem + "-a.npy"), c.call.a, c.call.M, c.call.K);
    ops.b = read_checked(dir / (stem + "-b.npy"), c.call.b, c.call.K, c.call.N);
    ops.c = read_checked(dir / (stem + "-c.npy"), c.call.c, c.call.M, c.call.N);
  } else {
    ops = generate_operands(c.call, c.family, c.seed);
  }
  if (operands_sha256(c.call, ops) != c.operands_sha256)
    throw InputError((rec.dir / "recording.json").string(),
                     "call " + std::to_string(c.id) + ": the operands' SHA-256 differs from the recording's (" +
                         (c.operands_stored ? "stored operands changed" : "the input generators changed") + ")");
  return ops;
}

nlohmann::json to_json(const Recording& r) {
  nlohmann::json j;
  j["schema"] = kRecordingSchema;
  j["plan"] = r.plan;
  j["workspace_bytes"] = r.workspace_bytes;
  nlohmann::json prov = nlohmann::json::object();
  for (const auto& [k, v] : r.provenance) prov[k] = v;
  j["provenance"] = prov;
  nlohmann::json calls = nlohmann::json::array();
  for (const auto& c : r.calls) {
    nlohmann::json jc;
    jc["id"] = c.id;
    jc["group"] = c.group;
    jc["call"] = to_json(c.call);
    jc["family"] = gen::family_name(c.family);
    jc["seed"] = c.seed;
    jc["operands_sha256"] = c.operands_sha256;
    jc["operands_stored"] = c.operands_stored;
    if (c.heuristic_rejected) jc["heuristic_rejected"] = *c.heuristic_rejected;
    jc["heuristic"] = nlohmann::json::array();
    for (const auto& h : c.heuristic) jc["heuristic"].push_back(to_json(h));
    jc["runs"] = nlohmann::json::array();
    for (const auto& run : c.runs) {
      nlohmann::json jr{{"rank", run.rank}, {"config", to_json(run.config)}};
      if (run.rejected) {
        jr["rejected"] = *run.rejected;
      } else {
        jr["d"] = run.d_file;
        jr["d_sha256"] = run.d_sha256;
      }
      jc["runs"].push_back(jr);
    }
    calls.push_back(jc);
  }
  j["calls"] = calls;
  return j;
}

void write_recording(const Recording& r) { write_file_atomic(r.dir / "recording.json", to_json(r).dump(1)); }

Recording read_recording(const std::filesystem::path& dir) {
  const auto file = dir / "recording.json";
  const std::string where = file.string();
  nlohmann::json j;
  const std::string text = read_input_file(file, "the cuBLASLt recording");
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("not valid JSON: ") + e.what());
  }
  // value() throws on anything but an object: a recording that is a bare number or list is bad input.
  if (!j.is_object() || !j["schema"].is_string() || j["schema"].get<std::string>() != kRecordingSchema)
    throw InputError(where, std::string("schema is not ") + kRecordingSchema);
  Recording r;
  r.dir = dir;
  try {
    r.plan = j.at("plan").get<std::string>();
    r.workspace_bytes = json_integer<size_t>(j.at("workspace_bytes"));
    for (const auto& [k, v] : j.at("provenance").items()) r.provenance.emplace_back(k, v.get<std::string>());
    for (const auto& jc : j.at("calls")) {
      RecordedCall c;
      c.id = json_integer<size_t>(jc.at("id"));
      const std::string at = where + ": call " + std::to_string(c.id);
      c.group = jc.value("group", "");
      c.call = call_from_json(jc.at("call"), at);
      const auto fam = gen::parse_family(jc.at("family").get<std::string>());
      if (!fam) throw InputError(at, "unknown input family");
      c.family = *fam;
      c.seed = json_integer<uint64_t>(jc.at("seed"));
      c.operands_sha256 = jc.at("operands_sha256").get<std::string>();
      c.operands_stored = jc.value("operands_stored", false);
      if (jc.contains("heuristic_rejected")) c.heuristic_rejected = jc["heuristic_rejected"].get<std::string>();
      for (const auto& h : jc.at("heuristic")) c.heuristic.push_back(algo_from_json(h, at));
      for (const auto& jr : jc.at("runs")) {
        RecordedRun run;
        run.rank = json_integer<int>(jr.at("rank"));
        run.config = algo_from_json(jr.at("config"), at);
        if (jr.contains("rejected")) {
          run.rejected = jr["rejected"].get<std::string>();
        } else {
          run.d_file = jr.at("d").get<std::string>();
          run.d_sha256 = jr.at("d_sha256").get<std::string>();
        }
        c.runs.push_back(std::move(run));
      }
      r.calls.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, std::string("malformed recording: ") + e.what());
  }
  return r;
}

}  // namespace mmaemu::lt
