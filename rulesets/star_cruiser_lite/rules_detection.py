"""Detection and intelligence (digest F-07 to F-11, F-38; tables T-09 to T-13)."""

from __future__ import annotations

from collections import deque
from typing import Any

from campaign_tui.core.procedures import Calc, Resolver
from rulesets.star_cruiser_lite.rules_common import as_dict, as_list, clamp, opt, pct

LEVELS = ("present", "direction", "size", "types", "ships")
LEVEL_TEXT = {
    "present": "task force present",
    "direction": "direction of travel",
    "size": "size",
    "types": "ship types",
    "ships": "specific ships",
}


def detection_chance(
    r: Resolver,
    bodies: int,
    arrival: str = "none",
    recon: bool = False,
    detected_previous: bool = False,
    mine_attack: bool = False,
    kafer: bool = False,
    warship_forces: int = 0,
    patrols: int = 0,
    facilities: int = 0,
    listening_posts: int = 0,
) -> Calc:
    """F-07: the percent chance that a detecting force finds one target task force.

    T-10 layout (by bodies) + the T-11 behaviours true of the target + 5 per asset of the
    detecting force (T-12), clamped to 0..100. *arrival* is "none" for a task force already
    present, else "overt" or "covert" for one that arrived this week (a Kafer arrival is always
    overt). Recon (-10) counts only for a task force already present (G-44); one already present
    otherwise counts as defending (+0, DEFAULT-33).
    """
    base = int(r.lookup("T-10", bodies=int(bodies)).value)
    terms = [(f"system layout ({bodies} bodies)", base)]
    if arrival not in ("none", "overt", "covert"):
        arrival = "none"
    if arrival != "none":
        mode = "overt" if kafer else arrival
        if kafer and arrival == "covert":
            r.explain("Kafers always enter overtly")
        terms.append((f"entering {mode}ly", int(r.lookup("T-11", behaviour=mode).value)))
    elif recon:
        terms.append(("reconnaissance (already present)", int(r.lookup("T-11", behaviour="recon").value)))
    else:
        terms.append(("defending system", int(r.lookup("T-11", behaviour="defending").value)))
    if detected_previous:
        terms.append(
            (
                "detected the previous week by the same nation",
                int(r.lookup("T-11", behaviour="detected_previous").value),
            )
        )
    if mine_attack:
        terms.append(
            ("suffered a mine attack this week", int(r.lookup("T-11", behaviour="mine_attack").value))
        )
    for name, label, count in (
        ("warship_force", "warship forces", warship_forces),
        ("patrol", "patrol elements", patrols),
        ("facility", "facilities with sensors", facilities),
        ("listening_post", "listening posts", listening_posts),
    ):
        if int(count):
            each = int(r.lookup("T-12", asset=name).value)
            terms.append((f"{count} {label} x {each}", each * int(count)))
    raw = sum(v for _, v in terms)
    p = clamp(raw)
    r.explain(
        " ".join(f"{v:+d} {t}" for t, v in terms) + f" = {raw}%" + (f", clamped to {p}%" if p != raw else "")
    )
    return Calc(p, f"detection chance {p}%")


def intel_levels(margin: int) -> list[str]:
    """F-08 / T-13: the tiers a margin (target - roll) reveals; none when the roll failed."""
    if margin < 0:
        return []
    out = ["present"]
    for level, need in (("direction", 10), ("size", 20), ("types", 30), ("ships", 40)):
        if margin >= need:
            out.append(level)
    return out


def intelligence(r: Resolver, target: int, roll: int) -> Calc:
    """F-08: a detection roll under its target reveals more the further under it is."""
    margin = int(target) - int(roll)
    levels = intel_levels(margin)
    if not levels:
        r.explain(f"roll {roll} > target {target}: not detected")
        return Calc([], "not detected")
    look = r.lookup("T-13", margin=margin)
    r.explain(f"margin {target} - {roll} = {margin}: {look.value}")
    return Calc(levels, ", ".join(LEVEL_TEXT[x] for x in levels))


def detection_roll(r: Resolver, chance: int, label: str = "target", side: str | None = None) -> Calc:
    """Roll d100 against a detection chance; the margin sets the intelligence (F-07, F-08)."""
    ok, roll, x = pct(r, chance, f"detection of {label}", side=side)
    margin = x - roll.natural
    levels = intel_levels(margin) if ok else []
    if ok:
        roll.detail.append(f"margin {margin}: " + ", ".join(LEVEL_TEXT[v] for v in levels))
    r.explain(
        f"{label}: d100 {roll.natural} vs {x}%: "
        + (f"detected, margin {margin} ({', '.join(levels)})" if ok else "not detected")
    )
    return Calc(
        {"detected": ok, "roll": roll.natural, "chance": x, "margin": margin, "levels": levels},
        f"{label}: {'detected' if ok else 'not detected'}",
    )


def detect(
    r: Resolver,
    bodies: int,
    arrival: str = "none",
    recon: bool = False,
    detected_previous: bool = False,
    mine_attack: bool = False,
    kafer: bool = False,
    warship_forces: int = 0,
    patrols: int = 0,
    facilities: int = 0,
    listening_posts: int = 0,
) -> Calc:
    """F-07 and F-08 together: the chance, the d100 roll and the intelligence gained."""
    chance = detection_chance(
        r,
        bodies,
        arrival,
        recon,
        detected_previous,
        mine_attack,
        kafer,
        warship_forces,
        patrols,
        facilities,
        listening_posts,
    ).value
    return detection_roll(r, chance)


def defender(r: Resolver, a_detected: bool, b_detected: bool, a_roll: int = 0, b_roll: int = 0) -> Calc:
    """F-09: when both sides arrive together, who is the defender.

    Only one side detected: it defends. Both detected: the lower d100 roll defends; equal rolls
    are re-rolled (DEFAULT-34). Neither: nobody defends and no pre-emptive attack happens.
    """
    if a_detected and not b_detected:
        r.explain("only side A detected its enemy: A defends")
        return Calc("A", "A is the defender")
    if b_detected and not a_detected:
        r.explain("only side B detected its enemy: B defends")
        return Calc("B", "B is the defender")
    if not a_detected:
        r.explain("neither side detected the other: no defender, no pre-emptive attack")
        return Calc(None, "no defender")
    a, b = int(a_roll), int(b_roll)
    while a == b:
        r.explain(f"both rolled {a}: both re-roll (DEFAULT-34)")
        a = r.roll("1d100", "defender tie: side A re-rolls").natural
        b = r.roll("1d100", "defender tie: side B re-rolls").natural
    who = "A" if a < b else "B"
    r.explain(f"both detected: lower roll defends ({a} vs {b}) -> {who}")
    return Calc(who, f"{who} is the defender")


def facility_detection_chance(
    r: Resolver,
    facility: str,
    detector: str,
    weeks_surveyed: int = 1,
    max_sn: int = 5,
    lp_flat: bool | None = None,
) -> Calc:
    """F-11 / T-09: a detector's chance to find a facility this week.

    *detector*: "warship", "survey" (a surveying SS or SCT) or "lp". A survey adds 10 for each
    further week on the same system, up to 70. A listening post is found by a warship only if it
    has Sn 4 or more (G-07); the flat-10% option replaces the column for listening posts.
    """
    if lp_flat is None:
        lp_flat = bool(opt(r, "lp_flat_ten", False))
    fac = facility.upper()
    if fac == "PSD":
        r.explain("a planetary supply depot cannot be detected from space")
        return Calc(0, "0%")
    if fac == "LP" and lp_flat:
        r.explain("listening post: flat 10% for any detector (G-07 option)")
        return Calc(10, "10%")
    p = int(r.lookup("T-09", facility=fac, detector=detector).value)
    if detector == "survey" and int(weeks_surveyed) > 1:
        bonus = 10 * (int(weeks_surveyed) - 1)
        capped = min(70, p + bonus)
        r.explain(f"survey week {weeks_surveyed}: {p} + {bonus} = {p + bonus}, at most 70 -> {capped}")
        p = max(p, capped) if p > 70 else capped
    if fac == "LP" and detector == "warship" and int(max_sn) < 4:
        r.explain(f"a listening post is found only by warships with Sn 4+ (best Sn {max_sn}): 0%")
        p = 0
    r.explain(f"{fac} vs {detector}: {p}%")
    return Calc(p, f"{p}%")


def facility_detection(
    r: Resolver, facility: str, detector: str, weeks_surveyed: int = 1, max_sn: int = 5
) -> Calc:
    """F-11: roll pct() for one detector against one facility."""
    p = facility_detection_chance(r, facility, detector, weeks_surveyed, max_sn).value
    ok, roll, _x = pct(r, p, f"detection of a {facility.upper()} by a {detector}")
    return Calc(ok, f"{'found' if ok else 'not found'} ({roll.natural} vs {p}%)")


def route_clear(r: Resolver, links: Any, start: str, goal: str, blocked: Any = None) -> Calc:
    """F-38: a listening post reports only if a path of non-interdicted systems leads from its
    system to the intelligence agency (T-42). *links*: ``{"A": ["B", ...], ...}``."""
    graph = {str(k): [str(x) for x in as_list(v, "links")] for k, v in as_dict(links, "links").items()}
    bad = {str(x) for x in as_list(blocked, "blocked")}
    if start in bad:
        r.explain(f"{start} itself is interdicted")
        return Calc(False, "no clear route")
    seen = {start}
    queue: deque[list[str]] = deque([[start]])
    while queue:
        path = queue.popleft()
        if path[-1] == goal:
            r.explain("clear route: " + " - ".join(path))
            return Calc(True, "clear route")
        for nxt in graph.get(path[-1], []):
            if nxt not in seen and nxt not in bad:
                seen.add(nxt)
                queue.append([*path, nxt])
    r.explain(f"no route from {start} to {goal} avoiding {', '.join(sorted(bad)) or 'nothing'}")
    return Calc(False, "no clear route")
