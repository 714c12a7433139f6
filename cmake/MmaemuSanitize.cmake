# MMAEMU_SANITIZE and MMAEMU_FUZZ: one instrumented build (the `sanitize` preset) that runs the test
# suite under the sanitizers and builds the fuzz targets of every reader of outside input (fuzz/).
#
#   MMAEMU_SANITIZE=address,undefined   -fsanitize=<list> on every target, every finding fatal
#                                       (-fno-sanitize-recover=all): a report is a failed test, never
#                                       a line in a log nobody reads.
#   MMAEMU_FUZZ=ON                      also -fsanitize=fuzzer-no-link everywhere (coverage feedback in
#                                       the production code the fuzzers reach) and fuzz/ is built.
#
# Set here, once, for the whole tree: a library left uninstrumented would hide its bugs from the
# fuzzers and could give ASan false reports at its boundary.

set(MMAEMU_SANITIZE "" CACHE STRING
    "Sanitizers for every target, as -fsanitize takes them (e.g. address,undefined); empty: none")
option(MMAEMU_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
option(MMAEMU_SANITIZE_GLUE_O0
       "In an instrumented build, compile the harness, tests, benchmarks and fuzz targets at -O0 (CI's sanitizer pass)" OFF)

# Called by the top-level CMakeLists.txt after reference/ and kernels/, before everything above them.
# Instrumented code generation is most of an ASan build's time and -O0 roughly halves it; the
# arithmetic the tests spend their time in (reference/, kernels/, generators/) keeps the build type's
# optimisation, so the tests run about as fast. Off by default: long fuzz runs want -O1 readers.
macro(mmaemu_sanitize_glue_code)
  if(MMAEMU_SANITIZE AND MMAEMU_SANITIZE_GLUE_O0)
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-O0>")
  endif()
endmacro()

# Called by the harness's directories whose code the tests spend their time in all the same (the
# readers of large recordings, the library model's host side): back to -O1, the Sanitize build type's.
macro(mmaemu_sanitize_keep_optimised)
  if(MMAEMU_SANITIZE AND MMAEMU_SANITIZE_GLUE_O0)
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-O1>")
  endif()
endmacro()

if(MMAEMU_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    message(FATAL_ERROR "MMAEMU_SANITIZE needs clang or gcc, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(MMAEMU_HAVE_CUDA)
    # nvcc passes host flags through -Xcompiler only; device code cannot be sanitized at all.
    message(FATAL_ERROR "MMAEMU_SANITIZE is for CPU builds: configure with -DMMAEMU_WITH_CUDA=OFF")
  endif()
  set(_mmaemu_san_flags -fsanitize=${MMAEMU_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_mmaemu_san_flags}>")
  add_link_options(-fsanitize=${MMAEMU_SANITIZE})
endif()

if(MMAEMU_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
      "MMAEMU_FUZZ needs clang with libFuzzer (-fsanitize=fuzzer); CMAKE_CXX_COMPILER is "
      "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}. Use the `sanitize` preset, or "
      "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++.")
  endif()
  if(NOT MMAEMU_SANITIZE)
    message(FATAL_ERROR "MMAEMU_FUZZ needs MMAEMU_SANITIZE (e.g. address,undefined): a fuzzer without "
                        "sanitizers finds only the crashes that would have crashed anyway")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
endif()
