#include "harness/cli/shard_option.hpp"

#include <filesystem>
#include <iostream>

#include "harness/core/shard.hpp"

namespace mmaemu::cli {

ShardInfo resolve_shard_option(const std::string& text) {
  std::string source;
  const ShardInfo shard = resolve_shard(text, "--shard", &source);
  if (text == "auto") std::cerr << "mmaemu: shard " << shard.index << "/" << shard.count << " (" << source << ")\n";
  return shard;
}

std::string sharded_directory(const std::string& dir, const std::string& text, const ShardInfo& shard) {
  if (text != "auto") return dir;
  return (std::filesystem::path(dir) / shard_directory_name(shard)).string();
}

}  // namespace mmaemu::cli
