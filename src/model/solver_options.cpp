// Method names as they appear in case files and on the command line, and the limits on the
// solver options (validate).
#include "rodcollide/solver_options.hpp"

#include <algorithm>
#include <vector>

namespace rodcollide {

std::string to_string(Method m) {
    return m == Method::characteristics ? "characteristics" : "finite-difference";
}

std::optional<Method> parse_method(const std::string& name) {
    if (name == "characteristics") return Method::characteristics;
    if (name == "finite-difference") return Method::finite_difference;
    return std::nullopt;
}

Method method_named(const std::string& name) {
    if (const std::optional<Method> m = parse_method(name)) return *m;
    std::vector<std::string> names;
    for (Method m : all_methods) names.push_back(to_string(m));
    throw InvalidInput("method", input::unknown("method", name, names));
}

double accuracy_target(const SolverOptions& o) {
    return o.accuracy.value_or(o.method == Method::finite_difference ? default_finite_difference_accuracy : default_accuracy);
}

void validate(const SolverOptions& o) {
    if (std::find(std::begin(all_methods), std::end(all_methods), o.method) == std::end(all_methods))
        throw InvalidInput("method", "not a method");
    if (o.end_time) input::require("end_time", input::positive(*o.end_time));
    if (o.record_until) input::require("record_until", input::positive(*o.record_until));
    input::require("record_after_settling", input::non_negative(o.record_after_settling));
    input::require("drop_tolerance", input::within(o.drop_tolerance, {0, largest_drop_tolerance}));
    if (o.time_resolution)  // not set: chosen from accuracy and max_memory
        input::require("time_resolution", input::within(*o.time_resolution, {0, largest_time_resolution}));
    input::require("max_events", input::integer_within(o.max_events, 1, largest_max_events));
    input::require("max_fronts", input::integer_within(o.max_fronts, 1, largest_max_fronts));
    if (o.cells != 0) input::require("cells", input::integer_within(o.cells, 1, largest_cells));  // 0: the default
    if (o.force_samples != 0)  // 0: no force histories
        input::require("samples", input::integer_within(o.force_samples, 2, largest_samples));
    if (o.accuracy)  // not set: the method's default (accuracy_target)
        input::require("accuracy", input::within(*o.accuracy, {smallest_accuracy, largest_accuracy}));
    input::require("max_memory", input::integer_within(o.max_memory, 1, largest_max_memory));
    input::require("max_work", input::integer_within(o.max_work, 1, largest_max_events));
}

}  // namespace rodcollide
