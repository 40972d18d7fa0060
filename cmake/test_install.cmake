# ctest fixture (cmake/package.cmake): `cmake --install BUILD_DIR --prefix PREFIX` into an empty
# PREFIX, as a user would, and a check that the package files are where the README says.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
foreach(f lib/cmake/rodcollide/rodcollideConfig.cmake lib/cmake/rodcollide/rodcollideConfigVersion.cmake
          include/rodcollide/solve.hpp bin/rodcollide)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "install: ${PREFIX}/${f} is missing")
  endif()
endforeach()
file(GLOB_RECURSE private_headers ${PREFIX}/include/rodcollide/*toml_input*)
if(private_headers)
  message(FATAL_ERROR "install: private headers were installed: ${private_headers}")
endif()
message(STATUS "installed into ${PREFIX}")
