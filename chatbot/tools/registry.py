"""The tools of this run, by name, and the one place a call is made safe.

:meth:`Registry.call` never raises for a bad call: an unknown name, arguments that are not JSON or do not fit the
schema, a tool that raises or times out, and a huge result each become an :class:`ToolOutcome` whose text goes back
to the model as the ``tool`` message, with a notice for the user.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from chatbot.engine.tokens import TokenCounter
from chatbot.errors import ChatbotError
from chatbot.tools.arguments import check_arguments, schema_refusal
from chatbot.tools.base import MAX_RESULT_CHARS, Tool, ToolOutcome, ToolSpec, cut_result

#: seconds one call may take before it is given up
DEFAULT_TIMEOUT = 60.0
#: the tool definitions may take at most this share of the input budget; the rest is for the conversation
TOOLS_SHARE = 0.5
#: tools named in the notice about tools left out (the rest are counted)
NAMED_LEFT_OUT = 5


class Registry:
    """Every tool of this run, by name; the first source to name a tool keeps it."""

    def __init__(self, tools: Iterable[Tool] = (), *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self._tools: dict[str, Tool] = {}
        self.warnings: list[str] = []
        self._reported_gone: set[str] = set()
        self._reported_left_out: frozenset[str] = frozenset()
        # tokens of each tool's definition, per counter (kept with it, so its id cannot be reused)
        self._sizes: dict[int, tuple[TokenCounter, dict[str, int]]] = {}
        self.add(tools)

    def add(self, tools: Iterable[Tool]) -> None:
        """Register ``tools``; a name already taken is skipped with a warning."""
        for tool in tools:
            taken = self._tools.get(tool.spec.name)
            refused = schema_refusal(tool.spec.parameters)
            if refused:
                name, source = tool.spec.name, tool.spec.source
                self.warnings.append(f"tool {name!r} from {source} skipped: its input schema is not usable: {refused}")
                continue
            if taken is not None:
                self.warnings.append(
                    f"tool {tool.spec.name!r} from {tool.spec.source} skipped: {taken.spec.source} already has one"
                )
                continue
            self._tools[tool.spec.name] = tool

    def joined(self, tools: Iterable[Tool]) -> Registry:
        """A registry of these tools and ``tools`` after them (built-ins bound to one chat). It shares these tools
        and what was told about them; closing them stays this registry's job."""
        joined = Registry(self._tools.values(), timeout=self.timeout)
        joined._reported_gone = self._reported_gone  # one set: a server that stopped is told about once
        joined.add(tools)
        return joined

    def specs(self) -> list[ToolSpec]:
        """The tools that can run now, in the order they were added."""
        return [t.spec for t in self._tools.values() if t.available]

    def openai_tools(self, counter: TokenCounter | None = None, budget: int | None = None) -> list[dict[str, Any]]:
        """The ``tools`` request parameter (empty when there are none): with ``counter`` and ``budget`` (input
        tokens), only the tools that fit (:meth:`fitting`)."""
        specs = self.specs() if counter is None or budget is None else self.fitting(counter, budget)[0]
        return [spec.to_openai() for spec in specs]

    def definition_tokens(self, counter: TokenCounter, budget: int | None = None) -> int:
        """Tokens (uncorrected) the ``tools`` parameter adds to every request, as the model's chat template writes
        them into the prompt (0 without tools); with ``budget``, of the tools that fit (:meth:`fitting`)."""
        return counter.count_tools(self.openai_tools(counter, budget))  # (0 for none: the counter's own rule)

    def fitting(self, counter: TokenCounter, budget: int) -> tuple[list[ToolSpec], list[ToolSpec]]:
        """The tools offered within an input ``budget``, and those left out.

        The definitions may take at most :data:`TOOLS_SHARE` of the budget (a server can list 3,000 tools, or one
        with a 1 MB description): beyond that the largest are left out first, so the most tools stay offered.
        """
        specs = self.specs()
        _counter, sizes = self._sizes.setdefault(id(counter), (counter, {}))
        for spec in specs:
            if spec.name not in sizes:
                sizes[spec.name] = counter.count(json.dumps(spec.to_openai()))
        total, limit = sum(sizes[s.name] for s in specs), int(budget * TOOLS_SHARE)
        left_out: set[str] = set()
        # largest first; between equals, the one added last
        for spec in sorted(reversed(specs), key=lambda s: sizes[s.name], reverse=True):
            if total <= limit:
                break
            left_out.add(spec.name)
            total -= sizes[spec.name]
        return [s for s in specs if s.name not in left_out], [s for s in specs if s.name in left_out]

    def left_out_notice(self, counter: TokenCounter, budget: int) -> str:
        """What to tell the user when tools are left out (:meth:`fitting`); empty when the same were told before."""
        _offered, left_out = self.fitting(counter, budget)
        names = frozenset(s.name for s in left_out)
        if not names or names == self._reported_left_out:
            return ""
        self._reported_left_out = names
        sizes = self._sizes[id(counter)][1]  # as fitting measured them: the names go largest first, as the notice says
        largest = sorted(left_out, key=lambda s: sizes[s.name], reverse=True)
        shown = ", ".join(s.name for s in largest[:NAMED_LEFT_OUT])
        more = f" and {len(left_out) - NAMED_LEFT_OUT} more" if len(left_out) > NAMED_LEFT_OUT else ""
        count = f"{len(left_out)} tool{'s' if len(left_out) > 1 else ''}"
        return (
            f"{count} left out, the largest first: their definitions do not fit in half the input budget "
            f"(--max-input-tokens {budget}): {shown}{more}"
        )

    def close(self) -> None:
        """Release every tool (the worker processes of ``--functions`` files end)."""
        for tool in self._tools.values():
            tool.close()

    def gone(self) -> list[str]:
        """Sources whose tools stopped being available since the last call (each is reported once)."""
        sources = {t.spec.source for t in self._tools.values() if not t.available}
        new = sorted(sources - self._reported_gone)
        self._reported_gone |= sources
        return new

    def __bool__(self) -> bool:
        return bool(self.specs())

    def call(self, name: str, arguments: str) -> ToolOutcome:
        """Run tool ``name`` with ``arguments`` (raw JSON text from the model); never raises for a bad call."""
        tool = self._tools.get(name)
        if tool is None or not tool.available:
            known = ", ".join(s.name for s in self.specs()) or "none"
            why = "is no longer available (its server stopped)" if tool else "does not exist"
            return _failed(name, f"tool {name!r} {why}; available tools: {known}")
        try:
            parsed = json.loads(arguments) if arguments.strip() else {}
        except ValueError as exc:  # (an integer of 5,000 digits too: int's own limit)
            return _failed(name, f"the arguments are not valid JSON ({exc}): {arguments[:200]!r}")
        except RecursionError:
            return _failed(name, "the arguments cannot be read: they are nested too deeply")
        problems = check_arguments(parsed, tool.spec.parameters)
        if problems:
            return _failed(name, f"the arguments do not fit the tool's schema: {'; '.join(problems)}")
        try:
            text = tool.run(parsed, self.timeout)
        except ChatbotError as exc:
            return _failed(name, exc.message)
        except (Exception, SystemExit) as exc:  # a user's function may raise (or exit) anything: the chat goes on
            return _failed(name, f"the tool raised {type(exc).__name__}: {exc}")
        text, was_cut = cut_result(text)
        notice = f"the result of {name} was cut to {MAX_RESULT_CHARS:,} characters" if was_cut else ""
        return ToolOutcome(name, text, notice=notice)


def _failed(name: str, message: str) -> ToolOutcome:
    # the front end shows a failed result as a warning: no separate notice, or the user reads it twice
    return ToolOutcome(name, f"Error: {message}", error=True)
