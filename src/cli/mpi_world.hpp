// MPI for `mpirun -n P rodcollide ensemble|sweep` (docs/ensemble.md "MPI"): with the build option
// -DRODCOLLIDE_MPI=ON the ranks split the members (or directions) into P shards and rank 0
// gathers one result, identical to the threaded run. Without the option every call here is the
// single-process answer (rank 0 of 1), so the commands need no #ifdef.
#pragma once

#include "command.hpp"
#include "rodcollide/errors.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rodcollide::cli::mpi {

/// MPI_Init for main's lifetime and MPI_Finalize at its end, when started by mpirun (its
/// environment says so; else MPI stays uninitialised, rank 0 of 1). On ranks other than 0, stdout and
/// stderr go to /dev/null: rank 0 prints the one result (and the one error line); what fails on
/// another rank reaches rank 0 through gather().
class Session {
public:
    Session(int& argc, char**& argv);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

int rank();  ///< this process's rank, 0 without MPI
int size();  ///< the number of ranks, 1 without MPI

/// Every rank's text, in rank order, on rank 0; an empty list on the other ranks. Collective:
/// every rank must call it. Together the texts are at most 2 GiB (an MPI count is an int); beyond,
/// the run is aborted with one line (MPI_Abort), as a rank left waiting could not be told.
std::vector<std::string> gather(const std::string& mine);

/// Under mpirun (size() > 1) the ranks are the shards of `ensemble` and `sweep`: this rank computes
/// shard (rank + 1)/size, on one thread unless --threads was given (one rank per core). Throws
/// InvalidInput("shard") when --shard was given as well.
template <class Options>
void use_ranks_as_shards(Options& options, bool shard_given, bool threads_given) {
    if (shard_given) throw InvalidInput("shard", "under mpirun the ranks are the shards; give one or the other");
    options.shard = {static_cast<std::size_t>(rank()) + 1, static_cast<std::size_t>(size())};
    if (!threads_given) options.threads = 1;
}

/// Every rank's shard on rank 0, in rank order: this rank's `payload`, or its `failure` when that
/// is not empty (then `payload` is ignored). Collective. Rank 0 gets the payloads when no rank
/// failed; otherwise the exit status to return: rank 0 prints the first failed rank's error as
/// "rodcollide COMMAND: rank R: ..." and returns that rank's `failure_status` (exit_failure, or
/// exit_bad_input for what one process reports as bad input), the other ranks return theirs.
std::variant<std::vector<std::string>, int> gather_shards(std::string_view command, const std::string& payload,
                                                          const std::string& failure, int failure_status = exit_failure);

}  // namespace rodcollide::cli::mpi
