"""Roles as templates: ``--role NAME`` with ``-v NAME VALUE``, and ``--show`` to see what would be sent.

A ``[roles.NAME]`` table in the config file holds ``system`` and/or ``prompt``. ``$input`` is the input: the piped
text and the ``-p`` message (both, in that order, a blank line apart); ``$name`` or ``${name}`` is the value of
``-v name VALUE``; ``$$`` is a dollar sign. A role with a ``prompt`` makes the run one-shot: the filled prompt is the
message (a prompt without ``$input`` gets the input appended). A plain-string role is a system message, used as
written, as before. A variable with no value is one error naming it, before anything is read or sent.
"""

from __future__ import annotations

import argparse
import re
import sys
from string import Template
from typing import NamedTuple

from chatbot.cli.config import Config, Role, template_names
from chatbot.errors import UsageError
from chatbot.text import mask_password, one_line

_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Filled(NamedTuple):
    """A role with its variables filled: the system message and the message to send (None: not set by the role)."""

    system: str | None
    prompt: str | None


def apply_role(args: argparse.Namespace, cfg: Config) -> Filled:
    """Role ``args.role`` filled from ``-v`` and the input; a role with a prompt sets ``args.prompt`` (one-shot).

    Piped stdin is read here when the role's prompt takes it (``$input``), so it is not attached again."""
    role = cfg.template(args.role)
    variables = _variables(args.var or [])
    if not role.template:
        _unused(variables, args.role, role)
        return Filled(role.system, None)
    uses_input = role.prompt is not None or "input" in template_names(role.system)
    message = _input(args) if uses_input else None
    filled = fill(args.role, role, variables, message)
    if filled.prompt is not None:
        args.prompt = filled.prompt
    return filled


def fill(name: str, role: Role, variables: dict[str, str], message: str | None) -> Filled:
    """``role``'s system and prompt with ``variables`` and ``$input`` (``message``) filled in."""
    missing = sorted((template_names(role.system) | template_names(role.prompt)) - set(variables) - {"input"})
    if missing:
        flags = " ".join(f"-v {m} VALUE" for m in missing)
        raise UsageError(f"role {name} needs a value for ${missing[0]}: add {flags}")
    _unused(variables, name, role)
    values = {**variables, "input": message or ""}
    if message is None and "input" in template_names(role.system) | template_names(role.prompt):
        raise UsageError(f"role {name} uses $input: give the message with -p TEXT, or pipe it in")
    system = Template(role.system).substitute(values) if role.system else None
    prompt = None
    if role.prompt:
        prompt = Template(role.prompt).substitute(values)
        if "input" not in template_names(role.prompt) and message:
            prompt = f"{prompt}\n\n{message}"  # a prompt that does not place the input gets it after itself
    return Filled(system, prompt)


def show(filled: Filled, files: list[str] | None = None) -> str:
    """``--show``: the filled system message and prompt, as they would be sent, and the ``-f`` files that would go
    with the prompt (named, not read: ``--show`` sends and fetches nothing)."""
    system = filled.system if filled.system is not None else "(none: a new session gets chatbot's default)"
    parts = [f"system:\n{system}"]
    parts.append(f"prompt:\n{filled.prompt}" if filled.prompt is not None else "prompt: (none: the role sets none)")
    if files:
        parts.append("attached before the prompt (-f):\n" + "\n".join(f"- {one_line(mask_password(f))}" for f in files))
    return "\n\n".join(parts)


def _variables(pairs: list[list[str]]) -> dict[str, str]:
    variables: dict[str, str] = {}
    for name, value in pairs:
        if not _VARIABLE.fullmatch(name):
            raise UsageError(f"-v {name}: a variable name is letters, digits and '_' (used as ${name} in a role)")
        if name == "input":
            raise UsageError("-v input: $input is the message itself (-p TEXT, or piped text)")
        variables[name] = value
    return variables


def _unused(variables: dict[str, str], name: str, role: Role) -> None:
    unused = sorted(
        set(variables) - (template_names(role.system) | template_names(role.prompt) if role.template else set())
    )
    if unused:
        from chatbot.cli.modes import notice

        notice(f"-v {', '.join(unused)}: role {name} has no such variable", warning=True)


def _input(args: argparse.Namespace) -> str | None:
    """The input of a template: piped text (read now, up to the limit) and the -p message; None when neither."""
    from chatbot.attachments.attach import MAX_TEXT_BYTES, decode_text

    parts = []
    if not sys.stdin.isatty():
        data = sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
        if len(data) > MAX_TEXT_BYTES:
            raise UsageError(f"piped input is over {MAX_TEXT_BYTES:,} bytes, the limit")
        piped = decode_text(data, "piped input").strip("\n")
        parts += [piped] if piped.strip() else []
    parts += [args.prompt] if args.prompt is not None else []
    return "\n\n".join(parts) if parts else None
