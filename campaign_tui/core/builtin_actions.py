"""Actions every campaign has: start, advance, notes, and the GM's edits and overrides.

GM edits are ordinary logged, undoable actions with a reason, so a house rule, a corrected
counter value or an overridden result is always visible in the log.
"""

from __future__ import annotations

import json
from typing import Any

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.board.actions import MAP_ACTIONS
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.model import Formation, Unit


def _reason(ctx: Ctx, reason: str) -> str:
    ctx.tags["override"] = True
    if reason:
        ctx.explain(f"reason: {reason}")
    return f" ({reason})" if reason else ""


def _start(ctx: Ctx) -> None:
    step = ctx._enter()
    if step.auto and not step.final:
        ctx.advance()
    ctx.summary(f"Campaign begins: {ctx.machine.title}")


START_ACTION = ActionDef("start", "Start the campaign", _start)


def _advance(ctx: Ctx) -> None:
    before = ctx.step
    new = ctx.advance()
    ctx.summary(f"{before.title} -> {new.title}")


ADVANCE_ACTION = ActionDef(
    "advance", "Advance", _advance, key="n", is_advance=True,
    help="Finish the current step and go on to the next one. Refused, with the reason, "
         "while something required is missing.")


@action("note", "Add a note", Param("text", help="the note"), key="",
        help="Write a note into the campaign log.")
def note(ctx: Ctx, text: str) -> None:
    ctx.summary(f"Note: {text}")
    ctx.tags["note"] = True


def _parse_json(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value, parse_constant=_no_constant)
    except json.JSONDecodeError:
        return value


def _no_constant(name: str) -> Any:
    raise InvalidInput(f"{name} is not a value a save can hold; give a finite number")


@action("gm.set_status", "Edit a unit's status", Param("unit", "unit"),
        Param("field", help="status field, e.g. fatigue"), Param("value", "json"),
        Param("reason", required=False, default=""))
def set_status(ctx: Ctx, unit: str, field: str, value: Any, reason: str) -> None:
    """Change one status value of a unit (fatigue, disrupted, losses...)."""
    fdef = ctx.catalog.status_def(field)
    u = ctx.unit(unit)
    old = u.status.get(field)
    u.status[field] = fdef.check(_parse_json(value), f"unit {unit}")
    ctx.summary(f"GM: {u.label} {field} {old} -> {u.status[field]}{_reason(ctx, reason)}")


@action("gm.set_attr", "Correct a unit's value", Param("unit", "unit"),
        Param("attr", help="attribute, e.g. attack"), Param("value", "json"),
        Param("reason", required=False, default=""))
def set_attr(ctx: Ctx, unit: str, attr: str, value: Any, reason: str) -> None:
    """Give one unit its own value for an attribute (a counter that differs from its type)."""
    fdef = ctx.catalog.attr_def(attr)
    u = ctx.unit(unit)
    old = ctx.attr(u, attr)
    u.attrs[attr] = fdef.check(_parse_json(value), f"unit {unit}")
    ctx.summary(f"GM: {u.label} {attr} {old} -> {u.attrs[attr]}{_reason(ctx, reason)}")


@action("gm.move_unit", "Move a unit to another formation", Param("unit", "unit"),
        Param("formation", help="formation id, or - for none"),
        Param("reason", required=False, default=""))
def move_unit(ctx: Ctx, unit: str, formation: str, reason: str) -> None:
    """Attach a unit to a formation (or detach it with -)."""
    u = ctx.unit(unit)
    target = None if formation in ("-", "") else formation
    if target is not None:
        f = ctx.state.formation(target)
        if f.side != u.side:
            raise ActionRejected(f"{f.name} belongs to {f.side}, {u.label} to {u.side}")
    old = u.formation
    u.formation = target
    ctx.summary(f"GM: {u.label} from {old or 'none'} to {target or 'none'}{_reason(ctx, reason)}")


@action("gm.place", "Place a unit or formation", Param("id", help="unit or formation id"),
        Param("location", help="location, e.g. hex:0708, or - for none"),
        Param("reason", required=False, default=""))
def place(ctx: Ctx, id: str, location: str, reason: str) -> None:
    """Put a unit or formation at a location."""
    target: Unit | Formation
    if id in ctx.state.units:
        target = ctx.unit(id)
    elif id in ctx.state.formations:
        target = ctx.formation(id)
    else:
        raise InvalidInput(f"no unit or formation {id!r}")
    old = target.location
    target.location = None if location in ("-", "") else location
    ctx.summary(f"GM: {target.name or id} {old or 'nowhere'} -> {target.location or 'nowhere'}"
                f"{_reason(ctx, reason)}")


@action("gm.add_unit", "Add a unit from the catalog", Param("type", help="unit type id"),
        Param("side", "side"), Param("formation", required=False, default=""),
        Param("name", required=False, default=""), Param("id", required=False, default=""),
        Param("location", required=False, default=""),
        Param("reason", required=False, default=""))
def add_unit(ctx: Ctx, type: str, side: str, formation: str, name: str, id: str,
             location: str, reason: str) -> None:
    """Bring a unit into play (a reinforcement or a correction)."""
    utype = ctx.catalog.type(type)
    uid = id or ctx.new_id(f"{side.lower()}-{type}-")
    u = ctx.add_unit(Unit(uid, side, type, name or utype.name, formation or None,
                          location or None))
    ctx.summary(f"GM: added {u.label} ({utype.name}) to {side}{_reason(ctx, reason)}")


@action("gm.remove_unit", "Remove a unit", Param("unit", "unit"),
        Param("reason", required=False, default=""))
def remove_unit(ctx: Ctx, unit: str, reason: str) -> None:
    """Take a unit out of the campaign entirely (not the same as destroyed)."""
    u = ctx.remove_unit(unit)
    ctx.summary(f"GM: removed {u.label}{_reason(ctx, reason)}")


@action("gm.add_formation", "Add a formation", Param("side", "side"), Param("name"),
        Param("kind", required=False, default="formation"),
        Param("parent", required=False, default=""), Param("id", required=False, default=""),
        Param("location", required=False, default=""),
        Param("visibility", "choice", required=False, default="public",
              choices=("public", "counter", "owner")))
def add_formation(ctx: Ctx, side: str, name: str, kind: str, parent: str, id: str,
                  location: str, visibility: str) -> None:
    """Create a formation (a task force, a fleet, a group)."""
    fid = id or ctx.new_id(f"{side.lower()}-{kind}-", "formations")
    ctx.add_formation(Formation(fid, side, name, kind, parent or None, location or None,
                                visibility=visibility))
    ctx.summary(f"GM: new {kind} {name} ({fid}) for {side}")


@action("gm.edit_formation", "Edit a formation", Param("formation", "formation"),
        Param("field", help="name, parent, location, visibility or status.<field>"),
        Param("value", "json"), Param("reason", required=False, default=""))
def edit_formation(ctx: Ctx, formation: str, field: str, value: Any, reason: str) -> None:
    """Change a formation's name, parent, place, visibility or a status value."""
    f = ctx.formation(formation)
    value = _parse_json(value)
    if field.startswith("status."):
        key = field.split(".", 1)[1]
        old = f.status.get(key)
        f.status[key] = value
    elif field in ("name", "location", "parent", "visibility"):
        old = getattr(f, field)
        if field == "parent" and value not in ("", "-", None):
            ctx.state.formation(str(value))
            if any(a.id == f.id for a in ctx.state.ancestors(str(value))):
                raise ActionRejected(f"{f.name} cannot be placed under its own sub-formation")
        if field == "visibility" and value not in ("public", "counter", "owner"):
            raise InvalidInput("visibility must be public, counter or owner")
        setattr(f, field, None if value in ("", "-") and field != "name" else str(value))
    else:
        raise InvalidInput(f"cannot edit {field!r}; use name, parent, location, visibility "
                           "or status.<field>")
    ctx.summary(f"GM: {f.name} {field} {old} -> {value}{_reason(ctx, reason)}")


@action("gm.remove_formation", "Remove an empty formation", Param("formation", "formation"))
def remove_formation(ctx: Ctx, formation: str) -> None:
    """Dissolve a formation that holds no units."""
    f = ctx.remove_formation(formation)
    ctx.summary(f"GM: removed formation {f.name}")


@action("gm.set_var", "Set a game value", Param("name"), Param("value", "json"),
        Param("reason", required=False, default=""))
def set_var(ctx: Ctx, name: str, value: Any, reason: str) -> None:
    """Change a rule set's game value (a track, a flag, who attacks...)."""
    old = ctx.var(name)
    ctx.set_var(name, _parse_json(value))
    ctx.summary(f"GM: {name} {old} -> {ctx.var(name)}{_reason(ctx, reason)}")


@action("gm.set_ledger", "Set a resource", Param("holder"), Param("resource"),
        Param("value", "float"), Param("reason", required=False, default=""))
def set_ledger(ctx: Ctx, holder: str, resource: str, value: float, reason: str) -> None:
    """Set a ledger value (supply points, replacement points, victory points...)."""
    old = ctx.state.ledger(holder, resource)
    ctx.set_ledger(holder, resource, int(value) if float(value).is_integer() else value)
    ctx.summary(f"GM: {holder} {resource} {old} -> {value:g}{_reason(ctx, reason)}")


@action("gm.set_option", "Change a campaign option", Param("option"), Param("value", "json"),
        Param("reason", required=False, default=""))
def set_option(ctx: Ctx, option: str, value: Any, reason: str) -> None:
    """Change one of the rule set's options for this campaign."""
    defs = {o.id: o for o in ctx.ruleset.options()}
    if option in defs and defs[option].setup_only and len(ctx.engine.history) > 1:
        raise ActionRejected(f"option {option} is fixed once play has started")
    old = ctx.options.get(option)
    ctx.set_option(option, value)
    ctx.summary(f"GM: option {option} {old} -> {ctx.options[option]}{_reason(ctx, reason)}")


@action("gm.set_dice", "Switch dice", Param("mode", "choice", choices=("auto", "manual")))
def set_dice(ctx: Ctx, mode: str) -> None:
    """Roll with the program's seeded dice (auto) or type physical dice (manual)."""
    ctx.set_meta("dice", mode)
    ctx.summary(f"Dice: {'the program rolls' if mode == 'auto' else 'physical dice typed in'}")


@action("gm.edit_table", "Override a table cell (house rule)", Param("table"),
        Param("cell", help="row/column labels, e.g. 6/3-1"), Param("value", "json"),
        Param("reason", required=False, default=""))
def edit_table(ctx: Ctx, table: str, cell: str, value: Any, reason: str) -> None:
    """Replace one cell of a table for this campaign; the table shows it as a house rule."""
    base = ctx.ruleset.tables().get(table)
    value = _parse_json(value)
    base.with_cells({cell: value})  # validates the cell key
    old = ctx.tables.get(base.id).cell_at(_indices(base, cell))
    ctx.tx.touch("tables", base.id)
    book = ctx.state.table_overrides.setdefault(base.id, {})
    book[cell] = value
    ctx.summary(f"GM: table {base.id} cell {cell} {old} -> {value}{_reason(ctx, reason)}")


def _indices(table: Any, cell: str) -> list[int]:
    parts = cell.split("/") if len(table.axes) == 2 else [cell]
    return [axis.labels.index(p) for axis, p in zip(table.axes, parts, strict=True)]


@action("gm.reset_table", "Restore a table as shipped", Param("table"))
def reset_table(ctx: Ctx, table: str) -> None:
    """Drop every house-rule override of a table."""
    tid = ctx.ruleset.tables().resolve_id(table)
    ctx.tx.touch("tables", tid)
    ctx.state.table_overrides.pop(tid, None)
    ctx.summary(f"GM: table {tid} restored")


@action("gm.edit_catalog", "Correct a unit type's value", Param("type"), Param("attr"),
        Param("value", "json"), Param("reason", required=False, default=""))
def edit_catalog(ctx: Ctx, type: str, attr: str, value: Any, reason: str) -> None:
    """Change a value of a unit type for this campaign (for example from the real counter)."""
    ctx.catalog.type(type)
    value = _parse_json(value)
    if attr not in ("name", "category", "notes"):
        ctx.catalog.attr_def(attr).check(value, f"unit type {type}")
    old = ctx.catalog.type(type).attrs.get(attr)
    ctx.edit_catalog(type)[attr] = value
    ctx.summary(f"GM: {type} {attr} {old} -> {value}{_reason(ctx, reason)}")


@action("gm.goto", "Jump to a step", Param("step"),
        Param("return_to", required=False, default="",
              help="for a sub-machine entry: the step to come back to"),
        Param("reason", required=False, default=""))
def goto(ctx: Ctx, step: str, return_to: str, reason: str) -> None:
    """Move the phase machine to any step (to correct a mistake); logged as an override.
    With return_to, enter a sub-machine that comes back there when it ends."""
    target = ctx.machine.step(step)
    if return_to:
        ctx.call(target.id, ctx.machine.step(return_to).id)
    else:
        ctx.goto(target.id)
    ctx.summary(f"GM: jump to {target.title}{_reason(ctx, reason)}")


@action("gm.set_clock", "Set the clock", Param("level"), Param("value", "int"),
        Param("reason", required=False, default=""))
def set_clock(ctx: Ctx, level: str, value: int, reason: str) -> None:
    """Set a level of the campaign clock (turn, week, day...)."""
    names = [lvl.name for lvl in ctx.machine.clock]
    if level not in names:
        raise InvalidInput(f"no clock level {level!r}; levels: {', '.join(names)}")
    old = ctx.clock.get(level)
    ctx.set_clock(level, value)
    ctx.summary(f"GM: {level} {old} -> {value}{_reason(ctx, reason)}")


@action("gm.reveal", "Reveal to a side", Param("id", help="unit or formation id"),
        Param("side", "side"))
def reveal(ctx: Ctx, id: str, side: str) -> None:
    """Let a side see a hidden unit or the contents of a formation."""
    if id in ctx.state.units:
        ctx.reveal(ctx.state.units[id], side)
    elif id in ctx.state.formations:
        ctx.reveal(ctx.state.formations[id], side)
    else:
        raise InvalidInput(f"no unit or formation {id!r}")
    ctx.summary(f"GM: {id} revealed to {side}")


@action("gm.end_campaign", "Declare the campaign over", Param("result", help="the outcome"),
        Param("winner", required=False, default=""))
def end_campaign(ctx: Ctx, result: str, winner: str) -> None:
    """End the campaign now with the given outcome."""
    outcome: dict[str, Any] = {"result": result, "declared_by": "gm"}
    if winner:
        outcome["winner"] = winner
    ctx.end_game(outcome)
    ctx.summary(f"Campaign ended by the GM: {result}")


@action("gm.quick_setup", "Quick set-up", key="",
        help="Do the whole set-up of this scenario at once: the printed deployment where the "
             "rules give it, otherwise a legal default placement marked as such. Adjust it "
             "afterwards with the usual actions; one undo removes it.")
def quick_setup(ctx: Ctx) -> None:
    """The rule set's quick set-up of the campaign's scenario, as one logged action."""
    reason = ctx.ruleset.quick_setup_why_not(ctx.state)
    if reason:
        raise ActionRejected(f"Quick set-up: {reason}")
    scenario = ctx.ruleset.scenario(ctx.engine.info.scenario or None)
    ctx.tags["quick_setup"] = True
    ctx.ruleset.quick_setup(ctx, scenario)
    if not ctx.summary_text:
        ctx.summary(f"Quick set-up of {scenario.title}")


BUILTIN_ACTIONS: dict[str, ActionDef] = {
    d.kind: d for d in (
        ADVANCE_ACTION, quick_setup, note, set_status, set_attr, move_unit, place, add_unit, remove_unit,
        add_formation, edit_formation, remove_formation, set_var, set_ledger, set_option,
        set_dice, edit_table, reset_table, edit_catalog, goto, set_clock, reveal, end_campaign,
        *MAP_ACTIONS,
    )
}
