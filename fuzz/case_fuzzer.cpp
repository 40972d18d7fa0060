// libFuzzer target over case-file text (fuzz_case.hpp says what one input goes through). Built
// and run by scripts/fuzz.sh; RODCOLLIDE_FUZZ_STATS=1 prints the counts at exit, and
// RODCOLLIDE_FUZZ_STRICT=1 makes a violated invariant (a refusal in the CLI) a crash, to hunt
// solver defects.
#include "fuzz_case.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Totals : rodcollide::fuzz::Counts {
    ~Totals() {
        if (std::getenv("RODCOLLIDE_FUZZ_STATS"))
            std::fprintf(stderr,
                         "rodcollide fuzz: %zu inputs, %zu refused as bad input, %zu outcomes accepted (each "
                         "re-checked), %zu solves stopped at a cap, %zu refused for a violated invariant\n",
                         inputs, refused_input, accepted, capped, violations);
    }
} totals;

const bool strict = std::getenv("RODCOLLIDE_FUZZ_STRICT") != nullptr;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        rodcollide::fuzz::run_case(std::string(reinterpret_cast<const char*>(data), size), totals, strict);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "defect: %s\n", e.what());
        std::abort();
    }
    return 0;
}
