// The capture file (harness/cublaslt/lt_capture.hpp): what it holds read back, lookups by the call the
// library saw, and every malformed line named by file:line:column.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_capture.hpp"

namespace mmaemu::lt {
namespace {

const std::string kHeader =
    R"({"schema": "mmaemu-capture/1", "library": {"name": "cublasLt", "version": 130100}, )"
    R"("gpu": {"name": "NVIDIA H100 80GB HBM3", "sm_count": 132, "driver": "580.159.04"}, "torch": "2.11.0+cu130"})";

std::string call_line(size_t m, int algo, const std::string& extra = "") {
  return R"({"op": "linear", "call": {"a": "bf16", "b": "bf16", "c": "bf16", "d": "bf16", "compute": "32F", "m": )" +
         std::to_string(m) + R"(, "n": 37, "k": 1000, "alpha": 1, "beta": 0, "max_workspace": 33554432)" + extra +
         R"(}, "config": {"algo_id": )" + std::to_string(algo) +
         R"(, "tile": 0, "stages": 0, "split_k": 1, "reduction": 0, "tile_name": "64x64", "stages_name": "UNDEFINED"}})";
}

std::filesystem::path write(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("mmaemu-capture-test-" + name + ".jsonl");
  std::ofstream(p) << text;
  return p;
}

std::string error_of(const std::string& text) {
  try {
    Capture::read(write("bad", text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Capture, ReadsItsHeaderAndFindsEachCallByWhatTheLibrarySaw) {
  const auto file = write("ok", kHeader + "\n" + call_line(256, 24) + "\n\n" + call_line(257, 66) + "\n" +
                                    call_line(256, 24) + "\n" + call_line(256, 23, R"(, "batch": 4)") + "\n");
  const Capture cap = Capture::read(file);
  EXPECT_EQ(cap.header().library_version, 130100);
  EXPECT_EQ(cap.header().sm_count, 132);
  EXPECT_EQ(cap.header().torch, "2.11.0+cu130");
  ASSERT_EQ(cap.calls().size(), 3u);  // the repeated line stands once
  EXPECT_EQ(cap.calls()[1].line, 4u);
  LtCall call = cap.calls()[0].call;
  call.alpha = 0.5f;  // not part of the key: the heuristic's choice does not depend on it
  ASSERT_NE(cap.find(call), nullptr);
  EXPECT_EQ(cap.find(call)->config.algo_id, 24);
  call.batch = 4;
  EXPECT_EQ(cap.find(call)->config.algo_id, 23);
  call.batch = 1;
  call.M = 258;
  EXPECT_EQ(cap.find(call), nullptr);
  call.M = 256;
  call.max_workspace = 0;  // the session's 32 MiB: the same limit
  EXPECT_NE(cap.find(call), nullptr);
  call.max_workspace = 1 << 20;
  EXPECT_EQ(cap.find(call), nullptr);
  // A line written back reads as the same call.
  EXPECT_EQ(Capture::key(cap.calls()[0].call), Capture::key(Capture::read(write("again", capture_header_line(cap.header()) +
                                                                                            "\n" + capture_line(cap.calls()[0])))
                                                                 .calls()[0]
                                                                 .call));
}

TEST(Capture, AnotherLibraryOrSmCountIsIncompatibleWithItsReason) {
  const Capture cap = Capture::read(write("compat", kHeader + "\n" + call_line(8, 24)));
  EXPECT_FALSE(cap.incompatible(130100, 132));
  const auto version = cap.incompatible(130000, 132);
  ASSERT_TRUE(version);
  EXPECT_NE(version->find("130100"), std::string::npos) << *version;
  const auto sms = cap.incompatible(130100, 114);
  ASSERT_TRUE(sms);
  EXPECT_NE(sms->find("132 SMs"), std::string::npos) << *sms;
}

TEST(Capture, AMalformedLineIsNamedByFileLineAndColumn) {
  EXPECT_NE(error_of(kHeader + "\n" + call_line(8, 24) + "\n{not json").find(".jsonl:3:"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema": "mmaemu-capture/0", "library": {"name": "x", "version": 1}, "gpu": {"name": "g", "sm_count": 1}})")
                .find(":1:2: schema is not mmaemu-capture/1"),
            std::string::npos);
  const std::string typo = error_of(kHeader + "\n" + call_line(8, 24, R"(, "bacth": 2)"));
  EXPECT_NE(typo.find(":2:"), std::string::npos) << typo;
  const std::string unknown_key = error_of(kHeader + "\n" + R"({"op": "x", "cal": {}, "config": {}})");
  EXPECT_NE(unknown_key.find(":2:13: unknown key 'cal'"), std::string::npos) << unknown_key;
  const std::string ambiguous = error_of(kHeader + "\n" + call_line(8, 24) + "\n" + call_line(8, 66));
  EXPECT_NE(ambiguous.find(":3:"), std::string::npos) << ambiguous;
  EXPECT_NE(ambiguous.find("line 2"), std::string::npos) << ambiguous;
  EXPECT_NE(error_of("").find("no header"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema": "mmaemu-capture/1", "library": {"name": "x", "version": -1}, "gpu": {"name": "g", "sm_count": 1}})")
                .find("'version'"),
            std::string::npos);
}

}  // namespace
}  // namespace mmaemu::lt
