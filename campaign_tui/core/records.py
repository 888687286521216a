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

What is still generated (``__init__``) is compiled once per source text. With
:func:`use_compiled` the compiled code is read from a file kept by the previous run
(:func:`keep_compiled`), as Python keeps a module's bytecode: the TUI's start-up no longer
compiles the fifty ``__init__`` methods (about 0.25 ms each). The file is only a cache: a
missing, damaged or other Python's file is ignored and the methods are compiled as before.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import marshal
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter
from pathlib import Path
from types import CodeType
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


# -- generated methods, compiled once per source ---------------------------------------------
_compiled: dict[str, CodeType] = {}
_fresh = False  # a source compiled since the kept file was read
_used: set[str] = set()  # the sources met in this run
KEEP_AT_MOST = 1000  # sources in the file; beyond, only those this run met are kept
_KEPT_NAME = f"records-{sys.implementation.cache_tag}.marshal"


def _exec(source: Any, globals_: Any = None, locals_: Any = None) -> None:
    """The decorator's ``exec`` of a generated method's source, each source compiled once
    (the same code ``exec`` would compile from it)."""
    global _fresh
    if not isinstance(source, str):
        exec(source, globals_, locals_)
        return
    _used.add(source)
    code = _compiled.get(source)
    if code is None:
        code = _compiled[source] = compile(source, "<string>", "exec")
        _fresh = True
    exec(code, globals_, locals_)


def _stamp() -> bytes:
    return f"{sys.version}\n".encode()


def use_compiled(folder: Path) -> None:
    """Read the compiled methods the last run kept in *folder* (see :func:`keep_compiled`);
    nothing happens when the file is missing, damaged or from another Python."""
    with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
        raw = (folder / _KEPT_NAME).read_bytes()
        stamp = _stamp()
        if raw.startswith(stamp):
            kept = marshal.loads(raw[len(stamp):])
            if isinstance(kept, dict):
                _compiled.update((k, v) for k, v in kept.items()
                                 if isinstance(k, str) and isinstance(v, CodeType))


def keep_compiled(folder: Path) -> None:
    """Write the compiled methods to *folder* for the next run, when this run compiled any
    (atomically; a folder that cannot be written is left alone)."""
    global _fresh
    if not _fresh:
        return
    _fresh = False
    with contextlib.suppress(OSError, ValueError):
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / _KEPT_NAME
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        kept = _compiled if len(_compiled) <= KEEP_AT_MOST else \
            {k: v for k, v in _compiled.items() if k in _used}
        tmp.write_bytes(_stamp() + marshal.dumps(kept))
        os.replace(tmp, target)


@contextmanager
def _patched_dataclasses() -> Iterator[None]:
    """While one record is made: the decorator's ``exec`` compiles each source once, and
    (where patchable) a frozen record's two methods are closures."""
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before the builtin
    if _PATCHABLE:
        dataclasses._frozen_get_del_attr = _frozen_methods  # type: ignore[attr-defined]
    try:
        yield
    finally:
        dataclasses.__dict__.pop("exec", None)
        if _PATCHABLE:
            dataclasses._frozen_get_del_attr = _MADE  # type: ignore[attr-defined]


def record(cls: type[T] | None = None, /, **options: Any) -> Any:
    """Use like ``@dataclass`` (``@record``, ``@record(frozen=True, slots=True)``)."""

    def wrap(c: type[T]) -> type[T]:
        if not c.__dict__.get("__doc__"):
            c.__doc__ = f"{c.__name__}({', '.join(inspect.get_annotations(c))})"
        with _patched_dataclasses():
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
