#include "harness/external/km_archive.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string_view>
#include <utility>

#include "harness/core/errors.hpp"

namespace mmaemu::external {
namespace {

// One member of the archive, kept in memory until its set is complete.
struct Member {
  std::string where;  // "<archive>!<member>"
  std::string text;
};

// The files of one GPU/format folder, by role.
struct Folder {
  std::optional<Member> a, b, c;
  std::map<std::string, Member> d;  // by output type: "fp32", "fp16"
};

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

// Calls `on_file(member_name, contents)` for every regular file in the archive.
template <class OnFile>
void for_each_file(const std::filesystem::path& path, OnFile on_file) {
  const std::string where = path.string();
  if (!std::filesystem::exists(path)) throw InputError(where, "no such file");
  ArchivePtr ar(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(ar.get());
  archive_read_support_format_all(ar.get());
  if (archive_read_open_filename(ar.get(), where.c_str(), 1 << 16) != ARCHIVE_OK)
    throw InputError(where, std::string("cannot open archive: ") + archive_error_string(ar.get()));
  archive_entry* entry = nullptr;
  for (;;) {
    int rc = archive_read_next_header(ar.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN)
      throw InputError(where, std::string("corrupt archive: ") + archive_error_string(ar.get()));
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    std::string name = archive_entry_pathname(entry);
    std::string text;
    char buf[1 << 16];
    for (;;) {
      la_ssize_t n = archive_read_data(ar.get(), buf, sizeof buf);
      if (n < 0)
        throw InputError(where + "!" + name,
                         std::string("corrupt archive member: ") + archive_error_string(ar.get()));
      if (n == 0) break;
      text.append(buf, static_cast<size_t>(n));
    }
    on_file(name, std::move(text));
  }
}

// Splits a member's text into lines; a final newline ends the last line rather than starting one.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool is_space(char ch) { return ch == ' ' || ch == '\t'; }

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (j > i) tokens.push_back(line.substr(i, j - i));
    i = j;
  }
  return tokens;
}

// Inputs: K fp32 bit patterns in hex per line, the same K on every line. Returns the values, case-major.
std::vector<uint32_t> parse_hex_rows(const Member& m, int& k) {
  std::vector<uint32_t> values;
  const auto lines = split_lines(m.text);
  k = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto tokens = split_tokens(lines[i]);
    if (tokens.empty()) throw InputError(km_where(m.where, i + 1), "empty line");
    if (i == 0) k = static_cast<int>(tokens.size());
    if (static_cast<int>(tokens.size()) != k)
      throw InputError(km_where(m.where, i + 1), std::to_string(tokens.size()) +
                                                     " values where line 1 has " + std::to_string(k));
    for (std::string_view t : tokens) {
      uint32_t v = 0;
      auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 16);
      if (t.size() > 8 || ec != std::errc() || end != t.data() + t.size())
        throw InputError(km_where(m.where, i + 1),
                         "'" + std::string(t) + "' is not an fp32 bit pattern in hex");
      values.push_back(v);
    }
  }
  if (lines.empty()) throw InputError(m.where, "no data");
  return values;
}

// Addends and results: one 32-character binary string per line.
std::vector<uint32_t> parse_binary_lines(const Member& m) {
  std::vector<uint32_t> values;
  const auto lines = split_lines(m.text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto tokens = split_tokens(lines[i]);
    if (tokens.size() != 1 || tokens[0].size() != 32 ||
        tokens[0].find_first_not_of("01") != std::string_view::npos)
      throw InputError(km_where(m.where, i + 1),
                       "'" + std::string(lines[i]) + "' is not a 32-character binary string");
    uint32_t v = 0;
    for (char ch : tokens[0]) v = (v << 1) | static_cast<uint32_t>(ch - '0');
    values.push_back(v);
  }
  if (lines.empty()) throw InputError(m.where, "no data");
  return values;
}

void expect_cases(const Member& m, size_t got, size_t want) {
  if (got != want)
    throw InputError(m.where, std::to_string(got) + " dot products where the a file has " +
                                  std::to_string(want));
}

const Member& required(const std::optional<Member>& m, const std::string& folder_where,
                       const std::string& name) {
  if (!m) throw InputError(folder_where, "missing " + name);
  return *m;
}

}  // namespace

std::string km_where(const std::string& file, size_t line) {
  return file + ":" + std::to_string(line);
}

std::vector<KmSet> read_km_archive(const std::filesystem::path& archive) {
  // <anything>/<GPU>/<format>/<role>_<GPU>_<suffix>.txt
  static const std::regex kMember(R"((?:.*/)?([^/]+)/([^/]+)/([abcd])_([^/_]+)_([^/_]+)\.txt)");
  const std::string archive_name = archive.string();
  std::map<std::pair<std::string, std::string>, Folder> folders;
  std::map<std::pair<std::string, std::string>, std::string> folder_paths;

  for_each_file(archive, [&](const std::string& name, std::string text) {
    std::smatch mt;
    if (!std::regex_match(name, mt, kMember)) return;  // LICENCE, SOURCE_COMMIT, ...
    const std::string gpu = mt[1], format = mt[2], role = mt[3], file_gpu = mt[4], suffix = mt[5];
    Member member{archive_name + "!" + name, std::move(text)};
    if (file_gpu != gpu) throw InputError(member.where, "file names GPU " + file_gpu + ", folder " + gpu);
    const auto key = std::make_pair(gpu, format);
    folder_paths[key] = archive_name + "!" + name.substr(0, name.rfind('/'));
    Folder& f = folders[key];
    const bool input = role == "a" || role == "b";
    const std::string want = input ? format : "fp32";
    if (role == "d") {
      if (suffix != "fp32" && suffix != "fp16")
        throw InputError(member.where, "a result file must end in _fp32.txt or _fp16.txt");
      f.d[suffix] = std::move(member);
      return;
    }
    if (suffix != want) throw InputError(member.where, "expected " + role + "_" + gpu + "_" + want + ".txt");
    (role == "a" ? f.a : role == "b" ? f.b : f.c) = std::move(member);
  });

  std::vector<KmSet> sets;
  for (const auto& [key, f] : folders) {
    const std::string& where = folder_paths[key];
    if (f.d.empty()) throw InputError(where, "no d_*_fp32.txt or d_*_fp16.txt result file");
    const Member& ma = required(f.a, where, "a_" + key.first + "_" + key.second + ".txt");
    const Member& mb = required(f.b, where, "b_" + key.first + "_" + key.second + ".txt");
    const Member& mc = required(f.c, where, "c_" + key.first + "_fp32.txt");
    int ka = 0, kb = 0;
    std::vector<uint32_t> a = parse_hex_rows(ma, ka);
    std::vector<uint32_t> b = parse_hex_rows(mb, kb);
    if (kb != ka) throw InputError(mb.where, std::to_string(kb) + " values per line where the a file has " + std::to_string(ka));
    const size_t n = a.size() / static_cast<size_t>(ka);
    expect_cases(mb, b.size() / static_cast<size_t>(kb), n);
    std::vector<uint32_t> c = parse_binary_lines(mc);
    expect_cases(mc, c.size(), n);
    for (const auto& [out, md] : f.d) {
      KmSet s;
      s.gpu = key.first;
      s.format = key.second;
      s.out = out;
      s.k = ka;
      s.a = a;
      s.b = b;
      s.c = c;
      s.d = parse_binary_lines(md);
      expect_cases(md, s.d.size(), n);
      s.a_file = ma.where;
      s.b_file = mb.where;
      s.c_file = mc.where;
      s.d_file = md.where;
      sets.push_back(std::move(s));
    }
  }
  if (sets.empty()) throw InputError(archive_name, "no recorded set (GPU/format/{a,b,c,d}_*.txt) found");
  return sets;
}

}  // namespace mmaemu::external
