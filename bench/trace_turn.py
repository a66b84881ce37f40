#!/usr/bin/env python
"""The path of one message, measured: one terminal turn and one script turn traced over ``chatbot.*``.

Run by hand: ``python bench/trace_turn.py [--path]`` (``--path`` also prints the modules in the order the message
first enters them before the HTTP request).

Each front end gets one warm-up turn (every module imported, the tokenizer loaded), then one traced turn: the line
goes in where the user's line does (``Repl.handle`` for the terminal, ``modes.script`` for a piped script) and the
turn runs over the real ``openai`` provider to the local fake OpenAI-compatible server (``tests/support/
fake_server.py``, the reply streamed in 8 chunks), with the JSON store and summary memory, no tools. A profile
hook (:func:`sys.setprofile`, calls and returns, resumed generators included) counts:

- **modules before the request**: the ``chatbot`` modules a frame of which ran before the HTTP request goes out
  (the SDK's ``httpx`` ``Client.send``);
- **transfers**: how often control passes from a frame of one ``chatbot`` module to a frame of another (a call, a
  return, a generator resumed or yielding), the whole turn;
- **frames at the call**: the ``chatbot`` frames on the stack when the HTTP request goes out;
- **names**: the names the message goes by in ``chatbot`` frames: a local or parameter bound to its text, to a
  message dict holding it, to a list of such messages (``name[]``) or a body holding that list
  (``name["messages"]``), or an attribute of ``self`` holding any of them (``.name``).

The goals the numbers are held to: at most 12 modules before the request, 60 transfers, 7 frames, 5 names.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chatbot.cli import modes  # noqa: E402
from chatbot.core.app import App, AppSettings  # noqa: E402
from chatbot.core.turn_settings import TurnSettings  # noqa: E402
from chatbot.engine.memory import MemoryConfig  # noqa: E402
from chatbot.engine.tokens import make_counter  # noqa: E402
from chatbot.providers import make_provider  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402
from chatbot.terminal.render import make_console  # noqa: E402
from chatbot.terminal.repl import Repl  # noqa: E402
from tests.support.fake_server import FakeServer  # noqa: E402

MESSAGE = "Which river runs through the old town, and when was its first bridge built?"
REPLY = "The Vltava; the first bridge in 1172."
CHUNKS = 8  # the pieces the reply streams in (and twice as many, to tell what each piece costs)
#: where the SDK's HTTP client sends a request (``httpx``; some builds of the SDK vendor it as ``httpx2``)
HTTP_CLIENTS = ("httpx._client", "httpx2._client")
GOALS = {"modules before the request": 12, "transfers": 60, "frames at the call": 7, "names": 5}


@dataclass
class Trace:
    """What the profile hook saw of one turn."""

    text: str
    before: list[str] = field(default_factory=list)  # modules in the order first entered before the request
    sent: bool = False
    transfers: int = 0
    frames_at_call: int = 0
    names: list[str] = field(default_factory=list)
    _last: str = ""

    entered: dict[str, list[str]] = field(default_factory=dict)  # before the request: each module's functions

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event not in ("call", "return"):
            return
        module = frame.f_globals.get("__name__", "")
        if not self.sent and event == "call" and module in HTTP_CLIENTS and frame.f_code.co_name == "send":
            self.sent = True
            self.frames_at_call = sum(1 for f in _stack(frame) if _ours(f.f_globals.get("__name__", "")))
        if not _ours(module):
            return
        if module != self._last:
            if self._last:
                self.transfers += 1
            self._last = module
        if not self.sent and module not in self.before:
            self.before.append(module)
        seen = self.entered.setdefault(module, []) if not self.sent and event == "call" else None
        if seen is not None and frame.f_code.co_qualname not in seen:
            seen.append(frame.f_code.co_qualname)
        for name in self._message_names(frame.f_locals):
            if name not in self.names:
                self.names.append(name)

    def _message_names(self, scope: dict[str, Any]) -> list[str]:
        found = [f for n, v in scope.items() if n != "self" and (f := self._holds(n, v))]
        me = scope.get("self")
        attrs = getattr(me, "__dict__", None) if me is not None else None
        if isinstance(attrs, dict):
            found += [f".{f}" for n, v in attrs.items() if (f := self._holds(n, v))]
        return found

    def _holds(self, name: str, value: Any) -> str:
        if self._is_message(value):
            return name
        if isinstance(value, (list, tuple)) and any(self._is_message(v) for v in value[-3:]):
            return f"{name}[]"
        sent = value.get("messages") if isinstance(value, dict) else None
        if isinstance(sent, list) and any(self._is_message(v) for v in sent[-3:]):
            return f'{name}["messages"]'
        return ""

    def _is_message(self, value: Any) -> bool:
        if isinstance(value, str):
            return value == self.text
        return isinstance(value, dict) and value.get("role") == "user" and value.get("content") == self.text


def _ours(module: str) -> bool:
    return module == "chatbot" or module.startswith("chatbot.")


def _stack(frame: FrameType | None) -> list[FrameType]:
    out = []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out


def _app(folder: Path, base_url: str, *, terminal: bool) -> App:
    provider = make_provider("openai", base_url=base_url, model="gpt-4o-mini")
    run = TurnSettings(background_summaries=terminal)
    settings = AppSettings(provider_name="openai", model=None, memory=MemoryConfig(strategy="summary"), run=run)
    app = App(JsonStore(folder), provider, settings, lambda m: make_counter(None, "openai", m))
    app.open(None)
    return app


def traced(turn: Any, text: str) -> Trace:
    """Run ``turn()`` under the profile hook; what it saw."""
    trace = Trace(text)
    sys.setprofile(trace.hook)
    try:
        turn()
    finally:
        sys.setprofile(None)
    return trace


def terminal_turn(folder: Path, base_url: str) -> Trace:
    """One message typed at the terminal prompt (``Repl.handle``), after a warm-up turn."""
    app = _app(folder / "terminal", base_url, terminal=True)
    repl = Repl(app, console=make_console(file=io.StringIO(), force_terminal=True, width=100))
    try:
        repl.handle("hello there")
        return traced(lambda: repl.handle(MESSAGE), MESSAGE)
    finally:
        app.close()


def script_turn(folder: Path, base_url: str) -> Trace:
    """One line of a piped script (``modes.script``), after a warm-up turn."""
    app = _app(folder / "script", base_url, terminal=False)
    args = argparse.Namespace(reasoning=False)
    out, sys.stdout = sys.stdout, io.StringIO()  # the reply goes to stdout in script mode
    try:
        modes.script(app, io.StringIO("hello there\n"), args)
        return traced(lambda: modes.script(app, io.StringIO(MESSAGE + "\n"), args), MESSAGE)
    finally:
        sys.stdout = out
        app.close()


def figures(trace: Trace) -> dict[str, int]:
    """The four numbers of one traced turn."""
    return {
        "modules before the request": len(trace.before),
        "transfers": trace.transfers,
        "frames at the call": trace.frames_at_call,
        "names": len(trace.names),
    }


def both(chunks: int) -> dict[str, Trace]:
    """A terminal turn and a script turn, the reply streamed in ``chunks`` pieces."""
    with tempfile.TemporaryDirectory() as tmp, FakeServer(reply=REPLY, chunks=chunks) as s:
        return {"terminal": terminal_turn(Path(tmp), s.base_url), "script": script_turn(Path(tmp), s.base_url)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", action="store_true", help="also print the modules entered before the request")
    args = parser.parse_args()
    traces, longer = both(CHUNKS), both(2 * CHUNKS)
    print(f"{'':28}" + "".join(f"{name:>10}" for name in traces) + "      goal")
    for key, goal in GOALS.items():
        row = "".join(f"{figures(t)[key]:>10}" for t in traces.values())
        print(f"{key:28}{row}    <= {goal}")
    # the transfers split: what each streamed piece adds (the same turn streamed in twice the pieces), and the rest
    per = {name: (longer[name].transfers - trace.transfers) / CHUNKS for name, trace in traces.items()}
    print(f"{'  of which per piece':28}" + "".join(f"{per[name]:>10.1f}" for name in traces))
    rest = {name: trace.transfers - CHUNKS * per[name] for name, trace in traces.items()}
    print(f"{'  and besides the pieces':28}" + "".join(f"{rest[name]:>10.0f}" for name in traces))
    for name, trace in traces.items():
        print(f"\n{name}: names: {', '.join(trace.names)}")
        if args.path:
            print(f"{name}: before the request, each module with the functions first entered there:")
            for module in trace.before:
                print(f"  {module.removeprefix('chatbot.'):26}{', '.join(trace.entered.get(module, [])[:6])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
