// The exact solver's event queue (event_queue.hpp): the earliest junction, ties to the lowest
// index, against a linear scan under random rescheduling.
#include "solvers/exact/event_queue.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <vector>

using rodcollide::EventQueue;

TEST_CASE("the event queue gives the earliest junction, the lowest index among equals", "[event_queue]") {
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (std::size_t n : {1, 2, 3, 12, 33}) {
        std::mt19937 rng(static_cast<unsigned>(n));
        // Few distinct times, so that ties are common.
        std::uniform_int_distribution<int> when(0, 6), which(0, static_cast<int>(n) - 1);
        EventQueue q(n);
        std::vector<double> time(n, inf);
        CHECK(q.top_time() == inf);
        for (int i = 0; i < 2000; ++i) {
            const auto j = static_cast<std::size_t>(which(rng));
            const int w = when(rng);
            time[j] = w == 6 ? inf : w;
            q.set(j, time[j]);
            std::size_t best = 0;
            for (std::size_t k = 1; k < n; ++k)
                if (time[k] < time[best]) best = k;
            CHECK(q.time(j) == time[j]);
            REQUIRE(q.top_time() == time[best]);
            if (time[best] != inf) CHECK(q.top() == best);
        }
    }
}
