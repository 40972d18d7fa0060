# ctest fixture (cmake/package.cmake): `cmake --install BUILD_DIR --prefix PREFIX` into an empty
# PREFIX, as a user would, and a check that the package files are where the README says.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
foreach(f lib/cmake/rodcollide/rodcollideConfig.cmake lib/cmake/rodcollide/rodcollideConfigVersion.cmake
          include/rodcollide/rodcollide.hpp include/rodcollide/solve.hpp bin/rodcollide)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "install: ${PREFIX}/${f} is missing")
  endif()
endforeach()
# The front door only: the private headers of src/<stage>/ stay in the source tree.
file(GLOB_RECURSE private_headers ${PREFIX}/include/rodcollide/*toml_input* ${PREFIX}/include/rodcollide/*wave_field*
     ${PREFIX}/include/rodcollide/*finite_difference* ${PREFIX}/include/rodcollide/*characteristics*
     ${PREFIX}/include/rodcollide/*junction*)
file(GLOB private_dirs ${PREFIX}/include/solvers ${PREFIX}/include/base ${PREFIX}/include/model)
if(private_headers OR private_dirs)
  message(FATAL_ERROR "install: private headers were installed: ${private_headers} ${private_dirs}")
endif()
message(STATUS "installed into ${PREFIX}")
