// The identified law (see laws/identified.hpp): applying it, its file, reading a file back.
#include "rodcollide/laws/identified.hpp"

#include "rodcollide/errors.hpp"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace rodcollide::laws {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* format_name = "rodcollide identified law";
constexpr int format_version = 1;
constexpr const char* prefix = "identified:";

json vector_json(const Eigen::VectorXd& v) {
    json a = json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
    return a;
}

json matrix_json(const Eigen::MatrixXd& m) {
    json a = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) a.push_back(vector_json(m.row(i).transpose()));
    return a;
}

/// A failure reading `path`: one line naming the file and what is wrong.
[[noreturn]] void bad(const std::string& path, const std::string& what) {
    throw InvalidInput("law", fmt::format("identified law file {}: {}", path, what));
}

Eigen::VectorXd read_vector(const std::string& path, const json& j, Eigen::Index size, const std::string& where) {
    if (!j.is_array() || static_cast<Eigen::Index>(j.size()) != size)
        bad(path, fmt::format("{} must be an array of {} numbers", where, size));
    Eigen::VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) {
        const json& x = j[static_cast<std::size_t>(i)];
        if (!x.is_number() || !std::isfinite(x.get<double>()))
            bad(path, fmt::format("{} must be an array of {} finite numbers", where, size));
        v[i] = x.get<double>();
    }
    return v;
}

Eigen::MatrixXd read_matrix(const std::string& path, const json& j, Eigen::Index size, const std::string& where) {
    if (!j.is_array() || static_cast<Eigen::Index>(j.size()) != size)
        bad(path, fmt::format("{} must be {} rows of {} numbers (the file's bodies minus 1)", where, size, size));
    Eigen::MatrixXd m(size, size);
    for (Eigen::Index i = 0; i < size; ++i)
        m.row(i) = read_vector(path, j[static_cast<std::size_t>(i)], size, fmt::format("{} row {}", where, i + 1)).transpose();
    return m;
}

std::vector<Eigen::VectorXd> read_vectors(const std::string& path, const json& j, Eigen::Index size,
                                          const std::string& where) {
    if (!j.is_array()) bad(path, fmt::format("{} must be an array", where));
    std::vector<Eigen::VectorXd> out;
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(read_vector(path, j[i], size, fmt::format("{} {}", where, i + 1)));
    return out;
}

}  // namespace

std::optional<Eigen::VectorXd> apply_identified(const IdentifiedLaw& law, const Eigen::VectorXd& gamma_pre) {
    const double scale = gamma_pre.norm();
    if (scale == 0) return Eigen::VectorXd::Zero(gamma_pre.size());
    for (const IdentifiedLawCone& c : law.cones) {
        bool inside = !c.facets.empty();
        for (const Eigen::VectorXd& b : c.facets)
            if (b.dot(gamma_pre) < -facet_slack * scale) {
                inside = false;
                break;
            }
        if (inside) return Eigen::VectorXd(c.matrix * gamma_pre);
    }
    return std::nullopt;
}

json identified_law_json(const IdentifiedLaw& law) {
    json cones = json::array();
    for (const IdentifiedLawCone& c : law.cones) {
        json facets = json::array(), rays = json::array();
        for (const Eigen::VectorXd& b : c.facets) facets.push_back(vector_json(b));
        for (const Eigen::VectorXd& r : c.rays) rays.push_back(vector_json(r));
        cones.push_back({{"matrix", matrix_json(c.matrix)}, {"rays", rays}, {"facets", facets}, {"directions", c.directions}});
    }
    json non_linear = json::array();
    for (const Eigen::VectorXd& d : law.non_linear_directions) non_linear.push_back(vector_json(d));
    return {{"format", format_name},
            {"version", format_version},
            {"bodies", law.bodies},
            {"masses", vector_json(law.masses)},
            {"chain", law.chain},
            {"cones", cones},
            {"non_linear_directions", non_linear}};
}

IdentifiedLaw read_identified_law(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) bad(path, "cannot be read");
    std::stringstream buffer;
    buffer << in.rdbuf();
    json j;
    try {
        j = json::parse(buffer.str());
    } catch (const json::parse_error& e) {
        bad(path, fmt::format("not JSON (byte {})", e.byte));
    }
    if (!j.is_object()) bad(path, "must be a JSON object");
    if (!j.contains("format") || j["format"] != format_name)
        bad(path, fmt::format("\"format\" must be \"{}\" (written by rodcollide sweep --export-law)", format_name));
    if (!j.contains("version") || j["version"] != format_version) bad(path, fmt::format("\"version\" must be {}", format_version));
    if (!j.contains("bodies") || !j["bodies"].is_number_unsigned() || j["bodies"].get<std::size_t>() < 2 ||
        j["bodies"].get<std::size_t>() > 1000)
        bad(path, "\"bodies\" must be an integer from 2 to 1000");
    IdentifiedLaw law;
    law.bodies = j["bodies"].get<std::size_t>();
    const auto d = static_cast<Eigen::Index>(law.bodies - 1);
    if (!j.contains("masses")) bad(path, "\"masses\" is missing");
    law.masses = read_vector(path, j["masses"], d + 1, "\"masses\"");
    for (Eigen::Index i = 0; i <= d; ++i)
        if (!(law.masses[i] > 0)) bad(path, "\"masses\" must be > 0");
    if (j.contains("chain")) law.chain = j["chain"];
    if (!j.contains("cones") || !j["cones"].is_array()) bad(path, "\"cones\" must be an array");
    for (std::size_t k = 0; k < j["cones"].size(); ++k) {
        const json& c = j["cones"][k];
        const std::string where = fmt::format("cone {}", k + 1);
        if (!c.is_object() || !c.contains("matrix") || !c.contains("facets"))
            bad(path, fmt::format("{} needs \"matrix\" and \"facets\"", where));
        IdentifiedLawCone cone;
        cone.matrix = read_matrix(path, c["matrix"], d, where + " \"matrix\"");
        cone.facets = read_vectors(path, c["facets"], d, where + " facet");
        if (c.contains("rays")) cone.rays = read_vectors(path, c["rays"], d, where + " ray");
        if (c.contains("directions") && c["directions"].is_number_unsigned()) cone.directions = c["directions"].get<std::size_t>();
        law.cones.push_back(std::move(cone));
    }
    if (j.contains("non_linear_directions"))
        law.non_linear_directions = read_vectors(path, j["non_linear_directions"], d, "non-linear direction");
    return law;
}

bool is_identified_law_name(const std::string& law_name) { return law_name.starts_with(prefix); }

std::shared_ptr<const IdentifiedLaw> identified_law_of(const std::string& law_name) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const IdentifiedLaw>> loaded;
    const std::string path = law_name.substr(std::string_view(prefix).size());
    if (path.empty()) throw InvalidInput("law", "identified:FILE needs a file name");
    std::lock_guard lock(mutex);
    auto it = loaded.find(path);
    if (it != loaded.end()) return it->second;
    auto law = std::make_shared<const IdentifiedLaw>(read_identified_law(path));
    loaded.emplace(path, law);
    return law;
}

}  // namespace rodcollide::laws
