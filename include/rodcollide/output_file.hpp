// Output files: where rodcollide may write, and writing so that a failure never leaves a
// half-written file behind and never replaces anything but a regular file.
#pragma once

#include "rodcollide/errors.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace rodcollide {

/// An output path rodcollide refuses to write (a symlink, device, FIFO, socket or directory; a
/// missing or unwritable directory; a read-only file): nothing was written. what() is one line
/// "PATH: reason", the path escaped (display_path).
class OutputPathError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// display_path() (errors.hpp) of a path.
inline std::string display_path(const std::filesystem::path& path) { return display_path(path.native()); }

/// Checks that `path` may be written, before any work and again just before the file is moved
/// into place: it is absent or a regular file writable by us (never followed through a symlink),
/// and its directory exists and accepts new files (tried, not guessed from permission bits).
/// @throws OutputPathError naming the path and why it is refused.
void check_output_target(const std::filesystem::path& path);

/// Writes `content` to a new temporary file beside `path`, checks every write and the close, then
/// renames it into place after check_output_target(path) once more: a symlink, device or FIFO
/// that appeared meanwhile is never replaced.
/// @throws OutputPathError for a refused target.
/// @throws std::runtime_error naming the path when writing fails (the temporary file is removed).
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace rodcollide
