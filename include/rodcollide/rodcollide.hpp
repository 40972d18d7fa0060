// rodcollide's public API, in the order of its pipeline: case file -> Chain -> solver -> Outcome
// -> report, comparison with the rigid laws, sweep, validation, figure. Include this, or only the
// headers you use; everything here is installed (`cmake --install`), the rest of the library is
// private to it (src/<stage>/).
#pragma once

// Errors and output files
#include "rodcollide/errors.hpp"       // InvalidInput, InputError, InvalidResolution, InvariantViolation
#include "rodcollide/output_file.hpp"  // checked output targets, atomic writes

// The model
#include "rodcollide/chain.hpp"            // Rod, Chain: the validated model
#include "rodcollide/chain_ends.hpp"       // free, fixed, wall and anechoic ends; loads
#include "rodcollide/elements.hpp"         // the layout the solvers run on (Chain::elements())
#include "rodcollide/gauge.hpp"            // gauge stations
#include "rodcollide/impact_matrices.hpp"  // M, W, G of a chain
#include "rodcollide/solver_options.hpp"   // method, horizon, caps, resolution
#include "rodcollide/solver_option_table.hpp"  // every [solver] option: key, type, default, range, help
#include "rodcollide/case_key_table.hpp"       // every other case key: table, type, default, range, help
#include "rodcollide/ensemble_spec.hpp"        // an ensemble's perturbations, member k's draws

// Reading a case
#include "rodcollide/case_file.hpp"  // load_case(): TOML -> Case

// Solving
#include "rodcollide/field_samples.hpp"  // x-t field samples and their CSV
#include "rodcollide/gauge_signals.hpp"  // gauge signals and their CSV
#include "rodcollide/outcome.hpp"        // final velocities, impulses, energies, accuracy
#include "rodcollide/contact_forces.hpp"  // contact, wall and end forces on one grid (run --contact-forces)
#include "rodcollide/solve.hpp"          // solve(), solve_with_field(), solve_with_gauges(), exact_field_at()

// Reports
#include "rodcollide/outcome_report.hpp"  // the run table and JSON

// Analysis
#include "rodcollide/compare.hpp"          // the wave outcome against the rigid laws
#include "rodcollide/laws/identified.hpp"  // a law identified from waves (sweep --export-law)
#include "rodcollide/laws/law.hpp"         // the rigid impact laws, by name
#include "rodcollide/laws/law_result.hpp"  // a law's u+, impulses and energies
#include "rodcollide/laws/properties.hpp"  // consistency, energy, cones
#include "rodcollide/laws/report.hpp"      // `rodcollide laws` table and JSON
#include "rodcollide/laws/sequential.hpp"  // the sequential impact law
#include "rodcollide/sweep.hpp"            // impact-map sweeps of three-rod chains
#include "rodcollide/cone_sweep.hpp"       // impact maps of n >= 3 bodies, their cones
#include "rodcollide/ensemble.hpp"         // ensembles of perturbed cases, their statistics, shards

// Validation
#include "rodcollide/validation.hpp"  // the validation suite

// Figures
#include "rodcollide/figures.hpp"  // diagrams and plots with gnuplot
