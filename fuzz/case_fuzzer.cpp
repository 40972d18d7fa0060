// libFuzzer target over case-file text (fuzz_case.hpp says what one input goes through; the
// structure-aware mutations are case_mutator.hpp's). Built and run by scripts/fuzz.sh;
// RODCOLLIDE_FUZZ_STATS=1 prints the counts at exit, RODCOLLIDE_FUZZ_STRICT=1 makes a violated
// invariant (a refusal in the CLI) a crash, to hunt solver defects, RODCOLLIDE_FUZZ_VIOLATIONS=DIR
// keeps each input whose outcome violated an invariant in DIR (to look into later),
// RODCOLLIDE_FUZZ_DEFECTS=DIR keeps going after a defect that is an exception (not a crash or a
// sanitizer report): the input goes to DIR, its message to DIR/...txt, and it is counted, and
// RODCOLLIDE_FUZZ_BYTES_ONLY=1 leaves mutation to libFuzzer's byte-level mutators (crossover
// stays line-wise), to compare how far each gets.
#include "case_mutator.hpp"
#include "fuzz_case.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace {

struct Totals : rodcollide::fuzz::Counts {
    std::size_t defects = 0;
    ~Totals() {
        if (!std::getenv("RODCOLLIDE_FUZZ_STATS")) return;
        if (defects) std::fprintf(stderr, "rodcollide fuzz: %zu defects (kept going; see RODCOLLIDE_FUZZ_DEFECTS)\n", defects);
        std::fprintf(stderr,
                     "rodcollide fuzz: %zu inputs, %zu refused as bad input, %zu with too many rods; %zu outcomes "
                     "accepted (each re-checked), %zu solves stopped at a cap, %zu refused for a violated invariant\n",
                     inputs, refused_input, skipped, accepted(), capped(), violations());
        std::fprintf(stderr, "rodcollide fuzz: %zu ensemble members drawn and solved, %zu refused by the model\n", members,
                     refused_members);
        const auto line = [](const char* name, const rodcollide::fuzz::MethodCounts& m) {
            std::fprintf(stderr,
                         "rodcollide fuzz: %s solver ran on %zu inputs: %zu accepted, %zu stopped at a cap, %zu "
                         "violated an invariant; %zu refused before solving\n",
                         name, m.reached(), m.accepted, m.capped, m.violations, m.refused);
        };
        line("exact", exact);
        line("finite-difference", finite_difference);
    }
} totals;

const bool strict = std::getenv("RODCOLLIDE_FUZZ_STRICT") != nullptr;
const char* const violations_dir = std::getenv("RODCOLLIDE_FUZZ_VIOLATIONS");
const char* const defects_dir = std::getenv("RODCOLLIDE_FUZZ_DEFECTS");

void keep(const char* dir, const char* kind, const std::string& text, const std::string& note = {}) {
    const std::string path = std::string(dir) + "/" + kind + "-" + std::to_string(std::hash<std::string>{}(text));
    for (const auto& [name, content] : {std::pair{path, &text}, std::pair{path + ".txt", &note}}) {
        if (content->empty()) continue;
        if (std::FILE* f = std::fopen(name.c_str(), "wb")) {
            std::fwrite(content->data(), 1, content->size(), f);
            std::fclose(f);
        }
    }
}
const bool bytes_only = std::getenv("RODCOLLIDE_FUZZ_BYTES_ONLY") != nullptr;

std::string as_string(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

std::size_t store(const std::string& text, std::uint8_t* data) {
    std::memcpy(data, text.data(), text.size());
    return text.size();
}

}  // namespace

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

// An input refused as bad input enters the corpus (when it adds coverage) one time in eight,
// decided by its hash so a rerun decides alike: otherwise the reader's many error paths fill the
// corpus, and mutations of refused inputs are mostly refused too (93 of 100 inputs in a minute's
// run), where mutations of readable ones mostly reach the solvers.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = as_string(data, size);
    bool read = false;
    const std::size_t violations = totals.violations();
    try {
        read = rodcollide::fuzz::run_case(text, totals, strict);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "defect: %s\n", e.what());
        if (!defects_dir) std::abort();
        ++totals.defects;
        keep(defects_dir, "defect", text, e.what() + std::string("\n"));
        return -1;
    }
    if (violations_dir && totals.violations() > violations) keep(violations_dir, "violation", text);
    return read || std::hash<std::string>{}(text) % 8 == 0 ? 0 : -1;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
    if (bytes_only) return LLVMFuzzerMutate(data, size, max_size);
    rodcollide::fuzz::CaseMutator mutator(seed);
    const auto bytes = [](std::string text, std::size_t max) {
        const std::size_t n = text.size();  // <= max
        text.resize(max);
        text.resize(LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(text.data()), n, max));
        return text;
    };
    return store(mutator.mutate(as_string(data, size), max_size, bytes), data);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1, const std::uint8_t* data2,
                                                 std::size_t size2, std::uint8_t* out, std::size_t max_out_size,
                                                 unsigned int seed) {
    rodcollide::fuzz::CaseMutator mutator(seed);
    return store(mutator.cross_over(as_string(data1, size1), as_string(data2, size2), max_out_size), out);
}
