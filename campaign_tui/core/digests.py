"""The two hash functions campaign-tui uses (BLAKE2b and SHA-256), taken from the
interpreter's own modules rather than through ``hashlib``.

Importing ``hashlib`` sets up OpenSSL and every algorithm it offers: 5 to 6 ms of each
start, for two functions. ``hashlib.blake2b`` *is* ``_blake2.blake2b``; the built-in SHA-256
gives the same digests as OpenSSL's (it is slower on large inputs, and hashes here a rule
set's data files once per run). Where a Python lacks these modules, ``hashlib``'s are used.
"""

from __future__ import annotations

from typing import Any

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - every CPython since 3.6 has it
    from hashlib import blake2b

sha256: Any
try:
    from _sha2 import sha256  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # pragma: no cover
        from hashlib import sha256

__all__ = ["blake2b", "sha256"]
