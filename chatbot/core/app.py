"""The application core shared by every mode: the store, the provider and the session in use.

No terminal code here: :mod:`chatbot.cli` and :mod:`chatbot.terminal` render what this returns.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chatbot.core.chat import Chat
from chatbot.core.rule import Rule, resolve
from chatbot.core.turn_settings import TurnSettings
from chatbot.engine.cost import Price
from chatbot.engine.memory import MemoryConfig
from chatbot.engine.options import option_problem
from chatbot.engine.tokens import TokenCounter
from chatbot.errors import SessionError, UsageError
from chatbot.providers.base import ChatProvider, ToolCall
from chatbot.storage import elsewhere_hint
from chatbot.storage.base import SessionLock, SessionStore
from chatbot.storage.session import Session, ToolSources, validate_id
from chatbot.tools.registry import Registry

DEFAULT_SYSTEM = (
    "You are a helpful assistant in a terminal chat. Answer clearly and concisely, in the language the user "
    "writes in; use Markdown where it helps."
)


def parse_option(key: str, text: str) -> tuple[str, Any]:
    """A model option from the command line, /set or the config file: ``text`` is JSON when it parses (``0.2``,
    ``true``, ``["END"]``, ``{"type": "json_object"}``), else a plain string (``low``). Checked by the same rule as
    a stored session's options (:func:`~chatbot.engine.options.option_problem`), so what is kept can be read back."""
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    except RecursionError:
        raise UsageError(f"option {key}: nested too deeply") from None
    problem = option_problem(key, value)
    if problem:
        raise UsageError(f"{problem}, not {text!r}" if value is None else problem)
    return key, value


@dataclass
class AppSettings:
    """What a new or resumed session is opened with (from the command line).

    ``memory`` and ``run`` hold the command line's memory rule (:mod:`chatbot.core.rule`); ``origins`` says which of
    its settings were typed ("flag") and which came from the config file ("config") or the defaults ("default"): a
    resumed session's own rule beats those two. A setting ``origins`` does not name counts as typed.
    """

    provider_name: str
    model: str | None  # None: the provider's default, or a resumed session's own model
    memory: MemoryConfig
    system: str | None = None  # for new sessions; None: DEFAULT_SYSTEM
    options: dict[str, Any] = field(default_factory=dict)  # -o: merged into every session opened
    roles: dict[str, str] = field(default_factory=dict)  # the config file's [roles], for /role
    # the roles /role cannot set (templates with variables, prompts): name -> why, and the command line that runs it
    command_line_roles: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # the config file's [aliases]: short name -> model
    prices: dict[str, Price] = field(default_factory=dict)  # the config file's [prices], for /cost
    run: TurnSettings = TurnSettings()  # how every turn runs, handed to each chat opened (with its session's rule)
    allow_private_urls: bool = False  # /file may fetch pages from loopback and private addresses (url_guard)
    origins: dict[str, str] = field(default_factory=dict)  # rule setting -> "flag", "config" or "default"
    # whether ``model`` was typed (--model): only a typed model moves a session opened by /load off its own; one
    # from the config file or the environment is a default for new sessions
    model_typed: bool = True
    #: where the provider is served (:func:`~chatbot.providers.endpoint.endpoint_mark`): "custom" for another base
    #: URL than its own service's. Every session opened keeps it, so that continuing one asks for a base URL again
    endpoint: str = ""


@dataclass(frozen=True)
class Opened:
    """A session opened: its chat, and the provider and model it was stored with (empty for a new session), which
    may not be what answers it now (:meth:`App.opened`)."""

    chat: Chat
    provider: str = ""
    model: str = ""

    @property
    def moved(self) -> bool:
        """Whether another provider or model than the one it was made with answers the session now."""
        return bool(self.provider) and (self.provider, self.model) != (self.chat.session.provider, self.chat.model)


class App:
    """Opens, switches and deletes sessions; holds the lock of the one in use."""

    def __init__(
        self,
        store: SessionStore,
        provider: ChatProvider,
        settings: AppSettings,
        counter_factory: Callable[[str], TokenCounter],
        *,
        tools: Registry | None = None,
        tool_sources: ToolSources | None = None,
    ) -> None:
        self.store = store
        self.tools = tools
        # where ``tools`` came from, remembered by every session opened (None: none given; each keeps its own)
        self.tool_sources = tool_sources
        # asked before each tool call when set (--confirm-tools in terminal mode); every chat opened uses it
        self.confirm_tool: Callable[[ToolCall], bool] | None = None
        self.provider = provider
        self.settings = settings
        self.counter_factory = counter_factory
        self._lock: SessionLock | None = None
        self._chat: Chat | None = None
        #: the memory rule of the session in use, and where each of its settings came from (``/context``)
        self.rule: Rule | None = None

    @property
    def chat(self) -> Chat:
        """The chat of the session in use."""
        if self._chat is None:
            raise UsageError("no session is open")
        return self._chat

    def open(self, session_id: str | None = None, *, latest: bool = False) -> Chat:
        """Resume ``session_id`` (or the newest with ``latest``), or create it / a new one. Takes its lock."""
        return self.opened(session_id, latest=latest).chat

    def opened(self, session_id: str | None = None, *, latest: bool = False) -> Opened:
        """:meth:`open`, with the provider and model the session was stored with: the chat's provider answers it,
        whichever served it before (``/load`` says so when they differ)."""
        if latest:
            session_id = self.store.latest()
            if session_id is None:
                where = self.store.location
                raise SessionError(f"no session to continue in {where}{elsewhere_hint(where)}; start one without -c")
        if session_id is not None:
            session_id = validate_id(session_id)
        lock = self.store.acquire(session_id) if session_id else None
        stored = ("", "")
        try:
            if session_id and self.store.exists(session_id):
                session, stored = self._load(session_id)
            else:
                session = self._create(session_id)
                while lock is None:
                    lock = self.store.acquire(session.id)
                    if self.store.exists(session.id):  # another process took this fresh id first
                        lock.release()
                        lock, session = None, self._create(None)
            rule = self._rule_for(session)  # a flag that does not go with the session's own rule is refused here
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        self._switch_to(session, lock, rule)
        return Opened(self.chat, *stored)

    def new(self) -> Chat:
        """Start a new session (the current one stays saved)."""
        return self.open(None)

    def fork(self, session_id: str | None = None, turns: int | None = None) -> Chat:
        """Copy the session in use (turns, summary, model, options) into a new one, ``session_id`` or a fresh id,
        and switch to it; with ``turns``, only its first ``turns`` turns (a branch: see
        :meth:`~chatbot.storage.session.Session.copy_as` for the summary). The original stays as it was."""
        source = self.chat.session
        if turns is not None and not 0 <= turns <= len(source.conversation.turns):
            raise UsageError(f"this session has {len(source.conversation.turns)} turn(s); no turn {turns} to fork at")
        if session_id is not None:
            session_id = validate_id(session_id)
            if self.store.exists(session_id):
                raise UsageError(f"session {session_id} exists already; /fork NEW-ID with an unused id")
        lock = None
        while lock is None:
            new_id = session_id or self.store.new_id()
            lock = self.store.acquire(new_id)
            if self.store.exists(new_id):  # another process took it first
                lock.release()
                if session_id is not None:
                    raise UsageError(f"session {session_id} exists already")
                lock = None
        try:
            copy = source.copy_as(new_id, turns)  # with its rule
            rule = self._rule_for(copy)
            self.store.save(copy)
        except BaseException:
            lock.release()
            raise
        waiting = self.chat.outbox.items()
        self._switch_to(copy, lock, rule)
        for attachment in waiting:  # files attached for the next message go with it into the branch
            self.chat.outbox.add(attachment)
        return self.chat

    def deletable(self, session_id: str) -> str:
        """``session_id`` checked, when it may be deleted: a valid id, not the session in use (:class:`UsageError`
        otherwise). ``/delete`` asks it before asking the user, so that a yes is never answered with a refusal."""
        session_id = validate_id(session_id)
        if self._chat is not None and session_id == self._chat.session.id:
            raise UsageError("that is the session in use: /new or /load another one first, then /delete it")
        return session_id

    def delete(self, session_id: str) -> None:
        """Delete a stored session other than the one in use (:meth:`deletable`)."""
        self.store.delete(self.deletable(session_id))

    def set_model(self, model: str) -> None:
        """Switch the chat model (an alias names its model); the token counter follows the model's family (chat
        format, calibration)."""
        model = self.settings.aliases.get(model, model)
        self.chat.set_model(model, self.counter_factory(model))

    def attach_tools(self, tools: Registry, sources: ToolSources) -> None:
        """Offer ``tools`` (from ``sources``) in the session in use and in every session opened after it."""
        self.tools, self.tool_sources = tools, sources
        self.chat.tools = tools
        self.chat.session.tool_sources = sources

    def _confirm_tool(self, call: ToolCall) -> bool:
        # looked up at each call, so a front end may set confirm_tool after sessions are open
        return self.confirm_tool is None or self.confirm_tool(call)

    def keep(self) -> tuple[Path | None, str]:
        """Keep the session in use in a rescue file, for a caller about to give up on it (an unexpected error):
        (its path, "") or (None, why nowhere took it; "" when no session is open). Never raises."""
        return self._chat.keep() if self._chat is not None else (None, "")

    def close(self) -> None:
        """Release the session lock."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self.settings.run.log is not None:
            self.settings.run.log.close()

    # --- helpers ----------------------------------------------------------------------------------------------

    def _model_for(self, session: Session | None = None) -> str:
        # --model wins; else a resumed session's own model, but only with the provider that served it (an echo
        # session resumed on groq must not ask groq for model "echo"); else the provider's default
        # (a model from the config file or the environment is a default for new sessions only)
        stored = session.model if session and session.provider == self.settings.provider_name else ""
        typed = self.settings.model if self.settings.model_typed else None
        return typed or stored or self.settings.model or self.provider.model

    def _load(self, session_id: str) -> tuple[Session, tuple[str, str]]:
        """The stored session, set to be answered by this app's provider; with the provider and model it named."""
        session = self.store.load(session_id, self.settings.memory)  # its own rule replaces this memory below
        made_with = (session.provider, session.model)
        # --model wins over the stored model; the counter (its chat format, its calibration) follows the model.
        # --system only shapes new sessions: a resumed one keeps its own (/system changes it).
        model = self._model_for(session)
        session.conversation.counter = self.counter_factory(model)
        session.provider, session.model = self.settings.provider_name, model
        session.endpoint = self.settings.endpoint
        for key, value in self.settings.options.items():
            session.set_option(key, value)
        if self.tool_sources is not None:
            session.tool_sources = self.tool_sources
        return session, made_with

    def _create(self, session_id: str | None) -> Session:
        model = self._model_for()
        session = self.store.create(
            session_id,
            system=self.settings.system or DEFAULT_SYSTEM,
            provider=self.settings.provider_name,
            model=model,
            memory=self.settings.memory,
            counter=self.counter_factory(model),
        )
        session.endpoint = self.settings.endpoint
        for key, value in self.settings.options.items():
            session.set_option(key, value)
        if self.tool_sources is not None:
            session.tool_sources = self.tool_sources
        return session

    def _rule_for(self, session: Session) -> Rule:
        """The rule ``session`` runs by (:func:`~chatbot.core.rule.resolve`), set on it: its memory, what it keeps."""
        settings = self.settings
        rule = resolve(session.rule, settings.memory, settings.run, settings.origins)
        session.conversation.memory = rule.memory
        session.rule = rule.stored()
        return rule

    def _switch_to(self, session: Session, lock: SessionLock | None, rule: Rule) -> None:
        old = self._lock
        self._lock = lock
        self._chat = Chat(
            session, self.provider, self.store, rule.run, tools=self.tools, confirm_tool=self._confirm_tool
        )
        self.rule = rule
        if old is not None and old is not lock:
            old.release()
