# ruff: noqa: E501, E402
"""A third held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the three sets. The dataclasses, :func:`questions`, the
comparison keys and the per-conversation checks are that module's own, imported here, so every set is held to one
rule book. Sets 1 and 2 were used while recall was tuned; this one was written afterwards, for reporting.

Four new conversations with other people, subjects and facts: ``english`` (a night-shift nurse renovating her kitchen,
training for a half marathon and getting her dad through a hip replacement), ``korean`` (someone in their thirties
planning a wedding while studying for a certificate exam), ``mixed`` (a data engineer at a delivery start-up, Korean
with English work words) and ``code`` (a Go developer on a sensor-ingest service, with tool calls and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words ("how do I get hold of the
lady handling our wiring?"), look-alikes where the other words pick one of two facts of a kind (two phone numbers,
two dates, two ports, two branches), and unrelated questions of every sort, from "good morning!" to a how-to that
shares common words with filler turns.
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

#: the people and pets this set names, so a test can hold that sets 1 and 2 name none of them
PEOPLE = ("Declan Moss", "Ines Alvarado", "Pistachio", "윤서하", "태민", "정민호", "오세린", "Marta")

# fmt: off
# (the data keeps one turn and one fact per line)

# --- 1. English: a night-shift nurse with a kitchen renovation, a half marathon and her dad's new hip ------------

_EN_TURNS = [
    Turn("Hi! Heads up, the next couple of months are a mess: kitchen reno, Dad's surgery, and I signed up for a race. I'll jot things here between shifts.", "That's a lot at once. Drop things in whenever you have a minute and I'll help you keep them straight."),
    Turn("Our contractor for the kitchen is Declan Moss, cell 604-555-0176. He'd rather get a text, he's on site all day.", "Noted. Texting a contractor with photos of whatever you're asking about usually gets a faster and clearer answer."),
    Turn("Is it normal for a contractor to want half the money up front before any work starts?", "It's a red flag in many places. A deposit of 10 to 30 percent is common, with the rest tied to milestones like demolition done or cabinets installed. Some provinces and states cap deposits by law, so it's worth checking yours."),
    Turn("Dad's hip replacement is booked for November 14 at St. Brigid's, check-in 6:45 am.", "Got it. Early check-ins usually mean he's first on the list, which is good; ask the ward whether he can bring his own slip-on shoes and a grabber."),
    Turn("Dad keeps saying he's too old to 'get a new hip'. How long is recovery at 78, honestly?", "Most people walk with a frame the day after surgery and with a cane within a few weeks. At 78 a full recovery often takes three to six months, and people who do their exercises faithfully do noticeably better."),
    Turn("The electrician is Ines Alvarado, 604-555-0139, she's doing the under-cabinet lights and the new circuit for the induction hob.", "Noted. An induction hob usually needs its own dedicated circuit, so it's good she's on it before the counters go in."),
    Turn("Why do LED strip lights flicker when they're on a dimmer?", "Most often the dimmer was made for old incandescent bulbs and can't handle the low load of LEDs. A dimmer rated for LEDs, or a driver that's dimmable, usually stops the flicker."),
    Turn("Signed up! The Harbourfront Half Marathon is November 23, I'm in the second wave.", "Congratulations! That gives you a clear target to build up to."),
    Turn("What's the difference in training for a road half versus a 21K trail race?", "Same distance, different demands. Trail races need more climbing, slower easy miles and ankle strength, and pace matters less than time on feet. Road halves reward steady pace work and a few longer tempo runs."),
    Turn("We ordered the quartz countertop in Calacatta Nuvo, it should arrive in three weeks.", "Lovely choice. Ask the fabricator when they want to template; they usually measure once the base cabinets are fixed in place."),
    Turn("Is quartz or granite better if you cook a lot with turmeric? I'm scared of yellow stains.", "Quartz is non-porous, so turmeric wipes off if you get to it within a few hours. Sealed granite is fine too but needs resealing. On either, a paste of baking soda and water lifts a stubborn spot."),
    Turn("And the cabinets are getting painted Hale Navy, the Benjamin Moore one.", "That deep blue looks great against a light stone. Make sure the painter uses a hard-wearing cabinet enamel rather than wall paint."),
    Turn("My navy work scrubs are fading after a few washes. Any tips?", "Wash them inside out in cold water with a detergent for dark colours, skip the hot dryer and add half a cup of vinegar to the rinse now and then. A colour-catcher sheet helps when they're washed with other things."),
    Turn("Our greyhound Pistachio's microchip number is 985112004337621, for the vet form.", "Saved. It's also worth checking the chip's registration is in your name with your current phone number; that's what actually gets a lost dog home."),
    Turn("Pistachio shakes and pants during thunderstorms. Anything that actually helps?", "A snug wrap like a ThunderShirt helps many dogs, as does a den with a blanket over a crate and some white noise. For bad cases ask the vet about a situational medication you give before the storm."),
    Turn("The tile showroom is at 418 Keele Street, open until 6 on weekdays.", "Got it. Take a cabinet door or the paint chip along so you can see the tiles next to the real colours."),
    Turn("Subway tile or zellige for the backsplash? Which is easier to keep clean?", "Subway tile with a dark, sealed grout line is the easiest to wipe. Zellige is beautiful but uneven, so grease sits in the dips; behind the stove you'd be cleaning it more often."),
    Turn("Dad's physio clinic is at 77 Dunmore Avenue, second floor.", "Noted. Check that the building has a lift; the first weeks after a hip replacement, stairs are hard."),
    Turn("The physio gave Dad exercises but he won't do them. How do I motivate him without nagging?", "Tie them to something he wants, like walking to his coffee place again, and make them social: do a couple with him or ask a grandchild to video-call during them. A simple tick chart on the fridge works surprisingly well."),
    Turn("After the surgery Dad goes on apixaban, 2.5 mg twice a day, for a month.", "Noted. Blood thinners make bruising more likely, so he should tell any other doctor or dentist he's on it, and avoid anti-inflammatories unless one of them says otherwise."),
    Turn("Is it bad to take ibuprofen twice a day for a month for my own sore knee?", "Regular use for weeks can irritate the stomach and raise blood pressure, so a month of it is worth running past your doctor or a pharmacist. Taking it with food helps, and ice or a topical gel can cut how much you need."),
    Turn("The city permit for the kitchen came through: BP-24-07731.", "Great news. Keep a copy on site; inspectors usually ask to see it."),
    Turn("How long does a kitchen renovation usually take once the permits are sorted?", "For a full remodel, six to ten weeks is typical once work begins. Countertops are often the bottleneck because they can only be measured after the cabinets are in."),
    Turn("My race shoes are Saucony Endorphin Speed 4, size 8.5. Don't let me talk myself into anything else.", "Noted. Sticking with what already works is the smartest thing you can do before a race."),
    Turn("My left shin aches after long runs. Shin splints or something worse?", "Shin splints feel like a dull ache along the inner edge of the bone. A sharp pain in one spot that hurts when you press on it, or at rest, can be a stress fracture and needs a doctor. Back off the mileage for a week either way."),
    Turn("Okay, bigger question. From next month I'm on three twelve-hour nights a week. My partner works nine to five, I want to eat dinner with him at least a few times, keep training four days a week, and not feel like a zombie on my days off. How would you structure sleep around a block of nights?", "Sleep in two pieces on the first night: a long nap in the afternoon before it, then one main sleep from about 9 am to 3 pm on the days between nights. After the last night, sleep only until late morning and then stay up until a normal bedtime to flip back. Put your runs right after waking, and keep dinners with your partner on your days off and the evening before your first night."),
    Turn("What's a high-protein snack I can eat at 3 am without feeling gross?", "Greek yoghurt with a few berries, a boiled egg with crackers, cottage cheese or a small handful of edamame. Keep it small and avoid anything greasy; digestion slows at night."),
    Turn("Recommend an audiobook for a long drive, something funny.", "'Born a Crime' by Trevor Noah, read by him, is funny and moving. For pure laughs, 'Good Omens' with the full cast or anything by David Sedaris read by himself."),
    Turn("The tire pressure light came on in the car. How do I figure out the right pressure?", "The right pressure is on a sticker inside the driver's door frame, not the number on the tire itself. Check it when the tires are cold, before driving, with a cheap gauge."),
    Turn("Help me write a sympathy card for a coworker whose mother just died.", "\"I'm so sorry about your mom. I'm thinking of you and your family, and I'm here if you need anything, even just someone to cover a shift or bring dinner.\" Short and specific offers mean more than long words."),
    Turn("Is a rowing machine worth it for home workouts?", "It's one of the best single machines: full-body, low impact and quiet. It only pays off if you'll use it, so try one at a gym first and check you have room to store it upright."),
    Turn("Explain simply how vaccines train the immune system, for my nephew.", "A vaccine shows your body a harmless 'wanted poster' of a germ. Your immune system studies it and makes defenders that remember it, so if the real germ turns up later, they recognise it and fight it off quickly."),
    Turn("My glasses fog up under a mask all through the shift. Fixes?", "Pinch the mask's nose wire tight, tuck the top edge under the glasses, and wash the lenses with soapy water and let them air-dry; the thin film of soap stops fog. Anti-fog wipes work too."),
    Turn("Help me say no to covering an extra shift without sounding like I don't care.", "\"I wish I could help, but I'm at my limit this week and I won't be safe on an extra night. I hope you find someone; I can swap a shift later in the month if that helps.\" It's honest and offers something smaller."),
    Turn("What's the difference between baking soda and baking powder?", "Baking soda is pure sodium bicarbonate and needs an acid in the recipe, like buttermilk or lemon, to rise. Baking powder already contains the acid, so it works with plain milk."),
    Turn("Any tips for learning to touch type faster?", "Learn correct finger placement first, even if it makes you slower for a week. Ten minutes a day on a site like Keybr beats one long session, and don't look at the keys."),
    Turn("How do I descale a kettle?", "Fill it halfway with equal parts water and white vinegar, bring it to the boil, let it sit for an hour, then rinse and boil plain water once or twice to get rid of the taste."),
    Turn("Recommend a board game for four adults who hate long rules.", "'Codenames' and 'Just One' take two minutes to explain and get everyone talking. For something more strategic but still quick, try 'Azul' or 'Ticket to Ride'."),
    Turn("What should I look for in compression socks for work?", "Graduated compression of 15 to 20 mmHg is right for long days on your feet. Get them measured at the ankle and calf, and choose a moisture-wicking fabric."),
    Turn("Why do onions make you cry?", "Cutting an onion breaks its cells and releases a chemical that turns into a gas, which irritates your eyes and makes them water. A sharp knife and a cold onion both reduce it."),
    Turn("Give me three easy stretches for tight hips.", "A low lunge with the back knee down, a figure-four stretch lying on your back, and a butterfly stretch sitting up tall. Hold each for about 30 seconds per side and breathe slowly."),
    Turn("How much should I tip a hairdresser in Canada?", "Around 15 to 20 percent is usual, and a few dollars to the person who washes your hair is a nice touch."),
    Turn("What's a polite way to leave a group chat?", "A short note before you go: \"Stepping out of a few chats to cut down on notifications, but I'm always a message away!\" Then leave without a fuss."),
    Turn("My cast iron pan has gone rusty. Is it ruined?", "Not at all. Scrub the rust off with steel wool, wash and dry it completely, rub in a very thin layer of oil and bake it upside down at about 230°C for an hour. It'll be as good as new."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "604-555-0176", {"keyword": "What's Declan's number?", "paraphrase": "what was the number for the guy doing our reno?"}),
        (4, "November 14", {"keyword": "When is Dad's hip replacement?", "paraphrase": "What date does my father go under the knife?"}),
        (6, "604-555-0139", {"keyword": "What's the electrician's number?", "paraphrase": "How do I get hold of the lady handling our wiring?"}),
        (8, "November 23", {"keyword": "When is the half marathon?", "paraphrase": "When's that 21K I'm training for?"}),
        (10, "Calacatta Nuvo", {"keyword": "Which quartz did we order?", "paraphrase": "What was the stone we picked for the worktops called?"}),
        (12, "Hale Navy", {"keyword": "What colour are the cabinets getting painted?", "paraphrase": "Which shade did we choose for the cupboards?"}),
        (14, "985112004337621", {"keyword": "What's Pistachio's microchip number?", "paraphrase": "The animal clinic is asking for my pup's chip ID, what is it?"}),
        (16, "418 Keele", {"keyword": "Where's the tile showroom?", "paraphrase": "What was the address of that place with the backsplash samples?"}),
        (18, "77 Dunmore", {"keyword": "Where's Dad's physio clinic?", "paraphrase": "Where do I drive my father for his rehab sessions?"}),
        (20, "apixaban", {"keyword": "What is Dad on after surgery?", "paraphrase": "Which pills does my father need once the operation's done?"}),
        (22, "BP-24-07731", {"keyword": "What's the permit number for the kitchen?", "paraphrase": "What's the reference on the building approval from town hall?"}),
        (24, "Endorphin Speed", {"keyword": "Which race shoes am I sticking with?", "paraphrase": "Which trainers am I supposed to get when my old pair wears out?"}),
    ],
    [
        ("What's the electrician's phone number?", 6, 2),
        ("What date is the race?", 8, 4),
        ("Which colour did we go with for the cabinets?", 12, 10),
        ("What's the street address of Dad's physio?", 18, 16),
    ],
    [
        "good morning!",
        "thanks, that helps",
        "Should I learn the guitar or the piano?",
        "Why is turmeric yellow?",
        "Why do we hear thunder after we see a flash?",
        "Who wrote One Hundred Years of Solitude?",
        "How do I get candle wax out of a carpet?",
        "ha, fair enough",
        "What's the tallest skyscraper in the world?",
        "I'm thinking about a tattoo, any advice?",
    ],
)


# --- 2. Korean: 결혼 준비와 자격증 시험을 같이 하는 삼십 대 직장인 ---------------------------------------------------

_KO_TURNS = [
    Turn("안녕! 나 요즘 결혼 준비 때문에 정신이 하나도 없어. 시험 공부도 해야 되고. 이것저것 여기 적어 둘게.", "네, 생각날 때마다 편하게 적어 주세요. 일정이랑 연락처는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("웨딩홀은 잠실 라비엔홀로 계약했어. 5월 17일 낮 12시 반 예식이야.", "축하드려요! 낮 예식이면 하객분들 식사 시간이랑 맞아서 좋아요. 계약서 사본은 사진으로도 남겨 두세요."),
    Turn("요즘 웨딩홀 대관료 왜 이렇게 비싸? 예식 시간대마다 가격이 다르던데 다들 얼마쯤 내?", "지역이랑 요일, 시간대에 따라 차이가 커요. 서울은 토요일 점심 시간대가 가장 비싸고, 일요일 저녁이나 평일 예식은 대관료를 크게 깎아 주는 곳이 많아요."),
    Turn("웨딩플래너 윤서하 실장님 번호는 010-4417-2093이야.", "적어뒀어요. 플래너분한테는 카톡보다 전화가 빠를 때가 많으니 급한 건 바로 전화하세요."),
    Turn("폰 번호 바꾸면 카톡 친구 목록 다 날아가?", "아니요, 카카오 계정으로 로그인하면 친구 목록은 그대로 있어요. 다만 새 번호로 나를 저장한 사람만 연락처 기반으로 다시 연결되니, 번호 바뀐 걸 한 번 알려 두세요."),
    Turn("상견례는 광화문 한정식집 소담정에서 하기로 했어. 룸으로 예약했고.", "좋은 선택이에요. 룸이면 두 집 어른들이 편하게 얘기 나누실 수 있어요. 메뉴는 미리 코스로 정해 두시면 진행이 매끄러워요."),
    Turn("상견례 자리에서 상석은 어디야? 자리 배치 때문에 고민돼.", "보통 출입문에서 가장 먼 안쪽 자리가 상석이에요. 양가 부모님이 마주 보게 앉으시고, 예비 신랑 신부는 각자 자기 부모님 옆에 앉는 게 일반적이에요."),
    Turn("드레스 가봉은 4월 12일 오후 2시야. 엄마도 같이 가기로 했어.", "알겠어요. 가봉 때는 본식에 신을 구두를 꼭 챙겨 가세요. 기장을 그 굽 높이에 따라 정해요."),
    Turn("드레스 입을 때 속옷은 뭘 입어야 돼? 처음이라 하나도 모르겠어.", "대부분 드레스 숍에서 누드톤 브라 대신 쓰는 패드나 코르셋을 준비해 줘요. 살색 심리스 속옷 정도만 입고 가시면 되고, 미리 숍에 물어보시면 정확해요."),
    Turn("부케는 성수동 꽃집 들꽃상회에 맡겼어. 사장님 번호는 010-7720-3318이야.", "적어뒀어요. 부케는 보통 예식 당일 오전에 받으니까 수령 시간도 한 번 확인해 두세요."),
    Turn("꽃집에서 산 꽃 오래 가게 하는 방법 있어?", "줄기 끝을 사선으로 잘라서 물에 꽂고, 물은 이틀에 한 번 갈아 주세요. 직사광선이나 과일 옆은 피하는 게 좋아요."),
    Turn("신혼여행 비행기 예약번호는 K7RM2P야. 발리 가는 거.", "알겠어요. 온라인 체크인 열리면 나란히 앉는 좌석으로 미리 지정해 두세요."),
    Turn("비행기 탈 때마다 귀가 너무 아파. 어떻게 하면 덜 아파?", "이착륙할 때 침을 삼키거나 껌을 씹고, 하품을 해 보세요. 코를 막고 입을 다문 채 살짝 숨을 내쉬는 방법도 있어요. 감기 기운이 있으면 더 아프니 비강 스프레이를 챙기세요."),
    Turn("발리 리조트 바우처 번호는 RV-55208이고, 체크인은 오후 3시부터래.", "적어뒀어요. 늦게 도착하시면 리조트에 미리 메일로 알려 두시는 게 좋아요."),
    Turn("발리 날씨는 5월 말이면 괜찮아? 우기 아니지?", "5월 말이면 건기가 시작되는 때라 날씨가 좋은 편이에요. 낮에는 덥고 햇볕이 강하니 선크림이랑 모자를 꼭 챙기세요."),
    Turn("아빠 건강검진은 4월 26일 오전 8시야. 전날 밤부터 굶으셔야 돼.", "알겠어요. 대장 내시경이 포함돼 있으면 전날 약 복용 안내도 있을 테니 검진 센터 문자를 같이 확인해 주세요."),
    Turn("건강검진 전날에 물은 마셔도 돼?", "보통 자정 이후로는 물도 삼가라고 하지만, 병원마다 소량은 괜찮다는 곳도 있어요. 받은 안내문을 따르시는 게 제일 정확해요."),
    Turn("나 정보처리기사 실기 수험번호는 24031187이야. 시험장은 마포고등학교고.", "적어뒀어요. 시험 당일에는 신분증이랑 수험표를 꼭 챙기세요."),
    Turn("실기 시험은 공부 얼마나 해야 붙어? 필기는 겨우 붙었어.", "하루 두세 시간씩 4주 정도 기출 위주로 공부하는 분들이 많아요. 특히 SQL이랑 코드 해석 문제는 손으로 직접 풀어 보는 연습이 중요해요."),
    Turn("웨딩홀 식대는 1인당 6만 8천 원으로 확정했어.", "알겠어요. 보증 인원도 같이 적어 두면 나중에 정산할 때 편해요."),
    Turn("회사 점심 식대 보통 얼마 나와? 우리 회사는 하루 만 원인데 요즘 너무 부족해.", "회사마다 다르지만 월 20만 원 안팎이 흔해요. 요즘 물가면 만 원으로는 빠듯하니, 구내식당이나 도시락을 섞어 쓰시는 분들이 많아요."),
    Turn("태민이 예복은 청담 메종드블루에서 맞추기로 했어.", "좋네요. 예복은 가봉을 두 번 정도 하니까 일정 여유를 두고 맞추세요."),
    Turn("예복 대신 그냥 좋은 정장 하나 사도 될까? 나중에도 입게.", "요즘은 그렇게 하시는 분들도 많아요. 네이비나 차콜 같은 무난한 색으로 사면 결혼식 후에도 오래 입을 수 있어요."),
    Turn("신혼집 전세 잔금은 6월 3일에 치르기로 했어.", "알겠어요. 잔금 날에 전입신고와 확정일자도 같이 받아 두셔야 보증금을 지킬 수 있어요."),
    Turn("전세 사기 안 당하려면 계약 전에 뭘 확인해야 돼?", "등기부등본에서 근저당이나 압류를 확인하고, 집주인 이름이 계약 상대와 같은지 보세요. 보증금 반환 보증보험에 가입할 수 있는 집인지도 미리 알아보세요."),
    Turn("요즘 운동을 다시 시작하려고. 주 3회 헬스장 가고 싶은데 퇴근이 늦어서 저녁 아홉 시 넘어서나 갈 수 있어. 근력 운동 위주로 하고 싶고, 무릎이 가끔 시큰거려서 스쿼트는 좀 무서워. 한 시간 안에 끝나는 루틴 짜 줄 수 있어?", "월요일은 상체 미는 운동(체스트 프레스, 숄더 프레스), 수요일은 당기는 운동(랫풀다운, 시티드 로우), 금요일은 하체를 레그프레스와 힙 브리지 위주로 해 보세요. 각 운동 3세트씩, 시작 전 10분 걷기로 몸을 풀고, 무릎은 통증 없는 범위에서만 굽히세요."),
    Turn("냉장고에 계란이랑 대파밖에 없는데 뭐 해 먹지?", "대파를 듬뿍 넣은 계란말이나 파 계란볶음밥이 좋아요. 간장 한 숟갈만 넣어도 맛이 확 살아요."),
    Turn("요즘 볼 만한 드라마 추천해 줘. 로맨스 말고.", "〈비밀의 숲〉이나 〈나의 아저씨〉 추천해요. 하나는 긴장감 있는 수사극이고, 하나는 잔잔하지만 오래 남는 이야기예요."),
    Turn("겨울이라 정전기가 너무 심해. 문고리 잡을 때마다 깜짝 놀라.", "가습기로 습도를 40~60%로 맞추고 핸드크림을 자주 바르세요. 문고리 잡기 전에 벽을 손바닥으로 먼저 짚으면 덜 튀어요."),
    Turn("회사 후배가 자꾸 반말을 섞어 쓰는데 말해야 할까?", "친해서 그런 건지 습관인지 먼저 보세요. 불편하다면 따로 불러서 '업무 자리에서는 존댓말로 하자'고 가볍게 말하는 게 제일 깔끔해요."),
    Turn("운전 연수 받으려는데 몇 시간 정도 받아야 해? 면허는 있는데 장롱이야.", "보통 10시간 정도 받는 분이 많아요. 집과 회사 사이 실제 다닐 길 위주로 연습하고, 주차 연습을 꼭 넣어 달라고 하세요."),
    Turn("손톱이 자꾸 얇아지고 갈라져. 영양제 먹어야 하나?", "손을 자주 씻거나 물일을 많이 하면 갈라지기 쉬워요. 핸드크림과 큐티클 오일을 쓰고, 단백질이 부족하지 않은지 식단도 봐 주세요. 오래 가면 피부과에 가 보세요."),
    Turn("엑셀에 날짜를 쓰면 자꾸 숫자로 바뀌어. 왜 그래?", "셀 서식이 '일반'이나 '숫자'로 돼 있어서 그래요. 셀을 선택하고 서식에서 '날짜'로 바꾸면 다시 날짜로 보여요."),
    Turn("고등어 구울 때 비린내 안 나게 하는 법 있어?", "굽기 전에 우유나 청주에 10분 담갔다가 물기를 닦고, 껍질 쪽부터 센 불에 구우세요. 레몬즙을 살짝 뿌려도 좋아요."),
    Turn("요즘 아침마다 목이 뻐근해. 베개를 바꿔야 할까?", "누웠을 때 목과 어깨 사이 빈 곳을 받쳐 주는 높이가 좋아요. 너무 높거나 푹 꺼지면 목이 꺾이니, 수건을 말아 높이를 맞춰 보고 괜찮으면 그 높이로 고르세요."),
    Turn("중학생 조카 용돈 얼마 주는 게 적당해?", "명절이나 만날 때 주는 거라면 3만 원에서 5만 원 정도가 흔해요. 가족끼리 금액을 맞추는 집도 있으니 한 번 물어보세요."),
    Turn("자기 전에 유튜브 보다 보면 새벽 두 시야. 어떻게 끊지?", "휴대폰 충전기를 침대에서 먼 곳에 두고, 앱 사용 시간 제한을 걸어 보세요. 대신 종이책이나 라디오처럼 화면 없는 습관을 하나 만들면 덜 허전해요."),
    Turn("빨래를 건조기에 돌리면 옷이 줄어?", "면이나 니트는 높은 온도에서 줄어들 수 있어요. 라벨을 확인하고, 줄어들기 쉬운 옷은 저온 건조나 자연 건조로 말리세요."),
    Turn("영어 회화 학원이랑 전화 영어 중에 뭐가 나아?", "말할 시간을 많이 확보하려면 전화 영어가 효율적이고, 동기 부여와 문법 정리가 필요하면 학원이 나아요. 퇴근이 들쭉날쭉하면 전화 영어가 꾸준히 하기 쉬워요."),
    Turn("화분에 날파리가 생겼어. 어떻게 없애?", "흙이 계속 축축해서 생긴 뿌리파리일 가능성이 커요. 물 주는 간격을 늘려 겉흙을 말리고, 노란 끈끈이를 꽂아 두면 금방 줄어요."),
    Turn("친구가 돈을 빌려 달라는데 기분 안 상하게 거절하고 싶어.", "\"나도 요즘 큰 지출이 있어서 빌려줄 여유가 없어, 미안해\"처럼 짧게 말하는 게 좋아요. 이유를 길게 설명할수록 오히려 협상처럼 돼요."),
    Turn("커피 대신 마실 만한 차 추천해 줘.", "루이보스나 캐모마일은 카페인이 없어서 저녁에도 괜찮아요. 오후에 기운이 필요하면 녹차가 커피보다 부드러워요."),
    Turn("운동화 세탁 집에서 해도 돼?", "깔창과 끈을 빼고 미지근한 물에 중성세제로 솔질하면 돼요. 세탁기는 모양이 틀어질 수 있으니 피하고, 그늘에서 신문지를 넣어 말리세요."),
    Turn("요즘 하늘이 뿌옇던데 미세먼지 마스크는 뭘 써야 돼?", "KF80 이상이면 미세먼지를 잘 걸러요. 숨쉬기 편한 게 좋으면 KF80, 농도가 아주 높은 날은 KF94를 쓰세요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "라비엔홀", {"keyword": "웨딩홀 어디로 계약했지?", "paraphrase": "우리 식 올리는 장소 이름이 뭐였지?", "endings": "웨딩홀이 어디였더라?"}),
        (4, "010-4417-2093", {"keyword": "플래너 실장님 번호 뭐였니?", "paraphrase": "결혼 준비 도와주시는 분한테 연락하려면 어떻게 해?", "endings": "윤서하 실장님한테 전화할 번호가 뭐야?"}),
        (6, "소담정", {"keyword": "상견례 어디서 한다고 했지?", "paraphrase": "양가 부모님 처음 뵙는 자리, 식당 이름이 뭐였지?", "endings": "상견례를 하는 한정식집이 어디였지?"}),
        (8, "4월 12일", {"keyword": "가봉 언제였어?", "paraphrase": "웨딩 의상 맞춰 보러 가는 날이 며칠이었지?", "endings": "드레스 가봉을 언제 하기로 했더라?"}),
        (10, "010-7720-3318", {"keyword": "꽃집 사장님 번호 뭐였지?", "paraphrase": "신부가 들 꽃다발 주문한 가게에 연락하려면?", "endings": "꽃집 사장님한테 연락할 번호가 뭐였지?"}),
        (12, "K7RM2P", {"keyword": "신혼여행 비행기 예약번호 알려줘.", "paraphrase": "허니문 항공권 코드 뭐였어?", "endings": "신혼여행 가는 비행기의 예약번호가 뭐였더라?"}),
        (14, "RV-55208", {"keyword": "리조트 바우처 번호 뭐였냐?", "paraphrase": "신혼 때 묵을 숙소 확인 코드가 뭐야?", "endings": "발리 리조트는 바우처 번호가 뭐였지?"}),
        (16, "4월 26일", {"keyword": "아빠 건강검진 며칠이었어?", "paraphrase": "아버지 병원 검사 받으시는 날 언제였지?", "endings": "아빠가 건강검진 받으시는 게 언제였더라?"}),
        (18, "24031187", {"keyword": "수험번호 뭐였어?", "paraphrase": "자격증 볼 때 답안지에 적는 내 번호가 뭐였지?", "endings": "실기 수험번호가 뭐였더라?"}),
        (20, "6만 8천 원", {"keyword": "식대 1인당 얼마로 확정했지?", "paraphrase": "하객 밥값 한 명에 얼마였지?", "endings": "웨딩홀 식대가 얼마였지?"}),
        (22, "메종드블루", {"keyword": "태민이 예복 어디서 맞춘다고 했지?", "paraphrase": "신랑 입을 정장은 어느 가게에서 한댔지?", "endings": "태민이가 예복을 맞추는 데가 어디였지?"}),
        (24, "6월 3일", {"keyword": "잔금 언제 치르냐?", "paraphrase": "새 보금자리 남은 돈 내는 날짜가 언제였지?", "endings": "전세 잔금을 언제 치르기로 했지?"}),
    ],
    [
        ("상견례 장소 어디였지?", 6, 2),
        ("꽃집 번호 뭐였니?", 10, 4),
        ("발리 숙소 예약번호 뭐였지?", 14, 12),
        ("아빠 검진 언제 가셔?", 16, 8),
    ],
    [
        "좋은 아침~",
        "고마워!",
        "이게 뭐야 ㅋㅋ",
        "ㅎㅎ 그렇구나",
        "나 기타 배워 볼까?",
        "귀가 간지러우면 누가 내 얘기 하는 거래?",
        "지구는 왜 자전해?",
        "김밥 맛있게 싸는 법 알려줘",
        "세계에서 제일 긴 강이 어디야?",
        "나 요즘 너무 게을러진 것 같아",
    ],
)


# --- 3. Mixed Korean/English: 배송 스타트업 데이터 엔지니어의 업무 메모와 잡담 ---------------------------------------------

_MX_TURNS = [
    Turn("이번 sprint부터 업무 메모 여기다 할게요. 까먹는 게 너무 많아서요 ㅠ", "네, 편하게 던져 주세요. 필요할 때 찾아서 정리해 드릴게요."),
    Turn("이번 sprint 목표는 정산 batch를 Airflow로 옮기는 거예요. DAG 이름은 settle_daily_v2로 하기로 했어요.", "적어뒀어요. 옮기는 동안은 기존 cron job이랑 결과를 며칠 나란히 비교해 보시면 안심이 돼요."),
    Turn("Airflow에서 DAG가 schedule대로 안 돌고 자꾸 밀려요. catchup 옵션 때문일까요?", "catchup이 켜져 있으면 start_date부터 밀린 실행을 전부 채우려고 해서 그럴 수 있어요. 과거 실행이 필요 없으면 catchup=False로 두고, max_active_runs도 같이 확인해 보세요."),
    Turn("새 노트북 자산번호는 NB-23-0817이에요. 퇴사하거나 교체할 때 필요하대요.", "알겠어요, 적어둘게요. 자산 스티커 사진도 하나 찍어 두시면 편해요."),
    Turn("노트북 배터리가 좀 부풀어 오른 것 같은데 계속 써도 돼요?", "부푼 배터리는 위험해서 바로 쓰지 않는 게 좋아요. 전원을 끄고 충전기도 빼신 다음 IT팀에 교체 요청하세요."),
    Turn("DB migration은 11월 9일 새벽 2시에 진행해요. maintenance 공지 나갔어요.", "확인했어요. rollback 절차도 문서로 한 번 더 점검해 두시면 좋아요."),
    Turn("migration 할 때 downtime 없이 column 추가하는 방법 있어요? 테이블이 꽤 커요.", "nullable로 추가하면 대부분 DB에서 metadata만 바뀌어서 빨라요. default 값을 넣어야 하면 column을 먼저 만들고, backfill은 batch로 나눠서 돌린 뒤 마지막에 NOT NULL을 거세요."),
    Turn("다음 주 on-call은 화요일부터 목요일까지 제가 맡고, 금요일에 정민호 님한테 넘겨요.", "알겠어요. 넘길 때 열린 incident랑 지켜볼 alert를 짧게 정리해서 드리면 인수인계가 깔끔해요."),
    Turn("on-call 때 새벽에 alert 오면 너무 스트레스예요. 다들 어떻게 버텨요?", "먼저 의미 없는 alert부터 줄이세요. 새벽에 깨울 가치가 없는 건 낮 시간 알림으로 내리고, on-call 다음 날은 오전을 비워 두는 규칙을 팀에 제안해 보세요."),
    Turn("배송 지연 alert은 p95 latency가 800ms 넘으면 울리게 바꿨어요.", "적어뒀어요. 바꾼 뒤 일주일 정도는 울린 횟수를 세어 보고 너무 잦으면 다시 조정하세요."),
    Turn("p95랑 p99 차이를 비개발자한테 어떻게 설명해요?", "요청 100개를 빠른 순서로 줄 세웠을 때 95번째가 p95, 99번째가 p99라고 하면 쉬워요. p99는 제일 운 나쁜 사용자 경험에 더 가까워요."),
    Turn("외부 보안 audit는 11월 16일부터 사흘 동안이에요.", "알겠어요. 접근 권한 목록이랑 로그 보관 정책 문서를 미리 최신으로 맞춰 두세요."),
    Turn("보안 교육 영상 매년 봐야 하는 거 너무 귀찮아요 ㅋㅋ 빨리 넘기는 방법 없죠?", "ㅋㅋ 보통 건너뛰기를 막아 두더라고요. 그냥 다른 창에 틀어 두고 퀴즈만 집중해서 푸는 분들이 많아요."),
    Turn("택배사 API vendor 쪽 담당자 메일은 api-support@hanbitlogis.co.kr이에요.", "적어뒀어요. 메일에 request id랑 시각을 같이 적으면 답이 빨라요."),
    Turn("vendor가 API 문서를 PDF로만 줘요. OpenAPI spec 달라고 해도 될까요?", "당연히 요청해도 돼요. 없다고 하면 저희가 PDF 보고 spec 초안을 만들어서 확인만 받는 방법도 있어요."),
    Turn("결제 API 쪽 alert 기준은 p95 1.2초로 합의했어요.", "확인했어요. 배송 쪽 기준이랑 헷갈리지 않게 alert 이름에 서비스명을 넣어 두세요."),
    Turn("결제 실패율이 갑자기 튀었는데 PG사 문제인지 우리 문제인지 어떻게 구분해요?", "실패 응답 코드를 나눠 보세요. PG사 timeout이나 5xx가 늘었으면 그쪽 문제일 가능성이 크고, 우리 쪽 validation 에러가 늘었으면 최근 deploy를 먼저 의심하세요. PG사 status 페이지도 같이 확인하고요."),
    Turn("이번에 들어온 신규 입사자 buddy는 오세린 님이 맡기로 했어요.", "좋네요. 처음 며칠 안에 점심 한 번, 그다음엔 pairing 한 번 정도 잡아 두면 적응이 훨씬 빨라요."),
    Turn("신규 입사자 onboarding 문서가 너무 오래됐어요. 누가 업데이트하는 게 맞아요?", "제일 좋은 건 새로 온 사람이 따라 하면서 막힌 데를 바로 고치는 거예요. 그 사람이 제일 정확하게 알거든요. 리뷰만 팀에서 해 주면 돼요."),
    Turn("모니터 자산번호는 MN-23-1142예요. 이것도 따로 적어두래요.", "적어뒀어요. 노트북이랑 같이 반납할 때 한 번에 확인하시면 돼요."),
    Turn("모니터 두 개 쓰는 거랑 울트라와이드 하나 쓰는 거 뭐가 나아요?", "창을 딱 나눠 쓰는 게 편하면 두 개, 긴 타임라인이나 로그를 한눈에 보고 싶으면 울트라와이드가 좋아요. 목을 덜 돌리는 건 울트라와이드 쪽이에요."),
    Turn("팀 워크숍 숙소는 가평 솔숲펜션으로 잡혔어요.", "알겠어요. 인원이랑 차량 배정도 미리 정해 두면 당일에 덜 복잡해요."),
    Turn("워크숍 때 할 만한 팀 빌딩 게임 있을까요? 너무 유치하지 않은 걸로요.", "각자 '올해 제일 잘한 실수' 하나씩 얘기하기나, 팀을 나눠 가상의 서비스를 30분 만에 기획해서 발표하는 게임이 반응 좋아요."),
    Turn("재택할 때 VPN 서버 주소는 gw.parcelhub.kr이에요. FortiClient로 붙어요.", "적어뒀어요. 자꾸 끊기면 split tunneling 설정을 IT팀에 물어보세요."),
    Turn("VPN 켜면 Zoom이 자꾸 끊겨요. 왜 그래요?", "영상 트래픽까지 VPN을 타면 느려지고 끊기기 쉬워요. 화상회의 트래픽은 VPN 밖으로 보내도록 split tunneling을 설정하는 게 보통이에요."),
    Turn("다음 분기부터 제가 파트 리드를 맡게 됐는데, 팀원 네 명 중 두 명은 저보다 연차가 높아요. 1on1은 어떻게 시작해야 할지, 업무 분배는 누가 정하는 게 맞는지, 제가 코드도 계속 써야 하는지 다 애매해요. 처음 한 달 뭘 하면 좋을까요?", "첫 2주는 모든 팀원과 1on1을 하면서 각자 잘하는 것, 하고 싶은 것, 불편한 점을 들어 보세요. 업무 분배는 리드가 초안을 내고 팀이 의견을 내는 방식이 무난하고, 코드는 critical path가 아닌 작은 작업만 맡는 게 좋아요. 연차 높은 분들께는 의사결정에서 조언을 구하는 역할을 드리면 관계가 편해져요."),
    Turn("비 오는 날이라 점심에 뜨끈한 거 먹고 싶은데 뭐가 좋을까요?", "칼국수나 수제비, 아니면 순댓국 어떠세요? 국물 있는 걸로 먹으면 오후가 훨씬 든든해요."),
    Turn("영어로 PR description 쓸 때 자연스러운 표현 좀 알려줘요.", "\"This PR adds ...\", \"Why: ...\", \"How to test: ...\" 세 줄 구조가 깔끔해요. 리뷰어한테는 \"Please take a look at ... in particular\"처럼 봐 줬으면 하는 부분을 짚어 주면 좋아요."),
    Turn("연차 쓸 때 팀장님한테 사유를 꼭 말해야 해요?", "법적으로 사유를 밝힐 의무는 없어요. '개인 일정으로 연차 쓰겠습니다' 정도면 충분하고, 업무 공백만 미리 정리해 두면 돼요."),
    Turn("회의 중에 자꾸 딴 얘기로 새는 사람 어떻게 해요?", "\"좋은 얘기인데 따로 이어서 얘기해요\"라고 parking lot에 적어 두고 원래 안건으로 돌아오세요. 회의 시작할 때 agenda를 화면에 띄워 두면 자연스럽게 돌아오기 쉬워요."),
    Turn("코드 리뷰에서 approve는 안 해주고 계속 nit만 다는 동료가 있어요.", "nit은 blocking이 아니라고 팀 규칙으로 정해 두면 좋아요. 당장은 \"nit은 다음 PR에서 반영할게요, approve 부탁드려요\"라고 정중하게 요청해 보세요."),
    Turn("사내 기술 블로그 글을 처음 써 보는데 주제를 어떻게 잡아요?", "최근에 삽질해서 해결한 문제 하나를 고르세요. 문제, 시도한 것, 결국 통한 방법 순서로 쓰면 읽는 사람한테 바로 도움이 돼요."),
    Turn("거북목 때문에 스탠딩 데스크 살까 고민돼요.", "서서 일하는 것보다 자세를 자주 바꾸는 게 핵심이에요. 스탠딩 데스크를 사면 한 시간에 한 번씩 바꾸는 습관을 들이고, 모니터 높이를 눈높이에 맞추세요."),
    Turn("Kotlin이랑 Go 중에 다음에 뭐 공부할까요? 백엔드 하고 싶어요.", "회사 스택에 맞추는 게 제일 실용적이에요. 인프라나 도구 쪽에 관심이 있으면 Go, JVM 생태계랑 Spring 쪽이면 Kotlin이 좋아요."),
    Turn("Notion이랑 Confluence 중에 팀 문서는 뭐가 나아요?", "작은 팀이 빠르게 쓰기엔 Notion이 편하고, Jira랑 권한 관리를 많이 엮어야 하면 Confluence가 나아요."),
    Turn("퇴근 후에 영어 공부를 꾸준히 하는 팁 있어요?", "매일 15분처럼 작게 정하고, 출퇴근길에 듣기만이라도 하세요. 주 1회 영어로 짧은 회고를 써 보는 것도 좋아요."),
    Turn("PM이 자꾸 sprint 중간에 요구사항을 바꿔요. 어떻게 말하죠?", "바뀐 요구사항을 넣으면 뭐가 빠지는지 trade-off로 보여 주세요. '이걸 넣으면 이번 sprint에서 이게 밀려요'라고 말하면 감정 싸움이 안 돼요."),
    Turn("사내 동호회 들어가 볼까 하는데 어떤 게 좋을까요?", "평소에 안 만나는 팀 사람들을 만나고 싶으면 러닝이나 보드게임처럼 부담 없는 게 좋아요. 시간이 안 맞으면 금방 안 나가게 되니 모임 시간부터 보세요."),
    Turn("키보드 적축이랑 갈축 차이가 뭐예요?", "적축은 걸림 없이 부드럽게 눌리고, 갈축은 살짝 걸리는 느낌이 있어요. 사무실에서 조용히 쓰려면 둘 다 무난하지만 청축은 피하세요."),
    Turn("주니어한테 git conflict 해결하는 법을 쉽게 설명하려면?", "'두 사람이 같은 문장을 동시에 고쳐서 git이 누구 걸 쓸지 모르는 상황'이라고 하세요. 표시된 부분에서 최종본을 직접 골라 고치고, 테스트 돌린 뒤 commit하면 끝이라고 보여 주세요."),
    Turn("요즘 커피를 너무 많이 마셔요. 카페인 줄이는 방법 있어요?", "오후 첫 잔을 디카페인으로 바꾸는 것부터 하세요. 물을 먼저 한 컵 마시고, 한 번에 끊기보다 일주일마다 한 잔씩 줄이면 두통이 덜해요."),
    Turn("팀 회고 할 때 KPT 말고 다른 방식 있어요?", "4L(Liked, Learned, Lacked, Longed for)이나 Start-Stop-Continue도 많이 써요. 가끔 방식을 바꾸면 회고가 덜 지루해져요."),
    Turn("오늘 daily scrum에서 할 말 정리 좀 도와줘요. 어제 로그 정리했고 오늘은 대시보드 작업해요.", "\"어제는 로그 수집 정리를 마쳤고, 오늘은 대시보드 작업을 합니다. 특별히 막힌 건 없습니다.\" 이 정도면 30초 안에 끝나요."),
    Turn("금요일 오후에 deploy 하는 거 다들 싫어하는데 이유가 뭐예요?", "문제가 생기면 주말 내내 대응해야 하고, 원인을 아는 사람이 퇴근한 뒤일 수 있어서요. 그래서 금요일 오후는 deploy freeze로 두는 팀이 많아요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "settle_daily_v2", {"keyword": "정산 DAG 이름 뭐였죠?", "paraphrase": "매일 돌리는 돈 계산 작업 workflow 명칭이 뭐였더라?", "endings": "정산 DAG는 이름을 뭘로 했죠?"}),
        (4, "NB-23-0817", {"keyword": "노트북 자산번호 뭐였죠?", "paraphrase": "회사에서 받은 랩탑 관리 코드가 뭐였죠?", "endings": "노트북의 자산번호가 뭐였더라?"}),
        (6, "11월 9일", {"keyword": "DB migration 날짜 언제예요?", "paraphrase": "데이터베이스 옮기는 작업 며칠 밤이었죠?", "endings": "migration 진행이 며칠 새벽이었죠?"}),
        (8, "정민호", {"keyword": "on-call 넘겨받는 분 누구였죠?", "paraphrase": "제 당번 끝나면 이어받는 동료 이름이 뭐였죠?", "endings": "금요일엔 누구한테 넘기기로 했죠?"}),
        (10, "800ms", {"keyword": "배송 지연 alert 기준 얼마로 바꿨죠?", "paraphrase": "택배 늦어질 때 알람 뜨는 숫자가 몇이었죠?", "endings": "배송 지연은 alert 기준이 몇 ms였죠?"}),
        (12, "11월 16일", {"keyword": "보안 audit 언제부터예요?", "paraphrase": "바깥 업체가 우리 시스템 점검하러 오는 날 언제였죠?", "endings": "외부에서 오는 보안 audit 기간이 언제였죠?"}),
        (14, "api-support@hanbitlogis.co.kr", {"keyword": "택배사 vendor 담당자 메일 주소 뭐였죠?", "paraphrase": "운송 회사 연동 문의는 어디로 보내면 되죠?", "endings": "택배사 담당자한테 메일을 어디로 보내죠?"}),
        (16, "1.2초", {"keyword": "결제 API alert 기준 얼마였죠?", "paraphrase": "카드 승인 느릴 때 알람 뜨는 선이 어디였죠?", "endings": "결제 쪽은 alert 기준이 어떻게 돼요?"}),
        (18, "오세린", {"keyword": "신규 입사자 buddy 누구였죠?", "paraphrase": "새로 온 사람 챙겨 주는 선배가 누구로 정해졌죠?", "endings": "신규 입사자의 buddy를 누가 맡았죠?"}),
        (20, "MN-23-1142", {"keyword": "모니터 자산번호 알려줘요.", "paraphrase": "회사 화면 장비에 붙은 관리 코드 뭐였죠?", "endings": "모니터는 자산번호가 뭐였죠?"}),
        (22, "솔숲펜션", {"keyword": "워크숍 숙소 어디로 잡혔죠?", "paraphrase": "다 같이 1박 하러 가는 데 이름이 뭐였죠?", "endings": "팀 워크숍은 숙소가 어디예요?"}),
        (24, "gw.parcelhub.kr", {"keyword": "VPN 서버 주소 뭐였죠?", "paraphrase": "집에서 사내망 접속하려면 어디로 연결해요?", "endings": "재택 때 VPN은 서버 주소가 뭐였죠?"}),
    ],
    [
        ("on-call 교대해 줄 사람이 누구였죠?", 8, 18),
        ("보안 audit 날짜 언제였죠?", 12, 6),
        ("결제 alert 몇 초였죠?", 16, 10),
        ("모니터 번호 뭐였죠?", 20, 4),
    ],
    [
        "굿모닝요~",
        "ㅇㅋ 감사합니다!",
        "뭐야 이거 ㅋㅋ",
        "기타 배워 볼까 고민 중이에요",
        "React랑 Vue 중에 뭐 배울까요?",
        "아 마라탕 먹고 싶다",
        "서울에서 부산까지 KTX 몇 시간 걸려요?",
        "Excel에서 중복 값 지우는 법 알려줘요",
        "달은 왜 매일 모양이 바뀌어요?",
        "Zoom 배경 흐리게 하는 법 알려줘요",
    ],
)


# --- 4. Code-heavy: a Go developer on a sensor-ingest service, with shell, file and test tools --------------------

_CODE_TURNS = [
    Turn("New week, I'm picking up the tidewater ingest service. What's the layout?", "It's a Go module: the binary's entry point is `cmd/ingestd`, the decoding and batching code lives under `internal/`, Helm values are in `deploy/`, and there's a compose file for local dependencies.", "run_shell", '{"cmd": "ls"}', "Makefile\nREADME.md\ncmd\ndeploy\ndocker-compose.yml\ngo.mod\ngo.sum\ninternal\nmigrations"),
    Turn("The ingest service listens for gRPC on port 7051 when you run it locally.", "Noted. If you poke it by hand, turn on server reflection in the local build so clients don't need the proto files every time."),
    Turn("Can you check what's listening right now?", "Only Postgres, NATS and ClickHouse are up; ingestd itself isn't running, so nothing is serving gRPC yet.", "run_shell", '{"cmd": "ss -ltnp | grep LISTEN"}', "LISTEN 0 4096 127.0.0.1:5432  0.0.0.0:*  users:((\"postgres\",pid=812))\nLISTEN 0 4096 0.0.0.0:4222    0.0.0.0:*  users:((\"nats-server\",pid=901))\nLISTEN 0 4096 0.0.0.0:8123    0.0.0.0:*  users:((\"clickhouse-server\",pid=955))"),
    Turn("Prometheus scrapes metrics from port 9187, separate from the gRPC one.", "Got it. Keeping metrics on their own listener means a stuck gRPC server still reports that it's stuck."),
    Turn("Run the unit tests.", "Everything passes except one test in the batcher: `TestFlushOnClose` expects the last partial batch to be written when the writer closes, and it's dropped instead.", "run_tests", '{"path": "./..."}', "ok   tidewater/internal/decode  0.41s\n--- FAIL: TestFlushOnClose (0.02s)\n    batch_test.go:88: got 0 rows written, want 3\nFAIL tidewater/internal/batch  0.09s\nok   tidewater/internal/config  0.01s"),
    Turn("I'm working on branch perf/batch-inserts.", "Noted. The failing flush-on-close test is in the same package, so it's worth fixing it on your branch before you measure anything."),
    Turn("Show me which branches exist on the remote.", "There's main, a release branch for 2.14, a dependency clean-up and an OpenTelemetry branch. Your own work isn't pushed yet.", "run_shell", '{"cmd": "git branch -r"}', "  origin/HEAD -> origin/main\n  origin/main\n  origin/release/2.14\n  origin/chore/go-mod-tidy\n  origin/feat/otel-tracing"),
    Turn("Marta pushed her TLS fix to fix/cert-hot-reload, I need to rebase on it later.", "Okay. If her branch is still moving, wait until it's merged, or rebase onto a fixed commit of it so you're not chasing a moving target."),
    Turn("What's the cleanest way to rebase onto a colleague's branch that's still changing?", "`git rebase --onto their-branch old-base your-branch` replays only your commits onto their latest state. When they force-push, fetch and run the same command with the old tip as the base."),
    Turn("The flaky integration test is tracked in TW-2291.", "Noted. Putting the ticket reference in a comment above the test saves whoever hits it next a search."),
    Turn("Run the integration tests five times and see which one flakes.", "`TestIngestRoundTrip` failed in two of five runs with a context deadline: it waits a fixed two seconds for rows to appear in ClickHouse, and the batch interval is also about two seconds, so it races.", "run_tests", '{"path": "./internal/it/...", "count": 5}', "--- FAIL: TestIngestRoundTrip (2.03s)\n    roundtrip_test.go:57: context deadline exceeded waiting for 10 rows, got 0\n--- FAIL: TestIngestRoundTrip (2.01s)\n    roundtrip_test.go:57: context deadline exceeded waiting for 10 rows, got 4\nFAIL tidewater/internal/it  14.2s\n3 passed, 2 failed"),
    Turn("The memory leak in the decoder is ticket TW-2317, assigned to me.", "Got it. A heap profile from an instance that has been running for a while is the quickest way to see what keeps growing."),
    Turn("Grab a heap profile from the local instance.", "Most retained memory is in `decode.(*Frame).grow`: frames keep their enlarged buffers after a big message, and they're pooled, so every pooled frame ends up the size of the largest message ever seen.", "run_shell", '{"cmd": "go tool pprof -top -inuse_space http://localhost:6060/debug/pprof/heap"}', "Showing nodes accounting for 412.6MB, 96.1% of 429.3MB total\n      flat  flat%   sum%\n  251.8MB 58.65% 58.65%  tidewater/internal/decode.(*Frame).grow\n  102.3MB 23.83% 82.48%  bytes.growSlice\n   41.0MB  9.55% 92.03%  tidewater/internal/batch.(*Writer).append"),
    Turn("We build with Go 1.22.3, it's pinned in the Dockerfile.", "Noted. Then the loop-variable change from 1.22 already applies, so each iteration gets its own variable in goroutines started in a loop."),
    Turn("What's range-over-func in Go, in short?", "It lets `for range` iterate over a function that yields values, so a custom collection can be looped over like a slice. It's standard from Go 1.23, with the `iter` package defining the shapes."),
    Turn("The env var that turns on zstd compression is TIDE_ZSTD_ENABLED.", "Noted. It'd be good to test the decoder with it both on and off while it exists."),
    Turn("Grep for where we read environment variables.", "Configuration is read in one place, `internal/config`, for the NATS URL, the ClickHouse DSN and the batch size. The compression switch isn't read anywhere yet, so setting it currently does nothing.", "run_shell", '{"cmd": "grep -rn \\"os.Getenv\\" --include=*.go ."}', "internal/config/config.go:14:\tNATSURL: os.Getenv(\"TIDE_NATS_URL\"),\ninternal/config/config.go:15:\tClickHouseDSN: os.Getenv(\"TIDE_CH_DSN\"),\ninternal/config/config.go:16:\tBatchSize: atoiOr(os.Getenv(\"TIDE_BATCH_SIZE\"), 500),"),
    Turn("Prod is running ingestd v2.14.7, it was rolled out yesterday.", "Noted. If you need to reproduce a prod issue, check out that tag rather than main; main has the batching changes in it already."),
    Turn("Read the deploy values for prod.", "The image tag is injected at release time, there are three replicas, and the memory limit is 512Mi, which the decoder leak would hit after a few days of uptime.", "read_file", '{"path": "deploy/prod/values.yaml"}', "image:\n  repository: ghcr.io/tidewater/ingestd\n  tag: \"\"  # set by the release job\nreplicaCount: 3\nresources:\n  requests: {cpu: 250m, memory: 256Mi}\n  limits: {memory: 512Mi}"),
    Turn("Staging already has v2.15.0-rc.2 deployed.", "Got it. Staging being a release ahead is a good place to watch memory over a couple of days before it ships."),
    Turn("How do semver pre-release tags sort? Is rc.10 after rc.9?", "Yes. Pre-release identifiers that are purely numeric compare as numbers, so rc.10 comes after rc.9, and any pre-release sorts before the plain release of the same version."),
    Turn("Readings land in the ClickHouse table readings_v4.", "Noted. If you query it by hand, filter on the date first; the table is ordered by device and time, so that's what keeps scans small."),
    Turn("Show me the schema migration for the readings table.", "This migration creates the older v3 table: a MergeTree ordered by device and timestamp, partitioned by month, with a 90-day TTL. The newer table's migration isn't in this directory.", "read_file", '{"path": "migrations/0007_readings.sql"}', "CREATE TABLE IF NOT EXISTS readings_v3 (\n  device_id String,\n  ts DateTime64(3),\n  value Float64\n) ENGINE = MergeTree\nPARTITION BY toYYYYMM(ts)\nORDER BY (device_id, ts)\nTTL toDateTime(ts) + INTERVAL 90 DAY;"),
    Turn("The per-device rate limit is 40 writes per second, set in limits.yaml.", "Noted. That's worth keeping in mind for load tests: a single simulated device will hit the cap well before the service is stressed."),
    Turn("Is golang.org/x/time/rate good enough for limiting per client?", "Yes, for one process. Keep one limiter per client in a map guarded by a mutex, and evict idle ones so the map doesn't grow forever. Across several replicas you'd need a shared store like Redis instead."),
    Turn("Run golangci-lint before I go further.", "Two findings: an assignment to `err` that's never checked in the frame decoder, and an unchecked error from `Shutdown` in main.", "run_shell", '{"cmd": "golangci-lint run ./..."}', "internal/decode/frame.go:88:2: ineffectual assignment to err (ineffassign)\ncmd/ingestd/main.go:41:15: Error return value of `srv.Shutdown` is not checked (errcheck)\n2 issues."),
    Turn("Explain context cancellation in Go like I'm new to it.", "A context is a signal passed down through calls. When the caller cancels it, or its deadline passes, `ctx.Done()` closes, and every function that watches it should stop work and return `ctx.Err()`. You pass it as the first argument and never store it in a struct."),
    Turn("Write a table-driven test for the frame decoder's length check.", "Here's the shape: a slice of cases with a name, input bytes and the expected error, then `for _, tc := range cases { t.Run(tc.name, func(t *testing.T) { _, err := Decode(tc.in); if !errors.Is(err, tc.want) { t.Fatalf(\"got %v, want %v\", err, tc.want) } }) }`, with cases for empty input, a short header and a length larger than the buffer."),
    Turn("Run the decoder tests.", "All decoder tests pass, including the three new length-check cases.", "run_tests", '{"path": "./internal/decode/..."}', "=== RUN   TestDecodeLength\n=== RUN   TestDecodeLength/empty\n=== RUN   TestDecodeLength/short_header\n=== RUN   TestDecodeLength/too_long\n--- PASS: TestDecodeLength (0.00s)\nok   tidewater/internal/decode  0.37s"),
    Turn("What changed in the decoder recently?", "Five commits in the last month; the pooling change three weeks ago is the likely start of the memory growth.", "run_shell", '{"cmd": "git log --oneline -5 -- internal/decode"}', "c81e2f0 decode: reject frames longer than the buffer\n5a9d713 decode: pool frames with sync.Pool\n0f44b1c decode: read the header in one call\n9be2d05 decode: name the length error\n31ac7e8 decode: first version"),
    Turn("What's the difference between a buffered and an unbuffered channel?", "An unbuffered channel hands a value over only when sender and receiver meet, so it synchronises them. A buffered one lets the sender go ahead until the buffer is full, which smooths bursts but can hide a slow consumer."),
    Turn("Show me the Makefile targets.", "Build, test, lint, a proto target and a target that starts the compose stack; `make test` runs with the race detector.", "read_file", '{"path": "Makefile"}', "build:\n\tgo build -o bin/ingestd ./cmd/ingestd\ntest:\n\tgo test -race ./...\nlint:\n\tgolangci-lint run ./...\nproto:\n\tbuf generate\nup:\n\tdocker compose up -d"),
    Turn("How do I make go test show which tests are slow?", "Run with `-v` and look at the times on each `--- PASS` line, or use `gotestsum --jsonfile` and sort by elapsed time. `-json` output piped through a small script works too."),
    Turn("Check disk space, Docker has been eating it.", "The root disk is 91% full and Docker holds about 38 GB, most of it unused images and build cache; `docker system prune` with `--filter until=168h` would free most of it safely.", "run_shell", '{"cmd": "df -h / && docker system df"}', "Filesystem      Size  Used Avail Use% Mounted on\n/dev/nvme0n1p2  234G  212G   22G  91% /\nTYPE            TOTAL  ACTIVE  SIZE     RECLAIMABLE\nImages          41     6       24.1GB   19.8GB (82%)\nBuild Cache     312    0       13.6GB   13.6GB"),
    Turn("When should I use sync.RWMutex instead of sync.Mutex?", "Only when reads vastly outnumber writes and the critical section is long enough to matter. For short sections a plain Mutex is often faster, because RWMutex has more bookkeeping."),
    Turn("Check the CI workflow.", "CI sets Go up from go.mod, caches modules and runs lint and tests in one job; the integration tests aren't run in CI at all.", "read_file", '{"path": ".github/workflows/ci.yml"}', "on: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version-file: go.mod\n      - run: make lint test"),
    Turn("What do HTTP/2 keepalive pings do for long-lived gRPC streams?", "They let each side notice a dead connection that the network silently dropped, and keep idle connections alive through load balancers that close quiet ones. Set them on both client and server, and don't make them too frequent or the server will refuse them."),
    Turn("Write a commit message for the decoder buffer fix.", "\"decode: drop oversized buffers before a frame goes back to the pool, so one large message no longer inflates every pooled frame\". It says what changed and why the memory grew."),
    Turn("Run the benchmarks for the batch writer.", "About 1.9 microseconds and two allocations per row appended; the allocations come from converting each row to a slice of values.", "run_shell", '{"cmd": "go test -bench=Append -benchmem ./internal/batch"}', "goos: linux\ngoarch: amd64\nBenchmarkAppend-8   \t  612403\t      1893 ns/op\t     96 B/op\t       2 allocs/op\nPASS\nok  \ttidewater/internal/batch\t2.31s"),
    Turn("Are two allocations per row bad?", "Not terrible, but at high volume they add garbage-collector work. Reusing a row buffer per batch usually gets it to zero allocations."),
    Turn("What's a good name for a function that splits a batch into chunks of at most n?", "`chunk(rows []Row, n int) [][]Row` is short and clear; `splitEvery` is another option if you prefer verbs."),
    Turn("How do I write a good PR description?", "Say what changes and why in the first two lines, then how you tested it and anything a reviewer should look at closely. Link the ticket, and include before-and-after numbers for performance work."),
    Turn("Is the local compose stack healthy?", "All three dependencies are up and report healthy.", "run_shell", '{"cmd": "docker compose ps --format \\"{{.Name}} {{.Status}}\\""}', "tidewater-postgres-1 Up 3 hours (healthy)\ntidewater-nats-1 Up 3 hours (healthy)\ntidewater-clickhouse-1 Up 3 hours (healthy)"),
    Turn("Give me a checklist before deploying anything on a Friday.", "Is it small and reversible; is the rollback tested; are dashboards and alerts watched by someone who'll be around; is there a feature switch to turn it off; and would waiting until Monday actually cost anything? If that last answer is no, wait."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "7051", {"keyword": "What port does gRPC listen on locally?", "paraphrase": "Where do I point grpcurl on my machine?"}),
        (4, "9187", {"keyword": "Which port are the metrics on?", "paraphrase": "Which number do I hit for the monitoring endpoint?"}),
        (6, "perf/batch-inserts", {"keyword": "What's my branch called?", "paraphrase": "Which git ref has my bulk-write changes?"}),
        (8, "fix/cert-hot-reload", {"keyword": "What's Marta's branch for the TLS fix?", "paraphrase": "Which ref has my teammate's patch for the certificate problem?"}),
        (10, "TW-2291", {"keyword": "Which ticket tracks the flaky integration test?", "paraphrase": "What's the Jira ID for the one that passes and fails at random in CI?"}),
        (12, "TW-2317", {"keyword": "What's the ticket for the memory leak?", "paraphrase": "What's the issue ID for the RAM blowing up over time?"}),
        (14, "1.22.3", {"keyword": "Which Go version do we build with?", "paraphrase": "What compiler release does the container use?"}),
        (16, "TIDE_ZSTD_ENABLED", {"keyword": "What's the env var for zstd compression?", "paraphrase": "How do I switch on the smaller payload encoding?"}),
        (18, "v2.14.7", {"keyword": "What version is prod running?", "paraphrase": "Which release is live for customers right now?"}),
        (20, "v2.15.0-rc.2", {"keyword": "What version is on staging?", "paraphrase": "Which build did the pre-production cluster get?"}),
        (22, "readings_v4", {"keyword": "Which ClickHouse table do readings go to?", "paraphrase": "Where do the sensor values end up in the analytics database?"}),
        (24, "40 writes", {"keyword": "What's the per-device rate limit?", "paraphrase": "How often can one sensor send before we throttle it?"}),
    ],
    [
        ("Which port is Prometheus on?", 4, 2),
        ("What's Marta's branch?", 8, 6),
        ("Which TW ticket is the leak?", 12, 10),
        ("Which ingestd version is staging on?", 20, 18),
    ],
    [
        "morning, coffee first",
        "thanks, that helps",
        "Should I learn Rust or Haskell next?",
        "What's the speed of light?",
        "How do I center a div?",
        "lmao ok",
        "Why are shipping containers all the same size?",
        "Can you explain what a monad is?",
        "How do I resize a partition on Linux?",
        "Who founded Wikipedia?",
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
