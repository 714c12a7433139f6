// --profile: a user's profile file in place of an architecture's built-in profile, for the whole run.
#include <cstdlib>
#include <filesystem>

#include "harness/cli/commands.hpp"
#include "harness/profiles/profile_file.hpp"

namespace mmaemu::cli {

void add_profile_option(CLI::App& app) {
  app.add_option_function<std::vector<std::string>>(
         "--profile",
         [](const std::vector<std::string>& files) {
           std::string absolute;
           for (const auto& f : files) {
             profiles::install_profile_file(f);
             absolute += (absolute.empty() ? "" : ",") + std::filesystem::absolute(f).string();
           }
           // The child processes of a run (isolated cases, mutant programs) compute with it too.
           ::setenv("MMAEMU_PROFILE", absolute.c_str(), 1);
         },
         "a profile file (mmaemu-profile: 1) whose instructions replace its architecture's built-in "
         "ones for this run; repeat for several architectures (env MMAEMU_PROFILE, comma-separated)")
      ->type_name("FILE")
      ->delimiter(',')
      ->envname("MMAEMU_PROFILE");
}

}  // namespace mmaemu::cli
