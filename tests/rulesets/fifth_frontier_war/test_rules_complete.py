"""Issue 16 ("The rules, complete"), Fifth Frontier War points: each test failed before its fix."""

from __future__ import annotations

from fractions import Fraction

from rulesets.fifth_frontier_war import formulas as F
from rulesets.fifth_frontier_war import plugin
from rulesets.fifth_frontier_war.procedures import PROCEDURES
from tests.rulesets.fifth_frontier_war.helpers import resolver

PROCS = {p.id: p for p in PROCEDURES}


# -- T21 / 5.22 / G-28 -------------------------------------------------------------------------
def test_t21_reads_every_half_point_as_g28_truncates_it() -> None:
    """The table itself (``table ... victory d=50.5``) gives what the procedure gives."""
    t21 = plugin.tables().get("T21")
    for twice in range(-800, 801):
        d = Fraction(twice, 2)
        assert t21.lookup(d=d).value == t21.lookup(d=F.victory_d(d)).value, d
    assert t21.lookup(d=Fraction(101, 2)).value == "stalemate"
    assert t21.lookup(d=Fraction(-601, 2)).value == "Imperial decisive victory"


def test_t21_explains_minus_100_and_a_half_as_written() -> None:
    look = plugin.tables().get("T21").lookup(d=Fraction(-201, 2))
    assert "-100½ -> -100 to -51" in look.explanation[0]


def test_calc_explains_each_table_lookup_once() -> None:
    r = resolver()
    calc = PROCS["victory_level"].fn(r, d="-100.5")
    lines = [*r.lines, *calc.lines]
    assert sum(line.startswith("Victory Table:") for line in lines) == 1
    r = resolver(3)
    calc = PROCS["squadrons_vs_sdb"].fn(r, bombard="40", sdb_full=100, sdb_tl=13)
    lines = [*r.lines, *calc.lines]
    assert sum(line.startswith("Squadron Against SDB") for line in lines) == 1
