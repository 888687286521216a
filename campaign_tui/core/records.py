"""``record``: a dataclass whose ``__repr__`` is shared instead of generated.

The standard dataclass decorator generates each method with ``exec``; ``__repr__`` is about
half of that cost (~0.6 ms per class on Python 3.11), and the engine defines some fifty of
these classes on the way to the first screen. A record gets the other generated methods
as usual and one shared ``__repr__`` built from its fields, which reads the same.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeVar

T = TypeVar("T")


def _repr(self: Any) -> str:
    parts = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({parts})"


def record(cls: type[T] | None = None, /, **options: Any) -> Any:
    """Use like ``@dataclass`` (``@record``, ``@record(frozen=True, slots=True)``)."""

    def wrap(c: type[T]) -> type[T]:
        made = dataclass(c, repr=False, **options)  # type: ignore[call-overload]
        made.__repr__ = _repr  # type: ignore[method-assign]
        return made

    return wrap(cls) if cls is not None else wrap

