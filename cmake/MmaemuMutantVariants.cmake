# T4's compile-time mutant variants of a program (the catalogue's `tier: gpu` entries).
#
# In device code MMAEMU_MUTANT(id) is a constant (mutants/switch.hpp), so a GPU mutant exists only in a
# program whose CUDA sources were compiled with -DMMAEMU_MUTANT_FIXED=id. For every gpu entry of
# mutants/catalogue.yaml, mmaemu_add_mutant_variants(mmaemu) makes the target mmaemu-mutant-<id>: the
# program's own objects (compiled once, shared by every variant) linked with those CUDA sources of
# mmaemu_kernels that include the entry's target file, recompiled with the define. The objects placed
# before the libraries take precedence: the linker then leaves the libraries' unmutated copies out.
# Every variant is EXCLUDE_FROM_ALL: neither the normal build nor CI builds them; `mmaemu mutate
# tiers/T4-gpu.yaml` builds those it needs (its `variants:` section).

set(MMAEMU_MUTANT_GENCODE "${MMAEMU_CUDA_GENCODE}" CACHE STRING
    "nvcc -gencode flags of the compile-time mutant variants (default: MMAEMU_CUDA_GENCODE)")

# The gpu entries of the catalogue: ids in `ids_var`, and for each id its target file (the part of
# `target: file:function` before the colon) in `<prefix>_<id>_FILE`.
function(mmaemu_read_gpu_mutants catalogue ids_var prefix)
  file(STRINGS "${catalogue}" lines)
  set(ids "")
  set(id "")
  set(target "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^  - id: *([0-9]+)")
      set(id "${CMAKE_MATCH_1}")
      set(target "")
    elseif(line MATCHES "^    target: *\"?([^:\"]+)")
      set(target "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^    tier: *gpu" AND NOT id STREQUAL "")
      list(APPEND ids "${id}")
      set(${prefix}_${id}_FILE "${target}" PARENT_SCOPE)
    endif()
  endforeach()
  # This reader knows the catalogue's block style only: a gpu entry written otherwise must not vanish.
  list(FILTER lines INCLUDE REGEX "tier: *gpu")
  list(LENGTH lines gpu_lines)
  list(LENGTH ids found)
  if(NOT gpu_lines EQUAL found)
    message(FATAL_ERROR "${catalogue}: ${gpu_lines} entries say 'tier: gpu' but ${found} were read; write them in "
                        "block style ('  - id: N' then '    key: value' lines), as the others")
  endif()
  set(${ids_var} "${ids}" PARENT_SCOPE)
endfunction()

# Every file a source includes with #include "...", transitively, as absolute paths (resolved against
# the including file's folder, then the source root).
function(mmaemu_include_closure source out_var)
  set(seen "${source}")
  set(todo "${source}")
  while(todo)
    list(POP_FRONT todo file)
    file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    get_filename_component(dir "${file}" DIRECTORY)
    foreach(inc IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" name "${inc}")
      foreach(candidate "${dir}/${name}" "${CMAKE_SOURCE_DIR}/${name}")
        if(EXISTS "${candidate}")
          get_filename_component(candidate "${candidate}" REALPATH)
          if(NOT candidate IN_LIST seen)
            list(APPEND seen "${candidate}")
            list(APPEND todo "${candidate}")
          endif()
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out_var} "${seen}" PARENT_SCOPE)
endfunction()

# Called in the program's folder, after the program is fully defined (cmake_language(DEFER)), so that
# its sources, their properties and its link libraries are all known.
function(mmaemu_add_mutant_variants program)
  if(NOT MMAEMU_HAVE_CUDA)
    return()
  endif()
  set(catalogue "${CMAKE_SOURCE_DIR}/mutants/catalogue.yaml")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${catalogue}")
  mmaemu_read_gpu_mutants("${catalogue}" ids mutant)

  # The CUDA sources of the kernels, each with what it includes.
  get_target_property(kernel_dir mmaemu_kernels SOURCE_DIR)
  get_target_property(kernel_sources mmaemu_kernels SOURCES)
  set(cuda_sources "")
  foreach(src IN LISTS kernel_sources)
    if(src MATCHES "\\.cu$")
      get_filename_component(abs "${src}" REALPATH BASE_DIR "${kernel_dir}")
      list(APPEND cuda_sources "${abs}")
      mmaemu_include_closure("${abs}" closure)
      set(closure_${abs} "${closure}")
    endif()
  endforeach()

  # The program's own objects, once for every variant.
  get_target_property(program_sources ${program} SOURCES)
  get_target_property(program_defs ${program} COMPILE_DEFINITIONS)
  get_target_property(program_libs ${program} LINK_LIBRARIES)
  add_library(${program}_mutant_objects OBJECT EXCLUDE_FROM_ALL ${program_sources})
  target_link_libraries(${program}_mutant_objects PRIVATE ${program_libs})
  if(program_defs)
    target_compile_definitions(${program}_mutant_objects PRIVATE ${program_defs})
  endif()

  get_target_property(kernel_defs mmaemu_kernels COMPILE_DEFINITIONS)
  get_target_property(kernel_libs mmaemu_kernels LINK_LIBRARIES)
  set(variants "")
  foreach(id IN LISTS ids)
    get_filename_component(target_file "${CMAKE_SOURCE_DIR}/${mutant_${id}_FILE}" REALPATH)
    set(mutated "")
    foreach(src IN LISTS cuda_sources)
      if(target_file IN_LIST closure_${src})
        list(APPEND mutated "${src}")
      endif()
    endforeach()
    file(STRINGS "${target_file}" switch REGEX "MMAEMU_MUTANT\\(${id}\\)")
    if(NOT switch)
      message(FATAL_ERROR "${catalogue}: gpu mutant ${id}: '${mutant_${id}_FILE}' has no MMAEMU_MUTANT(${id}) switch")
    endif()
    if(NOT mutated)
      message(FATAL_ERROR "${catalogue}: gpu mutant ${id} targets '${mutant_${id}_FILE}', which no CUDA source "
                          "of mmaemu_kernels includes: its compile-time variant would not differ from ${program}")
    endif()
    set(objects ${program}_mutant_${id}_cuda)
    add_library(${objects} OBJECT EXCLUDE_FROM_ALL ${mutated})
    target_compile_definitions(${objects} PRIVATE ${kernel_defs} MMAEMU_MUTANT_FIXED=${id})
    target_link_libraries(${objects} PRIVATE ${kernel_libs})
    target_include_directories(${objects} PRIVATE ${kernel_dir}/..)
    target_compile_options(${objects} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${MMAEMU_MUTANT_GENCODE}>")
    set_property(TARGET ${objects} PROPERTY CUDA_STANDARD 17)

    set(variant ${program}-mutant-${id})
    add_executable(${variant} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${objects}> $<TARGET_OBJECTS:${program}_mutant_objects>)
    target_link_libraries(${variant} PRIVATE ${program_libs})
    set_target_properties(${variant} PROPERTIES LINKER_LANGUAGE CXX)
    list(APPEND variants ${variant})
  endforeach()
  # Every variant at once (`cmake --build B --target mmaemu-mutants`), to build them ahead of a campaign.
  add_custom_target(${program}-mutants DEPENDS ${variants})
endfunction()
