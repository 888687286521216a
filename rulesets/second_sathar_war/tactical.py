"""The Knight Hawks tactical dice helper (digest 5.14): the parts the seed prints.

The battles themselves are fought on the Knight Hawks map, outside this program; these
functions resolve single rolls for the resolve dialog, the battle steps (logged through the
action context) and ``campaign-tui calc``. Plain functions do the arithmetic; the
``*_proc`` functions roll through a resolver and explain every number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import field

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, Resolver
from campaign_tui.core.records import record

from .dice_util import percent, roll_dice, tag_table
from .dice_util import roll as roll_die

LASERS = ("LC", "LB")
FORWARD = ("LC", "DC", "AR")  # FF weapons (T3)
DIFFUSING = ("LC", "LB", "PB", "EB", "DC")  # RD weapons
MOVER_ONLY = ("T", "AR")  # MPO weapons
RANGES = {"LC": 10, "LB": 9, "PB": 12, "EB": 12, "DC": 9, "T": 4, "AR": 4, "RB": 3, "M": 0}
DTM = {
    "LC": 0,
    "LB": 0,
    "PB": 10,
    "EB": 10,
    "DC": 20,
    "AR": -10,
    "RB": -10,
    "T": -20,
    "M": -20,
    "S": -20,
    "SD": -20,
    "fire": 20,
}
HDR = {
    "LC": "2d10",
    "LB": "1d10",
    "PB": "1d10",
    "EB": "1d10",
    "DC": "3d10",
    "T": "4d10",
    "AR": "2d10+4",
    "RB": "2d10",
    "M": "3d10+5",
    "S": "5d10",
    "SD": "5d10",
    "fire": "1d10",
}
SCREENS = ("PS", "ES", "SS")
DEFENCE_COLUMNS = ("None", "RH", "PS", "ES", "SS", "MS")


# -- a) to-hit -------------------------------------------------------------------------------
def cell_value(cell: object) -> tuple[int, bool]:
    """A Combat Table cell as (chance, half damage on hull hits)."""
    text = str(cell).strip()
    half = text.endswith("*")
    try:
        return int(text.rstrip("*")), half
    except ValueError:
        raise InvalidInput(f"the Combat Table has no chance here ({text})") from None


def defence_column(
    row: Mapping[str, object], weapon: str, defences: Sequence[str], attacker_masked: bool = False
) -> tuple[str, str]:
    """The Combat Table column a shot uses, and why.

    *defences* are the target's defences in use: RH, MS (a screen up), one of PS/ES/SS.
    A laser fired out of a masking screen uses the MS column. A defence that attracts the
    weapon (a value above the weapon's None value) is used before the most effective one.
    """
    if weapon in LASERS and attacker_masked:
        return "MS", "laser fired out of a masking screen"
    active = [d for d in defences if d in ("RH", "MS", *SCREENS)]
    if not active:
        return "None", "the target has no defence in use"
    base = cell_value(row["None"])[0]
    attract = [c for c in active if cell_value(row[c])[0] > base]
    if attract:
        col = max(attract, key=lambda c: cell_value(row[c])[0])
        return col, f"{col} attracts the {weapon}"
    col = min(active, key=lambda c: cell_value(row[c])[0])
    return col, f"{col} is the most effective defence in use"


@record
class ShotInputs:
    weapon: str
    base: int
    range_hexes: int = 0
    ccs_hit: bool = False
    disastrous_fire: bool = False
    icms: int = 0
    icm_mod: int = 0
    head_on: bool = False
    evading_mr: int = 0
    power_short: bool = False
    disastrous_rule: str = "stack"
    lines: list[str] = field(default_factory=list)


def hit_chance(s: ShotInputs) -> tuple[int, list[str]]:
    """The modified chance to hit (5.14a) with one line per modifier."""
    p = s.base
    lines = [f"base {s.base}% ({s.weapon})"]
    if s.head_on and s.weapon in FORWARD:
        p += 10
        lines.append("+10 head-on (forward-firing weapon, centre of the arc)")
    if s.weapon in DIFFUSING and s.range_hexes:
        p -= 5 * s.range_hexes
        lines.append(f"-{5 * s.range_hexes} range diffusion ({s.range_hexes} hexes x 5)")
    ccs_applied = False
    if s.ccs_hit:
        p -= 10
        ccs_applied = True
        lines.append("-10 combat control system hit")
    if s.disastrous_fire and not (s.disastrous_rule == "replace" and ccs_applied):
        p -= 10
        lines.append("-10 disastrous fire")
    if s.icms and s.icm_mod:
        if s.power_short:
            lines.append("ICMs do not work (power short circuit)")
        else:
            p -= s.icms * abs(s.icm_mod)
            lines.append(f"-{s.icms * abs(s.icm_mod)} ICMs ({s.icms} x {abs(s.icm_mod)})")
    if s.evading_mr and s.weapon == "T":
        p -= 5 * s.evading_mr
        lines.append(f"-{5 * s.evading_mr} evasive manoeuvres (MR {s.evading_mr} x 5)")
    lines.append(f"chance to hit {p}%")
    return p, lines


def attack_hits(chance: int, roll: int) -> tuple[bool, str]:
    """Knight Hawks automatic results for a target in range: <= 5 hits, >= 96 misses."""
    if roll <= 5:
        return True, f"{roll}: automatic hit (5 or less)"
    if roll >= 96:
        return False, f"{roll}: automatic miss (96 or more)"
    return roll <= chance, f"{roll} {'<=' if roll <= chance else '>'} {chance}"


# -- b-d) the Damage Table ------------------------------------------------------------------
RESULT_KINDS = (
    "hull", "drive", "steering", "weapon", "defence", "power_short", "ccs", "navigation", "fire",
    "dcr", "disastrous_fire",
)
RESULT_TEXT = {
    "power_short": "power short circuit: lose all screens and ICMs",
    "ccs": "Combat Control System hit: -10% on all attacks",
    "navigation": "navigation hit: lose maneuvering control",
    "fire": "electrical fire: more damage at +20 every turn",
    "dcr": "Damage Control hit: DCR cut in half",
    "disastrous_fire": "disastrous fire",
}
# the T7 wording (and its short forms) -> the cell code
RESULT_WORDS = {
    "damage control": "dcr",
    "dcr": "dcr",
    "disastrous fire": "disastrous_fire",
    "electrical fire": "fire",
    "fire": "fire",
    "navigation": "navigation",
    "combat control system": "ccs",
    "combat control": "ccs",
    "ccs": "ccs",
    "power short circuit": "power_short",
    "power short": "power_short",
    "hull": "hull",
    "hull double": "hull:double",
    "double hull": "hull:double",
}
@record(frozen=True)
class DamageResult:
    kind: str  # hull, drive, steering, weapon, defence, power_short, ccs, ...
    amount: str = ""  # drive/steering: "1", "half", "all"; hull: "double" or ""
    systems: tuple[str, ...] = ()

    @classmethod
    def parse(cls, cell: str) -> DamageResult:
        kind, _, rest = str(cell).partition(":")
        if kind in ("weapon", "defence"):
            return cls(kind, systems=tuple(rest.split(",")))
        return cls(kind, amount=rest)

    @classmethod
    def read(cls, text: str) -> DamageResult:
        """A result as a GM gives it: a T7 cell (``dcr``, ``drive:half``) or the table's own
        words (``Damage Control hit``, ``Disastrous Fire``, ``Electrical Fire``...)."""
        words = " ".join(str(text).lower().replace("_", " ").split())
        code = RESULT_WORDS.get(words.removesuffix(" hit").strip(), "")
        res = cls.parse(code or str(text).strip())
        if res.kind not in RESULT_KINDS:
            raise InvalidInput(
                f"{text!r} is not a Damage Table result; give a T7 cell (hull, hull:double, "
                "drive:1, steering:all, weapon:LB,RB, defence:ICM, power_short, ccs, navigation, "
                "fire, dcr, disastrous_fire), the table's words (e.g. 'Damage Control hit') or "
                "the modified roll"
            )
        return res

    def describe(self) -> str:
        if self.kind == "hull":
            return "hull hit: double damage" if self.amount == "double" else "hull hit"
        if self.kind in ("drive", "steering"):
            what = {"1": "lose 1", "half": "lose half the original (rounded up)", "all": "lose all"}
            return f"{self.kind} hit: {what.get(self.amount, self.amount)}"
        if self.systems:
            return f"{self.kind} hit: {'; '.join(self.systems)}"
        return RESULT_TEXT.get(self.kind, self.kind.replace("_", " "))


def first_system(systems: Sequence[str], intact: Mapping[str, int]) -> str | None:
    """The first listed system the ship still has (a weapon or defence hit)."""
    for code in systems:
        if intact.get(code, 0) > 0:
            return code
    return None


def drive_loss(amount: str, original: int, current: int) -> int | None:
    """New ADF (or MR) after a drive (steering) hit; None when it becomes a hull hit."""
    if current <= 0:
        return None
    if amount == "1":
        return max(0, current - 1)
    if amount == "half":
        return max(0, current - math.ceil(original / 2))
    return 0


def hull_points(
    dice: int, bonus: int, double: bool, halve: bool, double_bonus: bool = True, order: str = "double_first"
) -> tuple[int, str]:
    """Hull damage from a rolled HDR (dice total and its +k) with doubling and halving."""
    base = dice + bonus
    text = f"{dice}" + (f"+{bonus}" if bonus else "")

    def doubled(x: int) -> int:
        return x * 2 if double_bonus else dice * 2 + bonus

    if double and halve:
        if order == "halve_first":
            value = math.ceil(base / 2) * 2
            return value, f"({text}) halved then doubled = {value}"
        value = math.ceil(doubled(base) / 2)
        return value, f"({text}) doubled then halved = {value}"
    if double:
        value = doubled(base)
        return value, f"({text}) x 2 = {value}" if double_bonus else f"{dice} x 2 + {bonus} = {value}"
    if halve:
        value = math.ceil(base / 2)
        return value, f"({text}) / 2 rounded up = {value}"
    return base, f"{text} = {base}"


# -- e) break-up ---------------------------------------------------------------------------------
def breakup_chance(hp_orig: int, hp_now: int, adf_used: int, mr_used: int) -> int:
    """Chance (%) that a severely damaged ship breaks apart while manoeuvring."""
    dmg = hp_orig - hp_now
    if 2 * dmg <= hp_orig:
        return 0
    return (dmg - hp_orig // 2) * (adf_used + mr_used)


# -- procedures (roll through a resolver) ---------------------------------------------------------
def _combat_row(r: Resolver, weapon: str, shaded: bool) -> dict[str, object]:
    table = r.tables.get("T5s" if shaded else "T5")
    cols = [c for c in table.axes[1].labels]
    if weapon not in table.axes[0].labels:
        raise InvalidInput(
            f"no weapon {weapon!r} on the Combat Table; weapons: {', '.join(table.axes[0].labels)}"
        )
    row = table.cells[table.axes[0].labels.index(weapon)]
    return dict(zip(cols, row))


def attack_proc(
    r: Resolver,
    weapon: str,
    defences: str = "RH",
    range_hexes: int = 0,
    attacker_masked: bool = False,
    target_masked: bool = False,
    icms: int = 0,
    ccs_hit: bool = False,
    disastrous_fire: bool = False,
    head_on: bool = False,
    evading_mr: int = 0,
    power_short: bool = False,
    shaded: bool = False,
    base_override: int = 0,
    roll: bool = True,
) -> Calc:
    """One attack roll: defence column, modifiers, d100 with automatic hit/miss (5.14a)."""
    weapon = weapon.upper()
    if weapon == "SD":
        raise InvalidInput("a shatter drone makes no attack roll; use the shatter_drone procedure")
    if shaded and not r.options.get("skills", True):
        raise InvalidInput("shaded (skill) values are used only with option skills on")
    limit = RANGES.get(weapon)
    if limit is not None and range_hexes > limit:
        r.explain(f"{weapon} range is {limit} hexes; the target at {range_hexes} is out of range")
        return Calc(False, f"out of range ({range_hexes} > {limit}): no attack")
    row = _combat_row(r, weapon, shaded)
    defs = [d.strip().upper() for d in defences.replace("+", ",").split(",") if d.strip()]
    defs = [d for d in defs if d != "NONE"]
    if target_masked and "MS" not in defs:
        defs.append("MS")
    if power_short:
        dropped = [d for d in defs if d in SCREENS]
        if dropped:
            r.explain(f"power short circuit: {', '.join(dropped)} not working")
        defs = [d for d in defs if d not in SCREENS]
    col, why = defence_column(row, weapon, defs, attacker_masked)
    base, half = cell_value(row[col])
    r.explain(f"Combat Table{' (shaded)' if shaded else ''}: {weapon} vs {col} = {row[col]} ({why})")
    if base_override:
        r.explain(f"base chance given as {base_override}% instead of {base}%")
        base = base_override
    icm_mod = 0
    icm_cell = str(_combat_row(r, weapon, False).get("ICM", "-"))
    if icm_cell not in ("-", ""):
        icm_mod = int(icm_cell)
    shot = ShotInputs(
        weapon,
        base,
        range_hexes,
        ccs_hit,
        disastrous_fire,
        icms,
        icm_mod,
        head_on,
        evading_mr,
        power_short,
        str(r.options.get("disastrous_fire_ccs", "stack")),
    )
    chance, lines = hit_chance(shot)
    for line in lines:
        r.explain(line)
    if icms:
        r.explain(
            "ICMs may come from any friendly ship in the target's hex (option icm_hex_defense)"
            if r.options.get("icm_hex_defense")
            else "ICMs protect only the ship that launches them"
        )
    masked_laser = weapon in LASERS and (target_masked or attacker_masked)
    if half or masked_laser:
        r.explain("a hull hit from this shot does half damage (rounded up)")
    if not roll:
        return Calc(chance, f"chance to hit {chance}%")
    die = roll_die(r, "1d100", f"{weapon} attack", target=chance, table="T5")
    hit, text = attack_hits(chance, die.natural)
    tag_table(die, "hit" if hit else "miss", [text])
    r.explain(f"d100 {text} -> {'hit' if hit else 'miss'}")
    return Calc(hit, f"{weapon}: {'hit' if hit else 'miss'} ({text})")


def _basic(rules: str) -> bool:
    if rules not in ("advanced", "advanced_npc", "basic"):
        raise InvalidInput(f"rules: {rules!r} is not advanced or basic")
    return rules == "basic"


def no_damage_table(rules: str, what: str) -> None:
    """T11: a Basic-rules battle ignores the Advanced Damage Table (every hit is a hull hit)."""
    if _basic(rules):
        raise InvalidInput(
            f"{what}: this battle uses the Basic rules, which have no Damage Table (T11): every hit "
            "is a hull hit; roll basic_damage weapon=... instead"
        )


def damage_proc(r: Resolver, weapon: str, extra_modifier: int = 0, rules: str = "advanced") -> Calc:
    """A Damage Table roll for a hit by *weapon* (5.14b): d100 + DTM (+ other modifiers).

    Under the Basic rules (T11, G-38) there is no Damage Table: the hit is a hull hit."""
    weapon = weapon if weapon == "fire" else weapon.upper()
    if weapon not in DTM:
        raise InvalidInput(f"no Damage Table modifier for {weapon!r}; weapons: {', '.join(DTM)}")
    if _basic(rules):
        if weapon == "fire":
            no_damage_table(rules, "a fire roll")
        r.explain("Basic rules (T11): no Advanced Damage Table; every hit is a hull hit for the "
                  "weapon's damage dice")
        return Calc("hull", "hull hit (Basic rules)")
    mods = [(f"DTM {weapon}", DTM[weapon])]
    if extra_modifier:
        mods.append(("other", extra_modifier))
    die = roll_die(r, "1d100", f"Damage Table ({weapon})", modifiers=mods, table="T7")
    look = r.lookup("T7", roll=die.modified)
    result = DamageResult.parse(str(look.value))
    tag_table(die, result.describe())
    r.explain(f"d100 {die.natural} {DTM[weapon] + extra_modifier:+d} = {die.modified}: {result.describe()}")
    return Calc(str(look.value), result.describe())


def hull_proc(r: Resolver, weapon: str, double: bool = False, halve: bool = False) -> Calc:
    """Hull damage for a hit (5.14c): the weapon's HDR, doubled and/or halved."""
    weapon = weapon if weapon == "fire" else weapon.upper()
    expr = HDR.get(weapon)
    if expr is None:
        raise InvalidInput(f"no hull damage roll for {weapon!r}")
    dice, bonus = roll_dice(r, expr, f"hull damage ({weapon} {expr})")
    pts, text = hull_points(
        dice,
        bonus,
        double,
        halve,
        bool(r.options.get("double_bonus", True)),
        str(r.options.get("halve_double_order", "double_first")),
    )
    r.explain(f"hull damage {text}")
    return Calc(pts, f"{pts} hull points")


def system_hit_proc(
    r: Resolver,
    result: str,
    weapons: str = "",
    defences: str = "",
    adf: int = 0,
    adf_original: int = 0,
    mr: int = 0,
    mr_original: int = 0,
    flags: str = "",
    dcr: int = 0,
    rules: str = "advanced",
) -> Calc:
    """What a Damage Table result does to a ship (5.14d): the system lost, or a hull hit.

    *weapons* / *defences* list the ship's intact systems (``LC,LB,LB,EB,T,RB``); *flags*
    lists damage already taken (ccs_hit, nav_hit, fire, dcr_hit, power_short); *dcr* is the
    ship's current DCR (a Damage Control hit or a disastrous fire halves it, rounded up).
    """
    no_damage_table(rules, "a Damage Table result")
    if str(result).strip().lstrip("-").isdigit():
        look = r.lookup("T7", roll=int(str(result).strip()))
        result = str(look.value)
    res = DamageResult.read(result)
    have_flags = {f.strip() for f in flags.split(",") if f.strip()}
    repeat_hull = bool(r.options.get("repeat_hits_hull", True))
    if res.kind in ("weapon", "defence"):
        listed = weapons if res.kind == "weapon" else defences
        intact: dict[str, int] = {}
        for code in (c.strip().split(":")[0].upper() for c in listed.split(",") if c.strip()):
            intact[code] = intact.get(code, 0) + 1
        hit = first_system(res.systems, intact)
        if hit is None:
            r.explain(f"{res.describe()}: the ship has none of them -> hull hit")
            return Calc("hull", "hull hit (no listed system left)")
        skipped = [s for s in res.systems[: res.systems.index(hit)]]
        if skipped:
            r.explain(f"not carried or already destroyed: {', '.join(skipped)}")
        r.explain(f"{res.describe()}: the {hit} is destroyed (a whole LTD system, or one mount)")
        return Calc(f"destroy:{hit}", f"{hit} destroyed")
    if res.kind in ("drive", "steering"):
        cur, orig = (adf, adf_original or adf) if res.kind == "drive" else (mr, mr_original or mr)
        new = drive_loss(res.amount, orig, cur)
        what = "ADF" if res.kind == "drive" else "MR"
        if new is None:
            r.explain(f"{res.describe()}: {what} already 0 -> hull hit")
            return Calc("hull", "hull hit")
        r.explain(f"{res.describe()}: {what} {cur} -> {new}")
        return Calc(f"{what.lower()}:{new}", f"{what} {cur} -> {new}")
    once = {"ccs": "ccs_hit", "dcr": "dcr_hit", "fire": "fire"}
    repeatable = {"power_short": "power_short", "navigation": "nav_hit"}
    if res.kind in once and once[res.kind] in have_flags:
        r.explain(f"{res.describe()}: not cumulative, the ship already has it -> hull hit")
        return Calc("hull", "hull hit (repeat)")
    if res.kind in repeatable and repeatable[res.kind] in have_flags and repeat_hull:
        r.explain(f"{res.describe()}: a repeat counts as a hull hit (G-32)")
        return Calc("hull", "hull hit (repeat)")
    if res.kind == "disastrous_fire":
        halved = "dcr_hit" in have_flags or "disastrous_fire" in have_flags
        r.explain(
            "disastrous fire: ADF and MR to 0, -10% on attacks, +20 damage roll every turn"
            + (" (the DCR was halved already)" if halved else ", DCR halved")
        )
        return Calc("disastrous_fire", "disastrous fire" + ("" if halved else _halve_dcr(r, dcr)))
    if res.kind == "hull":
        return Calc("hull:double" if res.amount == "double" else "hull", res.describe())
    flag = {**once, **repeatable}.get(res.kind, res.kind)
    r.explain(res.describe())
    if res.kind == "dcr":
        return Calc(f"flag:{flag}", res.describe() + _halve_dcr(r, dcr))
    return Calc(f"flag:{flag}", res.describe())


def _halve_dcr(r: Resolver, dcr: int) -> str:
    """5.14d: DCR = ceil(DCR / 2); the text added to the summary."""
    if not dcr:
        r.explain("give the ship's DCR (dcr=) to see the halved value")
        return ""
    new = -(-int(dcr) // 2)
    r.explain(f"DCR {dcr} / 2, rounded up = {new}")
    return f" (DCR {dcr} -> {new})"


def breakup_proc(r: Resolver, hp_orig: int, hp_now: int, adf_used: int, mr_used: int) -> Calc:
    """Break-up check of a severely damaged ship that manoeuvres (5.14e)."""
    chance = breakup_chance(hp_orig, hp_now, adf_used, mr_used)
    dmg = hp_orig - hp_now
    if chance <= 0:
        r.explain(f"damage {dmg} is not more than half of {hp_orig}: not severely damaged")
        return Calc(False, "no break-up check (not severely damaged)")
    r.explain(f"({dmg} - {hp_orig // 2}) x ({adf_used} + {mr_used}) = {chance}%")
    broke, die = percent(r, "break-up check", chance)
    tag_table(die, "breaks apart" if broke else "holds together")
    return Calc(
        broke, f"break-up chance {chance}%: {'breaks apart' if broke else 'survives'} (d100 {die.natural})"
    )


def navigation_proc(r: Resolver) -> Calc:
    """Navigation hit (T18): which way the ship must turn this move."""
    die = roll_die(r, "1d10", "navigation hit", table="T18")
    look = r.lookup("T18", roll=die.natural)
    tag_table(die, str(look.value))
    return Calc(str(look.value), f"d10 {die.natural}: {look.value}")


def fire_proc(r: Resolver, rules: str = "advanced") -> Calc:
    """An electrical (or disastrous) fire's roll: T7 at +20; a hull result does 1d10."""
    no_damage_table(rules, "a fire roll")
    if r.options.get("fire_roll_timing") == "owner":
        r.explain("rolled at the start of the burning ship's owner's combat phase (option fire_roll_timing)")
    else:
        r.explain("rolled at the start of the opponent's combat step")
    dmg = damage_proc(r, "fire")
    if str(dmg.value).startswith("hull"):
        double = str(dmg.value) == "hull:double"
        pts = hull_proc(r, "fire", double=double)
        return Calc(pts.value, f"fire: {dmg.summary}, {pts.value} hull points")
    return Calc(dmg.value, f"fire: {dmg.summary}")


def shatter_proc(r: Resolver, rules: str = "advanced") -> Calc:
    """A shatter-drone hit on one ship in the hex: no attack roll, T7 at -20, hull 5d10."""
    r.explain("shatter drone: every other ship in the hex takes one hit without an attack roll")
    dmg = damage_proc(r, "SD", rules=rules)
    if str(dmg.value).startswith("hull"):
        pts = hull_proc(r, "SD", double=str(dmg.value) == "hull:double")
        return Calc(pts.value, f"{dmg.summary}: {pts.value} hull points")
    return Calc(dmg.value, dmg.summary)


def mine_proc(
    r: Resolver,
    weapon: str = "M",
    defences: str = "RH",
    icms: int = 0,
    target_masked: bool = False,
    rules: str = "advanced",
) -> Calc:
    """A mine or seeker attack (5.14g-h): T5 roll (ICMs count), then the Damage Table."""
    weapon = weapon.upper()
    if weapon not in ("M", "S"):
        raise InvalidInput("weapon must be M (mine) or S (seeker)")
    if weapon == "S":
        r.explain(
            "an active seeker moves 2, 4, 6... hexes a turn toward the closest ship and turns up to 3 "
            "hexsides before moving"
            + (
                ", then one per hex entered (option seeker_facing)"
                if r.options.get("seeker_facing") == "transcription"
                else ""
            )
        )
    if weapon == "S" and r.options.get("seeker_auto_hit", False):
        r.explain("option seeker_auto_hit: no to-hit roll")
    else:
        hit = attack_proc(r, weapon, defences, 0, False, target_masked, icms)
        if not hit.value:
            return Calc(False, f"{'mine' if weapon == 'M' else 'seeker'} misses")
    dmg = damage_proc(r, weapon, rules=rules)
    if str(dmg.value).startswith("hull"):
        pts = hull_proc(r, weapon, double=str(dmg.value) == "hull:double")
        return Calc(pts.value, f"{dmg.summary}: {pts.value} hull points")
    return Calc(dmg.value, dmg.summary)


def basic_damage_proc(r: Resolver, weapon: str, halve: bool = False) -> Calc:
    """Basic Game damage: every hit is a hull hit for the weapon's damage dice (G-38)."""
    return hull_proc(r, weapon, double=False, halve=halve)


def dcr_repair_proc(r: Resolver, points: int, item: str = "hull") -> Calc:
    """One in-space repair roll (5.14k): DCR points put on an item are its % chance.

    90-00 always fails; 99 or 00 means the item can only be repaired at a station; a
    successful hull repair restores 1d10 hull points.
    """
    die = roll_die(r, "1d100", f"DCR repair of {item}", target=points)
    n = die.natural
    if n >= 90:
        station = n >= 99
        text = "fails (90-00 always fail)" + ("; only a station can repair it now" if station else "")
        tag_table(die, text)
        return Calc("station" if station else "failed", f"{item}: {text}")
    if n > points:
        tag_table(die, "fails")
        return Calc("failed", f"{item}: fails ({n} > {points})")
    if item == "hull":
        dice, _ = roll_dice(r, "1d10", "hull points repaired")
        tag_table(die, f"repairs {dice} hull points")
        return Calc(dice, f"hull: {dice} points repaired")
    tag_table(die, "repaired")
    return Calc("repaired", f"{item}: repaired ({n} <= {points})")


def defensive_fire_proc(r: Resolver, effect: str = "MR") -> Calc:
    """When a defensive-fire hit takes effect on a moving ship (5.14j, E13/E14)."""
    timing = str(r.options.get("defensive_fire_timing", "after_move"))
    if timing == "immediate":
        r.explain(
            f"house rule: the {effect} loss applies at once; the rest of the move and any "
            "later shot must respect it"
        )
        return Calc(True, f"{effect} loss applies at once")
    r.explain(
        f"Advanced rule: the {effect} loss applies after the move; the ship may still use "
        f"its {effect} this move"
    )
    return Calc(False, f"{effect} loss applies after the move")


def masking_screen_proc(r: Resolver, orbiting: bool = False, turns_so_far: int = 0) -> Calc:
    """How long a masking screen lasts (5.14f): while the ship keeps a straight course at the
    same speed; laid in orbit, one full orbit of 6 turns (one hex a turn)."""
    if not orbiting:
        r.explain("the screen stays up while the ship moves in a straight line at constant speed")
        return Calc(None, "lasts until the ship turns or changes speed")
    left = max(0, 6 - turns_so_far)
    r.explain(f"an orbit takes 6 turns; {turns_so_far} gone, {left} left (mark the hex where it was laid)")
    return Calc(left, f"{left} turn(s) of screen left")
