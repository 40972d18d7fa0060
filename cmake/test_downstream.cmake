# ctest (cmake/package.cmake): configures, builds and runs tests/downstream against the package
# installed in PREFIX by the package_install fixture, and checks the program's output: the
# three-rod case of Winandy & Leine (2015, §4.2, eq. 36), u- = (2, 0, -1) -> u+ = (-1, 0, 2).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/downstream -B ${WORK_DIR}
                        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX}
                        -DCMAKE_PREFIX_PATH=${PREFIX} -DRODCOLLIDE_EXPECTED_PREFIX=${PREFIX}
                        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR} OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${WORK_DIR}/app ${SOURCE_DIR}/cases/seed000_three_rods.toml
                OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "downstream app printed:\n${out}")
set(expected "Winandy & Leine 2015: three identical rods\nfinal velocities: -1 0 2\nimpulses: 3 3\nsettled: true\n")
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "downstream app: expected\n${expected}got\n${out}")
endif()
