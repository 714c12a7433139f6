#pragma once
// cuBLASLt, loaded on first use.
//
// The library is half a gigabyte and its static initialisation costs a process about 0.1 s and 200 MB of
// resident memory, which every start of `mmaemu` paid (`--version` included) while it was a link-time
// dependency. lt_loader.cpp defines the cuBLASLt entry points the project calls, with cublasLt.h's own
// declarations, and opens the library with dlopen the first time one of them runs; a process that never
// reaches the GPU's library never loads it, and one that cannot load it is told why instead of failing to
// start. Code that calls cuBLASLt includes <cublasLt.h> as before and links mmaemu_cublaslt_loader instead
// of CUDA::cublasLt.
#include <string>

namespace mmaemu::lt {

// Which cuBLASLt the process uses, or why there is none. The first call loads it: the file MMAEMU_CUBLASLT
// names when it is set (that file or none), else the first that loads of libcublasLt.so.<major of the
// headers this build used> on the loader's search path (a copy the process already holds, e.g. PyTorch's;
// LD_LIBRARY_PATH; the system's cache) and the same name in the library directory of the CUDA toolkit this
// build used.
struct CublasLtLibrary {
  bool loaded = false;
  std::string file;   // the loaded file's real path
  std::string error;  // why it could not be loaded (every candidate's dlerror), empty when loaded
};
const CublasLtLibrary& cublaslt_library();

}  // namespace mmaemu::lt
