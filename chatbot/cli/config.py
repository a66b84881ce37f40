"""The config file: defaults for the command line's long flags, plus named roles and model aliases.

TOML, at ``$CHATBOT_CONFIG`` (which must exist) or ``config.toml`` in the user config directory (platformdirs, where
a missing file is an empty config). A top-level key is a
long flag with underscores (``max_input_tokens = 8000`` for ``--max-input-tokens``); ``[roles]`` maps a name to a
system prompt, or (``[roles.NAME]``) to a template with ``system`` and ``prompt`` (:mod:`chatbot.cli.templates`);
``[aliases]`` maps a short name to a model; ``[prices.MODEL]`` gives a model's price for ``/cost``. Keys are read
from the parser itself, so a flag added to
:mod:`chatbot.cli.flags` is a config key without code here. Precedence: flags, then environment, then this file,
then built-in defaults. A bad file, key or value is one :class:`ConfigError` naming the file, the line and the key.
API keys never go here (environment or ``.env``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from chatbot.cli import flags
from chatbot.errors import ConfigError
from chatbot.providers.table import PROVIDERS

if TYPE_CHECKING:
    from chatbot.engine.cost import Price

CONFIG_ENV = "CHATBOT_CONFIG"
# flags that name what one run does (a message, a session, a command that exits), never a standing default
NOT_CONFIG = {"help", "version", "prompt", "cont", "session", "list_sessions", "config", "list_models", "file"}
NOT_CONFIG |= {"search", "import_sessions", "limit", "schema", "var", "show", "list_providers"}
NOT_CONFIG |= {"timeline", "html", "force", "compare_memory"}
#: config keys that read better in the plural, and the flag each is (``summary_options = { temperature = 0.1 }``)
PLURALS = {"options": "option", "summary_options": "summary_option"}
_SECRET = re.compile(r"(^|_)(api_key|apikey|secret|password|token)$")
#: settings that name files: a relative path is relative to the config file's folder, not to wherever chatbot runs
#: (a file in the current folder must never be picked up, or run, because a config file names it)
_PATHS = {"functions", "system_file", "log_requests"}
#: an argument of an ``mcp`` command with one of these endings is a script file (``python my_server.py``)
_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".pl", ".php", ".jar", ".lua")


class Role(NamedTuple):
    """A role: a system message and/or a prompt. A ``[roles.NAME]`` table is a template (``$input`` and ``$name``
    variables are filled); a plain string is a system message used as written."""

    system: str | None = None
    prompt: str | None = None
    template: bool = False


class Config:
    """A loaded config file: flag defaults by argparse ``dest``, roles and model aliases.

    A plain class, not a dataclass: ``dataclasses`` (and the ``inspect`` it imports) would cost every start-up,
    ``chatbot --version`` included, about a fifth of a bare interpreter's start.
    """

    def __init__(
        self,
        path: Path,
        exists: bool,
        values: dict[str, Any] | None = None,
        roles: dict[str, Role] | None = None,
        aliases: dict[str, str] | None = None,
        prices: dict[str, Price] | None = None,
        text: str = "",
        keys: dict[str, str] | None = None,
    ) -> None:
        self.path = path
        self.exists = exists
        self.values: dict[str, Any] = values or {}
        self.text = text  # the file as read: an error about a setting found later names the setting's line
        self.keys: dict[str, str] = keys or {}  # dest -> the key the file wrote it as (store, sessions_dir, options)
        self.templates: dict[str, Role] = roles or {}
        self.aliases: dict[str, str] = aliases or {}
        self.prices: dict[str, Price] = prices or {}  # [prices.MODEL]: what /cost prices a model at

    @property
    def roles(self) -> dict[str, str]:
        """Role name -> system message, for ``/role`` in a chat: every role with a system message and no variables
        (a template's variables are filled only by ``--role NAME -v ...``; its ``$$`` is a dollar sign)."""
        from string import Template

        return {
            name: Template(role.system).substitute({}) if role.template else role.system
            for name, role in self.templates.items()
            if role.system and not (role.template and template_names(role.system))
        }

    @property
    def command_line_roles(self) -> dict[str, str]:
        """Role name -> why ``/role`` cannot set it and the command line that runs it, for every role not in
        :attr:`roles`: a template whose system message has variables, or one with a prompt and no system message."""
        said = {}
        for name, role in self.templates.items():
            if name in self.roles:
                continue
            names = template_names(role.system) | template_names(role.prompt)
            line = f"chatbot --role {name}" + "".join(f" -v {v} VALUE" for v in sorted(names - {"input"}))
            line += " -p TEXT" if "input" in names else ""
            if role.system:
                used = ", ".join(f"${v}" for v in sorted(template_names(role.system)))
                why = f"its system message has variables ({used}) that only the command line fills"
            else:
                why = "it is a prompt to send, with no system message"
            said[name] = f"role {name} is a template /role cannot set: {why}; run it from the shell: {line}"
        return said

    def template(self, name: str) -> Role:
        """Role ``name``; a ConfigError lists the roles there are."""
        if name not in self.templates:
            known = ", ".join(sorted(self.templates)) or f"none: add a [roles] table to {self.path}"
            raise ConfigError(f"--role: no role {name!r} (roles: {known})")
        return self.templates[name]

    def role(self, name: str) -> str:
        """The system message of role ``name`` as written ("" for a template with a prompt only)."""
        return self.template(name).system or ""

    def model(self, name: str | None) -> str | None:
        """``name``, or the model it is an alias of (``[aliases]``)."""
        return self.aliases.get(name, name) if name else name

    def where(self, dest: str) -> str:
        """Where the file sets ``dest`` (``/home/me/.config/chatbot/config.toml, line 3: store``); "" when it does
        not."""
        key = self.keys.get(dest)
        return str(_Spot(self.path, self.text, (key,))) if key else ""


def config_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$CHATBOT_CONFIG``, else ``config.toml`` in the user config directory."""
    if environ.get(CONFIG_ENV):
        return Path(environ[CONFIG_ENV]).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("chatbot", appauthor=False)) / "config.toml"


def flag_actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Config key -> the parser's action, for every long flag that may have a default in the file."""
    keys = {}
    for action in parser._actions:  # argparse has no public list of its actions
        for option in action.option_strings:
            if option.startswith("--") and action.dest not in NOT_CONFIG:
                keys[option[2:].replace("-", "_")] = action
    return keys


def load(parser: argparse.ArgumentParser, path: Path | None = None, environ: Mapping[str, str] = os.environ) -> Config:
    """Read and check the config file for ``parser``'s flags (``path``, else :func:`config_path`).

    A missing file at the default location is an empty config; one that ``$CHATBOT_CONFIG`` names is a ConfigError
    (a typo there must not run everything on defaults without a word)."""
    named = path is None and bool(environ.get(CONFIG_ENV))
    path = path or config_path(environ)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if named:
            raise ConfigError(
                f"the config file {path} named by ${CONFIG_ENV} does not exist; create it, or unset {CONFIG_ENV} "
                "to use the default one"
            ) from None
        return Config(path, exists=False)
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    text = raw.decode("utf-8", errors="replace")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_syntax_error(path, text, str(exc))) from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion: [[[[...]]]] exhausts the stack
        line = _deepest_line(text)
        raise ConfigError(f"{path}, line {line}: not a usable config file: values nested too deeply") from None
    actions = flag_actions(parser)
    values: dict[str, Any] = {}
    roles: dict[str, Role] = {}
    aliases: dict[str, str] = {}
    prices: dict[str, Price] = {}
    keys: dict[str, str] = {}
    for key, value in data.items():
        where = _Spot(path, text, (key,))
        key = PLURALS.get(key, key)
        if key == "roles":
            roles = _roles(value, where)
        elif key == "aliases":
            aliases = _aliases(value, where)
        elif key == "prices":
            prices = _prices(value, where)
        elif _SECRET.search(key.lower()):
            raise ConfigError(f"{where}: API keys never go in the config file; set them in the environment or .env")
        elif key not in actions:
            raise ConfigError(f"{where}: unknown key (keys are long flags with underscores, e.g. max_input_tokens)")
        else:
            action = actions[key]
            if action.dest in values:  # store and sessions_dir, option and options: one setting, two names
                other = next(k for k in data if getattr(actions.get(PLURALS.get(k, k)), "dest", None) == action.dest)
                raise ConfigError(f"{where}: the same setting as the key {other}; give one")
            values[action.dest] = _relative_to(path.parent, action.dest, _convert(action, value, where))
            keys[action.dest] = where.keys[0]
    return Config(path, True, values, roles, aliases, prices, text=text, keys=keys)


def _syntax_error(path: Path, text: str, told: str) -> str:
    """tomllib's complaint in the form of every other config error: the file, then the line (and column)."""
    spot = re.search(r" \(at line (\d+), column (\d+)\)$", told)
    if spot is not None:
        return f"{path}, line {spot[1]}, column {spot[2]}: not valid TOML: {told[: spot.start()]}"
    end = " (at end of document)"
    if told.endswith(end):  # an unclosed string, list or table: the file's last line
        last = len(text.rstrip("\n").split("\n"))
        return f"{path}, line {last}: not valid TOML: {told.removesuffix(end)} at the end of the file"
    return f"{path}: not valid TOML: {told}"


def _deepest_line(text: str) -> int:
    """The line where brackets and braces nest deepest (strings not told apart: it only points the user there)."""
    depth, deepest, line = 0, -1, 1
    for number, row in enumerate(text.split("\n"), 1):
        for char in row:
            depth += 1 if char in "[{" else -1 if char in "]}" else 0
            if depth > deepest:
                deepest, line = depth, number
    return line


def _relative_to(folder: Path, dest: str, value: Any) -> Any:
    """``value`` with relative file paths made relative to ``folder`` (for the settings in ``_PATHS`` and ``mcp``)."""
    if dest == "mcp" and isinstance(value, list):
        return [_mcp_command(folder, str(v)) for v in value]
    if dest not in _PATHS:
        return value
    if isinstance(value, list):
        return [str(folder / Path(v).expanduser()) for v in value]
    return str(folder / Path(value).expanduser()) if isinstance(value, str) else value


def _mcp_command(folder: Path, command: str) -> str:
    """An ``mcp`` command line with its relative program (``bin/server``) and relative script arguments
    (``my_server.py``, ``./data``) resolved against ``folder``: never the current folder's file of that name.

    A URL, a bare program name (found on PATH), options (``-m``, ``--x=y``) and package names are left alone.
    """
    import shlex

    if "://" in command.split(" ", 1)[0]:
        return command  # a streamable HTTP server
    try:
        argv = shlex.split(command)
    except ValueError:
        return command  # unbalanced quotes: the tools layer reports it
    if not argv:
        return command

    def resolve(arg: str, program: bool) -> str:
        if Path(arg).is_absolute() or arg.startswith(("-", "~", "@")) or "://" in arg:
            return arg
        if arg.startswith(("./", "../")) or (program and "/" in arg) or arg.endswith(_SCRIPT_SUFFIXES):
            return str(folder / arg)
        return arg

    resolved = [resolve(argv[0], True)] + [resolve(arg, False) for arg in argv[1:]]
    return command if resolved == argv else shlex.join(resolved)


def apply(parser: argparse.ArgumentParser, config: Config, environ: Mapping[str, str] = os.environ) -> None:
    """Make the file's values the parser's defaults, except where the environment already sets that flag."""
    parser.set_defaults(**{k: v for k, v in config.values.items() if not env_sets(k, config, environ)})


#: the environment variables the flags read (flags.py), by setting: only these override the config file
ENVIRONMENT = {
    "provider": ("CHATBOT_PROVIDER",),
    "model": ("CHATBOT_MODEL",),
    "timeout": ("CHATBOT_TIMEOUT",),
    "store": ("CHATBOT_STORE", "CHATBOT_SESSIONS_DIR"),  # --sessions-dir is the same setting as --store
}


def blame(message: str, parser: argparse.ArgumentParser, config: Config, given: set[str]) -> str:
    """``message`` with where the config file sets each flag it names that the command line did not type (an error
    found after loading, ``--keep-turns (5) must not be more than --summary-trigger (2)``, then names the lines)."""
    options = {option: action.dest for action in parser._actions for option in action.option_strings}
    spots = []
    for flag in re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", message):
        dest = options.get(flag, "")
        spot = "" if dest in given or env_sets(dest, config) else config.where(dest)
        if spot and spot not in spots:
            spots.append(spot)
    return f"{message} (set in the config file: {'; '.join(spots)})" if spots else message


def env_sets(dest: str, config: Config, environ: Mapping[str, str] = os.environ) -> str:
    """The environment variable that sets ``dest`` now ("" when none): one the flags read (:data:`ENVIRONMENT`),
    or the base-URL variable of the provider in use."""
    names = list(ENVIRONMENT.get(dest, ()))
    if dest == "base_url":
        provider = environ.get("CHATBOT_PROVIDER") or config.values.get("provider") or "groq"
        info = PROVIDERS.get(str(provider))
        names += [info.base_url_env] if info and info.base_url_env else []
    return next((n for n in names if environ.get(n)), "")


def report(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    args: argparse.Namespace,
    config: Config,
    environ: Mapping[str, str] = os.environ,
) -> str:
    """``chatbot --config``: the file's path, then every setting's effective value and where it came from."""
    state = "" if config.exists else " (not found: built-in defaults and the environment apply)"
    via = f" (from ${CONFIG_ENV})" if environ.get(CONFIG_ENV) else ""
    lines = [f"config file: {config.path}{via}{state}"]
    given = given_on_command_line(parser, argv)
    for key, action in sorted(flag_actions(parser).items()):
        dest = action.dest
        env = env_sets(dest, config, environ)
        if dest in given:
            source = "flag"
        elif env:
            source = f"environment ${env}"
        elif dest in config.values:
            source = "config"
        else:
            source = "default"
        value = getattr(args, dest, None)
        if action.nargs == 2 and isinstance(value, list):  # KEY VALUE pairs (-o) read best as a table
            value = {k: _json_or_text(v) for k, v in value}
        if dest == "base_url" and env and dest not in given:
            value = environ.get(env)
        if dest in ("store", "base_url") and isinstance(value, str):
            from chatbot.text import mask_password

            value = mask_password(value)  # a postgresql:// or base URL may hold a password
        lines.append(f"  {key} = {json.dumps(value, ensure_ascii=False)}  ({source})")
    names = ", ".join(sorted(config.templates)) or "none"
    lines.append(f"  roles: {names}")
    aliases = ", ".join(f"{k} = {v}" for k, v in sorted(config.aliases.items())) or "none"
    lines.append(f"  aliases: {aliases}")
    return "\n".join(lines)


# --- helpers ----------------------------------------------------------------------------------------------------


def given_on_command_line(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> set[str]:
    """The ``dest`` of every flag typed on the command line ``argv`` (None: ``sys.argv``), whatever its value."""
    # Parse again with every default suppressed: what is left was typed.
    import copy

    quiet = copy.deepcopy(parser)
    quiet._defaults = {}  # what apply() set
    for action in quiet._actions:
        action.default = argparse.SUPPRESS
    return set(vars(quiet.parse_known_args(argv)[0]))


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


# A TOML key: bare, "quoted" or 'literal'; dotted keys (a.b) and table headers ([a.b], [[a.b]]) chain them.
_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_DOTTED = rf"{_KEY}(?:[ \t]*\.[ \t]*{_KEY})*"
_HEADER = re.compile(rf"[ \t]*\[\[?[ \t]*({_DOTTED})[ \t]*\]")
_SETTING = re.compile(rf"[ \t]*({_DOTTED})[ \t]*=")


def template_names(text: str | None) -> set[str]:
    """The variable names a template's text uses (``$name``, ``${name}``; ``$$`` is none)."""
    from string import Template

    return set(Template(text).get_identifiers()) if text else set()


class _Spot(NamedTuple):
    """A key of the config file, for its error messages: ``str()`` names the file, the key's line and the key
    (``config.toml, line 6: roles.bad.prompt``). The line is found only when an error is told."""

    file: Path
    text: str
    keys: tuple[str, ...]

    def at(self, key: object) -> _Spot:
        """The key ``key`` inside this one (a table's)."""
        return self._replace(keys=(*self.keys, str(key)))

    def __str__(self) -> str:
        return f"{self.file}, line {_line_of(self.text, self.keys)}: {'.'.join(self.keys)}"


def _keys(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip("\"'") for part in re.findall(_KEY, dotted))


def _line_of(text: str, keys: tuple[str, ...]) -> int:
    """The line that sets the key ``keys`` (a path: ``("roles", "bad", "prompt")``) or opens its table; when none
    does (an inline table, a multi-line value), the line of the nearest key or table holding it; else 1."""
    line, depth = 1, 0
    table: tuple[str, ...] = ()
    for number, row in enumerate(text.split("\n"), 1):  # TOML's lines: only a newline ends one
        header = _HEADER.match(row)
        setting = None if header else _SETTING.match(row)
        if header:
            table = found = _keys(header[1])
        elif setting:
            found = (*table, *_keys(setting[1]))
        else:
            continue
        if depth < len(found) <= len(keys) and keys[: len(found)] == found:
            line, depth = number, len(found)
    return line


def _roles(value: object, where: _Spot) -> dict[str, Role]:
    if not isinstance(value, dict):
        raise ConfigError(f'{where}: must be a table of name = "system prompt"')
    roles = {}
    for name, role in value.items():
        if isinstance(role, dict):
            roles[name] = _template(role, where.at(name))
        elif not isinstance(role, str) or not role.strip():
            raise ConfigError(f"{where.at(name)}: a role is a non-empty string (its system prompt)")
        else:
            roles[name] = Role(system=role)
    return roles


def _template(table: dict[str, Any], where: _Spot) -> Role:
    """A ``[roles.NAME]`` table: ``system`` and/or ``prompt``, non-empty strings whose ``$`` start variable names."""
    from string import Template

    unknown = sorted(set(table) - {"system", "prompt"})
    if unknown:
        raise ConfigError(f"{where.at(unknown[0])}: unknown key (a role table holds system and prompt)")
    if not table:
        raise ConfigError(f"{where}: a role table needs system, prompt or both")
    for key, text in table.items():
        if not isinstance(text, str) or not text.strip():
            raise ConfigError(f"{where.at(key)}: must be a non-empty string")
        if not Template(text).is_valid():
            raise ConfigError(f"{where.at(key)}: a $ that starts no variable name ($name, ${{name}}); write $$ for $")
    return Role(table.get("system"), table.get("prompt"), template=True)


#: the keys of a ``[prices.MODEL]`` table, each in USD per million tokens (cached: a prompt's cached tokens)
_PRICE_KEYS = ("input", "output", "cached")
_PER_MILLION = "USD per million tokens"


def _prices(value: object, where: _Spot) -> dict[str, Price]:
    """``[prices.MODEL]`` tables: input, output and optionally cached, in USD per million tokens."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: must be a table of [prices.MODEL] tables")
    return {str(model): _price(table, where.at(model)) for model, table in value.items()}


def _price(table: object, where: _Spot) -> Price:
    """One ``[prices.MODEL]`` table; a ConfigError names the key that is wrong and what it must be."""
    import math

    from chatbot.engine.cost import Price  # (dataclasses: imported only when a config file names prices)

    if not isinstance(table, dict):
        raise ConfigError(f"{where}: must be a table with input, output and optionally cached ({_PER_MILLION})")
    for key, amount in table.items():
        if key not in _PRICE_KEYS:
            raise ConfigError(f"{where.at(key)}: unknown key (a price table holds input, output and cached)")
        if not isinstance(amount, (int, float)) or isinstance(amount, bool) or not 0 <= amount < math.inf:
            raise ConfigError(f"{where.at(key)}: must be a number of at least 0 ({_PER_MILLION}), found {amount!r}")
    missing = [key for key in _PRICE_KEYS[:2] if key not in table]
    if missing:
        raise ConfigError(f"{where}: needs {' and '.join(missing)} ({_PER_MILLION}; cached is optional)")
    cached = table.get("cached")
    return Price(float(table["input"]), float(table["output"]), None if cached is None else float(cached))


def _aliases(value: object, where: _Spot) -> dict[str, str]:
    if not isinstance(value, dict):
        raise ConfigError(f'{where}: must be a table of alias = "model"')
    for name, model in value.items():
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"{where.at(name)}: an alias names a model (a non-empty string)")
    return {name: model.strip() for name, model in value.items()}


def _convert(action: argparse.Action, value: Any, where: _Spot) -> Any:
    """A TOML value as the flag would have parsed it; a ConfigError when the flag would have refused it."""
    if action.nargs == 0:  # store_true and friends
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: must be true or false, found {value!r} ({_kind(value)})")
        return value
    if isinstance(action, argparse._AppendAction):
        if action.nargs == 2:  # KEY VALUE pairs (-o): a table
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: must be a table of name = value, found {value!r} ({_kind(value)})")
            return [[str(k), json.dumps(_option(k, v, where.at(k)))] for k, v in value.items()]
        items = value if isinstance(value, list) else [value]
        return [_scalar(action, item, where) for item in items]
    return _scalar(action, value, where)


def _scalar(action: argparse.Action, value: Any, where: _Spot) -> Any:
    kind = "a number" if action.type in _NUMBERS else "a string"  # what the flag reads, as TOML writes it
    if _kind(value) != kind:
        raise ConfigError(f"{where}: must be {_expected(action)}, found {value!r} ({_kind(value)})")
    text = str(value)
    try:
        converted = action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, ValueError, TypeError) as exc:
        raise ConfigError(f"{where}: {exc or f'invalid value {value!r}'}") from None
    if action.choices is not None and converted not in action.choices:
        choices = ", ".join(map(str, action.choices))
        raise ConfigError(f"{where}: {value!r} is not one of {choices}")
    return converted


def _option(key: str, value: object, where: _Spot) -> object:
    """A model option of an ``option`` table, checked by the rule every option meets (the file's line named)."""
    from chatbot.engine.options import option_problem

    problem = option_problem(key, value)
    if problem:
        raise ConfigError(f"{where}: {problem}")
    return value


def _kind(value: object) -> str:
    """What a TOML value is, in the words of an error message."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, dict)):
        return "a list" if isinstance(value, list) else "a table"
    return type(value).__name__  # a TOML date or time


#: the flags' number types, and what each asks for (any other flag reads a string)
_NUMBERS: dict[object, str] = {
    flags.positive: "a whole number of at least 1",
    flags.natural: "a whole number of at least 0",
    flags.seconds: "a number of seconds",
    int: "a whole number",
    float: "a number",
}


def _expected(action: argparse.Action) -> str:
    """What a flag's value must be in the file: a number for a flag that reads one, else a string (its metavar)."""
    if action.type in _NUMBERS:
        return _NUMBERS[action.type]
    if action.dest == "store":  # its metavar, URL, leaves out the plain path
        return "a string (a directory, sqlite:///PATH.db or a postgresql:// URL)"
    if action.choices is not None:
        return "a string: one of " + ", ".join(map(str, action.choices))
    return f"a string ({action.metavar or action.dest.upper()})"
