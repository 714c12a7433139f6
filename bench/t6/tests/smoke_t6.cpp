// Smoke test of `mmaemu bench` (tier T6): runs the short tier file's sections and checks that the
// reports exist and parse (JSON, Google Benchmark's JSON, Markdown, a well-formed SVG) and hold every
// row, measured with the samples asked for or not measured with a reason. Never asserts a speed.
// With --check-baseline it runs once more against a copy of its own report with every rate raised
// a thousandfold, which must be flagged (exit 1) row by row: the comparison path, not a timing.
// Usage: smoke-t6 MMAEMU TIER_FILE OUT_DIR SECTION... [--check-baseline]
// Exit 77 (skipped) when `mmaemu bench` says nothing could run (the GEMM section without a GPU).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench/t6/tests/xml_check.hpp"

namespace {

namespace fs = std::filesystem;
int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int run(const std::string& cmd) {
  std::cout << cmd << "\n" << std::flush;
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// Every row measured, or skipped or declined with its reason; and every section asked for measured
// at least one row (a section whose rows all skipped would pass having measured nothing).
void check_rows(const nlohmann::json& j, const std::vector<std::string>& sections) {
  expect(!j["rows"].empty(), "the report has rows");
  std::map<std::string, size_t> measured;
  for (const auto& row : j["rows"])
    if (row.value("status", "") == "measured") ++measured[row.value("section", "")];
  for (const auto& s : sections) expect(measured[s] > 0, "the " + s + " section measured at least one row");
  for (const auto& row : j["rows"]) {
    const std::string key = row.value("key", "?"), st = row.value("status", "?");
    expect(st == "measured" || st == "skipped" || st == "declined", key + ": measured, skipped or declined, not '" +
                                                                        st + "' (" + row.value("reason", "") + ")");
    if (st == "measured") {
      expect(row["rate"].is_object() && row["rate"]["median"].get<double>() > 0, key + ": a positive rate");
      expect(row["rate"]["count"].get<size_t>() >= 2, key + ": at least two samples");
      expect(row["rate"]["p10"].get<double>() <= row["rate"]["p90"].get<double>(), key + ": p10 <= p90");
    } else {
      expect(!row["reason"].get<std::string>().empty(), key + ": says why it was not measured");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: smoke-t6 MMAEMU TIER_FILE OUT_DIR SECTION... [--check-baseline] [--quick]\n";
    return 2;
  }
  const std::string mmaemu = argv[1], tier = argv[2];
  const fs::path out = argv[3];
  std::vector<std::string> sections;
  bool check_baseline = false;
  bool quick = false;  // the tier file's quick form
  for (int i = 4; i < argc; ++i) {
    if (std::string(argv[i]) == "--check-baseline") check_baseline = true;
    else if (std::string(argv[i]) == "--quick") quick = true;
    else sections.push_back(argv[i]);
  }
  std::string stem = "smoke";
  for (const auto& s : sections) stem += "-" + s;
  fs::create_directories(out);
  for (const char* ext : {".json", ".md", ".svg", ".gbench.json"}) fs::remove(out / (stem + ext));

  auto command = [&](const std::string& report_stem) {
    std::string cmd = "'" + mmaemu + "' bench '" + tier + "' --quiet --report-dir '" + out.string() + "' --report-stem " +
                      report_stem;
    for (const auto& s : sections) cmd += " --section " + s;
    if (quick) cmd += " --quick";
    return cmd;
  };
  const int status = run(command(stem));
  if (status == 77) {
    std::cout << "SKIP: " << slurp(out / (stem + ".md")).substr(0, 600) << "\n";
    return 77;
  }
  expect(status == 0, "mmaemu bench exits 0 (exit status " + std::to_string(status) + ")");

  nlohmann::json j;
  try {
    j = nlohmann::json::parse(slurp(out / (stem + ".json")));
  } catch (const std::exception& e) {
    std::cerr << "FAIL: the JSON report parses: " << e.what() << "\n";
    return 1;
  }
  expect(j.value("schema", "") == "mmaemu-bench-t6/1", "schema mmaemu-bench-t6/1");
  for (const char* key : {"commit", "host", "compiler", "os", "started_utc", "hardware_threads"})
    expect(j["provenance"].contains(key), std::string("provenance has ") + key);
  for (const auto& s : sections) expect(j["sections"].contains(s), "the report has the " + s + " section");
  check_rows(j, sections);
  const std::string md = slurp(out / (stem + ".md"));
  expect(md.find("| T6 section |") != std::string::npos, "the Markdown report has the verdict table");
  const auto svg = mmaemu::t6::test::check_xml(slurp(out / (stem + ".svg")));
  expect(svg.ok, "the SVG is well-formed XML: " + svg.error);
  if (j["sections"].contains("reference")) {
    const auto gb = nlohmann::json::parse(slurp(out / (stem + ".gbench.json")), nullptr, false);
    expect(!gb.is_discarded() && gb.contains("benchmarks") && !gb["benchmarks"].empty(),
           "Google Benchmark's JSON parses and lists the benchmarks");
  }
  if (j["sections"].contains("gemm") && j["sections"]["gemm"]["report"].is_object())
    expect(svg.elements.count("polyline") > 0, "the plot draws the GEMM lines");

  if (check_baseline) {
    nlohmann::json faster = j;
    size_t measured = 0;
    for (auto& row : faster["rows"])
      if (row["rate"].is_object()) {
        ++measured;
        for (const char* k : {"median", "min", "max", "p10", "p90"}) row["rate"][k] = row["rate"][k].get<double>() * 1000;
      }
    const fs::path base = out / (stem + "-baseline.json");
    std::ofstream(base) << faster.dump(1);
    const int again = run(command(stem + "-again") + " --baseline '" + base.string() + "'");
    expect(again == 1, "a baseline a thousand times faster is flagged (exit 1, got " + std::to_string(again) + ")");
    const auto k = nlohmann::json::parse(slurp(out / (stem + "-again.json")), nullptr, false);
    expect(!k.is_discarded() && k["baseline"].is_object(), "the report holds the comparison");
    if (!k.is_discarded() && k["baseline"].is_object())
      expect(k["baseline"]["regressions"].get<size_t>() == k["baseline"]["compared"].size() &&
                 k["baseline"]["compared"].size() > 0 && k["baseline"]["compared"].size() <= measured,
             "every compared rate is flagged");
  }
  if (failures == 0) std::cout << "OK\n";
  return failures == 0 ? 0 : 1;
}
