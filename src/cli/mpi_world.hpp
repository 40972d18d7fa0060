// MPI for `mpirun -n P rodcollide ensemble|sweep` (docs/ensemble.md "MPI"): with the build option
// -DRODCOLLIDE_MPI=ON the ranks split the members (or directions) into P shards and rank 0
// gathers one result, identical to the threaded run. Without the option every call here is the
// single-process answer (rank 0 of 1), so the commands need no #ifdef.
#pragma once

#include "command.hpp"
#include "options.hpp"
#include "rodcollide/errors.hpp"

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
    /// main's last step, with the command's name (empty if none) and exit status, which it returns.
    /// Under mpirun, a rank that did not reach the split (run_and_gather) meets there the ranks
    /// that did: they learn that it stopped, rank 0 prints its error (what it wrote to stderr) as
    /// "rodcollide COMMAND: rank R: ...", and none is left waiting. Without MPI it does nothing.
    int finish(std::string_view command, int status);
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

/// What this rank's work threw, as one process reports it: its text and the exit status,
/// exit_bad_input for bad input (InvalidInput, a member's chain refused by the model included;
/// UnsupportedMethod; InvalidResolution, a grid over the limits), exit_failure for the rest.
struct Failure {
    std::string message;
    int status = exit_failure;
};
Failure failure_of(const std::exception& e);

/// Every rank's shard on rank 0, in rank order: this rank's `payload`, or its `failure` (then
/// `payload` is ignored). Collective. Rank 0 gets the payloads when no rank failed; otherwise the
/// exit status to return: rank 0 prints the first failed rank's error as "rodcollide COMMAND:
/// rank R: ..." and returns that rank's status, the other ranks return theirs. In one process
/// (no mpirun) a failure is printed as "rodcollide COMMAND: ..." and its status returned.
std::variant<std::vector<std::string>, int> gather_shards(std::string_view command, const std::string& payload,
                                                          const std::optional<Failure>& failure);

/// The one way from the ranks' split to rank 0 (`ensemble`, `sweep` of three rods and of more):
/// runs this rank's `work`, which returns what the rank sends to rank 0 (its shard's bytes; in
/// one process nothing, as nobody reads it), clears the progress line and gathers. Whatever
/// `work` throws goes through the gather too, so no rank is left waiting in it for a rank that
/// returned alone (docs/ensemble.md "MPI"): rank 0 prints one line, every rank returns the exit
/// status one process gives. The caller returns the int; with the list, rank 0 joins the shards.
/// The split: every rank says it is ready to do its part of the work, and learns whether all
/// are. 0 when they are; otherwise the exit status to return, after rank 0 printed the first
/// stopped rank's error (a rank can stop before the work is split where the others do not: a case
/// file or output directory its node does not see, a missing gnuplot). Collective: the ranks that
/// stopped take part from Session::finish. Without MPI: 0.
int split(std::string_view command);

template <class Work>
std::variant<std::vector<std::string>, int> run_and_gather(std::string_view command, ProgressReporter& progress,
                                                           Work&& work) {
    if (const int status = split(command)) return status;
    std::string payload;
    std::optional<Failure> failure;
    try {
        payload = std::forward<Work>(work)();
    } catch (const std::exception& e) {
        failure = failure_of(e);
    }
    progress.finish();
    return gather_shards(command, payload, failure);
}

}  // namespace rodcollide::cli::mpi
