"""Hidden information: the campaign as one side may see it.

The GM sees everything. A side sees its own units and formations, public ones, and what
has been revealed to it (``known_to``); a formation shown as a ``counter`` appears with its
name and place but without its contents or status; other sides' secrets are removed. A
rule set may hide more through its ``redact`` hook (plots, record sheets, sealed choices).
The TUI and per-side exports only ever receive this projection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.core.model import Formation, State

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet


def _sees_formation(f: Formation, viewer: str) -> bool:
    return f.side == viewer or f.visibility != "owner" or viewer in f.known_to


def _sees_contents(f: Formation, viewer: str) -> bool:
    return f.side == viewer or f.visibility == "public" or viewer in f.known_to


def project(state: State, viewer: str, ruleset: RuleSet | None = None) -> State:
    if viewer == "gm":
        return state
    # what is hidden is decided on the state itself, and left out of the copy (copying a
    # thousand enemy units only to delete them was most of a side's projection)
    formations = state.formations
    hidden_formations = {fid for fid, f in formations.items() if not _sees_formation(f, viewer)}
    # a hidden formation hides its sub-formations too
    changed = True
    while changed:
        changed = False
        for fid, f in formations.items():
            if fid not in hidden_formations and f.parent in hidden_formations \
                    and f.side != viewer and viewer not in f.known_to:
                hidden_formations.add(fid)
                changed = True
    closed = {fid for fid, f in formations.items()
              if fid not in hidden_formations and not _sees_contents(f, viewer)}
    hidden_units: set[str] = set()
    for uid, u in state.units.items():
        if u.side == viewer or viewer in u.known_to:
            continue
        if u.visibility == "owner":
            hidden_units.add(uid)
            continue
        for anc in state.ancestors(u.formation):
            if anc.id in hidden_formations or anc.id in closed:
                hidden_units.add(uid)
                break
    view = state.copy({"formations": hidden_formations, "units": hidden_units})
    for fid in closed:
        f = view.formations[fid]
        f.status = {}
        f.data = {}
    for side in list(view.secrets):
        if side != viewer:
            del view.secrets[side]
    if ruleset is not None:
        ruleset.redact(view, viewer)
    return view
