// MPI for the command line (mpi_world.hpp): a thin layer over MPI_Init, MPI_Gather(v) and
// MPI_Finalize, compiled to the single-process answers without -DRODCOLLIDE_MPI=ON.
#include "mpi_world.hpp"

#include "command.hpp"

#include "rodcollide/errors.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

#ifdef RODCOLLIDE_MPI
#define OMPI_SKIP_MPICXX 1  // the C API only: OpenMPI's deprecated C++ bindings warn under -Wextra
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace rodcollide::cli::mpi {

#ifdef RODCOLLIDE_MPI

namespace {
int world_rank = 0, world_size = 1;
bool initialized = false;

/// Started by mpirun/mpiexec (OpenMPI, or a PMI launcher such as srun)? Otherwise MPI is not
/// initialized at all: a singleton MPI_Init costs 0.4 s per command, for nothing.
bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(v)) return true;
    return false;
}
}  // namespace

Session::Session(int& argc, char**& argv) {
    if (!launched_by_mpi()) return;
    MPI_Init(&argc, &argv);
    initialized = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (world_rank != 0) {  // one report, from rank 0
        if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) {
            // Nothing to do: a rank that cannot silence itself still computes the same numbers.
        }
    }
}

Session::~Session() {
    if (initialized) MPI_Finalize();
}

int rank() { return world_rank; }
int size() { return world_size; }

std::vector<std::string> gather(const std::string& mine) {
    if (!initialized) return {mine};
    // A rank that cannot take part would leave the others waiting: stop them all.
    const auto abort = [](const char* why) {
        std::fprintf(stderr, "rodcollide: %s\n", why);
        MPI_Abort(MPI_COMM_WORLD, 1);
    };
    if (mine.size() > static_cast<std::size_t>(INT_MAX))
        abort("a rank's result exceeds 2 GiB, the most one MPI message carries; use more ranks");
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(world_rank == 0 ? world_size : 0);
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    long long total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += lengths[r];
    }
    if (total > INT_MAX) abort("the ranks' results exceed 2 GiB together; use --shard and merge");
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> parts;
    for (std::size_t r = 0; r < lengths.size(); ++r)
        parts.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return parts;
}

#else

Session::Session(int&, char**&) {}
Session::~Session() = default;
int rank() { return 0; }
int size() { return 1; }
std::vector<std::string> gather(const std::string& mine) { return {mine}; }

#endif

Failure failure_of(const std::exception& e) {
    const bool bad_input = dynamic_cast<const InvalidInput*>(&e) || dynamic_cast<const UnsupportedMethod*>(&e) ||
                           dynamic_cast<const InvalidResolution*>(&e);
    std::string message = e.what();
    if (message.empty()) message = "unknown error";  // a failure is told from a payload by its text
    return {std::move(message), bad_input ? exit_bad_input : exit_failure};
}

std::variant<std::vector<std::string>, int> gather_shards(std::string_view command, const std::string& payload,
                                                          const std::optional<Failure>& failure) {
    if (size() == 1) {  // the line and status main gives an error that escapes the command
        if (!failure) return std::vector<std::string>{payload};
        fmt::print(stderr, "rodcollide {}: {}\n", command, failure->message);
        return failure->status;
    }
    // One byte says which: a failed rank sends "!", its exit status (one digit) and its error, and
    // rank 0 must tell the two apart.
    std::string mine(1, failure ? '!' : '+');
    if (failure) {
        mine += static_cast<char>('0' + failure->status % 10);
        mine += failure->message;
    } else {
        mine += payload;
    }
    std::vector<std::string> parts = gather(mine);
    if (rank() != 0) return failure ? failure->status : exit_ok;
    for (std::size_t r = 0; r < parts.size(); ++r)
        if (parts[r].starts_with('!')) {
            fmt::print(stderr, "rodcollide {}: rank {}: {}\n", command, r, parts[r].substr(2));
            return parts[r][1] - '0';
        }
    for (std::string& p : parts) p.erase(0, 1);
    return parts;
}

}  // namespace rodcollide::cli::mpi
