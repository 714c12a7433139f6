#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/core/report_json.hpp"
#include "harness/core/report_junit.hpp"
#include "harness/core/report_markdown.hpp"
#include "harness/core/reports.hpp"
#include "harness/core/tests/temp_dir.hpp"
#include "harness/core/verdict_table.hpp"

#ifdef MMAEMU_HAVE_EXPAT
#include <expat.h>
#endif

namespace mmaemu {
namespace {

// A run with every verdict, and text that needs escaping in every format.
RunReport sample_run() {
  RunReport run;
  run.tool_version = "0.1.0";
  run.commit = "0123abc";
  run.started_utc = "2026-11-30T22:40:00Z";
  run.host = "build<&>host";
  run.environment = {{"compiler", "g++ 12.2.0 \"quoted\""}};
  run.tier_files = {"tiers/T2.yaml"};
  SuiteResult pass{"T2", "h200-fixtures", {"T2", "cpu"}, Verdict::pass, "", 1024, 0, {{"mma/realistic", {1024, 0}}}, {}, 0.5};
  SuiteResult fail = pass;
  fail.suite = "broken";
  fail.verdict = Verdict::fail;
  fail.mismatched = 2;
  fail.reason = "2 of 1024 outputs differ: mma/specials (2/512) | <bad> & 'odd'";
  fail.groups = {{"mma/realistic", {512, 0}}, {"mma/specials", {512, 2}}};
  fail.first_mismatches = {{"mma/specials", "tile 3 m 0 n 1", "a=[3c00 7c00] b=[0000 fc00] c=00000000", "7fffffff", "ffc00000"},
                           {"mma/specials", "tile 4 m 2 n 0", "a=[3c00] b=[3c00] c=\x01", "3f800000", "3f800001"}};
  SuiteResult skip{"T2", "km-external", {"T2", "cpu"}, Verdict::skip, "third-party recordings not found at /x/y.tar.xz", 0, 0, {}, {}, 0};
  SuiteResult error{"T3", "kernels", {"T3"}, Verdict::error, "fixtures/h200/manifest.yaml:4:3: unknown key 'tils'", 0, 0, {}, {}, 0};
  run.suites = {pass, fail, skip, error};
  return run;
}

TEST(JsonReport, ParsesAndCarriesEverything) {
  const RunReport run = sample_run();
  const auto j = nlohmann::json::parse(report_json::render(run));
  EXPECT_EQ(j["schema"], "mmaemu-report/1");
  EXPECT_EQ(j["commit"], "0123abc");
  EXPECT_EQ(j["summary"]["fail"], 1);
  EXPECT_EQ(j["summary"]["skip"], 1);
  ASSERT_EQ(j["suites"].size(), 4u);
  const auto& f = j["suites"][1];
  EXPECT_EQ(f["verdict"], "fail");
  EXPECT_EQ(f["groups"]["mma/specials"]["mismatched"], 2);
  EXPECT_EQ(f["first_mismatches"][0]["expected"], "7fffffff");
  EXPECT_EQ(f["first_mismatches"][0]["got"], "ffc00000");
  EXPECT_EQ(f["first_mismatches"][0]["inputs"], "a=[3c00 7c00] b=[0000 fc00] c=00000000");
}

TEST(JsonReport, SurvivesInvalidUtf8) {
  RunReport run = sample_run();
  run.suites[3].reason = "bad byte \xff here";
  const nlohmann::json j = nlohmann::json::parse(report_json::render(run));
  // The byte is replaced (U+FFFD), the rest of the reason kept.
  EXPECT_EQ(j["suites"][3]["reason"], "bad byte \xEF\xBF\xBD here");
}

#ifdef MMAEMU_HAVE_EXPAT
struct XmlCounts {
  int testcases = 0, failures = 0, skipped = 0, errors = 0;
};

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char**) {
  auto* c = static_cast<XmlCounts*>(data);
  const std::string n = name;
  c->testcases += n == "testcase";
  c->failures += n == "failure";
  c->skipped += n == "skipped";
  c->errors += n == "error";
}
#endif

TEST(JunitReport, IsWellFormedXml) {
#ifndef MMAEMU_HAVE_EXPAT
  GTEST_SKIP() << "expat not found at configure time; cannot check well-formedness";
#else
  const std::string xml = report_junit::render(sample_run());
  XML_Parser p = XML_ParserCreate(nullptr);
  XmlCounts counts;
  XML_SetUserData(p, &counts);
  XML_SetStartElementHandler(p, on_start);
  const auto status = XML_Parse(p, xml.data(), static_cast<int>(xml.size()), 1);
  const std::string err = status == XML_STATUS_OK ? "" : XML_ErrorString(XML_GetErrorCode(p));
  const auto line = XML_GetCurrentLineNumber(p);
  XML_ParserFree(p);
  ASSERT_EQ(status, XML_STATUS_OK) << err << " at line " << line << "\n" << xml;
  EXPECT_EQ(counts.testcases, 4);
  EXPECT_EQ(counts.failures, 1);
  EXPECT_EQ(counts.skipped, 1);
  EXPECT_EQ(counts.errors, 1);
#endif
}

TEST(JunitReport, CountsAndMismatchesAreThere) {
  const std::string xml = report_junit::render(sample_run());
  EXPECT_NE(xml.find("tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<testsuite name=\"T3\""), std::string::npos);
  EXPECT_NE(xml.find("expected 7fffffff"), std::string::npos);
  EXPECT_EQ(report_junit::xml_escape("a<b>&\"'\x01"), "a&lt;b&gt;&amp;&quot;&apos;");
}

TEST(MarkdownReport, ListsSuitesAndMismatches) {
  const std::string md = report_markdown::render(sample_run());
  EXPECT_NE(md.find("| T2.h200-fixtures | T2, cpu | pass | 1024 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("\\| <bad>"), std::string::npos) << "pipe in a cell is escaped";
  EXPECT_NE(md.find("  expected 3f800000\n  got      3f800001\n"), std::string::npos) << md;
}

TEST(VerdictTable, OneRowPerSuiteAndTheReasons) {
  const std::string t = verdict_table::render(sample_run(), 1);
  EXPECT_NE(t.find("T2.broken"), std::string::npos) << t;
  EXPECT_NE(t.find("FAIL"), std::string::npos);
  EXPECT_NE(t.find("third-party recordings not found at /x/y.tar.xz"), std::string::npos);
  EXPECT_NE(t.find("expected 7fffffff"), std::string::npos);
  EXPECT_EQ(t.find("expected 3f800000"), std::string::npos) << "only the first mismatch is shown";
  EXPECT_NE(t.find("1 pass, 1 fail, 1 skip, 1 error"), std::string::npos);
}

TEST(WriteReports, WritesThreeFiles) {
  testing::TempDir dir;
  write_reports(sample_run(), dir / "sub", "T2");
  for (const char* ext : {".json", ".xml", ".md"}) {
    const auto p = dir / "sub" / (std::string("T2") + ext);
    EXPECT_TRUE(std::filesystem::exists(p)) << p;
    EXPECT_GT(std::filesystem::file_size(p), 100u);
  }
}

}  // namespace
}  // namespace mmaemu
