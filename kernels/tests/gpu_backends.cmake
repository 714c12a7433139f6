# Backends tiled and tc against the reference on the GPU (labels T3, gpu; each test skips with the reason
# where no CUDA device exists). Built only with CUDA, since both backends exist only there.
if(MMAEMU_HAVE_CUDA)
  add_executable(kernels_gpu_backends_test ${CMAKE_CURRENT_LIST_DIR}/gpu_backends_test.cpp)
  target_link_libraries(kernels_gpu_backends_test PRIVATE mmaemu_kernels mmaemu_generators GTest::gtest_main)
  target_compile_definitions(kernels_gpu_backends_test PRIVATE MMAEMU_KERNELS_HAVE_CUDA=1)
  mmaemu_gtest(kernels_gpu_backends_test LABELS T3 gpu)
endif()
