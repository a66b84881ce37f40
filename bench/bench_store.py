"""Session store speed: save and load at 10, 100 and 1,000 turns of ~1 kB messages; every store side by side.

Run by hand: ``python bench/bench_store.py [--dir DIR] [--postgres URL]`` (the URL defaults to
$CHATBOT_TEST_POSTGRES; without one, the JSON folder and SQLite are measured). Three tables:

1. the JSON store: save and load by session size (with the serialisation and the fsync split out);
2. one turn's save (append a turn, save) at 10 and 1,000 stored turns, for each store: the PostgreSQL and SQLite
   saves are one row update plus one insert, so they should not grow with the session (target: within 1.1x);
3. four processes at once on each store, 25 sessions each, 20 turns each: turns lost (must be 0), p50 and p99 save
   latency.

A large store's table (``--sqlite-team N``, ``--json-team N``, ``--team N`` for PostgreSQL; N sessions of 20 turns
of made-up words, 20 common words in 10% of the turns each, 20 rare words in 5 turns each): search for a rare and a
common word (p50 and p99 of 20), ``--list-sessions`` and ``-c``, one turn's save at 10 and at 1,000 stored turns.

A save is one compact JSON serialisation plus an atomic,
durable write (temporary file, fsync, rename, fsync of the directory); the table splits out the serialisation and
the fsync-free write so it is clear which part costs what. Use ``--dir`` to measure on the disk your sessions live on
(the default is a temporary directory, often tmpfs or an SSD).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from unittest import mock
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import machine  # noqa: E402
from chatbot.engine.turn import Turn  # noqa: E402
from chatbot.engine.usage import Totals  # noqa: E402
from chatbot.storage import open_store  # noqa: E402
from chatbot.storage.json_store import JsonStore  # noqa: E402
from chatbot.storage.session import Session  # noqa: E402

TEXTS = {
    "english": ("The quick brown fox jumps over the lazy dog. " * 25)[:1000],  # 1,000 bytes
    "korean": ("다람쥐 헌 쳇바퀴에 타고파. 세션은 안전하게 저장됩니다. " * 20)[:410],
}


def build(store, sid: str, turns: int, text: str) -> Session:
    session = store.create(sid, system="You are a helpful assistant.", provider="groq", model="openai/gpt-oss-20b")
    for i in range(turns):
        session.conversation.add_turn(
            Turn(
                [{"role": "user", "content": f"{i} {text}"}, {"role": "assistant", "content": text}],
                usage={"prompt_tokens": 1000 + i, "completion_tokens": 300, "estimated_prompt_tokens": 1010 + i},
                latency=1.25,
            )
        )
    session.totals = Totals(prompt_tokens=123456, completion_tokens=30000, requests=turns)
    return session


def ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def turn_save(store, sid: str, stored: int, text: str, repeat: int) -> list[float]:
    """Seconds per save of one new turn on a session of ``stored`` turns (lock held, as in a chat)."""
    session = build(store, sid, stored, text)
    out = []
    with store.acquire(sid):
        store.save(session)
        for _ in range(repeat):
            session.conversation.add_turn(
                Turn([{"role": "user", "content": text}, {"role": "assistant", "content": text}])
            )
            t0 = time.perf_counter()
            store.save(session)
            out.append(time.perf_counter() - t0)
            session.conversation.undo()  # back to ``stored`` turns: every sample is the same size
            store.save(session)
    return out


def writer(location: str, worker: int, sessions: int, turns: int, text: str) -> list[float]:
    """One of the concurrent processes: ``sessions`` sessions of ``turns`` turns, one save per turn."""
    store = open_store(location)
    out = []
    for k in range(sessions):
        sid = f"w{worker}-{k}"
        with store.acquire(sid):
            session = store.create(sid, system="s")
            for i in range(turns):
                session.conversation.add_turn(Turn([{"role": "user", "content": f"{i} {text[:200]}"}]))
                t0 = time.perf_counter()
                store.save(session)
                out.append(time.perf_counter() - t0)
    store.close()
    return out


def concurrent(location: str, text: str, workers: int = 4, sessions: int = 25, turns: int = 20) -> tuple:
    """(turns lost, p50 ms, p99 ms, wall s) of ``workers`` processes writing at once."""
    t0 = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        runs = pool.starmap(writer, [(location, w, sessions, turns, text) for w in range(workers)])
    wall = time.perf_counter() - t0
    store = open_store(location)
    found = sum(len(store.load(info.id).conversation.turns) for info in store.list_sessions())
    store.close()
    samples = sorted(x for run in runs for x in run)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return workers * sessions * turns - found, ms(samples), p99 * 1000, wall


_SCHEMAS = itertools.count()


@contextmanager
def kept(base: str, name: str):
    """A URL whose tables live in the schema ``name``, made if missing and kept afterwards (``--keep``)."""
    import psycopg

    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {name}")
    yield f"{base}{'&' if '?' in base else '?'}options={quote(f'-csearch_path={name}')}"


def _filled(url: str) -> bool:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('chatbot_turns_body_trgm')").fetchone() == (None,):
            return False
        return conn.execute("SELECT EXISTS (SELECT 1 FROM chatbot_turns)").fetchone() == (True,)


@contextmanager
def scratch(base: str):
    """A URL whose tables live in a schema of their own, dropped afterwards."""
    import psycopg

    name = f"bench_{os.getpid()}_{next(_SCHEMAS)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    try:
        yield f"{base}{'&' if '?' in base else '?'}options={quote(f'-csearch_path={name}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {name} CASCADE")


def compare(args: argparse.Namespace, tmp: str) -> None:
    """Tables 2 and 3: every store."""
    locations = {"json": str(Path(tmp) / "compare"), "sqlite": str(Path(tmp) / "compare.db")}
    with contextlib.ExitStack() as stack:
        if args.postgres:
            locations["postgres"] = stack.enter_context(scratch(args.postgres))
        print("\none turn's save (median ms) by stored turns")
        print(f"{'store':<10} {'10 turns':>9} {'1,000 turns':>12} {'1,000 vs 10':>12}")
        for name, location in locations.items():
            store = open_store(location)
            small, large = [], []
            for _ in range(3):  # alternate the sizes so drift hits both alike
                small += turn_save(store, f"small-{len(small)}", 10, TEXTS[args.text], args.repeat)
                large += turn_save(store, f"large-{len(large)}", 1000, TEXTS[args.text], args.repeat)
            store.close()
            print(f"{name:<10} {ms(small):>9.2f} {ms(large):>12.2f} {ms(large) / ms(small):>11.2f}x")
        print("\n4 processes x 25 sessions x 20 turns at once")
        print(f"{'store':<10} {'turns lost':>10} {'p50 ms':>8} {'p99 ms':>8} {'wall s':>7}")
        for name in locations:
            fresh = {"json": str(Path(tmp) / "concurrent"), "sqlite": str(Path(tmp) / "concurrent.db")}.get(name) or (
                stack.enter_context(scratch(args.postgres))
            )
            lost, p50, p99, wall = concurrent(fresh, TEXTS[args.text])
            print(f"{name:<10} {lost:>10} {p50:>8.2f} {p99:>8.2f} {wall:>7.2f}")


# --- a team's store: search, listing, -c and a save over many sessions (--team N) ------------------------------

_WORDS = 5000  # the vocabulary of the generated turns: made-up words, each in about 1% of the turns


def _vocabulary(rng: random.Random, n: int, size: int = 7) -> list[str]:
    return ["".join(rng.choices("abcdefghijklmnoprstuvwy", k=size)) for _ in range(n)]


class _TeamData:
    """Generated turns: words from a vocabulary, 20 common words in 10% of turns each, 20 rare words in 5 turns."""

    def __init__(self, sessions: int, turns: int, seed: int = 7) -> None:
        rng = random.Random(seed)
        self.sessions, self.turns, self.rng = sessions, turns, rng
        self.vocabulary = _vocabulary(rng, _WORDS)
        self.common = _vocabulary(rng, 20, 8)
        self.rare = _vocabulary(rng, 20, 11)
        total = sessions * turns
        self.rare_at = {k: self.rare[k % 20] for k in rng.sample(range(total), 100)}

    def text(self, k: int, words: int) -> str:
        picked = self.rng.choices(self.vocabulary, k=words)
        picked += [w for w in self.common if self.rng.random() < 0.1]
        if k in self.rare_at:
            picked.append(self.rare_at[k])
        self.rng.shuffle(picked)
        return " ".join(picked)

    def when(self, k: int) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(1_700_000_000 + k * 31))

    def session_rows(self, head: tuple):
        """Each session's row, in COPY's column order (its turns are made by :meth:`turn_rows`)."""
        for s in range(self.sessions):
            first, last = self.when(s * self.turns), self.when(s * self.turns + self.turns - 1)
            yield (f"team-{s:06d}", *head, first, last, self.turns, 1)

    def turn_rows(self):
        """Each session's turn rows, in COPY's column order."""
        for s in range(self.sessions):
            sid, rows = f"team-{s:06d}", []
            for n in range(1, self.turns + 1):
                k = s * self.turns + n - 1
                when, user, reply = self.when(k), self.text(k, 12), self.text(-1, 28)
                data = {"messages": [{"role": "user", "content": user}, {"role": "assistant", "content": reply}],
                        "usage": {"prompt_tokens": 100 + n, "completion_tokens": 40}, "latency": 1.1,
                        "created_at": when, "interrupted": False}  # fmt: skip
                rows.append((sid, n, when, f"{user}\n{reply}", json.dumps(data, separators=(",", ":"))))
            yield sid, rows


def _load_team(url: str, data: _TeamData) -> dict[str, float]:
    """Tables made by the store, then filled with COPY (the trigram index dropped first, built again after)."""
    import psycopg

    from chatbot.storage import pg_schema as sql

    store = open_store(url)
    session = store.create("template", system="You are a helpful assistant.", provider="groq", model="m")
    with store.acquire("template"):
        store.save(session)
    store.close()
    timings: dict[str, float] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        cols = "version, title, system, summary, summary_covers, provider, model, totals::text, calibration::text, "
        head = conn.execute(
            f"SELECT {cols} options::text, tool_sources::text, rule::text FROM chatbot_sessions"
        ).fetchone()
        conn.execute("DELETE FROM chatbot_sessions")
        conn.execute("DROP INDEX chatbot_turns_body_trgm")
        t0 = time.perf_counter()
        with conn.cursor() as cur:
            with cur.copy(f"COPY chatbot_sessions ({', '.join(sql.SESSION_COLUMNS)}) FROM STDIN") as copy:
                for row in data.session_rows(head):
                    copy.write_row(row)
            with cur.copy(f"COPY chatbot_turns ({', '.join(sql.TURN_COLUMNS)}) FROM STDIN") as copy:
                for _, rows in data.turn_rows():
                    for row in rows:
                        copy.write_row(row)
        conn.execute("ANALYZE chatbot_sessions")
        conn.execute("ANALYZE chatbot_turns")
        timings["COPY s"] = time.perf_counter() - t0
    return timings


def _build_index(url: str) -> float:
    import psycopg

    from chatbot.storage import pg_migrate

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '256MB'")
        t0 = time.perf_counter()
        conn.execute("SET statement_timeout = 0")
        schema = conn.execute("SELECT current_schema()").fetchone()[0]  # type: ignore[index]
        with conn.transaction():
            pg_migrate._trigram_index(conn, schema)
        conn.execute("ANALYZE chatbot_turns")
        took = time.perf_counter() - t0
        assert conn.execute("SELECT to_regclass('chatbot_turns_body_trgm')").fetchone() != (None,)
    return took


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return ms(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def _searches(store, words: list[str]) -> tuple[float, float, int]:
    """(p50 ms, p99 ms, hits of the first query) of one search per word."""
    samples, first = [], -1
    for word in words:
        t0 = time.perf_counter()
        hits = store.search(word)
        samples.append(time.perf_counter() - t0)
        first = len(hits) if first < 0 else first
    return (*_percentiles(samples), first)


def measure(name: str, store, data: _TeamData, text: str) -> None:
    """One line per measure of the issue's table for a filled store: search (p50, p99 of 20 words each), what
    --list-sessions and -c cost, and one turn's save at 10 and at 1,000 stored turns (in the filled store)."""
    from chatbot.commands import format_sessions

    print(f"{name}: {'measure':<34} {'p50 ms':>8} {'p99 ms':>8}")
    for label, words in (("search rare word (20 words)", data.rare), ("search common word (20)", data.common)):
        p50, p99, found = _searches(store, words)
        print(f"{name}: {label:<34} {p50:>8.1f} {p99:>8.1f}   ({found} hits shown)")
    listing = _percentiles(timed(lambda: format_sessions(store), 20))  # the newest 50 and a count, as printed
    print(f"{name}: {'--list-sessions (newest 50)':<34} {listing[0]:>8.1f} {listing[1]:>8.1f}")
    latest = _percentiles(timed(store.choose_latest, 20))
    print(f"{name}: {'choose_latest (-c)':<34} {latest[0]:>8.1f} {latest[1]:>8.1f}")
    small, large = [], []
    for k in range(3):  # alternate the sizes so drift hits both alike
        small += turn_save(store, f"bench-small-{k}", 10, text, 10)
        large += turn_save(store, f"bench-large-{k}", 1000, text, 10)
    for k in range(3):  # a kept store is measured again: its saves' sessions go
        store.delete(f"bench-small-{k}")
        store.delete(f"bench-large-{k}")
    ratio = ms(large) / ms(small)
    print(f"{name}: {'one turn saved at 10 / 1,000 turns':<34} {ms(small):>8.2f} {ms(large):>8.2f}   ({ratio:.2f}x)")


def _load_sqlite(path: Path, data: _TeamData) -> float:
    """The tables made by the store, then filled by plain SQL, one transaction per 1,000 sessions; the FTS5 index
    is built once at the end (its trigger set aside meanwhile, then made again as the store makes it): three times
    faster than keeping it row by row, as the store's own saves do."""
    import sqlite3

    open_store(str(path)).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("DROP TRIGGER turns_search_insert")
    empty = json.dumps({}), json.dumps({"functions": [], "mcp": []})
    t0 = time.perf_counter()
    batch: list[tuple] = []
    turns: list[tuple] = []
    for sid, rows in data.turn_rows():
        first, last = rows[0][2], rows[-1][2]
        batch.append((sid, "", first, last, "groq", "m", "You are a helpful assistant.", "", 0, len(rows),
                      json.dumps({"requests": len(rows)}), empty[0], empty[0], empty[1], empty[0], "[]",
                      2, 1))  # fmt: skip
        turns += rows
        if len(batch) == 1000:
            _insert(conn, batch, turns)
            batch, turns = [], []
    if batch:
        _insert(conn, batch, turns)
    from chatbot.storage import sqlite_schema

    conn.execute("INSERT INTO turns_search (turns_search) VALUES ('rebuild')")
    conn.execute(next(s for s in sqlite_schema.SEARCH_INDEX if "turns_search_insert" in s))
    conn.execute("ANALYZE")
    conn.close()
    return time.perf_counter() - t0


def _insert(conn, sessions: list[tuple], turns: list[tuple]) -> None:
    from chatbot.storage import sqlite_schema as sql

    conn.execute("BEGIN")
    marks = ", ".join("?" * len(sql.SESSION_COLUMNS))
    conn.executemany(f"INSERT INTO sessions ({', '.join(sql.SESSION_COLUMNS)}) VALUES ({marks})", sessions)
    conn.executemany(sql.INSERT_TURN, turns)
    conn.execute("COMMIT")


def team_sqlite(args: argparse.Namespace, tmp: str) -> None:
    """The issue's table on one SQLite file: N sessions x 20 turns (``--sqlite-team N``; ``--keep`` reuses it)."""
    data = _TeamData(args.sqlite_team, 20)
    path = Path(args.dir or tmp) / f"bench-team-{args.sqlite_team}.db"
    print(f"\nSQLite: {args.sqlite_team:,} sessions x 20 turns = {args.sqlite_team * 20:,} turns in {path}")
    if not (args.keep and path.exists()):
        path.unlink(missing_ok=True)
        print(f"loaded in {_load_sqlite(path, data):.1f} s (one transaction per 1,000 sessions), "
              f"{path.stat().st_size / 1e9:.2f} GB")  # fmt: skip
    store = open_store(str(path))
    measure("sqlite", store, data, TEXTS[args.text])
    store.close()


def team_json(args: argparse.Namespace, tmp: str) -> None:
    """The issue's table on a folder of JSON files: N sessions x 20 turns (``--json-team N``)."""
    data = _TeamData(args.json_team, 20)
    store = JsonStore(Path(args.dir or tmp) / f"bench-team-{args.json_team}")
    print(f"\nJSON folder: {args.json_team:,} sessions x 20 turns = {args.json_team * 20:,} turns")
    if not (args.keep and store.directory.is_dir()):
        t0 = time.perf_counter()
        for sid, turn_rows in data.turn_rows():
            session = store.create(sid, system="You are a helpful assistant.")
            for row in turn_rows:
                session.conversation.add_turn(Turn.from_dict(json.loads(row[-1])))
            session.updated_at = turn_rows[-1][2]
            with store.acquire(sid):
                store.save(session, touch=False)
        print(f"written in {time.perf_counter() - t0:.1f} s")
    measure("json", store, data, TEXTS[args.text])
    store.close()


def team(args: argparse.Namespace, tmp: str) -> None:
    """The team table: N sessions x 20 turns in PostgreSQL (COPY)."""
    data = _TeamData(args.team, 20)
    print(f"\nteam store: {args.team:,} sessions x 20 turns = {args.team * 20:,} turns in PostgreSQL (COPY)")
    where = kept(args.postgres, f"bench_team_{args.team}") if args.keep else scratch(args.postgres)
    with where as url:
        if args.keep and _filled(url):
            print(f"reusing the tables of {url.rsplit('=', 1)[-1]} (--keep)")
            store = open_store(url)
        else:
            timings = _load_team(url, data)
            print(f"loaded in {timings['COPY s']:.1f} s")
            store = open_store(url)
            for label, words in (("rare", data.rare[:3]), ("common", data.common[:3])):
                p50, _, found = _searches(store, words)
                print(f"search {label} word, no index (scan): p50 {p50:.0f} ms ({found} hits shown)")
            store.close()
            print(f"trigram index built in {_build_index(url):.1f} s")
            store = open_store(url)
        assert not store.warnings, store.warnings
        measure("postgres", store, data, TEXTS[args.text])
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where to write (default: a temporary directory)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--text", choices=sorted(TEXTS), default="english", help="what the messages are made of")
    parser.add_argument("--postgres", default=os.environ.get("CHATBOT_TEST_POSTGRES"), help="a PostgreSQL URL")
    parser.add_argument("--team", type=int, metavar="N", help="only the team table: N sessions of 20 turns")
    parser.add_argument("--sqlite-team", type=int, metavar="N", help="the same table for one SQLite file")
    parser.add_argument("--json-team", type=int, metavar="N", help="the same table for a folder of JSON files")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the filled stores (PostgreSQL: the schema bench_team_N; files: under --dir) and reuse them",
    )
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.team or args.sqlite_team or args.json_team:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            for wanted, table in ((args.sqlite_team, team_sqlite), (args.json_team, team_json), (args.team, team)):
                if wanted:
                    table(args, tmp)
        return

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        store = JsonStore(Path(tmp) / "sessions")
        rows = []
        for turns in (10, 100, 1000):
            sid = f"bench-{turns}"
            session = build(store, sid, turns, TEXTS[args.text])
            with store.acquire(sid):
                store.save(session)
                save = timed(lambda s=session: store.save(s), args.repeat)
                dumps = timed(
                    lambda s=session: json.dumps(s.to_dict(), ensure_ascii=False, separators=(",", ":")).encode(),
                    args.repeat,
                )
                with mock.patch("os.fsync"):  # the same save without waiting for the disk
                    nosync = timed(lambda s=session: store.save(s), args.repeat)
            load = timed(lambda sid=sid: store.load(sid), args.repeat)
            size = store.path(sid).stat().st_size
            rows.append((turns, size, ms(save), ms(load), ms(dumps), ms(nosync)))

    header = ("turns", "file size", "save ms", "load ms", "(serialise ms)", "(save w/o fsync)")
    print("{:>6} {:>10} {:>8} {:>8} {:>15} {:>17}".format(*header))
    for turns, size, save_ms, load_ms, dumps_ms, nosync_ms in rows:
        print(f"{turns:>6} {size / 1024:>7.0f} kB {save_ms:>8.2f} {load_ms:>8.2f} {dumps_ms:>15.2f} {nosync_ms:>17.2f}")
    print(f"~1 kB {args.text} messages; medians of {args.repeat} runs; load = read + parse + validate + rebuild")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        compare(args, tmp)


if __name__ == "__main__":
    main()
