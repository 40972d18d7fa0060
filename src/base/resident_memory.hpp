// The process's resident memory as the kernel reports it (Linux /proc): the exact solver states it
// next to its memory budget (SolverOptions::max_memory) when fronts outgrow the budget.
#pragma once

#include <cstddef>

namespace rodcollide {

/// Peak resident set size of this process so far [bytes] (VmHWM of /proc/self/status); 0 where
/// it cannot be read (not Linux).
std::size_t peak_resident_memory();

/// Current resident set size [bytes] (the second field of /proc/self/statm, in pages); 0 where it
/// cannot be read.
std::size_t resident_memory();

}  // namespace rodcollide
