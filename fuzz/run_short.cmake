# One short fuzzing pass for CTest: FUZZER over a fresh copy of its seed corpus CORPUS for SECONDS,
# with DICT and inputs of up to MAX_LEN bytes, in WORK (crash inputs land there, named in the log). Fails on any crash, leak, timeout
# or sanitizer report: libFuzzer's exit status is not 0 then.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
file(GLOB seeds "${CORPUS}/*")
if(seeds)
  file(COPY ${seeds} DESTINATION "${WORK}/corpus")
endif()
set(args -max_total_time=${SECONDS} -timeout=25 -rss_limit_mb=4096 -max_len=${MAX_LEN}
         -artifact_prefix=${WORK}/artifacts/ -print_final_stats=1)
if(EXISTS "${DICT}")
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND "${FUZZER}" ${args} "${WORK}/corpus" RESULT_VARIABLE status WORKING_DIRECTORY "${WORK}")
if(NOT status EQUAL 0)
  file(GLOB found "${WORK}/artifacts/*")
  message(FATAL_ERROR "${FUZZER} failed (exit ${status}); inputs kept: ${found}")
endif()
