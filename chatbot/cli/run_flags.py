"""What the flags ask of every turn of a run: the memory rule, how each turn goes, the model options.

The command line (:mod:`chatbot.cli.entry`) hands each to the app it makes; the config file reaches them through the
flags' defaults.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from chatbot.errors import UsageError

if TYPE_CHECKING:
    from chatbot.cli.config import Config
    from chatbot.core.turn_settings import TurnSettings
    from chatbot.engine.memory import MemoryConfig
    from chatbot.storage.base import SessionStore


def memory_rule(args: argparse.Namespace) -> MemoryConfig:
    """The memory rule the flags (and the config file, through their defaults) give."""
    from chatbot.engine.memory import MemoryConfig
    from chatbot.engine.strategies import COUNTS

    return MemoryConfig(
        strategy=args.memory,
        **{name: getattr(args, name) for name in COUNTS},  # window, first-last and summary settings
        max_input_tokens=args.max_input_tokens,
        recall=args.recall,
        recall_by=args.recall_by,
    )


def run_settings(args: argparse.Namespace, cfg: Config, retries: int, store: SessionStore) -> TurnSettings:
    """How every turn of this run goes: reply limit, summaries' model and options, tool rounds, streaming, logs."""
    from chatbot.cli.modes import show_request
    from chatbot.core.app import parse_option
    from chatbot.core.request_log import RequestLog
    from chatbot.core.turn_settings import TurnSettings

    interactive = args.prompt is None and sys.stdin.isatty() and sys.stdout.isatty()
    return TurnSettings(
        max_output_tokens=args.max_output_tokens or None,
        summary_model=cfg.model(args.summary_model),
        summary_options=dict(parse_option(key, value) for key, value in args.summary_option or []),
        max_tool_rounds=args.max_tool_rounds,
        stream=not args.no_stream,
        log=RequestLog(args.log_requests, store.paths) if args.log_requests else None,  # never into the store
        # script and -p keep their exact order of requests (summary, then chat); the terminal writes them ahead
        background_summaries=interactive,
        retries=retries,
        show_request=show_request if args.show_requests else None,
    )


#: the options that name the request's reply limit, the field ``--max-output-tokens`` sets
REPLY_LIMIT_OPTIONS = ("max_tokens", "max_completion_tokens")


def model_options(args: argparse.Namespace) -> dict[str, Any]:
    """The model options of ``-o`` (and ``--schema``: the option ``response_format``), each checked by the one rule."""
    from chatbot.core.app import parse_option

    options = dict(parse_option(key, value) for key, value in args.option or [])
    limit = next((key for key in REPLY_LIMIT_OPTIONS if key in options), None)
    if limit is not None and args.max_output_tokens:  # (the option would replace the flag's field in every body)
        raise UsageError(f"--max-output-tokens and -o {limit} cannot be used together: each sets the reply limit")
    if args.schema is not None:
        from chatbot.cli.reply_schema_arg import schema_option
        from chatbot.engine.options import option_problem

        if "response_format" in options:
            raise UsageError("--schema and -o response_format cannot be used together: each sets response_format")
        options["response_format"] = schema_option(args.schema)
        problem = option_problem("response_format", options["response_format"])
        if problem:
            raise UsageError(f"--schema: {problem}")
    return options
