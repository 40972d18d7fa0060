// Writing output files so that a failure never leaves a half-written file behind.
#pragma once

#include <filesystem>
#include <string>

namespace rodcollide {

/// Writes `content` to a temporary file beside `path`, then renames it into place. Throws
/// std::runtime_error naming the path if the directory is missing or not writable.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace rodcollide
