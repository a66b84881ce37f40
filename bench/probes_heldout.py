# ruff: noqa: E501, SIM905
"""A held-out probe set for conversation recall, written without seeing how recall ranks turns.

Four conversations: ``english``, ``korean``, ``mixed`` (Korean office workers and developers writing Korean with
English words in it) and ``code`` (English, with assistant turns that call a tool and get its result).

How a conversation is fed (fixed, so results are comparable):

- ``Conversation.turns`` are turns 1-44, always sent in order, each as one :class:`Turn`: the user message, then, when
  ``tool`` is set, an assistant message calling that tool with ``args`` and a tool message holding ``result``, then
  the assistant's ``reply`` (:meth:`Turn.messages` gives the OpenAI-style dicts).
- Twelve facts are stated in turns 1-25 (:class:`Fact`; ``turn`` counts from 1), each in one user message, among
  filler turns that reuse the facts' words in other senses. Turns 26-44 are filler on other subjects.
- Questions belong to turns 45-60. Each question is evaluated **on its own**: start from the 44 fixed turns and ask it
  as turn 45 (no question sees another question or its answer). Its ``at`` number (45-60, from :func:`questions`) is
  only a label for where a user might have asked it; no turns are fed between turn 44 and the question.
- A fact's question is answered when its ``proof`` (an exact substring of the fact's user message, found in no other
  turn and in no question) reaches the request. Styles: ``keyword`` shares a content word with the fact;
  ``paraphrase`` shares none (no English stem, no Korean noun by its first two syllables); ``endings`` (Korean and
  mixed) asks with the same Korean nouns under other particles and endings.
- :class:`Twin`: two facts that look alike; the question is about ``right`` only. Pulling ``twin`` without ``right``
  is a wrong-twin pull.
- ``unrelated``: ten questions about nothing said before; a good recall brings back no turn for them.

:func:`validate` checks all of this mechanically; ``tests/test_probe_sets.py`` runs it on every set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

STYLES = ("keyword", "paraphrase", "endings")


@dataclass(frozen=True)
class Turn:
    """One fixed turn: the user's message, optionally one tool call and its result, and the assistant's reply."""

    user: str
    reply: str
    tool: str | None = None
    args: str = "{}"
    result: str | None = None

    def messages(self, number: int) -> list[dict[str, Any]]:
        """The turn as chat-completions messages; ``number`` makes the tool call's id unique."""
        out: list[dict[str, Any]] = [{"role": "user", "content": self.user}]
        if self.tool is not None:
            call_id = f"call_{number}"
            call = {"id": call_id, "type": "function", "function": {"name": self.tool, "arguments": self.args}}
            out.append({"role": "assistant", "content": None, "tool_calls": [call]})
            out.append({"role": "tool", "tool_call_id": call_id, "name": self.tool, "content": self.result or ""})
        out.append({"role": "assistant", "content": self.reply})
        return out

    def text(self) -> str:
        """Everything the turn says, for checking where a proof occurs."""
        return "\n".join(t for t in (self.user, self.args if self.tool else "", self.result or "", self.reply) if t)


@dataclass(frozen=True)
class Fact:
    """A fact stated in user message ``turn`` (1-based), its proof, and the questions asking for it, by style."""

    turn: int
    said: str
    proof: str
    questions: dict[str, str]


@dataclass(frozen=True)
class Twin:
    """A question about the fact in turn ``right`` that a look-alike fact in turn ``twin`` could be mistaken for."""

    question: str
    right: int
    twin: int
    proof: str
    twin_proof: str


@dataclass(frozen=True)
class Conversation:
    """One probe conversation: 44 fixed turns, 12 facts, 4 look-alike pairs and 10 unrelated questions."""

    name: str
    language: str
    turns: tuple[Turn, ...]
    facts: tuple[Fact, ...]
    twins: tuple[Twin, ...]
    unrelated: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Question:
    """One question to evaluate as the turn after the 44 fixed ones; ``proof`` is None for unrelated ones."""

    at: int
    kind: str  # a style, "twin" or "unrelated"
    text: str
    proof: str | None
    twin_proof: str | None = None


def _build(
    name: str,
    language: str,
    turns: list[Turn],
    facts: list[tuple[int, str, dict[str, str]]],
    twins: list[tuple[str, int, int]],
    unrelated: list[str],
) -> Conversation:
    """A conversation from plain lists: a fact's sentence is its turn's user message; twins name facts by turn."""
    built = tuple(Fact(n, turns[n - 1].user, proof, qs) for n, proof, qs in facts)
    proofs = {f.turn: f.proof for f in built}
    return Conversation(
        name,
        language,
        tuple(turns),
        built,
        tuple(Twin(q, right, twin, proofs.get(right, ""), proofs.get(twin, "")) for q, right, twin in twins),
        tuple(unrelated),
    )


def questions(conv: Conversation) -> list[Question]:
    """Every question of a conversation, labelled with a turn number 45-60 in a fixed round."""
    out: list[Question] = []
    for fact in conv.facts:
        for style in STYLES:
            if style in fact.questions:
                out.append(Question(0, style, fact.questions[style], fact.proof))
    out += [Question(0, "twin", t.question, t.proof, t.twin_proof) for t in conv.twins]
    out += [Question(0, "unrelated", u, None) for u in conv.unrelated]
    return [Question(45 + i % 16, q.kind, q.text, q.proof, q.twin_proof) for i, q in enumerate(out)]


# fmt: off
# (the data keeps one turn and one fact per line)

# --- 1. English: a parent juggling family visits, the house and errands ------------------------------------------

_EN_TURNS = [
    Turn("Morning! I've got a chaotic week ahead: family visiting, a work deadline, two kids. Mind if I dump things here as they come up?", "Of course. Drop things in as they come up and I'll help you keep them straight and plan around them."),
    Turn("My sister flies in Thursday on United UA 1472 from Denver, landing at 6:40 pm.", "Got it: your sister lands Thursday evening on UA 1472 from Denver. Evening arrivals can hit rush hour, so give yourself extra time to get there."),
    Turn("My flight to Chicago last month was delayed four hours and United gave me a $15 meal voucher. Is that normal?", "Unfortunately that's fairly typical in the US: airlines aren't required to compensate for domestic delays, so a meal voucher is often all you get. It's worth checking the airline's customer service plan, since some now promise rebooking or hotel vouchers for controllable delays."),
    Turn("Note for later: I parked the car on level 3 of the Riverside garage, spot C-27.", "Noted. Snap a photo of the pillar sign too; garages all start to look the same after a long day."),
    Turn("I got a parking ticket outside the library yesterday even though the meter still had time on it. Worth contesting?", "Yes, if you can show the meter still had time. Screenshots of the parking app, a photo of the meter or a receipt are the strongest evidence, and most cities let you contest online within 21 to 30 days."),
    Turn("Our car insurance renewal went up 22% this year and we had no claims. Should I shop around?", "Definitely. Rates are rising everywhere, but insurers price very differently, so getting three or four quotes often saves a few hundred dollars. Ask your current insurer about a loyalty or low-mileage discount before you switch."),
    Turn("Oh, and my brother's coming too, but Sunday: Delta DL 388 out of Atlanta, gets in at 11:15 am.", "Okay, your brother arrives Sunday late morning on DL 388 from Atlanta. That's a much easier pickup time than Thursday's."),
    Turn("My brother and I have argued for years about whether Die Hard is a Christmas movie. Settle it?", "It's set at a Christmas party, the soundtrack is full of sleigh bells, and the plot is about a man trying to get back to his family for the holidays, so I'd say yes. The screenwriter agrees, though Bruce Willis famously said no."),
    Turn("The combination for my gym locker is 4821. I keep forgetting it.", "Noted, I'll keep that for you. You might also save it in your phone's notes in case you're ever at the gym without me."),
    Turn("The locker room at my gym smells terrible lately. How do I politely bring that up with the front desk?", "Keep it short and factual: mention when you noticed it and ask whether the ventilation or drains could be checked. Staff usually appreciate the heads-up more than people expect."),
    Turn("And the code on my bike lock is 0937, the orange one, not the old key lock.", "Got it, the orange lock. You could put the old key lock away so you don't grab the wrong one."),
    Turn("My bike's rear brake squeals every time it rains. Can I fix that myself or is it a shop job?", "Usually you can fix it yourself: clean the rim and pads with rubbing alcohol and lightly sand the pads. If the pads are worn down to the grooves, replacing them is cheap and takes about fifteen minutes."),
    Turn("The dentist's office called: my cleaning is moved to Tuesday the 14th at 8:30 am.", "Noted. That's an early one, so you might want to set a reminder the night before."),
    Turn("Are whitening strips bad for your teeth? My dentist never mentions them.", "Used as directed, they're generally safe, though they can cause temporary sensitivity. Enamel damage mostly comes from overuse, so stick to the package's schedule and ask your dentist at your next visit if you're unsure."),
    Turn("Mark's dentist appointment is on the 21st at 3:15 pm, he needs a crown fitted.", "Okay, Mark has his crown fitting on the 21st in the afternoon. Crown appointments can run long, so he might not want to book anything right after."),
    Turn("I need a haircut appointment before the weekend but every salon near me is booked. Any tips?", "Call rather than booking online, since salons often hold back slots or have cancellations. Barber schools and walk-in chains are also good backups if you just need a trim."),
    Turn("Our home Wi-Fi password is MapleHarbor92. Writing it here so I stop digging for the router sticker.", "Saved. If the sticker is faded, it's worth writing it on a card inside a kitchen drawer too."),
    Turn("Why is our Wi-Fi so slow in the evenings? The router sits in the living room.", "Evenings are peak time for the whole neighbourhood, so some slowdown is normal, but it could also be channel congestion. Try switching to the 5 GHz band, moving the router off the floor and restarting it; if that doesn't help, run a speed test by cable to see whether the problem is the connection itself."),
    Turn("The guest network is separate: Nguyen-Guest, password BlueOtter55.", "Got it. Keeping visitors on a separate network is a good idea; it keeps them away from your own devices."),
    Turn("Is a password manager actually safe? Putting all my passwords in one place feels risky.", "It's a fair worry, but reputable managers encrypt everything with your master password, so even a breach of their servers doesn't expose your vault. The bigger real-world risk is reused passwords, which a manager solves. Use a long master password and turn on two-factor authentication."),
    Turn("Important: my daughter Lily is allergic to cashews. Not peanuts, just cashews.", "Thank you, that's important to have written down. Tree-nut allergies often mean checking labels for shared equipment, so it's worth telling anyone who feeds her."),
    Turn("My seasonal allergies are brutal this spring. Which antihistamine doesn't make you drowsy?", "Cetirizine, loratadine and fexofenadine are the common non-drowsy options; fexofenadine is the least sedating for most people. A steroid nasal spray used daily can help too. Check with a pharmacist if you take other medication."),
    Turn("Rent went up: it's now $1,850 a month, due on the 3rd.", "Noted. If it helps, I can work out what that does to your monthly budget."),
    Turn("My daughter wants to rent a cello for school instead of buying one. Is renting usually worth it?", "For a beginner, yes: kids grow through instrument sizes quickly, and many rent-to-own programs credit your payments if she sticks with it. Buying makes more sense once she's at full size and committed."),
    Turn("My passport expires on 9 August 2027, so I think I'm fine for the Lisbon trip.", "For Portugal you need at least three months of validity beyond your departure date, so you're well covered."),
    Turn("Do passport photos have to be taken at a store, or can I do one at home?", "For a US passport you can take it at home as long as it meets the rules: white background, no glasses, neutral expression, 2 by 2 inches, and taken within the last six months. Many people still use a pharmacy because they handle the sizing."),
    Turn("Okay, Lisbon planning. We land on a Saturday morning and leave the next Friday. Two adults, two kids aged 7 and 10. We like walking, food, and something beachy, but the kids melt down if we do more than two big things a day. We're staying in Alfama. I'd love a rough day-by-day that isn't just a list of monuments and that leaves afternoons free.", "Here's a gentle outline: Saturday settle into Alfama and ride Tram 28 at a quiet hour; Sunday the Oceanarium and the riverside park at Parque das Nações; Monday Belém for the tower and pastéis de nata; Tuesday a day trip to Cascais for the beach; Wednesday Sintra's Pena Palace early before the crowds; Thursday LX Factory and a slow last dinner. Keep afternoons for pools, playgrounds and naps, and book Sintra tickets ahead."),
    Turn("What should I pack for the kids for a week in Portugal in May?", "Layers: it's warm in the sun but breezy and cool in the evenings. Pack comfortable walking shoes, a light rain jacket, swimsuits, sun hats and a small backpack each. Lisbon's hills and cobblestones are hard on flimsy sandals."),
    Turn("Can you help me write an email to my manager asking to move our one-on-one? I have a school event that day.", "Sure: \"Hi Priya, would it be possible to move our one-on-one this Thursday? I have a school event for my son in the afternoon. I'm free Wednesday after 2 or Friday morning, whichever suits you. Thanks!\" Short and gives her options."),
    Turn("What's an easy weeknight dinner that both a picky 7-year-old and adults will eat?", "Build-your-own tacos or rice bowls work well: everyone picks their own toppings, and the adults can add spice. Sheet-pan chicken thighs with potatoes and roasted broccoli is another reliable one."),
    Turn("I've been sleeping badly, waking up at 3 am and not getting back to sleep. Any ideas that aren't just 'no screens'?", "A few that help many people: keep the same wake-up time every day, even on weekends; if you're awake for more than twenty minutes, get up and read something dull in dim light; cut caffeine after noon; and keep the bedroom cool. If it goes on for weeks, a doctor can check for things like sleep apnea."),
    Turn("My tomato plants have yellow leaves at the bottom. Are they dying?", "Probably not. Lower leaves yellowing is often overwatering or a nitrogen shortage, or just old leaves being shed. Water deeply but less often, pull off the yellow leaves, and give them a balanced feed."),
    Turn("Recommend me a novel for the plane, something gripping but not grim.", "Try 'The Thursday Murder Club' by Richard Osman: clever, funny and cosy, with a real mystery. If you want something more sweeping, 'Tomorrow, and Tomorrow, and Tomorrow' is absorbing without being bleak."),
    Turn("I want to start running again after two years off. I'm 41. How do I not get injured?", "Start with run-walk intervals, for example one minute running and two walking, three times a week, and build slowly over eight weeks. Keep the running pace easy enough to talk, and don't increase weekly time by more than about ten percent. Good shoes fitted at a running store help too."),
    Turn("What's a thoughtful birthday gift for a coworker I don't know well, under $30?", "A nice notebook and pen, good coffee or tea, a small plant, or a gift card to a local café are all safe. If you know one hobby of theirs, something small tied to it shows thought without being personal."),
    Turn("We're trying to build a family budget spreadsheet. What categories should we have?", "Start with fixed costs (housing, utilities, insurance, loans), then variable needs (groceries, transport, childcare), then wants (eating out, subscriptions, hobbies) and savings goals. Track actual spending for a month before setting limits; it's usually surprising."),
    Turn("Any good family movies for Friday night? Kids are 7 and 10 and they've seen all the Pixar stuff.", "Try 'Paddington 2', 'The Mitchells vs. the Machines', 'Kiki's Delivery Service' or 'Night at the Museum'. For something a bit older, 'The Goonies' still lands with ten-year-olds."),
    Turn("Can you look over this line from my resume? 'Responsible for managing social media accounts and various marketing tasks.'", "It's vague. Lead with results: 'Grew the company's Instagram following from 2,000 to 11,000 in a year and ran email campaigns with a 34% open rate.' Use your real numbers, and swap 'responsible for' for a strong verb."),
    Turn("How long do cooked leftovers stay safe in the fridge?", "Generally three to four days. Cool them within two hours, keep the fridge at 4°C or below, and reheat until steaming hot. When in doubt, throw it out."),
    Turn("My son says he's bored with piano and wants to quit after a year. Do I let him?", "It's worth asking what exactly bores him: the pieces, the practice routine or the teacher. Sometimes a change of music or teacher fixes it. If he's genuinely done, agreeing on a finish point, like the end of the term, teaches commitment without forcing years of misery."),
    Turn("What's the difference between a Roth IRA and a traditional IRA, in plain words?", "With a traditional IRA you get a tax break now and pay tax when you withdraw in retirement. With a Roth you pay tax now, and withdrawals in retirement are tax-free. Roughly, a Roth is better if you expect a higher tax rate later."),
    Turn("It's been raining for a week and the basement smells musty. What should I do?", "Run a dehumidifier to get the humidity under about 50%, check for any actual water coming in along the walls, and keep air moving with a fan. If you see mold spreading over a large area, get a professional to look at it."),
    Turn("Help me word a text to the neighbours: their dog barks every morning at 6 and it's waking the kids.", "Something like: \"Hi! Hope you're well. Just a heads-up that the dog has been barking around 6 most mornings and it's been waking our kids. Not sure if you're aware since you might be out. Any chance you could look into it? Thanks so much!\" Friendly, specific and no blame."),
    Turn("I need to remember to buy batteries, printer paper, and a present for my niece's 5th birthday.", "Here's your list: batteries, printer paper and a gift for your niece's fifth birthday. For a five-year-old, art supplies, a picture book or a simple building set are usually hits."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "UA 1472", {"keyword": "What was my sister's flight number again?", "paraphrase": "When should I be at the airport to pick up my sis?"}),
        (4, "C-27", {"keyword": "Where did I park the car?", "paraphrase": "Which floor did I leave my vehicle on?"}),
        (7, "DL 388", {"keyword": "What time does my brother get in on Sunday?", "paraphrase": "What plane is my bro on?"}),
        (9, "4821", {"keyword": "What's my gym locker combination?", "paraphrase": "What are the numbers for my cubby at the fitness center?"}),
        (11, "0937", {"keyword": "What's the code for my bike lock?", "paraphrase": "What digits do I need to free my bicycle from the rack?"}),
        (13, "8:30 am", {"keyword": "When is my dentist cleaning?", "paraphrase": "What day do I have to get my teeth checked?"}),
        (15, "3:15 pm", {"keyword": "When is Mark's crown appointment?", "paraphrase": "When does my husband go in to get his tooth capped?"}),
        (17, "MapleHarbor92", {"keyword": "What's our home Wi-Fi password?", "paraphrase": "How do I get my new laptop online in the house?"}),
        (19, "BlueOtter55", {"keyword": "What's the password for the guest network?", "paraphrase": "My visitors want to get online, what do I give them?"}),
        (21, "cashews", {"keyword": "Which nuts is Lily allergic to?", "paraphrase": "What food has to stay out of my kid's lunchbox?"}),
        (23, "$1,850", {"keyword": "How much is my rent now?", "paraphrase": "What do I pay the landlord for the apartment?"}),
        (25, "9 August 2027", {"keyword": "When does my passport expire?", "paraphrase": "Until what date is my travel document valid?"}),
    ],
    [
        ("What's my brother's flight number?", 7, 2),
        ("What's the combination for my bike lock?", 11, 9),
        ("When's Mark going to the dentist?", 15, 13),
        ("What Wi-Fi password do I give to guests?", 19, 17),
    ],
    [
        "good morning",
        "What's a good name for a cat?",
        "How far is the moon from Earth?",
        "thanks, that's all for now",
        "Can you recommend a podcast about ancient Rome?",
        "What's the capital of Australia?",
        "hmm ok",
        "Tell me a joke.",
        "How do I boil an egg so the yolk stays runny?",
        "Who wrote Pride and Prejudice?",
    ],
)


# --- 2. Korean: 가족 일정, 집안일, 돈 관리 ------------------------------------------------------------------------

_KO_TURNS = [
    Turn("안녕, 이번 주 진짜 정신없을 것 같아. 가족들 올라오고 회사 일도 많고. 생각나는 대로 적어둘게.", "네, 편하게 적어 주세요. 일정이나 할 일을 정리하는 건 제가 도와드릴게요."),
    Turn("이번 주 금요일에 언니가 부산에서 올라오는데 KTX 036 타고 서울역에 저녁 7시 40분 도착이래.", "알겠어요. 금요일 저녁 서울역 도착이면 퇴근 시간이랑 겹치니까 조금 여유 있게 출발하시는 게 좋겠어요."),
    Turn("지난번에 KTX 탔을 때 역방향 좌석이라 멀미 나서 죽는 줄 알았어. 예매할 때 정방향으로 고르는 방법 있어?", "코레일톡에서 좌석을 직접 선택할 때 좌석 배치도에 진행 방향이 화살표로 표시돼요. 거기서 정방향 좌석을 고르시면 되고, 매진이 임박하면 선택지가 줄어드니 일찍 예매하시는 게 좋아요."),
    Turn("아 그리고 차는 지하 3층 D-14에 주차했어. 까먹을까 봐 적어둠.", "네, 적어둘게요. 기둥 번호를 사진으로 찍어두시면 나중에 찾기 훨씬 편해요."),
    Turn("어제 마트 앞에 5분 세워놨는데 주차 위반 딱지 붙었어. 이거 이의신청 되나?", "단속 사진에 정차 시간이 찍혀 있으니 5분이라도 인정되기 어려운 경우가 많아요. 다만 표지판이 안 보였거나 긴급한 사정이 있었다면 해당 구청 홈페이지에서 의견진술을 해볼 수 있어요."),
    Turn("자동차 보험 갱신 문자가 왔는데 작년보다 18만 원이나 올랐어. 사고도 없었는데 왜 이래?", "사고가 없어도 보험사 전체 손해율이나 차량 수리비 상승 때문에 기본 요율이 오르는 경우가 있어요. 다이렉트 보험 비교 사이트에서 견적을 몇 군데 받아보시고, 마일리지 특약이나 블랙박스 할인도 확인해 보세요."),
    Turn("남동생은 토요일에 SRT 351 타고 수서역으로 온대. 오후 2시 5분 도착.", "알겠어요, 남동생분은 토요일 오후에 수서역이네요. 금요일 서울역이랑 역이 다르니 헷갈리지 않게 표시해 둘게요."),
    Turn("남동생이 이번에 취업했는데 첫 출근 선물로 뭐가 좋을까?", "명함 지갑이나 좋은 볼펜, 출퇴근용 텀블러가 무난하고 실용적이에요. 조금 더 신경 쓰고 싶으시면 이니셜 각인을 넣으면 특별한 선물이 돼요."),
    Turn("우리 집 현관 도어락 비밀번호는 582914야. 요즘 자꾸 헷갈려서.", "적어뒀어요. 가족들한테도 바뀐 번호를 한 번 더 알려두시면 좋겠어요."),
    Turn("비밀번호를 사이트마다 다르게 만들라는데 너무 많아서 못 외우겠어. 다들 어떻게 해?", "대부분 비밀번호 관리자 앱을 써요. 하나의 마스터 비밀번호만 기억하면 나머지는 앱이 복잡하게 만들어서 저장해 주고, 2단계 인증까지 켜두면 훨씬 안전해요."),
    Turn("사무실 도어락 번호는 0413#이야. 주말에 혼자 나가야 해서.", "알겠어요. 주말에 출근하시면 경비실에 미리 말해두는 것도 잊지 마세요."),
    Turn("도어락 건전지 교체 주기가 보통 어느 정도야? 삑삑 소리가 나기 시작했어.", "보통 6개월에서 1년 정도예요. 경고음이 나기 시작하면 몇 주 안에 바꾸시는 게 좋고, 알카라인 건전지로 한 번에 전부 교체하세요."),
    Turn("치과 예약 다음 주 화요일 오전 10시 반으로 옮겼어.", "네, 다음 주 화요일 오전으로 적어둘게요. 전날 저녁에 알림을 맞춰두시면 좋겠어요."),
    Turn("스케일링 보험 되는 거 1년에 한 번 맞지? 치과마다 가격이 달라서.", "네, 만 19세 이상이면 1년에 한 번 건강보험이 적용돼요. 보험이 적용되면 본인부담금은 보통 1~2만 원대라서 치과마다 큰 차이는 없어요."),
    Turn("엄마 치과 예약은 목요일 오후 4시 20분이야. 임플란트 상담이래.", "알겠어요, 어머님은 목요일 오후에 임플란트 상담이시네요. 상담 때 비용이랑 기간을 꼭 같이 물어보시라고 전해 주세요."),
    Turn("엄마가 요즘 무릎이 자꾸 아프다고 하시는데 정형외과 가야 할까?", "계단 오르내릴 때 아프거나 붓기가 있으면 정형외과에서 엑스레이를 찍어보시는 게 좋아요. 나이가 드시면 퇴행성 관절염이 흔해서 일찍 관리하면 훨씬 나아요."),
    Turn("월세는 신한 110-482-339120으로 매달 25일에 보내면 돼.", "적어둘게요. 자동이체를 걸어두시면 날짜 놓칠 일이 없어요."),
    Turn("월세 세액공제 받으려면 뭐가 필요해? 연말정산 때 놓쳤거든.", "임대차계약서 사본, 월세 이체 내역, 주민등록등본이 필요해요. 연말정산 때 놓치셨으면 5월 종합소득세 신고 때 경정청구로 받을 수 있어요."),
    Turn("관리비 자동이체 계좌는 우리은행 1005-803-771245야.", "네, 관리비 계좌도 적어뒀어요."),
    Turn("이번 달 관리비가 34만 원 나왔어. 난방 거의 안 틀었는데 말이 돼?", "공용 난방이나 공동 전기료가 많이 나왔을 수도 있어요. 관리사무소에 세부 내역서를 달라고 해서 전월이랑 비교해 보시는 게 가장 빨라요."),
    Turn("우리 아들 준호는 복숭아 알레르기가 있어. 들어간 건 절대 먹이면 안 돼.", "중요한 내용이라 꼭 기억해 둘게요. 학교랑 학원에도 알려두시고, 가공식품은 성분표를 꼭 확인하세요."),
    Turn("요즘 꽃가루 알레르기 때문에 눈이 너무 가려워. 안약 뭐 쓰면 돼?", "약국에서 항히스타민 성분 안약을 달라고 하시면 돼요. 외출 후에는 세수하고 인공눈물로 씻어내는 것도 도움이 되고, 심하면 안과 진료를 받아보세요."),
    Turn("우리 결혼기념일은 10월 17일이야. 올해는 까먹으면 안 돼.", "적어둘게요. 가까워지면 식당 예약이나 선물 준비를 같이 챙겨 드릴게요."),
    Turn("친구 결혼식 축의금 요즘 얼마 해? 그냥 회사 동료 정도야.", "회사 동료 정도면 보통 5만 원이 무난하고, 식사까지 하시면 10만 원을 하는 분들도 많아요. 친한 정도에 따라 조절하시면 돼요."),
    Turn("강아지 사료는 로얄캐닌 미니 인도어만 먹여. 다른 거 주면 바로 탈 나.", "알겠어요, 사료는 그것만 주시는 거죠. 맡기실 때도 사료를 따로 챙겨 보내시면 좋겠어요."),
    Turn("강아지 산책은 하루에 몇 번 하는 게 좋아? 소형견이야.", "소형견은 하루에 두 번, 한 번에 20~30분 정도가 적당해요. 날씨가 너무 덥거나 추운 날은 짧게 여러 번 나가는 게 좋아요."),
    Turn("다음 달에 제주도 3박 4일 가려고 하는데 애들이 8살, 11살이야. 렌트는 할 거고 숙소는 서귀포 쪽이야. 너무 빡빡하지 않게, 하루에 큰 일정 두 개 정도만 넣어서 짜줄 수 있어? 바다도 보고 싶고 비 오면 갈 실내 장소도 하나쯤 있으면 좋겠어.", "첫날은 공항에서 서귀포로 이동하면서 협재 해변에 잠깐 들르고, 둘째 날은 천지연 폭포와 올레시장, 셋째 날은 성산일출봉과 섭지코지, 마지막 날은 오전에 카페에서 쉬고 공항으로 가는 일정이 무난해요. 비가 오면 아쿠아플라넷이나 박물관 쪽으로 바꾸시면 돼요."),
    Turn("애들이랑 비행기 탈 때 챙겨야 할 거 뭐 있어?", "간식, 물, 귀가 먹먹할 때 먹을 사탕이나 빨대컵, 태블릿과 이어폰, 얇은 겉옷 정도면 충분해요. 아이들 신분 확인용으로 등본이나 가족관계증명서도 챙기세요."),
    Turn("팀장님한테 다음 주 반차 쓰겠다고 메시지 보내야 하는데 어떻게 쓰면 자연스러워?", "\"팀장님, 다음 주 수요일 오후에 개인 사정으로 반차를 사용하려고 합니다. 오전 중에 진행 중인 업무는 정리해 두겠습니다. 괜찮으실지 여쭙습니다.\" 이 정도면 정중하고 깔끔해요."),
    Turn("저녁 메뉴 추천 좀. 냉장고에 두부, 애호박, 양파밖에 없어.", "된장찌개 끓이시면 딱이에요. 아니면 두부 부침에 애호박 볶음을 곁들여도 좋고요."),
    Turn("요즘 새벽 3시만 되면 깨서 다시 잠이 안 와. 왜 그럴까?", "스트레스나 카페인, 잠들기 전 휴대폰 사용이 흔한 원인이에요. 매일 같은 시간에 일어나고, 깼을 때 20분 넘게 잠이 안 오면 잠깐 일어나서 어두운 데서 조용히 있다가 다시 누워보세요. 몇 주 계속되면 병원에 가보시는 게 좋아요."),
    Turn("베란다에 키우는 방울토마토 잎이 아래부터 노랗게 변해. 죽는 거야?", "아래 잎이 노래지는 건 물을 너무 자주 주거나 영양이 부족할 때 흔해요. 흙이 마를 때만 물을 흠뻑 주시고, 노란 잎은 떼어내고 웃거름을 조금 주세요."),
    Turn("출퇴근길에 읽을 책 추천해 줘. 너무 무겁지 않은 소설로.", "김호연 작가의 《불편한 편의점》이나 정세랑 작가의 《시선으로부터,》 추천드려요. 둘 다 따뜻하고 잘 읽혀요."),
    Turn("2년 쉬었다가 다시 달리기 시작하려는데 무릎 안 다치려면 어떻게 해야 돼?", "처음 몇 주는 1분 달리고 2분 걷기를 반복하는 식으로 시작하세요. 대화가 가능한 속도로 달리고, 주간 운동량은 10% 이상 늘리지 않는 게 좋아요. 쿠션 있는 러닝화도 중요해요."),
    Turn("회사 동료 생일 선물 3만 원 이하로 뭐가 좋을까? 별로 안 친해.", "핸드크림, 커피 기프티콘, 작은 디저트 세트가 부담 없어요. 취미를 알면 그와 관련된 작은 물건도 좋아요."),
    Turn("가계부를 새로 쓰려는데 항목을 어떻게 나누면 좋아?", "고정비(주거, 통신, 보험, 대출), 변동비(식비, 교통, 생활용품), 여가비, 저축으로 크게 나누고 한 달 정도 실제 지출을 기록해 보세요. 그다음에 예산을 정하면 훨씬 현실적이에요."),
    Turn("주말에 애들이랑 볼 만한 영화 있어? 8살, 11살이야.", "《패딩턴 2》, 《미첼 가족과 기계 전쟁》, 《마녀 배달부 키키》 추천드려요. 온 가족이 같이 보기 좋아요."),
    Turn("이력서에 '다양한 마케팅 업무 담당'이라고 썼는데 너무 밋밋하지?", "네, 조금 막연해요. '인스타그램 팔로워를 1년 만에 2천 명에서 1만 1천 명으로 늘림'처럼 성과와 숫자로 쓰시면 훨씬 눈에 띄어요."),
    Turn("남은 음식 냉장고에 며칠까지 둬도 괜찮아?", "조리한 음식은 보통 3~4일 안에 드시는 게 안전해요. 식힌 뒤 2시간 안에 넣고, 다시 드실 때는 충분히 데우세요."),
    Turn("딸이 피아노 1년 배우더니 재미없다고 그만두고 싶대. 그냥 그만두게 할까?", "어떤 게 재미없는지 먼저 물어보세요. 곡이 지루한 건지, 연습이 힘든 건지, 선생님이 안 맞는 건지에 따라 방법이 달라요. 정말 싫다면 이번 학기까지만 하자고 약속하고 마무리하는 것도 방법이에요."),
    Turn("ISA 계좌가 뭔지 쉽게 설명해 줄 수 있어?", "예금, 펀드, 주식 같은 여러 금융상품을 한 계좌에 담아 굴리고, 일정 기간 유지하면 수익에 대해 세금 혜택을 받는 통장이에요. 의무 가입 기간은 3년이에요."),
    Turn("장마라 그런지 옷장에서 꿉꿉한 냄새가 나. 어떻게 해?", "제습제를 넣고 하루에 한 번 옷장 문을 열어 환기해 주세요. 제습기를 방에 틀어두면 훨씬 빨리 좋아지고, 곰팡이가 보이면 알코올로 닦아내세요."),
    Turn("윗집 발망치 소리 때문에 미치겠어. 쪽지 붙이려는데 기분 안 나쁘게 쓰는 법 알려줘.", "\"안녕하세요, 아래층입니다. 밤 시간에 걸음 소리가 꽤 크게 울려서 아이들이 자주 깨네요. 슬리퍼를 신어 주시면 정말 감사하겠습니다.\" 이렇게 구체적이고 부드럽게 쓰시면 좋아요."),
    Turn("조카 다섯 살 생일인데 선물 뭐가 좋아?", "다섯 살이면 색칠 놀이 세트, 그림책, 자석 블록 같은 게 인기가 많아요. 아이가 좋아하는 캐릭터가 있으면 그걸로 고르시면 실패가 없어요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "KTX 036", {"keyword": "언니 KTX 몇 시 도착이라고 했지?", "paraphrase": "먼저 오는 가족 열차 번호가 뭐였지?", "endings": "언니는 서울역에 언제 도착해?"}),
        (4, "D-14", {"keyword": "차 어디에 주차했더라?", "paraphrase": "내 자동차 세워둔 데가 어디였지?", "endings": "내 차를 주차한 곳이 어디야?"}),
        (7, "SRT 351", {"keyword": "남동생 SRT 몇 시 도착이야?", "paraphrase": "막내 주말에 어느 역으로 마중 나가야 돼?", "endings": "남동생이 수서역에 도착하는 게 몇 시지?"}),
        (9, "582914", {"keyword": "집 현관 도어락 비밀번호 뭐였지?", "paraphrase": "퇴근하고 들어갈 때 누르는 숫자 뭐였지?", "endings": "현관 도어락의 비밀번호가 뭐였더라?"}),
        (11, "0413#", {"keyword": "사무실 도어락 번호 알려줘.", "paraphrase": "토요일에 회사 가면 문 어떻게 열지?", "endings": "사무실의 도어락 번호가 뭐야?"}),
        (13, "10시 반", {"keyword": "치과 예약 언제로 옮겼지?", "paraphrase": "내 이빨 진료 받으러 가는 게 언제였지?", "endings": "치과는 몇 시에 예약돼 있어?"}),
        (15, "4시 20분", {"keyword": "엄마 치과 예약 몇 시야?", "paraphrase": "어머니 이빨 심는 거 보러 가시는 날이 언제였지?", "endings": "엄마는 치과 예약이 언제래?"}),
        (17, "110-482-339120", {"keyword": "월세 보내는 계좌 뭐였지?", "paraphrase": "집주인한테 돈 부칠 통장 번호 알려줘.", "endings": "월세를 어느 계좌로 보내야 해?"}),
        (19, "1005-803-771245", {"keyword": "관리비 자동이체 계좌가 어디였지?", "paraphrase": "아파트 공용 요금 빠져나가는 통장이 어느 거야?", "endings": "관리비는 어느 은행 계좌로 빠져?"}),
        (21, "복숭아", {"keyword": "준호 알레르기 있는 과일이 뭐였지?", "paraphrase": "우리 꼬맹이한테 주면 큰일 나는 음식이 뭐였지?", "endings": "준호가 알레르기 있는 게 뭐였더라?"}),
        (23, "10월 17일", {"keyword": "우리 결혼기념일 언제야?", "paraphrase": "남편이랑 식 올린 날이 며칠이었지?", "endings": "결혼기념일이 언제였더라?"}),
        (25, "로얄캐닌", {"keyword": "강아지 사료 뭐 먹인다고 했지?", "paraphrase": "우리 댕댕이 밥은 어떤 브랜드로 사야 해?", "endings": "강아지한테 먹이는 사료가 뭐였지?"}),
    ],
    [
        ("남동생 기차 몇 시에 도착해?", 7, 2),
        ("엄마 치과 언제 가셔?", 15, 13),
        ("회사 도어락 비밀번호 뭐였지?", 11, 9),
        ("관리비 계좌번호 알려줘.", 19, 17),
    ],
    [
        "좋은 아침!",
        "뭐야 이거",
        "고양이 이름 뭐가 좋을까?",
        "오늘 우산 챙겨야 해?",
        "심심해. 아무 얘기나 해줘.",
        "세종대왕이 한글 만든 게 몇 년이야?",
        "고마워, 오늘은 여기까지!",
        "ㅋㅋㅋ 웃기네",
        "라면 맛있게 끓이는 법 알려줘.",
        "호주 수도가 어디야?",
    ],
)


# --- 3. Mixed Korean/English: 개발팀 직장인의 업무 메모와 잡담 -------------------------------------------------------

_MX_TURNS = [
    Turn("오늘부터 이번 sprint 끝날 때까지 일정이랑 메모 여기다 정리할게요. 좀 도와주세요.", "네, 편하게 던져 주세요. 일정이랑 메모는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("staging 서버 IP가 10.0.3.17로 바뀌었대요. 메모 좀 해둘게요.", "적어뒀어요. ssh config나 bookmark에 예전 주소가 남아 있으면 같이 바꿔 두시는 게 좋아요."),
    Turn("staging에 deploy 하면 자꾸 health check에서 fail 나요. readiness probe timeout이 3초인데 이거 늘리면 되나요?", "앱이 뜨는 데 3초 넘게 걸리면 늘리는 게 맞아요. 다만 근본적으로는 initialDelaySeconds를 주거나 startup probe를 따로 두는 게 깔끔하고, 로그에서 실제 기동 시간을 먼저 확인해 보세요."),
    Turn("제 사번은 A20417이에요. 연말정산 서류에 계속 써야 해서요.", "네, 적어둘게요. 회사 포털 로그인할 때도 자주 필요할 거예요."),
    Turn("연말정산 때 의료비 공제는 카드로 긁은 것도 다 들어가요?", "네, 의료비는 결제 수단과 상관없이 공제 대상이고 간소화 서비스에 대부분 자동으로 잡혀요. 다만 안경 구입비처럼 누락되기 쉬운 건 영수증을 따로 챙기셔야 해요."),
    Turn("서버 비용이 지난달보다 40% 늘었다고 팀장님이 물어보시는데, 어디부터 봐야 해요?", "Cost Explorer에서 service별, 그다음 usage type별로 나눠 보시는 게 제일 빨라요. 보통 NAT gateway 트래픽, 꺼지지 않은 instance, 늘어난 EBS snapshot이 주범이에요."),
    Turn("prod 서버는 10.0.8.42예요. 여기엔 직접 deploy 하면 안 되고 꼭 pipeline 타야 해요.", "알겠어요, 운영 쪽은 pipeline으로만 배포하는 걸로 기억해 둘게요."),
    Turn("pipeline이 너무 느려요. 빌드만 12분 걸리는데 줄일 방법 있을까요?", "dependency cache부터 확인해 보세요. Docker layer 순서를 바꿔서 자주 안 바뀌는 설치 단계를 위로 올리고, 테스트를 병렬로 나누면 보통 절반 가까이 줄어요."),
    Turn("로그인 redirect 버그는 Jira에 PAY-1342로 올렸어요.", "확인했어요. 재현 경로랑 브라우저 정보를 티켓에 같이 적어두면 QA가 훨씬 빨리 봐요."),
    Turn("Jira에서 sub-task랑 그냥 task 차이가 뭐예요? 팀마다 다르게 써서 헷갈려요.", "sub-task는 어떤 task나 story 밑에 딸린 작은 작업이라 혼자서는 존재할 수 없고, task는 독립적인 작업 단위예요. 팀 규칙이 있으면 그걸 따르는 게 제일 중요해요."),
    Turn("결제 timeout 이슈는 PAY-1379로 따로 등록했어요.", "네, 이것도 따로 적어둘게요. timeout 값이랑 발생 시각을 로그에서 같이 뽑아두면 원인 찾기 쉬워요."),
    Turn("결제 모듈을 새 PG사로 migration 하자는 얘기가 나왔는데, 보통 뭐부터 체크해요?", "수수료 구조, 지원하는 결제 수단, 정산 주기, webhook 방식과 재시도 정책부터 비교하세요. 기존 거래의 환불 처리를 어떻게 할지도 미리 정해야 해요."),
    Turn("법인카드 한도가 월 200만원으로 올라갔어요.", "알겠어요, 적어뒀어요. 영수증 처리는 월말에 몰리지 않게 그때그때 올리시는 게 편해요."),
    Turn("법인카드 영수증 처리 깜빡하고 두 달 밀렸는데 큰일 났나요?", "회사마다 다르지만 보통 재무팀에 사정을 말하고 한꺼번에 올리면 처리해 줘요. 미루면 더 곤란해지니 이번 주 안에 정리하시는 걸 추천해요."),
    Turn("금요일 client meeting은 12층 Orion 회의실로 잡았어요.", "네, 금요일 외부 미팅 장소 적어뒀어요. 화면 연결 케이블은 미리 확인해 두세요."),
    Turn("회의실 예약 시스템에서 반복 예약 거는 법 아세요? 매주 잡기 귀찮아서요.", "대부분 예약 화면에서 '반복' 옵션을 켜고 주기랑 종료일을 정하면 돼요. Outlook이나 Google Calendar랑 연동된 시스템이면 캘린더에서 반복 일정으로 만들면 회의실도 같이 잡혀요."),
    Turn("월요일 weekly sync는 7층 Vega 회의실이에요.", "알겠어요, 월요일 정기 회의 장소도 적어둘게요."),
    Turn("weekly sync가 매번 1시간 넘게 늘어지는데 짧게 만들 방법 없을까요?", "agenda를 하루 전에 공유하고, 공유만 하면 되는 건 문서로 돌리세요. 토론이 길어지는 주제는 따로 빼서 관련된 사람만 모이면 30분이면 충분해요."),
    Turn("QA handoff 마감은 3월 19일이에요.", "적어뒀어요. 그 전에 테스트 시나리오 문서부터 넘겨두시면 QA 쪽 준비가 빨라져요."),
    Turn("QA팀이랑 자꾸 버그 severity 가지고 싸워요. 기준을 어떻게 잡아야 할까요?", "사용자 영향 범위와 우회 방법 유무로 나누는 게 일반적이에요. 예를 들어 결제 불가처럼 우회가 없으면 critical, 불편하지만 우회가 되면 major, 이런 식으로 문서로 합의해 두세요."),
    Turn("release 마감은 3월 26일로 확정됐어요.", "확인했어요. release note 초안은 일주일 전쯤 써두시면 여유 있어요."),
    Turn("release note는 보통 누구 보라고 쓰는 거예요? 개발자용이에요, 고객용이에요?", "둘 다 있어요. 고객용은 바뀐 기능과 영향 위주로 쉽게, 내부용은 migration이나 설정 변경 같은 기술적인 내용까지 적어요. 독자를 먼저 정하는 게 핵심이에요."),
    Turn("AWS 콘솔 로그인할 때 account alias는 acme-dev-kr이에요.", "적어뒀어요. MFA 기기도 바뀌면 미리 재등록해 두세요."),
    Turn("회사에서 AWS IAM user 말고 SSO로 로그인하자는데 뭐가 좋아요?", "SSO로 바꾸면 퇴사자 계정 정리가 한 번에 되고, 장기 access key가 안 남아서 훨씬 안전해요. CLI도 aws sso login으로 임시 자격 증명을 받아 쓰면 돼요."),
    Turn("다음 주 팀 회식은 을지로 옥경이네로 예약했어요, 7시요.", "알겠어요, 다음 주 회식 장소랑 시간 적어둘게요. 인원이 바뀌면 하루 전에 식당에 알려주세요."),
    Turn("회식 자리에서 팀장님이 자꾸 술 권하시는데 기분 안 상하게 거절하는 법 있을까요?", "\"내일 아침 일찍 일정이 있어서 오늘은 한 잔만 할게요\"처럼 이유를 짧게 말하고 잔에 음료를 채워두면 덜 권하세요. 분위기에는 적극적으로 참여하면 크게 신경 안 쓰시는 경우가 많아요."),
    Turn("code review 코멘트 쓸 때 너무 공격적으로 보일까 봐 걱정돼요. 예를 들어 '이거 왜 이렇게 짰어요?' 대신 뭐라고 쓰면 좋아요?", "\"이 부분 이렇게 하신 이유가 있을까요? 저는 X 방식도 생각해 봤는데 어떠세요?\"처럼 질문과 대안을 같이 주면 훨씬 부드러워요. nit은 nit이라고 표시해 주는 것도 좋아요."),
    Turn("해외 vendor한테 영어로 메일 써야 하는데 '지난번 요청드린 자료 아직 못 받았습니다' 정중하게 어떻게 써요?", "\"Hi Tom, I hope you're well. I just wanted to follow up on the documents I requested last week, as I haven't received them yet. Could you let me know when I might expect them? Thanks in advance.\" 정도면 정중하고 자연스러워요."),
    Turn("요즘 이직 고민 중이에요. 연봉은 15% 더 준다는데 스타트업이라 좀 불안하고, 지금 회사는 안정적인데 배울 게 없어요. 팀 분위기는 좋은 편이고 출퇴근은 둘 다 비슷해요. 3년 뒤를 생각하면 뭘 기준으로 골라야 할지 모르겠어요.", "3년 뒤에 어떤 경력을 갖고 싶은지부터 적어 보세요. 스타트업은 투자 상황과 runway, 합류할 팀의 시니어 수준을 꼭 물어보시고, 지금 회사에서 배울 게 없다는 게 분명하다면 성장 기회가 큰 쪽이 장기적으로 유리한 경우가 많아요."),
    Turn("점심 뭐 먹죠? 어제 국밥 먹었어요.", "어제 국밥이었으면 오늘은 가볍게 쌀국수나 포케 어떠세요? 샐러드가 부담되면 덮밥도 괜찮아요."),
    Turn("엑셀에서 VLOOKUP 말고 XLOOKUP 쓰라는데 뭐가 좋아요?", "XLOOKUP은 왼쪽 열도 찾을 수 있고, 열 번호 대신 범위를 직접 지정해서 열을 추가해도 안 깨져요. 못 찾을 때 표시할 값도 바로 넣을 수 있어서 훨씬 편해요."),
    Turn("Slack 알림이 너무 많아서 집중이 안 돼요. 설정 팁 있어요?", "채널별로 알림을 멘션만으로 바꾸고, 집중 시간에는 방해 금지 모드를 예약해 두세요. 키워드 알림을 몇 개만 걸어두면 중요한 건 놓치지 않아요."),
    Turn("요즘 야근이 너무 많아서 번아웃 올 것 같아요.", "그럴 때는 혼자 버티기보다 팀장님과 업무량을 구체적으로 얘기해 보시는 게 좋아요. 퇴근 후에는 일과 완전히 떨어지는 시간을 조금이라도 정해 두세요."),
    Turn("git rebase랑 merge 중에 뭐 쓰는 게 좋아요? 팀에서 의견이 갈려요.", "개인 feature branch를 정리할 때는 rebase, 공유된 branch를 합칠 때는 merge가 일반적이에요. 이미 push해서 남들이 쓰는 branch는 rebase 하지 않는 게 규칙이에요."),
    Turn("다음 주 사내 발표가 있는데 슬라이드 몇 장이 적당할까요? 15분이에요.", "15분이면 본문 8~10장 정도가 적당해요. 한 장에 메시지 하나만 담고, 마지막에 요약 한 장을 두세요."),
    Turn("노트북 새로 사려는데 개발용으로 RAM 16GB면 충분할까요?", "웹 개발 정도면 16GB로 충분하지만 Docker 컨테이너를 여러 개 띄우거나 IDE를 두 개 이상 켜면 32GB가 훨씬 쾌적해요. 오래 쓸 거면 32GB 추천해요."),
    Turn("연봉협상 때 원하는 금액을 먼저 말해야 해요?", "가능하면 회사가 먼저 제시하게 하는 게 유리해요. 먼저 말해야 하면 시장 자료를 근거로 범위를 제시하되, 희망하는 금액보다 조금 높게 시작하세요."),
    Turn("재택할 때 자꾸 늘어지는데 집중하는 방법 있어요?", "출근하는 것처럼 시작 시간과 옷차림을 정해 두고, 일하는 자리를 침대와 분리하세요. 25분 집중하고 5분 쉬는 pomodoro도 많이 도움이 돼요."),
    Turn("개발자 영어 공부는 뭐부터 하는 게 좋아요?", "공식 문서랑 GitHub issue를 영어로 꾸준히 읽는 게 제일 실용적이에요. 말하기가 필요하면 기술 발표 영상을 보면서 따라 말해 보세요."),
    Turn("Docker랑 VM 차이를 비개발자 팀원한테 쉽게 설명하려면?", "VM은 컴퓨터 안에 또 하나의 컴퓨터를 통째로 만드는 거고, Docker는 같은 컴퓨터를 쓰면서 앱마다 필요한 짐만 따로 싸서 칸막이를 쳐주는 거라고 설명하면 잘 통해요."),
    Turn("퇴근하고 사이드 프로젝트 하고 싶은데 매번 시작만 하고 흐지부지돼요.", "범위를 주말 두 번이면 끝나는 크기로 아주 작게 잡고, 완성된 걸 먼저 배포하는 걸 목표로 하세요. 일주일에 두 번, 시간을 정해 두는 것도 효과적이에요."),
    Turn("회사 헬스장 몇 시에 가는 게 제일 한가해요? 보통 다들 점심 아니면 저녁에 오던데.", "대개 출근 직후나 오후 3~4시가 제일 한가해요. 점심시간과 퇴근 직후는 붐비니 피하시는 게 좋아요."),
    Turn("1on1에서 팀장님한테 무슨 얘기를 해야 할지 모르겠어요.", "최근에 막힌 일, 더 해보고 싶은 업무, 받고 싶은 피드백 세 가지를 미리 적어 가세요. 1on1은 보고가 아니라 내 성장 얘기를 하는 자리라고 생각하면 편해요."),
    Turn("팀 막내가 질문을 잘 안 해서 걱정이에요. 어떻게 도와줄 수 있을까요?", "질문하기 편한 시간을 정해 주고, 먼저 '막히는 거 있어요?' 하고 가볍게 물어보세요. 선배가 모르는 걸 편하게 묻는 모습을 보여주는 것도 효과가 커요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "10.0.3.17", {"keyword": "staging 서버 IP 뭐였죠?", "paraphrase": "테스트 환경 머신 주소 다시 알려줄래요?", "endings": "staging 서버는 IP가 어떻게 돼요?"}),
        (4, "A20417", {"keyword": "제 사번 뭐였죠?", "paraphrase": "회사에서 부여된 직원 번호가 뭐였더라?", "endings": "사번이 뭐였는지 기억나요?"}),
        (7, "10.0.8.42", {"keyword": "prod 서버 IP 알려줘요.", "paraphrase": "운영 환경 머신 주소가 뭐였죠?", "endings": "prod 서버의 IP가 뭐였죠?"}),
        (9, "PAY-1342", {"keyword": "로그인 버그 Jira 번호 뭐였어요?", "paraphrase": "sign-in 하고 엉뚱한 페이지로 튕기는 문제, 티켓 몇 번이었죠?", "endings": "로그인 버그를 Jira에 몇 번으로 올렸죠?"}),
        (11, "PAY-1379", {"keyword": "결제 timeout 이슈 티켓 번호요?", "paraphrase": "checkout 때 응답 안 오고 끊기는 문제, 어느 ticket이었죠?", "endings": "결제 이슈를 몇 번으로 등록했죠?"}),
        (13, "200만원", {"keyword": "법인카드 한도 얼마였죠?", "paraphrase": "회사 돈으로 한 달에 최대 얼마까지 결제할 수 있어요?", "endings": "법인카드는 한도를 얼마까지 쓸 수 있어요?"}),
        (15, "Orion", {"keyword": "금요일 client meeting 어느 회의실이에요?", "paraphrase": "고객사랑 보는 자리 어디서 하기로 했죠?", "endings": "금요일엔 어느 회의실을 잡았죠?"}),
        (17, "Vega", {"keyword": "월요일 weekly sync 회의실 어디예요?", "paraphrase": "주초에 하는 팀 정기 모임 방이 어디였죠?", "endings": "월요일에는 회의실이 어디였죠?"}),
        (19, "3월 19일", {"keyword": "QA handoff 마감 언제예요?", "paraphrase": "테스트 팀에 빌드 넘겨야 하는 날짜가 며칠이죠?", "endings": "QA handoff 마감이 언제였죠?"}),
        (21, "3월 26일", {"keyword": "release 마감 언제로 확정됐죠?", "paraphrase": "정식 출시일이 며칠이에요?", "endings": "release 마감이 언제로 확정된 거죠?"}),
        (23, "acme-dev-kr", {"keyword": "AWS 콘솔 account alias 뭐였죠?", "paraphrase": "아마존 클라우드 들어갈 때 쓰는 계정 별칭이 뭐였더라?", "endings": "AWS 콘솔에 로그인하는 alias가 뭐였죠?"}),
        (25, "옥경이네", {"keyword": "팀 회식 어디로 예약했죠?", "paraphrase": "우리 부서 술자리 가게 이름이 뭐였죠?", "endings": "회식을 어디서 하기로 예약한 거죠?"}),
    ],
    [
        ("prod 서버 IP 뭐였죠?", 7, 2),
        ("결제 쪽 Jira 티켓 번호 뭐였어요?", 11, 9),
        ("월요일 회의 어느 회의실이에요?", 17, 15),
        ("QA 넘기는 마감 언제였죠?", 19, 21),
    ],
    [
        "굿모닝~",
        "뭐야 이거",
        "고양이 이름 추천 좀 해줘요, cute한 걸로",
        "ㅇㅋ 땡큐",
        "에펠탑 높이가 몇 m예요?",
        "주말에 볼 만한 Netflix 시리즈 추천해줘요",
        "ㅋㅋㅋㅋ",
        "아 피곤하다 진짜",
        "Python 이름이 뱀에서 따온 거예요?",
        "지구에서 달까지 거리가 얼마나 돼요?",
    ],
)


# --- 4. Code-heavy: a backend developer with a shell, file and test tools ------------------------------------------

_CODE_TURNS = [
    Turn("I'm picking up the billing service this week. Can you check what's in the repo root?", "The repo is a standard Python service: the app lives in `billing/`, tests in `tests/`, and it's run with docker-compose. There's a Makefile, so `make test` is probably the entry point.", "run_shell", '{"cmd": "ls -la"}', "Makefile\nREADME.md\nbilling/\ndocker-compose.yml\npyproject.toml\ntests/\n.github/"),
    Turn("FYI the staging Postgres password is st4ging-Heron-81, user app_rw.", "Noted. I'd still put it in your local `.env` rather than in any file that gets committed."),
    Turn("Tests fail locally with a database error, can you run them?", "Postgres is rejecting the login: the tests read `DATABASE_URL` and the password in your `.env` doesn't match the local container's. Setting `POSTGRES_PASSWORD` in docker-compose and the URL to the same value should fix it.", "run_tests", '{"path": "tests/"}', "E   psycopg.OperationalError: connection failed: FATAL:  password authentication failed for user \"billing\"\n===== 42 errors in 3.18s ====="),
    Turn("The S3 bucket for the CSV exports is acme-exports-eu-west-1.", "Got it. If the export job needs it, it's cleaner to read the bucket name from settings than to hard-code it."),
    Turn("Show me the export job, I think it's billing/exports.py.", "The job builds the CSV in memory and uploads it with `put_object`. For large months that could use a lot of memory; streaming with `upload_fileobj` would be safer.", "read_file", '{"path": "billing/exports.py"}', "import csv, io\nimport boto3\n\ndef export_month(rows, bucket, key):\n    buf = io.StringIO()\n    csv.writer(buf).writerows(rows)\n    boto3.client(\"s3\").put_object(Bucket=bucket, Key=key, Body=buf.getvalue())\n"),
    Turn("How do I list what's in a bucket from the CLI without downloading everything?", "`aws s3 ls s3://BUCKET/prefix/ --recursive --human-readable --summarize` lists keys and sizes without downloading anything. Add `--profile` if you use more than one account."),
    Turn("And the prod Postgres password is Kx9!marble-Pine. Don't paste it anywhere public, obviously.", "Understood, I won't repeat it anywhere. Ideally prod credentials live only in the secret manager and get rotated after being shared."),
    Turn("Can you check which Postgres version the compose file uses?", "It's `postgres:13`, which is fairly old; 13 reaches end of life in late 2025. Bumping to 16 locally is usually painless, but prod should be upgraded first to keep parity.", "read_file", '{"path": "docker-compose.yml"}', "services:\n  db:\n    image: postgres:13\n    environment:\n      POSTGRES_USER: billing\n      POSTGRES_DB: billing\n    ports:\n      - \"5432:5432\"\n  redis:\n    image: redis:7\n    ports:\n      - \"6379:6379\""),
    Turn("The API listens on port 8443 in our docker-compose setup.", "Noted. Since that's a TLS-style port, check that health checks and local curl calls use https."),
    Turn("What's running right now?", "Only the database and Redis are up; the app containers aren't running, which explains why nothing answered your requests.", "run_shell", '{"cmd": "docker ps --format \\"{{.Names}} {{.Ports}}\\""}', "billing-db-1 0.0.0.0:5432->5432/tcp\nbilling-redis-1 0.0.0.0:6379->6379/tcp"),
    Turn("The admin dashboard listens on port 9310.", "Got it. If it's only for internal use, make sure it isn't exposed outside the VPN."),
    Turn("Why would a container say the port is already in use when nothing seems to be running?", "Something on the host still holds it: often an old container, a local dev server or a zombie process. `lsof -i :PORT` or `ss -ltnp` shows which process, and `docker ps -a` shows stopped containers that still reserve the mapping."),
    Turn("My feature branch is feat/invoice-retry.", "Noted. Remember to rebase on main before opening the PR; main has moved a lot this week."),
    Turn("Show me the recent branches.", "Main and a couple of older branches are there; the newest commits are on main from yesterday. Your own work isn't pushed yet, so it doesn't show up remotely.", "run_shell", '{"cmd": "git branch -a --sort=-committerdate | head"}', "* main\n  remotes/origin/main\n  remotes/origin/chore/bump-deps\n  remotes/origin/feat/pdf-invoices"),
    Turn("Dana's branch for the rounding bug is fix/ledger-rounding.", "Okay. If both of you touch the ledger module, it might be worth agreeing who merges first."),
    Turn("Can you find where we round amounts in the invoice code?", "Rounding happens in two places with different rules: `round()` in totals.py uses banker's rounding, while lines.py uses `Decimal.quantize` with ROUND_HALF_UP. That mismatch could produce one-cent differences.", "run_shell", '{"cmd": "grep -rn \\"round\\" billing/"}', "billing/totals.py:18:    return round(subtotal * rate, 2)\nbilling/lines.py:41:    return amount.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)"),
    Turn("CI runs Python 3.11.9.", "Noted. Then it's safe to use 3.11 features like `tomllib` and exception groups in tests."),
    Turn("What Python do I have locally?", "You're on Python 3.12 locally, which is newer than CI. Mostly fine, but watch for deprecations that 3.12 warns about and older versions don't.", "run_shell", '{"cmd": "python --version"}', "Python 3.12.4"),
    Turn("The prod Docker image is still on Python 3.10.14, we haven't bumped it.", "Good to know: then avoid 3.11-only syntax in code that ships, like `except*` or `typing.Self`, until the image is bumped."),
    Turn("How do I pin a Python version for a project with pyenv?", "Run `pyenv install 3.x.y` and then `pyenv local 3.x.y` in the repo; that writes a `.python-version` file that pyenv reads whenever you're in that directory."),
    Turn("The nightly report cron runs at 02:15 UTC.", "Noted. Keep that in mind when scheduling migrations; running both at once could lock the reporting tables."),
    Turn("What does this cron line mean: `*/10 9-17 * * 1-5`?", "Every ten minutes from 9:00 to 17:50, Monday to Friday. The hour range is inclusive, so the last run is at 17:50."),
    Turn("The Sentry project id for the API is 4507731.", "Got it. If you set up the SDK, the DSN will include that id, so it's easy to double-check."),
    Turn("Sentry shows a spike of errors, what does this trace say?", "It's a `KeyError: 'currency'` in the webhook handler: some payment events arrive without a currency field. Defaulting to the account's currency or rejecting the event with a clear log line would stop the spike.", "read_file", '{"path": "sentry_event.txt"}', "KeyError: 'currency'\n  File \"billing/webhooks.py\", line 57, in handle_payment\n    currency = event[\"data\"][\"currency\"]"),
    Turn("The feature flag that gates the new ledger is ENABLE_LAZY_LEDGER.", "Noted. It'd be worth adding a test that runs with the flag both on and off while it exists."),
    Turn("How do feature flags usually get cleaned up? We have dozens of dead ones.", "Give every flag an owner and an expiry date when it's created, and have a periodic job or lint list flags past their date. Removing a flag means deleting the old code path too, not just the check."),
    Turn("Run the unit tests for totals only.", "All eleven tests in test_totals.py pass. None of them cover rounding at the half-cent boundary, which is where the bug is likely to hide.", "run_tests", '{"path": "tests/test_totals.py"}', "tests/test_totals.py ...........                [100%]\n===== 11 passed in 0.41s ====="),
    Turn("Write me a test for a half-cent total, say 0.005 times 1.", "Here's one: `def test_half_cent_rounds_up(): assert total(Decimal(\"0.005\"), 1) == Decimal(\"0.01\")`. With the current `round()` it will fail, which is exactly what we want to show."),
    Turn("Run it.", "It fails as expected: `round()` gives 0.0 because of banker's rounding on a float. Switching totals.py to `Decimal.quantize` with ROUND_HALF_UP makes it pass.", "run_tests", '{"path": "tests/test_totals.py::test_half_cent_rounds_up"}', "E       AssertionError: assert Decimal('0') == Decimal('0.01')\n===== 1 failed in 0.22s ====="),
    Turn("Okay, change totals.py to use Decimal quantize and run the whole suite again.", "Done: all 54 tests pass now, including the new one. The change is a two-line diff in totals.py.", "run_tests", '{"path": "tests/"}', "..................................................... [100%]\n===== 54 passed in 2.87s ====="),
    Turn("Can you explain what ROUND_HALF_EVEN is and why Python's round() uses it?", "ROUND_HALF_EVEN rounds exact halves to the nearest even digit, so 0.5 goes to 0 and 1.5 to 2. It avoids a systematic upward bias when you round many numbers, which is why statisticians and Python's `round()` prefer it; money, though, usually follows half-up by law or convention."),
    Turn("What's a good commit message for that change?", "Something like: \"totals: round with Decimal half-up like invoice lines, so a half cent no longer rounds down to zero\". It says what changed and why."),
    Turn("Let's look at the webhook handler.", "The handler trusts the payload completely: no signature check and direct key access. I'd verify the signature first and use `.get()` with explicit errors for missing fields.", "read_file", '{"path": "billing/webhooks.py"}', "def handle_payment(event):\n    amount = event[\"data\"][\"amount\"]\n    currency = event[\"data\"][\"currency\"]\n    record_payment(amount, currency)\n"),
    Turn("How do I verify a webhook signature in general?", "The provider signs the raw request body with a shared secret, usually HMAC-SHA256, and sends the signature in a header. Compute the same HMAC over the raw bytes, compare with `hmac.compare_digest`, and check the timestamp to reject replays."),
    Turn("I have a bunch of flaky tests that only fail in CI. Where do I start?", "Look for shared state and time: tests that depend on order, the current date, real network calls or a fixed port are the usual suspects. Running locally with `pytest -p randomly` and repeating the flaky ones with `--count` often reproduces it."),
    Turn("Check the GitHub Actions workflow.", "The workflow installs dependencies without a cache and runs the whole suite in one job. Adding pip caching and splitting lint from tests would speed it up.", "read_file", '{"path": ".github/workflows/ci.yml"}', "on: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: pip install -e .[dev]\n      - run: make lint test"),
    Turn("How do I add pip caching to that?", "Use `actions/setup-python@v5` with `cache: 'pip'`; it caches the pip download directory keyed on your requirements or pyproject files. That one line usually saves a minute or two per run."),
    Turn("Explain the difference between a Docker volume and a bind mount, quickly.", "A bind mount maps a specific host directory into the container, good for live code editing. A volume is storage managed by Docker itself, better for databases because it's portable and doesn't depend on host paths."),
    Turn("What's the load on the box right now? Things feel slow.", "Load is high for a 2-core machine and memory is nearly full, with swap in use; that's why things feel sluggish. Stopping unused containers would help.", "run_shell", '{"cmd": "uptime && free -h"}', " 14:02:11 up 6 days,  3:12,  load average: 3.87, 3.41, 2.96\n              total        used        free\nMem:           7.7Gi       7.1Gi       212Mi\nSwap:          2.0Gi       1.3Gi       700Mi"),
    Turn("Remind me how to write a multi-stage Dockerfile for a Python app.", "Build wheels in a first stage from a full image, then copy only the wheels into a slim runtime image and install them there. That keeps compilers out of the final image and usually halves its size."),
    Turn("Can you summarise what a code reviewer should look for in a money-handling PR?", "Decimal arithmetic everywhere, with explicit rounding at defined points; currency always travelling with the amount; idempotency for payments and webhooks; tests at boundaries like zero, negative and half-cent values; and logging that never includes card data or secrets."),
    Turn("Let's check the lint output before I open the PR.", "Two issues: an unused import in exports.py and a line that's too long in webhooks.py. Both are quick fixes.", "run_shell", '{"cmd": "ruff check billing"}', "billing/exports.py:1:8: F401 `csv` imported but unused\nbilling/webhooks.py:57:121: E501 Line too long (131 > 120)\nFound 2 errors."),
    Turn("What's the difference between a 401 and a 403?", "401 means the request isn't authenticated: no or invalid credentials. 403 means the server knows who you are but you're not allowed to do that."),
    Turn("Suggest a name for a helper that converts cents to a display string.", "`format_cents` or `cents_to_display` both read clearly. I'd lean towards `format_cents(amount: int, currency: str) -> str`."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "st4ging-Heron-81", {"keyword": "What's the staging Postgres password?", "paraphrase": "How do I log into the test environment's database?"}),
        (4, "acme-exports-eu-west-1", {"keyword": "Which S3 bucket do the exports go to?", "paraphrase": "Where do the spreadsheet downloads get stored in AWS?"}),
        (7, "Kx9!marble-Pine", {"keyword": "What's the prod Postgres password?", "paraphrase": "What are the credentials for the live database?"}),
        (9, "8443", {"keyword": "What port does the API listen on?", "paraphrase": "Where do I point curl to hit the backend locally?"}),
        (11, "9310", {"keyword": "What port is the admin dashboard on?", "paraphrase": "Which number do I type after localhost to open the back-office UI?"}),
        (13, "feat/invoice-retry", {"keyword": "What's my feature branch called?", "paraphrase": "Which git ref holds my billing work?"}),
        (15, "fix/ledger-rounding", {"keyword": "What's Dana's branch for the rounding bug?", "paraphrase": "Which ref has my colleague's patch for the cents problem?"}),
        (17, "3.11.9", {"keyword": "What Python does CI run?", "paraphrase": "Which interpreter version do the automated checks use on GitHub Actions?"}),
        (19, "3.10.14", {"keyword": "What Python version is the prod Docker image on?", "paraphrase": "Which interpreter does the shipped container have?"}),
        (21, "02:15", {"keyword": "When does the nightly report cron run?", "paraphrase": "What hour does the scheduled summary job kick off?"}),
        (23, "4507731", {"keyword": "What's the Sentry project id for the API?", "paraphrase": "What's the identifier for our backend's error tracker?"}),
        (25, "ENABLE_LAZY_LEDGER", {"keyword": "What's the feature flag for the new ledger?", "paraphrase": "Which toggle switches on the rewritten bookkeeping code?"}),
    ],
    [
        ("What's the prod database password?", 7, 2),
        ("What port does the dashboard listen on?", 11, 9),
        ("What's Dana's branch called?", 15, 13),
        ("Which Python version is CI on?", 17, 19),
    ],
    [
        "good morning",
        "What's a good name for a cat?",
        "lol",
        "How tall is Mount Everest?",
        "Thanks, I'm heading out for lunch.",
        "Can you recommend a mechanical keyboard?",
        "What's the capital of Canada?",
        "Tell me something interesting about octopuses.",
        "ok cool",
        "What year did the Berlin Wall fall?",
    ],
)


# fmt: on


def conversations() -> list[Conversation]:
    """The four probe conversations: English, Korean, mixed Korean/English and code-heavy with tool results."""
    return [ENGLISH, KOREAN, MIXED, CODE]


# --- checking the set ---------------------------------------------------------------------------------------------

#: question framing and function words, left out when comparing content words
STOP_EN = set(
    """a an the my me i i'm im is are was were be been am do does did done to of in on at for from by with and or but
    it its it's that this these those what what's whats when when's where where's which who whose how why again
    you your we our us they them their he his she her him again now still just so not no any some all about into
    up out off after before over than then there here get got have has had can could should would will shall may
    might need needs tell remind know say said let one oh okay ok also too very really want s t don't""".split()
)
#: Korean framing words, compared by their key (see ``_ko_key``)
STOP_KO = set(
    "뭐 뭐였 뭐더 뭐라 뭐야 언제 어디 몇 내 나 제 저 우리 혹시 아까 그 그거 이거 좀 다시 알려 말했 했던 얘기 어떻 무슨 있어 였지 거 건 게 데 때 아 는 이 가 줘 예요 이에".split()
)
_PARTICLES = (
    "에서는",
    "에서",
    "으로",
    "한테",
    "에게",
    "까지",
    "부터",
    "이랑",
    "처럼",
    "보다",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "도",
    "에",
    "의",
    "로",
    "와",
    "과",
    "랑",
    "만",
)
_EN_SUFFIXES = ("ing", "ed", "es", "s", "er", "ly")


def _en_keys(word: str) -> set[str]:
    """An English word's comparison keys: its naive stem, and its first five letters when it is that long."""
    w = word.lower()
    stem = w
    for suffix in _EN_SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            stem = w[: -len(suffix)]
            break
    return {"s:" + stem} | ({"p:" + w[:5]} if len(w) >= 5 else set())


def _ko_key(word: str) -> str:
    """A Hangul word's key: one trailing particle off, then its first two syllables (nouns compared roughly)."""
    for particle in _PARTICLES:
        if word.endswith(particle) and len(word) > len(particle):
            word = word[: -len(particle)]
            break
    return word[:2]


def content_keys(text: str) -> set[str]:
    """The content words of a text as comparison keys: English stems and prefixes, Korean two-syllable keys, numbers."""
    keys: set[str] = set()
    for word in re.findall(r"[A-Za-z][A-Za-z']*", text):
        if word.lower() not in STOP_EN:
            keys |= _en_keys(word)
    for word in re.findall(r"[가-힣]+", text):
        key = _ko_key(word)
        if key not in STOP_KO and word not in STOP_KO:
            keys.add("k:" + key)
    keys |= {"n:" + n for n in re.findall(r"[0-9]+", text)}
    return keys


def _hangul_forms(text: str) -> dict[str, set[str]]:
    """Each Korean key in a text with the word forms it appears in."""
    forms: dict[str, set[str]] = {}
    for word in re.findall(r"[가-힣]+", text):
        key = _ko_key(word)
        if key not in STOP_KO:
            forms.setdefault(key, set()).add(word)
    return forms


def problems(conv: Conversation) -> list[str]:  # noqa: C901 (a checklist: one branch a rule of the set's shape)
    """What is wrong with one conversation's shape, as readable lines; empty when it is sound."""
    out: list[str] = []
    say = out.append
    korean = conv.language != "en"
    if len(conv.turns) < 44:
        say(f"{conv.name}: {len(conv.turns)} fixed turns, need 44")
    if len(conv.facts) != 12:
        say(f"{conv.name}: {len(conv.facts)} facts, need 12")
    if len({f.turn for f in conv.facts}) != len(conv.facts):
        say(f"{conv.name}: two facts share a turn")
    for n, turn in enumerate(conv.turns, start=1):
        if not turn.user.strip() or not turn.reply.strip():
            say(f"{conv.name}: turn {n} has an empty message")
        if (turn.tool is None) != (turn.result is None):
            say(f"{conv.name}: turn {n} has a tool without a result or a result without a tool")
    asked = [q.text for q in questions(conv)]
    for fact in conv.facts:
        where = f"{conv.name} turn {fact.turn}"
        if not 1 <= fact.turn <= 25:
            say(f"{where}: a fact outside turns 1-25")
            continue
        if fact.said != conv.turns[fact.turn - 1].user or fact.proof not in fact.said:
            say(f"{where}: proof {fact.proof!r} is not in the fact's user message")
        others = [
            n for n, t in enumerate(conv.turns, start=1) if n != fact.turn and fact.proof.lower() in t.text().lower()
        ]
        if others:
            say(f"{where}: proof {fact.proof!r} also in turns {others}")
        if any(fact.proof.lower() in q.lower() for q in asked):
            say(f"{where}: proof {fact.proof!r} is in a question")
        wanted = {"keyword", "paraphrase"} | ({"endings"} if korean else set())
        if set(fact.questions) - set(STYLES) or not wanted <= set(fact.questions):
            say(f"{where}: styles {sorted(fact.questions)}, need {sorted(wanted)}")
        said = content_keys(fact.said)
        if "keyword" in fact.questions and not content_keys(fact.questions["keyword"]) & said:
            say(f"{where}: keyword question shares no content word")
        if "paraphrase" in fact.questions and (shared := content_keys(fact.questions["paraphrase"]) & said):
            say(f"{where}: paraphrase shares {sorted(shared)}")
        if "endings" in fact.questions:
            theirs, ours = _hangul_forms(fact.questions["endings"]), _hangul_forms(fact.said)
            if not any(theirs[k] - ours[k] for k in theirs.keys() & ours.keys()):
                say(f"{where}: endings question has no Korean noun of the fact in another form")
    if len(conv.twins) != 4:
        say(f"{conv.name}: {len(conv.twins)} look-alike pairs, need 4")
    fact_turns = {f.turn for f in conv.facts}
    for twin in conv.twins:
        if twin.right == twin.twin or not {twin.right, twin.twin} <= fact_turns:
            say(f"{conv.name}: look-alike {twin.question!r} does not name two facts")
        elif twin.proof in twin.twin_proof or twin.twin_proof in twin.proof:
            say(f"{conv.name}: look-alike {twin.question!r} has proofs that contain each other")
    if len(conv.unrelated) != 10:
        say(f"{conv.name}: {len(conv.unrelated)} unrelated questions, need 10")
    for text in conv.unrelated:
        for fact in conv.facts:
            if shared := content_keys(text) & content_keys(fact.said):
                say(f"{conv.name}: unrelated {text!r} shares {sorted(shared)} with the fact in turn {fact.turn}")
    return out


def validate(convs: list[Conversation] | None = None) -> list[str]:
    """Every problem in the probe set (the four conversations unless given), as readable lines."""
    return validate_set(convs, conversations())


def validate_set(convs: list[Conversation] | None, own: list[Conversation]) -> list[str]:
    """Every problem in ``convs`` (a set's ``own`` four conversations when None), as readable lines: what each
    conversation breaks (:func:`problems`), and a set that is not one of each kind. Every set's ``validate``."""
    convs = own if convs is None else convs
    out = [line for conv in convs for line in problems(conv)]
    if convs == own and [c.name for c in convs] != ["english", "korean", "mixed", "code"]:
        out.append("the set is one English, one Korean, one mixed and one code-heavy conversation")
    return out


def show(own: list[Conversation]) -> None:
    """Print a set's problems (or "ok") and its conversations' question counts: every set run as a script."""
    print("\n".join(validate_set(None, own)) or "ok")
    for conv in own:
        kinds: dict[str, int] = {}
        for q in questions(conv):
            kinds[q.kind] = kinds.get(q.kind, 0) + 1
        print(conv.name, len(conv.turns), "turns", kinds)


if __name__ == "__main__":
    show(conversations())
