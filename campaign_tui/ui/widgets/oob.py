"""The order of battle: side > formation > unit, built lazily.

Only the nodes the user has opened exist in the tree (children are added when a node is
expanded, in chunks of :data:`CHUNK`), so 2,000 units cost what a screenful costs. The tree
shows what it is given: the view of the campaign for the current viewer (the GM sees all;
a side sees what the engine's projection leaves it). It never changes the campaign: the
edit commands post :class:`OobPanel.Request` and the screen sends the engine actions.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static, Tree
from textual.widgets.tree import TreeNode

from campaign_tui.core.records import record
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.text import (
    count_words,
    formation_label,
    side_label,
    unit_details,
    unit_label,
)
from campaign_tui.ui.widgets.entry import Entry

if TYPE_CHECKING:
    from campaign_tui.core.model import Formation, State, Unit
    from campaign_tui.core.ruleset import RuleSet

NodeKey = tuple[str, str]   # ("side", id) | ("formation", id) | ("unit", id) | ("more", ...)
CHUNK = 200                 # children added at a time under one node
MAX_MATCHES = 400           # units shown for a filter


def hurt(unit: Unit) -> bool:
    """Destroyed or disrupted (shown first, never cut off)."""
    return bool(unit.status.get("destroyed") or unit.status.get("disrupted"))


def search_text(ruleset: RuleSet, view: State, unit: Unit) -> str:
    """What the filter searches: the unit's line (name, stats, badges), id and type, its hex,
    its task force and the formations above it (names and ids), its status in words."""
    parts = [unit_label(ruleset, view, unit).plain, unit.id, unit.type, unit.location or ""]
    if unit.location:
        parts.append(unit.location.removeprefix("hex:"))
    fid = unit.formation
    while fid and fid in view.formations:
        f = view.formations[fid]
        parts += [f.name, f.id, f.location or ""]
        fid = f.parent
    for key, value in unit.status.items():
        if value not in (None, False, 0, "", [], {}):
            parts.append(key.replace("_", " "))
            if isinstance(value, str):
                parts.append(value)
    return " ".join(parts).lower()


@record
class OobIndex:
    """Who is under what, computed once per refresh of the view."""

    view: State
    viewer: str

    def __post_init__(self) -> None:
        v = self.view
        self.units_in: dict[str | None, list[Unit]] = defaultdict(list)
        self.loose: dict[str, list[Unit]] = defaultdict(list)
        for u in v.units.values():
            if u.formation and u.formation in v.formations:
                self.units_in[u.formation].append(u)
            else:
                self.loose[u.side].append(u)
        for units in (*self.units_in.values(), *self.loose.values()):
            units.sort(key=lambda u: not hurt(u))  # destroyed and disrupted first (stable)
        self.children: dict[str | None, list[Formation]] = defaultdict(list)
        self.top: dict[str, list[Formation]] = defaultdict(list)
        for f in v.formations.values():
            if f.parent and f.parent in v.formations:
                self.children[f.parent].append(f)
            else:
                self.top[f.side].append(f)
        self._deep: dict[str, int] = {}

    def closed(self, f: Formation) -> bool:
        """A formation the viewer sees as a counter: its contents are hidden."""
        return (self.viewer != "gm" and f.side != self.viewer and f.visibility != "public"
                and self.viewer not in f.known_to)

    def deep_count(self, fid: str) -> int:
        if fid not in self._deep:
            self._deep[fid] = len(self.units_in.get(fid, ())) + sum(
                self.deep_count(c.id) for c in self.children.get(fid, ()))
        return self._deep[fid]

    def kids(self, key: NodeKey) -> list[tuple[NodeKey, Any]]:
        kind, ident = key
        if kind == "side":
            return ([(("formation", f.id), f) for f in self.top.get(ident, ())]
                    + [(("unit", u.id), u) for u in self.loose.get(ident, ())])
        if kind == "formation":
            return ([(("formation", f.id), f) for f in self.children.get(ident, ())]
                    + [(("unit", u.id), u) for u in self.units_in.get(ident, ())])
        return []


class OobTree(Tree[NodeKey]):
    """The tree itself. ``space`` marks a unit; ``enter`` opens or closes a node."""

    BINDINGS: ClassVar = [
        Binding("space", "toggle_mark", "Mark", show=False),
        Binding("enter", "toggle_node", "Open/close", show=False),
    ]

    def __init__(self, ruleset: RuleSet, **kw: Any) -> None:
        super().__init__("Order of battle", **kw)
        self.auto_expand = False  # enter toggles through action_toggle_node
        self.show_root = False
        self.guide_depth = 2
        self.ruleset = ruleset
        self.index: OobIndex | None = None
        self.marks: set[str] = set()
        self.opened: set[NodeKey] = set()
        self.nodes: dict[NodeKey, TreeNode[NodeKey]] = {}
        self.filter_text = ""
        self._headlines: tuple[OobIndex, dict[str, list[str]]] | None = None
        self._filling = False

    # -- (re)building ---------------------------------------------------------------------
    def show_view(self, view: State, viewer: str) -> None:
        """Show *view*, keeping what was open and where the cursor was."""
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        first = self.index is None
        self.index = OobIndex(view, viewer)
        self._filling = True
        try:
            self.clear()
            self.nodes = {}
            if self.filter_text:
                self._build_filtered()
            else:
                for sid, side in view.sides.items():
                    key: NodeKey = ("side", sid)
                    if first:
                        self.opened.add(key)
                    self._add(self.root, key, side)
        finally:
            self._filling = False
        self.get_node_at_line(0)  # lays the new lines out, so nodes know their line
        if cursor is not None and cursor in self.nodes:
            self.move_cursor(self.nodes[cursor], animate=False)
        elif self.root.children:
            self.move_cursor(self.root.children[0], animate=False)

    def _headline(self, sid: str) -> list[str]:
        index = self.index
        assert index is not None
        if self._headlines is None or self._headlines[0] is not index:
            try:    # once a refresh: the rule set's headline covers every side
                lines = self.ruleset.headline(index.view)
            except Exception:
                lines = {}
            self._headlines = (index, lines)
        return self._headlines[1].get(sid, [])

    def label_for(self, key: NodeKey, obj: Any) -> Text:
        assert self.index is not None
        kind = key[0]
        if kind == "side":
            return side_label(obj.name, self._headline(obj.id))
        if kind == "formation":
            return formation_label(obj, self.index.deep_count(obj.id), self.index.closed(obj))
        if kind == "unit":
            return unit_label(self.ruleset, self.index.view, obj, obj.id in self.marks)
        return Text(str(obj), style="italic dim")

    def _add(self, parent: TreeNode[NodeKey], key: NodeKey, obj: Any) -> TreeNode[NodeKey]:
        assert self.index is not None
        label = self.label_for(key, obj)
        if key[0] == "unit":
            node = parent.add_leaf(label, data=key)
        else:
            has_kids = bool(self.index.kids(key)) and not (
                key[0] == "formation" and self.index.closed(obj))
            node = parent.add(label, data=key, allow_expand=has_kids)
            if has_kids and key in self.opened:
                self._populate(node)
                node.expand()
        self.nodes[key] = node
        return node

    def _populate(self, node: TreeNode[NodeKey], start: int = 0) -> None:
        if node.data is None or self.index is None:
            return
        kids = self.index.kids(node.data)
        if start == 0 and node.children:
            return
        # the destroyed and disrupted come first and are never left in "… more"
        first = sum(1 for k, o in kids if k[0] == "formation" or hurt(o))
        size = CHUNK if start else max(CHUNK, first)
        for key, obj in kids[start:start + size]:
            self._add(node, key, obj)
        rest = len(kids) - start - size
        if rest > 0:
            more = node.add_leaf(Text(f"… {rest} more (enter to show)", style="italic dim"),
                                 data=("more", f"{node.data[0]}:{node.data[1]}:{start + size}"))
            self.nodes[("more", str(more.id))] = more

    def _build_filtered(self) -> None:
        assert self.index is not None
        view = self.index.view
        words = self.filter_text.lower().split()
        found = [u for u in view.units.values()
                 if all(w in search_text(self.ruleset, view, u) for w in words)]
        found.sort(key=lambda u: not hurt(u))  # destroyed and disrupted first, never cut
        total = len(found)
        matches = found[:max(MAX_MATCHES, sum(1 for u in found if hurt(u)))]
        parents: dict[NodeKey, TreeNode[NodeKey]] = {}

        def parent_for(u: Unit) -> TreeNode[NodeKey]:
            chain: list[Formation] = []
            fid = u.formation
            while fid and fid in view.formations:
                chain.append(view.formations[fid])
                fid = view.formations[fid].parent
            skey: NodeKey = ("side", u.side)
            if skey not in parents:
                side = view.sides.get(u.side)
                label = side_label(side.name if side else u.side, [])
                parents[skey] = self.root.add(label, data=skey, expand=True)
                self.nodes[skey] = parents[skey]
            node = parents[skey]
            for f in reversed(chain):
                fkey: NodeKey = ("formation", f.id)
                if fkey not in parents:
                    parents[fkey] = node.add(self.label_for(fkey, f), data=fkey, expand=True)
                    self.nodes[fkey] = parents[fkey]
                node = parents[fkey]
            return node

        for u in matches:
            key: NodeKey = ("unit", u.id)
            self.nodes[key] = parent_for(u).add_leaf(self.label_for(key, u), data=key)
        if total > len(matches):
            rest = total - len(matches)
            self.root.add_leaf(Text(f"… {rest} more {'match' if rest == 1 else 'matches'}; "
                                    "refine the filter",
                                    style="italic dim"), data=("more", "filter"))
        if not total:
            self.root.add_leaf(Text("no unit matches the filter", style="italic dim"),
                               data=("more", "none"))

    def relabel(self) -> None:
        """Refresh the labels of the nodes that exist (marks changed)."""
        if self.index is None:
            return
        view = self.index.view
        for key, node in self.nodes.items():
            if key[0] == "unit" and key[1] in view.units:
                node.set_label(self.label_for(key, view.units[key[1]]))

    # -- events ------------------------------------------------------------------------------
    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeKey]) -> None:
        event.stop()
        node = event.node
        if node.data is None:
            return
        if not self._filling and not self.filter_text:
            self.opened.add(node.data)
        self._populate(node)

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[NodeKey]) -> None:
        event.stop()
        if event.node.data is not None and not self.filter_text:
            self.opened.discard(event.node.data)

    def action_toggle_node(self) -> None:
        node = self.cursor_node
        if node is None or node.data is None:
            return
        if node.data[0] == "more" and node.parent is not None:
            parts = str(node.data[1]).split(":")
            if len(parts) == 3:
                parent = node.parent
                start = int(parts[2])
                node.remove()
                self._populate(parent, start)
            return
        if node.allow_expand:
            if not node.is_expanded:
                # children exist before the next key arrives (no race with fast typing)
                self._populate(node)
                self.opened.add(node.data)
            node.toggle()

    def action_toggle_mark(self) -> None:
        node = self.cursor_node
        if node is None or node.data is None or node.data[0] != "unit":
            return
        uid = node.data[1]
        if uid in self.marks:
            self.marks.discard(uid)
        else:
            self.marks.add(uid)
        if self.index is not None and uid in self.index.view.units:
            node.set_label(self.label_for(node.data, self.index.view.units[uid]))
        self.post_message(OobPanel.MarksChanged())
        self.action_cursor_down()

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        super().watch_cursor_line(previous_line, line)
        # the details below follow the cursor in the same repaint (after the NodeHighlighted
        # message they came a frame later: two repaints of the screen a key)
        if previous_line != line and isinstance(self.parent, OobPanel):
            self.parent.show_details()

    @property
    def current(self) -> NodeKey | None:
        node = self.cursor_node
        return node.data if node is not None else None


class OobPanel(Vertical):
    """Filter line, the tree, and the highlighted unit's details."""

    HELP_GROUP = "Order of battle panel (F3)"

    CMDS: ClassVar = (C.OOB_FILTER, C.OOB_MARK, C.OOB_MOVE, C.OOB_EDIT, C.OOB_ADD, C.OOB_CLEAR)
    BINDINGS: ClassVar = bindings(C.OOB_FILTER, C.OOB_MOVE, C.OOB_EDIT, C.OOB_ADD, C.OOB_CLEAR)

    class Request(Message):
        """The user asked for an edit: the screen turns it into an engine action."""

        def __init__(self, what: str, key: NodeKey | None) -> None:
            super().__init__()
            self.what = what
            self.key = key

    class MarksChanged(Message):
        pass

    def __init__(self, ruleset: RuleSet, read_only: bool = False, **kw: Any) -> None:
        super().__init__(**kw)
        self.ruleset = ruleset
        self.read_only = read_only

    def compose(self) -> ComposeResult:
        yield Entry(placeholder="/ find: name, task force, hex, status", classes="filter",
                    compact=True, id="oob-filter")
        yield OobTree(self.ruleset, id="oob-tree")
        yield Static("", id="oob-details", classes="panel-status")

    @property
    def tree(self) -> OobTree:
        return self.query_one(OobTree)

    def show_view(self, view: State, viewer: str) -> None:
        self.tree.show_view(view, viewer)
        self.show_details()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self.read_only and action in ("move_unit", "edit_status", "add_unit"))

    def action_focus_filter(self) -> None:
        self.query_one("#oob-filter", Input).focus()

    def action_move_unit(self) -> None:
        self.post_message(self.Request("move", self.tree.current))

    def action_edit_status(self) -> None:
        self.post_message(self.Request("status", self.tree.current))

    def action_add_unit(self) -> None:
        self.post_message(self.Request("add", self.tree.current))

    def action_clear_marks(self) -> None:
        self.tree.marks.clear()
        self.tree.relabel()
        self.post_message(self.MarksChanged())

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "oob-filter":
            return
        event.stop()
        tree = self.tree
        tree.filter_text = event.value.strip()
        if tree.index is not None:
            tree.show_view(tree.index.view, tree.index.viewer)
        self.show_details()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "oob-filter":
            event.stop()
            self.tree.focus()

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeKey]) -> None:
        event.stop()    # the details were shown already (OobTree.watch_cursor_line)

    def on_oob_panel_marks_changed(self, event: OobPanel.MarksChanged) -> None:
        self.show_details()

    def show_details(self) -> None:
        """What the cursor stands on, under the tree."""
        tree = self.tree
        key = tree.current
        out = Text()
        index = tree.index
        if key is not None and index is not None:
            view = index.view
            if key[0] == "unit" and key[1] in view.units:
                out = Text("\n".join(unit_details(self.ruleset, view, view.units[key[1]])))
            elif key[0] == "formation" and key[1] in view.formations:
                f = view.formations[key[1]]
                out = Text(f"{f.name} [{f.id}] {f.kind} of {f.side}"
                           + (f" at {f.location}" if f.location else "")
                           + f"; {count_words(index.deep_count(f.id))}")
            elif key[0] == "side" and key[1] in view.sides:
                s = view.sides[key[1]]
                units = sum(1 for u in view.units.values() if u.side == s.id)
                out = Text(f"{s.name} [{s.id}]: {units} unit{'' if units == 1 else 's'} shown")
        if tree.marks:
            out.append(f"\nmarked: {len(tree.marks)} (space marks, c clears)", style="green")
        # the box has a fixed height: repaint it without a layout pass on every cursor move
        self.query_one("#oob-details", Static).update(out, layout=False)
