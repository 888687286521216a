"""Detection arithmetic: planetary (5.3), T-space (5.13.2), N-space (5.13.3), detecting
interceptors (5.13.4), withdrawing task forces (5.13.10), recon (G35) and naval forces
looking for a ground task force (5.14.3).

The functions take plain numbers and return the target with its parts, so the same code
serves the phase machine, the resolve dialog and ``campaign-tui calc``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

from campaign_tui.core.records import record


@record
class Target:
    """A detection target number and how it was made."""

    value: int
    parts: list[tuple[str, int]] = field(default_factory=list)

    @classmethod
    def of(cls, parts: Sequence[tuple[str, int]]) -> Target:
        return cls(sum(v for _, v in parts), list(parts))


def tf_esm(esms: Sequence[int], signal_esm: int | None) -> int:
    """A task force's maximum ESM: its non-Signal units' ESM plus one Signal Century's ESM
    (+3 on the counter) however many Signal Centuries it holds (5.3)."""
    return sum(esms) + (signal_esm or 0)


def tf_sig(sigs: Sequence[int], signal_sig: int | None) -> int:
    """A task force's Sig: its non-Signal units' Sig plus one Signal Century's Sig (-3)."""
    return sum(sigs) + (signal_sig or 0)


def announced_range(esm_max: int) -> tuple[int, int]:
    """The ESM a player may announce: 1 up to the maximum (less to bluff)."""
    if esm_max < 1:
        return esm_max, esm_max
    return 1, esm_max


def planetary_target(
    announced_esm: int,
    sig: int,
    target_laf: bool,
    terrain_mod: int,
    base_ratings: Sequence[int],
    laf_ignores_bases: bool = True,
    laf_mod: int = 6,
) -> Target:
    """Planetary detection target (5.3): announced ESM + Sig, then one terrain modifier and
    -2 x rating per base in the hex; a target in LAF gets +6 instead and terrain (and, G34,
    base ratings) are ignored."""
    parts: list[tuple[str, int]] = [("announced ESM", announced_esm), ("Sig", sig)]
    if target_laf:
        parts.append(("target in LAF", laf_mod))
        if not laf_ignores_bases:
            parts += [(f"base rating {r}", -2 * r) for r in base_ratings]
        return Target.of(parts)
    parts.append(("terrain", terrain_mod))
    parts += [(f"base rating {r}", -2 * r) for r in base_ratings]
    return Target.of(parts)


def tspace_target(starship_sigs: Sequence[int], independent_sigs: Sequence[int], time_mod: int) -> Target:
    """T-space detection (5.13.2): starships' Sig + Independent flights' Sig + the T8
    modifier for the TF's box. Carried flights are not counted."""
    return Target.of(
        [
            ("starships' Sig", sum(starship_sigs)),
            ("Independent flights' Sig", sum(independent_sigs)),
            ("time in T-space (T8)", time_mod),
        ]
    )


def nspace_target(
    defense_esms: Sequence[int], base_esms: Sequence[int], committed_sigs: Sequence[int], mission: str
) -> Target:
    """N-space detection (5.13.3): the Sector Defense units' ESM + the sector's orbital
    bases' ESM + the committed phasing units' Sig, -3 for an HS Attack or Recon."""
    parts = [
        ("Sector Defense ESM", sum(defense_esms)),
        ("orbital bases' ESM", sum(base_esms)),
        ("committed units' Sig", sum(committed_sigs)),
    ]
    if mission in ("hs_attack", "recon"):
        parts.append(("HS Attack or Recon", -3))
    return Target.of(parts)


def interceptor_target(committed_esms: Sequence[int], interceptor_sigs: Sequence[int]) -> Target:
    """Detecting the interceptors (5.13.4): the committed phasing units' ESM + the Sig of
    the intercepting units only."""
    return Target.of(
        [("committed units' ESM", sum(committed_esms)), ("interceptors' Sig", sum(interceptor_sigs))]
    )


def withdrawal_target(
    defense_esms: Sequence[int], base_esms: Sequence[int], withdrawing_sigs: Sequence[int]
) -> Target:
    """Detecting a withdrawing TF (5.13.10, G20): undisrupted Sector Defense ships' and
    bases' ESM (units that made a deep space interception excluded) + its Sig."""
    return Target.of(
        [
            ("Sector Defense ESM", sum(defense_esms)),
            ("bases' ESM", sum(base_esms)),
            ("withdrawing TF's Sig", sum(withdrawing_sigs)),
        ]
    )


def recon_target(recon_esms: Sequence[int], segment_sig: int) -> Target:
    """Recon detection (G35): the surviving recon units' ESM + the total Sig announced for
    the chosen segment."""
    return Target.of([("recon units' ESM", sum(recon_esms)), ("segment Sig", segment_sig)])


def naval_esm(starship_esms: Sequence[int], fighter_esms: Sequence[int]) -> int:
    """ESM of naval forces looking for a ground TF (5.14.3): starships -2 each."""
    return sum(e - 2 for e in starship_esms) + sum(fighter_esms)
