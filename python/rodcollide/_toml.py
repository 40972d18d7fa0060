"""Cases given as Python values, written as case-file TOML (docs/python.md).

A case built from dicts goes through the same input layer as a case file (parse_case), so it is
checked key by key with the same one-line messages. This module only writes the values down:
numbers, strings, booleans, lists and dicts map to their TOML counterparts, and a key whose value
is None is left out (as if it were not given). The checks are the parser's, not made here.
"""
import math
import numbers
import re
from collections.abc import Mapping

import numpy as np

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

# Rods of the placeholder chain that carries keyword solver options through parse_case.
_PLACEHOLDER_RODS = """
[defaults]
length = 1
area = 1
density = 1
youngs_modulus = 1
[[rod]]
[[rod]]
"""


def _string(s):
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _key(k):
    k = str(k)
    return k if _BARE_KEY.fullmatch(k) else _string(k)


def _is_table(v):
    return isinstance(v, Mapping)


def _is_table_array(v):
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, Mapping) for x in v)


def value(v):
    """One value as TOML (inline tables and arrays for nested values)."""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        x = float(v)
        return repr(x) if math.isfinite(x) else ("nan" if math.isnan(x) else ("inf" if x > 0 else "-inf"))
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {value(x)}" for k, x in v.items() if x is not None) + "}"
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"a case holds numbers, strings, booleans, lists and dicts, not {type(v).__name__} ({v!r})")


def _table_body(lines, table, header=()):
    """A table's keys: plain values first, then a list of dicts inside it as [[header.key]] tables
    (a rod's [[rod.segment]]s), each on its own lines, so a message's LINE points at one of them."""
    for k, x in table.items():
        if x is not None and not (header and _is_table_array(x)):
            lines.append(f"{_key(k)} = {value(x)}")
    for k, x in table.items():
        if header and _is_table_array(x):
            for item in x:
                lines.append(f"[[{'.'.join(_key(h) for h in (*header, k))}]]")
                _table_body(lines, item)  # deeper lists of dicts stay inline: no case key has them


def case_text(tables):
    """A case file's text from its top-level keys (title, defaults, rod, solver, ...). Plain values
    come first, then the tables in the order given; a list of dicts becomes [[name]] tables, and a
    list of dicts inside one of those [[name.key]] tables."""
    lines = []
    for k, x in tables.items():
        if x is not None and not _is_table(x) and not _is_table_array(x):
            lines.append(f"{_key(k)} = {value(x)}")
    for k, x in tables.items():
        if _is_table(x):
            lines.append(f"[{_key(k)}]")
            _table_body(lines, x)
        elif _is_table_array(x):
            for item in x:
                lines.append(f"[[{_key(k)}]]")
                _table_body(lines, item, (k,))
    return "\n".join(lines) + "\n"


def solver_keywords_text(solver):
    """Keyword solver options as a case whose line k holds the k-th keyword (`solver.KEY = value`),
    on a placeholder chain: parsing it checks the options exactly as a [solver] table."""
    lines = [f"solver.{_key(k)} = {value(x)}" for k, x in solver.items() if x is not None]
    return "\n".join(lines) + "\n" + _PLACEHOLDER_RODS
