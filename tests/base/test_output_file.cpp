// Output files: a target that is not a regular file is refused and never replaced, a write
// replaces a regular file atomically, and every refusal is one line with the path escaped.
#include "file_text.hpp"
#include "rodcollide/output_file.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

using namespace rodcollide;
using rodcollide::testing::file_text;
using rodcollide::testing::TempDir;
namespace fs = std::filesystem;

namespace {

std::string refusal(const fs::path& p) {
    try {
        check_output_target(p);
    } catch (const OutputPathError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("an output target must be absent or a regular file, in a directory that takes new files", "[output_file]") {
    const TempDir dir("output_target");
    CHECK(refusal(dir / "new.csv") == "(accepted)");
    CHECK(refusal(dir.write("old.csv", "x\n")) == "(accepted)");
    fs::create_symlink("old.csv", dir / "link.csv");
    CHECK(refusal(dir / "link.csv") == (dir / "link.csv").string() + ": is a symbolic link; only a regular file is written");
    fs::create_symlink("nowhere", dir / "dangling.csv");
    CHECK_THAT(refusal(dir / "dangling.csv"), Catch::EndsWith(": is a symbolic link; only a regular file is written"));
    REQUIRE(::mkfifo((dir / "fifo.csv").c_str(), 0600) == 0);
    CHECK_THAT(refusal(dir / "fifo.csv"), Catch::EndsWith(": is a FIFO; only a regular file is written"));
    fs::create_directory(dir / "sub");
    CHECK_THAT(refusal(dir / "sub"), Catch::EndsWith(": is a directory; only a regular file is written"));
    CHECK_THAT(refusal(dir / "missing" / "x.csv"), Catch::EndsWith("missing does not exist"));
    CHECK_THAT(refusal(dir / "old.csv" / "x.csv"), Catch::EndsWith("old.csv is not a directory"));
    // A name with a newline stays on one line.
    const std::string escaped = refusal(dir / "no\nwhere" / "x.csv");
    CHECK(escaped.find('\n') == std::string::npos);
    CHECK_THAT(escaped, Catch::Contains("no\\nwhere"));
    // The check leaves nothing behind.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
    CHECK(entries == 5);  // old.csv, link.csv, dangling.csv, fifo.csv, sub, and nothing else
}

TEST_CASE("write_file_atomically replaces a regular file and never a link or a FIFO", "[output_file]") {
    const TempDir dir("output_write");
    const fs::path target = dir.write("target.csv", "old\n");
    write_file_atomically(target, "new\n");
    CHECK(file_text(target) == "new\n");

    fs::create_symlink("target.csv", dir / "link.csv");
    CHECK_THROWS_AS(write_file_atomically(dir / "link.csv", "through the link\n"), OutputPathError);
    CHECK(fs::is_symlink(fs::symlink_status(dir / "link.csv")));
    CHECK(file_text(target) == "new\n");

    REQUIRE(::mkfifo((dir / "fifo.csv").c_str(), 0600) == 0);
    CHECK_THROWS_AS(write_file_atomically(dir / "fifo.csv", "x\n"), OutputPathError);
    CHECK(fs::is_fifo(fs::symlink_status(dir / "fifo.csv")));

    // A socket is refused too.
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(s >= 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string socket_path = (dir / "sock.csv").string();
    REQUIRE(socket_path.size() < sizeof(addr.sun_path));
    std::copy(socket_path.begin(), socket_path.end(), addr.sun_path);
    REQUIRE(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
    CHECK_THROWS_WITH(write_file_atomically(dir / "sock.csv", "x\n"), Catch::EndsWith(": is a socket; only a regular file is written"));
    ::close(s);

    std::size_t entries = 0;  // no temporary file left behind
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
    CHECK(entries == 4);
}
