// The fuzzer's structure-aware mutations (fuzz/case_mutator.hpp): they exist so that fuzzed
// inputs get past the reader to the solvers, which byte-level mutation rarely does (about 1 in
// 100 in the first 100,000-input run). Checked here on the example cases, without libFuzzer.
#include "case_mutator.hpp"

#include "rodcollide/case_file.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using rodcollide::fuzz::CaseMutator;

namespace {

std::vector<std::string> example_cases() {
    std::vector<std::string> texts;
    const fs::path root(RODCOLLIDE_SOURCE_DIR);
    for (const fs::path& dir : {root / "cases", root / "validation" / "cases"})
        for (const auto& f : fs::directory_iterator(dir))
            if (f.path().extension() == ".toml") {
                std::ifstream in(f.path(), std::ios::binary);
                std::ostringstream s;
                s << in.rdbuf();
                texts.push_back(s.str());
            }
    return texts;
}

bool readable(const std::string& text) {
    try {
        rodcollide::parse_case(text, "fuzz.toml");
        return true;
    } catch (const rodcollide::CaseError&) {
        return false;
    }
}

}  // namespace

TEST_CASE("structure-aware mutations mostly keep a case readable, and also probe its limits", "[fuzz][mutator]") {
    const std::vector<std::string> seeds = example_cases();
    REQUIRE(seeds.size() >= 10);
    std::size_t tried = 0, read = 0, changed = 0;
    for (std::uint64_t seed = 0; seed < 1000; ++seed) {
        const std::string& text = seeds[seed % seeds.size()];
        const std::string mutated = CaseMutator(seed).mutate(text, 4096);
        CHECK(mutated.size() <= 4096);
        changed += mutated != text;
        ++tried;
        read += readable(mutated);
    }
    INFO(read << " of " << tried << " mutated cases readable");
    // Many stay readable, so they reach the solvers (about half as measured, against 1 in 100 with
    // byte-level mutations), but not all: the mutations also cross every limit of the reader and
    // of Chain.
    CHECK(read > tried * 2 / 5);
    CHECK(read < tried * 9 / 10);
    CHECK(changed > tried * 9 / 10);
}

TEST_CASE("mutations write and edit [ensemble] and [[ensemble.perturb]] tables, accepted and refused",
          "[fuzz][mutator][ensemble]") {
    // The example cases have no ensemble: the mutator adds the tables (from the key table's rows)
    // and then edits them, so that the reader's and check_ensemble_spec's refusals and the
    // members' draws are fuzzed. Three stacked edits per input, as libFuzzer stacks them.
    const std::vector<std::string> seeds = example_cases();
    std::size_t with_perturbations = 0, refused_in_ensemble = 0, shared = 0, normal = 0;
    for (std::uint64_t seed = 0; seed < 3000; ++seed) {
        CaseMutator m(seed);
        std::string text = seeds[seed % seeds.size()];
        for (int k = 0; k < 3; ++k) text = m.mutate(text, 4096);
        try {
            const rodcollide::Case c = rodcollide::parse_case(text, "fuzz.toml");
            if (c.ensemble && !c.ensemble->perturb.empty()) {
                ++with_perturbations;
                for (const rodcollide::Perturbation& p : c.ensemble->perturb) {
                    shared += p.shared;
                    normal += p.distribution == rodcollide::Distribution::normal;
                }
            }
        } catch (const rodcollide::CaseError& e) {
            refused_in_ensemble += std::string(e.what()).find("ensemble") != std::string::npos;
        }
    }
    INFO(with_perturbations << " accepted with perturbations, " << refused_in_ensemble << " refused in [ensemble]");
    CHECK(with_perturbations >= 10);
    CHECK(refused_in_ensemble >= 10);
    CHECK(shared > 0);
    CHECK(normal > 0);
}

TEST_CASE("a mutation is the same for the same seed, and within the size allowed", "[fuzz][mutator]") {
    const std::string text = example_cases().front();
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        CHECK(CaseMutator(seed).mutate(text, 4096) == CaseMutator(seed).mutate(text, 4096));
        CHECK(CaseMutator(seed).mutate(text, text.size()).size() <= text.size());
    }
}

TEST_CASE("crossover grafts one block of a case into another", "[fuzz][mutator]") {
    const std::string a = "title = \"a\"\n[[rod]]\nlength = 1\n[[rod]]\nlength = 2\n";
    const std::string b = "[defaults]\narea = 3\n[[rod]]\nvelocity = 4\ndensity = 7\nyoungs_modulus = 8\n"
                          "[[rod.segment]]\nlength = 5\n";
    // A block of b before one of a's tables or at the end: its [defaults], or its rod with its
    // segment and with the area it took from b's [defaults].
    const std::string rod = "[[rod]]\narea = 3\nvelocity = 4\ndensity = 7\nyoungs_modulus = 8\n[[rod.segment]]\nlength = 5\n";
    std::set<std::string> grafts;
    for (const std::string& block : {std::string("[defaults]\narea = 3\n"), rod})
        for (std::size_t cut : {a.find("[[rod]]"), a.rfind("[[rod]]"), a.size()})
            grafts.insert(a.substr(0, cut) + block + a.substr(cut));
    std::set<std::string> seen;
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const std::string c = CaseMutator(seed).cross_over(a, b, 4096);
        CHECK(grafts.count(c) == 1);
        seen.insert(c);
    }
    CHECK(seen == grafts);
}
