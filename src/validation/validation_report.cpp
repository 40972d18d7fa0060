// The validation report as `rodcollide validate` prints it (a table with PASS/FAIL, then every
// failure in full) and as JSON.
#include "rodcollide/validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace rodcollide::validation {

namespace {

/// Cut to `width` characters, marking the cut.
std::string cell(const std::string& s, std::size_t width) {
    return s.size() <= width ? s : s.substr(0, width - 3) + "...";
}

std::string error_text(double e) { return std::isnan(e) ? "-" : std::isinf(e) ? "inf" : fmt::format("{:.2e}", e); }

}  // namespace

std::string format_table(const Report& report) {
    struct Column {
        const char* title;
        std::size_t cap;
        std::string Row::*field;
    };
    const Column columns[] = {{"case", 28, &Row::name},          {"quantity", 50, &Row::quantity},
                              {"expected", 30, &Row::expected},  {"got", 30, &Row::got},
                              {"error", 9, nullptr},             {"tolerance", 10, &Row::tolerance},
                              {"source", 72, &Row::source}};
    std::vector<std::size_t> width;
    for (const Column& c : columns) {
        std::size_t w = std::string_view(c.title).size();
        for (const Row& r : report.rows) w = std::max(w, c.field ? (r.*c.field).size() : error_text(r.error).size());
        width.push_back(std::min(w, c.cap));
    }
    std::string s;
    auto out = std::back_inserter(s);
    for (std::size_t k = 0; k < std::size(columns); ++k) fmt::format_to(out, "{:<{}}  ", columns[k].title, width[k]);
    fmt::format_to(out, "result\n");
    for (const Row& r : report.rows) {
        for (std::size_t k = 0; k < std::size(columns); ++k)
            fmt::format_to(out, "{:<{}}  ", cell(columns[k].field ? r.*columns[k].field : error_text(r.error), width[k]),
                           width[k]);
        fmt::format_to(out, "{}\n", r.pass ? "PASS" : "FAIL");
    }
    const std::size_t failures = report.failures();
    fmt::format_to(out, "\n{} checks: {} passed, {} failed\n", report.rows.size(), report.rows.size() - failures, failures);
    for (const Row& r : report.rows)
        if (!r.pass)
            fmt::format_to(out, "FAIL {}:{}: {}: {}: got {} (expected {}, error {}, tolerance {}; {})\n", r.file, r.line,
                           r.name, r.quantity, r.got, r.expected, error_text(r.error), r.tolerance, r.source);
    return s;
}

nlohmann::ordered_json to_json(const Report& report) {
    using json = nlohmann::ordered_json;
    json rows = json::array();
    for (const Row& r : report.rows)
        rows.push_back({{"file", r.file},
                        {"line", r.line},
                        {"case", r.name},
                        {"quantity", r.quantity},
                        {"expected", r.expected},
                        {"got", r.got},
                        {"error", std::isfinite(r.error) ? json(r.error) : json()},
                        {"tolerance", r.tolerance},
                        {"source", r.source},
                        {"pass", r.pass}});
    return {{"passed", report.passed()}, {"failures", report.failures()}, {"rows", rows}};
}

}  // namespace rodcollide::validation
