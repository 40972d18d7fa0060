// Junction physics (docs/physics.md §1): open (two free ends), closed, and unilateral contact, and
// the dispatch by junction kind that both solvers call.
#include "rodcollide/interface.hpp"

namespace rodcollide {

JunctionResponse open_junction(double alpha_in, double beta_in) {
    JunctionResponse r;
    r.beta_to_left = free_end_reflection(alpha_in);
    r.alpha_to_right = free_end_reflection(beta_in);
    r.velocity_left = alpha_in;
    r.velocity_right = beta_in;
    r.force = 0;
    return r;
}

JunctionResponse closed_junction(double z_left, double alpha_in, double z_right, double beta_in) {
    const double z_sum = z_left + z_right;
    const double v = (z_left * alpha_in + z_right * beta_in) / z_sum;
    JunctionResponse r;
    r.force = z_left * z_right * (beta_in - alpha_in) / z_sum;
    // Outgoing invariants from v and N on each side: beta_L = v + N/Z_L, alpha_R = v - N/Z_R.
    r.beta_to_left = beta_of(v, r.force, z_left);
    r.alpha_to_right = alpha_of(v, r.force, z_right);
    r.velocity_left = r.velocity_right = v;
    return r;
}

bool has_gap(JunctionKind kind) {
    switch (kind) {
        case JunctionKind::free_end: return false;
        case JunctionKind::contact: return true;
    }
    return false;
}

JunctionResponse junction_response(JunctionKind kind, bool touching, const JunctionArrivals& in, double tolerance) {
    switch (kind) {
        case JunctionKind::free_end:
            // An open junction is two free ends; at a chain end only the existing side is read.
            return open_junction(in.alpha_in, in.beta_in);
        case JunctionKind::contact:
            return touching ? touching_junction(in.z_left, in.alpha_in, in.z_right, in.beta_in, tolerance)
                            : open_junction(in.alpha_in, in.beta_in);
    }
    return open_junction(in.alpha_in, in.beta_in);
}

bool stays_touching(JunctionKind kind, const JunctionArrivals& in, double tolerance) {
    switch (kind) {
        case JunctionKind::free_end: return false;
        case JunctionKind::contact: return stays_in_contact(in.alpha_in, in.beta_in, tolerance);
    }
    return false;
}

JunctionResponse touching_junction(double z_left, double alpha_in, double z_right, double beta_in,
                                   double tolerance) {
    if (free_separation_velocity(alpha_in, beta_in) < -tolerance)
        return closed_junction(z_left, alpha_in, z_right, beta_in);
    return open_junction(alpha_in, beta_in);
}

}  // namespace rodcollide
