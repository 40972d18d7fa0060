# ctest fixture (cmake/package.cmake): `cmake --install BUILD_DIR --prefix PREFIX` into an empty
# PREFIX, as a user would, and a check that the package files are where docs/development.md ("The C++ package") says.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
foreach(f lib/cmake/rodcollide/rodcollideConfig.cmake lib/cmake/rodcollide/rodcollideConfigVersion.cmake
          include/rodcollide/rodcollide.hpp include/rodcollide/solve.hpp bin/rodcollide)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "install: ${PREFIX}/${f} is missing")
  endif()
endforeach()
# The front door only: include/ holds rodcollide/ and nothing else, and no header of src/<stage>/
# (private) is installed, in any folder.
file(GLOB include_children RELATIVE ${PREFIX}/include ${PREFIX}/include/*)
if(NOT include_children STREQUAL "rodcollide")
  message(FATAL_ERROR "install: ${PREFIX}/include holds ${include_children}; only rodcollide/ belongs there")
endif()
file(GLOB_RECURSE private_headers RELATIVE ${SOURCE_DIR}/src ${SOURCE_DIR}/src/*.hpp)
file(GLOB_RECURSE installed_headers RELATIVE ${PREFIX}/include/rodcollide ${PREFIX}/include/rodcollide/*)
foreach(h ${private_headers})
  get_filename_component(name ${h} NAME)
  foreach(i ${installed_headers})
    get_filename_component(installed_name ${i} NAME)
    if(name STREQUAL installed_name)
      message(FATAL_ERROR "install: private header src/${h} was installed as include/rodcollide/${i}")
    endif()
  endforeach()
endforeach()
# No installed header needs one that is not installed: each #include "..." or <rodcollide/...> in
# them names a file under PREFIX/include. In the build tree src/ is on the library's include path,
# so a public header including "input/toml_input.hpp" compiles there and fails only for a consumer
# (tests/downstream then fails too, but only for the headers it happens to include).
foreach(i ${installed_headers})
  file(STRINGS ${PREFIX}/include/rodcollide/${i} include_lines REGEX "^[ \t]*#[ \t]*include[ \t]*(\"|<rodcollide/)")
  foreach(line ${include_lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" included "${line}")
    if(NOT EXISTS ${PREFIX}/include/${included})
      message(FATAL_ERROR "install: include/rodcollide/${i} includes \"${included}\", which is not installed "
                          "(a private header; public headers include only rodcollide/...)")
    endif()
  endforeach()
endforeach()
list(LENGTH installed_headers installed_count)
message(STATUS "installed into ${PREFIX}: ${installed_count} public headers, none needing a private one")
