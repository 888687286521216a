"""What changed between two projections of one viewer's state: the table sends this
(``delta``) after an action instead of the whole projected state.

A state travels as ``State.to_dict()``: a dict of collections, each a dict of slots. A
delta names, per collection that changed, either the slots whose value changed (``set``:
the collection's keys and their order are the same) or the whole new collection (``all``:
a slot added, removed or moved). It is computed between two projections of the SAME
viewer (never from the full state), so it holds only what the newer one holds. No
Textual import here.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.model import (
    _ENTITY_TYPES,
    ENTITY_COLLECTIONS,
    PLAIN_COLLECTIONS,
    RECORDS_PREFIX,
    State,
    plain,
)

Tree = dict[str, dict[str, Any]]
Delta = dict[str, dict[str, Any]]


def state_delta(old: Tree, new: Tree) -> Delta:
    """How to make *new* from *old* (both ``State.to_dict()`` of one viewer); empty when
    they are equal."""
    changed: dict[str, dict[str, Any]] = {}
    whole: dict[str, Any] = {}
    for coll, bucket in new.items():
        before = old.get(coll)
        if before == bucket:
            continue
        if before is None or list(before) != list(bucket):
            whole[coll] = bucket
            continue
        changed[coll] = {k: v for k, v in bucket.items() if before[k] != v}
    return _delta(changed, whole)


def view_delta(old: State, new: State) -> Delta:
    """``state_delta(old.to_dict(), new.to_dict())`` made from the two states themselves:
    only the slots that differ are made plain data. For two states neither of which has
    changed since it was made (a side's views: fresh projections, kept as made), at the
    cost of comparing them instead of copying both whole."""
    changed: dict[str, dict[str, Any]] = {}
    whole: dict[str, Any] = {}
    # the collections of ``State.to_dict()``; "records" after them (one collection on the
    # wire, whose slots are the state's ``records/`` collections)
    for coll in (*PLAIN_COLLECTIONS, *ENTITY_COLLECTIONS):
        a, b = old._c[coll], new._c[coll]
        if a is b or a == b:
            continue
        wire = _wire(coll)
        if _tree_keys(coll, a) != _tree_keys(coll, b):
            whole[coll] = {k: wire(v) for k, v in b.items() if v is not None}
            continue
        slots = {}
        for k, v in b.items():
            if v is not None and a[k] != v and wire(a[k]) != (mine := wire(v)):
                slots[k] = mine
        if slots:
            changed[coll] = slots
    names = [c for c in old._c if c.startswith(RECORDS_PREFIX)]
    if names != [c for c in new._c if c.startswith(RECORDS_PREFIX)]:
        whole["records"] = {c[len(RECORDS_PREFIX):]: plain(new._c[c])
                            for c in new._c if c.startswith(RECORDS_PREFIX)}
    else:
        slots = {}
        for c in names:
            a, b = old._c[c], new._c[c]
            if a != b and plain(a) != (mine := plain(b)):
                slots[c[len(RECORDS_PREFIX):]] = mine
        if slots:
            changed["records"] = slots
    return _delta(changed, whole)


def _delta(changed: dict[str, dict[str, Any]], whole: dict[str, Any]) -> Delta:
    out: Delta = {}
    if changed:
        out["set"] = changed
    if whole:
        out["all"] = whole
    return out


def _wire(coll: str) -> Any:
    """How one slot of *coll* travels (as in ``State.to_dict()``)."""
    return plain if coll not in _ENTITY_TYPES else (lambda entity: entity.to_dict())


def _tree_keys(coll: str, bucket: dict[str, Any]) -> list[str]:
    """The slots of *coll* in ``State.to_dict()`` (a plain collection's ``None`` values
    are left out)."""
    if coll in _ENTITY_TYPES:
        return list(bucket)
    return [k for k, v in bucket.items() if v is not None]


_ABSENT = object()


def info_delta(old: Tree, new: Tree) -> tuple[dict[str, Any], list[str]]:
    """The fields of a campaign's info (``CampaignInfo.to_dict()``) that *new* sets anew,
    and those it no longer has."""
    return ({k: v for k, v in new.items() if old.get(k, _ABSENT) != v},
            [k for k in old if k not in new])


def apply_to_tree(old: Tree, delta: Delta) -> Tree:
    """*old* with *delta* applied (a new dict; *old* is left as it was)."""
    out = dict(old)
    for coll, slots in delta.get("set", {}).items():
        out[coll] = {**out[coll], **slots}
    out.update(delta.get("all", {}))
    return out


def _bucket(coll: str, data: dict[str, Any]) -> dict[str, Any]:
    typ = _ENTITY_TYPES.get(coll)
    if typ is None:
        return data
    return {k: typ.from_dict(k, v, copy=False) for k, v in data.items()}


def apply_to_state(state: State, delta: Delta) -> State:
    """A new state: *state* with *delta* applied. The collections the delta does not touch
    are shared with *state* (a seat's replica is never changed in place), and the data
    of the delta is used without copying (it was just parsed)."""
    new = State.__new__(State)
    new._c = dict(state._c)
    for coll, slots in delta.get("set", {}).items():
        if coll == "records":
            for name, bucket in slots.items():
                new._c[RECORDS_PREFIX + name] = bucket
        else:
            new._c[coll] = {**new._c[coll], **_bucket(coll, slots)}
    for coll, data in delta.get("all", {}).items():
        if coll == "records":
            for name in [c for c in new._c if c.startswith(RECORDS_PREFIX)]:
                del new._c[name]
            for name, bucket in data.items():
                new._c[RECORDS_PREFIX + name] = bucket
        else:
            new._c[coll] = _bucket(coll, data)
    meta = new._c["meta"]
    if "machine" not in meta or "position" not in meta:   # as State.from_dict
        new._c["meta"] = {"machine": "", "position": {"step": "", "stack": []}, **meta}
    return new
