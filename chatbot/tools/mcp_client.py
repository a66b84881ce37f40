"""``--mcp SERVER``: tools from MCP servers, through the official ``mcp`` SDK (an optional extra).

The SDK is async (anyio); the app is not. :class:`McpHub` runs ONE background thread with an asyncio event loop;
each server lives in one task on it that opens the transport and the ``ClientSession`` and keeps them open until
the hub closes (anyio contexts must be left by the task that entered them). Calls from the app's thread are
submitted to that loop and waited for with a timeout. The SDK is imported only here, only when a server is named,
and its types stop here: the rest sees :class:`~chatbot.tools.base.ToolSpec` and result text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import shlex
import sys
import tempfile
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import AsyncExitStack
from typing import Any

from chatbot.errors import ToolFailed, ToolSourceError
from chatbot.tools.base import MAX_RESULT_CHARS, Kept, Tool, ToolSpec

#: seconds to start a server, initialize the session and list its tools (at most; --tool-timeout when shorter)
CONNECT_TIMEOUT = 20.0
#: seconds the closing may take in all, for every server at once (the SDK closes a stdio server's stdin, waits 2 s,
#: then SIGTERMs its process group, waits 2 s, then SIGKILLs it)
CLOSE_TIMEOUT = 10.0
#: seconds a call is waited for beyond its own timeout (which fires on the loop) before the loop counts as stuck
CALL_GRACE = 5.0
#: seconds the closing waits beyond CLOSE_TIMEOUT, and then for the loop thread to end, before it counts as stuck
LOOP_GRACE = 1.0
# the loggers the SDK writes to (its client session logs under the bare name "client")
_SDK_LOGGERS = ("mcp", "mcp_types", "client")


def is_http(server: str) -> bool:
    """Whether ``server`` is a streamable HTTP URL (anything else is a stdio command line)."""
    return server.startswith(("http://", "https://"))


def describe_error(exc: BaseException) -> str:
    """One line for an exception the SDK raised (task groups wrap the real cause in exception groups)."""
    while getattr(exc, "exceptions", None):  # an exception group (Python 3.11+, or the backport anyio uses)
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def result_text(content: list[Any], structured: Any) -> str:
    """The text of a ``CallToolResult``: its text blocks, a note for other blocks, else the structured value. At most
    :data:`~chatbot.tools.base.MAX_RESULT_CHARS` characters are joined (a :class:`~chatbot.tools.base.Kept` with the
    whole length when there were more): a 100 MB result is not copied only to be cut."""
    parts = []
    for block in content:
        kind = getattr(block, "type", "content")  # (every SDK block has one; a block of a newer kind may not)
        if kind == "text":
            parts.append(str(block.text))
        else:
            parts.append(f"[{kind} block: {getattr(block, 'mime_type', None) or 'not text'}]")
    if not parts and structured is not None:
        text = json.dumps(structured, ensure_ascii=False)
        return Kept(text, len(text)) if len(text) > MAX_RESULT_CHARS else text
    length = sum(map(len, parts)) + max(len(parts) - 1, 0)  # joined by newlines
    if length <= MAX_RESULT_CHARS:
        return "\n".join(parts)
    kept, size = [], 0
    for part in parts:
        if size > MAX_RESULT_CHARS:
            break
        kept.append(part[: MAX_RESULT_CHARS + 1 - size])
        size += len(kept[-1]) + 1
    return Kept("\n".join(kept), length)


@contextlib.asynccontextmanager
async def _deadline(seconds: float) -> AsyncIterator[None]:
    """``asyncio.timeout`` (Python 3.11+), or the same by hand on 3.10: cancel this task at the deadline and raise
    TimeoutError. The block runs in this task, as the SDK's contexts entered in it require."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            yield
        return
    task, fired = asyncio.current_task(), []  # pragma: no cover - Python 3.10
    assert task is not None
    handle = asyncio.get_running_loop().call_later(seconds, lambda: (fired.append(True), task.cancel()))
    try:
        yield
    except asyncio.CancelledError:
        if fired:
            raise TimeoutError from None
        raise
    finally:
        handle.cancel()


class McpServer:
    """One server: its connection task on the hub's loop, its tools, whether it is still alive."""

    def __init__(self, hub: McpHub, address: str, folder: str = "") -> None:
        self.hub = hub
        self.address = address
        self.folder = folder  # where a stdio server starts ("": this process's working folder)
        self.alive = False
        self.error = ""  # why it is not alive
        self.session: Any = None
        self.task: asyncio.Task[None] | None = None  # the connection task
        self.connecting = True  # still starting: cancelled at close (once closing, it is never interrupted)
        self._stop = asyncio.Event()  # (bound to the hub's loop when first waited for, there)
        # closed with the process; the server's own log goes here so it cannot scribble over the terminal UI
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115

    def _transport(self) -> Any:
        if is_http(self.address):
            from mcp.client.streamable_http import streamable_http_client

            return streamable_http_client(self.address)
        from mcp.client.stdio import StdioServerParameters, stdio_client

        argv = shlex.split(self.address)
        if not argv:
            raise ToolSourceError("--mcp needs a URL or a command line")
        # bytes that are not UTF-8 make a junk line (skipped), not a dead connection
        params = StdioServerParameters(
            command=argv[0], args=argv[1:], cwd=self.folder or None, encoding_error_handler="replace"
        )
        return stdio_client(params, errlog=self._stderr)

    async def run(self, ready: Future[list[Any]], timeout: float) -> None:
        """Connect within ``timeout`` seconds, list the tools (handed to ``ready``), then hold the session open until
        stopped. However it ends, leaving the transport stops a stdio server's whole process group (the SDK starts it
        in a session of its own and kills that on the way out)."""
        from mcp.client.session import ClientSession

        self.task = asyncio.current_task()
        try:
            async with AsyncExitStack() as stack:
                try:
                    async with _deadline(timeout):  # a server that never answers initialize is given up
                        read, write = await stack.enter_async_context(self._transport())
                        self.session = await stack.enter_async_context(ClientSession(read, write))
                        await self.session.initialize()
                        listed = await self.session.list_tools()
                finally:
                    self.connecting = False
                self.alive = True
                ready.set_result(list(listed.tools))
                await self._stop.wait()
        except BaseException as exc:  # the SDK raises exception groups; all mean the same: this server is gone
            why = describe_error(exc)
            late = why == "TimeoutError" and not self.alive  # (asyncio.timeout's, possibly in an exception group)
            self.error = (f"no answer within {timeout:g} seconds" if late else why) + self._stderr_tail()
            if not ready.done():
                ready.set_exception(ToolSourceError(self.error))
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self.alive = False

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        lines = [ln for ln in self._stderr.read().splitlines() if ln.strip()]
        return f" (server said: {lines[-1].strip()[:200]})" if lines else ""

    def stop(self) -> None:
        """Ask the connection task to close the session and the transport."""
        self._stop.set()

    async def call(self, name: str, arguments: dict[str, Any], timeout: float) -> str:
        """Call one tool; raise ToolFailed with the server's message when it reports an error or is too slow.

        Anything else raised here means the connection is gone (see :meth:`McpHub.submit`).
        """
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        try:
            result = await asyncio.wait_for(self.session.call_tool(name, arguments), timeout)
        except asyncio.TimeoutError:
            raise ToolFailed(f"{name} did not finish within {timeout:g} seconds") from None
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                raise  # the server is gone
            # an error answer: the server is fine, the call was not
            raise ToolFailed(f"the server refused the call: {exc.message}") from None
        text = result_text(list(result.content), result.structured_content)
        if result.is_error:
            raise ToolFailed(text or f"{name} failed on the server")
        return text


class McpTool(Tool):
    """A tool of an MCP server; gone (``available`` False) once its server died."""

    def __init__(self, server: McpServer, spec: ToolSpec) -> None:
        self.server = server
        self.spec = spec

    @property
    def available(self) -> bool:
        """Whether the server is still connected."""
        return self.server.alive

    def run(self, arguments: dict[str, Any], timeout: float) -> str:
        """Run the call on the hub's loop and wait for it; Ctrl-C cancels it there."""
        return self.server.hub.submit(self.server.call(self.spec.name, arguments, timeout), timeout + CALL_GRACE, self)


def silence_sdk_logging() -> None:
    """Keep the SDK's own log (a traceback for every junk line a server writes) off the chat.

    What goes wrong reaches the user as one ``chatbot:`` warning per server, from this module; the SDK logs under
    ``mcp.*`` and, for its client session, under ``client``.
    """
    for name in _SDK_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False


class McpHub:
    """The background event-loop thread and every MCP server connected through it."""

    def __init__(self, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        """``connect_timeout``: seconds each server gets to start, answer ``initialize`` and list its tools."""
        self.connect_timeout = connect_timeout
        try:
            import mcp  # noqa: F401 - fail early with an install hint
        except ImportError:
            raise ToolSourceError("--mcp needs the mcp SDK: pip install 'chatbot[mcp]'") from None
        silence_sdk_logging()
        self.loop = asyncio.new_event_loop()
        self.servers: list[McpServer] = []
        self._thread = threading.Thread(target=self.loop.run_forever, name="chatbot-mcp", daemon=True)
        self._thread.start()

    def connect(self, address: str, folder: str = "") -> list[Tool]:
        """Start or reach ``address`` and return its tools; a stdio command starts in ``folder`` ("": this one).
        Raises ToolSourceError when it cannot be reached."""
        server = McpServer(self, address, folder)
        self.servers.append(server)
        ready: Future[list[Any]] = Future()
        running = asyncio.run_coroutine_threadsafe(server.run(ready, self.connect_timeout), self.loop)
        try:
            listed = ready.result(self.connect_timeout + CLOSE_TIMEOUT)  # the task gives up first, and says why
        except FutureTimeout:  # the loop itself is stuck
            running.cancel()
            server.error = f"no answer within {self.connect_timeout:g} seconds"
            raise ToolSourceError(f"MCP server {address} could not be reached: {server.error}") from None
        except ToolSourceError as exc:
            raise ToolSourceError(f"MCP server {address} could not be reached: {exc.message}") from None
        return [
            McpTool(server, ToolSpec(t.name, t.description or t.title or t.name, dict(t.input_schema), address))
            for t in listed
        ]

    def submit(self, coro: Any, timeout: float, tool: McpTool) -> str:
        """Run ``coro`` on the loop and wait up to ``timeout`` seconds for its text."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        name, server = tool.spec.name, tool.server
        try:
            text = future.result(timeout)
            return text if isinstance(text, str) else str(text)  # as it is: a Kept keeps the length it was cut from
        except FutureTimeout:  # the loop itself is stuck: the call's own timeout should have fired long ago
            future.cancel()
            raise ToolFailed(f"{name} did not finish within {timeout:g} seconds") from None
        except KeyboardInterrupt:
            future.cancel()  # the call stops on the server's side of the loop too
            raise
        except ToolFailed:
            raise
        except Exception as exc:
            # A failure outside the tool's own error result is the connection: the server is gone, and with it
            # its tools (the next request no longer offers them); the chat goes on.
            server.alive = False
            server.error = server.error or describe_error(exc)
            raise ToolFailed(f"MCP server {server.address} stopped ({server.error}); its tools are gone") from None

    def close(self) -> None:
        """Close every session, then stop the loop thread. A server that does not end is killed with its process
        group: on every way out (an answer, an error, Ctrl-C, SIGTERM), no stdio server outlives chatbot."""
        for server in self.servers:
            self.loop.call_soon_threadsafe(server.stop)
        pending = asyncio.run_coroutine_threadsafe(self._drain(), self.loop)
        with contextlib.suppress(Exception):  # closing is best effort: the process is ending anyway
            pending.result(CLOSE_TIMEOUT + LOOP_GRACE)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(LOOP_GRACE)

    async def _drain(self) -> None:
        """Wait for the connection tasks to end. One still connecting (a server that has not answered
        ``initialize``) is cancelled: leaving its transport kills the server's process group. One already closing is
        never cancelled, which could cut the SDK's kill escalation short."""
        tasks = [s.task for s in self.servers if s.task is not None]  # (one already done is waited for at once)
        for server in self.servers:
            if server.connecting and server.task is not None:
                server.task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_TIMEOUT)
