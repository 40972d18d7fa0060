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
#include <unistd.h>

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
bool met = false;               // this rank has met the others at the split (split() or Session::finish())
std::FILE* captured = nullptr;  // ranks other than 0: their stderr, for rank 0 to print what stopped them

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
    if (world_rank != 0) {  // one report, from rank 0; stderr is kept aside for it (Session::finish)
        if (!std::freopen("/dev/null", "w", stdout)) {
            // Nothing to do: a rank that cannot silence itself still computes the same numbers.
        }
        captured = std::tmpfile();
        if (!captured || ::dup2(::fileno(captured), STDERR_FILENO) < 0) {
            captured = nullptr;
            if (!std::freopen("/dev/null", "w", stderr)) {
            }
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

namespace {

/// The last line this rank wrote to stderr, without "rodcollide COMMAND: " (ranks other than 0):
/// the error a command prints as it stops (MPI's own warnings, if any, come before it).
std::string captured_error(std::string_view command) {
    if (!captured) return {};
    std::fflush(stderr);
    constexpr long tail = 65536;  // the end of what it wrote is enough
    if (std::fseek(captured, -tail, SEEK_END) != 0) std::rewind(captured);
    std::string text;
    for (int c; (c = std::fgetc(captured)) != EOF;) text += static_cast<char>(c);
    std::fseek(captured, 0, SEEK_END);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    std::string line = text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
    const std::string prefix = command.empty() ? "rodcollide: " : fmt::format("rodcollide {}: ", command);
    if (line.starts_with(prefix)) line.erase(0, prefix.size());
    return line;
}

/// The ranks meet: each says "+" (ready to do its part) or "!", its exit status and its error
/// (stopped); rank 0 decides and tells every rank: 0 (go on) or the first stopped rank's status.
int meet(std::string_view command, const std::string& mine) {
    met = true;
    const std::vector<std::string> words = gather(mine);
    int verdict = 0;
    for (std::size_t r = 0; r < words.size(); ++r) {
        if (!words[r].starts_with('!')) continue;
        verdict = words[r].size() > 1 && words[r][1] != '0' ? words[r][1] - '0' : exit_failure;
        // A rank 0 that stopped has said why itself.
        if (words[0].starts_with('+')) fmt::print(stderr, "rodcollide {}: rank {}: {}\n", command, r, words[r].substr(2));
        break;
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
}

}  // namespace

int split(std::string_view command) { return initialized ? meet(command, "+") : 0; }

int Session::finish(std::string_view command, int status) {
    if (!initialized || met) return status;
    std::string message = captured_error(command);
    if (message.empty()) message = fmt::format("stopped before the work was split (exit status {})", status);
    meet(command, fmt::format("!{}{}", status % 10, message));
    return status;
}

#else

Session::Session(int&, char**&) {}
int Session::finish(std::string_view, int status) { return status; }
int split(std::string_view) { return 0; }
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
