"""The shipped tables against the digest's section 4, cell by cell, with their provenance."""

from __future__ import annotations

import pytest

from rulesets.fifth_frontier_war import plugin

D = "-"
T = plugin.tables()


def grid(table: str) -> list[list[object]]:
    return [list(r) for r in T.get(table).cells]


def test_t1_space_combat() -> None:
    assert grid("T1") == [
        [D, D, D, 1, 2, 3, 4, 5, 6, 7],
        [D, D, D, 2, 3, 4, 5, 6, 7, 8],
        [D, D, 1, 2, 4, 5, 6, 7, 8, 9],
        [D, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [D, 1, 2, 3, 5, 6, 7, 8, 9, 10],
        [1, 2, 3, 4, 6, 7, 8, 9, 10, 11],
    ]
    t1 = T.get("T1")
    assert list(t1.axes[1].labels) == ["1", "3", "6", "12", "18", "24", "30", "36", "42", "48"]
    assert t1.cell_provenance["2/6"].grade == "reconstructed" and "G-46" in t1.cell_provenance["2/6"].note
    assert t1.lookup(roll=4, attack=58).value == 9
    assert t1.lookup(roll=9, attack=12).value == 4  # modified rolls stay within 1..6
    assert t1.lookup(roll=1, attack=0).cell is None  # no column at or below 0


def test_t2_squadron_against_sdb() -> None:
    t2 = T.get("T2")
    assert list(t2.axes[0].labels) == [
        "1",
        "2",
        "5",
        "10",
        "12",
        "15",
        "20",
        "50",
        "1C",
        "120",
        "150",
        "2C",
        "5C",
        "1K",
        "12C",
        "15C",
        "2K",
        "5K",
    ]
    rows = grid("T2")
    assert rows[0] == [80, 90, "d", "d", "d", "d", "d", "d", "d", "d"]
    assert rows[8] == [D, 10, 20, 30, 40, 50, 60, 70, 80, 90]
    assert rows[10] == [D, D, D, 10, 20, 30, 40, 50, 60, 70]
    assert rows[16] == [D] * 9 + [10]
    assert rows[17] == [D] * 10
    for i in range(1, len(rows)):  # each row is the row above shifted one column right
        assert rows[i][1:] == rows[i - 1][:-1]
    assert t2.provenance.grade == "reconstructed" and t2.provenance.confidence == "high"
    assert t2.lookup(sdb=300, bombard=12).labels["sdb"] == "2C"  # G-13 largest row <= strength


def test_t3_sdb_against_squadron() -> None:
    rows = grid("T3")
    for r, row in zip(range(-2, 9), rows):
        for c, cell in enumerate(row):
            value = max(0, r - 3 + c)
            assert cell == (value if value else D)
    assert T.get("T3").lookup(roll=0, sdb=9).cell is None  # G-12 below 10: no column


def test_t4_surface_bombing() -> None:
    assert grid("T4") == [
        [20, 30, 30, 40, 40, 50, 50, 50, 50, 50],
        [20, 20, 30, 30, 40, 40, 50, 50, 50, 50],
        [10, 20, 20, 30, 30, 40, 40, 50, 50, 50],
        [10, 10, 20, 20, 30, 30, 40, 40, 50, 50],
        [D, 10, 10, 20, 20, 30, 30, 40, 40, 50],
        [D, D, 10, 10, 20, 20, 30, 30, 40, 40],
        [D, D, D, 10, 10, 20, 20, 30, 30, 40],
        [D, D, D, D, 10, 10, 20, 20, 30, 30],
        [D, D, D, D, D, 10, 10, 20, 20, 30],
        [D, D, D, D, D, D, 10, 10, 20, 20],
        [D, D, D, D, D, D, D, 10, 10, 20],
    ]


def test_t5_troop_combat() -> None:
    t5 = T.get("T5")
    assert list(t5.axes[1].labels) == [
        "1:100",
        "1:10",
        "1:5",
        "1:3",
        "1:2",
        "1:1½",
        "1:1",
        "1½:1",
        "2:1",
        "3:1",
        "5:1",
        "10:1",
        "100:1",
    ]
    assert grid("T5") == [
        [D, 10, 10, 20, 30, 40, 50, 60, 70, 90, "d", "d", "d"],
        [D, D, 10, 10, 20, 30, 40, 50, 60, 80, 90, "d", "d"],
        [D, D, D, 10, 10, 20, 30, 40, 50, 70, 90, "d", "d"],
        [D, D, D, D, 10, 10, 20, 30, 40, 60, 90, "d", "d"],
        [D, D, D, D, D, 10, 10, 20, 30, 50, 80, "d", "d"],
        [D, D, D, D, D, D, 10, 10, 20, 40, 70, 90, "d"],
        [D, D, D, D, D, D, D, 10, 10, 30, 60, 80, "d"],
        [D, D, D, D, D, D, D, D, 10, 20, 50, 70, "d"],
        [D, D, D, D, D, D, D, D, D, 10, 40, 60, "d"],
        [D, D, D, D, D, D, D, D, D, 10, 30, 50, 90],
        [D, D, D, D, D, D, D, D, D, D, 20, 40, 80],
    ]
    assert t5.lookup(roll=2, odds=(1, 500)).labels["odds"] == "1:100"  # the 1:100 floor
    assert t5.lookup(roll=0, odds=(1, 1)).labels["roll"] == "2"  # below 2 counts as 2
    assert t5.lookup(roll=7, odds=(5, 20)).labels["odds"] == "1:5"  # 1:4 rounds down
    assert t5.lookup(roll=7, odds=(3, 2)).labels["odds"] == "1½:1"
    assert t5.lookup(roll=7, odds=(1, 1), shifts={"odds": 20}).labels["odds"] == "100:1"
    assert t5.lookup(roll=7, odds=(1, 1), shifts={"odds": -20}).labels["odds"] == "1:100"


DIGEST_T6 = {  # full: [90%, 80%, ..., 10%] as printed (bold cells repaired)
    1: [0, 0, 0, 0, 1, 1, 1, 1, 1],
    2: [0, 0, 1, 1, 1, 1, 1, 2, 2],
    3: [0, 1, 1, 1, 2, 2, 2, 2, 3],
    5: [1, 1, 2, 2, 3, 3, 4, 4, 5],
    10: [1, 2, 3, 4, 5, 6, 7, 8, 9],
    12: [1, 2, 4, 5, 6, 7, 8, 10, 11],
    15: [2, 3, 5, 6, 8, 9, 11, 12, 14],
    20: [2, 4, 6, 8, 10, 12, 14, 16, 18],
    30: [3, 6, 9, 12, 15, 18, 21, 24, 27],
    50: [5, 10, 15, 20, 25, 30, 35, 40, 45],
    100: [10, 20, 30, 40, 50, 60, 70, 80, 90],
    120: [12, 24, 36, 48, 60, 72, 84, 96, 108],
    150: [15, 30, 45, 60, 75, 90, 105, 120, 135],
    200: [20, 40, 60, 80, 100, 120, 140, 160, 180],
    300: [30, 60, 90, 120, 150, 180, 210, 240, 270],
    500: [50, 100, 150, 200, 250, 300, 350, 400, 450],
    1000: [100, 200, 300, 400, 500, 600, 700, 800, 900],
    1200: [120, 240, 360, 480, 600, 720, 840, 960, 1080],
    1500: [150, 300, 450, 600, 750, 900, 1050, 1200, 1350],
    2000: [200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800],
    3000: [300, 600, 900, 1200, 1500, 1800, 2100, 2400, 2700],
    5000: [500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500],
    20000: [2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000],
    150000: [15000, 30000, 45000, 60000, 75000, 90000, 105000, 120000, 135000],
}


def test_t6_percentage_loss() -> None:
    t6 = T.get("T6")
    for full, row in DIGEST_T6.items():
        for loss, value in zip(range(90, 0, -10), row):
            assert t6.lookup(full=full, loss=loss).value == value, (full, loss)
    assert len(t6.cell_provenance) == 7


def test_t7_t8_modifiers() -> None:
    t7 = T.get("T7")
    expected = {0: -3, 8: -3, 9: -2, 10: -2, 11: -1, 12: -1, 13: 0, 14: 0, 15: 2, 16: 2}
    assert {tl: t7.lookup(tl=tl).value for tl in expected} == expected
    assert t7.provenance.grade == "external" and "G-03" in t7.provenance.note
    t8 = T.get("T8")
    assert [t8.lookup(atmosphere=a).value for a in ("breathable", "tainted", "vacuum")] == [0, -1, -2]


def test_t9_quality() -> None:
    t9 = T.get("T9")
    shifts = {
        (f, t): t9.lookup(firing=f, target=t).value for f in t9.axes[0].labels for t in t9.axes[1].labels
    }
    nonzero = {k: v for k, v in shifts.items() if v}
    assert nonzero == {
        ("imperial_standard", "zhodani_standard"): 1,
        ("imperial_standard", "zhodani_low"): 2,
        ("imperial_low", "zhodani_low"): 1,
        ("zhodani_standard", "imperial_low"): 1,
    }


def test_t10_t11_t13_fuel_and_capacity() -> None:
    assert grid("T10") == [[0, 0, 1], [0, 1, 1], ["special"] * 3, [0, 0, 0]]
    assert [r[1] for r in grid("T11")] == [4, 3, 2, 1, 0, 0]
    assert [r[2] for r in grid("T11")] == [True, True, True, True, False, False]
    assert grid("T13") == [
        ["Assault carrier", 600, 300],
        ["Battle", 20, 10],
        ["Cruiser", "defense", "defense"],
        ["Scout", 0, 0],
        ["Tanker", 0, 0],
    ]


def test_t14_to_t17() -> None:
    assert [r[1] for r in grid("T14")] == ["1 or 2", "5", "10", "20", "50-1C", "5C"]
    assert [r[0] for r in grid("T15")] == [False, True, False, True, True, False, False, False]
    assert T.get("T16").cells == [100, 1000]
    assert grid("T17") == [[5, 0], [4, 0], [5, 0], [5, 0]]


def test_t18_imperial_reinforcements() -> None:
    assert grid("T18") == [[0, 5, 1], [1, 4, 0], [2, 3, 0], [3, 2, 0], [4, 1, 0], [1, 0, 1]]


@pytest.mark.parametrize(
    ("turn", "sq", "tr"),
    [
        (0, 0, 3),
        (1, 0, 0),
        (5, 0, 0),
        (6, 3, 3),
        (9, 3, 3),
        (10, 2, 1),
        (20, 2, 1),
        (21, 0, 0),
        (29, 0, 0),
        (30, 3, 3),
        (80, 3, 3),
    ],
)
def test_t19_imperial_replacements(turn: int, sq: int, tr: int) -> None:
    t = T.get("T19")
    assert (t.lookup(turn=turn, type="squadron").value, t.lookup(turn=turn, type="troop").value) == (sq, tr)


@pytest.mark.parametrize(
    ("turn", "sq", "tr"),
    [(0, 30, 10), (1, 0, 0), (10, 15, 5), (11, 0, 0), (20, 15, 5), (39, 0, 0), (40, 2, 1), (99, 2, 1)],
)
def test_t20_zhodani_replacements(turn: int, sq: int, tr: int) -> None:
    t = T.get("T20")
    assert (t.lookup(turn=turn, type="squadron").value, t.lookup(turn=turn, type="troop").value) == (sq, tr)


def test_t21_to_t25() -> None:
    t21 = T.get("T21")
    bands = {
        -301: "Imperial automatic victory",
        -201: "Imperial decisive victory",
        -101: "Imperial major victory",
        -51: "Imperial marginal victory",
        -50: "stalemate",
        50: "stalemate",
        51: "Zhodani marginal victory",
        101: "Zhodani major victory",
        201: "Zhodani decisive victory",
        301: "Zhodani automatic victory",
    }
    assert {d: t21.lookup(d=d).value for d in bands} == bands
    t22 = T.get("T22")
    assert [t22.lookup(box=b, item="hex").value for b in t22.axes[0].labels] == [
        "3218",
        "2822",
        "1627",
        "0708",
        "0708",
    ]
    assert t22.cell_provenance["imp_reinf/hex"].grade == "external"
    assert len(T.get("T23").cells) == 11
    t24 = T.get("T24")
    assert [t24.lookup(roll=r).value for r in range(1, 7)] == ["discovered"] * 4 + ["no effect"] * 2
    assert T.get("T25").cells == ["0708", "1018", "1627", "1510", "1520", "2123", "2314", "3120"]


def test_every_table_has_a_digest_alias_and_provenance() -> None:
    aliases = {a for t in T for a in t.aliases}
    assert {f"T{n}" for n in range(1, 26)} <= aliases
    for t in T:
        assert t.provenance.note or t.provenance.grade == "rulebook"


def test_t2_top_and_bottom_edges() -> None:
    t2 = T.get("T2")
    assert t2.lookup(sdb=1, bombard=1, shifts={"sdb": -3}).labels["sdb"] == "1"  # past row 1: clamp
    assert t2.lookup(sdb=5000, bombard=48, shifts={"sdb": 2}).cell is None  # past 5K: no effect
