"""The ``chatbot`` command: parse the flags (and the config file), wire the core together, pick the mode.

Terminal mode lives in :mod:`chatbot.terminal.repl`; script and one-shot modes in :mod:`chatbot.cli.modes`. Expected
failures print one line (``chatbot: ...``) and exit with the error's code; nothing here knows how memory works.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import shlex
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from chatbot.cli.flags import build_parser, check_combinations, refuse_conflicts
from chatbot.cli.modes import notice, stderr_line
from chatbot.errors import AuthenticationError, ChatbotError, ConfigError, Interrupted, OutputError, UsageError
from chatbot.text import clean

if TYPE_CHECKING:
    from chatbot.attachments.attach import Attachment
    from chatbot.cli.config import Config
    from chatbot.core.app import App
    from chatbot.core.chat import Chat
    from chatbot.providers.base import ChatProvider
    from chatbot.storage.base import SessionStore
    from chatbot.tools.setup import Toolbox

RETRIES = 2  # a failed request (no answer, 429, 5xx) is tried this many more times, each announced


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``chatbot`` script. Returns the exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C before the run began (reading .env or the config file): nothing to save yet
        return 130
    except Exception as exc:  # a bug no layer expected: one line, the traceback in a log file, status 70
        from chatbot.cli.crash import report

        return report(exc)


def _main(argv: Sequence[str] | None) -> int:
    """Parse, run, and turn every expected failure into one line and its exit status."""
    from chatbot.cli import config
    from chatbot.terminal.safety import guard_process, quiet_stdout

    closed = guard_process()  # signals handled like Ctrl-C, total output encoding, no closed standard streams
    dotenv = _load_dotenv()  # provider keys only: a folder's .env decides nothing else
    parser = build_parser()
    problem: ChatbotError | None = None
    settings = config.Config(Path("config.toml"), exists=False)  # until the file is read
    try:
        settings = config.load(parser)
        config.apply(parser, settings)  # the file's values become defaults: flags still win
    except ChatbotError as exc:
        problem = exc  # reported after parsing, so --help and --version still work with a broken file
    args = parser.parse_args(argv, namespace=argparse.Namespace(dotenv=dotenv))
    try:
        if problem is not None:
            raise problem
        if closed:
            raise OutputError("standard output is closed; chatbot needs somewhere to write its replies")
        refuse_conflicts(args)  # before --config too: it would report a setting the other flag dropped
        if args.config:
            print(config.report(parser, argv, args, settings))
            return 0
        args.given = config.given_on_command_line(parser, argv)  # a flag typed beats a session's own memory rule
        return run(args, settings)
    except ChatbotError as exc:
        told = exc.message
        if settings.values:  # a flag's value from the file: the file's line is named
            told = config.blame(told, parser, settings, config.given_on_command_line(parser, argv))
        stderr_line(f"chatbot: {clean(told)}")
        if isinstance(exc, OutputError):
            quiet_stdout()  # the interpreter's last flush of stdout would fail again, with a traceback
        return exc.exit_code
    except KeyboardInterrupt as exc:
        note = exc.note if isinstance(exc, Interrupted) else ""  # a save it stopped: where the session was rescued
        stderr_line(f"chatbot: {clean(note)}" if note else "")
        return exc.exit_code if isinstance(exc, Interrupted) else 130
    except BrokenPipeError:
        # the reader went away (`chatbot ... | head`): stop quietly, like other Unix tools killed by SIGPIPE
        quiet_stdout()
        return 141
    except OSError as exc:  # a file-system fault no layer expected: still one line, never a traceback
        if exc.errno == errno.EIO and not exc.filename:  # the terminal closed under the prompt (a hang-up)
            stderr_line("chatbot: the terminal went away (input/output error); the session is saved")
            return 128 + signal.SIGHUP
        stderr_line(f"chatbot: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}")
        return OutputError.exit_code


def _load_dotenv() -> frozenset[str]:
    """Take the provider keys of ``./.env`` (see :mod:`chatbot.cli.envfile`), say so, and return their names."""
    from chatbot.cli import envfile

    found = envfile.load()
    for line, warn in found.notices():
        notice(line, warning=warn)
    return found.taken


def _system_text(args: argparse.Namespace) -> str | None:
    """The system message for new sessions: --system or --system-file (--role: :mod:`chatbot.cli.templates`)."""
    if args.system_file:
        from chatbot.attachments.attach import MAX_TEXT_BYTES, decode_text, read_limited
        from chatbot.attachments.secret_files import refusal, secret_of

        name = f"--system-file {args.system_file}"
        path = Path(args.system_file).expanduser()
        data, size = read_limited(path, MAX_TEXT_BYTES, name)
        if held := secret_of(path, data):  # a .env, a private key: never sent, as no attachment of one is
            raise UsageError(refusal(name, held, "read as the system message"))
        if size > MAX_TEXT_BYTES:
            raise UsageError(f"{name} is {size:,} bytes; a system message can be at most {MAX_TEXT_BYTES:,}")
        text = decode_text(data, args.system_file)
        if not text.strip():
            raise UsageError(f"--system-file {args.system_file} is empty")
        return text.strip()
    return str(args.system) if args.system is not None else None


def _attachments(args: argparse.Namespace) -> list[Attachment]:
    """Piped stdin (with -p only) and -f files, read before anything is sent."""
    from chatbot.attachments.attach import MAX_TEXT_BYTES, Outbox, from_stdin, repeats_line
    from chatbot.attachments.sources import add_to, gather

    found = Outbox()  # each file once: -f notes.txt -f ./notes.txt, or a folder and a file in it
    if args.prompt is not None and not sys.stdin.isatty():
        piped = from_stdin(sys.stdin.buffer.read(MAX_TEXT_BYTES + 1))
        if piped:
            found.add(piped)
    repeats: list[tuple[Attachment, Attachment]] = []
    for source in args.file or []:
        gathered, left_out = add_to(found, gather(source, allow_private_urls=args.allow_private_urls))
        for line in gathered.describe().splitlines() if gathered.items else ():  # as /file says it (stderr)
            notice(line)
        repeats += left_out
    if repeats:
        notice(repeats_line(repeats))
    return list(found.items())


def run(args: argparse.Namespace, cfg: Config | None = None) -> int:
    """Wire the app for ``args`` and run the chosen mode."""
    from chatbot.cli import modes
    from chatbot.cli.config import Config
    from chatbot.storage import default_location, open_store

    cfg = cfg or Config(Path("config.toml"), exists=False)
    if args.list_providers:
        print(clean(modes.list_providers(args.provider)))
        return 0
    if (args.show or args.var) and not args.role:
        raise UsageError(f"{'--show' if args.show else '-v/--var'} works with --role NAME (a role template)")
    role = None
    if args.role:
        from chatbot.cli.templates import apply_role, show

        role = apply_role(args, cfg)  # a template's prompt becomes the -p message
        if args.show:
            print(clean(show(role, args.file)))
            return 0
    check_combinations(args)
    check_base_url(args, cfg)
    system = role.system if role is not None else _system_text(args)
    if args.list_models:
        return modes.list_models(args, cfg.model(args.model))  # an alias ([aliases]) marks the model it names
    attachments = _attachments(args)
    store = open_store(args.store or default_location())  # --store and --sessions-dir are one setting
    try:
        for warning in store.warnings:
            notice(warning, warning=True)
        if args.timeline or args.compare_memory:  # a stored session's requests, read only
            from chatbot.cli.teaching import teaching_mode

            return teaching_mode(store, args, cfg.prices)
        status = store_mode(store, args)
        return status if status is not None else session_mode(store, args, system, cfg, attachments)
    finally:
        store.close()  # a PostgreSQL store saves (or rescues to a file, and says so) what a lost connection held


def _told_lost(problem: Callable[[], str]) -> None:
    """Say what ``problem()`` says, if anything, as a warning (the request log's lost lines)."""
    if said := problem():
        notice(said, warning=True)


def check_base_url(args: argparse.Namespace, cfg: Config) -> None:
    """Refuse a malformed base URL before anything is read or sent, naming where it came from: ``--base-url`` (a
    usage error), the config file or the provider's variable (``$OPENAI_BASE_URL``)."""
    from chatbot.providers.endpoint import url_problem
    from chatbot.providers.table import PROVIDERS
    from chatbot.text import mask_password

    info = PROVIDERS[args.provider]
    error: type[ChatbotError]
    typed = getattr(args, "given", None) is None or "base_url" in args.given
    if args.base_url is not None and typed:
        url, source, error = args.base_url, "--base-url", UsageError
    elif not info.default_base_url:
        return  # echo: no server, so no base URL is read (one kept in a file or variable belongs to another)
    elif args.base_url is not None:  # the config file's (its values are the flags' defaults)
        url, source, error = args.base_url, cfg.where("base_url") or f"base_url in {cfg.path}", ConfigError
    elif info.base_url_env and os.environ.get(info.base_url_env):
        url, source, error = os.environ[info.base_url_env], f"${info.base_url_env}", ConfigError
    else:
        return
    problem = url_problem(url)
    if problem:
        raise error(f"{source} {mask_password(url)!r} cannot be used: {problem}")


def store_mode(store: SessionStore, args: argparse.Namespace) -> int | None:
    """--list-sessions, --search and --import-sessions: read or fill the store, open no session; else None."""
    from chatbot import commands

    if args.list_sessions:
        limit = commands.LISTED if args.limit is None else args.limit
        print(clean(commands.format_sessions(store, limit=limit)))
    elif args.search is not None:
        # from the shell, the shell's way to open one (in the same store, when it was named)
        where = f" --store {shlex.quote(store.location)}" if args.store else ""
        print(clean(commands.format_hits(store, args.search, opener=f"chatbot{where} --session ID")))
    elif args.import_sessions is not None:
        from chatbot.storage.transfer import import_sessions

        report = import_sessions(args.import_sessions, store)
        print(report.summary(report.source, store.location))
        if report.refused and not (report.imported or report.updated or report.unchanged):
            from chatbot.errors import SessionError

            stderr_line(f"chatbot: nothing was imported from {clean(args.import_sessions)}: every session was refused")
            return SessionError.exit_code
    else:
        return None
    return 0


def session_mode(
    store: SessionStore, args: argparse.Namespace, system: str | None, cfg: Config, attachments: list[Attachment]
) -> int:
    """Open (or create) the session and run the terminal, script or one-shot mode on it."""
    from chatbot.cli import modes
    from chatbot.cli.continued import with_session_provider
    from chatbot.storage.session import validate_id

    if args.prompt is not None:
        modes.check_one_shot(args.prompt)  # -p /undo: refused before a session is opened, named or made
    if args.session is not None:
        validate_id(args.session)  # refused before any request or file access
    args = with_session_provider(store, args)  # a continued session goes on with its own provider and model
    with contextlib.ExitStack() as run:  # closed in reverse: the app (its lock), then the tools
        toolbox = _open_tools(args)
        if toolbox is not None:
            run.callback(toolbox.close)
        app = _make_app(args, store, toolbox, system, cfg)
        if app.settings.run.log is not None:  # (after the app is closed) lines the log lost are told, not hidden
            run.callback(_told_lost, app.settings.run.log.problem)
        run.callback(app.close)
        _open_session(app, args)
        if toolbox is None:  # no --functions/--mcp: a continued session's own tools come back
            from chatbot.cli.reattach import reattach

            remembered = reattach(app, timeout=args.tool_timeout)
            if remembered is not None:
                run.callback(remembered.close)
        try:
            return _run_mode(app, args, system, attachments)
        except Exception as exc:
            if not isinstance(exc, (ChatbotError, OSError)):  # a bug: what the session holds must not go with it
                from chatbot.cli.crash import rescue_open_session

                rescue_open_session(app)
            raise


def _run_mode(app: App, args: argparse.Namespace, system: str | None, attachments: list[Attachment]) -> int:
    """Run terminal, one-shot or script mode on the session ``app`` has open."""
    from chatbot.cli import modes
    from chatbot.engine import recall_meaning

    chat = app.chat
    chat.conversation.counter.count("probe")  # a --tokenizer that cannot load fails now, not at every turn
    rule = chat.conversation.memory
    if rule.recall and rule.recall_by != "words":
        recall_meaning.warm()
        if missing := recall_meaning.missing_note():
            notice(missing, warning=True)  # once, at the start: recall goes by words meanwhile
    if system is not None and chat.conversation.turns and system != chat.conversation.system:
        given = f"--role {args.role}" if args.role else "--system-file" if args.system_file else "--system"
        notice(f"{given} shapes new sessions only; this one keeps its own system message (/system TEXT changes it)")
    if args.prompt is None and sys.stdin.isatty() and sys.stdout.isatty():
        from chatbot.terminal.repl import Repl

        return Repl(app, plain=args.plain, show_reasoning=args.reasoning, confirm_tools=args.confirm_tools).run()
    if args.confirm_tools and not (modes.uses_repl(args) and sys.stdin.isatty()):
        notice("--confirm-tools: there is no terminal to ask in, so every tool call is refused", warning=True)
        app.confirm_tool = lambda call: False
    turns = len(chat.conversation.turns)
    notice(f"session {chat.session.id} ({f'{turns} turn(s) stored' if turns else 'new'})")
    if args.prompt is not None:
        for attachment in attachments:
            chat.outbox.add(attachment)
        return modes.one_shot(app, args.prompt, args)
    return modes.script(app, sys.stdin, args)


def _open_session(app: App, args: argparse.Namespace) -> Chat:
    """Open the session of ``args``; the first resume of one from this directory's ./sessions shows what it brings
    (a cloned folder can ship a session with its own system prompt and options)."""
    from chatbot.cli import local_sessions

    here = Path("sessions")
    local = args.store is None and Path(app.store.location) == here  # the default: this folder's ./sessions
    resumed = args.cont or (args.session is not None and app.store.exists(args.session))
    session_id = args.session
    if args.cont:  # the newest session that loads: damaged ones are skipped, each named
        session_id, skipped = app.store.choose_latest()
        for info in skipped:
            notice(f"-c skips session {info.id}, which cannot be loaded: {info.broken}", warning=True)
    chat = app.open(session_id, latest=session_id is None and args.cont)
    if resumed and app.rule is not None and app.rule.changed:  # a flag given once is the session's from now on
        notice(f"session {chat.session.id} keeps from now on: {', '.join(app.rule.changed)}")
    if local and not local_sessions.is_known(here, chat.session.id):
        if resumed:
            notice(local_sessions.first_resume_notice(here, chat.session), warning=True)
        local_sessions.remember(here, chat.session.id)
    return chat


def _make_app(
    args: argparse.Namespace, store: SessionStore, toolbox: Toolbox | None, system: str | None, cfg: Config
) -> App:
    """The app for ``args``: the provider, the memory settings, options, log and the counter for each model."""
    from chatbot.cli.hub import tokenizer_file
    from chatbot.cli.run_flags import memory_rule, model_options, run_settings
    from chatbot.core.app import App, AppSettings
    from chatbot.core.rule import FLAGS, flag_dest
    from chatbot.engine.tokens import make_counter

    given = getattr(args, "given", None)  # None (run() called without main()): every setting counts as typed
    origins = {
        key: "flag" if given is None or dest in given else "config" if dest in cfg.values else "default"
        for key, dest in ((key, flag_dest(key)) for key in FLAGS)
    }
    from chatbot.providers.endpoint import endpoint_mark

    provider = _provider(args, cfg)
    settings = AppSettings(
        provider_name=args.provider,
        endpoint=endpoint_mark(args.provider, args.base_url),
        model=cfg.model(args.model),  # an alias ([aliases] in the config file) names its model
        memory=memory_rule(args),
        system=system,
        options=model_options(args),
        origins=origins,
        model_typed=given is None or "model" in given,  # else the config file's, or the continued session's own
        roles=cfg.roles,
        command_line_roles=cfg.command_line_roles,
        aliases=cfg.aliases,
        prices=cfg.prices,
        allow_private_urls=args.allow_private_urls,
        run=run_settings(args, cfg, RETRIES, store),
    )
    counters = lambda model: make_counter(args.tokenizer, args.provider, model, tokenizer_file)  # noqa: E731
    if toolbox is None:
        return App(store, provider, settings, counters)
    from chatbot.storage.session import ToolSources
    from chatbot.tools.setup import absolute_files

    # remembered by the sessions opened, with the folder the --mcp commands were given in: they start there again
    given = ToolSources(absolute_files(args.functions), tuple(args.mcp), os.getcwd() if args.mcp else "")
    return App(store, provider, settings, counters, tools=toolbox.registry, tool_sources=given)


def _open_tools(args: argparse.Namespace) -> Toolbox | None:
    """The tools of --functions and --mcp (None without them: nothing tool-related is even imported)."""
    if not (args.mcp or args.functions):
        return None
    from chatbot.tools.setup import absolute_files, open_tools

    toolbox = open_tools(args.mcp, absolute_files(args.functions), timeout=args.tool_timeout)
    for warning in toolbox.registry.warnings:
        notice(warning, warning=True)
    return toolbox


def _provider(args: argparse.Namespace, cfg: Config) -> ChatProvider:
    """The provider for ``args``; the user hears where the key goes when that is not simply the provider's server."""
    from chatbot.providers import make_provider
    from chatbot.providers.endpoint import endpoint_notices

    # the app retries itself (Chat), so that every retry is announced; the SDK's own retries are silent
    try:
        provider = make_provider(
            args.provider, model=cfg.model(args.model), base_url=args.base_url, timeout=args.timeout, max_retries=0
        )
    except AuthenticationError as exc:
        given = getattr(args, "given", None)  # (None: run() called without main(): every setting counts as typed)
        if args.base_url is None or given is None or "provider" in given:
            raise
        # --base-url alone: a user pointing at a local server meets the default provider's missing key (a user trial)
        raise AuthenticationError(
            f"{exc.message} (--base-url without --provider uses {args.provider}; for another "
            "OpenAI-compatible server, such as llama.cpp, Ollama or vLLM, add --provider openai: a local one needs no "
            "key)"
        ) from None
    # a base URL equal to the config file's came from there (the file's values are the flags' defaults)
    from_file = args.base_url is not None and cfg.values.get("base_url") == args.base_url
    source = f"base_url in {cfg.path}" if from_file else "--base-url"
    for line, warn in endpoint_notices(args.provider, args.base_url, args.dotenv, source):
        notice(line, warning=warn)
    return provider
