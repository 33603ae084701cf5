"""Regular expressions compiled the first time they are used, not when their module loads.

Why: Python compiles a pattern in pure Python, and the scanners' tables (secret shapes,
instruction cues) hold hundreds of long patterns — about 200 ms of CPU in every process
that imports them, while most processes (``pending``, the ``Stop`` hook on a prose turn)
run few of them or none: the scanners gate each pattern on cheap word or substring checks.
:class:`LazyPattern` stands where ``re.compile(...)`` stood; after the first call its
methods are the compiled pattern's own (bound into the instance), so a hot loop pays
nothing for the laziness.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """``re.compile(pattern, flags)``, done on first use (see the module doc)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            compiled = re.compile(self.pattern, self.flags)
            for name in _METHODS:  # instance attributes win over the methods below from now on
                self.__dict__[name] = getattr(compiled, name)
            self._compiled = compiled
        return self._compiled

    @property
    def groupindex(self) -> Any:
        return self.compiled().groupindex

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def subn(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern[:40]!r}{'...' if len(self.pattern) > 40 else ''})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile`` for module-level tables: compiled on first use."""
    return LazyPattern(pattern, flags)
