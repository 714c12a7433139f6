# T4's mutant programs, compiled from the overlay that mutants/CMakeLists.txt weaves.
#
# mmaemu_add_mutant_twin(target): `<target>-mutant`, the same program with every cpu mutant of the
#   catalogue behind its run-time switch (MMAEMU_MUTANT=id). Only the translation units the overlay
#   touches are compiled again: those the catalogue patches and those that include, directly or not,
#   a patched header. Their objects come first on the link line, so the linker leaves the libraries'
#   pristine copies out. The shipped programs link no mutant at all.
# mmaemu_add_mutant_variants(program): `<program>-mutant-<id>` for every gpu mutant: in device code
#   the switch is a compile-time constant, so each gpu mutant is a program of its own (the affected
#   CUDA sources compiled with -DMMAEMU_MUTANT_FIXED=id). EXCLUDE_FROM_ALL: `mmaemu mutate
#   tiers/T4-gpu.yaml` builds those it needs (its `variants:` section).
#
# Both are called at the end of the top-level CMakeLists.txt, when every target is defined.

set(MMAEMU_MUTANT_GENCODE "${MMAEMU_CUDA_GENCODE}" CACHE STRING
    "nvcc -gencode flags of the compile-time mutant variants (default: MMAEMU_CUDA_GENCODE)")

# The project files `file` includes with #include "...", directly (memoised: every source is scanned
# once per configuration). Rooted includes resolve against the source root, the reference's public
# headers against reference/include.
function(_mmaemu_direct_includes file out_var)
  get_property(known GLOBAL PROPERTY "_mmaemu_includes_${file}" SET)
  if(known)
    get_property(result GLOBAL PROPERTY "_mmaemu_includes_${file}")
    set(${out_var} "${result}" PARENT_SCOPE)
    return()
  endif()
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  set(result "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" name "${line}")
    foreach(candidate "${CMAKE_SOURCE_DIR}/${name}" "${CMAKE_SOURCE_DIR}/reference/include/${name}")
      if(EXISTS "${candidate}")
        list(APPEND result "${candidate}")
        break()
      endif()
    endforeach()
  endforeach()
  set_property(GLOBAL PROPERTY "_mmaemu_includes_${file}" "${result}")
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# TRUE in `out_var` when `source` is, or includes directly or not, one of the `patched` files.
function(_mmaemu_touched source patched out_var)
  set(seen "${source}")
  set(todo "${source}")
  while(todo)
    list(POP_FRONT todo file)
    if(file IN_LIST patched)
      set(${out_var} TRUE PARENT_SCOPE)
      return()
    endif()
    _mmaemu_direct_includes("${file}" includes)
    foreach(inc IN LISTS includes)
      if(NOT inc IN_LIST seen)
        list(APPEND seen "${inc}")
        list(APPEND todo "${inc}")
      endif()
    endforeach()
  endwhile()
  set(${out_var} FALSE PARENT_SCOPE)
endfunction()

# Splits `sources` into those that are, or include directly or not, one of the `patched` files
# (`touched_var`) and the others (`untouched_var`).
function(_mmaemu_split_touched sources patched touched_var untouched_var)
  set(touched "")
  set(untouched "")
  foreach(src IN LISTS sources)
    _mmaemu_touched("${src}" "${patched}" is_touched)
    if(is_touched)
      list(APPEND touched "${src}")
    else()
      list(APPEND untouched "${src}")
    endif()
  endforeach()
  set(${touched_var} "${touched}" PARENT_SCOPE)
  set(${untouched_var} "${untouched}" PARENT_SCOPE)
endfunction()

# The project's own libraries `target` links, directly or through others.
function(_mmaemu_link_closure target out_var)
  set(seen "")
  set(todo "${target}")
  while(todo)
    list(POP_FRONT todo t)
    get_target_property(libs ${t} LINK_LIBRARIES)
    if(NOT libs)
      continue()
    endif()
    foreach(lib IN LISTS libs)
      if(TARGET ${lib} AND NOT lib IN_LIST seen)
        get_target_property(imported ${lib} IMPORTED)
        get_target_property(type ${lib} TYPE)
        if(NOT imported AND type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$" AND NOT lib STREQUAL "mmaemu_mutant_switch")
          list(APPEND seen ${lib})
          list(APPEND todo ${lib})
        endif()
      endif()
    endforeach()
  endwhile()
  set(${out_var} "${seen}" PARENT_SCOPE)
endfunction()

# The absolute paths of `target`'s sources whose language matches `languages_regex` (a file suffix).
function(_mmaemu_sources target suffix_regex out_var)
  get_target_property(dir ${target} SOURCE_DIR)
  get_target_property(sources ${target} SOURCES)
  set(result "")
  foreach(src IN LISTS sources)
    if(src MATCHES "${suffix_regex}" AND NOT src MATCHES "^\\$<")
      get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${dir}")
      list(APPEND result "${abs}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# An object library `name` compiling `sources` (absolute paths of `like`'s sources) as `like` does.
# With PRISTINE as they are; otherwise through the overlay: a patched source is replaced by its woven
# copy, and the overlay comes first on the include path, so that a patched header is found there.
# Other extra arguments: definitions.
function(_mmaemu_object_library name like sources)
  cmake_parse_arguments(PARSE_ARGV 3 arg "PRISTINE" "" "")
  set(definitions ${arg_UNPARSED_ARGUMENTS})
  get_target_property(dir ${like} SOURCE_DIR)
  set(compiled "")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${src}")
    if(rel IN_LIST MMAEMU_OVERLAY_FILES AND NOT arg_PRISTINE)
      set(path "${MMAEMU_OVERLAY_DIR}/${rel}")
    else()
      set(path "${src}")
    endif()
    # Per-source settings (say -ffp-contract=off) follow the file into its woven copy.
    foreach(property COMPILE_OPTIONS COMPILE_DEFINITIONS)
      get_source_file_property(value "${src}" DIRECTORY "${dir}" ${property})
      if(value)
        set_source_files_properties("${path}" PROPERTIES ${property} "${value}")
      endif()
    endforeach()
    if(NOT arg_PRISTINE)  # recompiled when the overlay's file list changes (mutants/CMakeLists.txt)
      get_source_file_property(depends "${path}" OBJECT_DEPENDS)
      if(NOT depends OR NOT MMAEMU_OVERLAY_FILES_MARKER IN_LIST depends)
        set_property(SOURCE "${path}" APPEND PROPERTY OBJECT_DEPENDS "${MMAEMU_OVERLAY_FILES_MARKER}")
      endif()
    endif()
    list(APPEND compiled "${path}")
  endforeach()
  add_library(${name} OBJECT EXCLUDE_FROM_ALL ${compiled})
  if(NOT arg_PRISTINE)
    add_dependencies(${name} mmaemu_overlay)
  endif()
  get_target_property(libs ${like} LINK_LIBRARIES)
  if(libs)
    target_link_libraries(${name} PRIVATE ${libs})
  endif()
  if(NOT arg_PRISTINE)
    target_include_directories(${name} BEFORE PRIVATE ${MMAEMU_OVERLAY_DIR})
  endif()
  target_include_directories(${name} PRIVATE $<TARGET_PROPERTY:${like},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${name} PRIVATE $<TARGET_PROPERTY:${like},COMPILE_DEFINITIONS> ${definitions})
  target_compile_options(${name} PRIVATE $<TARGET_PROPERTY:${like},COMPILE_OPTIONS>)
  foreach(property CXX_STANDARD CUDA_STANDARD CUDA_ARCHITECTURES POSITION_INDEPENDENT_CODE)
    get_target_property(value ${like} ${property})
    if(value)
      set_property(TARGET ${name} PROPERTY ${property} "${value}")
    endif()
  endforeach()
endfunction()

function(_mmaemu_patched_paths out_var)
  set(result "")
  foreach(file IN LISTS MMAEMU_OVERLAY_FILES)
    list(APPEND result "${CMAKE_SOURCE_DIR}/${file}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# Splits `target`'s own sources into those the overlay touches (`touched_var`, absolute paths) and
# the others, which move into an object library `<target>_own` that the program links instead of
# compiling them itself; `shared_var` is its $<TARGET_OBJECTS:...>, for the mutant programs to link
# too. Done once per program (the twin and the gpu variants both ask).
function(_mmaemu_share_own target touched_var shared_var)
  get_target_property(split ${target} _MMAEMU_OWN_SPLIT)
  if(NOT split)
    include(${MMAEMU_OVERLAY_LISTING})
    _mmaemu_patched_paths(patched)
    _mmaemu_sources(${target} "\\.(cpp|cu)$" own)
    _mmaemu_split_touched("${own}" "${patched}" touched untouched)
    set(shared "")
    if(untouched)
      _mmaemu_object_library(${target}_own ${target} "${untouched}" PRISTINE)
      set(shared "$<TARGET_OBJECTS:${target}_own>")
      set_property(TARGET ${target} PROPERTY SOURCES ${touched} ${shared})
      set_property(TARGET ${target} PROPERTY LINKER_LANGUAGE CXX)  # it may compile nothing itself
    endif()
    set_target_properties(${target} PROPERTIES _MMAEMU_OWN_SPLIT TRUE _MMAEMU_OWN_TOUCHED "${touched}"
                                               _MMAEMU_OWN_SHARED "${shared}")
  endif()
  get_target_property(touched ${target} _MMAEMU_OWN_TOUCHED)
  get_target_property(shared ${target} _MMAEMU_OWN_SHARED)
  set(${touched_var} "${touched}" PARENT_SCOPE)
  set(${shared_var} "${shared}" PARENT_SCOPE)
endfunction()

function(mmaemu_add_mutant_twin target)
  include(${MMAEMU_OVERLAY_LISTING})
  _mmaemu_patched_paths(patched)
  set(objects "")
  # The libraries' touched sources, compiled once for every twin that links them.
  _mmaemu_link_closure(${target} libs)
  foreach(lib IN LISTS libs)
    if(NOT TARGET ${lib}_mutant)
      # C++ sources only: a cpu mutant acts in host code, and the CUDA sources' device code cannot
      # follow a run-time switch (the gpu mutants are the variants below). The pristine CUDA objects
      # come from the library; the twin's mutated objects, first on the link line, give the host
      # code's shared inline functions. Compiling the CUDA sources again for every gencode target
      # would double the build's longest part for nothing the cpu campaign runs.
      _mmaemu_sources(${lib} "\\.cpp$" sources)
      _mmaemu_split_touched("${sources}" "${patched}" touched untouched)
      if(NOT touched)
        continue()
      endif()
      _mmaemu_object_library(${lib}_mutant ${lib} "${touched}")
    endif()
    list(APPEND objects $<TARGET_OBJECTS:${lib}_mutant>)
  endforeach()
  # The program's own sources: those the overlay touches compiled again, the others compiled once,
  # for the program and its mutant programs alike (_mmaemu_share_own).
  _mmaemu_share_own(${target} own_touched own_shared)
  if(own_touched)
    _mmaemu_object_library(${target}_mutant_own ${target} "${own_touched}")
    list(APPEND objects $<TARGET_OBJECTS:${target}_mutant_own>)
  endif()
  set(twin ${target}-mutant)
  # The mutated objects first: the linker takes the shared inline functions from them.
  add_executable(${twin} ${objects} ${own_shared} $<TARGET_OBJECTS:mmaemu_mutant_switch>)
  get_target_property(target_libs ${target} LINK_LIBRARIES)
  target_link_libraries(${twin} PRIVATE ${target_libs})
  get_target_property(out_dir ${target} BINARY_DIR)
  set_target_properties(${twin} PROPERTIES LINKER_LANGUAGE CXX RUNTIME_OUTPUT_DIRECTORY "${out_dir}")
endfunction()

function(mmaemu_add_mutant_variants program)
  if(NOT MMAEMU_HAVE_CUDA)
    return()
  endif()
  include(${MMAEMU_OVERLAY_LISTING})
  _mmaemu_sources(mmaemu_kernels "\\.cu$" cuda_sources)
  # The program's own objects: those the overlay touches once for every variant, the others shared
  # with the program.
  _mmaemu_share_own(${program} own_touched own_shared)
  set(own_mutated "")
  if(own_touched)
    _mmaemu_object_library(${program}_variant_own ${program} "${own_touched}")
    set(own_mutated $<TARGET_OBJECTS:${program}_variant_own>)
  endif()
  get_target_property(program_libs ${program} LINK_LIBRARIES)
  get_target_property(out_dir ${program} BINARY_DIR)
  set(variants "")
  foreach(id IN LISTS MMAEMU_OVERLAY_GPU_MUTANTS)
    set(mutated "")
    list(TRANSFORM MMAEMU_OVERLAY_MUTANT_${id}_FILES PREPEND "${CMAKE_SOURCE_DIR}/" OUTPUT_VARIABLE patched_files)
    foreach(src IN LISTS cuda_sources)
      _mmaemu_touched("${src}" "${patched_files}" is_touched)
      if(is_touched)
        list(APPEND mutated "${src}")
      endif()
    endforeach()
    if(NOT mutated)
      message(FATAL_ERROR "${MMAEMU_CATALOGUE}: gpu mutant ${id} patches '${MMAEMU_OVERLAY_MUTANT_${id}_FILES}', which no "
                          "CUDA source of mmaemu_kernels includes: its variant would not differ from ${program}")
    endif()
    _mmaemu_object_library(${program}_mutant_${id}_cuda mmaemu_kernels "${mutated}" MMAEMU_MUTANT_FIXED=${id})
    target_compile_options(${program}_mutant_${id}_cuda PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${MMAEMU_MUTANT_GENCODE}>")
    # The variant's switch object says in every report which mutant this program carries.
    add_library(${program}_mutant_${id}_switch OBJECT EXCLUDE_FROM_ALL ${CMAKE_SOURCE_DIR}/mutants/switch.cpp)
    target_compile_definitions(${program}_mutant_${id}_switch PRIVATE MMAEMU_MUTANT_FIXED=${id})
    set(variant ${program}-mutant-${id})
    add_executable(${variant} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${program}_mutant_${id}_cuda>
                   ${own_mutated} ${own_shared} $<TARGET_OBJECTS:${program}_mutant_${id}_switch>)
    target_link_libraries(${variant} PRIVATE ${program_libs})
    set_target_properties(${variant} PROPERTIES LINKER_LANGUAGE CXX RUNTIME_OUTPUT_DIRECTORY "${out_dir}")
    list(APPEND variants ${variant})
  endforeach()
  # Every variant at once (`cmake --build B --target mmaemu-mutants`), to build them ahead of a campaign.
  add_custom_target(${program}-mutants DEPENDS ${variants})
endfunction()
