"""``later``: a rule module imported when one of its functions is first called.

A rule set's phase machine names dozens of rule functions (``when=``, ``enter=``,
``effect=``, ``Require`` checks) and its action handlers call dozens more, but opening a
campaign calls almost none of them: importing every rule module to declare the machine was
most of a rule set's share of the TUI's start-up. With ``K = later("pkg.combat")``,
``K.sd_over`` is a stand-in that imports ``pkg.combat`` at its first call and then calls
the real ``sd_over``; afterwards ``K.sd_over`` is the real function.

Only functions (and classes called to build a value) may be reached through it: a
constant read as ``K.LIMIT`` is a stand-in, not the value, and fails when used. Import
constants, and classes used in ``isinstance`` or annotations, the ordinary way from a
module that is cheap to import.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LaterFunction:
    """``module.name``, looked up in *owner*'s module at the first call."""

    __slots__ = ("_fn", "_name", "_owner")

    def __init__(self, owner: LaterModule, name: str) -> None:
        self._owner = owner
        self._name = name
        self._fn: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn
        if fn is None:
            fn = self._fn = getattr(self._owner._load(), self._name)
            # later lookups through the module stand-in get the real function
            object.__setattr__(self._owner, self._name, fn)
        return fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<later {self._owner._name}.{self._name}>"


class LaterModule:
    """The stand-in for a module not imported yet (see the module's docstring)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module

    def __getattr__(self, attr: str) -> Any:  # only called for names not yet looked up
        if attr.startswith("__"):
            raise AttributeError(attr)
        fn = LaterFunction(self, attr)
        object.__setattr__(self, attr, fn)
        return fn

    def __repr__(self) -> str:
        return f"<later module {self._name}>"


def later(name: str) -> Any:
    """A stand-in for the module *name*: its functions import it at their first call."""
    return LaterModule(name)
