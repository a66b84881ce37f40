"""The config file: keys from the parser, precedence flags > environment > config > defaults, clear errors."""

from __future__ import annotations

import os

import pytest

from chatbot.cli import config
from chatbot.cli.flags import build_parser
from chatbot.errors import ConfigError
from tests.support.cli import one_error_line, run_chatbot, session_doc
from tests.support.fake_server import FakeServer


def load(tmp_path, text: str, parser=None):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return config.load(parser or build_parser(), path)


def test_keys_are_long_flags_with_underscores(tmp_path):
    cfg = load(
        tmp_path,
        'provider = "echo"\nmax_input_tokens = 8000\nmemory = "window"\nno_stream = true\n'
        'option = {temperature = 0.5}\nlog_requests = "log.jsonl"\n[roles]\nshort = "Be brief."\n',
    )
    assert cfg.values == {
        "provider": "echo",
        "max_input_tokens": 8000,
        "memory": "window",
        "no_stream": True,
        "option": [["temperature", "0.5"]],
        "log_requests": str(tmp_path / "log.jsonl"),  # a relative path is relative to the config file
    }
    assert cfg.role("short") == "Be brief."


def test_the_tables_of_options_may_be_written_in_the_plural(tmp_path):
    cfg = load(tmp_path, "options = {seed = 7}\nsummary_options = {temperature = 0.1, top_p = 0.5}\n")
    assert cfg.values == {"option": [["seed", "7"]], "summary_option": [["temperature", "0.1"], ["top_p", "0.5"]]}


def test_every_long_flag_is_a_config_key_without_code(tmp_path):
    parser = build_parser()
    parser.add_argument("--brand-new", type=float, help="a flag added later needs no config code")
    text = 'brand_new = 12.5\nmcp = ["http://a/mcp", "tool --stdio"]\ntool_timeout = 30\n'
    cfg = load(tmp_path, text, parser)
    assert cfg.values == {"brand_new": 12.5, "mcp": ["http://a/mcp", "tool --stdio"], "tool_timeout": 30}
    config.apply(parser, cfg, environ={})
    args = parser.parse_args([])
    assert args.brand_new == 12.5 and args.mcp == ["http://a/mcp", "tool --stdio"] and args.tool_timeout == 30
    assert parser.parse_args(["--brand-new", "3"]).brand_new == 3.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('provider = "echo"\nmodle = "x"\n', "line 2: modle: unknown key"),
        ("max_input_tokens = 1.5\n", "line 1: max_input_tokens: '1.5' is not a whole number"),
        ("window_turns = -1\n", "window_turns: -1 is less than 0"),
        ('memory = "forever"\n', "memory: 'forever' is not one of full, window, summary"),
        ('\n\ngroq_api_key = "gsk-x"\n', "line 3: groq_api_key: API keys never go in the config file"),
        ("no_stream = 1\n", "no_stream: must be true or false"),
        ('[roles]\nempty = ""\n', "roles.empty: a role is a non-empty string"),
        ('prompt = "hi"\n', "prompt: unknown key"),
        ("provider = [\n", "not valid TOML"),
    ],
)
def test_bad_files_name_the_file_line_and_key(tmp_path, text, expected):
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert str(tmp_path / "config.toml") in caught.value.message and expected in caught.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('provider = "echo"\nmemory = = 3\n', "line 2, column 10: not valid TOML: Invalid value"),
        ('provider = "echo"\nstore = [\n', "line 2: not valid TOML: Invalid value at the end of the file"),
        ('provider = "echo"\n\nx = ' + "[" * 3000 + "]" * 3000 + "\n", "line 3: not a usable config file"),
    ],
)
def test_toml_that_cannot_be_read_is_told_with_the_file_and_the_line(tmp_path, text, expected):
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert caught.value.message.startswith(f"{tmp_path / 'config.toml'}, {expected}"), caught.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("store = 5\n", "store: must be a string (a directory, sqlite:///PATH.db or a postgresql:// URL), found 5 (a"),
        ("system = 1.5\n", "system: must be a string (TEXT), found 1.5 (a number)"),
        ("model = true\n", "model: must be a string (MODEL), found True (true or false)"),
        ('mcp = ["server", 5]\n', "mcp: must be a string (SERVER), found 5 (a number)"),
        ("functions = [[]]\n", "functions: must be a string (FILE.py), found [] (a list)"),
        ("base_url = {a = 1}\n", "base_url: must be a string (BASE_URL), found {'a': 1} (a table)"),
        ("memory = 5\n", "memory: must be a string: one of full, window, summary, first-last, found 5 (a number)"),
        ('max_input_tokens = "5"\n', "max_input_tokens: must be a whole number of at least 1, found '5' (a string)"),
        ('timeout = "9"\n', "timeout: must be a number of seconds, found '9' (a string)"),
        ("recall = [1]\n", "recall: must be a whole number of at least 0, found [1] (a list)"),
        ('plain = "yes"\n', "plain: must be true or false, found 'yes' (a string)"),
        ("option = [1]\n", "option: must be a table of name = value, found [1] (a list)"),
        ("option = {stream = true}\n", "option.stream: 'stream' is set by chatbot itself and cannot be an option"),
    ],
)
def test_every_key_has_its_type_checked_naming_the_key_the_value_and_what_it_must_be(tmp_path, text, expected):
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert caught.value.message.startswith(f"{tmp_path / 'config.toml'}, line 1: {expected}"), caught.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("keep_turns = 5\nsummary_trigger = 2\n", "config.toml, line 1: keep_turns; {f}, line 2: summary_trigger)"),
        ('\nstore = "mysql://x"\n', "unknown store; use a directory"),
        ('system_file = "nope.txt"\n', "cannot read --system-file"),
        ("json = true\nextract = true\n", "cannot be used together"),
        ('role = "nope"\n', "--role: no role 'nope' (roles: none"),
    ],
)
def test_a_setting_refused_after_loading_names_the_config_file_and_line(tmp_path, text, expected):
    (tmp_path / "config.toml").write_text(text)
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    line = one_error_line(result)
    assert result.returncode == 2 and expected.replace("{f}", str(tmp_path / "config.toml")) in line, line
    key = text.strip().splitlines()[0].split(" ")[0]
    row = 1 + text.splitlines().index(text.strip().splitlines()[0])
    assert f"(set in the config file: {tmp_path / 'config.toml'}, line {row}: {key}" in line, line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # the tester's file: the bad prompt is on line 6, not line 1
            '# roles\nprovider = "echo"\n\n[roles.bad]\nsystem = "You sell things."\nprompt = "Price $ 5"\n',
            "line 6: roles.bad.prompt: a $ that starts no variable name",
        ),
        (
            '[prices.echo]\ninput = "cheap"\n',
            "line 2: prices.echo.input: must be a number of at least 0 (USD per million tokens), found 'cheap'",
        ),
        ('[roles]\nok = "x"\nempty = ""\n', "line 3: roles.empty: a role is a non-empty string"),
        ('provider = "echo"\nroles.bad.prompt = "$ 5"\n', "line 2: roles.bad.prompt: a $ that starts no variable"),
        ('[prices]\necho = { input = 1, output = "x" }\n', "line 2: prices.echo.output: must be a number"),
        ('[aliases]\nfast = "m"\nslow = ""\n', "line 3: aliases.slow: an alias names a model"),
        ('[prices."gpt-4o"]\ninput = 1\noutput = -1\n', "line 3: prices.gpt-4o.output: must be a number of at least"),
        ("[prices.m]\ninput = nan\noutput = 1\n", "line 2: prices.m.input: must be a number of at least 0"),
        ("[prices.m]\ninput = 1\noutput = 2\nextra = 3\n", "line 4: prices.m.extra: unknown key"),
        ("timeout = 9\n[prices.m]\ninput = 1\n", "line 2: prices.m: needs output (USD per million tokens; cached is"),
        ('[roles.a]\nsystem = "x"\n[roles.b]\nsystem = ""\n', "line 4: roles.b.system: must be a non-empty string"),
    ],
)
def test_errors_inside_tables_name_the_line_and_the_whole_key(tmp_path, text, expected):
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, text)
    assert caught.value.message.startswith(f"{tmp_path / 'config.toml'}, {expected}"), caught.value.message


def test_a_price_table_gives_the_model_its_price(tmp_path):
    from chatbot.engine.cost import Price

    cfg = load(tmp_path, '[prices.m]\ninput = 1\noutput = 2.5\n[prices."gpt-4o"]\ninput = 2\noutput = 8\ncached = 1\n')
    assert cfg.prices == {"m": Price(1.0, 2.5, None), "gpt-4o": Price(2.0, 8.0, 1.0)}


def test_a_missing_file_is_an_empty_config(tmp_path):
    cfg = config.load(build_parser(), tmp_path / "none.toml")
    assert not cfg.exists and cfg.values == {} and cfg.roles == {}


def test_config_path_follows_the_environment(tmp_path):
    assert config.config_path({"CHATBOT_CONFIG": str(tmp_path / "c.toml")}) == tmp_path / "c.toml"
    assert config.config_path({}).name == "config.toml"


def test_precedence_through_the_cli(tmp_path):
    (tmp_path / "config.toml").write_text('provider = "echo"\nmemory = "window"\nstore = "from-config"\n')
    result = run_chatbot("--config", "--memory", "full", cwd=tmp_path, env={"CHATBOT_SESSIONS_DIR": "from-env"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"config file: {tmp_path / 'config.toml'} (from $CHATBOT_CONFIG)"
    assert '  memory = "full"  (flag)' in lines
    assert '  store = "from-env"  (environment $CHATBOT_SESSIONS_DIR)' in lines
    assert '  provider = "echo"  (config)' in lines
    assert "  max_input_tokens = 6000  (default)" in lines
    # and the settings are really used
    run_chatbot("--session", "c", "-p", "hi", cwd=tmp_path)
    assert (tmp_path / "from-config" / "c.json").exists()


def test_config_values_are_used_and_flags_win(tmp_path):
    (tmp_path / "config.toml").write_text('provider = "echo"\nmax_input_tokens = 30\n')
    small = run_chatbot("-p", "word " * 40, cwd=tmp_path)
    assert small.returncode == 4 and "budget (--max-input-tokens) is 30" in one_error_line(small)
    big = run_chatbot("--max-input-tokens", "5000", "--session", "b", "-p", "word " * 40, cwd=tmp_path)
    assert big.returncode == 0 and session_doc(tmp_path, "b")["turns"]


def test_a_bad_config_file_stops_every_mode_with_one_line(tmp_path):
    (tmp_path / "config.toml").write_text('provider = "echo"\nmax_input_tokens = 0\n')
    for args, stdin in ((["-p", "hi"], ""), ([], "hi\n")):
        result = run_chatbot(*args, stdin=stdin, cwd=tmp_path)
        assert result.returncode == 2
        assert "config.toml, line 2: max_input_tokens: 0 is less than 1" in one_error_line(result)
    assert list((tmp_path / "sessions").iterdir()) == []  # nothing was written


def test_config_report_without_a_file(tmp_path):
    result = run_chatbot("--config", cwd=tmp_path)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"config file: {tmp_path / '.config'}")  # the default location, private to the test
    assert "(not found: built-in defaults and the environment apply)" in first
    assert "  roles: none" in result.stdout


def test_no_file_at_the_default_location_runs_on_defaults_without_a_word(tmp_path):
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "config" not in result.stderr


@pytest.mark.parametrize("args", [("--provider", "echo", "-p", "hi"), ("--config",)])
def test_a_config_file_named_by_chatbot_config_that_does_not_exist_is_an_error_naming_it(tmp_path, args):
    missing = tmp_path / "nonexistent.toml"
    result = run_chatbot(*args, cwd=tmp_path, env={"CHATBOT_CONFIG": str(missing)})
    assert result.returncode == ConfigError.exit_code == 2 and result.stdout == ""
    assert one_error_line(result) == (
        f"chatbot: the config file {missing} named by $CHATBOT_CONFIG does not exist; create it, or unset "
        "CHATBOT_CONFIG to use the default one"
    )
    assert list((tmp_path / "sessions").iterdir()) == []  # nothing ran


def test_load_refuses_a_missing_file_only_when_chatbot_config_names_it(tmp_path):
    with pytest.raises(ConfigError, match="named by \\$CHATBOT_CONFIG does not exist"):
        config.load(build_parser(), environ={"CHATBOT_CONFIG": str(tmp_path / "gone.toml")})
    assert not config.load(build_parser(), environ={}).exists  # the default location (a private folder in tests)
    assert not config.load(build_parser(), tmp_path / "gone.toml", environ={"CHATBOT_CONFIG": "x"}).exists


def test_a_folders_env_cannot_choose_the_config_file_or_code_to_run(tmp_path, monkeypatch):
    (tmp_path / "evil.py").write_text(
        "import pathlib\npathlib.Path('RAN').write_text('x')\ndef f() -> str:\n    return 'x'\n"
    )
    (tmp_path / "evil.toml").write_text('functions = ["evil.py"]\n')
    (tmp_path / ".env").write_text("CHATBOT_CONFIG=evil.toml\nCHATBOT_FUNCTIONS=evil.py\nOPENAI_API_KEY=sk-x\n")
    result = run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "RAN").exists()
    assert "ignored CHATBOT_CONFIG, CHATBOT_FUNCTIONS" in result.stderr
    # in-process, with no CHATBOT_CONFIG of the user's own: .env may not set it either
    from chatbot.cli import entry as cli

    monkeypatch.chdir(tmp_path)
    for name in ("CHATBOT_CONFIG", "CHATBOT_FUNCTIONS", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert cli._load_dotenv() == {"OPENAI_API_KEY"}
    assert "CHATBOT_CONFIG" not in os.environ and "CHATBOT_FUNCTIONS" not in os.environ


def test_relative_paths_in_the_config_file_are_relative_to_it(tmp_path):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "tools.py").write_text('def shout(text: str) -> str:\n    """Upper case."""\n    return text.upper()\n')
    (conf / "c.toml").write_text('functions = ["tools.py"]\nprovider = "echo"\n')
    (tmp_path / "tools.py").write_text("raise SystemExit('the wrong file ran')\n")  # the current folder's: ignored
    result = run_chatbot("-p", '@tool shout {"text": "hi"}', cwd=tmp_path, env={"CHATBOT_CONFIG": str(conf / "c.toml")})
    assert result.returncode == 0, result.stderr
    assert "HI" in result.stderr  # the tool result preview


def test_an_environment_variable_no_flag_reads_does_not_drop_the_config_value(tmp_path):
    with FakeServer(reply="from the configured server") as server:
        (tmp_path / "config.toml").write_text(f'provider = "openai"\nbase_url = "{server.base_url}"\n')
        result = run_chatbot(
            "-p", "hi", cwd=tmp_path, env={"CHATBOT_BASE_URL": "http://127.0.0.1:1/v1", "OPENAI_API_KEY": "k"}
        )
    assert result.returncode == 0, result.stderr
    assert "from the configured server" in result.stdout
