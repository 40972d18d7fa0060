// A fresh, empty temporary directory for one test, removed at the end.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace rodcollide::testing {

class TempDir {
public:
    explicit TempDir(const std::string& name)
        : path_(std::filesystem::temp_directory_path() /
                ("rodcollide_test_" + name + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    /// Writes `text` to the file `name` in the directory and returns its path.
    std::filesystem::path write(const std::string& name, const std::string& text) const {
        const std::filesystem::path p = path_ / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return p;
    }

private:
    std::filesystem::path path_;
};

}  // namespace rodcollide::testing
