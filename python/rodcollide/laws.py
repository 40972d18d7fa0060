"""The rigid impact laws of rodcollide (docs/laws.md): the Sequential
Impact Law (Winandy & Leine), generalized Newton/Moreau, Poisson and the kinematic restitution law
of Brogliato, Zhang & Liu, applied to a chain of balls that all touch at the impact.

    rc.laws.apply("newton", masses=[1, 1, 1], velocities=[1, 0, 0], restitution=1.0)

returns a LawResult: final_velocities, impulses, contact_velocities_pre/post, energy_ratio,
consistency, cone (sequential law, three equal masses); to_dict() is `rodcollide laws --json`.
"""
import numpy as np

from . import _core
from ._core import LawResult

__all__ = ["LawResult", "apply", "names"]


def names():
    """The laws' names: sequential, newton, poisson, kinematic."""
    return list(_core.law_names())


def apply(law, masses, velocities, restitution=None, *, order=None, max_impacts=None):
    """Applies a law to pre-impact velocities u- [m/s] of balls with these masses [kg].

    restitution: newton, poisson: eps in [0, 1], one number or one per contact (default 1);
    kinematic: e (E_n = e I), one per contact (diagonal E_n) or the full (n-1) x (n-1) matrix E_n.
    order ("most-negative", "left-to-right", "right-to-left") and max_impacts: sequential law only.
    Raises ValueError with the `laws` command's messages, without the leading "--".
    """
    vector = matrix = None
    if restitution is not None:
        r = np.asarray(restitution, dtype=float)
        if r.ndim == 2:
            matrix = r
        else:
            vector = r.reshape(-1)
    return _core.apply_law(law, np.asarray(masses, dtype=float).reshape(-1),
                           np.asarray(velocities, dtype=float).reshape(-1), vector, matrix, order, max_impacts)
