// Reading a whole input file (an .npy array, a tier file, a JSON report or recording) with every
// failure an InputError naming the file. A directory given where a file belongs opens "fine" as an
// std::ifstream on Linux and then fails inside the stream buffer, which libstdc++ reports by throwing
// std::ios_base::failure out of istreambuf_iterator; that escaped every reader's handlers and aborted
// the program (exit 134) instead of exit 2. Reading through here turns it into the usual message.
#pragma once
#include <filesystem>
#include <string>

namespace mmaemu {

// The file's bytes. `what` names the kind of file in messages ("the .npy file", "the tier file").
// Throws InputError(path) when the path is missing, is a directory, or cannot be read to its end.
std::string read_input_file(const std::filesystem::path& path, const std::string& what);

}  // namespace mmaemu
