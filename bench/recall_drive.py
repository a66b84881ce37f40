"""Drives a probe set through the real request builder (bench/bench_recall.py uses it): the held-out set of
``bench/probes_heldout.py`` (44 fixed turns with their fixed replies and tool results, each question asked alone as
turn 45) and what is counted per conversation and question style.

Counted for each question (a fresh copy of the 44-turn conversation, so no question sees another):

- **hit**: the question's proof is in the request (system message with summary and recalled turns, earlier turns);
- **unrelated pulls**: unrelated questions that brought back any turn;
- **wrong twin alone**: look-alike questions whose request holds the twin's proof and not the right one's;
- **tokens added**: the recalled block's tokens, summed over the questions.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import probes_heldout
import probes_heldout2
import probes_heldout3
import probes_heldout4
import probes_heldout5
import probes_heldout6
import probes_heldout7
import probes_heldout8
from probes_heldout import STYLES, Question, questions
from recall_probes import tuning_set

from chatbot.engine.conversation import Conversation
from chatbot.engine.memory import MemoryConfig, Request
from chatbot.engine.turn import Message, Turn

#: the held-out set runs at the default memory rule with a 3,000-token budget (the issue's setting)
HELDOUT_MEMORY = dict(strategy="summary", summary_trigger=8, keep_turns=4, max_input_tokens=3000)
KINDS = (*STYLES, "twin", "unrelated")  # the tuning set's styles: keyword and paraphrase


def gist_summarizer(previous: str, turns: list[list[Message]], first: int) -> str:
    """A summarizer that drops details: the first four words of each turn's user message."""
    lines = [previous] if previous else []
    for n, messages in enumerate(turns, start=first):
        words = str(messages[0].get("content") or "").split()[:4]
        lines.append(f"- turn {n}: the user wrote about {' '.join(words)}")
    return "\n".join(lines)


def sent_text(request: Request) -> str:
    """Everything a request sends before the new message."""
    return "\n".join(str(m.get("content") or "") for m in request.messages[:-1])


@dataclass
class Tally:
    """Counts of one conversation and question kind."""

    asked: int = 0
    hits: int = 0
    pulls: int = 0  # unrelated questions that recalled any turn
    wrong_twin: int = 0
    tokens: int = 0

    def cell(self, kind: str) -> str:
        """The table cell: hits (or pulls) of asked, and the tokens added."""
        if kind == "unrelated":
            return f"{self.pulls}/{self.asked} pulled"
        wrong = f", {self.wrong_twin} wrong alone" if kind == "twin" else ""
        return f"{self.hits}/{self.asked}{wrong}"


@dataclass
class Report:
    """Tallies by conversation name and question kind."""

    tallies: dict[str, dict[str, Tally]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(Tally)))


#: the held-out probe sets by number: each written by someone who never saw the ranking code, and never tuned on
HELDOUT_SETS = {
    1: probes_heldout,
    2: probes_heldout2,
    3: probes_heldout3,
    4: probes_heldout4,
    5: probes_heldout5,
    6: probes_heldout6,
    7: probes_heldout7,
    8: probes_heldout8,
}


def heldout(recall: int, number: int = 1, **memory: object) -> Report:
    """Every question of held-out set ``number``, each alone as turn 45 after the 44 fixed turns, under the default
    memory rule with ``memory``'s settings over it (``recall_by``, say)."""
    probes = HELDOUT_SETS[number].conversations()
    return drive([(probe, questions(probe)) for probe in probes], recall, **memory)


def tuning(recall: int, **memory: object) -> Report:
    """The tuning set's questions in the same shape (``recall_probes.tuning_set``), each alone as turn 33."""
    return drive([(c, c.questions) for c in tuning_set()], recall, **memory)


def drive(sets: list[tuple[Any, list[Any]]], recall: int, **memory: object) -> Report:
    """Each conversation's questions, each alone after the conversation's fixed turns."""
    report = Report()
    for probe, asked in sets:
        config = MemoryConfig(**{**HELDOUT_MEMORY, **memory, "recall": recall})  # type: ignore[arg-type]
        conv = Conversation("You are a helpful assistant.", config)
        for number, turn in enumerate(probe.turns, start=1):
            conv.build_request(turn.user, summarizer=gist_summarizer)
            conv.add_turn(Turn(turn.messages(number)))
        for q in asked:
            alone = Conversation(
                conv.system, conv.memory, conv.counter, turns=conv.turns, summary=conv.summary,
                summary_covers=conv.summary_covers,
            )  # fmt: skip
            alone.recall_index = conv.recall_index
            request = alone.build_request(q.text, summarizer=gist_summarizer)
            sent = sent_text(request)
            tally = report.tallies[probe.name][q.kind]
            tally.asked += 1
            tally.tokens += request.recall_tokens
            if q.proof is None:
                tally.pulls += bool(request.recalled)
                continue
            hit = q.proof in sent
            tally.hits += hit
            tally.wrong_twin += bool(not hit and q.twin_proof and q.twin_proof in sent)
    return report


def never_said(number: int, recall: int, **memory: object) -> Report:
    """Held-out set ``number``'s conversations asked the key-word and other-words questions of the same kind of
    conversation of the next set (facts never said in them), each alone as turn 45, as unrelated questions: what a
    question asking back about something never said ("what was my passport number?") brings."""
    nxt = HELDOUT_SETS[number % len(HELDOUT_SETS) + 1]
    styles = ("keyword", "paraphrase")
    pairs = []
    for conv, theirs in zip(HELDOUT_SETS[number].conversations(), nxt.conversations(), strict=True):
        pairs.append((conv, [Question(45, "unrelated", q.text, None) for q in questions(theirs) if q.kind in styles]))
    return drive(pairs, recall, **memory)


#: general questions that look like asking back (written by a reviewer who had read the ranking code: an adversarial
#: yardstick, not a blind one): Korean general-knowledge questions asked in the half-remembered past ...
GENERAL_PAST_KO = (
    "세종대왕이 한글 만든 게 몇 년이었지?",
    "임진왜란이 몇 년도에 일어났지?",
    "한국전쟁은 언제 끝났죠?",
    "타이타닉은 몇 년에 침몰했지?",
    "아폴로 11호가 달에 착륙한 게 언제였지?",
    "베를린 장벽은 언제 무너졌죠?",
    "조선은 누가 세웠지?",
    "2002 월드컵에서 한국이 몇 위 했지?",
    "광복절이 몇 년에 있었지?",
    "세계 2차 대전은 몇 년에 끝났지?",
    "이순신 장군은 어디서 태어났죠?",
    "비틀즈가 해체한 게 언제였죠?",
    "아이폰 처음 나온 게 몇 년이었지?",
    "노벨상은 누가 만들었지?",
    "에디슨이 전구를 언제 발명했지?",
    "훈민정음 반포가 몇 년이었죠?",
    "한국 첫 대통령이 누구였지?",
    "서울 올림픽이 몇 년에 열렸지?",
    "프랑스 혁명은 몇 년에 시작됐지?",
    "코로나 팬데믹 선언이 언제였지?",
    "뉴턴이 만유인력을 언제 발견했죠?",
    "삼국 통일은 어느 나라가 했지?",
    "피카소가 게르니카를 언제 그렸지?",
    "인류 최초로 에베레스트 오른 사람이 누구였지?",
    "고려는 몇 년에 망했지?",
    "셰익스피어가 햄릿을 언제 썼지?",
    "한강의 기적이 언제부터였죠?",
    "IMF 외환위기가 몇 년이었지?",
    "반 고흐는 몇 살에 죽었지?",
    "미국 독립선언은 몇 년에 했죠?",
    "백제가 멸망한 해가 언제였지?",
    "엘리자베스 여왕 언제 돌아가셨지?",
    "최초의 컴퓨터 이름이 뭐였지?",
    "다빈치가 모나리자를 언제 그렸더라?",
    "원자폭탄이 처음 떨어진 곳이 어디였죠?",
    "마이클 잭슨 스릴러 앨범이 몇 년에 나왔지?",
    "우리나라 수도가 서울로 정해진 게 언제였지?",
    "빙하기는 언제 끝났지?",
    "어제 경기 누가 이겼지?",
    "공룡은 왜 멸종했지?",
    "로마 제국은 언제 멸망했죠?",
    "하루에 물 얼마나 마셔야 했지?",
    "파이썬은 누가 만들었죠?",
    "리눅스는 언제 처음 나왔죠?",
    "인터넷은 언제 생겼지?",
    "한국에 커피가 언제 들어왔지?",
)
#: ... and English general how-tos asked as a reminder
GENERAL_REMIND_EN = (
    "remind me how to convert celsius to fahrenheit",
    "remind me how to calculate compound interest",
    "remind me how to tie a bowline knot",
    "remind me how to boil an egg so the yolk stays soft",
    "remind me how to write a list comprehension in python",
    "remind me how to say thank you in japanese",
    "remind me how to find the area of a circle",
    "remind me how to do CPR on an adult",
    "remind me how to undo the last git commit",
    "remind me how photosynthesis works",
)


def general_asking_back(recall: int, **memory: object) -> Report:
    """Held-out sets 1 to 5's conversations asked :data:`GENERAL_PAST_KO` (the Korean ones) and
    :data:`GENERAL_REMIND_EN` (the others), each alone as turn 45, as unrelated questions: none is about the
    conversation."""
    pairs = []
    for number in range(1, 6):
        for conv in HELDOUT_SETS[number].conversations():
            asked = GENERAL_PAST_KO if conv.name == "korean" else GENERAL_REMIND_EN
            pairs.append((conv, [Question(45, "unrelated", text, None) for text in asked]))
    return drive(pairs, recall, **memory)


def table(report: Report, label: str) -> list[str]:
    """Markdown rows: one per conversation, a cell per question kind, then the tokens recall added."""
    rows = []
    for name, kinds in report.tallies.items():
        cells = [kinds[k].cell(k) if k in kinds else "—" for k in KINDS]
        tokens = sum(t.tokens for t in kinds.values())
        rows.append(f"| {label} | {name} | {' | '.join(cells)} | {tokens:,} |")
    totals = defaultdict(Tally)
    for kinds in report.tallies.values():
        for k, t in kinds.items():
            total = totals[k]
            total.asked, total.hits, total.pulls = total.asked + t.asked, total.hits + t.hits, total.pulls + t.pulls
            total.wrong_twin += t.wrong_twin
    cells = [f"{totals[k].cell(k)} ({_share(totals[k], k)})" for k in KINDS]
    rows.append(f"| {label} | **all** | {' | '.join(cells)} | |")
    return rows


def _share(t: Tally, kind: str) -> str:
    return f"{(t.pulls if kind == 'unrelated' else t.hits) / max(1, t.asked):.0%}"


TABLE_HEAD = [
    f"| recall | conversation | {' | '.join(KINDS)} | tokens added |",
    "|---|---|" + "---|" * len(KINDS) + "---|",
]
