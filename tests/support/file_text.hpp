// The whole content of a file, as written (binary mode), for tests that compare outputs.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rodcollide::testing {

/// The bytes of `path`; "" when it cannot be opened (the test's own checks then fail).
inline std::string file_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace rodcollide::testing
