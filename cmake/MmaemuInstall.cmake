# `cmake --install`: the program, the reference library and its headers, and a CMake package and a
# pkg-config file for programs outside this repository:
#   find_package(mmaemu 0.1 REQUIRED)  ->  mmaemu::reference   (#include <mmaemu/reference/model.hpp>)
#   pkg-config --cflags --libs mmaemu
# Relocatable: every installed path is relative to the prefix (the CMake files find it from their own
# location, the .pc file from ${pcfiledir}), so a tree installed to one prefix and moved still builds
# (tests/install_consumer_test.sh). Components: runtime (bin/), devel (lib/, include/); the Python
# package is component python, left out of a plain install (pip installs it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(mmaemu_reference PROPERTIES EXPORT_NAME reference)
install(TARGETS mmaemu_reference EXPORT mmaemuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel)
install(DIRECTORY reference/include/mmaemu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
        FILES_MATCHING PATTERN "*.hpp")
install(TARGETS mmaemu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

set(_package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/mmaemu)
install(EXPORT mmaemuTargets NAMESPACE mmaemu:: DESTINATION ${_package_dir} COMPONENT devel)
configure_package_config_file(cmake/mmaemuConfig.cmake.in ${CMAKE_BINARY_DIR}/package/mmaemuConfig.cmake
                              INSTALL_DESTINATION ${_package_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/mmaemuConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/mmaemuConfig.cmake ${CMAKE_BINARY_DIR}/package/mmaemuConfigVersion.cmake
        DESTINATION ${_package_dir} COMPONENT devel)

configure_file(cmake/mmaemu.pc.in ${CMAKE_BINARY_DIR}/package/mmaemu.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/mmaemu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
