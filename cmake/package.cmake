# Installation and CMake package of the library (docs/python.md). `cmake --install build --prefix
# DIR` installs the library, the public headers, the CLI and DIR/lib/cmake/rodcollide/ (config,
# version, exported targets), so that a downstream project can `find_package(rodcollide)` and link
# rodcollide::rodcollide. The ctest tests below install into a temporary prefix and build a
# downstream project against it (tests/downstream/).
include(CMakePackageConfigHelpers)

# The static library is also linked into the Python extension (a shared object), hence PIC.
set_target_properties(rodcollide_lib PROPERTIES
  EXPORT_NAME rodcollide
  OUTPUT_NAME rodcollide
  POSITION_INDEPENDENT_CODE ON)

set(RODCOLLIDE_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rodcollide)
install(TARGETS rodcollide_lib EXPORT rodcollideTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS rodcollide RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The front door only (include/rodcollide/, rodcollide.hpp and what it includes): src/<stage>/
# holds the private headers, which no installed header includes (ctest layering).
install(DIRECTORY include/rodcollide DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(EXPORT rodcollideTargets NAMESPACE rodcollide:: DESTINATION ${RODCOLLIDE_CMAKE_INSTALL_DIR})
configure_package_config_file(cmake/rodcollideConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/rodcollideConfig.cmake
  INSTALL_DESTINATION ${RODCOLLIDE_CMAKE_INSTALL_DIR})
# 0.x: a new minor version may change the C++ API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/rodcollideConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/rodcollideConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/rodcollideConfigVersion.cmake
        DESTINATION ${RODCOLLIDE_CMAKE_INSTALL_DIR})

# Tests: install everything into a fresh prefix (fixture), then build and run a downstream
# project against it. The Python module's installed copy is checked in python/CMakeLists.txt.
set(RODCOLLIDE_TEST_PREFIX ${CMAKE_BINARY_DIR}/package-test/prefix)
add_test(NAME package_install
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
          -DPREFIX=${RODCOLLIDE_TEST_PREFIX} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/test_install.cmake)
set_tests_properties(package_install PROPERTIES FIXTURES_SETUP rodcollide_package)
add_test(NAME package_downstream_cpp
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -DPREFIX=${RODCOLLIDE_TEST_PREFIX}
          -DWORK_DIR=${CMAKE_BINARY_DIR}/package-test/downstream -DCXX=${CMAKE_CXX_COMPILER}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/test_downstream.cmake)
set_tests_properties(package_downstream_cpp PROPERTIES FIXTURES_REQUIRED rodcollide_package)
