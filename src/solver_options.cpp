// Method names as they appear in case files and on the command line.
#include "rodcollide/solver_options.hpp"

namespace rodcollide {

std::string to_string(Method m) {
    return m == Method::characteristics ? "characteristics" : "finite-difference";
}

std::optional<Method> parse_method(const std::string& name) {
    if (name == "characteristics") return Method::characteristics;
    if (name == "finite-difference") return Method::finite_difference;
    return std::nullopt;
}

}  // namespace rodcollide
