// The sweeps' worker pool: body(j) for j in [0, n) on `threads` threads, in chunks, with progress
// reported from the calling thread (the solver's progress callbacks are not thread-safe). The
// first exception of any worker stops the others and is rethrown here.
#pragma once

#include <cstddef>
#include <functional>

namespace rodcollide {

void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body,
                  const std::function<void(std::size_t, std::size_t)>& progress);

/// Threads for n items: `requested` (0: one per hardware thread), at most n, at least 1.
unsigned worker_threads(unsigned requested, std::size_t n);

}  // namespace rodcollide
