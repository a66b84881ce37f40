# ruff: noqa: E501, E402
"""A fifth held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the five sets. The dataclasses, :func:`questions`, the
comparison keys and the per-conversation checks are that module's own, imported here, so every set is held to one
rule book. Sets 1 to 4 were used while recall was tuned or reported; this one was written afterwards, without seeing
how recall works, for reporting.

Four new conversations with other people, subjects and facts: ``english`` (the owner of a small bakery juggling a van
lease, suppliers, an inspection and a wedding order), ``korean`` (a parent keeping track of two children's school,
academy and hospital visits), ``mixed`` (a Korean fintech compliance and infrastructure team, Korean with English work
words) and ``code`` (an Android/Kotlin developer, with shell, Gradle, grep, file and test tools and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words, with and without "my"/"우리",
as requests ("remind me ...", "알려줘"), in past and present tense; look-alikes where the other words pick one of two
facts of a kind (two phone numbers, two appointment dates, two extensions, two ports, two versions, two tickets); and
unrelated questions of every sort, from greetings and thanks to how-tos that share common words with filler turns,
first-person news never mentioned, writing requests and a few "why" questions.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:  # loaded by file path (a test, another bench) rather than run from bench/
    sys.path.insert(0, _HERE)

from probes_heldout import (
    STYLES,
    Conversation,
    Fact,
    Question,
    Turn,
    Twin,
    _build,
    content_keys,
    problems,
    questions,
    show,
    validate_set,
)

__all__ = [
    "PEOPLE",
    "STYLES",
    "Conversation",
    "Fact",
    "Question",
    "Turn",
    "Twin",
    "content_keys",
    "conversations",
    "problems",
    "questions",
    "validate",
]

# fmt: off
#: the people this set names, so a test can hold that sets 1 to 4 name none of them
PEOPLE = (
    "Nadia", "Imran", "Gwen Tolliver", "Haskins", "Pemberton", "Farrukh", "시우", "남궁혜진", "석진우", "채원", "옥지민", "표성재", "백승훈",
)

# (the data keeps one turn and one fact per line)

# --- 1. English: a bakery owner with a van lease, suppliers, an inspection and a wedding order ------------------

_EN_TURNS = [
    Turn("Hi! I'm Nadia, I run a little bakery with my partner Imran. Between the van, the suppliers and the paperwork I keep losing track of things. Can I jot stuff down here?", "Of course, Nadia. Drop things in whenever they come up and I'll help you keep the bakery's details straight."),
    Turn("The van lease agreement number is VL-30718-Q, with Northway Fleet, in case they ring about the mileage.", "Noted. Lease companies often charge per mile over the allowance, so it's worth checking the odometer against the agreement every few months."),
    Turn("My flat's lease is up in the autumn and the landlord wants to add a break clause. What is that exactly?", "A break clause lets one or both sides end the tenancy early, usually after a set date and with notice, often two months. Check whether it works for you as well as the landlord before you sign."),
    Turn("Our flour all comes from Hollins Mill; the trade account code is HM-5526.", "Got it. Keep that handy for phone orders; mills usually want the account code before they'll talk prices."),
    Turn("Why do the flowers in the shop window wilt by lunchtime? They're just sweet peas in jam jars.", "The window gets hot in direct sun, and sweet peas hate heat. Move them out of the sun, recut the stems at an angle and change the water daily."),
    Turn("The engineer who sorted out the walk-in fridge is Gwen Tolliver, mobile 07911 402 663.", "Noted. A good refrigeration engineer is worth keeping; ask her about a yearly service before summer."),
    Turn("My phone battery is dead by mid-afternoon now. Worth replacing the battery or the whole phone?", "If the phone is otherwise fine and under four years old, a battery swap is cheap and makes it feel new. Check the battery health in settings first; below about 80% it's worn."),
    Turn("Our accountant, Mr. Haskins, is on 0113 496 0219 if the VAT return goes wrong.", "Noted. Send him your figures a couple of weeks before the deadline so there's time to fix anything."),
    Turn("What's the difference between a sole trader and a limited company for tax?", "A sole trader pays income tax on all the profit. A limited company pays corporation tax, and you take money out as salary and dividends, which can be more tax-efficient once profits are higher, at the cost of more paperwork."),
    Turn("The van's MOT is due on 14 March, and the garage on Tanner Street does it.", "Got it. Book it a couple of weeks early; you can have it tested up to a month before without losing the renewal date."),
    Turn("My neighbour says the roof of our garage is asbestos. How would I even check?", "Don't break off a piece yourself. A licensed surveyor can take a sample and have it tested for a modest fee; if it's intact and left alone, it's usually low risk."),
    Turn("The council's food hygiene inspection is booked for 2 April at 9:15 am.", "Noted. Have your cleaning schedules, fridge temperature logs and allergen records out and up to date before they arrive."),
    Turn("How do I get a five-star rating rather than four next time?", "The score covers hygiene, the building and how you manage food safety. Most shops lose the top mark on paperwork, so keep daily records complete and make sure staff training is written down."),
    Turn("The card terminal's merchant ID is 40022871; the provider always asks for it.", "Got it. Keep it with the terminal's serial number, since support lines usually ask for both."),
    Turn("Can you write a thank-you card message for a regular customer who's moving away?", "\"Dear Joan, thank you for every Saturday morning visit and every kind word over the years. The shop won't be the same without you. Wishing you every happiness in your new home, and do come back for a loaf when you visit!\""),
    Turn("The Pemberton wedding cake is three tiers, salted caramel and hazelnut, collected on Saturday 7 June.", "Lovely. Three tiers needs dowels and a cake board for each tier, and a flat car boot for the collection."),
    Turn("My cousin asked me to give a speech at her wedding. How long should it be?", "Three to five minutes is ideal: a warm opening, one or two short stories, a line about the couple together and a toast. Read it aloud beforehand and cut anything that only you will laugh at."),
    Turn("The shop alarm code is 6614, and you have to press the key symbol first.", "Noted. Make sure whoever opens up knows the order too, or the alarm company gets a false call."),
    Turn("My alarm clock doesn't wake me at 4 am any more. Any tricks for early shifts?", "Put the alarm across the room, use a light that brightens before it rings, and keep the same wake time on days off. Going to bed at the same time matters more than any gadget."),
    Turn("The safe in the back office opens with 2087; only Imran and I know it.", "Got it. It's worth writing it down somewhere sealed in case one of you is ill or away."),
    Turn("Is it safe to leave proving dough out overnight in a warm kitchen?", "It's usually safe but it will over-prove and collapse. A slow cold prove in the fridge overnight gives better flavour and a loaf you can shape in the morning."),
    Turn("The new deck oven cost £11,400, on finance over 36 months.", "Noted. Keep the invoice for your capital allowances; your accountant can usually claim the full cost against profit."),
    Turn("My oven at home runs hot. How do I check its real temperature?", "Put an oven thermometer in the middle shelf, set it to 180°C and read it after twenty minutes. If it's out by more than ten degrees, adjust your settings or have the thermostat recalibrated."),
    Turn("The sourdough starter gets fed at 1:5:5, starter to flour to water, every evening.", "Got it. That's a stiff, slow feed; it keeps the starter mild and ready by morning."),
    Turn("What's a good starter for a dinner party of six?", "Something you can make ahead: a beetroot and goat's cheese salad, chilled pea soup, or whipped feta with warm flatbread. Leave yourself free for the main course."),
    Turn("Imran and I finally get a week off in October. We'd like somewhere warm, not too far, with good walks, good food and no big resort. We don't drive abroad, so it has to work by bus or on foot, and we're both shattered, so no four a.m. starts. Any ideas and a rough plan?", "Crete's west or Madeira both fit. For Madeira: stay in Funchal, take the cable car and toboggan, walk the levada paths by bus or guided transfer, spend a day in Porto Moniz's pools and keep afternoons slow. For Crete: stay in Chania's old town, take the bus to Balos or Elafonissi, walk the Samaria gorge with an organised trip and eat in the villages."),
    Turn("How do I get my toddler niece to eat vegetables?", "Keep offering small amounts without pressure, let her help wash or stir them, and serve them alongside something she already likes. It can take ten or more tries before a child accepts a new food."),
    Turn("How does a heat pump work, in plain words?", "It's a fridge in reverse: it pulls warmth out of the outside air or ground, even in winter, concentrates it with a compressor and pushes it into your radiators or hot water."),
    Turn("Recommend a podcast for long drives.", "'No Such Thing As A Fish' for trivia, 'Desert Island Discs' for conversation, and 'The Rest Is History' if you like a story that runs across episodes."),
    Turn("Help me write a message declining a wedding invitation politely.", "\"Thank you so much for the invitation. I'm so sorry we won't be able to make it, but we'll be thinking of you both on the day and can't wait to celebrate with you when we next see you.\""),
    Turn("How do I stop my glasses fogging up when I wear a mask?", "Pinch the mask's nose wire tight, push your glasses down onto the mask, or wash the lenses with a drop of washing-up liquid and let them air-dry."),
    Turn("Why do my hands crack so badly in winter?", "Cold air and frequent hand-washing strip the skin's oils. Use a thick hand cream after every wash, wear gloves outdoors and put on an ointment at night under cotton gloves."),
    Turn("What's a quick stretch for a stiff lower back?", "Lie on your back and hug your knees to your chest for thirty seconds, then let both knees drop to one side and then the other. Do it slowly and stop if anything hurts sharply."),
    Turn("Explain compound interest simply.", "You earn interest on your savings and then on that interest too, so the pot grows faster each year. At 5% a year, £1,000 becomes about £1,629 after ten years without adding anything."),
    Turn("How do I unblock a sink without chemicals?", "Try a plunger first, then clean out the U-bend under the sink over a bucket. Bicarbonate of soda and vinegar followed by boiling water helps with greasy clogs."),
    Turn("What's a good houseplant for a dark hallway?", "A snake plant or a ZZ plant copes with little light and forgets-to-water owners. A pothos is fine too if there's any daylight at all."),
    Turn("Who wrote Pride and Prejudice?", "Jane Austen, published in 1813."),
    Turn("How many hours of sleep does an adult really need?", "Most adults need seven to nine hours. If you wake up without an alarm on days off and feel alert through the day, you're getting enough."),
    Turn("Give me three ideas for a rainy Sunday with friends.", "A board-game afternoon with a big pot of soup, a film marathon picked by everyone in turn, or a cook-off where each pair makes one course."),
    Turn("How do I back up photos from my phone?", "Turn on Google Photos or iCloud Photos backup over Wi-Fi, and once a year copy everything to an external drive as well, so you have two copies in different places."),
    Turn("How do you say 'thank you very much' in Italian?", "'Grazie mille' or 'grazie tante'."),
    Turn("What's a polite way to chase an unpaid invoice?", "\"Hi Owen, just a quick reminder that invoice 112 for the café order was due last Friday. Could you let me know when it's likely to be paid? Thanks!\" Friendly first, firmer the second time."),
    Turn("How long does it take to walk five kilometres?", "About an hour at an easy pace, or fifty minutes if you walk briskly."),
    Turn("Recommend a film for a cosy night in.", "'Paddington 2' is warm and funny for any age; 'Chef' is a feel-good one about food and family."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "VL-30718-Q", {"keyword": "What's the van lease agreement number?", "paraphrase": "Remind me the reference on the contract for our delivery vehicle."}),
        (4, "HM-5526", {"keyword": "What's our account code at Hollins Mill?", "paraphrase": "What do I quote when I order from the grain supplier?"}),
        (6, "07911 402 663", {"keyword": "What's Gwen's mobile?", "paraphrase": "How do I get hold of the person who repaired our big chiller?"}),
        (8, "0113 496 0219", {"keyword": "What's the accountant's number?", "paraphrase": "remind me how to call the man who does our books"}),
        (10, "14 March", {"keyword": "When is the van's MOT due?", "paraphrase": "When does the delivery vehicle need its yearly roadworthiness test?"}),
        (12, "9:15 am", {"keyword": "What time is the hygiene inspection?", "paraphrase": "What time does the environmental health officer visit us?"}),
        (14, "40022871", {"keyword": "What's the merchant ID for the card terminal?", "paraphrase": "What number does the payment machine company want when I phone them?"}),
        (16, "salted caramel and hazelnut", {"keyword": "What flavour is the Pemberton cake?", "paraphrase": "What did the bride and groom pick for the sponge?"}),
        (18, "6614", {"keyword": "What's the shop alarm code?", "paraphrase": "What do I punch in to stop the siren going off when I open up in the morning?"}),
        (20, "2087", {"keyword": "What opens the safe in the back office?", "paraphrase": "What's the combination for where the takings get locked away?"}),
        (22, "£11,400", {"keyword": "How much did the deck oven cost?", "paraphrase": "How much was the big baking machine we're paying off in instalments?"}),
        (24, "1:5:5", {"keyword": "What ratio do I feed the starter at?", "paraphrase": "How much do I give the mother culture each night?"}),
    ],
    [
        ("What's the engineer's mobile number?", 6, 8),
        ("When do the hygiene people come?", 12, 10),
        ("What's the code for the safe?", 20, 18),
        ("What's the ID for the card machine?", 14, 2),
    ],
    [
        "Hiya! Busy day?",
        "Cheers, that helps a lot.",
        "What's the longest river in Africa?",
        "How do I get red wine out of a carpet?",
        "I'm thinking about learning to swim properly this summer.",
        "Write a short poem about autumn leaves.",
        "Why do cats purr?",
        "How do I set up a shared calendar on my phone?",
        "Who painted the Mona Lisa?",
        "Why do onions make you cry?",
    ],
)


# --- 2. Korean: 두 아이의 학교, 학원, 병원 일정을 챙기는 부모 ---------------------------------------------------------

_KO_TURNS = [
    Turn("안녕하세요. 초등학교 2학년 아들 시우랑 여섯 살 딸 채원이 키우는 엄마예요. 학교 일정이랑 병원 예약이 너무 많아서 여기다 적어 둘게요.", "네, 생각날 때마다 편하게 적어 주세요. 날짜랑 연락처는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("시우 담임 남궁혜진 선생님 번호는 010-7741-3068이에요.", "적어 뒀어요. 급한 일이 아니면 수업 시간은 피해서 문자를 먼저 드리는 게 좋아요."),
    Turn("요즘 시우가 선생님 말씀을 잘 안 듣는다고 알림장에 적혀 왔어요. 집에서 뭐라고 해야 할까요?", "혼내기 전에 학교에서 무슨 일이 있었는지 먼저 들어 보세요. 아이 말을 끝까지 들어 주고, 지킬 약속 하나만 같이 정하는 게 효과가 좋아요."),
    Turn("태권도 석진우 관장님 번호는 010-3915-2207이에요. 차량 시간 바뀌면 연락 주신대요.", "알겠어요. 차량 시간이 바뀌면 하원 동선도 같이 달라질 수 있으니 그때 다시 정리해 드릴게요."),
    Turn("태권도 계속 시키는 게 좋을까요, 수영으로 바꿀까요? 시우가 요즘 좀 지겨워해요.", "지겨워하는 이유부터 물어보세요. 승급 심사 같은 목표가 가까우면 그것까지만 해 보자고 하고, 정말 싫어하면 한 달 체험으로 수영을 해 보는 것도 방법이에요."),
    Turn("채원이 소아과 예약은 11월 12일 화요일 오후 3시 20분이에요. 영유아 검진이에요.", "적어 뒀어요. 영유아 검진 문진표는 미리 온라인으로 작성해 가면 대기가 훨씬 짧아요."),
    Turn("소아과 대기가 너무 길어요. 앱 말고 기다리는 시간 줄이는 방법 있을까요?", "문 여는 시간에 맞춰 가거나 점심시간 직후가 비교적 한산해요. 진료 예약이 되는 병원이면 전날 저녁에 미리 잡아 두세요."),
    Turn("시우 치과 예약은 11월 19일 토요일 오전 10시예요. 어금니 충치 치료해요.", "알겠어요. 치료 전날엔 단 거 줄이고, 마취하면 한두 시간 입술 감각이 없으니까 깨물지 않게 봐 주세요."),
    Turn("아이 충치 예방하려면 불소 도포는 몇 달마다 하는 게 좋아요?", "보통 3개월에서 6개월마다 해요. 충치가 잘 생기는 아이라면 3개월 간격을 권하는 치과가 많아요."),
    Turn("시우는 키위 알레르기가 있어요. 먹으면 입 주변이 빨갛게 부어요.", "중요한 정보네요. 학교 급식실이랑 담임 선생님께도 꼭 알려 두세요."),
    Turn("봄마다 제 비염이 심해지는데 이런 것도 아이들한테 유전되나요?", "알레르기 체질은 유전 경향이 있어서 부모 중 한 명이 있으면 아이도 생길 가능성이 높아요. 다만 꼭 같은 증상으로 나타나는 건 아니에요."),
    Turn("시우 방과후 수업은 로봇 과학으로 신청했어요. 수요일마다 해요.", "좋네요. 손으로 만드는 걸 좋아하는 아이들이 특히 재밌어해요."),
    Turn("과학 실험 키트 중에 초등 저학년이 집에서 하기 좋은 거 있어요?", "화산 폭발 실험, 수정 기르기, 간단한 전기 회로 키트가 인기 있어요. 어른이 옆에서 같이 해 주면 더 오래 집중해요."),
    Turn("영어 학원비는 한 달에 28만 원이에요. 매달 5일에 빠져나가요.", "적어 뒀어요. 자동이체 날짜 전에 통장 잔액만 한 번씩 확인해 주세요."),
    Turn("학원을 몇 개나 보내야 할지 모르겠어요. 2학년이면 너무 많이 시키는 건가요?", "저학년은 놀 시간이 충분한 게 더 중요해요. 아이가 지쳐 보이거나 짜증이 늘면 줄일 신호예요. 하나씩 줄여 보고 반응을 보세요."),
    Turn("현장체험학습은 남산 한옥마을로 간대요. 도시락 싸 가야 해요.", "좋은 곳이네요. 많이 걸으니까 편한 운동화랑 물통은 꼭 챙겨 주세요."),
    Turn("도시락 메뉴 아이디어 좀 주세요. 김밥 말고요.", "유부초밥, 주먹밥, 미니 샌드위치가 간편해요. 방울토마토랑 과일 몇 조각 곁들이면 색도 예뻐요."),
    Turn("지난번 건강검진에서 시우 키가 128.4cm 나왔어요.", "적어 뒀어요. 다음 검진 때 얼마나 자랐는지 비교해 볼 수 있겠네요."),
    Turn("아이 키 크려면 줄넘기가 정말 도움이 돼요?", "줄넘기 자체보다는 충분한 잠, 골고루 먹기, 꾸준한 운동이 합쳐져서 도움이 돼요. 특히 밤 10시 전에 자는 습관이 중요해요."),
    Turn("채원이 어린이집 하원 시간은 4시 40분이에요. 제가 데리러 가요.", "알겠어요. 늦을 것 같은 날은 어린이집에 미리 전화해 두면 아이가 덜 불안해해요."),
    Turn("어린이집 선생님께 드릴 작은 선물, 뭐가 부담 없을까요?", "청탁금지법 때문에 선물을 받지 않는 곳이 많아요. 아이가 그린 그림이나 손편지가 제일 부담 없고 기억에도 남아요."),
    Turn("방과후 수업료는 한 분기에 9만 6천 원이에요.", "적어 뒀어요. 재료비가 따로 걷히는 경우도 있으니 안내문을 한 번 더 확인해 보세요."),
    Turn("아이가 수업 시간에 집중을 잘 못 한대요. 검사 같은 걸 받아 봐야 할까요?", "이 나이엔 흔한 일이라 너무 걱정하지 않으셔도 돼요. 다만 집에서도 같은 모습이 여러 달 계속되면 소아청소년 정신과에서 상담을 받아 보는 것도 괜찮아요."),
    Turn("안과에서 시우 시력이 왼쪽 0.7, 오른쪽 0.5로 나왔어요. 6개월 뒤에 다시 보재요.", "적어 뒀어요. 그동안 책이나 태블릿은 밝은 곳에서 30분마다 쉬면서 보게 해 주세요."),
    Turn("스마트폰 오래 보면 정말 시력이 나빠져요?", "가까운 화면을 오래 보면 근시가 진행되기 쉬워요. 하루 두 시간 정도 바깥 활동을 하면 근시 진행을 늦추는 데 도움이 된다는 연구가 많아요."),
    Turn("연말에 가족끼리 2박 3일 여행을 가려고 해요. 아이들은 여덟 살, 여섯 살이고 남편은 운전을 오래 못 해요. 서울에서 KTX로 갈 수 있는 곳이면 좋겠고, 숙소는 한 군데로 정하고 싶어요. 바다도 보고 아이들이 뛰어놀 데도 있으면 좋겠는데 어디가 좋을까요?", "강릉을 추천해요. KTX로 두 시간이면 가고, 역 근처에 숙소를 잡으면 택시로 다니기 편해요. 첫날은 경포 해변이랑 아쿠아리움, 둘째 날은 안목 커피거리 산책과 키즈카페, 셋째 날은 오죽헌을 가볍게 보고 오면 무리가 없어요."),
    Turn("김장 김치 조금만 담그고 싶은데 배추 두 포기면 양념은 얼마나 해야 돼요?", "고춧가루 한 컵 반, 다진 마늘 3큰술, 생강 1작은술, 멸치액젓 반 컵, 새우젓 2큰술 정도면 돼요. 무채랑 쪽파를 넣으면 더 시원해요."),
    Turn("패딩 세탁기에 돌려도 돼요?", "대부분 중성세제로 울 코스에 돌려도 돼요. 헹굼을 한 번 더 하고, 건조기에 테니스공 두 개를 넣어 돌리면 충전재가 다시 살아나요."),
    Turn("허리가 자주 아픈데 집에서 할 수 있는 운동 있어요?", "누워서 무릎을 가슴 쪽으로 당기기, 고양이 자세, 브릿지 운동을 하루 10분씩 해 보세요. 통증이 다리까지 내려가면 병원에 가 보셔야 해요."),
    Turn("적금이랑 예금 중에 뭐가 더 나아요?", "목돈이 이미 있으면 예금, 매달 조금씩 모으려면 적금이에요. 적금 금리는 실제로 받는 이자가 표시 금리의 절반 정도라는 걸 기억하세요."),
    Turn("친정 엄마 칠순 잔치를 어떻게 하면 좋을까요?", "요즘은 큰 잔치보다 가족끼리 한정식집에서 식사하고 사진을 찍는 경우가 많아요. 가족 사진으로 만든 앨범이나 영상 편지를 준비하면 특별해져요."),
    Turn("요즘 볼 만한 드라마 추천해 주세요.", "가볍게 보려면 로맨틱 코미디, 몰입해서 보려면 법정물이나 스릴러를 추천해요. 보시는 OTT를 알려 주시면 더 구체적으로 골라 드릴게요."),
    Turn("전기요금 아끼는 방법 있어요?", "안 쓰는 플러그는 멀티탭으로 끄고, 냉장고는 60~70%만 채우세요. 에어컨은 처음에 세게 틀었다가 온도를 높이는 게 더 효율적이에요."),
    Turn("남편이랑 집안일 분담 때문에 자주 싸워요.", "해야 할 일을 다 적어 놓고 각자 맡을 걸 고르는 방식이 좋아요. 누가 더 많이 하느냐보다 서로 뭘 하는지 보이게 하는 게 다툼을 줄여요."),
    Turn("된장찌개 맛있게 끓이는 팁 알려 주세요.", "멸치 육수를 진하게 내고, 된장은 처음에 조금 풀었다가 마지막에 한 숟가락 더 넣으세요. 애호박이랑 두부는 나중에 넣어야 식감이 살아요."),
    Turn("중고 거래할 때 사기 안 당하려면 어떻게 해야 돼요?", "가능하면 직거래하고, 택배 거래는 안전결제를 쓰세요. 시세보다 너무 싸거나 급하게 입금을 재촉하면 의심해 보세요."),
    Turn("요즘 잠이 잘 안 와요. 누워도 한 시간씩 뒤척여요.", "자기 한 시간 전부터 휴대폰을 멀리 두고 조명을 어둡게 해 보세요. 오후 커피를 줄이고, 20분 넘게 잠이 안 오면 잠깐 일어났다가 다시 눕는 게 나아요."),
    Turn("자동차 보험 갱신 때 뭘 비교해 봐야 돼요?", "보험료만 보지 말고 대물 한도, 자기신체사고 보상, 긴급출동 횟수를 같이 보세요. 다이렉트 보험이 보통 더 싸요."),
    Turn("겨울에 베란다 화분 어떻게 관리해요?", "밤에 영하로 떨어지면 안으로 들이고, 물은 흙이 마른 걸 확인하고 낮에 주세요. 겨울엔 물 주는 횟수를 절반으로 줄이는 게 좋아요."),
    Turn("엑셀로 가계부 만들고 싶은데 어떻게 시작해요?", "날짜, 항목, 분류, 금액 네 칸으로 시작하세요. 분류별 합계는 SUMIF 함수로 내면 되고, 월별로 시트를 나누면 보기 편해요."),
    Turn("라디오에서 들은 노래 제목을 모를 때 찾는 방법 있어요?", "휴대폰의 음악 검색 기능이나 앱으로 노래를 들려주면 찾아 줘요. 가사 일부를 기억하면 따옴표로 묶어서 검색해 보세요."),
    Turn("캠핑 처음 가는데 꼭 챙길 게 뭐예요?", "텐트, 침낭, 매트, 랜턴, 버너, 상비약은 기본이에요. 처음엔 장비가 갖춰진 글램핑으로 시작하는 것도 좋아요."),
    Turn("요가랑 필라테스 중에 뭐가 몸매 관리에 더 좋아요?", "유연성과 이완이 목적이면 요가, 코어 힘과 자세 교정이 목적이면 필라테스가 잘 맞아요. 둘 다 꾸준히 하는 게 제일 중요해요."),
    Turn("부모님께 스마트폰 글씨 크게 하는 법 알려 드리고 싶어요.", "설정에서 디스플레이로 들어가 글자 크기와 화면 확대를 오른쪽으로 올리면 돼요. 한 번 같이 해 드리면 다음부턴 쉽게 하세요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "010-7741-3068", {"keyword": "담임 선생님 번호 뭐였지?", "paraphrase": "우리 아들 반 책임지시는 분한테 전화하려면 어떻게 해?", "endings": "담임 선생님한테 연락할 번호가 뭐야?"}),
        (4, "010-3915-2207", {"keyword": "태권도 관장님 번호 알려줘", "paraphrase": "아이 운동 다니는 도장 사범님 전화 뭐였지?", "endings": "태권도 관장님께 전화할 번호는?"}),
        (6, "11월 12일", {"keyword": "채원이 소아과 예약 언제야?", "paraphrase": "우리 딸 건강 체크하러 병원 가는 날 언제였지?", "endings": "채원이는 소아과 예약이 언제였지?"}),
        (8, "11월 19일", {"keyword": "시우 치과 예약 언제였지?", "paraphrase": "아들 이 썩은 거 고치러 가는 날 언제지?", "endings": "시우는 치과를 언제 가더라?"}),
        (10, "키위", {"keyword": "시우 알레르기 있는 과일 뭐였지?", "paraphrase": "우리 아들 못 먹는 거 뭐라 그랬지?", "endings": "시우한테 무슨 알레르기가 있었지?"}),
        (12, "로봇 과학", {"keyword": "방과후 수업 뭐 신청했지?", "paraphrase": "학교 끝나고 아들이 듣는 특별활동 뭐야?", "endings": "방과후에 시우가 듣는 수업이 뭐였지?"}),
        (14, "28만 원", {"keyword": "영어 학원비 얼마였지?", "paraphrase": "외국어 교습소 비용 얼마 냈더라?", "endings": "학원비가 한 달에 얼마였지?"}),
        (16, "한옥마을", {"keyword": "현장체험학습 어디로 간대?", "paraphrase": "아들 반 소풍 장소 어디야?", "endings": "현장체험학습을 어디로 가더라?"}),
        (18, "128.4", {"keyword": "시우 키 몇 나왔지?", "paraphrase": "우리 아들 신장 얼마였더라?", "endings": "건강검진에서 시우는 키가 몇이었지?"}),
        (20, "4시 40분", {"keyword": "어린이집 하원 시간 몇 시야?", "paraphrase": "딸 유치원 끝나는 때가 언제였지?", "endings": "채원이는 하원이 몇 시였지?"}),
        (22, "9만 6천 원", {"keyword": "방과후 수업료 얼마야?", "paraphrase": "학교 끝나고 하는 특별활동 비용 석 달에 얼마 내지?", "endings": "방과후 수업료가 분기마다 얼마였지?"}),
        (24, "왼쪽 0.7", {"keyword": "시우 시력 얼마 나왔지?", "paraphrase": "아들 눈 검사 결과 어땠더라?", "endings": "시우의 시력은 안과에서 어떻게 나왔지?"}),
    ],
    [
        ("관장님 전화번호 뭐였지?", 4, 2),
        ("치과 가는 날 언제였지?", 8, 6),
        ("방과후 비용 얼마였지?", 22, 14),
        ("채원이 몇 시에 데리러 가야 돼?", 20, 6),
    ],
    [
        "안녕하세요~ 오늘 날씨 좋네요",
        "고마워요!",
        "ㅋㅋ 그렇네요",
        "달걀 삶을 때 껍질 잘 까지는 방법 있어요?",
        "저 내년 봄에 복직해요",
        "남편 생일 축하 카드 문구 좀 써 주세요",
        "하늘은 왜 파래요?",
        "세종대왕은 한글을 언제 만들었어요?",
        "왜 겨울에는 정전기가 많이 생겨요?",
        "무선 키보드 하나 추천해 줄래요?",
    ],
)


# --- 3. Mixed: 핀테크 컴플라이언스와 인프라 팀, 한국어에 영어 업무 용어 -------------------------------------------------

_MX_TURNS = [
    Turn("안녕하세요, 페이루멘 컴플라이언스랑 인프라 같이 보는 백승훈이에요. 감사 시즌이라 정신이 없어서 여기다 메모 좀 해 둘게요.", "네, 편하게 적어 주세요. 일정이랑 ticket, 설정값 같은 건 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("금감원 정기 보고 제출 deadline은 7월 31일이에요.", "적어 뒀어요. 내부 결재까지 생각하면 일주일 전에는 초안이 나와 있어야 안전해요."),
    Turn("보고서 쓸 때 executive summary는 보통 몇 줄로 써요?", "다섯 줄 안쪽이 좋아요. 결론, 주요 리스크, 필요한 의사결정 순서로 쓰고 세부 내용은 본문으로 넘기세요."),
    Turn("내부 감사 fieldwork는 6월 24일부터 시작이에요.", "알겠어요. 그 전에 evidence 목록이랑 담당자 배정을 끝내 두면 인터뷰가 훨씬 수월해요."),
    Turn("감사 대응할 때 evidence 캡처는 어떤 포맷으로 모아 두는 게 좋아요?", "화면 캡처는 시간과 계정이 보이게 PNG로, 설정값은 export한 원본 파일로 두세요. 통제 항목 번호별로 폴더를 나누면 감사인이 찾기 쉬워요."),
    Turn("prod DB 접속용 VPN 게이트웨이는 vpn-gw2.paylumen.kr이에요.", "적어 뒀어요. 접속 기록이 감사 대상이니까 개인 계정으로만 붙는 거 잊지 마세요."),
    Turn("재택할 때 VPN이 자꾸 끊기는데 원인이 뭘까요?", "공유기 절전 모드나 MTU 문제인 경우가 많아요. 유선으로 연결해 보고, 그래도 끊기면 클라이언트 로그에서 keepalive timeout이 찍히는지 보세요."),
    Turn("카드 토큰 암호화하는 KMS key alias는 alias/pl-card-tokens예요.", "알겠어요. 키 rotation 주기랑 key policy에 누가 들어가 있는지도 같이 evidence로 남겨 두세요."),
    Turn("암호화랑 해시 차이를 신입한테 쉽게 설명하려면 어떻게 해요?", "암호화는 열쇠가 있으면 다시 원래대로 풀 수 있는 자물쇠고, 해시는 한 번 갈면 되돌릴 수 없는 믹서라고 설명하면 잘 알아들어요."),
    Turn("지난주 결제 지연 장애 incident 티켓은 INC-20931이에요.", "적어 뒀어요. 회고 문서에 그 번호를 링크해 두면 나중에 감사 때 찾기 편해요."),
    Turn("장애 회고 문서 템플릿 좀 추천해 주세요. blameless로요.", "요약, 영향 범위, 타임라인, 근본 원인, 잘된 점, 개선 action item과 담당자 순서가 기본이에요. 사람 이름 대신 시스템과 절차 중심으로 쓰세요."),
    Turn("정보보호 담당 옥지민 님 내선은 4172예요.", "알겠어요. 보안 관련 승인 건은 그쪽으로 먼저 연락하면 되겠네요."),
    Turn("내선 전화를 휴대폰으로 돌려 받는 기능 있잖아요, 그거 보안상 괜찮아요?", "통화 자체보다는 개인 폰에 통화 기록이 남는 게 문제예요. 회사 MDM이 깔린 폰에서만 쓰게 하고, 고객 정보가 오가는 통화는 녹취 정책을 따르세요."),
    Turn("인프라 표성재 님 내선은 4185이에요.", "적어 뒀어요. 네트워크나 클러스터 작업 요청은 그쪽으로 보내면 되겠네요."),
    Turn("인프라 비용 줄이려면 reserved instance랑 savings plan 중에 뭐가 나아요?", "인스턴스 타입이 자주 바뀌면 savings plan이 유연해서 나아요. 타입이 고정된 DB 같은 건 reserved instance 할인이 더 클 수 있어요."),
    Turn("고액현금거래 보고 기준은 1,000만 원이에요. AML 룰에 그대로 들어가 있어요.", "알겠어요. 기준 바로 아래로 쪼개서 들어오는 거래도 따로 탐지 룰이 있는지 확인해 보세요."),
    Turn("AML 모니터링에서 false positive가 너무 많은데 튜닝 어떻게 시작해요?", "지난 석 달 alert를 룰별로 뽑아서 실제 STR로 이어진 비율을 보세요. 비율이 낮은 룰부터 threshold나 조건을 조정하고, 바꾼 근거를 문서로 남겨야 해요."),
    Turn("감사 로그는 S3 Object Lock으로 2,190일 보관하기로 했어요.", "적어 뒀어요. compliance 모드로 걸면 root 계정도 못 지우니까 설정 전에 한 번 더 확인하세요."),
    Turn("S3 lifecycle로 Glacier 넘기면 조회할 때 얼마나 걸려요?", "Glacier Flexible Retrieval은 보통 몇 분에서 열두 시간, Deep Archive는 열두 시간 이상 걸려요. 감사 때 급하게 볼 거면 Instant Retrieval을 쓰세요."),
    Turn("prod EKS 클러스터의 Kubernetes 버전은 1.29.6이에요.", "알겠어요. 지원 종료 일정이 다가오면 업그레이드 계획을 미리 잡아 두세요."),
    Turn("쿠버네티스 업그레이드할 때 보통 어떤 순서로 해요?", "deprecated API를 먼저 정리하고, control plane을 올린 다음 add-on, 마지막으로 node group을 하나씩 교체해요. staging에서 한 번 리허설하는 게 필수예요."),
    Turn("방화벽 룰 변경 건 change 티켓은 CHG-4418로 올렸어요.", "적어 뒀어요. CAB 승인 나면 작업 시간이랑 롤백 계획도 티켓에 붙여 두세요."),
    Turn("방화벽 정리할 때 안 쓰는 룰 찾는 방법 있어요?", "hit count를 90일 정도 보고 한 번도 안 맞은 룰을 후보로 뽑으세요. 바로 지우지 말고 disable로 한 달 두었다가 지우는 게 안전해요."),
    Turn("Terraform은 1.7.5로 고정이에요. 로컬도 tfenv로 맞춰 주세요.", "알겠어요. required_version에도 같은 값을 박아 두면 다른 버전으로 apply하는 걸 막을 수 있어요."),
    Turn("Terraform state 잠금 걸렸을 때 force-unlock 해도 돼요?", "다른 사람이 apply 중이 아닌 게 확실할 때만 하세요. 먼저 lock을 잡은 사람과 시간을 확인하고, 팀 채널에 공지한 다음 푸는 게 좋아요."),
    Turn("다음 달에 팀 워크숍을 하루 잡으려고 해요. 인원은 열두 명이고, 절반은 개발자 절반은 컴플라이언스라 서로 일하는 방식을 잘 몰라요. 오전엔 올해 회고, 오후엔 내년 로드맵을 하고 싶은데 지루하지 않게 진행하는 방법이 있을까요?", "오전은 타임라인 벽에 올해 있었던 일을 포스트잇으로 붙이고 잘된 것, 힘들었던 것을 섞인 조로 나눠 이야기하게 하세요. 점심 후엔 서로의 하루를 5분씩 소개하는 세션을 넣고, 로드맵은 후보를 먼저 펼친 뒤 스티커 투표로 우선순위를 정하면 참여도가 높아요."),
    Turn("Slack에서 알림 너무 많이 와요. 어떻게 줄여요?", "채널별로 알림을 멘션만 받게 바꾸고, 업무 시간 외엔 방해 금지를 예약하세요. 자주 안 보는 채널은 사이드바 섹션으로 묶어서 접어 두면 좋아요."),
    Turn("영어 회의에서 말 끊고 들어가는 표현 좀 알려 주세요.", "\"Sorry to jump in, but...\", \"Can I add something here?\", \"Just to build on that...\" 정도가 자연스러워요."),
    Turn("점심 먹고 나면 너무 졸려요.", "탄수화물을 조금 줄이고, 식후에 10분만 걸어도 훨씬 나아요. 커피는 점심 직후보다 30분쯤 지나서 마시는 게 효과가 좋아요."),
    Turn("엑셀 피벗 테이블 쉽게 설명해 주세요.", "긴 표를 원하는 기준으로 묶어서 합계나 개수를 보여 주는 요약표예요. 행에 기준, 값에 합계할 숫자를 끌어다 놓으면 끝이에요."),
    Turn("팀원 생일에 롤링페이퍼 문구 뭐라고 쓰죠?", "\"늘 차분하게 챙겨 줘서 고마워요. 올해는 일보다 좋은 일이 더 많은 한 해 되길!\" 정도면 무난해요."),
    Turn("Python에서 리스트 중복 제거하면서 순서 유지하려면요?", "list(dict.fromkeys(items))를 쓰면 돼요. 딕셔너리가 삽입 순서를 기억해서 처음 나온 순서대로 남아요."),
    Turn("노트북 배터리가 금방 닳아요.", "화면 밝기를 낮추고 백그라운드 앱을 정리해 보세요. 배터리 사이클이 많으면 교체 시기일 수도 있어요."),
    Turn("마라톤 10km 준비하려면 얼마나 연습해야 돼요?", "주 3회, 6주 정도면 완주는 충분해요. 천천히 오래 달리는 날을 한 번씩 넣고 거리를 매주 10%씩만 늘리세요."),
    Turn("회의록 자동으로 요약해 주는 툴 있어요?", "화상회의 도구에 내장된 AI 요약 기능이나 녹취 앱을 많이 써요. 민감한 회의는 외부 서비스에 올리기 전에 보안 정책을 확인하세요."),
    Turn("이직할 때 레퍼런스 체크는 보통 누구한테 해요?", "직전 회사 상사나 같이 일한 동료 두세 명이 일반적이에요. 미리 연락해서 부탁드리고, 어떤 프로젝트를 같이 했는지 상기시켜 드리면 좋아요."),
    Turn("Git에서 커밋 메시지 잘 쓰는 규칙 있어요?", "첫 줄은 50자 안쪽으로 무엇을 했는지, 빈 줄 다음에 왜 했는지를 쓰세요. 명령형으로 쓰는 게 관례예요."),
    Turn("거북목 교정하려면 뭐부터 해요?", "모니터를 눈높이로 올리고, 한 시간마다 턱을 뒤로 당기는 운동을 열 번씩 해 보세요. 의자 등받이에 허리를 붙이는 것도 중요해요."),
    Turn("주말에 서울 근교 드라이브 코스 추천해 줘요.", "양평 두물머리, 가평 남이섬 쪽, 파주 헤이리가 무난해요. 아침 일찍 출발하면 막히지 않아요."),
    Turn("CSV 파일이 엑셀에서 한글이 깨져요.", "UTF-8 with BOM으로 저장하거나, 엑셀의 데이터 가져오기에서 인코딩을 65001로 지정해서 여세요."),
    Turn("신입 온보딩 문서에 꼭 들어가야 할 거 뭐예요?", "첫 주 일정, 계정 발급 방법, 팀 소개와 담당 영역, 자주 묻는 질문, 도움을 요청할 사람이 들어가면 충분해요."),
    Turn("재택 근무할 때 집중 잘하는 법 있어요?", "출근하듯 옷을 갈아입고, 일하는 자리를 정해 두세요. 50분 일하고 10분 쉬는 리듬이 도움이 돼요."),
    Turn("연말정산 때 놓치기 쉬운 공제 뭐 있어요?", "월세 세액공제, 안경 구입비, 중고차 구입 금액의 일부, 기부금이 자주 빠져요. 간소화 자료에 안 뜨는 건 영수증을 따로 챙기세요."),
    Turn("주말에 볼 만한 영화 하나만 추천해 줘요.", "가볍게 보려면 〈리틀 포레스트〉, 긴장감 있는 걸 원하면 〈헤어질 결심〉을 추천해요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "7월 31일", {"keyword": "금감원 보고 deadline 언제였죠?", "paraphrase": "감독 당국에 서류 내야 하는 날짜 언제예요?", "endings": "금감원에 보고서 내는 deadline이 언제죠?"}),
        (4, "6월 24일", {"keyword": "내부 감사 fieldwork 언제 시작해요?", "paraphrase": "회사 안쪽 점검 팀이 현장 실사 들어오는 날 언제였죠?", "endings": "내부 감사는 fieldwork가 언제부터였죠?"}),
        (6, "vpn-gw2.paylumen.kr", {"keyword": "prod DB VPN 게이트웨이 주소 뭐였죠?", "paraphrase": "운영 데이터베이스 들어갈 때 어느 터널 서버 써요?", "endings": "prod DB 접속할 때 VPN 게이트웨이가 뭐였죠?"}),
        (8, "alias/pl-card-tokens", {"keyword": "카드 토큰 KMS key alias 뭐였죠?", "paraphrase": "결제 수단 대체값 잠글 때 쓰는 키 이름 뭐였죠?", "endings": "카드 토큰을 암호화할 때 쓰는 KMS key alias가 뭐죠?"}),
        (10, "INC-20931", {"keyword": "결제 지연 incident 티켓 번호 뭐였죠?", "paraphrase": "저번에 돈 나가는 게 늦어졌던 사고, 몇 번으로 등록됐죠?", "endings": "결제가 지연된 장애는 티켓이 뭐였죠?"}),
        (12, "4172", {"keyword": "옥지민 님 내선 몇 번이죠?", "paraphrase": "security 쪽 책임자 사무실 전화 알려줘요", "endings": "정보보호 담당인 옥지민 님은 내선이 몇 번이죠?"}),
        (14, "4185", {"keyword": "표성재 님 내선 몇 번이에요?", "paraphrase": "클라우드 운영하시는 분 사무실 전화 뭐였죠?", "endings": "인프라팀 표성재 님은 내선이 몇이죠?"}),
        (16, "1,000만 원", {"keyword": "고액현금거래 보고 기준 얼마예요?", "paraphrase": "큰돈을 창구에서 주고받으면 신고해야 하는 선이 얼마였죠?", "endings": "고액현금거래를 보고하는 기준이 얼마죠?"}),
        (18, "2,190일", {"keyword": "감사 로그 보관 기간 며칠로 했죠?", "paraphrase": "audit trail 지우지 못하게 묶어 두는 거, 얼마 동안이었죠?", "endings": "감사 로그를 며칠 보관하죠?"}),
        (20, "1.29.6", {"keyword": "prod Kubernetes 버전 몇이에요?", "paraphrase": "운영 컨테이너 오케스트레이션 쪽은 릴리스가 뭐죠?", "endings": "클러스터는 버전이 몇이죠?"}),
        (22, "CHG-4418", {"keyword": "방화벽 change 티켓 뭐로 올렸죠?", "paraphrase": "포트 열어 달라고 낸 요청, 몇 번이었죠?", "endings": "방화벽 룰을 바꾸는 change 티켓이 뭐였죠?"}),
        (24, "1.7.5", {"keyword": "Terraform 버전 몇으로 고정이에요?", "paraphrase": "IaC 도구는 어느 릴리스 써야 돼요?", "endings": "Terraform 버전은 뭐로 고정돼 있죠?"}),
    ],
    [
        ("인프라 쪽 내선 몇 번이에요?", 14, 12),
        ("감사 시작 날짜 언제였죠?", 4, 2),
        ("change 티켓 번호 뭐였죠?", 22, 10),
        ("Terraform 버전 뭐였죠?", 24, 20),
    ],
    [
        "좋은 아침입니다~",
        "고마워요 🙏",
        "ㅋㅋ 점심 뭐 먹죠",
        "저 다음 주에 휴가예요",
        "Notion에서 database view 필터 어떻게 걸어요?",
        "Go랑 Rust 중에 뭐 배울까요?",
        "팀장님 승진 축하 메시지 좀 써 줄래요?",
        "왜 비행기에서는 귀가 먹먹해져요?",
        "고양이 키우려면 뭐부터 준비해요?",
        "요즘 테니스 배우는데 서브가 안 돼요",
    ],
)


# --- 4. Code: an Android/Kotlin developer, with shell, Gradle, grep, file and test tools ------------------------

_CODE_TURNS = [
    Turn("Hey, I'm on the Larkpay Android app this sprint. Can you look at what's in the repo?", "It's a multi-module Gradle project: the app module, a core network module, a checkout feature module, shared build logic and the Gradle wrapper.", "run_shell", '{"cmd": "ls"}', "app\nbuild-logic\ncore-network\nfeature-checkout\ngradle\ngradle.properties\ngradlew\nsettings.gradle.kts"),
    Turn("The local mock server for API responses runs on port 8089.", "Noted. Point the debug build's base URL at it through a build config field so release builds can never pick it up."),
    Turn("Run the unit tests for the network module.", "All 23 network tests pass.", "run_tests", '{"path": "core-network"}', "> Task :core-network:testDebugUnitTest\n\nApiClientTest > retriesOn503() PASSED\nApiClientTest > parsesErrorBody() PASSED\n...\n23 tests completed, 0 failed\n\nBUILD SUCCESSFUL in 41s"),
    Turn("I route emulator traffic through mitmproxy on port 9091 when I need to see the raw requests.", "Got it. You'll need its CA certificate installed on the emulator and a debug-only network security config that trusts user certificates."),
    Turn("Why does the emulator say 'cleartext HTTP traffic not permitted'?", "Since Android 9, plain HTTP is blocked by default. For local development add a network security config in the debug source set that allows cleartext for 10.0.2.2 only, so release stays HTTPS-only."),
    Turn("My working branch is feature/offline-sync.", "Noted. Push it early so CI runs on it, and keep the Room migrations in the same branch as the code that needs them."),
    Turn("What's changed on this branch so far?", "You've touched the sync worker, the DAO and its migration, plus a new test; about 240 lines in total.", "run_shell", '{"cmd": "git diff --stat main"}', " app/src/main/java/com/larkpay/sync/SyncWorker.kt       | 118 +++++++++---\n core-network/src/main/java/com/larkpay/db/CartDao.kt  |  41 ++++\n core-network/src/main/java/com/larkpay/db/Migrations.kt |  22 ++\n app/src/test/java/com/larkpay/sync/SyncWorkerTest.kt   |  63 ++++++\n 4 files changed, 231 insertions(+), 13 deletions(-)"),
    Turn("Farrukh's branch for the push token bug is bugfix/fcm-token-refresh.", "Got it. If his change touches the same Application class as yours, it's worth rebasing on it once it merges."),
    Turn("How do I rebase onto main without losing my changes?", "Commit or stash first, then `git fetch origin` and `git rebase origin/main`. Fix conflicts file by file, `git add` them and `git rebase --continue`; `git rebase --abort` takes you back if it goes wrong."),
    Turn("We keep minSdk = 26 for now; product won't drop older phones until next year.", "Noted. That still gives you java.time and adaptive icons without desugaring."),
    Turn("Show me the dependencies block of the app module.", "Compose via the BOM, Room, WorkManager, Retrofit with kotlinx serialization, and Hilt; tests use JUnit, Turbine and MockWebServer.", "read_file", '{"path": "app/build.gradle.kts", "lines": "40-58"}', "dependencies {\n    implementation(platform(libs.compose.bom))\n    implementation(libs.compose.material3)\n    implementation(libs.room.ktx)\n    kapt(libs.room.compiler)\n    implementation(libs.work.runtime)\n    implementation(libs.retrofit)\n    implementation(libs.kotlinx.serialization.json)\n    implementation(libs.hilt.android)\n    testImplementation(libs.junit)\n    testImplementation(libs.turbine)\n    testImplementation(libs.okhttp.mockwebserver)\n}"),
    Turn("We're on Kotlin 2.0.21; don't bump it until the Compose compiler plugin is sorted.", "Got it. With Kotlin 2 the Compose compiler ships with Kotlin itself, so the two versions move together anyway."),
    Turn("What's the difference between val and const val in Kotlin?", "`val` is a read-only property set at runtime, possibly computed. `const val` must be a primitive or String known at compile time, lives at top level or in an object, and is inlined where it's used."),
    Turn("The Android Gradle Plugin is pinned to 8.5.2 in libs.versions.toml.", "Noted. Bump it together with the Gradle wrapper; each plugin release has a minimum Gradle version."),
    Turn("Build a debug APK.", "The debug build succeeded, with one deprecation warning about kapt.", "run_shell", '{"cmd": "./gradlew :app:assembleDebug"}', "> Task :app:kaptGenerateStubsDebugKotlin\nw: Kapt currently doesn't support language version 2.0+. Falling back to 1.9.\n> Task :app:assembleDebug\n\nBUILD SUCCESSFUL in 2m 14s\n87 actionable tasks: 31 executed, 56 up-to-date"),
    Turn("The crash when rotating on the checkout screen is AND-1164.", "Got it. Rotation crashes usually mean state held in the Activity; moving it into the ViewModel or rememberSaveable normally fixes it."),
    Turn("Where do we handle configuration changes ourselves?", "Only the checkout activity opts out of recreation in the manifest, and there's one override in it.", "grep", '{"pattern": "configChanges|onConfigurationChanged", "path": "."}', "app/src/main/AndroidManifest.xml:31:            android:configChanges=\"orientation|screenSize\"\nfeature-checkout/src/main/java/com/larkpay/checkout/CheckoutActivity.kt:88:    override fun onConfigurationChanged(newConfig: Configuration) {"),
    Turn("Dark mode colours being wrong on the receipts page is tracked as AND-1203.", "Noted. Hard-coded colours instead of theme attributes are the usual cause; a grep for Color(0x will likely find them."),
    Turn("How do I test dark mode in a Compose preview?", "Add `@Preview(uiMode = Configuration.UI_MODE_NIGHT_YES)` next to your normal preview, or use `@PreviewLightDark` to get both at once."),
    Turn("The remote config flag for the new checkout is enable_compose_checkout.", "Got it. Give it a safe default of false in the in-app defaults XML so a failed fetch never turns it on."),
    Turn("Run the checkout feature tests.", "One failure: the total is rendered with a comma where the test expects a dot, so the test depends on the machine's locale.", "run_tests", '{"path": "feature-checkout"}', "CheckoutViewModelTest > totalIsFormatted() FAILED\n    expected:<12[.]50> but was:<12[,]50>\n\n18 tests completed, 1 failed\nBUILD FAILED in 38s"),
    Turn("The upload keystore lives at ~/keys/larkpay-upload.jks; never commit it.", "Noted. Read its passwords from environment variables or local properties in the signing config, never from the build file."),
    Turn("What's the difference between the upload key and the app signing key on Play?", "You sign uploads with the upload key; Google re-signs the app with the app signing key it keeps. If you lose the upload key, Google can reset it, which you can't do with the app signing key if you manage it yourself."),
    Turn("Staging Firebase project id is larkpay-staging-7c2e.", "Got it. Keep a separate google-services.json per build type under src/staging and src/release so the two never mix."),
    Turn("What's in gradle.properties?", "A 4 GB heap for the daemon, parallel builds and the configuration cache are on, and non-transitive R classes are enabled.", "read_file", '{"path": "gradle.properties"}', "org.gradle.jvmargs=-Xmx4g -Dfile.encoding=UTF-8\norg.gradle.parallel=true\norg.gradle.configuration-cache=true\nandroid.useAndroidX=true\nandroid.nonTransitiveRClass=true"),
    Turn("Bigger question. The cart currently lives only on the server, so if a user loses signal in a shop the checkout just spins. I want the cart to work without a network, queue changes, and reconcile when the connection comes back, without double-charging anyone. We have Room and WorkManager already. How would you structure it?", "Make Room the single source of truth: the UI observes the local cart, and every edit is written locally plus appended to a pending-operations table with a client-generated id. A WorkManager job with a network constraint replays pending operations in order, sending the id as an idempotency key so a retried request is never applied twice. When the server answers, merge its cart back into Room and drop confirmed operations. Payment itself should stay online-only: queue the cart, not the charge."),
    Turn("Fix the locale problem in that failing test and rerun it.", "Pinning the formatter to Locale.US in the test fixed it; all 18 checkout tests pass.", "run_tests", '{"path": "feature-checkout"}', "CheckoutViewModelTest > totalIsFormatted() PASSED\n\n18 tests completed, 0 failed\nBUILD SUCCESSFUL in 35s"),
    Turn("What's the difference between StateFlow and SharedFlow?", "StateFlow always has a current value and replays it to new collectors, which suits UI state. SharedFlow has no required value and configurable replay, which suits one-off events like navigation or snackbars."),
    Turn("Run lint on the app module.", "Two warnings: an unused resource and a hard-coded string in a layout. Neither blocks the build.", "run_shell", '{"cmd": "./gradlew :app:lintDebug"}', "app/src/main/res/values/strings.xml:14: Warning: The resource R.string.promo_old appears to be unused [UnusedResources]\napp/src/main/res/layout/item_receipt.xml:22: Warning: Hardcoded string \"Total\", should use @string resource [HardcodedText]\n0 errors, 2 warnings"),
    Turn("How do I make a Compose list not recompose every item when one changes?", "Give `items` a stable `key`, make the item class immutable or annotated `@Immutable`, and pass lambdas that don't capture changing state. The layout inspector's recomposition counts show what's still recomposing."),
    Turn("Find where we still use LiveData.", "Three places, all in the profile screen; everything else is on Flow already.", "grep", '{"pattern": "LiveData<", "path": "app/src"}', "app/src/main/java/com/larkpay/profile/ProfileViewModel.kt:21:    val name: LiveData<String>\napp/src/main/java/com/larkpay/profile/ProfileViewModel.kt:22:    val avatar: LiveData<Uri?>\napp/src/main/java/com/larkpay/profile/ProfileViewModel.kt:23:    val loading: LiveData<Boolean>"),
    Turn("What's a good way to handle a one-off navigation event from a ViewModel?", "Expose a `Channel` as a Flow with `receiveAsFlow()` and collect it in a `LaunchedEffect` or with `repeatOnLifecycle`, so the event is delivered once and not replayed after rotation."),
    Turn("Check which devices are connected.", "One emulator and one physical Pixel are attached.", "run_shell", '{"cmd": "adb devices -l"}', "List of devices attached\nemulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64\n38151FDJH00A2R         device product:husky model:Pixel_8_Pro"),
    Turn("Explain what R8 does to a release build.", "It shrinks unused code, optimises what's left and obfuscates names, which makes the APK smaller and faster. Keep rules tell it what reflection or serialization needs left alone."),
    Turn("How much space is the build cache taking?", "About 6.1 GB in the Gradle caches; cleaning the old transforms would free most of it.", "run_shell", '{"cmd": "du -sh ~/.gradle/caches/* | sort -h | tail -3"}', "812M\t/home/dev/.gradle/caches/modules-2\n1.4G\t/home/dev/.gradle/caches/build-cache-1\n3.9G\t/home/dev/.gradle/caches/transforms-4"),
    Turn("Write a commit message for the locale fix.", "\"checkout: format totals with a fixed locale in the test, so it passes on machines whose default locale uses a decimal comma\"."),
    Turn("Read the CI workflow.", "CI runs the unit tests and lint on every push with a Gradle cache; there's no instrumented test job yet.", "read_file", '{"path": ".github/workflows/android.yml"}', "on: [push]\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-java@v4\n        with: { distribution: temurin, java-version: 17 }\n      - uses: gradle/actions/setup-gradle@v3\n      - run: ./gradlew testDebugUnitTest lintDebug"),
    Turn("How do I run instrumented tests in GitHub Actions?", "Use an emulator runner action on a Linux runner with KVM enabled, cache the AVD snapshot, and run `connectedDebugAndroidTest`. Keep the suite small; emulators in CI are slow and flaky."),
    Turn("Suggest a name for an extension that formats cents as a price string.", "`Long.formatAsPrice(locale: Locale)` reads well at the call site, or `toPriceText()` if you prefer shorter."),
    Turn("What's a sensible way to log in a release build without leaking personal data?", "Use Timber with a release tree that drops verbose and debug logs, never log request bodies, and send only error codes and anonymous ids to crash reporting."),
    Turn("Find the TODOs left in the checkout module.", "Two TODOs: one about a retry on payment timeouts and one about an accessibility label.", "grep", '{"pattern": "TODO", "path": "feature-checkout/src"}', "feature-checkout/src/main/java/com/larkpay/checkout/PaymentRepository.kt:57:    // TODO retry once on SocketTimeoutException\nfeature-checkout/src/main/java/com/larkpay/checkout/ui/PayButton.kt:19:    // TODO contentDescription for screen readers"),
    Turn("Give me a short checklist before sending a build to QA.", "Version code bumped, release notes written, feature flags set for the test, a clean install and an upgrade install both tried, and the crash reporter pointing at the right environment."),
    Turn("How do I profile app startup?", "Run a Macrobenchmark with `StartupTimingMetric` on a real device, and add a Baseline Profile; it often cuts cold start by a fifth or more."),
    Turn("What's the difference between a Service and WorkManager for background work?", "A foreground Service is for work the user knows is happening right now, like playback. WorkManager is for deferrable, guaranteed work that must survive restarts, like syncing."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "8089", {"keyword": "What port is the mock server on?", "paraphrase": "Which number does the fake backend listen on?"}),
        (4, "9091", {"keyword": "What port is mitmproxy on?", "paraphrase": "What do I set as the phone's proxy to sniff the HTTP calls?"}),
        (6, "feature/offline-sync", {"keyword": "What's my working branch?", "paraphrase": "Remind me where my no-internet caching changes live in git."}),
        (8, "bugfix/fcm-token-refresh", {"keyword": "What's Farrukh's branch?", "paraphrase": "Where's my teammate's fix for notifications not arriving?"}),
        (10, "minSdk = 26", {"keyword": "What's our minSdk?", "paraphrase": "What's the oldest OS version we support?"}),
        (12, "2.0.21", {"keyword": "Which Kotlin version are we on?", "paraphrase": "What language release does the project build with?"}),
        (14, "8.5.2", {"keyword": "What version is the Android Gradle Plugin on?", "paraphrase": "Which build tooling release do we use for the app module?"}),
        (16, "AND-1164", {"keyword": "What's the ticket for the rotation crash?", "paraphrase": "Which issue covers the app dying when I turn the phone sideways while paying?"}),
        (18, "AND-1203", {"keyword": "What's the ticket for the dark mode receipts bug?", "paraphrase": "Which issue is about the night theme looking off on the purchase summary?"}),
        (20, "enable_compose_checkout", {"keyword": "What's the remote config flag for the new checkout?", "paraphrase": "Which switch turns on the redesigned payment screens?"}),
        (22, "larkpay-upload.jks", {"keyword": "Where's the upload keystore?", "paraphrase": "Where's the file I sign release builds with?"}),
        (24, "larkpay-staging-7c2e", {"keyword": "What's the staging Firebase project id?", "paraphrase": "What's the identifier of our pre-production Google backend?"}),
    ],
    [
        ("Which port is the proxy on?", 4, 2),
        ("Which branch has the token fix?", 8, 6),
        ("What version is Kotlin on?", 12, 14),
        ("Which ticket is the dark mode one?", 18, 16),
    ],
    [
        "morning! coffee first",
        "thanks, that did the trick",
        "How do I center a div in CSS?",
        "What's the population of Japan?",
        "I'm going to a concert tonight.",
        "Write a haiku about Mondays.",
        "Why do we yawn?",
        "Who discovered penicillin?",
        "lol ok",
        "Can you recommend a good running shoe?",
    ],
)


# fmt: on


def conversations() -> list[Conversation]:
    """The four probe conversations: English, Korean, mixed Korean/English and code-heavy with tool results."""
    return [ENGLISH, KOREAN, MIXED, CODE]


def validate(convs: list[Conversation] | None = None) -> list[str]:
    """Every problem in this probe set (its four conversations unless given), as readable lines."""
    return validate_set(convs, conversations())


if __name__ == "__main__":
    show(conversations())
