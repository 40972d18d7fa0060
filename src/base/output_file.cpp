// Output files (output_file.hpp): the target checks shared by every command, and atomic writes.
#include "rodcollide/output_file.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rodcollide {

namespace fs = std::filesystem;

namespace {

fs::path directory_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

/// What a non-regular file is, for the refusal.
std::string file_kind(mode_t mode) {
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "not a regular file";
}

[[noreturn]] void refuse(const fs::path& path, const std::string& reason) {
    throw OutputPathError(fmt::format("{}: {}", display_path(path), reason));
}

/// A new, uniquely named temporary file beside `path`, opened for writing (never following a
/// link, never reusing a name); -1 and errno on failure.
int create_temporary(const fs::path& path, fs::path& tmp) {
    static std::atomic<unsigned> counter{0};
    tmp = directory_of(path) / fmt::format(".{}.rodcollide-{}-{}.tmp", path.filename().string(), ::getpid(), counter++);
    return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

}  // namespace

void check_output_target(const fs::path& path) {
    if (path.empty()) refuse(path, "empty file name");
    const fs::path dir = directory_of(path);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0)
        refuse(path, fmt::format("directory {} does not exist", display_path(dir)));
    if (!S_ISDIR(st.st_mode)) refuse(path, fmt::format("{} is not a directory", display_path(dir)));
    if (!path.has_filename() || path.filename() == "." || path.filename() == "..") refuse(path, "is a directory");
    if (::lstat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) refuse(path, fmt::format("is {}; only a regular file is written", file_kind(st.st_mode)));
        if (::access(path.c_str(), W_OK) != 0) refuse(path, "is not writable");
    } else if (errno != ENOENT) {
        refuse(path, std::strerror(errno));
    }
    // The directory must accept a new file: try it.
    fs::path tmp;
    const int fd = create_temporary(path, tmp);
    if (fd < 0) refuse(path, fmt::format("cannot write in directory {}: {}", display_path(dir), std::strerror(errno)));
    ::close(fd);
    ::unlink(tmp.c_str());
}

void write_file_atomically(const fs::path& path, const std::string& content) {
    check_output_target(path);
    fs::path tmp;
    const int fd = create_temporary(path, tmp);
    if (fd < 0) refuse(path, fmt::format("cannot write in directory {}: {}", display_path(directory_of(path)), std::strerror(errno)));
    const char* p = content.data();
    std::size_t left = content.size();
    int error = 0;
    while (left > 0 && error == 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) error = n < 0 ? errno : ENOSPC;
        else p += n, left -= static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0 && error == 0) error = errno;
    try {
        if (error != 0)
            throw std::runtime_error(fmt::format("{}: write failed: {}", display_path(path), std::strerror(error)));
        check_output_target(path);  // nothing but a regular file is ever replaced
        if (::rename(tmp.c_str(), path.c_str()) != 0)
            throw std::runtime_error(fmt::format("{}: cannot write: {}", display_path(path), std::strerror(errno)));
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
}

}  // namespace rodcollide
