// SHA-256 of fixture files, so that a replay knows it reads the bytes that were recorded.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace mmaemu {

// Lower-case hex digest (64 characters) of `bytes`.
std::string sha256_hex(std::string_view bytes);

// Digest of a file's contents. Throws InputError naming the file when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

}  // namespace mmaemu
