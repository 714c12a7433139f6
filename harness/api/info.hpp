// What `mmaemu info` says, as data: the architecture profiles with their instructions and block
// models, the backends (fallback ladder) and what each runs here, the library profiles, the devices
// and the versions. The command line prints it; Python's mmaemu.info() returns it.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace mmaemu::api {

// `arch`: one profile only ("sm90"; InputError for an unknown one). `every_n`: every wgmma and tcgen05
// N, not only n8 (which stands for all of them).
nlohmann::json info(const std::optional<std::string>& arch, bool every_n);

}  // namespace mmaemu::api
