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

JunctionResponse fixed_end_response(const ChainEndArrival& end) {
    JunctionResponse r;
    if (end.side == ChainSide::right) {  // beta = -alpha, N = Z (beta - alpha)/2 = -Z alpha
        r.beta_to_left = -end.incoming;
        r.force = -end.z * end.incoming;
    } else {  // alpha = -beta, N = Z beta
        r.alpha_to_right = -end.incoming;
        r.force = end.z * end.incoming;
    }
    return r;
}

JunctionResponse anechoic_end_response(const ChainEndArrival& end, double outside) {
    JunctionResponse r;
    if (end.side == ChainSide::right) {
        r.beta_to_left = outside;
        r.velocity_left = velocity_of(end.incoming, outside);
        r.force = force_of(end.z, end.incoming, outside);
    } else {
        r.alpha_to_right = outside;
        r.velocity_right = velocity_of(outside, end.incoming);
        r.force = force_of(end.z, outside, end.incoming);
    }
    return r;
}

JunctionResponse loaded_end_response(LoadQuantity quantity, double value, const ChainEndArrival& end) {
    const double z = end.z, incoming = end.incoming;
    JunctionResponse r;
    if (end.side == ChainSide::right) {  // the element on the left reads alpha and receives beta
        r.beta_to_left = quantity == LoadQuantity::force ? incoming + 2 * value / z : 2 * value - incoming;
        r.velocity_left = velocity_of(incoming, r.beta_to_left);
        r.force = force_of(z, incoming, r.beta_to_left);
    } else {  // the element on the right reads beta and receives alpha
        r.alpha_to_right = quantity == LoadQuantity::force ? incoming - 2 * value / z : 2 * value - incoming;
        r.velocity_right = velocity_of(r.alpha_to_right, incoming);
        r.force = force_of(z, r.alpha_to_right, incoming);
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
            return fixed_end_response(chain_end_arrival(in));
        case JunctionKind::wall:
            // The wall is the missing side, immobile (its arrival is 0): in compression exactly
            // when the free end would move into it.
            return touching && free_separation_velocity(in.alpha_in, in.beta_in) < -tolerance
                       ? fixed_end_response(chain_end_arrival(in))
                       : open_junction(in.alpha_in, in.beta_in);
        case JunctionKind::anechoic_end:
            return anechoic_end_response(chain_end_arrival(in), in.outside);
        case JunctionKind::attached_end:
            // Its force is the spring/dashpot ODE's (contact_law.hpp), which the solver integrates;
            // with no force the end is free.
            return open_junction(in.alpha_in, in.beta_in);
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
