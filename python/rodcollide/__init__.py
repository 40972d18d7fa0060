"""rodcollide from Python: collisions of thin elastic rods, solved exactly, and compared with
rigid-body impact laws (docs/python.md).

    import rodcollide as rc
    case = rc.load_case("cases/seed000_three_rods.toml")
    out = rc.run(case)                      # keyword solver options as in [solver]
    out.final_velocities                    # array([-1., 0., 2.])
    out.to_dict()                           # == `rodcollide run --json`

Bad input raises CaseError (a ValueError) with the CLI's one-line message "FILE:LINE: KEY: message".
FILE is the path for case files, "<dict>" for Case(...), the `name` given to parse_case, and
"<kwargs>" for keyword solver options (LINE is then the position of the keyword among them).
Solves release the GIL; Ctrl-C interrupts a long run (KeyboardInterrupt).
"""
import functools
import os
from collections.abc import Iterator

import numpy as np

from . import _core, _toml, laws
from ._core import CaseError, Ensemble, ForceHistory, GaugeSignal, Outcome, SolverLimitExceeded, Sweep

__version__ = _core.__version__
__all__ = ["Case", "CaseError", "Ensemble", "Field", "ForceHistory", "GaugeSignal", "Outcome", "SolverLimitExceeded",
           "Sweep", "compare", "ensemble", "field", "laws", "load_case", "merge_ensembles", "parse_case", "run", "sweep"]

_DICT = "<dict>"  # FILE in the messages about a Case(...)
_SOLVER_KEYS = _core.solver_option_keys  # the [solver] keys, from the C++ option table


class Case:
    """A validated collision case: a chain of rods, left to right, and its [solver] options.

    Case(rods=[dict(length=1, area=1, density=1, youngs_modulus=1, velocity=2), ...],
         title=..., defaults=dict(...), solver=dict(method=..., ...),
         left=dict(kind="wall", gap=...), right=dict(...), load=[dict(end=..., ...)], gauge=[dict(rod=..., x=...)])
    takes the keys of a case file (docs/case_file.md), a rod's [[rod.segment]]
    tables as segment=[dict(length=...), ...]; `rod=` is accepted for `rods=`, so
    Case(**tomllib.load(f)) works too. A value of None counts as not given. The values are
    written as TOML and read by the library's case reader, so every check and message is the
    case file's, with FILE "<dict>"; LINE is a line of that TOML text, which the CaseError
    carries as its attribute .toml.
    """

    __slots__ = ("_core",)

    def __init__(self, rods=None, **tables):
        if "rod" in tables:
            if rods is not None:
                raise TypeError("Case: give the rods as rods= or rod=, not both")
            rods = tables.pop("rod")
        if isinstance(rods, Iterator):  # rods=(dict(...) for ...)
            rods = list(rods)
        if tables.keys() <= {"title"}:  # rods of plain numbers: no TOML round trip (see _core.plain_case)
            core = _core.plain_case(rods, tables.get("title"), _DICT)
            if core is not None:
                self._core = core
                return
        # In a case file's usual order: title, [defaults], [[rod]], [solver], anything else.
        ordered = {key: tables.pop(key) for key in ("title", "defaults") if key in tables}
        ordered["rod"] = rods
        text = _toml.case_text({**ordered, **tables})
        try:
            self._core = _core.parse_case(text, _DICT)
        except CaseError as e:
            e.toml = text
            raise

    @classmethod
    def _wrap(cls, core):
        case = cls.__new__(cls)
        case._core = core
        return case

    @property
    def title(self):
        return self._core.title

    @property
    def path(self):
        """The case file, or the name standing for it: "<dict>", parse_case's name."""
        return self._core.path

    @property
    def rods(self):
        """Each rod's length, area, density, youngs_modulus, velocity and gap, defaults applied."""
        return self._core.rods

    @property
    def segments(self):
        """Per rod, its [[rod.segment]] tables left to right (length, area, density, youngs_modulus,
        the rod's keys and [defaults] filled in); [] for a uniform rod (its values are in rods)."""
        return self._core.segments

    @property
    def ends(self):
        """The chain's ends as their tables: {"left": {"kind": ...}, "right": {...}}; a wall has
        its "gap" too. Kinds: "free" (the default), "fixed", "wall", "anechoic"."""
        return self._core.ends

    @property
    def loads(self):
        """The [[load]] tables as points: end, quantity ("force" [N] or "velocity" [m/s]), and
        numpy arrays time [s] and value, piecewise linear (a shape or a file read into points)."""
        return self._core.loads

    @property
    def gauges(self):
        """The [[gauge]] stations: rod (index from 0), x [m from its left end], name."""
        return self._core.gauges

    @property
    def masses(self):
        """m = rho A L per rod [kg]."""
        return self._core.masses

    @property
    def initial_velocities(self):
        """u- per rod [m/s]."""
        return self._core.initial_velocities

    @property
    def total_length(self):
        """Sum of the rods' lengths [m]: field() takes x in [0, total_length]."""
        return self._core.total_length

    @property
    def solver(self):
        """The [solver] options (None: not set, the solver's default)."""
        options = self._core.solver
        return {key: getattr(options, key) for key in _SOLVER_KEYS}

    def with_solver(self, **solver):
        """The same chain with these [solver] options changed (checked as in a case file)."""
        options = _solver_options(self, solver)
        return self if options is None else Case._wrap(self._core.with_solver(options))

    def __repr__(self):
        return f"<rodcollide.Case {self.title!r}: {len(self.rods)} rods>"


def load_case(path):
    """Reads and validates a case file (TOML). Raises CaseError."""
    return Case._wrap(_core.load_case(os.fspath(path)))


def parse_case(text, name="<string>"):
    """Reads and validates case-file text; `name` stands for the file in messages. Raises CaseError."""
    return Case._wrap(_core.parse_case(text, name))


def _as_case(case):
    if isinstance(case, Case):
        return case
    if isinstance(case, (str, os.PathLike)):
        return load_case(case)
    raise TypeError(f"expected a rodcollide.Case or a case file path, got {type(case).__name__}")


def _solver_options(case, solver):
    """The case's solver options with keyword overrides, checked by the case reader (FILE
    "<kwargs>"); None when there is nothing to override."""
    given = tuple((k, v) for k, v in solver.items() if v is not None)
    if not given:
        return None
    try:
        parsed = _parsed_solver_keywords(tuple((k, type(v), v) for k, v in given))
    except TypeError:  # an unhashable value: nothing to cache
        parsed = _parse_solver_keywords(given)
    options = case._core.solver
    for key, value in parsed.items():
        setattr(options, key, value)
    return options


def _parse_solver_keywords(given):
    parsed = _core.parse_case(_toml.solver_keywords_text(dict(given)), "<kwargs>").solver
    return {key: getattr(parsed, key) for key, _ in given}


@functools.lru_cache(maxsize=256)
def _parsed_solver_keywords(typed):
    """Parsed keyword options, remembered: parsing costs ~0.1 ms (toml11), more than a solve, and
    loops repeat the same keywords. Keyed with the values' types (1 and 1.0 differ for cells)."""
    return _parse_solver_keywords(tuple((k, v) for k, _, v in typed))


def run(case, *, samples=None, **solver):
    """Solves the case and returns its Outcome (to_dict() == `rodcollide run --json`, with
    `--samples N` for samples=N).

    samples: points per gauge signal and per force history, 2 to 100000; force histories are
    recorded when it is given or the case has gauges or ends that are not free (then 1000 points
    by default), as the CLI does; Outcome.contact_forces() reads them on the grid of
    `run --contact-forces --samples N`. Keyword arguments override the case's [solver] table, with its
    names: method ("characteristics" or "finite-difference"), end_time, record_until,
    drop_tolerance, max_events, max_fronts, cells, time_resolution, rounding_check, accuracy, max_memory (MB),
    max_work (event groups).
    Raises CaseError for bad options,
    SolverLimitExceeded when a cap is reached, ValueError for a bad `samples`, a finite-difference
    resolution beyond the limits or a feature that method does not carry.
    """
    c = _as_case(case)
    return _core.run(c._core, _solver_options(c, solver), samples)


def compare(case, *, laws=None, restitution=None, properties=True, **solver):
    """Compares the wave outcome with the rigid impact laws: the `rodcollide compare --json`
    document as a dict. laws: names (default all four); restitution: eps for newton and poisson,
    E_n = e I for kinematic; properties=False skips sampling the wave map's properties."""
    c = _as_case(case)
    if isinstance(laws, str):
        laws = [laws]
    return _core.compare(c._core, _solver_options(c, solver), None if laws is None else list(laws), restitution,
                         properties)


def sweep(case, directions=360, *, laws=None, restitution=None, shard=(1, 1), threads=0, linear_tolerance=None,
          **solver):
    """Maps the wave impact law of a three-rod case over `directions` directions of gamma- (as
    `rodcollide sweep`). Returns a Sweep: theta [deg], gamma_pre, gamma_post (N x 2), cones,
    errors (per law, against the wave map), law_gamma_post; to_dict() is `sweep --json`."""
    c = _as_case(case)
    if isinstance(laws, str):
        laws = [laws]
    return _core.sweep(c._core, _solver_options(c, solver), directions, None if laws is None else list(laws),
                       restitution, tuple(shard), threads, linear_tolerance)


def _perturbation_keys(p):
    """One perturbation dict as the keys of an [[ensemble.perturb]] table on one line (as --perturb)."""
    if not isinstance(p, dict):
        raise TypeError(f"a perturbation is a dict of [[ensemble.perturb]] keys, not {type(p).__name__} ({p!r})")
    return ", ".join(f"{_toml._key(k)} = {_toml.value(x)}" for k, x in p.items() if x is not None)


def ensemble(case, members=None, perturb=None, *, seed=None, shard=(1, 1), threads=0, **solver):
    """Solves the case for `members` members with perturbed rods (as `rodcollide ensemble`,
    docs/ensemble.md). perturb: a dict of [[ensemble.perturb]] keys, or a list of them, e.g.
    dict(key="velocity", rods=[0], relative=0.01, distribution="normal"); None: the case's
    [ensemble] table (members and seed too, unless given). shard=(k, n): only the k-th of n blocks
    of members. Member k's draws depend on (seed, k) only: any split gives the same members.
    Returns an Ensemble: final_velocities (members x rods), perturbed (members x columns), settled,
    ...; to_dict() is `ensemble --json`, to_csv() `--csv`. Pickles as its members' numbers."""
    c = _as_case(case)
    if isinstance(perturb, dict):
        perturb = [perturb]
    keys = None if perturb is None else [_perturbation_keys(p) for p in perturb]
    return _core.ensemble(c._core, _solver_options(c, solver), members, seed, keys, tuple(shard), threads)


def merge_ensembles(parts):
    """Joins the shards 1..n of one ensemble (Ensemble objects, in any order) into the whole, as
    `rodcollide merge`: identical to a single run. Raises ValueError for parts that do not belong
    together (another case, seed, member or shard count; a shard missing or given twice)."""
    return _core.merge_ensembles(list(parts))


class Field:
    """The exact wave field at points (x, t): velocity [m/s], strain [-] (negative in compression),
    force N = E A u_x [N] (positive in tension) and the rod holding each point, as arrays of the
    broadcast shape of x and t."""

    __slots__ = ("x", "t", "velocity", "strain", "force", "rod")

    def __init__(self, x, t, velocity, strain, force, rod):
        self.x, self.t, self.velocity, self.strain, self.force, self.rod = x, t, velocity, strain, force, rod

    def __repr__(self):
        return f"<rodcollide.Field at {self.velocity.size} points, shape {self.velocity.shape}>"


def field(case, x, t, **solver):
    """The exact field (characteristics solver) at material coordinates x [m] along the rods laid
    end to end (gaps not counted; at a rod boundary the right rod) and times t [s] >= 0; x and t
    broadcast against each other (x[None, :], t[:, None] gives a t-x grid)."""
    c = _as_case(case)
    xb, tb = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(t, dtype=float))
    velocity, strain, force, rod = _core.field(c._core, _solver_options(c, solver), xb.ravel(), tb.ravel())
    shape = xb.shape
    return Field(xb.copy(), tb.copy(), velocity.reshape(shape), strain.reshape(shape), force.reshape(shape),
                 rod.reshape(shape))
