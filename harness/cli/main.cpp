// mmaemu: conformance suite for matrix-multiply-accumulate emulation.
// Exit status: 0 all good, 1 a check failed, 2 unusable input (with a message naming the file).
#include "harness/cli/commands.hpp"

int main(int argc, char** argv) { return mmaemu::cli::run_main(argc, argv); }
