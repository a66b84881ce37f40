"""`/timeline` through the real command line: one plain-text row per turn in script mode, the prompt tokens its
request sent split into parts against the budget, marked where a summary was made or turns were dropped; a session
saved before requests were recorded shows its totals; both stores."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chatbot.commands.timeline import WIDTH
from tests.support.cli import assert_clean, run_chatbot
from tests.support.stores import is_postgres, sqlite_connection, sqlite_file

ROW = re.compile(r"^\s*(\d+)\s+(~?)(\d+)\s+\d+ \|([sSRetnd#.]+)\|(.*)$")  # turn, ~, tokens, so far, bar, marks


@pytest.fixture
def store(store_url: str) -> str:
    """Where the sessions of one test live (both stores: ``store_url`` of tests/conftest.py)."""
    return store_url


def rows(stdout: str) -> dict[int, re.Match[str]]:
    found = [ROW.match(line) for line in stdout.splitlines()]
    return {int(m[1]): m for m in found if m}


def stored_turns(store: str, sid: str) -> list[dict]:
    if sqlite_file(store):
        with sqlite_connection(store) as conn:
            found = conn.execute("SELECT data FROM turns WHERE session_id = ? ORDER BY n", (sid,))
            return [json.loads(r[0]) for r in found]
    if not is_postgres(store):
        return json.loads((Path(store) / f"{sid}.json").read_text())["turns"]
    from tests.support.stores import admin

    with admin(store) as conn:
        return [r[0] for r in conn.execute("SELECT data FROM chatbot_turns WHERE session_id = %s ORDER BY n", (sid,))]


LINES = [f"message {i}: a few more words so that every turn weighs something\n" for i in range(1, 8)]
MESSAGES = "".join(LINES)


def test_script_mode_draws_a_row_per_turn_with_its_parts_and_the_summary_marks(store, tmp_path):
    flags = ["--memory", "summary", "--summary-trigger", "4", "--keep-turns", "2", "--max-input-tokens", "1500"]
    flags += ["--recall", "0"]  # these near-identical messages would recall each other (a test of its own, below)
    result = run_chatbot("--provider", "echo", "--store", store, "--session", "t", *flags,
                         stdin=MESSAGES + "/timeline\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    out = result.stdout[result.stdout.index("Timeline of session t") :]
    assert "against the budget of 1500" in out and "one character is about 38 tokens" in out
    assert "s system message  S summary  e earlier turns  n new message  . room left" in out
    found = rows(out)
    assert sorted(found) == list(range(1, 8))
    turns = stored_turns(store, "t")
    for n, match in found.items():
        usage, sent = turns[n - 1]["usage"], turns[n - 1]["sent"]
        assert match[2] == "" and int(match[3]) == usage["prompt_tokens"] == sent["provider"]  # the provider's count
        assert sum(sent["parts"].values()) == usage["estimated_prompt_tokens"]
        bar = match[4]
        assert len(bar) == WIDTH and len(bar.rstrip(".")) == round(int(match[3]) * WIDTH / 1500)  # against the budget
        assert bar.startswith("s") and bar.rstrip(".").endswith("n")
    assert "summary made: turns 1-3 folded" in found[6][5]  # the fold of the sixth request (5 uncovered > 4)
    assert all(not found[n][5] for n in (1, 2, 3, 4, 5, 7))
    assert "S" not in "".join(found[n][4] for n in range(1, 6)) and "S" in found[6][4] and "S" in found[7][4]
    assert found[1][4].rstrip(".") == "sn"  # the first request: the system message and the new one alone


def test_dropped_turns_are_marked(store, tmp_path):
    result = run_chatbot("--provider", "echo", "--store", store, "--session", "w", "--memory", "window",
                         "--window-turns", "2", "--recall", "0",  # (near-identical lines would recall each other)
                         stdin="".join(LINES[:5]) + "/timeline\n", cwd=tmp_path)  # fmt: skip
    found = rows(result.stdout)
    assert sorted(found) == [1, 2, 3, 4, 5]
    assert not found[3][5] and found[4][5] == "  1 earlier turn(s) dropped" and "2 earlier" in found[5][5]


def test_recalled_turns_are_a_part_of_the_bar(tmp_path):
    story = [
        "my gym locker code is 4417, please remember it\n",
        "how do volcanoes form under the ocean floor?\n",
        "suggest a name for a small orange cat\n",
        "why is the sky blue at noon but red at dusk?\n",
        "write a haiku about autumn rain on a tin roof\n",
        "what was my gym locker code again?\n",
    ]
    store = str(tmp_path / "store")
    result = run_chatbot("--provider", "echo", "--store", store, "--session", "r", "--memory", "window",
                         "--window-turns", "2", stdin="".join(story) + "/timeline\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = rows(result.stdout)
    assert "R recalled turns" in result.stdout
    assert "R" in found[6][4] and all("R" not in found[n][4] for n in range(1, 6))  # only the question recalls
    assert found[6][5].endswith("; recalled turn 1")  # and the row names the turn that came back
    parts = stored_turns(store, "r")[5]["sent"]["parts"]
    assert parts["recalled"] > 0  # the stored record keeps the recalled block as its own part


def test_a_session_saved_before_requests_were_recorded_shows_its_totals(store, tmp_path):
    run_chatbot("--provider", "echo", "--store", store, "--session", "old", stdin="".join(LINES[:3]), cwd=tmp_path)
    prompts = [t["usage"]["prompt_tokens"] for t in stored_turns(store, "old")]
    make_version_1(store, "old")
    result = run_chatbot("--provider", "echo", "--store", store, "--session", "old",
                         stdin="one more\n/timeline\n", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = rows(result.stdout)
    assert [int(found[n][3]) for n in range(1, len(prompts) + 1)] == prompts
    for n in range(1, len(prompts) + 1):
        assert set(found[n][4].rstrip(".")) == {"#"} and "total only: parts not kept" in found[n][5]
    newest = found[len(prompts) + 1]
    assert newest[4].startswith("se") and not newest[5]  # the turn made now keeps its parts
    assert "# parts not kept (older session)" in result.stdout
    assert stored_turns(store, "old")[-1]["sent"]["provider"] == int(newest[3])


def make_version_1(store: str, sid: str) -> None:
    """Make a stored session what a chatbot before document version 2 wrote: no ``sent`` in any turn."""
    if sqlite_file(store):
        with sqlite_connection(store) as conn:
            conn.execute("UPDATE sessions SET version = 1 WHERE id = ?", (sid,))
            conn.execute("UPDATE turns SET data = json_remove(data, '$.sent') WHERE session_id = ?", (sid,))
        return
    if not is_postgres(store):
        path = Path(store) / f"{sid}.json"
        doc = json.loads(path.read_text())
        doc["version"] = 1
        for turn in doc["turns"]:
            del turn["sent"]
        path.write_text(json.dumps(doc))
        return
    from tests.support.stores import admin

    with admin(store) as conn:
        conn.execute("UPDATE chatbot_sessions SET version = 1 WHERE id = %s", (sid,))
        conn.execute("UPDATE chatbot_turns SET data = (data::jsonb - 'sent')::json WHERE session_id = %s", (sid,))


def test_a_timeline_without_turns_says_so_and_an_argument_is_refused(tmp_path):
    result = run_chatbot("--provider", "echo", "--session", "e", stdin="/timeline\n/timeline 3\n", cwd=tmp_path)
    assert "no turns yet" in result.stdout
    assert "usage: /timeline" in result.stderr and result.returncode == 2
