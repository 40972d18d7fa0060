// The force of every contact, wall and spring/dashpot end of an outcome on one time grid: what
// `rodcollide run --contact-forces FILE.csv` writes and what Python's Outcome.contact_forces()
// returns (docs/cli.md, docs/python.md). One function computes the samples for both.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace rodcollide {

/// Forces sampled on one grid: column k is names[k] (contact_K between rods K and K+1, then
/// left_wall / right_wall, left_end / right_end for spring/dashpot ends), force[k][i] its force at
/// time[i] [N], positive in tension (a contact or wall is <= 0: it never pulls).
struct ContactForceSamples {
    std::vector<double> time;                ///< [s], increasing, in [0, end_time]
    std::vector<std::string> names;          ///< one per column, as the CSV header names them
    std::vector<std::vector<double>> force;  ///< force[column][time index] [N]
};

/// Whether `chain` has anything run --contact-forces reports: a contact, a wall or a spring/dashpot end.
bool has_contact_forces(const Chain& chain);

/// The outcome's recorded force histories (Outcome::contacts[k].force_history,
/// EndOutcome::force_history: solve with SolverOptions::force_samples >= `samples`) at `samples`
/// equally spaced times over [0, end_time] and at every closing and opening (the contacts' and
/// walls' interval ends up to end_time); each history holds its value from each of its times on.
/// @throws InvalidInput ("samples") for samples outside [2, largest_samples].
ContactForceSamples sample_contact_forces(const Outcome& outcome, std::size_t samples);

/// The samples as CSV: a header "time,NAME,...", then one row per time, every number in 17
/// significant digits (round-trips).
std::string contact_forces_csv(const ContactForceSamples& samples);

}  // namespace rodcollide
