"""Every user command, declared once.

A :class:`Cmd` names the command (id), its key(s), a short title (footer), one line of help
(F1, tooltips, command palette) and the action it runs. A screen lists its commands in
``CMDS``; its ``BINDINGS`` are derived with :func:`bindings`, the footer shows those marked
``footer``, the help screen (F1) lists them with their help, and the command palette offers
those whose action is allowed now (``check_action``), plus the screen's own context
commands (the engine's actions, tables, bookmarks...).

Keys are chosen to survive SSH and tmux: letters, digits, F1-F10, arrows, Home/End,
PgUp/PgDn and ctrl+letter. Nothing needs Alt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from campaign_tui.core.records import record

if TYPE_CHECKING:
    from textual.dom import DOMNode

KEY_NAMES = {
    "question_mark": "?", "slash": "/", "space": "space", "escape": "esc", "enter": "enter",
    "delete": "del", "pageup": "pgup", "pagedown": "pgdn", "full_stop": ".",
}


def key_display(key: str) -> str:
    """``ctrl+s`` -> ``^s``, ``f1,question_mark`` -> ``F1/?``."""
    parts = [k.strip() for k in key.split(",")]
    if len(parts) > 2 and all(k.isdigit() for k in parts):
        return f"{parts[0]}-{parts[-1]}"
    out = []
    for k in parts:
        k = k.strip()
        if k.startswith("ctrl+"):
            out.append("^" + k[5:])
        elif k.startswith("f") and k[1:].isdigit():
            out.append(k.upper())
        else:
            out.append(KEY_NAMES.get(k, k))
    return "/".join(out)


@record(frozen=True)
class Cmd:
    id: str
    key: str
    title: str
    help: str
    action: str
    footer: bool = True
    priority: bool = False
    palette: bool = True

    @property
    def keys(self) -> str:
        return key_display(self.key)

    def binding(self) -> Binding:
        first = self.key.split(",")[0]
        return Binding(self.key, self.action, self.title, show=self.footer,
                       key_display=key_display(first), priority=self.priority,
                       tooltip=self.help, id=self.id)


def bindings(*cmds: Cmd) -> list[Binding]:
    """The bindings of *cmds*; a command whose keys are digits gets one binding per digit
    (its action receives the digit: ``choose(3)``)."""
    out: list[Binding] = []
    for c in cmds:
        keys = [k.strip() for k in c.key.split(",")]
        if all(k.isdigit() for k in keys):
            out.extend(Binding(k, f"{c.action}({k})", f"{c.title}{k}", show=False, id=f"{c.id}-{k}")
                       for k in keys)
        else:
            out.append(c.binding())
    return out


def _c(id: str, key: str, title: str, help: str, action: str | None = None,
       **kw: Any) -> Cmd:
    return Cmd(id, key, title, help, action or id.replace("-", "_"), **kw)


# -- everywhere --------------------------------------------------------------------------
QUIT = _c("quit", "ctrl+q", "Quit", "Quit (asks first if something is unsaved)", priority=True)
HELP = _c("help", "f1,question_mark", "Help", "List every key of this screen")
PALETTE_NOTE = _c("palette", "ctrl+p", "Commands", "Open the command palette", "command_palette",
                  footer=False, palette=False)

# -- campaign-wide (main, history, tables) ----------------------------------------------
SAVE = _c("save", "ctrl+s", "Save", "Save the campaign now")
UNDO = _c("undo", "ctrl+z", "Undo", "Undo the last action (asks first past a die roll)")
REDO = _c("redo", "ctrl+y", "Redo", "Redo the last undone action, with the same dice")

# -- picker ---------------------------------------------------------------------------------
P_OPEN = _c("open", "o", "Open", "Open the highlighted campaign, also with enter (examples are "
            "copied into your campaigns first)", "open_campaign")
P_NEW = _c("new", "n", "New", "Create a campaign with the wizard", "new_campaign")
P_DUP = _c("duplicate", "d", "Duplicate", "Make a copy of the highlighted campaign",
           "duplicate_campaign")
P_DELETE = _c("delete", "x,delete", "Delete", "Move the highlighted campaign to the trash "
              "folder (asks first)", "delete_campaign")
P_REFRESH = _c("refresh", "r", "Refresh", "Read the campaigns folder again", footer=False)

# -- main screen ----------------------------------------------------------------------------
ADVANCE = _c("advance", "n", "Advance", "Finish this step and go on (refused, with the reason, "
             "while something required is missing)")
ADVANCE_UNTIL = _c("advance-until", "N", "Advance until…", "Advance several steps: until something "
                   "is due (a side's decision, a roll, a battle), some days or turns, or a "
                   "step; stops at any decision and at a battle", "advance_until",
                   footer=False)
QUICK_SETUP = _c("quick-setup", "q", "Quick set-up", "Do the scenario's whole set-up at once "
                  "(printed deployment or a marked default; one undo removes it)", footer=False)
CHOOSE = _c("choose", "0,1,2,3,4,5,6,7,8,9", "Do #", "Do the numbered action of the phase "
            "prompt (0: the actions past the ninth)",
            "choose", footer=False, palette=False)
SHOW_PROMPT = _c("show-prompt", "f2", "Prompt", "Show the phase prompt", "show_panel('prompt')", footer=False)
SHOW_OOB = _c("show-oob", "f3", "Forces", "Show the order of battle", "show_panel('oob')", footer=False)
SHOW_LOG = _c("show-log", "f4", "Dice", "Show the die log", "show_panel('log')", footer=False)
# F5-F9 are shown in the main screen's panel bar (not the footer too: each footer key is
# a widget, and every widget costs time on every key)
TABLES = _c("tables", "f5", "Tables", "Browse the rule set's tables (GM overrides)",
            "open_tables", footer=False)
HISTORY = _c("history", "f6", "History", "Step back to any turn or phase and look (read-only)",
             "open_history", footer=False)
VIEW_AS = _c("view-as", "f7", "View as", "See the campaign as the GM or as one side",
             "view_as", footer=False)
PRIVACY = _c("privacy", "f8", "Privacy", "Hide the screen while passing the keyboard",
             "privacy", footer=False)
GM_MENU = _c("gm-actions", "f9", "GM", "The GM's edits and overrides (all logged, undoable)",
             "gm_actions", footer=False)
MAP = _c("map", "g", "Map", "The map as this seat may see it: arrows move, / finds, Enter shows "
         "what is there", "open_map", footer=False)
CAMPAIGNS = _c("campaigns", "f10", "Campaigns", "Close this campaign and go to the campaign "
               "list", "close_campaign", footer=False)

# -- order of battle panel --------------------------------------------------------------
OOB_FILTER = _c("oob-filter", "slash", "Filter", "Filter units by name, type, status or stat",
                "focus_filter")
OOB_MARK = _c("oob-mark", "space", "Mark", "Mark or unmark the unit (marked units fill unit "
              "lists in action forms)", "toggle_mark")
OOB_MOVE = _c("oob-move", "m", "Move", "Move the unit to another formation (GM)", "move_unit")
OOB_EDIT = _c("oob-edit", "e", "Status", "Edit the unit's status (GM)", "edit_status")
OOB_ADD = _c("oob-add", "a", "Reinforce", "Add a unit from the catalog (GM)", "add_unit")
OOB_CLEAR = _c("oob-clear", "c", "Unmark all", "Clear every mark", "clear_marks", footer=False)

# -- die log panel -------------------------------------------------------------------------
LOG_FILTER = _c("log-filter", "slash", "Filter", "Filter rolls: turn:3 phase:combat side:A "
                "table:crt or any words", "focus_filter")
LOG_EXPAND = _c("log-expand", "enter", "Explain", "Expand or fold the full explanation of the "
                "roll", "toggle_expand")
LOG_ALL = _c("log-all", "a", "All entries", "Show every log entry, or only the rolls",
             "toggle_all")
LOG_OLDER = _c("log-older", "o", "Load older", "Load older log entries", "load_older",
               footer=False)

# -- dialogs ------------------------------------------------------------------------------
CANCEL = _c("cancel", "escape", "Cancel", "Close without doing anything", "cancel")
BACK = _c("back", "escape", "Back", "Go back", "back")
ROLL = _c("roll", "ctrl+r", "Roll", "Compute the action: totals, odds, dice and results "
          "(nothing is changed yet)", "roll")
APPLY = _c("apply", "ctrl+e", "Apply", "Carry the action out as reviewed", "apply")
OVERRIDE = _c("override", "ctrl+o", "Override", "GM: replace a roll or a table result (logged)",
              "override")
NEXT = _c("next", "ctrl+n", "Next", "Go on to the next step", "next")

# -- tables -----------------------------------------------------------------------------------
T_EDIT = _c("table-edit", "e", "Edit cell", "GM: override the highlighted cell (house rule, "
            "logged)", "edit_cell")
T_RESET = _c("table-reset", "r", "Reset", "GM: restore the table as shipped (logged)",
             "reset_table")

# -- history ----------------------------------------------------------------------------------
H_SHOW = _c("history-show", "enter", "Show", "Show the campaign as it stood then",
            "show_bookmark", footer=False)


def scope_name(node: DOMNode) -> str:
    from textual.app import App
    from textual.screen import Screen

    group = getattr(node, "HELP_GROUP", "")
    if group:
        return str(group)
    if isinstance(node, App):
        return "Everywhere"
    if isinstance(node, Screen):
        return "This screen"
    return "This panel"


def command_rows(nodes: Iterable[DOMNode]) -> Iterator[tuple[str, str, str, str]]:
    """(scope, keys, title, help) for each declared command of *nodes*, in order."""
    seen: set[str] = set()
    for node in nodes:
        for cmd in getattr(node, "CMDS", ()):
            if cmd.id in seen:
                continue
            seen.add(cmd.id)
            yield scope_name(node), cmd.keys, cmd.title, cmd.help


PaletteEntry = tuple[str, str, Callable[[], Any]]
