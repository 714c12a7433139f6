// The device-code check: cuobjdump listings (real ones, captured from a CUDA build of this tree, in
// data/), the comparison with a record, the gencode coverage, and the listing itself, run through a
// stand-in cuobjdump everywhere and through the real one on a real binary where a CUDA build has one.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "harness/core/atomic_file.hpp"
#include "harness/signoff/device_code.hpp"
#include "harness/core/errors.hpp"
#include "harness/signoff/preflight.hpp"
#include "harness/core/sha256.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::signoff {
namespace {
namespace fs = std::filesystem;
using mmaemu::testing::TempDir;

const fs::path kData = MMAEMU_SIGNOFF_TEST_DATA;
const std::vector<std::string> kGencode = {"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_89,code=sm_89",
                                           "-gencode=arch=compute_90a,code=sm_90a"};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

DeviceModule module(const std::string& binary, const std::string& name, char fill = 'a', uint64_t bytes = 100) {
  const std::string arch = name.substr(name.find(".sm_") + 1, name.rfind('.') - name.find(".sm_") - 1);
  return {binary, name, arch, name.size() > 4 && name.substr(name.size() - 4) == ".ptx" ? "ptx" : "elf", bytes,
          std::string(64, fill)};
}

// Two translation units for each gencode architecture, as a build of two CUDA sources has.
std::vector<DeviceModule> two_units(const std::string& binary = "bin/prog") {
  std::vector<DeviceModule> out;
  int index = 1;
  for (int unit = 0; unit < 2; ++unit)
    for (const char* arch : {"sm_80", "sm_89", "sm_90a"})
      out.push_back(module(binary, "prog." + std::to_string(index++) + "." + arch + ".cubin", static_cast<char>('a' + unit)));
  return out;
}

const CheckRow* find_row(const std::vector<CheckRow>& rows, const std::string& name) {
  for (const CheckRow& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

size_t failures(const std::vector<CheckRow>& rows) {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const CheckRow& r) { return r.status == Status::fail; }));
}

TEST(CuobjdumpListing, ParsesARealListingOfAProgram) {
  const std::vector<ListedModule> m = parse_cuobjdump_listing(read_text(kData / "sample.list-elf.txt"));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "signoff_device_code_sample.1.sm_80.cubin");
  EXPECT_EQ(m[0].arch, "sm_80");
  EXPECT_EQ(m[0].kind, "elf");
  EXPECT_EQ(m[1].arch, "sm_89");
  EXPECT_EQ(m[2].arch, "sm_90a");
  // "No PTX file found" is an info line, not a module.
  EXPECT_TRUE(parse_cuobjdump_listing(read_text(kData / "sample.list-ptx.txt")).empty());
}

TEST(CuobjdumpListing, ParsesARealListingWithPtxAndOfAnArchive) {
  const std::vector<ListedModule> ptx = parse_cuobjdump_listing(read_text(kData / "sample-with-ptx.list-ptx.txt"));
  ASSERT_EQ(ptx.size(), 1u);
  EXPECT_EQ(ptx[0].name, "sample_with_ptx.1.sm_90a.ptx");
  EXPECT_EQ(ptx[0].arch, "sm_90a");
  EXPECT_EQ(ptx[0].kind, "ptx");
  // A static library: "member" headers between the modules, numbered on across members.
  const std::vector<ListedModule> lib = parse_cuobjdump_listing(read_text(kData / "mmaemu_record.list-elf.txt"));
  ASSERT_EQ(lib.size(), 9u);
  EXPECT_EQ(lib[8].name, "libmmaemu_record_cuda.9.sm_90a.cubin");
  // With one architecture only, nvcc leaves the index out of the name.
  const std::vector<ListedModule> one = parse_cuobjdump_listing("ELF file    1: device_code_sample.sm_90a.cubin\n");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].arch, "sm_90a");
  EXPECT_THROW(parse_cuobjdump_listing("ELF file    1: weird.cubin\n"), InputError);
}

TEST(Gencode, SassAndPtxOfTheFlags) {
  const Gencode g = parse_gencode(kGencode);
  EXPECT_EQ(g.sass, (std::vector<std::string>{"sm_80", "sm_89", "sm_90a"}));
  EXPECT_TRUE(g.ptx.empty());
  const Gencode both = parse_gencode({"-gencode=arch=compute_90a,code=[sm_90a,compute_90a]", "-gencode", "arch=compute_80,code=sm_80"});
  EXPECT_EQ(both.sass, (std::vector<std::string>{"sm_90a", "sm_80"}));
  EXPECT_EQ(both.ptx, (std::vector<std::string>{"sm_90a"}));
  const Gencode arch_only = parse_gencode({"-arch=sm_86"});
  EXPECT_EQ(arch_only.sass, (std::vector<std::string>{"sm_86"}));
  EXPECT_EQ(arch_only.ptx, (std::vector<std::string>{"sm_86"}));
}

TEST(DeviceCodeRecord, MatchingListingPasses) {
  const DeviceCodeRecord record{kGencode, two_units()};
  const std::vector<CheckRow> rows = compare_with_record(two_units(), record, {"bin/prog"}, kGencode, "device-code.json");
  EXPECT_EQ(rows.size(), 7u);  // the gencode, and six modules
  EXPECT_EQ(failures(rows), 0u);
  EXPECT_EQ(find_row(rows, "bin/prog: prog.4.sm_80.cubin")->source, "device-code.json");
}

TEST(DeviceCodeRecord, EveryDifferenceIsAFailNamingTheModule) {
  const DeviceCodeRecord record{kGencode, two_units()};
  std::vector<DeviceModule> now = two_units();
  now[1].sha256 = std::string(64, 'f');                         // changed
  now.erase(now.begin() + 2);                                   // removed: prog.3.sm_90a.cubin
  now.push_back(module("bin/prog", "prog.7.sm_80.cubin"));      // added
  now.push_back(module("bin/prog", "prog.1.sm_90a.ptx"));       // PTX nobody recorded
  const std::vector<CheckRow> rows = compare_with_record(now, record, {"bin/prog"}, kGencode, "device-code.json");
  EXPECT_EQ(failures(rows), 4u);
  EXPECT_EQ(find_row(rows, "bin/prog: prog.2.sm_89.cubin")->reason, "changed since the record");
  EXPECT_EQ(find_row(rows, "bin/prog: prog.3.sm_90a.cubin")->reason, "removed: the record names it, the build does not have it");
  EXPECT_EQ(find_row(rows, "bin/prog: prog.7.sm_80.cubin")->reason, "added: the record does not name this module");
  const CheckRow* ptx = find_row(rows, "bin/prog: prog.1.sm_90a.ptx");
  ASSERT_NE(ptx, nullptr);
  EXPECT_EQ(ptx->status, Status::fail);
  EXPECT_EQ(ptx->reason, "PTX the record does not name: the driver would compile it when the program loads");
  EXPECT_EQ(ptx->expected, "(not recorded)");
}

TEST(DeviceCodeRecord, RecordedPtxPassesAndTheGencodeMustMatch) {
  std::vector<DeviceModule> with_ptx = two_units();
  with_ptx.push_back(module("bin/prog", "prog.1.sm_90a.ptx"));
  const DeviceCodeRecord record{kGencode, with_ptx};
  const std::vector<CheckRow> same = compare_with_record(with_ptx, record, {"bin/prog"}, kGencode, "r");
  EXPECT_EQ(failures(same), 0u);
  EXPECT_EQ(find_row(same, "bin/prog: prog.1.sm_90a.ptx")->reason, "PTX, named by the record");
  const std::vector<std::string> other = {kGencode[0], kGencode[2]};
  const std::vector<CheckRow> rows = compare_with_record(with_ptx, record, {"bin/prog"}, other, "r");
  EXPECT_EQ(find_row(rows, "gencode")->status, Status::fail);
  // A record of a binary the check does not list is a difference too.
  const std::vector<CheckRow> fewer = compare_with_record({}, DeviceCodeRecord{kGencode, two_units("bench/b")}, {}, kGencode, "r");
  EXPECT_EQ(find_row(fewer, "record: bench/b")->status, Status::fail);
}

TEST(DeviceCodeCoverage, EveryGencodeArchitectureInEveryUnit) {
  const Gencode g = parse_gencode(kGencode);
  EXPECT_EQ(failures(check_coverage(two_units(), {"bin/prog"}, g)), 0u);
  std::vector<DeviceModule> lacking = two_units();
  lacking.erase(lacking.begin() + 4);  // the second unit's sm_89
  const std::vector<CheckRow> rows = check_coverage(lacking, {"bin/prog"}, g);
  ASSERT_EQ(failures(rows), 1u);
  EXPECT_EQ(find_row(rows, "bin/prog: sm_89 SASS")->reason, "1 translation unit(s) were built without sm_89");
  EXPECT_EQ(find_row(rows, "bin/prog: sm_89 SASS")->seen, "1 modules");
  const std::vector<CheckRow> none = check_coverage({}, {"bin/prog"}, g);
  EXPECT_EQ(failures(none), 3u);
  // PTX the gencode asks for must be there.
  const Gencode with_ptx = parse_gencode({"-gencode=arch=compute_90a,code=[sm_90a,compute_90a]"});
  EXPECT_EQ(find_row(check_coverage(two_units(), {"bin/prog"}, with_ptx), "bin/prog: sm_90a PTX")->status, Status::fail);
}

TEST(DeviceCodeCheck, NotAvailableWithoutCudaOrCuobjdump) {
  DeviceCodeSpec spec;
  spec.binaries = {"harness/cli/mmaemu"};
  spec.record = "release/device-code.json";
  spec.with_cuda = false;
  DeviceCodeResult r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::na);
  EXPECT_EQ(r.reason, "built without CUDA");
  EXPECT_FALSE(r.passed());  // required
  spec.required = false;
  EXPECT_TRUE(run_device_code_check(spec).passed());
  spec.with_cuda = true;
  spec.cuobjdump = "/nonexistent/cuobjdump";
  r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::na);
  EXPECT_EQ(r.reason, "cuobjdump not found at /nonexistent/cuobjdump");
  EXPECT_NE(render_table(r).find("device code N/A: cuobjdump not found"), std::string::npos);
  EXPECT_THROW(update_device_code_record(spec), InputError);
}

TEST(DeviceCodeCheck, RecordRoundTripAndMalformedRecords) {
  TempDir dir;
  const DeviceCodeRecord record{kGencode, two_units()};
  write_device_code_record(dir / "r.json", record);
  const DeviceCodeRecord back = read_device_code_record(dir / "r.json");
  EXPECT_EQ(back.gencode, kGencode);
  ASSERT_EQ(back.modules.size(), 6u);
  EXPECT_EQ(back.modules[5].name, "prog.6.sm_90a.cubin");
  EXPECT_EQ(back.modules[5].sha256, std::string(64, 'b'));
  EXPECT_EQ(nlohmann::json::parse(read_text(dir / "r.json"))["schema"], "mmaemu-device-code/1");
  write_file_atomic(dir / "bad.json", R"({"schema": "mmaemu-device-code/1", "gencode": [], "modules": [{"binary": "x"}]})");
  try {
    read_device_code_record(dir / "bad.json");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json: malformed record"), std::string::npos) << e.what();
  }
}

// A stand-in for cuobjdump with its interface: lists two modules of any file, and extracts them into
// the working directory with contents made of the binary's bytes.
fs::path write_fake_cuobjdump(const fs::path& dir) {
  const fs::path tool = dir / "cuobjdump";
  write_file_atomic(tool,
                    "#!/bin/sh\n"
                    "f=\"$(eval echo \\${$#})\"; b=\"$(basename \"$f\")\"\n"
                    "case \"$b\" in nodevice) echo \"cuobjdump info    : File '$f' does not contain device code\"; exit 255;; esac\n"
                    "case \"$1\" in\n"
                    "  --list-elf) echo \"ELF file    1: $b.1.sm_80.cubin\"; echo \"ELF file    2: $b.2.sm_90a.cubin\";;\n"
                    "  --list-ptx) echo \"cuobjdump info    : No PTX file found to extract from '$f'.\" >&2;;\n"
                    "  -xelf) { printf 'sm_80:'; cat \"$f\"; } > \"$b.1.sm_80.cubin\"; { printf 'sm_90a:'; cat \"$f\"; } > \"$b.2.sm_90a.cubin\";;\n"
                    "esac\n");
  ::chmod(tool.c_str(), 0755);
  return tool;
}

TEST(DeviceCodeCheck, ListsExtractsAndHashesThroughCuobjdump) {
  TempDir dir;
  const fs::path tool = write_fake_cuobjdump(dir.path());
  write_file_atomic(dir / "build/harness/cli/mmaemu", "host and device bytes");
  write_file_atomic(dir / "build/nodevice", "host bytes only");
  const DeviceCodeListing first = list_device_code(dir / "build", {"harness/cli/mmaemu"}, tool);
  ASSERT_TRUE(first.problems.empty()) << first.problems[0].reason;
  ASSERT_EQ(first.modules.size(), 2u);
  EXPECT_EQ(first.modules[0].binary, "harness/cli/mmaemu");
  EXPECT_EQ(first.modules[0].name, "mmaemu.1.sm_80.cubin");
  EXPECT_EQ(first.modules[0].sha256, sha256_hex("sm_80:host and device bytes"));
  EXPECT_EQ(first.modules[1].bytes, std::string("sm_90a:host and device bytes").size());
  // Another listing, in another scratch directory, names and hashes alike.
  const DeviceCodeListing second = list_device_code(dir / "build", {"harness/cli/mmaemu"}, tool);
  ASSERT_EQ(second.modules.size(), 2u);
  EXPECT_EQ(second.modules[1].name, first.modules[1].name);
  EXPECT_EQ(second.modules[1].sha256, first.modules[1].sha256);
  // A missing binary is a FAIL row; one without device code lists nothing (coverage then fails).
  const DeviceCodeListing odd = list_device_code(dir / "build", {"bench/gone", "nodevice"}, tool);
  ASSERT_EQ(odd.problems.size(), 1u);
  EXPECT_EQ(odd.problems[0].name, "bench/gone");
  EXPECT_EQ(odd.problems[0].seen, "missing");
  EXPECT_TRUE(odd.modules.empty());

  // The whole check: update the record on purpose, then compare; then change the binary.
  DeviceCodeSpec spec{dir / "build", {"harness/cli/mmaemu"}, dir / "release/device-code.json",
                      {"-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90a,code=sm_90a"}, true, tool, true};
  DeviceCodeResult r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::fail);
  EXPECT_EQ(find_row(r.checks, "record")->seen, "missing");
  const DeviceCodeRecord written = update_device_code_record(spec);
  EXPECT_EQ(written.modules.size(), 2u);
  r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::pass) << render_table(r);
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(to_json(r)["schema"], "mmaemu-device-code-check/1");
  EXPECT_EQ(to_json(r)["modules"].size(), 2u);
  write_file_atomic(dir / "build/harness/cli/mmaemu", "host and other device bytes");
  r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::fail);
  EXPECT_EQ(find_row(r.checks, "harness/cli/mmaemu: mmaemu.2.sm_90a.cubin")->reason, "changed since the record");
  EXPECT_NE(render_table(r).find("changed since the record"), std::string::npos) << render_table(r);
  // A record is never written from a partial listing.
  spec.binaries.push_back("bench/gone");
  EXPECT_THROW(update_device_code_record(spec), InputError);
}

TEST(DeviceCodePlan, ReadsASection) {
  TempDir dir;
  write_file_atomic(dir / "release/plan.yaml",
                    "device_code:\n  record: device-code.json\n  binaries: [harness/cli/mmaemu, bench/mmaemu-bench-gemm]\n"
                    "  required: false\n");
  const YAML::Node root = YAML::LoadFile((dir / "release/plan.yaml").string());
  const DeviceCodeSpec s = device_code_spec_from_yaml(root["device_code"], dir / "release/plan.yaml");
  EXPECT_EQ(s.record, (dir.path() / "release/device-code.json").lexically_normal());
  EXPECT_EQ(s.binaries, (std::vector<std::string>{"harness/cli/mmaemu", "bench/mmaemu-bench-gemm"}));
  EXPECT_FALSE(s.required);
  EXPECT_EQ(s.gencode, this_build().cuda_gencode);
  write_file_atomic(dir / "release/bad.yaml", "device_code:\n  record: r.json\n  binary: [x]\n");
  const YAML::Node bad = YAML::LoadFile((dir / "release/bad.yaml").string());
  try {
    device_code_spec_from_yaml(bad["device_code"], dir / "release/bad.yaml");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.yaml:3:3: unknown key 'binary'"), std::string::npos) << e.what();
  }
}

#ifdef MMAEMU_SIGNOFF_SAMPLE_BINARY
// The real cuobjdump on a real binary built with this build's gencode.
TEST(DeviceCodeReal, TheSampleProgramHoldsSassForEveryGencodeArchitectureAndNoPtx) {
  const fs::path tool = find_cuobjdump();
  if (tool.empty()) GTEST_SKIP() << "no cuobjdump here";
  const fs::path binary = MMAEMU_SIGNOFF_SAMPLE_BINARY;
  const std::string name = binary.filename().string();
  TempDir dir;
  DeviceCodeSpec spec{binary.parent_path(), {name}, dir / "device-code.json", this_build().cuda_gencode, true, tool, true};
  const DeviceCodeRecord record = update_device_code_record(spec);
  const Gencode g = parse_gencode(spec.gencode);
  ASSERT_FALSE(g.sass.empty());
  EXPECT_EQ(record.modules.size(), g.sass.size());
  for (const DeviceModule& m : record.modules) {
    EXPECT_EQ(m.kind, "elf") << m.name;
    EXPECT_EQ(m.name.rfind(name + ".", 0), 0u) << m.name;
  }
  const DeviceCodeResult r = run_device_code_check(spec);
  EXPECT_EQ(r.status, Status::pass) << render_table(r);
  // A record with one hash off fails on that module.
  DeviceCodeRecord off = record;
  off.modules.back().sha256 = std::string(64, '0');
  write_device_code_record(spec.record, off);
  const DeviceCodeResult changed = run_device_code_check(spec);
  EXPECT_EQ(changed.status, Status::fail);
  EXPECT_EQ(find_row(changed.checks, name + ": " + record.modules.back().name)->reason, "changed since the record");
}
#endif

}  // namespace
}  // namespace mmaemu::signoff
