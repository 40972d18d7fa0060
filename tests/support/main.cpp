// Catch2 main for the single test binary; every other tests/*.cpp holds the tests of one unit.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
