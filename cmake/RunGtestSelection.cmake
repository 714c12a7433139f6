# Runs a named selection of one GoogleTest executable's tests as a single CTest test (cmake -P).
#   -DBINARY=path  -DSELECTION="Suite.Test:Suite.*"  (--gtest_filter patterns, ":"-separated)
# Unlike a bare --gtest_filter, it fails when any pattern matches no test (a renamed test would
# otherwise leave "0 tests ran", exit 0, a pass), and prints GoogleTest's own "[  SKIPPED ]" lines
# so that the CTest property SKIP_REGULAR_EXPRESSION shows a skipped test as a skip.
if(NOT BINARY OR NOT SELECTION)
  message(FATAL_ERROR "RunGtestSelection.cmake needs -DBINARY and -DSELECTION")
endif()
string(REPLACE ":" ";" patterns "${SELECTION}")
foreach(pattern IN LISTS patterns)
  execute_process(COMMAND "${BINARY}" --gtest_list_tests "--gtest_filter=${pattern}"
                  OUTPUT_VARIABLE listed RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${BINARY} --gtest_list_tests failed (${status})")
  endif()
  # Test names are the indented lines of the listing; suite names end with a dot.
  string(REGEX MATCH "\n  [A-Za-z_]" any_test "\n${listed}")
  if(NOT any_test)
    message(FATAL_ERROR "the pattern '${pattern}' matches no test of ${BINARY}")
  endif()
endforeach()
execute_process(COMMAND "${BINARY}" "--gtest_filter=${SELECTION}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${BINARY} --gtest_filter=${SELECTION}: exit ${status}")
endif()
