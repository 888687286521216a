"""Shell completion (argcomplete): rule set ids, campaign names, actions, procedures,
tables and their NAME= parameters. Each completer swallows its own errors: a half-typed
command line must never print a traceback into the shell."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

Completer = Callable[..., Iterable[str]]


def _safe(fn: Completer) -> Completer:
    def wrapped(prefix: str = "", parsed_args: argparse.Namespace | None = None,
                **_: Any) -> list[str]:
        try:
            return [c for c in fn(parsed_args) if c.startswith(prefix)]
        except Exception:
            return []

    return wrapped


@_safe
def rulesets(args: Any) -> Iterable[str]:
    from campaign_tui.registry import registry

    return list(registry().infos)


@_safe
def campaigns(args: Any) -> Iterable[str]:
    from campaign_tui.campaigns import list_campaigns
    from campaign_tui.store.paths import places

    rows = list_campaigns(places(getattr(args, "home", None)))
    return [r.name for r in rows] + [r.path.stem for r in rows]


def _engine(args: Any) -> Any:
    from campaign_tui.campaigns import open_path, resolve
    from campaign_tui.store.paths import places

    return open_path(resolve(places(args.home), args.campaign), read_only=True).engine


@_safe
def actions(args: Any) -> Iterable[str]:
    return list(_engine(args).ruleset.actions())


@_safe
def procedures(args: Any) -> Iterable[str]:
    from campaign_tui.registry import load_ruleset

    return list(load_ruleset(args.ruleset).procedures())


@_safe
def tables(args: Any) -> Iterable[str]:
    from campaign_tui.registry import load_ruleset

    return [t.id for t in load_ruleset(args.ruleset).tables()]


def _names(params: Iterable[Any]) -> list[str]:
    out = []
    for p in params:
        out.append(f"{p.name}=")
        out.extend(f"{p.name}={c}" for c in p.choices if c)
    return out


@_safe
def action_params(args: Any) -> Iterable[str]:
    return _names(_engine(args).action_def(args.action).params)


@_safe
def procedure_params(args: Any) -> Iterable[str]:
    from campaign_tui.registry import load_ruleset

    return _names(load_ruleset(args.ruleset).procedure(args.procedure).params)


@_safe
def table_inputs(args: Any) -> Iterable[str]:
    from campaign_tui.registry import load_ruleset

    table = load_ruleset(args.ruleset).tables().get(args.table)
    return [f"{a.name}=" for a in table.axes] + [f"{a.name}={label}" for a in table.axes
                                                 for label in a.labels]


def attach(parser: argparse.ArgumentParser) -> None:
    """Give the sub-commands' arguments their completers (by argument name)."""
    by_dest = {"ruleset": rulesets, "campaign": campaigns}
    by_command = {"act": {"action": actions, "values": action_params},
                  "calc": {"procedure": procedures, "inputs": procedure_params},
                  "table": {"table": tables, "inputs": table_inputs}}
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sp in sub.choices.items():
        for action in sp._actions:
            fn = by_command.get(name, {}).get(action.dest) or by_dest.get(action.dest)
            if fn is not None:
                action.completer = fn  # type: ignore[attr-defined]


def enable(parser: argparse.ArgumentParser) -> None:
    """When the shell asks for completions (argcomplete sets ``_ARGCOMPLETE``), answer and
    exit; otherwise do nothing."""
    import os

    if "_ARGCOMPLETE" not in os.environ:
        return
    import argcomplete

    attach(parser)
    argcomplete.autocomplete(parser)
