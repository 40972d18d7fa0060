// The element/junction layout derived from a Chain (elements.hpp): one uniform element per rod,
// with the rod's derived quantities, and junctions that are free ends at the chain's ends and
// unilateral contacts, carrying the rods' gaps, in between.
#include "chain_builders.hpp"
#include "rodcollide/chain.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;
using rodcollide::testing::make_rod;

TEST_CASE("every rod is one element with its derived quantities", "[elements]") {
    const Chain c({make_rod(1, 2), make_rod(0.5, -1, 0.1, 2, 4, 9), make_rod(2, 0, 0.3, 1, 4, 1)});
    REQUIRE(c.elements().size() == c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
        const Element& e = c.elements()[i];
        const Rod& r = c[i];
        INFO("rod " << i);
        CHECK(e.rod == i);
        CHECK(c.element_indices(i).size() == 1);
        CHECK(c.element_indices(i).front() == i);
        CHECK(e.offset == c.material_offset(i));
        CHECK(e.length == r.length);
        CHECK(e.initial_velocity == r.velocity);
        CHECK(e.wave_speed == r.wave_speed());
        CHECK(e.impedance == r.impedance());
        CHECK(e.transit_time == r.transit_time());
        CHECK(e.mass == r.mass());
        CHECK(e.axial_stiffness == r.axial_stiffness());
    }
    // Rod 1: c = sqrt(9/4) = 1.5, Z = rho A c = 4 * 2 * 1.5 = 12, L/c = 1/3, m = 4 * 2 * 0.5 = 4.
    CHECK(c.elements()[1].impedance == Approx(12));
    CHECK(c.elements()[1].transit_time == Approx(1.0 / 3));
    CHECK(c.elements()[1].mass == Approx(4));
    // The elements tile the material coordinate without gaps or overlaps.
    for (std::size_t i = 0; i + 1 < c.elements().size(); ++i)
        CHECK(c.elements()[i].offset + c.elements()[i].length == Approx(c.elements()[i + 1].offset));
}

TEST_CASE("junctions: free ends outside, contacts with the rods' gaps inside", "[elements]") {
    const Chain c({make_rod(1, 2), make_rod(0.5, -1, 0.1), make_rod(2, 0, 0.3)});
    const std::vector<Junction>& q = c.junctions();
    REQUIRE(q.size() == c.elements().size() + 1);
    CHECK(q.front().kind == JunctionKind::free_end);
    CHECK(q.front().left == -1);
    CHECK(q.front().right == 0);
    CHECK(q.back().kind == JunctionKind::free_end);
    CHECK(q.back().left == 2);
    CHECK(q.back().right == -1);
    for (std::size_t j = 1; j < 3; ++j) {
        INFO("junction " << j);
        CHECK(q[j].kind == JunctionKind::contact);
        // Junction j sits at the left end of element j and the right end of element j - 1.
        CHECK(q[j].left == static_cast<std::ptrdiff_t>(j - 1));
        CHECK(q[j].right == static_cast<std::ptrdiff_t>(j));
        CHECK(q[j].initial_gap == c[j].gap);
    }
}
