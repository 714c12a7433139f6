# mmaemu_gtest(TARGET LABELS l1 l2 ...): registers a GoogleTest executable's tests with CTest, with
# labels. gtest_discover_tests(PROPERTIES LABELS "a;b") loses the ";" on its way to the discovery
# script (CMake 3.25), so the labels are set by a CTest include file read after discovery.
include(GoogleTest)
function(mmaemu_gtest target)
  cmake_parse_arguments(ARG "" "" "LABELS" ${ARGN})
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60)
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${labels_file}"
       "set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()
