// MPI for `mpirun -n P rodcollide ensemble|sweep` (docs/ensemble.md "MPI"): with the build option
// -DRODCOLLIDE_MPI=ON the ranks split the members (or directions) into P shards and rank 0
// gathers one result, identical to the threaded run. Without the option every call here is the
// single-process answer (rank 0 of 1), so the commands need no #ifdef.
#pragma once

#include <string>
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

}  // namespace rodcollide::cli::mpi
