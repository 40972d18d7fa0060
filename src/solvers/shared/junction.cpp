// Junction physics (docs/physics.md §1): open (two free ends), closed, and unilateral contact, and
// the dispatch by junction kind that both solvers call.
#include "solvers/shared/junction.hpp"

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

JunctionResponse fixed_end_response(double z_left, double alpha_in, double z_right, double beta_in) {
    JunctionResponse r;
    if (z_left > 0) {  // the chain's right end: beta = -alpha, N = Z (beta - alpha)/2 = -Z alpha
        r.beta_to_left = -alpha_in;
        r.force = -z_left * alpha_in;
    } else {  // its left end: alpha = -beta, N = Z beta
        r.alpha_to_right = -beta_in;
        r.force = z_right * beta_in;
    }
    return r;
}

JunctionResponse anechoic_end_response(double z_left, double alpha_in, double z_right, double beta_in,
                                       double outside) {
    JunctionResponse r;
    if (z_left > 0) {
        r.beta_to_left = outside;
        r.velocity_left = velocity_of(alpha_in, outside);
        r.force = force_of(z_left, alpha_in, outside);
    } else {
        r.alpha_to_right = outside;
        r.velocity_right = velocity_of(outside, beta_in);
        r.force = force_of(z_right, outside, beta_in);
    }
    return r;
}

JunctionResponse loaded_end_response(LoadQuantity quantity, double value, double z_left, double alpha_in,
                                     double z_right, double beta_in) {
    JunctionResponse r;
    if (z_left > 0) {  // right end: the element on the left reads alpha_in and receives beta
        r.beta_to_left = quantity == LoadQuantity::force ? alpha_in + 2 * value / z_left : 2 * value - alpha_in;
        r.velocity_left = velocity_of(alpha_in, r.beta_to_left);
        r.force = force_of(z_left, alpha_in, r.beta_to_left);
    } else {  // left end: the element on the right reads beta_in and receives alpha
        r.alpha_to_right = quantity == LoadQuantity::force ? beta_in - 2 * value / z_right : 2 * value - beta_in;
        r.velocity_right = velocity_of(r.alpha_to_right, beta_in);
        r.force = force_of(z_right, r.alpha_to_right, beta_in);
    }
    return r;
}

JunctionResponse junction_response(JunctionKind kind, bool touching, const JunctionArrivals& in, double tolerance) {
    switch (kind) {
        case JunctionKind::free_end:
            // An open junction is two free ends; at a chain end only the existing side is read.
            return open_junction(in.alpha_in, in.beta_in);
        case JunctionKind::contact:
            return touching ? touching_junction(in.z_left, in.alpha_in, in.z_right, in.beta_in, tolerance)
                            : open_junction(in.alpha_in, in.beta_in);
        case JunctionKind::welded:
            return closed_junction(in.z_left, in.alpha_in, in.z_right, in.beta_in);
        case JunctionKind::fixed_end:
            return fixed_end_response(in.z_left, in.alpha_in, in.z_right, in.beta_in);
        case JunctionKind::wall:
            // The wall is the missing side, immobile (its arrival is 0): in compression exactly
            // when the free end would move into it.
            return touching && free_separation_velocity(in.alpha_in, in.beta_in) < -tolerance
                       ? fixed_end_response(in.z_left, in.alpha_in, in.z_right, in.beta_in)
                       : open_junction(in.alpha_in, in.beta_in);
        case JunctionKind::anechoic_end:
            return anechoic_end_response(in.z_left, in.alpha_in, in.z_right, in.beta_in, in.outside);
    }
    return open_junction(in.alpha_in, in.beta_in);
}

bool stays_touching(JunctionKind kind, const JunctionArrivals& in, double tolerance) {
    switch (kind) {
        case JunctionKind::contact:
        case JunctionKind::wall: return stays_in_contact(in.alpha_in, in.beta_in, tolerance);
        default: return false;
    }
}

JunctionResponse touching_junction(double z_left, double alpha_in, double z_right, double beta_in,
                                   double tolerance) {
    if (free_separation_velocity(alpha_in, beta_in) < -tolerance)
        return closed_junction(z_left, alpha_in, z_right, beta_in);
    return open_junction(alpha_in, beta_in);
}

}  // namespace rodcollide
