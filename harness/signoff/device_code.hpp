// Frozen device code: a release ships its CUDA modules as machine code (SASS) for every architecture
// of the build's gencode, and no PTX the driver would compile at load time unless the record names it.
// cuobjdump lists and extracts each module of each shipped binary; every module's sha256 is compared
// with a committed record (release/device-code.json), so that a changed kernel, a new one, a missing
// architecture or stray PTX cannot slip into a release unnoticed. `update_device_code_record` rewrites
// the record on purpose.
//
// A module is named as cuobjdump names it: "<binary's file name>.<index>.<arch>.cubin|ptx". Neither the
// name nor the hash depends on where the modules are extracted to.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/signoff/check_table.hpp"

namespace mmaemu::signoff {

inline constexpr const char* kDeviceCodeRecordSchema = "mmaemu-device-code/1";

struct DeviceModule {
  std::string binary;  // relative to the build directory: "harness/cli/mmaemu"
  std::string name;    // cuobjdump's name: "mmaemu.3.sm_90a.cubin"
  std::string arch;    // "sm_90a"
  std::string kind;    // "elf" or "ptx"
  uint64_t bytes = 0;
  std::string sha256;
};

// One line of `cuobjdump --list-elf` / `--list-ptx`: "ELF file    1: x.1.sm_80.cubin".
struct ListedModule {
  std::string name, arch, kind;
};
// Every module line of a listing, in order; other lines (an archive's "member" headers, cuobjdump's
// info messages) are skipped. A module line whose name carries no architecture is an InputError.
std::vector<ListedModule> parse_cuobjdump_listing(std::string_view text);

// What nvcc's -gencode flags ask for: code=sm_XX is SASS for sm_XX, code=compute_XX is PTX (which
// cuobjdump names sm_XX). "-gencode=arch=compute_90a,code=[sm_90a,compute_90a]" gives both.
struct Gencode {
  std::vector<std::string> sass;  // "sm_80", ...
  std::vector<std::string> ptx;   // "sm_90a", ...
};
Gencode parse_gencode(const std::vector<std::string>& flags);

struct DeviceCodeRecord {
  std::vector<std::string> gencode;  // the -gencode flags the record was made with
  std::vector<DeviceModule> modules;
};
// schema "mmaemu-device-code/1": {schema, gencode, modules: [{binary, name, arch, kind, bytes, sha256}]}
nlohmann::ordered_json to_json(const DeviceCodeRecord& r);
DeviceCodeRecord read_device_code_record(const std::filesystem::path& file);  // InputError naming the file
void write_device_code_record(const std::filesystem::path& file, const DeviceCodeRecord& r);  // atomically

// cuobjdump: $MMAEMU_CUOBJDUMP, then PATH, then beside this build's nvcc, then /usr/local/cuda/bin.
// Empty when none is there; `searched` (if given) receives where it looked.
std::filesystem::path find_cuobjdump(std::string* searched = nullptr);

struct DeviceCodeSpec {
  std::filesystem::path build_dir;
  std::vector<std::string> binaries;  // relative to build_dir
  std::filesystem::path record;       // release/device-code.json
  std::vector<std::string> gencode;   // the build's -gencode flags (this_build().cuda_gencode)
  bool with_cuda = false;             // whether the build has CUDA code (this_build().with_cuda)
  std::filesystem::path cuobjdump;    // empty: find_cuobjdump()
  bool required = true;               // an N/A fails the check only when it is required
};

// The modules of the spec's binaries, and a FAIL row for each that could not be listed (a binary
// missing from the build, cuobjdump failing on it).
struct DeviceCodeListing {
  std::vector<DeviceModule> modules;
  std::vector<CheckRow> problems;
};
DeviceCodeListing list_device_code(const std::filesystem::path& build_dir, const std::vector<std::string>& binaries,
                                   const std::filesystem::path& cuobjdump);

// Rows comparing a listing with the record: every module PASS (recorded, same sha256) or FAIL (added,
// removed, changed; PTX the record does not name), the record's gencode against the build's.
std::vector<CheckRow> compare_with_record(const std::vector<DeviceModule>& listing, const DeviceCodeRecord& record,
                                          const std::vector<std::string>& binaries,
                                          const std::vector<std::string>& gencode, const std::string& record_name);

// Rows saying whether each binary holds SASS for every gencode architecture, as many modules of each
// (a translation unit built without one of them has one fewer), and the PTX the gencode asks for.
std::vector<CheckRow> check_coverage(const std::vector<DeviceModule>& listing, const std::vector<std::string>& binaries,
                                     const Gencode& gencode);

struct DeviceCodeResult {
  Status status = Status::na;
  std::string reason;                 // N/A: why ("built without CUDA", "cuobjdump not found ...")
  bool required = true;
  std::string record;                 // the record's path, as shown
  std::vector<std::string> gencode;
  std::vector<DeviceModule> modules;  // as listed now
  std::vector<CheckRow> checks;
  bool passed() const;                // PASS, or N/A when not required
};

// Lists the binaries and compares them with the record (a missing record is a FAIL naming it).
DeviceCodeResult run_device_code_check(const DeviceCodeSpec& spec);
// The same from a listing made already (unit tests, and run_device_code_check itself).
DeviceCodeResult evaluate_device_code(const DeviceCodeSpec& spec, const DeviceCodeListing& listing);

// Lists the binaries and writes spec.record from them. Throws InputError when it cannot (a build
// without CUDA, no cuobjdump, a binary that cannot be listed): a record must never be written from
// a partial listing.
DeviceCodeRecord update_device_code_record(const DeviceCodeSpec& spec);

// {schema: "mmaemu-device-code-check/1", passed, status, reason, record, gencode, checks: [...], modules: [...]}
nlohmann::ordered_json to_json(const DeviceCodeResult& r);
std::string render_table(const DeviceCodeResult& r);

// The plan's `device_code:` section (paths relative to the plan file):
//   record: ../release/device-code.json       required (the file need not exist yet)
//   binaries: [harness/cli/mmaemu, ...]       required, relative to the build directory
//   required: true                            optional (default true)
// build_dir is left empty for the caller; gencode and with_cuda are this build's.
DeviceCodeSpec device_code_spec_from_yaml(const YAML::Node& section, const std::filesystem::path& plan_file);

}  // namespace mmaemu::signoff
