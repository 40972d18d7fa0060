// Sampling the exact field on a grid (wave_field_samples.hpp), and the field CSV format
// (field_samples.hpp).
#include "rodcollide/field_samples.hpp"

#include "rodcollide/errors.hpp"
#include "rodcollide/output_file.hpp"
#include "sampling/wave_field_samples.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rodcollide {

std::vector<double> sample_times(double t_end, std::size_t n) {
    std::vector<double> t;
    for (std::size_t i = 0; i < n; ++i) t.push_back(n == 1 ? 0.0 : t_end * static_cast<double>(i) / static_cast<double>(n - 1));
    return t;
}

FieldSamples field_positions(const Chain& chain, std::size_t nt, std::size_t nx) {
    if (nt < 1 || nx < 1 || nt * nx > max_field_samples)
        throw std::invalid_argument(fmt::format("field samples: {} x {} exceeds the limit of {} samples",
                                                nt, nx, max_field_samples));
    FieldSamples s;
    const double length = chain.total_length();
    for (std::size_t j = 0; j < nx; ++j) {
        s.x.push_back(length * (static_cast<double>(j) + 0.5) / static_cast<double>(nx));
        s.rod.push_back(chain.elements()[element_point(chain, s.x.back()).first].rod);
    }
    return s;
}

FieldSamples sample_field(const WaveField& field, double t_end, std::size_t nt, std::size_t nx) {
    FieldSamples s = field_positions(field.chain(), nt, nx);
    if (t_end > field.valid_until() * (1 + 1e-12))
        throw std::invalid_argument(fmt::format("field samples: t_end {} is beyond the solved time {}",
                                                t_end, field.valid_until()));
    s.t = sample_times(t_end, nt);
    s.velocity.resize(nt, nx);
    s.force.resize(nt, nx);
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t j = 0; j < nx; ++j) {
            const PointState p = field.state_at(s.x[j], s.t[i]);
            s.velocity(i, j) = p.velocity;
            s.force(i, j) = p.force;
        }
    return s;
}

void write_field_csv(const FieldSamples& s, const std::string& title, const std::filesystem::path& path) {
    std::string out = fmt::format("# rodcollide field samples: {}\nt,x,rod,velocity,force\n", title);
    for (std::size_t i = 0; i < s.t.size(); ++i)
        for (std::size_t j = 0; j < s.x.size(); ++j)
            out += fmt::format("{},{},{},{},{}\n", s.t[i], s.x[j], s.rod[j], s.velocity(i, j), s.force(i, j));
    write_file_atomically(path, out);
}

FieldSamples read_field_csv(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read", path.string()));
    std::string line;
    std::size_t line_no = 0;
    std::map<double, std::size_t> t_index, x_index;
    struct Row { double t, x; std::size_t rod; double v, n; };
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty() || line[0] == '#' || line.rfind("t,", 0) == 0) continue;
        std::istringstream ls(line);
        Row r{};
        char c1, c2, c3, c4;
        if (!(ls >> r.t >> c1 >> r.x >> c2 >> r.rod >> c3 >> r.v >> c4 >> r.n) || c1 != ',' || c2 != ',' || c3 != ',' || c4 != ',')
            throw std::runtime_error(fmt::format("{}:{}: expected t,x,rod,velocity,force", path.string(), line_no));
        t_index.emplace(r.t, 0);
        x_index.emplace(r.x, r.rod);
        rows.push_back(r);
    }
    FieldSamples s;
    for (auto& [t, k] : t_index) { k = s.t.size(); s.t.push_back(t); }
    std::map<double, std::size_t> column;
    for (const auto& [x, rod] : x_index) { column[x] = s.x.size(); s.x.push_back(x); s.rod.push_back(rod); }
    if (rows.size() != s.t.size() * s.x.size())
        throw std::runtime_error(fmt::format("{}: not a full t-x grid ({} rows for {} x {})", path.string(),
                                             rows.size(), s.t.size(), s.x.size()));
    s.velocity.setZero(s.t.size(), s.x.size());
    s.force.setZero(s.t.size(), s.x.size());
    for (const Row& r : rows) {
        s.velocity(t_index[r.t], column[r.x]) = r.v;
        s.force(t_index[r.t], column[r.x]) = r.n;
    }
    return s;
}

void validate(const FieldResolution& r) {
    input::require("times", input::integer_within(r.times, 2, 2000));
    input::require("positions", input::integer_within(r.positions, 1, 2000));
}

}  // namespace rodcollide
