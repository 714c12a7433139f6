# CTest's link-graph test: configures the source tree once more (CPU parts, no Python: the targets
# whose links matter) with --graphviz, then checks the graph for cycles (cmake/check_link_graph.py).
# -DSOURCE=... -DBINARY=<scratch dir> -DPYTHON=<python3>
# The check must be able to fail: a graph with a cycle (a -> b -> a) is refused first.
file(MAKE_DIRECTORY ${BINARY})
file(WRITE ${BINARY}/cycle.dot "digraph g {\n  \"node0\" [ label = \"mmaemu_a\" ];\n  \"node1\" [ label = \"mmaemu_b\" ];\n"
                               "  \"node0\" -> \"node1\"\n  \"node1\" -> \"node0\"\n}\n")
execute_process(COMMAND ${PYTHON} ${SOURCE}/cmake/check_link_graph.py ${BINARY}/cycle.dot RESULT_VARIABLE seen
                OUTPUT_QUIET)
if(NOT seen EQUAL 1)
  message(FATAL_ERROR "check_link_graph.py did not find the cycle of a -> b -> a (exit ${seen})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G "Unix Makefiles" -DMMAEMU_WITH_CUDA=OFF -DMMAEMU_PYTHON=OFF
          -DMMAEMU_FUZZ=OFF -DMMAEMU_MUTANT_PROGRAMS=OFF --graphviz=${BINARY}/links.dot
  RESULT_VARIABLE configured OUTPUT_QUIET ERROR_VARIABLE configure_errors)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring ${SOURCE} for its link graph failed:\n${configure_errors}")
endif()
execute_process(COMMAND ${PYTHON} ${SOURCE}/cmake/check_link_graph.py ${BINARY}/links.dot RESULT_VARIABLE clean)
if(NOT clean EQUAL 0)
  message(FATAL_ERROR "the link graph has a cycle (above)")
endif()
