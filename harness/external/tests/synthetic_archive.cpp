#include "harness/external/tests/synthetic_archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <bitset>
#include <memory>
#include <random>
#include <stdexcept>

namespace mmaemu::external::testing {

void write_tar_xz(const std::filesystem::path& path, const Members& members) {
  std::unique_ptr<archive, decltype(&archive_write_free)> ar(archive_write_new(), archive_write_free);
  archive_write_add_filter_xz(ar.get());
  archive_write_set_format_pax_restricted(ar.get());
  if (archive_write_open_filename(ar.get(), path.c_str()) != ARCHIVE_OK)
    throw std::runtime_error(archive_error_string(ar.get()));
  for (const auto& [name, text] : members) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> e(archive_entry_new(),
                                                                     archive_entry_free);
    archive_entry_set_pathname(e.get(), name.c_str());
    archive_entry_set_filetype(e.get(), AE_IFREG);
    archive_entry_set_perm(e.get(), 0644);
    archive_entry_set_size(e.get(), static_cast<la_int64_t>(text.size()));
    if (archive_write_header(ar.get(), e.get()) != ARCHIVE_OK ||
        archive_write_data(ar.get(), text.data(), text.size()) != static_cast<la_ssize_t>(text.size()))
      throw std::runtime_error(archive_error_string(ar.get()));
  }
  if (archive_write_close(ar.get()) != ARCHIVE_OK) throw std::runtime_error(archive_error_string(ar.get()));
}

TempDir::TempDir() {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() /
          ("mmaemu-external-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string binary32(uint32_t bits) { return std::bitset<32>(bits).to_string(); }

Members v100_members() {
  const std::string dir = "km/V100/fp16/";
  return {
      {"km/LICENCE", "BSD 2-Clause\n"},
      {dir + "a_V100_fp16.txt", "3f800000 3f800000 3f800000 3f800000 \n3f000000 3f000000 3f000000 3f000000 \n"},
      {dir + "b_V100_fp16.txt", "3f800000 3f800000 3f800000 3f800000 \n40000000 40000000 40000000 40000000 \n"},
      {dir + "c_V100_fp32.txt", binary32(0x3f800000) + "\n" + binary32(0) + "\n"},
      {dir + "d_V100_fp32.txt", binary32(0x40a00000) + "\n" + binary32(0x40800000) + "\n"},
      {dir + "d_V100_fp16.txt", binary32(0x40a00000) + "\n" + binary32(0x40800000) + "\n"},
  };
}

Members with(Members m, const std::string& name, const std::string& text) {
  for (auto& [n, t] : m)
    if (n == name) {
      t = text;
      return m;
    }
  m.emplace_back(name, text);
  return m;
}

Members without(Members m, const std::string& name) {
  std::erase_if(m, [&](const auto& p) { return p.first == name; });
  return m;
}

}  // namespace mmaemu::external::testing
