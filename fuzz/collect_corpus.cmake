# Seeds the fuzz targets' corpora from the files this repository ships (nothing is committed twice):
#   cmake -DSOURCE_DIR=<repo> -DCORPUS_DIR=<build>/fuzz/corpus -P fuzz/collect_corpus.cmake
# Each target's folder gets the shipped files of its format that are small enough to fuzz quickly
# (large recordings and reports are cut down to their first entries, which keeps their structure).
# Run by the build (target fuzz-corpus) whenever the build runs; a seed that already exists is kept.

cmake_minimum_required(VERSION 3.25)
set(max_bytes 65536)

# seed(TARGET FILE): copies FILE into TARGET's corpus under a name that keeps its origin readable.
function(seed target file)
  file(RELATIVE_PATH rel "${SOURCE_DIR}" "${file}")
  string(REGEX REPLACE "[^A-Za-z0-9._-]" "_" name "${rel}")
  file(MAKE_DIRECTORY "${CORPUS_DIR}/${target}")
  if(NOT EXISTS "${CORPUS_DIR}/${target}/${name}")
    file(COPY_FILE "${file}" "${CORPUS_DIR}/${target}/${name}")
  endif()
endfunction()

# seed_text(TARGET NAME TEXT): a seed written from text (command lines, cut-down documents).
function(seed_text target name text)
  file(MAKE_DIRECTORY "${CORPUS_DIR}/${target}")
  if(NOT EXISTS "${CORPUS_DIR}/${target}/${name}")
    file(WRITE "${CORPUS_DIR}/${target}/${name}" "${text}")
  endif()
endfunction()

# seed_glob(TARGET [CONTAINS text] [MAX_FILES n] GLOBS...): every small file matching the globs (and
# holding `text`); with MAX_FILES, n of them spread evenly over the sorted list (the fixtures hold
# hundreds of arrays that differ in their data only, which a fuzzer gains nothing from).
function(seed_glob target)
  cmake_parse_arguments(ARG "" "CONTAINS;MAX_FILES" "GLOBS" ${ARGN})
  file(GLOB_RECURSE files LIST_DIRECTORIES false ${ARG_GLOBS})
  list(SORT files)
  list(LENGTH files count)
  if(ARG_MAX_FILES AND count GREATER ARG_MAX_FILES)
    math(EXPR step "${count} / ${ARG_MAX_FILES}")
    set(picked "")
    foreach(i RANGE 0 ${count} ${step})
      if(i LESS count)
        list(GET files ${i} f)
        list(APPEND picked "${f}")
      endif()
    endforeach()
    set(files "${picked}")
  endif()
  foreach(f IN LISTS files)
    if(f MATCHES "/build[^/]*/")
      continue()
    endif()
    file(SIZE "${f}" size)
    if(size GREATER max_bytes)
      continue()
    endif()
    if(ARG_CONTAINS)
      file(READ "${f}" text)
      string(FIND "${text}" "${ARG_CONTAINS}" at)
      if(at EQUAL -1)
        continue()
      endif()
    endif()
    seed(${target} "${f}")
  endforeach()
endfunction()

set(S "${SOURCE_DIR}")
seed_glob(npy MAX_FILES 40 GLOBS "${S}/fixtures/*.npy")
seed_glob(tier GLOBS "${S}/tiers/*.yaml" "${S}/tests/*.yaml" "${S}/reports/*T6-*.yaml")
seed_glob(fixture_manifest GLOBS "${S}/fixtures/manifest.yaml")
seed_glob(lt_plan GLOBS "${S}/fixtures/plan*.yaml")
seed_glob(catalogue GLOBS "${S}/mutants/catalogue.yaml")

# The catalogue is 55 KB of 106 entries of a few shapes: a fuzzer spends most of its time parsing
# entries that teach it nothing new. Catalogues of four entries each (the header comment kept) reach
# the same reader code at ten times the rate.
file(READ "${S}/mutants/catalogue.yaml" text)
set(entry_start "\n  - id:")
string(FIND "${text}" "${entry_start}" at)
if(NOT at EQUAL -1)
  math(EXPR header_end "${at} + 1")
  string(SUBSTRING "${text}" 0 ${header_end} header)
  string(SUBSTRING "${text}" ${header_end} -1 rest)
  set(part "")
  set(in_part 0)
  set(part_no 0)
  while(NOT rest STREQUAL "")
    # One entry: up to the next entry's start (the text after the first character, so that the
    # entry's own start is not found again).
    string(SUBSTRING "${rest}" 1 -1 after_first)
    string(FIND "${after_first}" "${entry_start}" next)
    if(next EQUAL -1)
      set(entry "${rest}")
      set(rest "")
    else()
      math(EXPR entry_end "${next} + 2")
      string(SUBSTRING "${rest}" 0 ${entry_end} entry)
      string(SUBSTRING "${rest}" ${entry_end} -1 rest)
    endif()
    string(APPEND part "${entry}")
    math(EXPR in_part "${in_part} + 1")
    if(in_part EQUAL 4 OR rest STREQUAL "")
      seed_text(catalogue "catalogue-part-${part_no}.yaml" "${header}${part}")
      math(EXPR part_no "${part_no} + 1")
      set(part "")
      set(in_part 0)
    endif()
  endwhile()
endif()
seed_glob(signoff_plan GLOBS "${S}/release/signoff-*.yaml" "${S}/tests/signoff/*plan*.yaml")
seed_glob(shipped_data GLOBS "${S}/release/shipped-data.yaml")
seed_glob(profile CONTAINS "mmaemu-profile:" GLOBS "${S}/reports/*profile.yaml")
seed_glob(device_code GLOBS "${S}/release/device-code.json")
seed_glob(bench_baseline CONTAINS "mmaemu-bench-t6/1" GLOBS "${S}/reports/*.json" "${S}/bench/*.json")
seed_glob(run_report CONTAINS "mmaemu-report/1" GLOBS "${S}/reports/*.json")
seed_glob(kill_matrix CONTAINS "\"mutants\"" GLOBS "${S}/mutants/baseline-*.json" "${S}/reports/*T4-*.json")
seed_glob(algo_config CONTAINS "algo_id" GLOBS "${S}/reports/*algo*.json")

# cuBLASLt recordings are megabytes: each is cut down to its first calls (the rest of its keys as
# they are), which keeps every kind of entry the reader meets.
file(GLOB_RECURSE recordings "${S}/fixtures/recording.json")
foreach(rec IN LISTS recordings)
  file(READ "${rec}" text)
  string(JSON ncalls LENGTH "${text}" calls)
  set(cut "${text}")
  string(JSON cut SET "${cut}" calls "[]")
  set(last 2)
  if(ncalls LESS 3)
    math(EXPR last "${ncalls} - 1")
  endif()
  # A recording without calls (a heuristic sweep keeps its answers in heuristic.csv) is a seed as it is.
  set(indices "")
  if(ncalls GREATER 0)
    foreach(i RANGE 0 ${last})
      list(APPEND indices ${i})
    endforeach()
  endif()
  foreach(i IN LISTS indices)
    string(JSON call GET "${text}" calls ${i})
    string(JSON cut SET "${cut}" calls ${i} "${call}")
    # Each run's configuration is also the --algo file format.
    string(JSON nruns LENGTH "${call}" runs)
    if(nruns GREATER 0)
      string(JSON config GET "${call}" runs 0 config)
      file(RELATIVE_PATH rel "${S}" "${rec}")
      string(REGEX REPLACE "[^A-Za-z0-9._-]" "_" name "${rel}")
      seed_text(algo_config "${name}-call${i}.json" "${config}\n")
    endif()
  endforeach()
  file(RELATIVE_PATH rel "${S}" "${rec}")
  string(REGEX REPLACE "[^A-Za-z0-9._-]" "_" name "${rel}")
  seed_text(lt_recording "${name}" "${cut}\n")
endforeach()

# The shipped resolver is megabytes of trees: a seed of its schema and feature list with one small
# tree per kind of node (a split, a configuration leaf, a refusal leaf).
if(NOT EXISTS "${CORPUS_DIR}/resolver/small-tree.json")
  file(READ "${S}/fixtures/cublaslt-h200/heuristic/resolver.json" resolver)
  string(JSON features GET "${resolver}" features)
  string(JSON config GET "${resolver}" models 0 classes 0)
  seed_text(resolver "small-tree.json" "{\"schema\":\"mmaemu-cublaslt-resolver/2\",\"features\":${features},\
\"workspaces\":[33554432,1048576],\"models\":[{\"a\":\"bf16\",\"b\":\"bf16\",\"compute\":\"32F\",\
\"classes\":[${config},{\"refused\":\"no algorithm\"}],\"feature\":[2,-1,-1],\"threshold\":[1000.5,-2.0,-2.0],\
\"left\":[1,-1,-1],\"right\":[2,-1,-1],\"leaf_class\":[-1,0,1],\"leaf_support\":[0,3,700],\
\"recorded\":[{\"key\":\"bf16|TN|33554432|0|64|64|64\",\"class\":1}],\"certainty\":{\"support_edges\":[1,500],\
\"aligned\":[0.5,0.995],\"unaligned\":[0.4,0.98],\"aligned_queries\":[10,20],\"unaligned_queries\":[11,21]}}]}\n")
endif()

# The call kinds' measurement beside the resolver, as shipped.
seed(call_kinds "${S}/fixtures/cublaslt-h200/heuristic/call-kinds.json")
# A capture cut to its header and first calls (each line a whole record).
file(STRINGS "${S}/fixtures/captures/torch-fresh-h100.jsonl" _capture_lines LIMIT_COUNT 6)
list(JOIN _capture_lines "\n" _capture_text)
seed_text(capture "torch-fresh-h100-head.jsonl" "${_capture_text}\n")

# The third-party archive is not in the repository (and is megabytes): a synthetic one of the same
# layout (harness/external/km_archive.hpp), as a plain tar (its text is what the fuzzer mutates
# best) and as .tar.xz (the shipped form, through libarchive's decompressor).
if(NOT EXISTS "${CORPUS_DIR}/km_archive/synthetic.tar")
  set(work "${CORPUS_DIR}/../km-seed")
  file(REMOVE_RECURSE "${work}")
  set(d "${work}/km/V100/fp16")
  file(MAKE_DIRECTORY "${d}")
  file(WRITE "${work}/km/LICENCE" "BSD 2-Clause\n")
  file(WRITE "${d}/a_V100_fp16.txt" "3f800000 3f800000 3f800000 3f800000 \n3f000000 3f000000 3f000000 3f000000 \n")
  file(WRITE "${d}/b_V100_fp16.txt" "3f800000 3f800000 3f800000 3f800000 \n40000000 40000000 40000000 40000000 \n")
  file(WRITE "${d}/c_V100_fp32.txt" "00111111100000000000000000000000\n00000000000000000000000000000000\n")
  file(WRITE "${d}/d_V100_fp32.txt" "01000000101000000000000000000000\n01000000100000000000000000000000\n")
  file(WRITE "${d}/d_V100_fp16.txt" "01000000101000000000000000000000\n01000000100000000000000000000000\n")
  file(MAKE_DIRECTORY "${CORPUS_DIR}/km_archive")
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar cf "${CORPUS_DIR}/km_archive/synthetic.tar" km WORKING_DIRECTORY "${work}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar cJf "${CORPUS_DIR}/km_archive/synthetic.tar.xz" km WORKING_DIRECTORY "${work}")
  file(REMOVE_RECURSE "${work}")
endif()

# Command lines (fuzz/targets/cli.cpp runs them in its scratch directory, whose files these name).
seed_text(cli info "info")
seed_text(cli info-arch "info --arch sm90 --verbose")
seed_text(cli mma "mma --arch sm90 --instr mma.m16n8k16.f32.bf16.bf16.f32 --a a.npy --b b.npy --c c.npy --out d.npy")
seed_text(cli mma-host "mma --arch sm80 --instr mma.m16n8k16.f32.bf16.bf16.f32 --a a.npy --b b.npy --c c.npy --out d.npy --backend host")
seed_text(cli mma-dir "mma --arch sm90 --instr mma.m16n8k16.f32.bf16.bf16.f32 --a dir --b b.npy --c c.npy --out d.npy")
seed_text(cli gemm "gemm --arch sm90 --instr mma.m16n8k16.f32.bf16.bf16.f32 --a a2.npy --b b2.npy --c c2.npy --out d.npy --trace t.npy --backend auto")
seed_text(cli gemm-library "gemm --library cublaslt-h200 --a-type bf16 --b-type bf16 --d-type fp32 --a a2.npy --b b2.npy --c c2.npy --out d.npy --algo algo.json --alpha 0.5 --beta 2")
seed_text(cli compare "compare report.json report.json --json diff.json")
seed_text(cli merge "merge dir dir --out merged")
seed_text(cli record "record --out set --seed 3 --tiles-per-family 2 --instr mma.m16n8k16.f32.bf16.bf16.f32 --device 0")
