// Atomic file output: temporary file + rename.
#include "rodcollide/output_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace rodcollide {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
    namespace fs = std::filesystem;
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error(fmt::format("{}: directory {} does not exist", path.string(), dir.string()));
    if (fs::is_directory(path, ec))
        throw std::runtime_error(fmt::format("{}: is a directory", path.string()));
    const fs::path tmp = dir / fmt::format(".{}.tmp{}", path.filename().string(), ::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
        out << content;
        out.flush();
        if (!out) {
            out.close();
            fs::remove(tmp, ec);
            throw std::runtime_error(fmt::format("{}: write failed", path.string()));
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw std::runtime_error(fmt::format("{}: cannot write: {}", path.string(), ec.message()));
    }
}

}  // namespace rodcollide
