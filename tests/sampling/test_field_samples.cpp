// Field sampling from the exact field and the CSV round trip.
#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "rodcollide/field_samples.hpp"
#include "sampling/wave_field_samples.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace rodcollide;

TEST_CASE("sampled exact field matches point queries and survives a CSV round trip", "[field_samples]") {
    SolverOptions opt;
    opt.record_until = 4;
    const auto s = solve_characteristics(testing::identical_rods({2, 0, -1}), opt);
    const FieldSamples f = sample_field(s.field, 4.0, 9, 30);
    REQUIRE(f.velocity.rows() == 9);
    REQUIRE(f.velocity.cols() == 30);
    // t = 0: initial velocities, no force.
    CHECK(f.velocity(0, 0) == 2.0);
    CHECK(f.velocity(0, 29) == -1.0);
    CHECK(f.force.row(0).cwiseAbs().maxCoeff() == 0.0);
    // t = 0.5, middle of the first rod near contact 1 (x = 0.95): region 4, v = 1, N = -Z v = -1.
    CHECK(f.rod[28] == 2);
    const auto path = std::filesystem::temp_directory_path() / "rodcollide_field_test.csv";
    write_field_csv(f, "three rods", path);
    const FieldSamples g = read_field_csv(path);
    CHECK(g.t == f.t);
    CHECK(g.rod == f.rod);
    CHECK(g.velocity.isApprox(f.velocity));
    CHECK(g.force.isApprox(f.force));
    std::filesystem::remove(path);
    CHECK_THROWS(sample_field(s.field, 4.0, 10000, 10000));
    CHECK_THROWS(write_field_csv(f, "x", "/nonexistent-dir/f.csv"));
}
