"""The ``.env`` file of the working directory: it supplies provider keys, and nothing else.

A ``.env`` travels with a folder (a cloned repository), so nothing in it may decide where requests go (base URLs,
proxies, CA bundles), what runs (the config folder, tools) or where files are written (history, sessions): any such
variable moves the key, the conversation or code execution into the hands of whoever wrote the folder. So only the
provider key variables of :data:`~chatbot.providers.table.PROVIDERS` are read; the real environment always wins;
``${...}`` is never expanded (a value is taken literally, and nothing else is exported); and the user is told which
keys were taken and which lines were ignored. A value no environment variable can hold (a NUL byte) is ignored with
a warning too: a broken line of a folder's file must not stop every run there.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from typing import NamedTuple

from chatbot.providers.table import PROVIDERS

#: the only variables a .env may set: the key variable of each provider
KEY_VARIABLES = frozenset(info.key_env for info in PROVIDERS.values() if info.key_env)
_MAX_NAMED = 8  # ignored names listed in the notice; more are counted
#: A .env holds a few keys; python-dotenv parses ~2 s a megabyte, so a folder's 16 MB .env made every run there,
#: --version included, take half a minute. A larger one is not read (and said so).
MAX_BYTES = 1024 * 1024


class DotEnv(NamedTuple):  # (not a dataclass: --version and --help must not pay for importing dataclasses)
    """What ``.env`` held: the key variables taken into the environment, and every other name, ignored."""

    taken: frozenset[str] = frozenset()
    ignored: tuple[str, ...] = ()
    problem: str = ""  # why the file could not be read at all
    unusable: tuple[str, ...] = ()  # key variables whose value no environment variable can hold (a NUL byte)
    unparsed: tuple[int, ...] = ()  # the lines python-dotenv could not read (skipped)

    def notices(self) -> list[tuple[str, bool]]:
        """Lines for the user as (text, is_warning): which keys came from .env, and what it was not allowed to set."""
        lines = [(f"cannot read .env ({self.problem}); nothing was taken from it", True)] if self.problem else []
        if self.taken:
            lines.append((f"using {', '.join(sorted(self.taken))} from .env", False))
        if self.unusable:
            names = ", ".join(self.unusable)
            lines.append(
                (f".env: ignored {names}: the value holds a NUL byte, which no environment variable can", True)
            )
        if self.unparsed:
            numbers = ", ".join(map(str, self.unparsed[:_MAX_NAMED]))
            more = f" and {len(self.unparsed) - _MAX_NAMED} more" if len(self.unparsed) > _MAX_NAMED else ""
            lines.append((f".env: skipped line(s) {numbers}{more}: not NAME=value", True))
        if self.ignored:
            shown = ", ".join(_shown(name) for name in self.ignored[:_MAX_NAMED])
            more = f" and {len(self.ignored) - _MAX_NAMED} more" if len(self.ignored) > _MAX_NAMED else ""
            lines.append(
                (
                    f".env: ignored {shown}{more}: a .env file supplies provider keys only "
                    f"({', '.join(sorted(KEY_VARIABLES))}); set anything else in your shell or the config file",
                    True,
                )
            )
        return lines


def load(path: str = ".env", environ: MutableMapping[str, str] = os.environ) -> DotEnv:
    """Take the provider keys of ``path`` into ``environ`` (never overriding a set variable); ignore the rest."""
    if not os.path.isfile(path):
        return DotEnv()
    if (size := _size(path)) > MAX_BYTES:
        return DotEnv(problem=f"it is {size / 2**20:.0f} MB; a .env of provider keys is a few hundred bytes")
    try:
        values, unparsed = _parsed(path)
    except (OSError, UnicodeDecodeError) as exc:
        return DotEnv(problem=getattr(exc, "strerror", None) or str(exc))
    taken, ignored, unusable = set(), [], []
    for name, value in values.items():
        if name not in KEY_VARIABLES:
            ignored.append(name)
        elif value and "\x00" in value:
            unusable.append(name)
        elif value and value.strip() and not environ.get(name, "").strip():  # the real environment wins
            environ[name] = value.strip()
            taken.add(name)
    return DotEnv(frozenset(taken), tuple(ignored), unusable=tuple(unusable), unparsed=unparsed)


def _parsed(path: str) -> tuple[dict[str, str | None], tuple[int, ...]]:
    """The values of ``path``, taken literally (``${OTHER}`` is text, never a lookup), and the lines python-dotenv
    could not read: it logs each, which would reach the terminal as its own line ("python-dotenv could not parse
    ..."); they are gathered here and told as chatbot tells the rest of the file."""
    import logging

    from dotenv import dotenv_values

    unparsed: list[int] = []

    class Gather(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            unparsed.extend(a for a in record.args or () if isinstance(a, int))
            return False  # not printed: told by the notice

    gather, logger = Gather(), logging.getLogger("dotenv.main")
    logger.addFilter(gather)
    try:
        return dotenv_values(path, interpolate=False), tuple(unparsed)
    finally:
        logger.removeFilter(gather)


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # (read below, which says why it cannot be)


def _shown(name: str) -> str:
    """A name as the notice lists it: quoted when it holds what a terminal would not show (a NUL byte, an escape)."""
    return name if name.isprintable() else repr(name)
