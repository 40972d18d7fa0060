// A downstream program linked against the installed rodcollide package: loads a case file, solves
// it with the exact characteristics solver (Winandy & Leine 2015 §4) and prints the outcome.
#include <rodcollide/rodcollide.hpp>

#include <cstdio>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: app CASE\n";
        return 2;
    }
    try {
        const rodcollide::Case c = rodcollide::load_case(argv[1]);
        const rodcollide::Outcome o = rodcollide::solve(c.chain, c.solver);
        std::cout << c.title << "\nfinal velocities:";
        for (double u : o.final_velocities()) std::cout << ' ' << u;
        std::cout << "\nimpulses:";
        for (double l : o.impulses()) std::cout << ' ' << l;
        std::cout << "\nsettled: " << (o.settled ? "true" : "false") << '\n';
    } catch (const rodcollide::CaseError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    return 0;
}
