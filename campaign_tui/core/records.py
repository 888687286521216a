"""``record``: a dataclass whose ``__repr__``, ``__eq__`` and ``__hash__`` are shared
instead of generated.

The standard dataclass decorator generates each method with ``exec``, about 0.15 ms each on
Python 3.11, and the engine defines some fifty of these classes on the way to the first
screen. A record gets ``__init__`` generated as usual, and shared methods built from its
fields for the rest, which behave the same: the repr reads the same, two records are equal
when of the same class with equal compared fields, and a frozen record hashes its hashed
fields (a mutable one is unhashable). A record without a docstring is documented as
``Name(field, ...)``, not with one made by ``inspect.signature``.

Where the Python version's dataclasses work as this module expects (3.11 and 3.12), a frozen
record's ``__setattr__`` and ``__delattr__`` are closures with the generated methods' exact
test instead of two more ``exec`` calls; other versions get the decorator's own.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def _repr(self: Any) -> str:
    parts = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({parts})"


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of *names* as a tuple (one name too, as the generated methods compare)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return lambda obj: ()


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        compared = self.__record_compared__
        return compared(self) == compared(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__record_hashed__(self))


def _shares_eq(c: type, options: dict[str, Any]) -> bool:
    """Whether the shared ``__eq__``/``__hash__`` give what the generated ones would:
    the class defines neither, and asks for no ordering or forced hash."""
    return (options.get("eq", True) and not options.get("order")
            and not options.get("unsafe_hash")
            and "__eq__" not in c.__dict__ and "__hash__" not in c.__dict__)


def _frozen_methods(cls: type, listed: Any, _globals: Any = None) -> tuple[Any, Any]:
    """What dataclasses' ``_frozen_get_del_attr`` makes, as closures (no ``exec``)."""
    names = frozenset(f.name for f in listed)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


_MADE = getattr(dataclasses, "_frozen_get_del_attr", None)
_PATCHABLE = _MADE is not None and _MADE.__code__.co_varnames[:3] == ("cls", "fields", "globals")


@contextmanager
def _closures_for_frozen() -> Iterator[None]:
    if not _PATCHABLE:
        yield
        return
    dataclasses._frozen_get_del_attr = _frozen_methods  # type: ignore[attr-defined]
    try:
        yield
    finally:
        dataclasses._frozen_get_del_attr = _MADE  # type: ignore[attr-defined]


def record(cls: type[T] | None = None, /, **options: Any) -> Any:
    """Use like ``@dataclass`` (``@record``, ``@record(frozen=True, slots=True)``)."""

    def wrap(c: type[T]) -> type[T]:
        if not c.__dict__.get("__doc__"):
            c.__doc__ = f"{c.__name__}({', '.join(inspect.get_annotations(c))})"
        with _closures_for_frozen():
            return _wrap(c)

    def _wrap(c: type[T]) -> type[T]:
        if not _shares_eq(c, options):
            made = dataclass(c, repr=False, **options)  # type: ignore[call-overload]
            made.__repr__ = _repr  # type: ignore[method-assign]
            return made
        made = dataclass(c, repr=False, **{**options, "eq": False})  # type: ignore[call-overload]
        made.__repr__ = _repr  # type: ignore[method-assign]
        listed = fields(made)
        made.__record_compared__ = staticmethod(  # type: ignore[attr-defined]
            _getter(tuple(f.name for f in listed if f.compare)))
        made.__eq__ = _eq  # type: ignore[method-assign,assignment]
        if options.get("frozen"):
            made.__record_hashed__ = staticmethod(  # type: ignore[attr-defined]
                _getter(tuple(f.name for f in listed
                              if (f.compare if f.hash is None else f.hash))))
            made.__hash__ = _hash  # type: ignore[method-assign,assignment]
        else:
            made.__hash__ = None  # type: ignore[method-assign,assignment]
        return made

    return wrap(cls) if cls is not None else wrap
