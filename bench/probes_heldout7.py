# ruff: noqa: E501, E402
"""A seventh held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the seven sets. The dataclasses, :func:`questions`, the
comparison keys and the per-conversation checks are that module's own, imported here, so every set is held to one
rule book. Sets 1 to 6 were used while recall was tuned or reported; this one was written afterwards, without seeing
how recall works or any result of it, for reporting.

Four new conversations with other people, subjects and facts: ``english`` (a self-employed plumber doing up an old
narrowboat with his wife and coaching his daughter's under-11 football team), ``korean`` (a couple opening a small
guesthouse on Jeju), ``mixed`` (a Korean hospital pharmacist, Korean with English pharmacy and ward words) and
``code`` (a Rust developer on a ferry-booking API, with shell, file, grep and test tools and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words that describe the thing rather
than name it, with and without "my"/"우리"/"제", as requests ("remind me ...", "알려줘"), in past and present tense;
look-alikes where the other words pick one of two facts of a kind (two phone numbers, two padlock codes, two dates,
two extensions, two ports, two branches, two versions, two tickets); and unrelated questions of every sort, from
greetings and thanks to how-tos that share common words with filler turns, first-person news never mentioned, writing
requests, a few "why" questions and general knowledge.
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
#: the people this set names, so a test can hold that sets 1 to 6 name none of them
PEOPLE = (
    "Rhys", "Bronwen", "Tegan", "Jago Pascoe", "Abimbola", "봉수아", "탁민규", "육태섭", "황보영선", "변다온", "제갈윤",
    "국혜란", "Ottilie", "Kwabena",
)

# (the data keeps one turn and one fact per line)

# --- 1. English: a plumber doing up a narrowboat and coaching his daughter's under-11 football team ----------------

_EN_TURNS = [
    Turn("Hiya, I'm Rhys. I'm a self-employed plumber, I'm doing up an old narrowboat with my wife Bronwen, and on Saturdays I coach our daughter Tegan's under-11 football team. My head's full, so I'll jot things down here as they come up.", "Nice to meet you, Rhys. Jot away and I'll help you keep the boat, the football and the work straight."),
    Turn("The boat's index number with the Canal & River Trust is 52817; it has to be painted on both sides of the cabin.", "Noted. Make the digits at least 75 mm high and in a colour that stands out, so the patrol officers can read it from the towpath."),
    Turn("Do we need a separate licence if we only cruise the river sections and never the canal?", "Your Trust licence covers its rivers as well as its canals. You only need something extra for waters run by someone else, like the Thames above Teddington, where the Environment Agency wants its own registration or a short visitor pass."),
    Turn("The marina manager is Jago Pascoe, mobile 07712 480 366, if the pontoon electrics trip again.", "Got it. Take a photo of the bollard number too, so he knows which one you mean when you ring."),
    Turn("The shore power on the pontoon keeps tripping when the kettle and the heater are on together. Why?", "Most marina bollards give you 16 amps, and a kettle plus a fan heater can pull more than that. Run them one at a time, or swap to a low-wattage kettle; if it trips with little on, get the boat's wiring checked for an earth leak."),
    Turn("Engine log: I changed the oil on the Beta at 2,184 hours on the hour meter.", "Logged. Write the figure on a label on the engine bay lid as well; it saves digging through notes next time."),
    Turn("How often should a narrowboat engine have its oil changed?", "Most manufacturers say every 250 running hours or once a year, whichever comes first. Change the filter at the same time, and do it with the engine warm so the old oil drains out properly."),
    Turn("The Boat Safety examination is booked for Tuesday 17 June; the examiner wants the gas locker empty and easy to reach.", "Noted. Clear the locker the day before and make sure its drain holes aren't blocked; that's one of the first things they look at."),
    Turn("What do they actually look at in a Boat Safety check?", "Mainly fire and explosion risks: the gas system and its hoses, the fuel lines, the electrics and batteries, ventilation, and fire extinguishers and alarms. It's about the safety of you and the boats around you, not how well the boat is built."),
    Turn("The padlock on the boat's rear hatch is a combination one: 8352.", "Got it. Pick a closed-shackle model if you ever replace it; they're much harder to cut."),
    Turn("Somebody tried to force the hatch on the boat next to ours. Are combination locks any good?", "A decent one is as strong as a keyed lock, and you can't lose the key. Buy a weatherproof brass or stainless one, spin the dials after closing it, and fit a hasp that hides the screws."),
    Turn("Our club secretary is Abimbola, mobile 07950 118 642; she books the referees and the pitches.", "Noted. She's probably the person to ask about the end-of-season tournaments too."),
    Turn("We're short of referees for the under-9s. How do parents get qualified?", "The FA runs a Referee Course through each county association: some online modules, a practical day and a few supervised games. Many clubs pay the fee if the new ref agrees to cover their junior matches for a season."),
    Turn("The kit shed at the rec ground has a combination padlock too: 6019.", "Got it. Changing it at the start of each season is a good habit, since ex-parents often still know the old one."),
    Turn("The shed at the rec ground is damp and the kit smells musty. Ideas?", "Make sure the kit goes in dry, hang the bibs instead of bagging them, and put a couple of moisture absorbers inside. A vent near the top and one low down lets the air move without letting rain in."),
    Turn("The under-11s cup final is Sunday 29 June at Hollin Lane.", "Brilliant, well done to the girls! Let the parents know early so they can sort lifts."),
    Turn("The girls lost a semi on penalties last year and were in bits. How do I help them handle a final if it goes that way?", "Tell them before the match that you're proud whatever the score, and after it praise the effort and the teamwork by name. Keep the post-match talk short, save the lessons for training, and let them be sad for a bit: it shows they cared."),
    Turn("My Gas Safe registration number is 603915; customers sometimes ask to see it.", "Noted. Keep your ID card on you too, since customers can check it against the register online."),
    Turn("A customer asked if my gas registration covers LPG on boats. Does it?", "Only if you hold the right categories. Work on boats needs the LPG and boat-specific competences on your card; natural gas in houses on its own doesn't cover it, so check the back of your card before you quote."),
    Turn("The boat's fresh water tank holds 455 litres when it's full.", "Noted. That's a few days for two people if you go easy on showers."),
    Turn("How long does water keep in a boat's tank before it goes off?", "If the tank's clean it stays fine for a few weeks, but it starts tasting stale after that. Flush it through every season, add a purifying tablet if it sits, and keep a separate bottle for drinking if you're unsure."),
    Turn("The van's MOT runs out on 23 October.", "Got it. You can take it in up to a month early and keep the same renewal date."),
    Turn("Can I drive the van if its MOT has run out but I've booked the test?", "Only to and from the test or a repair that was booked in advance; any other driving is illegal and your insurance may not cover you. Book it before the date runs out."),
    Turn("My trade account at City Plumbing is TR-558104, so I get the trade price at the counter.", "Noted. Ask them about a credit limit too; thirty days to pay helps on big jobs."),
    Turn("Is it worth having a trade account at more than one merchant?", "Usually yes: prices and stock vary, and a second account means you're not stuck when one branch has run out. Just keep an eye on the statements so the small credit balances don't pile up."),
    Turn("Bigger question. In the summer holidays Bronwen and I want to take the boat on her first proper trip with Tegan: ten days, about four hours of cruising a day, and back on our mooring by the second Sunday. Neither of us has done a flight of locks, Tegan gets bored after an hour of just sitting, and I'd like at least one pub stop a day. How would you plan it so it stays a holiday and not a chore?", "Choose a ring or an out-and-back route with a short flight of locks early on, so you learn together on an easy day. Give Tegan jobs: windlass duty at locks, steering on straight stretches, spotting wildlife for a tally. Plan each day to end at a pub or a village with a shop, keep one day without cruising at all, and check the Trust's stoppage notices the week before you go."),
    Turn("What's a quick dinner I can make in one pan after a long day?", "A sausage and bean casserole or a chorizo and chickpea stew: brown the meat, add onions, tinned tomatoes and beans, and simmer for twenty minutes. Serve with bread."),
    Turn("How do I get more sleep when I'm up at six for work every day?", "Pick a fixed bedtime that gives you seven and a half hours, stop screens half an hour before it, and keep the bedroom cool and dark. Caffeine after two in the afternoon is often the hidden culprit."),
    Turn("My back aches after a day under sinks. Any stretches?", "Try a child's pose for thirty seconds, cat-cow on all fours and a gentle knee hug lying on your back. Kneeling on a pad instead of bending over saves a lot too."),
    Turn("Help me write a message to the parents asking for volunteers to run the tuck shop.", "\"Hi all! We're looking for two or three parents to run the tuck shop on home match days, just an hour each time, on a rota. Reply here if you can help. Thanks so much!\""),
    Turn("How do I explain the offside rule to an eight-year-old?", "Tell them a player can't hang around near the other team's goal waiting for the ball: when it's passed forward, at least two defenders, usually the keeper and one more, need to be level or nearer their goal than the attacker."),
    Turn("What's the best way to get grass stains out of white socks?", "Rub in a bit of washing-up liquid or a stain remover, leave it for fifteen minutes and wash on a hot cycle. A soak in oxygen bleach overnight shifts the stubborn ones."),
    Turn("Recommend a good audiobook for the van.", "'The Martian' by Andy Weir is great fun to listen to, and Bill Bryson's 'Notes from a Small Island' is easy listening with plenty of laughs."),
    Turn("How much should I charge for a call-out?", "Look at what local firms charge, usually a fixed first-hour fee, and make sure it covers your travel, van and insurance. Many plumbers charge more for evenings and weekends and say so upfront."),
    Turn("Is it worth going VAT-registered before I hit the threshold?", "It can be if most of your customers are VAT-registered businesses, since you can reclaim VAT on tools and materials. For mainly household customers it usually just makes you dearer."),
    Turn("What's a fun warm-up for a team of ten-year-olds?", "Try 'traffic lights': everyone dribbles a ball, green means jog, amber slow, red stop with the sole on the ball. Add 'roundabout' for turn and 'bridge' for a pass to the nearest player."),
    Turn("How do I make my phone battery last longer?", "Lower the screen brightness, turn off background refresh for apps you rarely use, and avoid letting it run down to zero or sit at full charge all night."),
    Turn("Who invented the flushing toilet?", "Sir John Harington designed one in 1596 for Queen Elizabeth I; Alexander Cumming patented the S-bend in 1775, which made it practical."),
    Turn("Any tips for a first time at a parents' evening at secondary school?", "Book the slots early and jot down one question per teacher. Ask what your child finds hardest and how you can help at home rather than just the marks."),
    Turn("What should I do if my van breaks down on the motorway?", "Move to the hard shoulder or an emergency area if you can, switch on the hazards, get out on the verge side and stand behind the barrier, then call for help."),
    Turn("How long should I rest a sprained ankle?", "Rest it and keep it raised for a couple of days, then start gentle movement. Most mild sprains are fine in two to three weeks; see a doctor if you can't put weight on it."),
    Turn("Give me a few ideas for Bronwen's birthday present.", "A cooking class for the two of you, a good pair of walking boots, or a framed print of a place that means something to you both."),
    Turn("What's the difference between a combi boiler and a system boiler?", "A combi heats water on demand with no cylinder; a system boiler heats a hot-water cylinder, which suits homes with several bathrooms running at once."),
    Turn("How do I stop my glasses steaming up under a mask?", "Pinch the mask's wire tightly over your nose and rest your glasses on top of the mask; a drop of washing-up liquid rubbed on the lenses helps too."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "52817", {"keyword": "What's our boat's index number?", "paraphrase": "Remind me the registration the waterways authority gave our vessel."}),
        (4, "07712 480 366", {"keyword": "What's the marina manager's mobile?", "paraphrase": "How do I reach the bloke who runs the moorings where we're tied up?"}),
        (6, "2,184 hours", {"keyword": "At what engine hours did I last change the oil?", "paraphrase": "When did the motor last get fresh lubricant, going by its clock?"}),
        (8, "Tuesday 17 June", {"keyword": "When is the Boat Safety examination?", "paraphrase": "When's the inspector coming to check our floating home is fit to use?"}),
        (10, "8352", {"keyword": "What's the combination for the rear hatch padlock?", "paraphrase": "How do I get in through the back of the narrowboat when it's locked up?"}),
        (12, "07950 118 642", {"keyword": "What's Abimbola's mobile?", "paraphrase": "How do I get hold of the woman who sorts out refs for the team?"}),
        (14, "6019", {"keyword": "What's the kit shed padlock code?", "paraphrase": "How do I get into the hut where we keep the bibs and balls?"}),
        (16, "Sunday 29 June", {"keyword": "When is the under-11s cup final?", "paraphrase": "What date's the big match at the end of the season for my daughter's side?"}),
        (18, "603915", {"keyword": "What's my Gas Safe registration number?", "paraphrase": "What's my official ID as a certified boiler fitter?"}),
        (20, "455 litres", {"keyword": "How many litres does the water tank hold?", "paraphrase": "How much can we carry on board for drinking and washing?"}),
        (22, "23 October", {"keyword": "When does the van's MOT run out?", "paraphrase": "When is the roadworthiness test due on my work vehicle?"}),
        (24, "TR-558104", {"keyword": "What's my trade account at City Plumbing?", "paraphrase": "Remind me the number on my card at the merchant where I buy pipes and fittings."}),
    ],
    [
        ("What's the club secretary's number?", 12, 4),
        ("Which code opens the shed at the rec?", 14, 10),
        ("When's the cup final again?", 16, 8),
        ("Which number has to be painted on the boat?", 2, 18),
    ],
    [
        "Morning! Bit of a grey one today.",
        "Cheers for that, much appreciated.",
        "How do I bleed a radiator?",
        "I've signed up for a pottery class on Thursdays.",
        "Write a short poem about a heron on the towpath.",
        "Why does bread go stale?",
        "Why do bubbles in a fizzy drink rise so fast?",
        "Who wrote Great Expectations?",
        "What's a good dessert for six people?",
        "Can you suggest a podcast for long drives?",
    ],
)


# --- 2. Korean: 제주 애월에 작은 게스트하우스를 여는 부부 ------------------------------------------------------------

_KO_TURNS = [
    Turn("안녕하세요, 저는 봉수아예요. 남편 탁민규랑 서울 생활 접고 제주 애월에 작은 게스트하우스를 열려고 준비 중이에요. 챙길 게 너무 많아서 여기다 적어 둘게요.", "반가워요! 편하게 적어 주세요. 오픈 준비에 필요한 번호나 날짜는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("농어촌민박 신고번호는 제2024-117호로 나왔어요.", "적어 뒀어요. 신고증은 손님 눈에 잘 띄는 곳에 붙여 두셔야 해요."),
    Turn("민박 신고할 때 소화기 말고 갖춰야 하는 시설이 또 있어요?", "객실마다 단독경보형 감지기, 그리고 일산화탄소 경보기가 필요해요. 건물 규모에 따라 기준이 달라지니 읍사무소에서 체크리스트를 받아 보시는 게 정확해요."),
    Turn("인테리어는 육태섭 사장님이 맡아 주셨어요. 번호는 010-4827-3360이에요.", "적어 뒀어요. 하자 보수 기간도 계약서에 적혀 있는지 한 번 확인해 두세요."),
    Turn("인테리어 끝난 지 한 달인데 욕실 타일 줄눈이 벌써 까맣게 변했어요. 어떻게 해요?", "곰팡이일 가능성이 커요. 락스를 희석해서 칫솔로 닦아 보고, 그래도 안 지워지면 줄눈 보수제를 덧바르세요. 샤워 후 환풍기를 30분 이상 돌리는 게 제일 중요해요."),
    Turn("이불이랑 수건 세탁은 황보영선 대표님 업체에 맡기기로 했어요. 010-5519-7082예요.", "알겠어요. 수거하고 배송하는 요일을 미리 정해 두시면 체크아웃 많은 날도 편해요."),
    Turn("수건에서 쉰내가 나는데 세탁할 때 뭘 넣으면 좋아요?", "과탄산소다를 조금 넣고 뜨거운 물로 빨아 보세요. 빨래가 끝나면 바로 꺼내서 완전히 말리는 게 냄새를 막는 핵심이에요."),
    Turn("객실 와이파이 비밀번호는 halla2580으로 바꿨어요.", "적어 뒀어요. 객실 안내문이랑 냉장고 자석 메모에도 같이 적어 두시면 손님들이 안 물어봐요."),
    Turn("와이파이가 2층 끝 방까지 잘 안 터져요. 공유기를 하나 더 사야 돼요?", "메시 와이파이로 바꾸거나 중계기를 복도 중간에 두면 대부분 해결돼요. 새 공유기를 따로 두면 이름이 두 개가 돼서 손님들이 헷갈려해요."),
    Turn("가오픈은 7월 12일로 잡았어요. 지인들만 먼저 재워 보려고요.", "좋은 생각이에요. 불편한 점을 솔직하게 적어 달라고 설문지를 하나 준비해 두세요."),
    Turn("가오픈 때 지인들한테 숙박비를 받아도 돼요, 아니면 그냥 무료로 해요?", "보통은 청소비 정도만 받거나 무료로 하고 솔직한 후기를 부탁해요. 대신 예약 플랫폼에 후기를 남겨 달라고 하면 오픈 초기에 큰 도움이 돼요."),
    Turn("소방 점검은 6월 27일 오전에 나온대요.", "적어 뒀어요. 전날까지 감지기 배터리랑 소화기 압력 게이지를 한 번씩 확인해 두세요."),
    Turn("소화기는 객실마다 하나씩 둬야 돼요? 점검 때 주로 뭘 봐요?", "객실마다 두는 게 원칙이고, 점검 때는 감지기 작동, 소화기 압력, 피난 안내도, 비상구 표시를 주로 봐요. 복도에 짐을 쌓아 두지 않는 것도 중요해요."),
    Turn("독채 요금은 주중 1박에 128,000원으로 정했어요.", "알겠어요. 성수기에는 주변 숙소 가격을 보고 조금 올려도 괜찮아요."),
    Turn("주말 요금은 주중보다 얼마나 더 받는 게 보통이에요?", "제주는 보통 20~30% 정도 더 받아요. 연휴나 여름 성수기에는 따로 요금을 정해 두시는 게 좋아요."),
    Turn("보일러는 기름보일러라 등유를 한 번에 500리터씩 넣어요.", "적어 뒀어요. 겨울 성수기 전에 탱크를 가득 채워 두면 한파 때 배달이 밀려도 걱정이 없어요."),
    Turn("등유 값이 요즘 너무 올랐는데 보일러 기름 아끼는 방법 있어요?", "외출 모드 대신 온도를 조금 낮춰서 계속 켜 두는 게 오히려 덜 들어요. 창문 틈에 문풍지를 붙이고, 빈 객실은 밸브를 잠가 두세요."),
    Turn("사업자 통장은 제주은행 700-13-069153예요. 예약금은 여기로 받아요.", "적어 뒀어요. 개인 통장과 섞이지 않게 예약금은 꼭 이 계좌로만 받으세요."),
    Turn("제주은행이랑 시중은행 중에 사업자 대출은 어디가 나아요?", "지역 은행은 지역 소상공인 지원 상품이 있어서 금리가 유리한 경우가 많아요. 두세 군데 상담을 받아 보고 중도상환수수료까지 비교하세요."),
    Turn("방 이름은 1호실 동백, 2호실 수국, 3호실 억새로 정했어요.", "예쁜 이름이네요. 문패를 나무로 만들어 달면 사진 찍는 손님도 많을 거예요."),
    Turn("객실 이름을 꽃 이름으로만 지으면 너무 흔할까요?", "흔하긴 해도 제주 느낌이 나면 오히려 기억에 잘 남아요. 이름마다 짧은 이야기를 안내문에 적어 두면 특별해져요."),
    Turn("공항 픽업용으로 산 중고 스타리아는 172머 6048이에요.", "적어 뒀어요. 보험은 업무용으로 되어 있는지 꼭 확인하세요."),
    Turn("렌터카 말고 우리 차로 손님 픽업해 주면 따로 신고해야 돼요?", "돈을 받고 태우면 유상운송이라 문제가 될 수 있어요. 숙박 손님에게 무료로 해 드리는 건 괜찮지만, 픽업비를 따로 받는 건 피하세요."),
    Turn("조식 빵은 매주 화요일에 밀물베이커리에서 받아 와요.", "알겠어요. 냉동해 두고 아침마다 데워서 내시면 일주일 내내 신선하게 드실 수 있어요."),
    Turn("조식을 간단하게 하고 싶은데 손님들이 제일 좋아하는 메뉴가 뭐예요?", "갓 구운 빵, 귤 주스, 요거트랑 과일 정도면 만족도가 높아요. 제주 귤잼이나 현지 재료를 하나 넣으면 후기에 자주 언급돼요."),
    Turn("고민이 하나 있어요. 오픈하고 첫 겨울을 어떻게 버틸지 모르겠어요. 비수기에는 손님이 확 준다는데, 남편은 겨울 두 달 동안 아예 문을 닫고 리모델링을 더 하자고 하고, 저는 장기 숙박 할인을 해서라도 열어 두고 싶어요. 대출 이자는 매달 나가고, 아이는 없어서 우리 둘이 쉬는 시간도 필요하긴 해요. 어떻게 정하면 좋을까요?", "두 달 동안 문을 열었을 때 예상 매출과 드는 비용(난방, 세탁, 인건비)을 표로 비교해 보세요. 한 달 살기 손님을 받는 중간안도 있어요. 예를 들어 12월은 장기 숙박 할인으로 열고, 1월은 보수 공사와 휴식에 쓰면 이자도 일부 메우고 둘이 쉴 시간도 생겨요."),
    Turn("귤 따기 체험은 어디서 하는 게 좋아요?", "서귀포 쪽 감귤 농장이 많고, 11월부터 1월까지가 제철이에요. 가위랑 바구니를 빌려주는 곳이 대부분이라 빈손으로 가도 돼요."),
    Turn("인스타그램 계정 키우려면 어떤 사진을 올려야 돼요?", "공간 전체보다 창밖 풍경, 조식 테이블, 햇빛 드는 창가처럼 분위기가 보이는 사진이 반응이 좋아요. 같은 색감으로 꾸준히 올리는 게 중요해요."),
    Turn("제주 바람이 세서 빨래가 자꾸 날아가요.", "집게를 두 개씩 쓰고 바람 방향과 나란하게 널어 보세요. 바람이 너무 센 날은 실내 건조대에 제습기를 같이 돌리는 게 나아요."),
    Turn("남편이랑 일을 같이 하니까 자꾸 싸워요. 어떻게 해요?", "역할을 분명히 나눠 보세요. 예를 들어 예약과 손님 응대는 한 사람, 시설과 돈 관리는 다른 사람이 맡는 식으로요. 일 얘기는 하루에 한 번 정해진 시간에만 하는 것도 도움이 돼요."),
    Turn("고사리 장마가 뭐예요?", "4월 말에서 5월 초에 제주에 자주 내리는 비를 말해요. 이 비를 맞고 고사리가 쑥쑥 자란다고 해서 그렇게 불러요."),
    Turn("제주 사투리 몇 개만 알려줘요. 동네 분들이랑 친해지고 싶어요.", "\"혼저 옵서예\"는 어서 오세요, \"고맙수다\"는 고맙습니다, \"하영\"은 많이라는 뜻이에요. 어르신들께 먼저 인사로 써 보시면 좋아하세요."),
    Turn("개업 떡 돌릴 때 이웃집에 뭐라고 인사하면 좋아요?", "\"이번에 옆에 작은 숙소를 열게 된 봉수아입니다. 오가는 손님들 때문에 불편하신 점 있으면 언제든 말씀해 주세요.\" 정도면 정중하고 좋아요."),
    Turn("부가세 신고는 1년에 몇 번 해요?", "간이과세자는 1년에 한 번, 일반과세자는 1년에 두 번 신고해요. 매출 규모에 따라 어느 쪽인지 정해지니 세무서에 한 번 확인하세요."),
    Turn("해녀 체험 같은 거 손님들한테 추천해도 돼요?", "네, 여러 마을 어촌계에서 체험 프로그램을 운영해요. 날씨와 물때에 따라 취소될 수 있으니 미리 예약하라고 안내해 주세요."),
    Turn("게스트하우스 이불은 무슨 색이 좋아요?", "흰색이 깨끗해 보이고 표백하기도 쉬워서 제일 많이 써요. 포인트로 쿠션이나 담요만 색을 넣으면 사진도 예쁘게 나와요."),
    Turn("오름 중에 아침 일찍 가기 좋은 곳 있어요?", "새별오름이나 금오름이 애월에서 가깝고 오르기도 쉬워요. 해 뜨기 전에 출발하면 사람도 적고 경치도 좋아요."),
    Turn("손님이 밤늦게 시끄럽게 하면 어떻게 말해요?", "\"다른 손님들이 쉬고 계셔서 열 시 이후에는 조금만 조용히 부탁드릴게요\"처럼 짧고 부드럽게 말씀하세요. 입실할 때 안내문으로 미리 알려 두면 훨씬 덜 생겨요."),
    Turn("택배가 섬이라 너무 늦게 와요. 방법 없어요?", "제주 도착 보장 옵션이 있는 판매처를 고르거나, 급한 건 도내 업체에서 사는 게 나아요. 묶음으로 한 번에 주문하면 추가 배송비도 아낄 수 있어요."),
    Turn("습기 때문에 벽지가 자꾸 들떠요.", "제습기를 돌리고 가구를 벽에서 한 뼘 정도 띄워 두세요. 곰팡이가 생겼으면 벽지를 떼고 방수 처리를 한 뒤에 다시 바르는 게 확실해요."),
    Turn("고양이 한 마리 입양하고 싶은데 숙소에서 키워도 될까요?", "알레르기 있는 손님이 있어서 객실에는 못 들어가게 하고, 예약 페이지에 고양이가 있다고 미리 적어 두는 게 좋아요."),
    Turn("제주 흑돼지 맛집 하나만 추천해 줘요.", "관광객이 많은 거리보다 동네 사람들이 가는 곳이 좋아요. 이웃 분들께 단골집을 여쭤보면 실패가 없어요."),
    Turn("요즘 허리가 아파요. 침대 시트 가는 게 일이라서요.", "시트를 갈 때 허리를 숙이지 말고 무릎을 꿇고 하세요. 매트리스 모서리를 들 때는 양손으로 몸 가까이 붙여서 드는 게 안전해요."),
    Turn("비 오는 날 손님들한테 추천할 실내 장소 있어요?", "아쿠아플라넷, 본태박물관, 빛의 벙커가 인기가 많아요. 숙소 근처 북카페 목록을 하나 만들어 두면 손님들이 좋아해요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "2024-117", {"keyword": "농어촌민박 신고번호 뭐였지?", "paraphrase": "시골에서 숙박업 하려고 관청에 낸 서류 번호 알려줘", "endings": "농어촌민박은 신고번호가 어떻게 돼?"}),
        (4, "010-4827-3360", {"keyword": "인테리어 사장님 번호 뭐였지?", "paraphrase": "우리 집 고쳐 주신 분한테 전화하려면 어떻게 해?", "endings": "육태섭 사장님한테 연락하려면 번호가 뭐야?"}),
        (6, "010-5519-7082", {"keyword": "세탁 업체 대표님 번호 알려줘", "paraphrase": "침구랑 타월 빨아 주는 곳 연락처가 뭐였지?", "endings": "황보영선 대표님은 전화가 몇 번이었지?"}),
        (8, "halla2580", {"keyword": "객실 와이파이 비밀번호 뭐였지?", "paraphrase": "손님들 인터넷 연결할 때 치는 암호가 뭐야?", "endings": "객실에서 쓰는 와이파이 비밀번호가 뭐였더라?"}),
        (10, "7월 12일", {"keyword": "가오픈 언제로 잡았지?", "paraphrase": "아는 사람들 불러서 미리 묵게 하는 날이 며칠이었지?", "endings": "가오픈이 언제였지?"}),
        (12, "6월 27일", {"keyword": "소방 점검 언제 나온다고 했지?", "paraphrase": "불 날 때 대비하는 설비 확인하러 공무원 오는 날이 언제야?", "endings": "소방 점검이 언제라고 했지?"}),
        (14, "128,000원", {"keyword": "독채 주중 요금 얼마로 정했지?", "paraphrase": "평일에 집 한 채 통째로 빌리면 하룻밤 얼마 받기로 했지?", "endings": "독채는 주중에 요금이 얼마야?"}),
        (16, "500리터", {"keyword": "등유 한 번에 몇 리터 넣지?", "paraphrase": "난방 연료 채울 때 얼마만큼 주문하더라?", "endings": "기름보일러에 등유는 몇 리터씩 넣어?"}),
        (18, "700-13-069153", {"keyword": "사업자 통장 계좌 뭐였지?", "paraphrase": "손님들이 미리 돈 부치는 데가 어디였지?", "endings": "예약금을 받는 통장이 어느 거였지?"}),
        (20, "억새", {"keyword": "3호실 이름 뭐로 정했지?", "paraphrase": "세 번째 손님방은 뭐라고 부르기로 했더라?", "endings": "3호실은 이름이 뭐야?"}),
        (22, "172머 6048", {"keyword": "픽업용 스타리아 번호 뭐였지?", "paraphrase": "비행기 타고 온 손님 실어 나르는 승합차 번호판이 어떻게 돼?", "endings": "스타리아 번호판이 뭐였지?"}),
        (24, "밀물베이커리", {"keyword": "조식 빵 어디서 받아 오지?", "paraphrase": "손님들 아침에 내는 베이글이랑 식빵 사 오는 가게가 어디였지?", "endings": "조식에 나가는 빵은 어디서 받아?"}),
    ],
    [
        ("세탁소 대표님 전화번호 뭐였지?", 6, 4),
        ("소방서에서 오는 날 며칠이었지?", 12, 10),
        ("예약금 받는 계좌번호 알려줘", 18, 2),
        ("공항 가는 차 번호 뭐였지?", 22, 18),
    ],
    [
        "좋은 아침이에요!",
        "고마워요, 진짜 큰 도움 됐어요",
        "ㅋㅋㅋ 맞아요",
        "미역국 맛있게 끓이는 법 알려줘요",
        "저 요즘 요가 다니기 시작했어요",
        "엄마 환갑 축하 카드 문구 좀 써 줄래요?",
        "왜 귤은 겨울에 더 맛있어요?",
        "왜 하품은 옮아요?",
        "한라산 높이가 몇 미터예요?",
        "비 오는 날 듣기 좋은 노래 추천해 줘요",
    ],
)


# --- 3. Mixed Korean/English: 대학병원 약제부 약사의 업무 메모와 잡담 --------------------------------------------------

_MX_TURNS = [
    Turn("안녕하세요, 대학병원 약제부 3년차 약사 변다온이에요. 요즘 ward 업무랑 당직이 겹쳐서 정신이 없어서 여기 메모해 둘게요.", "반가워요. 편하게 적어 주세요. 내선이나 일정, 코드 같은 건 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("ICU satellite pharmacy 내선은 6284예요.", "적어 뒀어요. 야간에는 그쪽으로 전화가 몰릴 테니 자주 쓰는 번호 목록에 넣어 두세요."),
    Turn("satellite pharmacy에서 밤에 혼자 verification 하면 실수할까 봐 무서워요. 팁 있어요?", "high-alert 약물은 체크리스트로 두 번 보고, 애매한 처방은 혼자 판단하지 말고 처방의에게 바로 확인하세요. 새벽 세 시 전후가 제일 실수가 많으니 그 시간엔 속도를 일부러 늦추는 게 좋아요."),
    Turn("감염내과 제갈윤 교수님 PHS는 8817이에요. vanco 용량 물어볼 때 연락하래요.", "알겠어요. 연락드리기 전에 체중, 신기능, 최근 level을 정리해 두면 통화가 짧아져요."),
    Turn("vancomycin을 AUC 기반으로 dosing 하자는데 trough랑 뭐가 달라요?", "trough는 한 시점 농도만 보지만 AUC는 하루 동안의 전체 노출을 봐서 신독성을 더 잘 줄여요. 보통 level 두 개를 재서 Bayesian 프로그램이나 공식으로 계산해요."),
    Turn("우리 병원 vancomycin AUC target은 400-600으로 정해졌어요.", "적어 뒀어요. 중증 감염이면 상한 쪽, 신기능이 나쁘면 하한 쪽으로 보시는 경우가 많아요."),
    Turn("AUC 계산은 엑셀로 해도 되나요, 아니면 프로그램 써야 돼요?", "두 점 공식으로 엑셀도 가능하지만, 병원에서 검증된 Bayesian 프로그램이 있으면 그걸 쓰는 게 안전해요. 엑셀을 쓸 거면 수식을 약제부에서 한 번 검토받으세요."),
    Turn("TPN 조제 의뢰 마감은 매일 오후 1시 40분이에요.", "알겠어요. 그 뒤에 들어오는 건 다음 날로 넘어가니 병동에도 공지가 돼 있는지 확인해 보세요."),
    Turn("TPN에 lipid 넣을 때 filter 써야 돼요?", "3-in-1 TPN이면 1.2 micron filter를 쓰고, lipid를 따로 줄 때도 같은 규격을 쓰는 게 일반적이에요. 0.22 micron은 lipid 입자가 걸려서 안 돼요."),
    Turn("마약류 금고 예비 열쇠는 국혜란 팀장님 책상 세 번째 서랍에 있어요.", "적어 뒀어요. 열쇠를 꺼낼 때마다 관리 대장에 기록하는 것 잊지 마세요."),
    Turn("마약류 재고 실사할 때 숫자가 안 맞으면 어떻게 해요?", "먼저 처방, 반납, 폐기 기록을 다시 맞춰 보고, 그래도 차이가 나면 바로 팀장님께 보고하세요. 사고 보고는 기한이 정해져 있어서 미루면 안 돼요."),
    Turn("5병동 Pyxis ADC 교체는 8월 4일로 잡혔어요.", "알겠어요. 교체 전날 재고를 정리하고 간호사 대상 교육 일정도 같이 잡아 두세요."),
    Turn("ADC에서 override로 꺼낸 약은 약사가 언제 확인해요?", "응급으로 꺼낸 건 사후에 약사가 처방과 맞는지 검토해요. 보통 24시간 안에 override 리포트를 보고, 처방이 없는 건은 병동에 확인하죠."),
    Turn("약사위원회 formulary 심의는 9월 18일에 열려요.", "적어 뒀어요. 신청 자료는 보통 한 달 전에 마감되니 일정 확인해 보세요."),
    Turn("formulary에 신약 올리려면 어떤 자료가 필요해요?", "효과와 안전성 근거, 기존 약과의 비용 비교, 사용 예상 환자 수, 대체 가능한 약이 있는지를 정리해요. 요청한 과의 의견서도 같이 내는 경우가 많아요."),
    Turn("chemo 조제는 BSC 2번 cabinet에서만 해요. 1번은 항생제 전용이에요.", "알겠어요. 두 cabinet 앞에 용도 표시를 크게 붙여 두면 새로 온 분들도 안 헷갈려요."),
    Turn("BSC 안에서 작업하다가 spill 나면 순서가 어떻게 돼요?", "작업을 멈추고 spill kit를 꺼내 보호구를 추가로 착용한 다음, 흡수 패드로 바깥에서 안쪽으로 닦아요. 폐기물은 항암 폐기물 용기에 넣고, 사고 기록을 남기세요."),
    Turn("EMR에서 DUR alert override 사유 코드는 OV-12예요.", "적어 뒀어요. 사유를 자유 입력으로 남기면 나중에 통계에서 빠지니 코드를 꼭 쓰세요."),
    Turn("DUR alert가 너무 많이 떠서 의사들이 다 무시해요. 줄일 방법 있어요?", "임상적으로 의미 없는 alert를 골라 등급을 낮추거나 끄는 게 첫 단계예요. 최근 몇 달 override 비율이 높은 alert부터 약사위원회에 올려 보세요."),
    Turn("제 약사 면허번호는 47520이에요.", "적어 뒀어요. 학회 등록이나 보수교육 신청할 때 자주 필요할 거예요."),
    Turn("약사 면허 신고는 몇 년마다 해요? 보수교육 시간도 헷갈려요.", "면허 신고는 3년마다 하고, 보수교육은 매년 정해진 시간을 채워야 해요. 약사회 사이트에서 이수 시간을 확인할 수 있어요."),
    Turn("다음 달 야간 당직은 13일이랑 27일이에요.", "알겠어요. 당직 다음 날 일정은 비워 두시는 게 좋겠어요."),
    Turn("야간 당직 끝나고 바로 자면 오히려 더 피곤해요. 어떻게 자야 돼요?", "퇴근하고 두세 시간만 짧게 자고 일어나서 햇빛을 쬐세요. 밤에 평소 시간에 자야 다음 날 리듬이 돌아와요."),
    Turn("병원약사회 학술대회 포스터 번호는 P-318이에요.", "적어 뒀어요. 발표 시간에 맞춰 포스터 앞에 서 있어야 하는지도 안내 메일에서 확인해 보세요."),
    Turn("학술대회 포스터 사이즈는 보통 어떻게 돼요?", "A0 세로형이 가장 흔하지만 학회마다 달라요. 안내문에 나온 규격을 꼭 확인하고, 글씨는 멀리서도 읽히게 본문 24pt 이상으로 하세요."),
    Turn("요즘 진로 고민이 있어요. 병원에 계속 있으면서 임상약학 전문약사를 딸지, 제약회사 medical affairs로 옮길지 모르겠어요. 연봉은 회사가 훨씬 많은데, 환자 보는 일이 좋아서 약사가 된 거라 아쉬울 것 같아요. 당직 때문에 체력도 떨어지고 있고요. 뭘 기준으로 정하면 좋을까요?", "5년 뒤에 어떤 하루를 보내고 싶은지부터 구체적으로 적어 보세요. 전문약사를 따면 나중에 회사로 옮길 때도 강점이 되니 순서를 정하는 것도 방법이에요. 회사 쪽은 실제로 일하는 선배에게 하루 일과를 물어보고, 체력 문제는 병원 안에서 당직이 적은 부서로 옮기는 길도 있는지 확인해 보세요."),
    Turn("점심 뭐 먹죠? 병원 식당 메뉴가 또 카레예요.", "근처 국수집이나 김밥 어떠세요? 시간이 없으면 편의점 샐러드에 삶은 달걀도 든든해요."),
    Turn("Excel에서 날짜별로 색깔 표시하는 법 있어요?", "조건부 서식에서 '날짜 발생'을 고르면 오늘, 이번 주 같은 조건으로 바로 색을 칠할 수 있어요. 더 복잡하면 수식으로 조건을 주면 돼요."),
    Turn("영어 논문 읽는 속도를 올리고 싶어요.", "abstract와 figure부터 보고 결론을 먼저 읽은 다음 필요한 부분만 깊게 읽으세요. 매일 한 편씩 정해 두면 한 달 뒤에 확실히 빨라져요."),
    Turn("후배 약사가 질문을 너무 안 해요. 어떻게 도와줄까요?", "질문 받는 시간을 따로 정해 주고, 먼저 '오늘 헷갈린 거 있었어요?' 하고 물어보세요. 선배가 모르는 걸 찾아보는 모습을 보여주는 것도 도움이 돼요."),
    Turn("환자 복약지도할 때 어르신들이 잘 못 알아들으세요.", "한 번에 두세 가지만 말하고, 큰 글씨로 된 복용표를 드리세요. 마지막에 '어떻게 드시면 되는지 한 번 말씀해 주시겠어요?' 하고 확인하면 효과가 좋아요."),
    Turn("Outlook에서 회의 초대 자동으로 수락하는 설정 있어요?", "리소스 계정이 아니면 기본 기능으로는 없어요. 규칙으로 특정 사람 초대만 폴더로 모을 수는 있지만 수락은 직접 하는 게 안전해요."),
    Turn("서서 일하는 시간이 길어서 다리가 붓는데 어떻게 해요?", "압박 스타킹을 신고, 한 시간마다 까치발 운동을 스무 번 정도 해 보세요. 퇴근 후에는 다리를 심장보다 높게 올리고 쉬세요."),
    Turn("통계 공부를 다시 하고 싶은데 책 추천해 줄래요?", "입문용으로는 '통계학 도감' 같은 그림 많은 책이 좋고, 논문 읽기용으로는 의학통계 입문서를 하나 정해서 예제를 직접 따라 해 보세요."),
    Turn("회의록을 빨리 쓰는 요령 있어요?", "결정된 것, 할 일과 담당자, 다음 일정 세 칸만 미리 만들어 두고 그 칸만 채우세요. 토론 내용을 다 적을 필요는 없어요."),
    Turn("주말에 혼자 갈 만한 조용한 카페 있을까요?", "동네 책방 겸 카페나 미술관 안 카페가 조용한 편이에요. 오전 일찍 가면 어디든 한가해요."),
    Turn("PowerPoint 발표할 때 떨지 않는 법 알려줘요.", "처음 1분 멘트를 외워 두고, 발표 전에 천천히 숨을 내쉬는 호흡을 몇 번 하세요. 청중 중 고개 끄덕이는 사람을 보면서 말하면 훨씬 편해져요."),
    Turn("요즘 카페인을 너무 많이 마셔요. 줄이는 방법 있어요?", "하루 한 잔씩 디카페인으로 바꾸는 식으로 천천히 줄이세요. 갑자기 끊으면 두통이 오기 쉬워요."),
    Turn("동료가 자꾸 제 일을 떠넘겨요. 어떻게 말하죠?", "'지금 맡은 일이 오늘 마감이라 이건 어렵겠어요'처럼 이유와 함께 짧게 거절하세요. 반복되면 업무 분담을 팀장님과 같이 정리하는 자리를 요청하는 게 좋아요."),
    Turn("Teams 회의에서 배경 바꾸는 법 알려줘요.", "회의 들어가기 전 화면에서 '효과 및 아바타'를 누르고 배경을 고르면 돼요. 회의 중에는 더 보기 메뉴에서 바꿀 수 있어요."),
    Turn("손목이 시큰거려요. 타자를 많이 쳐서 그런가요?", "손목을 꺾은 채로 오래 치면 그럴 수 있어요. 키보드 높이를 팔꿈치와 맞추고, 손목 받침대를 써 보세요. 저림이 있으면 진료를 받아 보세요."),
    Turn("유튜브로 약 관련 정보를 올리면 문제 될까요?", "특정 제품 광고처럼 보이거나 진단을 대신하는 내용은 피해야 해요. 일반적인 복용 상식 위주로 하고, 병원 이름은 허락 없이 쓰지 마세요."),
    Turn("저녁에 간단히 할 수 있는 운동 있어요?", "스쿼트, 플랭크, 벽 팔굽혀펴기를 10분씩만 해도 충분해요. 꾸준히 하는 게 강도보다 중요해요."),
    Turn("오늘 너무 힘들었어요.", "고생 많으셨어요. 오늘은 좋아하는 걸 먹고 일찍 쉬세요. 힘든 날이 계속되면 혼자 버티지 말고 주변에 얘기해 보세요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "6284", {"keyword": "ICU satellite 내선 몇 번이죠?", "paraphrase": "중환자실 옆 조제 공간 전화 몇 번이에요?", "endings": "ICU satellite는 내선이 몇 번이에요?"}),
        (4, "8817", {"keyword": "제갈윤 교수님 PHS 번호요?", "paraphrase": "균 잡는 약 dose 상의드릴 선생님 번호 알려줘요", "endings": "제갈윤 교수님한테 연락하려면 PHS가 뭐예요?"}),
        (6, "400-600", {"keyword": "vancomycin AUC target 얼마예요?", "paraphrase": "그 글리코펩타이드 항생제 목표 노출 범위가 어떻게 돼요?", "endings": "vancomycin은 AUC target이 얼마로 정해졌죠?"}),
        (8, "1시 40분", {"keyword": "TPN 의뢰 마감 몇 시예요?", "paraphrase": "정맥 영양 수액 주문 받는 cut-off가 언제죠?", "endings": "TPN 조제 의뢰는 몇 시까지 마감이에요?"}),
        (10, "세 번째 서랍", {"keyword": "마약류 금고 예비 열쇠 어디 있어요?", "paraphrase": "narcotic cabinet spare key는 어디에 보관돼 있죠?", "endings": "마약류 금고의 예비 열쇠가 어디죠?"}),
        (12, "8월 4일", {"keyword": "Pyxis 교체 언제예요?", "paraphrase": "병실 층 자동 약 보관 기계 바꾸는 날이 며칠이죠?", "endings": "Pyxis ADC를 교체하는 날이 언제예요?"}),
        (14, "9월 18일", {"keyword": "약사위원회 언제 열려요?", "paraphrase": "병원에서 쓸 약 목록 새로 넣고 빼는 회의가 언제죠?", "endings": "약사위원회에서 formulary 심의가 언제예요?"}),
        (16, "2번 cabinet", {"keyword": "chemo 조제 어느 BSC에서 해요?", "paraphrase": "항암제 섞을 때 쓰는 안전 작업대는 몇 번이었죠?", "endings": "chemo 조제할 때 BSC는 몇 번이에요?"}),
        (18, "OV-12", {"keyword": "DUR override 사유 코드 뭐였죠?", "paraphrase": "상호작용 경고 무시하고 진행할 때 입력하는 이유 번호 알려줘요", "endings": "DUR alert override할 때 사유 코드가 뭐예요?"}),
        (20, "47520", {"keyword": "제 약사 면허번호 뭐였죠?", "paraphrase": "보건복지부에서 받은 제 자격 등록 숫자가 뭐였더라?", "endings": "약사 면허번호가 뭐였죠?"}),
        (22, "13일이랑 27일", {"keyword": "다음 달 야간 당직 언제예요?", "paraphrase": "밤에 혼자 병원 지키는 날이 며칠 며칠이었죠?", "endings": "야간 당직이 며칠이에요?"}),
        (24, "P-318", {"keyword": "학술대회 포스터 번호 뭐예요?", "paraphrase": "conference에서 제 발표물 붙이는 자리가 어디였죠?", "endings": "병원약사회에서 제 포스터는 몇 번이에요?"}),
    ],
    [
        ("감염내과에 전화하려면 몇 번이에요?", 4, 2),
        ("formulary 회의 며칠이에요?", 14, 12),
        ("chemo 할 때 쓰는 cabinet 어디였죠?", 16, 10),
        ("포스터 번호 뭐였죠?", 24, 20),
    ],
    [
        "굿모닝입니다 ☕",
        "땡큐요, 덕분에 살았어요",
        "ㅎㅎ 그렇군요",
        "저 요즘 수영 배우기 시작했어요",
        "엑셀 피벗 테이블 만드는 법 알려줘요",
        "동기 결혼 축하 메시지 좀 써 줄래요?",
        "왜 겨울엔 정전기가 많이 생겨요?",
        "왜 커피 마시면 화장실 가고 싶어요?",
        "세계에서 제일 긴 강이 뭐예요?",
        "요즘 볼 만한 Netflix 다큐 추천해 줘요",
    ],
)


# --- 4. Code-heavy: a Rust developer on a ferry-booking API, with shell, file, grep and test tools ----------------

_CODE_TURNS = [
    Turn("Morning, I'm Ottilie. I work on the booking API for Sealark Ferries, Rust with axum. Can you take a look at the repo?", "It's a single Cargo crate with sqlx migrations, integration tests under tests/, a pinned toolchain and a docker-compose file for the local services.", "run_shell", '{"cmd": "ls"}', "Cargo.lock\nCargo.toml\nREADME.md\ndocker-compose.yml\nmigrations\nrust-toolchain.toml\nsrc\ntests"),
    Turn("Local Redis for seat holds runs on port 6381, since 6379 is taken by another project's container.", "Noted. Put the URL in REDIS_URL in your .env so the tests and the server both pick it up."),
    Turn("Run the unit tests.", "All 184 unit tests pass.", "run_tests", '{"cmd": "cargo test --lib"}', "running 184 tests\n........................................\ntest result: ok. 184 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 2.41s"),
    Turn("The API binds to 127.0.0.1:3017 locally; it's set by BIND_ADDR in .env.", "Got it. Keeping it on the loopback address means nothing else on the network can reach your dev server."),
    Turn("Is the API up?", "Yes: the health endpoint answers and reports Redis and Postgres as reachable.", "run_shell", '{"cmd": "curl -s \\"http://$BIND_ADDR/health\\""}', '{"status":"ok","redis":"ok","db":"ok","version":"0.42.0-dev"}'),
    Turn("I'm on branch feat/vehicle-deck-quota.", "Noted. Push it early so CI runs the migration checks on it too."),
    Turn("What's on my branch so far?", "A new quota module with its tests, a migration for lane lengths and a small change to the booking handler; about 240 lines.", "run_shell", '{"cmd": "git diff --stat main"}', " migrations/20240611_vehicle_lanes.sql |  18 +++\n src/booking/handler.rs                 |  23 ++-\n src/booking/quota.rs                   | 121 ++++++++++++++\n tests/quota.rs                         |  82 ++++++++++\n 4 files changed, 238 insertions(+), 6 deletions(-)"),
    Turn("Kwabena's branch for the hold-expiry race is fix/hold-expiry-race.", "Got it. If it changes how holds are stored in Redis, rebase onto it before you touch the quota check."),
    Turn("How would you make taking a seat hold atomic in Redis?", "Use `SET key value NX PX ttl`: it only succeeds if nobody holds the key, and the expiry is set in the same command. For several seats at once, a small Lua script that checks and sets them all runs atomically on the server."),
    Turn("We pin Rust 1.79.0 in rust-toolchain.toml.", "Noted. Use the same toolchain in the CI image, so clippy gives the same warnings everywhere."),
    Turn("Show me the dependencies in Cargo.toml.", "axum and tokio for the server, sqlx for Postgres, the redis crate for holds, lapin for RabbitMQ, the AWS S3 SDK, and tracing for logs.", "read_file", '{"path": "Cargo.toml", "lines": "8-20"}', "[dependencies]\naxum = \"0.7\"\ntokio = { version = \"1\", features = [\"full\"] }\nsqlx = { version = \"=0.7\", features = [\"postgres\", \"runtime-tokio\", \"macros\", \"chrono\"] }\nredis = { version = \"0.25\", features = [\"tokio-comp\"] }\nlapin = \"2\"\naws-sdk-s3 = \"1\"\nserde = { version = \"1\", features = [\"derive\"] }\ntracing = \"0.1\"\nthiserror = \"1\""),
    Turn("sqlx stays on 0.7.4 until we've rewritten the offline query cache.", "Got it. Pinning with `=` in Cargo.toml stops a stray `cargo update` from pulling in the next release."),
    Turn("What does sqlx's offline mode actually do?", "`cargo sqlx prepare` saves the result of checking each `query!` macro against the database into `.sqlx/`. With `SQLX_OFFLINE=true` the macros read those files instead of connecting, so CI can build without a live Postgres."),
    Turn("The bug where return tickets show the outbound crossing time is FRY-431.", "Noted. That usually means the return leg reads the first leg's departure instead of its own."),
    Turn("Where do we format the departure time on a ticket?", "The ticket view takes the departure from `legs[0]` for every leg, which would print the outbound time on the return.", "grep", '{"pattern": "departs_at", "path": "src"}', "src/tickets/view.rs:31:        let departs = booking.legs[0].departs_at;\nsrc/tickets/view.rs:44:    fn format_departure(departs_at: DateTime<Tz>) -> String {\nsrc/booking/model.rs:19:    pub departs_at: DateTime<Utc>,"),
    Turn("The bug where UK customers see prices in euros is FRY-457.", "Got it. Check whether the currency comes from the route or from the customer's account."),
    Turn("Run the pricing tests.", "One failure: a UK account on a Scottish route gets a fare in EUR, which matches the currency bug.", "run_tests", '{"cmd": "cargo test pricing"}', "running 23 tests\ntest pricing::tests::uk_account_pays_in_gbp ... FAILED\n\nfailures:\n---- pricing::tests::uk_account_pays_in_gbp stdout ----\nassertion `left == right` failed\n  left: EUR\n right: GBP\n\ntest result: FAILED. 22 passed; 1 failed; 0 ignored"),
    Turn("Boarding-pass emails go through the RabbitMQ queue boarding_pass.send.", "Noted. Make it durable and publish with persistent delivery, so a broker restart doesn't lose passes."),
    Turn("Where do we publish to RabbitMQ?", "Two places: the booking confirmation and the cancellation notice, both through a shared publisher helper.", "grep", '{"pattern": "basic_publish", "path": "src"}', "src/notify/publisher.rs:27:        .basic_publish(\"\", queue, BasicPublishOptions::default(), &payload, props)\nsrc/booking/confirm.rs:58:    publisher.send(Queue::Confirmation, &confirmation).await?;\nsrc/booking/cancel.rs:33:    publisher.send(Queue::Cancellation, &notice).await?;"),
    Turn("Passenger manifests are uploaded to the S3 bucket sealark-manifests-euw2.", "Got it. Keep it private with encryption at rest; manifests hold names and dates of birth."),
    Turn("How do I give the port office a link to a manifest that expires?", "Build a presigned GET with the S3 SDK: `client.get_object().bucket(b).key(k).presigned(PresigningConfig::expires_in(Duration::from_secs(900))?)`. Anyone with the link can read it until it expires, so keep the time short."),
    Turn("Seat holds expire after nine minutes: SEAT_HOLD_SECS=540 in the env.", "Noted. Show the countdown in the checkout too, so customers aren't surprised when it lapses."),
    Turn("Where do we read the hold timeout?", "The config reads it from the environment with a default of ten minutes, and the hold service passes it to Redis as the key's expiry.", "grep", '{"pattern": "SEAT_HOLD_SECS|hold_secs", "path": "src"}', "src/config.rs:18:    seat_hold_secs: env_u64(\"SEAT_HOLD_SECS\", 600)?,\nsrc/holds/service.rs:41:            .arg(\"PX\").arg(self.cfg.seat_hold_secs * 1000)"),
    Turn("The Grafana dashboard for the booking API has uid sealark-api-golden.", "Got it. Link it from the on-call runbook so whoever is paged finds it first."),
    Turn("What are the four golden signals?", "Latency, traffic, errors and saturation: how long requests take, how many there are, how many fail, and how full your resources are."),
    Turn("Bigger question. Each ferry has a vehicle deck measured in lane metres, and cars, vans, motorhomes and lorries take different lengths. Agents at the port and the website sell at the same time, the last few metres go in a rush before holidays, and we've oversold twice this year. Some sailings also keep a reserve for emergency vehicles. How would you model and enforce the quota so it can't be oversold, without making every booking wait on a global lock?", "Keep the authoritative capacity per sailing in Postgres as a row with used and reserved metres, and take space with a single conditional update: `UPDATE deck SET used = used + $len WHERE sailing = $id AND used + $len <= capacity - reserve RETURNING used`. If no row comes back, it's full. That's atomic per sailing, so bookings on different sailings never wait on each other. Use Redis holds only as a short-lived courtesy during checkout, with the database update as the final word, and release the reserve to the emergency service by a separate, audited path."),
    Turn("Run the whole suite.", "One failure, the pricing test you already know about; everything else passes.", "run_tests", '{"cmd": "cargo test"}', "running 184 tests\ntest result: ok. 184 passed; 0 failed\n\n     Running tests/api.rs\nrunning 61 tests\ntest result: ok. 61 passed; 0 failed\n\n     Running tests/pricing.rs\ntest result: FAILED. 22 passed; 1 failed"),
    Turn("What's the difference between Arc<Mutex<T>> and Arc<RwLock<T>>?", "A Mutex lets one holder in at a time; an RwLock allows many readers or one writer. RwLock helps only when reads vastly outnumber writes and are held for a while; otherwise a Mutex is simpler and often faster."),
    Turn("Run clippy.", "Two warnings: a needless clone in the fare calculation and a large error variant that could be boxed.", "run_shell", '{"cmd": "cargo clippy --all-targets -- -D warnings"}', "error: redundant clone\n  --> src/pricing/fare.rs:52:29\n   |\n52 |         let route = route.clone();\n\nerror: the `Err`-variant returned from this function is very large\n  --> src/booking/handler.rs:88:10\n\nerror: could not compile `sealark-api` (lib) due to 2 previous errors"),
    Turn("Write a commit message for the currency fix.", "\"pricing: take the currency from the customer's account, not the route, so UK customers are charged in pounds on every crossing\"."),
    Turn("Show me the router.", "Five routes: health, fares, bookings, holds and tickets, with the booking routes behind the auth layer.", "read_file", '{"path": "src/routes/mod.rs", "lines": "1-14"}', "pub fn router(state: AppState) -> Router {\n    let booking = Router::new()\n        .route(\"/bookings\", post(bookings::create))\n        .route(\"/bookings/:id\", get(bookings::show).delete(bookings::cancel))\n        .route(\"/holds\", post(holds::create))\n        .layer(from_fn_with_state(state.clone(), auth::require));\n    Router::new()\n        .route(\"/health\", get(health))\n        .route(\"/fares\", get(fares::quote))\n        .route(\"/tickets/:id\", get(tickets::show))\n        .merge(booking)\n        .with_state(state)\n}"),
    Turn("How do I stop background tokio tasks cleanly on shutdown?", "Share a `CancellationToken` from tokio-util: each task selects on `token.cancelled()` next to its work, and the shutdown handler cancels the token and awaits the tasks' JoinHandles with a timeout."),
    Turn("Are the compose services healthy?", "All three are up and report healthy.", "run_shell", '{"cmd": "docker compose ps --format \\"{{.Name}} {{.Status}}\\""}', "sealark-postgres-1 Up 2 hours (healthy)\nsealark-redis-1 Up 2 hours (healthy)\nsealark-rabbitmq-1 Up 2 hours (healthy)"),
    Turn("Explain Send and Sync simply.", "`Send` means a value can be moved to another thread; `Sync` means it can be shared by reference between threads. `Rc` is neither, `Arc<T>` is both when T is, and a `Mutex` makes its contents Sync."),
    Turn("Which migrations have run?", "All but the lane-length migration from your branch, which is still pending.", "run_shell", '{"cmd": "sqlx migrate info"}', "20240302_initial_schema (installed)\n20240419_add_fare_classes (installed)\n20240527_ticket_legs (installed)\n20240611_vehicle_lanes (pending)"),
    Turn("Suggest a name for a module that works out fares.", "`pricing::fare` is clear, or `tariff` if the business already uses that word for its price tables."),
    Turn("Find the TODOs in src.", "Three TODOs: retrying failed publishes, paging the bookings list and caching fare tables.", "grep", '{"pattern": "TODO", "path": "src"}', "src/notify/publisher.rs:31:        // TODO retry with backoff when the channel is closed\nsrc/booking/list.rs:12:    // TODO page by departure instead of loading every booking\nsrc/pricing/fare.rs:8:// TODO cache fare tables per route for a minute"),
    Turn("How do I profile a slow endpoint in Rust?", "Add `tracing` spans around the suspect steps and look at their timings, then run `cargo flamegraph` against a load test to see where the CPU goes. For database time, log sqlx's slow-statement warnings."),
    Turn("How big is the target folder?", "Nearly 9 GB, mostly old debug builds; `cargo clean` would free it, or `cargo sweep` to keep only recent ones.", "run_shell", '{"cmd": "du -sh target/*"}', "7.6G\ttarget/debug\n1.2G\ttarget/release\n12K\ttarget/CACHEDIR.TAG"),
    Turn("thiserror or anyhow?", "`thiserror` for library code and anything callers match on, since it gives you typed errors; `anyhow` for application edges like main or CLI commands, where you just want context and a message."),
    Turn("I took the currency from the account instead of the route. Rerun the pricing tests.", "All 23 pricing tests pass now.", "run_tests", '{"cmd": "cargo test pricing"}', "running 23 tests\n.......................\ntest result: ok. 23 passed; 0 failed; 0 ignored; 0 measured; finished in 0.38s"),
    Turn("Give me a checklist before a release.", "Green CI, migrations reviewed for long locks, the changelog written, dashboards open, a rollback plan, and someone around for the hour after it goes out."),
    Turn("How do I undo my last local commit but keep the changes?", "`git reset --soft HEAD~1` moves the branch back one commit and leaves the changes staged; use `--mixed` if you want them unstaged."),
    Turn("What's a good crate for parsing command-line arguments?", "`clap` with its derive feature: you describe the arguments as a struct and it generates parsing, help text and errors."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "6381", {"keyword": "What port is local Redis on?", "paraphrase": "Remind me where the in-memory cache for reserved places listens on my machine."}),
        (4, "3017", {"keyword": "What port does the API bind to locally?", "paraphrase": "What do I put in the browser's address bar to poke the HTTP server by hand?"}),
        (6, "feat/vehicle-deck-quota", {"keyword": "Which branch am I on right now?", "paraphrase": "Where do my changes for capping cars on each boat live in git?"}),
        (8, "fix/hold-expiry-race", {"keyword": "What's Kwabena's branch called?", "paraphrase": "Where's my colleague's patch for the timing bug when reservations lapse?"}),
        (10, "1.79.0", {"keyword": "Which Rust version do we pin?", "paraphrase": "What compiler release are we held on?"}),
        (12, "0.7.4", {"keyword": "Which sqlx version are we staying on?", "paraphrase": "What release of the database crate are we stuck with for now?"}),
        (14, "FRY-431", {"keyword": "What's the ticket for the return tickets bug?", "paraphrase": "Which issue covers the homeward journey displaying the wrong departure hour?"}),
        (16, "FRY-457", {"keyword": "What's the ticket for prices in euros?", "paraphrase": "Which issue is about folks in Britain being charged in the wrong currency?"}),
        (18, "boarding_pass.send", {"keyword": "Which RabbitMQ queue do boarding-pass emails go to?", "paraphrase": "Where do the messages that mail travellers their gate documents get published?"}),
        (20, "sealark-manifests-euw2", {"keyword": "Which S3 bucket do the manifests go to?", "paraphrase": "Where do we keep the lists of who's aboard each crossing?"}),
        (22, "SEAT_HOLD_SECS=540", {"keyword": "How long do seat holds last?", "paraphrase": "How many seconds does a reservation stay reserved before it's released?"}),
        (24, "sealark-api-golden", {"keyword": "What's the Grafana dashboard uid?", "paraphrase": "Where do I watch the graphs for our service's health?"}),
    ],
    [
        ("Which port do I point curl at to try the endpoints?", 4, 2),
        ("Which branch is Kwabena on?", 8, 6),
        ("Which version is sqlx held at?", 12, 10),
        ("What's the ticket for the currency bug?", 16, 14),
    ],
    [
        "morning, slow start today",
        "thanks, that's sorted then",
        "How do I centre a div vertically in CSS?",
        "I'm running a half marathon on Sunday.",
        "Write a haiku about a lighthouse in fog.",
        "Why is the ocean blue?",
        "Why do planes leave white trails?",
        "When did the first person walk in space?",
        "lol fair enough",
        "Can you recommend a good ergonomic chair?",
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
