"""The teaching views on a stored session, through the real command, in both stores: ``/diff`` at a fold, ``/context
at N`` after ``/summary redo`` (the summary that request sent, not the new one), ``/cost`` against full memory,
``--timeline ID --json`` and ``--compare-memory ID``; and a session file written before requests were recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_chatbot
from tests.support.hard_links import STORES, link_to_a_session, victim_loads

FACTS = [
    "My locker code is 4711 and I keep my bike in the basement, next to the stairs.",
    "The deploy is on Friday at 9; Jun reviews it.",
    "We fly to Busan on May 3rd.",
    "I like my tea without sugar.",
    "What was my locker code?",
    "Where is my bike?",
]
RULE = ["--memory", "summary", "--summary-trigger", "3", "--keep-turns", "1", "--max-input-tokens", "1500"]


@pytest.fixture
def stored(tmp_path, store_url):
    """Session ``t`` of six turns (a fold before the fifth), in the store under test; the ``chatbot`` runner for it."""

    def chatbot(*args: str, stdin: str = ""):
        result = run_chatbot("--store", store_url, "--provider", "echo", *args, stdin=stdin, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        return result

    chatbot(*RULE, "--recall", "0", "--session", "t", stdin="\n".join(FACTS) + "\n")
    return chatbot


def test_diff_at_the_fold_names_the_folded_turns_and_the_new_summary(stored):
    out = stored("--session", "t", stdin="/diff 5\n").stdout
    assert out.startswith("Request 5 against request 4: ")
    assert "+ turn 4 sent verbatim (the last exchange: its message and reply): " in out
    assert "- turns 1-3 folded into the summary: " in out
    assert "+ a summary (version 1): covers turns 1-3, 0 → " in out
    assert '    + - turn 1: user: "My locker code is 4711 and I keep my bike in the…"' in out
    summary_row = next(line for line in out.splitlines() if line.startswith("  summary "))
    assert summary_row.split()[1] == "0" and int(summary_row.split()[2]) > 0


def test_context_at_a_turn_shows_the_summary_that_request_sent_after_a_redo(stored):
    before = stored("--session", "t", stdin="/context at 6\n").stdout
    out = stored("--session", "t", stdin="/summary redo\n/context at 6\n/context at 6 json\n").stdout
    at = out[out.index("Request 6, the last of 6, as the model saw it") :]
    rows = before[: before.index("verbatim: ")]
    assert at.startswith(rows)  # the same request, row for row, though the summary was rewritten
    assert "system+S: summary version 1 of turns 1-3 (replaced since: this is the text it sent)" in at
    messages = json.loads(at[at.index("\n[") + 1 :])
    assert messages[-1] == {"role": "user", "content": FACTS[5]}
    assert "turn 3" in messages[0]["content"] and "turn 4" not in messages[0]["content"]  # v1, not the redo's
    assert [m["content"] for m in messages if m["role"] == "user"] == FACTS[3:]


def test_cost_adds_up_the_requests_against_full_memory_and_prices_a_model_from_the_config_file(stored, tmp_path):
    out = stored("--session", "t", stdin="/cost\n").stdout
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(int(r[2]) == sum(int(x[1].lstrip("~")) for x in rows[: i + 1]) for i, r in enumerate(rows))
    assert int(rows[5][2]) < int(rows[5][6])  # summary memory sent less than full memory would have
    assert "money: no price for model echo (tokens only)" in out and "summary calls: 1 " in out
    (tmp_path / "config.toml").write_text("[prices.echo]\ninput = 2.5\noutput = 10\ncached = 1.25\n")
    priced = stored("--session", "t", stdin="/cost json\n").stdout
    report = json.loads(priced)
    assert report["price"] == {"input": 2.5, "output": 10.0, "cached": 1.25}
    sent, reply = report["sent"], report["completion"]
    assert report["usd"] == pytest.approx((sent * 2.5 + reply * 10 + report["summary_tokens"] * 2.5) / 1e6, abs=1e-5)


def test_timeline_json_carries_the_rows_and_the_cost_and_compare_memory_replays_the_session(stored):
    data = json.loads(stored("--timeline", "t", "--json").stdout)
    assert [r["turn"] for r in data["timeline"]] == [1, 2, 3, 4, 5, 6]
    assert data["timeline"][4]["marks"] == ["summary made: turns 1-3 folded"]
    assert data["cost"]["sent"] == sum(r["tokens"] for r in data["timeline"])
    page = stored("--timeline", "t", "--html", "page.html").stdout
    assert page.startswith("wrote the timeline of session t (6 requests) to ")
    html = Path(page.split(" to ", 1)[1].strip()).read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count('<g class="request"') == 6
    out = stored("--compare-memory", "t").stdout
    head = out.splitlines()[1].split()
    assert head == ["turn", "full", "window", "window+R1", "summary", "summary+R1"]
    totals = next(line for line in out.splitlines() if line.startswith("sum ")).split()[1:]
    full, summary = int(totals[0]), int(totals[3])
    assert summary < full
    assert "summary: 1 summary from the session, 0 written by echo's deterministic summary" in out


def test_an_older_session_file_without_records_says_so(tmp_path):
    (tmp_path / "sessions").mkdir(mode=0o700)
    run_chatbot("--provider", "echo", "--session", "old", stdin="one\ntwo\n", cwd=tmp_path)
    path = tmp_path / "sessions" / "old.json"
    data = json.loads(path.read_text())
    del data["summaries"]
    for turn in data["turns"]:
        del turn["sent"]["refs"]
    path.write_text(json.dumps(data))
    out = run_chatbot("--provider", "echo", "--session", "old", stdin="/context at 1\n/diff 2\n", cwd=tmp_path).stdout
    assert out.count("was stored before chatbot kept how each request was built") == 2


def test_the_html_page_never_goes_over_a_session_and_replaces_a_file_only_with_force(tmp_path):
    """``--timeline other --html sessions/victim.json`` is refused (victim still loads); an existing page needs
    --force where nobody can be asked; a symbolic link is never written through."""
    for sid in ("victim", "other"):
        run_chatbot("--provider", "echo", "--session", sid, stdin="keep me\n", cwd=tmp_path)
    victim = tmp_path / "sessions" / "victim.json"
    before = victim.read_bytes()
    refused = run_chatbot("--timeline", "other", "--html", str(victim), "--force", cwd=tmp_path)
    assert refused.returncode == 2 and "inside the session store" in refused.stderr
    assert victim.read_bytes() == before
    assert "BROKEN" not in run_chatbot("--list-sessions", cwd=tmp_path).stdout
    (tmp_path / "page.html").write_text("old")
    kept = run_chatbot("--timeline", "other", "--html", "page.html", cwd=tmp_path)
    assert kept.returncode == 2 and "already exists" in kept.stderr and "--force" in kept.stderr
    assert (tmp_path / "page.html").read_text() == "old"
    forced = run_chatbot("--timeline", "other", "--html", "page.html", "--force", cwd=tmp_path)
    assert forced.returncode == 0 and (tmp_path / "page.html").read_text().startswith("<!DOCTYPE html>")
    (tmp_path / "precious.txt").write_text("keep")
    (tmp_path / "link.html").symlink_to(tmp_path / "precious.txt")
    linked = run_chatbot("--timeline", "other", "--html", "link.html", "--force", cwd=tmp_path)
    assert "symbolic link" in linked.stderr and (tmp_path / "precious.txt").read_text() == "keep"
    assert "--force works with" in run_chatbot("--timeline", "other", "--force", cwd=tmp_path).stderr


@pytest.mark.parametrize("kind", STORES)
def test_the_html_page_never_goes_through_a_hard_link_to_the_stores_file(tmp_path, kind):
    """``--timeline other --html notes.html --force`` where notes.html is another name for a session file (or for the
    SQLite file) is refused: the session still loads."""
    run_chatbot(*STORES[kind], "--provider", "echo", "--session", "other", stdin="hi\n", cwd=tmp_path)
    link = link_to_a_session(tmp_path, kind, "notes.html")
    refused = run_chatbot(*STORES[kind], "--timeline", "other", "--html", "notes.html", "--force", cwd=tmp_path)
    assert refused.returncode == 2 and "notes.html is another name (a hard link)" in refused.stderr
    assert victim_loads(tmp_path, kind) and not link.read_bytes().startswith(b"<!DOCTYPE")


def test_compare_memory_keeps_to_the_window_the_sessions_server_named(tmp_path):
    # a request a rule would send over the window is one the server refuses: the replay keeps to the budget a real
    # request had (the window less the reply's room), as the session's own requests did once it was learned
    lines = "".join(f"note {i}: " + "the ledger keeps every rule written out in full " * 40 + "\n" for i in range(8))
    made = run_chatbot("--provider", "echo", "--session", "w", "--memory", "full", stdin=lines, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "sessions" / "w.json"
    data = json.loads(path.read_text())
    data["calibration"] = {"echo": {"ratios": [], "turns": 0, "context": 2048}}
    path.write_text(json.dumps(data))
    out = run_chatbot("--compare-memory", "w", cwd=tmp_path).stdout
    assert "budget 1516 (the server's window of 2048 tokens less the reply's room)" in out
    rows = [line.split() for line in out.splitlines() if line.split() and line.split()[0].isdigit()]
    assert len(rows) == 8 and all(int(n) <= 1516 for row in rows for n in row[1:]), rows
    assert max(int(row[1]) for row in rows) > 1000  # full memory fills the budget, and no more
