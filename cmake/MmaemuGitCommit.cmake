# mmaemu_git_commit(<var> [PATHS path...]): the commit the source tree is at when CMake configures,
# with "-dirty" (as git describe --dirty) when tracked files under PATHS (default: the whole tree)
# differ from it, or "unknown" outside a git checkout. Recordings and reports carry it.
function(mmaemu_git_commit var)
  cmake_parse_arguments(ARG "" "" "PATHS" ${ARGN})
  execute_process(COMMAND git rev-parse HEAD
                  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0 OR commit STREQUAL "")
    set(${var} "unknown" PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND git status --porcelain --untracked-files=no -- ${ARG_PATHS}
                  WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                  OUTPUT_VARIABLE changes ERROR_QUIET)
  if(NOT changes STREQUAL "")
    string(APPEND commit "-dirty")
  endif()
  set(${var} "${commit}" PARENT_SCOPE)
endfunction()
