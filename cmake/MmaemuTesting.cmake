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

# mmaemu_gtest_selection(NAME name TARGET target TESTS pattern... LABELS l1 l2 ...): one CTest test
# that runs the named tests of a GoogleTest executable (a tier's alias of tests discovered one by one
# above). It fails when a pattern matches no test, and shows as skipped when a selected test skips.
function(mmaemu_gtest_selection)
  cmake_parse_arguments(ARG "" "NAME;TARGET" "TESTS;LABELS" ${ARGN})
  string(REPLACE ";" ":" selection "${ARG_TESTS}")  # GoogleTest's own separator: one argument
  add_test(NAME ${ARG_NAME}
           COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${ARG_TARGET}> "-DSELECTION=${selection}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/RunGtestSelection.cmake)
  set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}" SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endfunction()

# mmaemu_add_tests(): a folder's tests/ subfolder, left out when only the Python module is built
# (MMAEMU_PYTHON_ONLY: `pip install .` needs no test framework).
macro(mmaemu_add_tests)
  if(NOT MMAEMU_PYTHON_ONLY)
    add_subdirectory(tests)
  endif()
endmacro()
