// Resident memory from /proc (resident_memory.hpp).
#include "base/resident_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

namespace rodcollide {

std::size_t peak_resident_memory() {
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmHWM:") {
            std::size_t kb = 0;
            return in >> kb ? kb * 1024 : 0;
        }
        in.ignore(4096, '\n');
    }
    return 0;
}

std::size_t resident_memory() {
    std::ifstream in("/proc/self/statm");
    std::size_t size = 0, resident = 0;
    if (!(in >> size >> resident)) return 0;
    const long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? resident * static_cast<std::size_t>(page) : 0;
}

}  // namespace rodcollide
