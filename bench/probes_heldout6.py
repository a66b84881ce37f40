# ruff: noqa: E501, E402
"""A sixth held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the six sets. The dataclasses, :func:`questions`, the comparison
keys and the per-conversation checks are that module's own, imported here, so every set is held to one rule book. Sets
1 to 5 were used while recall was tuned or reported; this one was written afterwards, without seeing how recall works,
for reporting.

Four new conversations with other people, subjects and facts: ``english`` (a hobby beekeeper who crews at a sailing
club), ``korean`` (a family that moved to the country to grow strawberries in greenhouses), ``mixed`` (a Korean PhD
student in a molecular biology lab, Korean with English lab words) and ``code`` (a Rails developer on a booking app for
veterinary clinics, with shell, file, grep and test tools and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words that describe the thing rather
than name it, with and without "my"/"우리"/"제", as requests ("remind me ...", "알려줘"), in past and present tense;
look-alikes where the other words pick one of two facts of a kind (two phone numbers, two codes, two temperatures, two
dates, two storage places, two bookings, two ports, two branches, two versions, two tickets); and unrelated questions
of every sort, from greetings and thanks to how-tos that share common words with filler turns, first-person news never
mentioned, writing requests and a few "why" questions.
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
#: the people this set names, so a test can hold that sets 1 to 5 name none of them
PEOPLE = (
    "Orla", "Fergus", "Hattie Brennock", "Wilf Ashdown", "도하람", "연규태", "구하진", "Callum", "Sunniva",
)

# (the data keeps one turn and one fact per line)

# --- 1. English: a hobby beekeeper who crews at a sailing club ---------------------------------------------------

_EN_TURNS = [
    Turn("Hi! I'm Orla. I keep four hives on an allotment and crew for my husband Fergus at the sailing club most weekends. Between the bees and the boats I lose track of everything, so I'll note things here as I go.", "Lovely to meet you, Orla. Drop things in whenever you like and I'll help you keep the bee and boat details straight."),
    Turn("My apiary is registered with the National Bee Unit as NBU-30586.", "Noted. Keep that handy: inspectors ask for it, and being registered means you get disease alerts for your area."),
    Turn("Do I have to register a second apiary if I move two hives to a friend's orchard?", "It isn't compulsory in England, but it's worth it: the inspectors can only warn you about disease near a site they know about. You can add a second site to the same account in a few minutes."),
    Turn("The seasonal bee inspector for our area is Hattie Brennock, mobile 07823 554 190, if I ever suspect foulbrood.", "Got it. If you do suspect it, don't move frames or kit between hives; call her first and leave the colony closed up."),
    Turn("What does foulbrood actually look like? I'm paranoid every time I open a hive.", "American foulbrood shows as sunken, greasy cappings with pin holes and brown larvae that string out on a matchstick; European foulbrood shows twisted, melted-looking larvae. Healthy brood is pearly white and plump. If in doubt, take a photo and ask."),
    Turn("The club bosun is Wilf Ashdown, mobile 07456 213 877; he's the one to ring if the launch trolley or the rescue boat needs sorting.", "Noted. Save it in your phone as well, since you'll usually be ringing him from the slipway with wet hands."),
    Turn("My mobile keeps dying when I'm out on the water. Is a waterproof power bank worth it?", "If it's rated IPX7 or better, yes. Cold drains batteries fast, so keeping the phone in a dry pouch inside your buoyancy aid helps as much as the extra charge."),
    Turn("Our Laser's sail number is 218734; it's on the mainsail and goes on every race entry form.", "Got it. Make sure the digits are readable on both sides of the sail; race officers can't score a boat they can't identify."),
    Turn("The mainsail is getting baggy after three seasons. Replace it or have it recut?", "For club racing a new one usually makes the bigger difference; recutting a stretched sail helps less than people hope, and a standard sail for that class isn't expensive."),
    Turn("Fergus keeps his keelboat on mooring B14 in the outer harbour.", "Noted. Outer moorings take the swell, so check the chafe on the pennant after every blow."),
    Turn("What do moorings usually cost a year? The harbour fees went up again.", "It varies a lot by area: a swing mooring can be a few hundred pounds a year in a quiet estuary and well over a thousand in a busy harbour, plus the cost of the tackle and its yearly inspection."),
    Turn("The Sunday pursuit race: our start time is 10:50.", "Noted. In a pursuit every class starts at its own time, so set a countdown on your watch rather than listening for the other guns."),
    Turn("How does a pursuit race work? Everyone starts at different times?", "Yes: slower classes go first and faster ones later, timed so that everyone would finish together if sailed to their handicap. Whoever is in front when the time runs out wins, which makes for a tense last lap."),
    Turn("We took 23.5 kg of honey off three supers at the spring harvest.", "That's a good haul. Rapeseed honey sets quickly, so jar it or soft-set it soon."),
    Turn("My spring honey has gone hard and grainy in the jars. Has it spoiled?", "Not at all, it has crystallised, which is natural. Stand the jars in warm water at about 40°C until it clears, or stir it into a smooth soft-set honey that spreads nicely."),
    Turn("I put the Apivar strips in on 9 September; they come out after ten weeks.", "Got it. Write the removal date on the hive roof too; strips left in too long help the mites build resistance."),
    Turn("How do you do a mite count without killing any bees?", "Use a sticky board under an open mesh floor for a few days and count the natural drop, or do a sugar roll: shake about 300 bees in a jar with icing sugar and count the mites that fall out. The bees walk away fine."),
    Turn("The sailing club's laying-up supper is on 22 November at the clubhouse.", "Noted. That's usually when the boats come out too, so book a crane slot early."),
    Turn("I've been asked to say a few words at the supper about the junior sailors. Any tips?", "Keep it to two or three minutes: one funny moment from the season, a thank-you to the volunteers by name and a word of praise for the kids. Finish by raising a glass to the instructors."),
    Turn("The padlock on the apiary gate at the allotment is 5193.", "Got it. Share it only with whoever checks the hives when you're away."),
    Turn("The padlock on my shed has rusted solid. How do I free it?", "Spray a penetrating oil into the keyhole and shackle, leave it overnight and work the key gently back and forth. Graphite powder afterwards keeps it moving; don't use grease, it collects grit."),
    Turn("The clubhouse changing rooms have a keypad: 2740, then the hash key.", "Noted. Those keypads often need the hash pressed firmly, so if it doesn't open first time, clear it and try again."),
    Turn("Someone keeps leaving the changing room door propped open. How do I raise it with the committee without sounding petty?", "Frame it as security and warmth rather than blame: say kit has gone missing from open clubhouses elsewhere and ask whether a door closer or a sign would help. Committees like a cheap fix they can approve quickly."),
    Turn("The dinghy's insurance is with Navigators & General, policy NG-77420-D.", "Noted. Check it covers racing and third-party liability at the level the club asks for."),
    Turn("Does home insurance ever cover beehives or is it always separate?", "Usually not; most household policies exclude livestock, and bees count. Membership of a beekeeping association often includes public liability cover, which is the part that matters most."),
    Turn("Bigger question. Fergus and I want to take the keelboat on a week's cruise along the south coast in August, but neither of us has done more than day sails. We'd go from harbour to harbour, never more than six hours a day, and be back on the mooring by the Saturday. I get seasick if it's rough and he gets grumpy if we motor. How should we plan it so it stays fun?", "Plan short legs with a bail-out harbour on each one, and pick a route that lets you turn back downwind if the forecast changes. Check the tide for each leg and leave with it under you, which keeps the boat flatter and the trip shorter. Keep one spare day for weather, eat before you go and stay on deck looking at the horizon if you feel queasy. Agree a rule in advance: sail when it's above four knots, motor when it isn't."),
    Turn("How do I make candles from the wax cappings I saved?", "Melt the cappings in a double boiler, strain them through an old pair of tights to remove debris, and pour into moulds with a primed cotton wick. Let them cool slowly at room temperature so they don't crack."),
    Turn("Recommend a novel set at sea.", "'The Cruel Sea' by Nicholas Monsarrat is gripping, and 'Moby-Dick' is worth it if you fancy a big one. For something lighter, 'Swallows and Amazons' is still a joy."),
    Turn("What's a good stretch after a long day hauling ropes?", "Clasp your hands behind your back and open your chest for thirty seconds, then stretch each forearm by pulling your fingers back gently with the other hand. Roll your shoulders slowly to finish."),
    Turn("Help me write a thank-you note to the neighbour who watered our tomatoes while we were away.", "\"Dear Jean, thank you so much for looking after the tomatoes. They're thriving, and that's all down to you. Please help yourself to a bowlful whenever you like!\""),
    Turn("Why do my tomatoes keep splitting?", "Splitting comes from uneven watering: a heavy drink after a dry spell makes the fruit swell faster than the skin can stretch. Water little and often, and mulch to keep the soil evenly moist."),
    Turn("How do I clean a cast-iron pan that's gone rusty?", "Scrub the rust off with steel wool, wash and dry it completely on the hob, then rub in a thin layer of oil and bake it upside down at about 230°C for an hour."),
    Turn("What's the difference between a cold and flu?", "A cold comes on gradually with a runny nose and sore throat. Flu hits suddenly with fever, aches and exhaustion, and can knock you out for a week."),
    Turn("Explain tides simply.", "The moon's gravity pulls the oceans into a bulge on the side facing it and another on the far side. As the Earth turns through both bulges, most coasts get two high and two low tides a day."),
    Turn("How many calories does an hour of walking burn?", "Roughly 250 to 350 for most adults at a steady pace, more uphill or with a heavy rucksack."),
    Turn("Ideas for a rainy bank holiday with two nephews aged eight and ten?", "A cinema trip, a den built from every blanket in the house, or a baking challenge with a judging panel. A museum with hands-on galleries also goes down well."),
    Turn("How do I stop the cat bringing in mice?", "A collar with a bell warns prey, and keeping her in at dawn and dusk when rodents are most active cuts it down a lot. Play sessions with a wand toy satisfy some of the hunting urge."),
    Turn("What's the best way to store woollen jumpers over the summer?", "Wash them first, since moths go for dirty wool, then fold them into sealed bags or boxes with cedar blocks or lavender sachets. Don't hang knitwear; it stretches out of shape."),
    Turn("Who painted The Hay Wain?", "John Constable, in 1821."),
    Turn("How do I make a simple chutney with windfall apples?", "Simmer chopped apples with onions, sultanas, brown sugar, cider vinegar and a little ginger for about ninety minutes until thick, then pot it in sterilised jars. It's best after a month."),
    Turn("What's a quick way to learn the main knots?", "Start with the bowline, clove hitch, round turn and two half hitches, and reef knot. Practise each one with your eyes shut on a short length of line while watching TV."),
    Turn("What should be in a basic first-aid kit for the car?", "Plasters, sterile dressings, a bandage, antiseptic wipes, gloves, scissors, a foil blanket and any medicines your family needs. Check it once a year for anything out of date."),
    Turn("How do I politely leave a WhatsApp group?", "Post a short message first, like \"I'm stepping back from a few groups to keep my phone quieter. Thanks all, and do message me directly!\", then leave."),
    Turn("Recommend a film about the sea for a cosy evening.", "'The Old Man and the Sea' if you want something quiet, 'Master and Commander' for an adventure, or 'Finding Nemo' if anyone younger is watching."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "NBU-30586", {"keyword": "What's my apiary registration number?", "paraphrase": "Remind me the official ID the government has for where I keep the hives."}),
        (4, "07823 554 190", {"keyword": "What's the bee inspector's number?", "paraphrase": "How do I reach the lady who checks colonies for disease around here?"}),
        (6, "07456 213 877", {"keyword": "What's Wilf's mobile?", "paraphrase": "How do I get hold of the guy who fixes broken gear down at the slipway?"}),
        (8, "218734", {"keyword": "What's our sail number?", "paraphrase": "Which digits identify our little single-hander when we compete?"}),
        (10, "B14", {"keyword": "Where's Fergus's keelboat moored?", "paraphrase": "Where does my husband leave his yacht tied up?"}),
        (12, "10:50", {"keyword": "What time does our pursuit race start on Sunday?", "paraphrase": "When do we set off in the staggered event at the weekend?"}),
        (14, "23.5 kg", {"keyword": "How much honey did we take at the spring harvest?", "paraphrase": "What did the bees give us earlier this year, by weight?"}),
        (16, "9 September", {"keyword": "When did the Apivar strips go in?", "paraphrase": "What date did I begin the varroa treatment?"}),
        (18, "22 November", {"keyword": "When is the laying-up supper?", "paraphrase": "When's the end-of-season meal with the other sailors?"}),
        (20, "5193", {"keyword": "What's the code for the apiary gate padlock?", "paraphrase": "What's the combination to get into my bee yard?"}),
        (22, "2740", {"keyword": "What's the keypad code for the changing rooms?", "paraphrase": "What's the combination to get in where we peel off our wetsuits?"}),
        (24, "NG-77420-D", {"keyword": "What's the dinghy insurance policy number?", "paraphrase": "remind me the reference for the cover on our small boat"}),
    ],
    [
        ("What's the bosun's mobile number?", 6, 4),
        ("When's the club supper?", 18, 16),
        ("What's the changing room code?", 22, 20),
        ("What number goes on the race entry form?", 8, 2),
    ],
    [
        "Morning! Kettle's on.",
        "Thanks a million, you're a star.",
        "How do I get candle wax off a tablecloth?",
        "I've just signed up for Italian classes.",
        "Write a limerick about a grumpy seagull.",
        "Why do leaves turn red in autumn?",
        "Why do we get hiccups?",
        "What's the tallest building in the world?",
        "Can you suggest a board game for four players?",
        "Who wrote Wuthering Heights?",
    ],
)


# --- 2. Korean: 논산으로 귀농해 딸기 하우스를 하는 가족 --------------------------------------------------------------

_KO_TURNS = [
    Turn("안녕하세요. 작년에 서울 살다가 논산으로 귀농해서 딸기 하우스 세 동을 하고 있어요. 챙길 게 너무 많아서 여기다 적어 둘게요.", "네, 편하게 적어 주세요. 농사 일정이랑 연락처는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("농협 조합원 번호는 20-4471383이에요. 자재 살 때마다 물어봐요.", "적어 뒀어요. 영수증도 모아 두시면 연말에 배당 받을 때 확인하기 편해요."),
    Turn("농협 조합원 가입하면 실제로 좋은 게 뭐예요? 출자금이 좀 아까워서요.", "출자 배당과 이용고 배당, 영농자재 할인, 교육 지원이 대표적이에요. 농협이랑 거래를 많이 할수록 돌려받는 게 커져요."),
    Turn("농업기술센터 도하람 주무관님 번호는 010-6258-4410이에요. 병해충 생기면 연락하래요.", "알겠어요. 증상 사진을 먼저 보내 드리면 상담이 훨씬 빨라요."),
    Turn("잎 뒷면에 하얀 가루 같은 게 생겼는데 이것도 병해충이에요?", "흰가루병일 가능성이 커요. 환기를 늘려서 습도를 낮추고, 초기에 딸기에 등록된 약제를 뿌리세요. 심한 잎은 따서 하우스 밖으로 치우시고요."),
    Turn("트랙터랑 관리기 고장 나면 연규태 기사님한테 전화하면 돼요. 010-9134-2786이요.", "적어 뒀어요. 바쁜 철엔 기사님도 밀리니까 겨울에 미리 점검을 부탁드려 두세요."),
    Turn("관리기 시동이 자꾸 꺼지는데 제가 먼저 볼 수 있는 게 있을까요?", "연료 필터랑 에어 필터가 막혔는지, 오래 묵은 휘발유가 들어 있는지부터 보세요. 점화 플러그에 그을음이 많으면 닦거나 바꿔 주시고요."),
    Turn("하우스 야간 온도는 7.5도로 맞춰 놨어요.", "알겠어요. 밤에 너무 낮으면 생육이 더디고 너무 높으면 웃자라니까 그 정도로 관리하시면 돼요."),
    Turn("요즘 밤에 영하로 떨어지는데 온풍기 기름값이 너무 나와요. 아낄 방법 있을까요?", "다겹 보온 커튼을 쓰고, 비닐 틈이랑 출입문 주변을 잘 막는 것만으로도 꽤 줄어요. 온풍기 덕트를 골고루 깔아서 한쪽만 데워지지 않게 하세요."),
    Turn("육묘하우스는 낮에 26.5도 넘으면 측창이 자동으로 열리게 해 뒀어요.", "좋아요. 어린 모는 더위에 약하니 그 정도가 안전해요."),
    Turn("측창 모터가 가끔 안 돌아가요. 어디부터 봐야 돼요?", "전원이 제대로 들어오는지, 리미트 스위치가 틀어지지 않았는지부터 보세요. 컨트롤러 설정이 바뀌었을 수도 있으니 수동으로 한 번 돌려 보면 원인이 좁혀져요."),
    Turn("설향 모종 정식은 9월 14일에 하기로 했어요.", "적어 뒀어요. 정식 며칠 전에 두둑에 물을 충분히 줘서 흙을 촉촉하게 해 두세요."),
    Turn("정식하고 나서 모종이 축 처지는데 괜찮은 거예요?", "며칠은 몸살을 해서 처지는 게 흔해요. 한낮엔 차광을 조금 해 주고 물을 자주 나눠 주면 일주일 안에 대부분 일어나요."),
    Turn("우체국 택배 계약 단가는 한 상자에 3,850원이에요.", "적어 뒀어요. 물량이 늘면 단가를 다시 협상할 수도 있어요."),
    Turn("딸기를 택배로 보내면 자꾸 물러서 도착해요. 포장을 어떻게 해야 돼요?", "한 알씩 자리가 잡히는 난좌 트레이에 담고 아이스팩을 넣어 보내세요. 주말에 묵지 않게 월요일이나 화요일에 발송하는 게 좋아요."),
    Turn("로컬푸드 직매장 출하자 코드는 LF-5316이에요. 라벨 뽑을 때 필요해요.", "적어 뒀어요. 라벨 프린터 옆에 붙여 두셔도 편해요."),
    Turn("로컬푸드 매장에 내면 가격은 제가 정하는 거예요?", "네, 대부분 농가가 직접 정하고 매장이 판매 수수료를 떼요. 같은 매장에 나온 다른 농가 가격을 보고 맞추시면 돼요."),
    Turn("공판장 출하는 화요일이랑 금요일에 해요.", "알겠어요. 전날 저녁에 선별해서 예냉해 두시면 아침이 훨씬 여유로워요."),
    Turn("공판장 경매 가격이 날마다 왜 이렇게 달라요?", "그날 들어온 물량과 날씨, 명절 같은 수요에 따라 바로 움직여서 그래요. 같은 날이라도 품질 등급에 따라 차이가 크고요."),
    Turn("공익직불금 신청 마감이 4월 30일이래요.", "적어 뒀어요. 읍면사무소에 가거나 온라인으로 신청할 수 있어요."),
    Turn("직불금 받으려면 지켜야 하는 준수사항 같은 게 있다던데 뭐예요?", "농지를 농업에 맞게 쓰는 것, 농약 안전 사용, 영농 폐기물 처리, 농업인 의무 교육 이수 같은 것들이에요. 어기면 감액될 수 있어요."),
    Turn("유치원 딸기따기 체험 단체 예약이 32명으로 들어왔어요.", "좋네요! 인원이 많으니 두 조로 나눠서 시간차로 들어가게 하면 덜 복잡해요."),
    Turn("체험 온 아이들이 다칠까 봐 걱정돼요. 보험을 따로 들어야 해요?", "체험 농장은 영업배상책임보험을 들어 두시는 게 좋아요. 통로에 걸려 넘어질 만한 호스나 줄은 미리 치워 두시고요."),
    Turn("양액은 EC 1.2로 맞춰서 주고 있어요.", "적어 뒀어요. 생육 단계랑 날씨에 따라 조금씩 조절하시면 돼요."),
    Turn("양액기에서 EC 값이 들쭉날쭉해요. 센서 문제일까요?", "센서에 이물질이 끼었거나 교정이 틀어졌을 수 있어요. 표준액으로 한 번 교정해 보고, 그래도 흔들리면 원수 쪽 수질도 확인해 보세요."),
    Turn("다음 달에 아내랑 딸 데리고 처음으로 가족여행을 가려고 해요. 수확철이라 길게는 못 비우고 1박 2일만 가능해요. 논산에서 두 시간 안쪽이면 좋겠고, 딸은 일곱 살이라 뛰어놀 데가 있으면 좋겠어요. 아내는 조용한 한옥 숙소를 원하고요. 어디가 좋을까요?", "전주를 추천해요. 논산에서 차로 한 시간 남짓이고, 교동 쪽 한옥 숙소는 조용해서 쉬기 좋아요. 첫날은 경기전이랑 골목 산책을 하고 저녁엔 한옥 마당에서 쉬시고, 둘째 날 아침엔 덕진공원에서 아이가 뛰어놀다가 점심 먹고 돌아오시면 무리가 없어요."),
    Turn("된장 처음 담가 보려는데 메주는 언제 사야 돼요?", "보통 음력 정월, 양력으로는 2~3월에 장을 담가요. 메주는 늦가을부터 나오니 겨울에 미리 사 두시면 돼요."),
    Turn("허리 안 아프게 쪼그려 앉아서 일하는 방법 있어요?", "바퀴 달린 작업 의자를 쓰면 훨씬 편해요. 30분마다 일어나서 허리를 뒤로 젖혀 주고, 무거운 건 무릎을 굽혀서 드세요."),
    Turn("딸이 요즘 그림 그리는 걸 좋아하는데 미술학원 보내도 될까요?", "좋아하면 보내 보세요. 일곱 살이면 기술보다 자유롭게 표현하게 해 주는 곳이 잘 맞아요. 체험 수업을 먼저 들어 보는 게 좋아요."),
    Turn("시골이라 인터넷이 너무 느려요. 뭘 바꿔야 돼요?", "통신사에 광랜이 들어오는지 먼저 물어보세요. 안 되면 공유기를 집 가운데로 옮기거나 메시 와이파이를 쓰면 체감이 나아져요."),
    Turn("블로그로 농산물 홍보하려면 뭐부터 해요?", "농장 이야기와 작업 과정을 사진으로 꾸준히 올리는 게 시작이에요. 일주일에 두 번 정도 정해서 올리고, 주문 방법을 글마다 끝에 적어 두세요."),
    Turn("장인어른 칠순 선물 뭐가 좋을까요?", "건강 관련 선물이나 가족사진 앨범이 많이 드려요. 형제들과 돈을 모아서 여행을 보내 드리는 것도 좋아하세요."),
    Turn("겨울에 수도관 안 얼게 하려면 어떻게 해요?", "보온재로 노출된 배관을 감싸고, 한파가 오는 밤엔 물을 조금씩 틀어 두세요. 계량기함 안에 헌 옷을 채워 두는 것도 도움이 돼요."),
    Turn("아내 생일에 깜짝 이벤트 하고 싶은데 아이디어 있어요?", "딸이랑 같이 케이크를 만들고 손편지를 준비해 보세요. 시골이면 별 잘 보이는 곳에 돗자리 깔고 야식 먹는 것도 기억에 남아요."),
    Turn("스마트스토어 수수료는 얼마나 나가요?", "결제 수수료와 판매 수수료를 합쳐서 보통 매출의 몇 퍼센트 수준이에요. 유입 경로에 따라 달라지니 정산 내역을 한 번 확인해 보세요."),
    Turn("고구마 오래 보관하는 법 알려 주세요.", "신문지에 싸서 통풍 잘 되는 상자에 넣고 12~15도 정도 되는 곳에 두세요. 냉장고에 넣으면 오히려 금방 상해요."),
    Turn("동네 어르신들이랑 친해지려면 어떻게 해요?", "마을 회관에 가끔 간식을 들고 인사 드리고, 마을 행사나 울력에 빠지지 않는 게 제일이에요. 농사 조언을 여쭤보면 좋아하세요."),
    Turn("농업인도 종합소득세 신고를 해야 돼요?", "식량작물 재배는 비과세지만 딸기 같은 작물은 수입 규모에 따라 신고 대상이 될 수 있어요. 세무사나 농협 세무 상담을 한 번 받아 보세요."),
    Turn("딸 한글 떼는 데 좋은 책 있어요?", "그림이 크고 글이 반복되는 그림책이 좋아요. 하루 10분씩 같이 소리 내어 읽고, 간판이나 과자 이름을 읽어 보게 하는 것도 효과가 있어요."),
    Turn("마당에서 닭 몇 마리 키워 보고 싶은데 어렵나요?", "서너 마리는 어렵지 않아요. 족제비나 고양이를 막을 튼튼한 닭장, 깨끗한 물, 모래 목욕할 자리만 있으면 돼요."),
    Turn("경운기 운전할 때 특히 조심할 게 뭐예요?", "내리막에서 조향을 반대로 꺾는 실수가 사고가 많이 나요. 도로에 나갈 땐 반사판과 등화를 꼭 켜고, 경사진 곳에서는 천천히 다니세요."),
    Turn("무릎 보호대 차고 일하면 효과가 있어요?", "쪼그려 앉는 작업이 많으면 쿠션형 보호대가 충격을 줄여 줘요. 다만 통증이 오래가면 병원에서 진료를 받아 보세요."),
    Turn("유튜브 시작하려면 장비가 뭐가 필요해요?", "처음엔 휴대폰, 작은 삼각대, 핀 마이크면 충분해요. 소리가 화질보다 중요하니 마이크부터 챙기세요."),
    Turn("저녁에 막걸리 안주로 뭐가 좋을까요?", "김치전, 두부김치, 도토리묵 무침이 잘 어울려요. 간단하게는 파전도 좋고요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "20-4471383", {"keyword": "농협 조합원 번호 뭐였지?", "paraphrase": "우리 동네 협동조합 회원 넘버 알려줘", "endings": "농협 조합원 번호가 뭐였지?"}),
        (4, "010-6258-4410", {"keyword": "농업기술센터 주무관님 번호 알려줘", "paraphrase": "벌레 꼬이거나 작물 아플 때 상담해 주시는 공무원 전화 뭐였지?", "endings": "도하람 주무관님한테 연락하려면 번호가 뭐야?"}),
        (6, "010-9134-2786", {"keyword": "연규태 기사님 번호 뭐였지?", "paraphrase": "농기계 망가지면 고쳐 주시는 분 연락처 좀", "endings": "연규태 기사님은 전화번호가 뭐였지?"}),
        (8, "7.5도", {"keyword": "하우스 야간 온도 몇 도로 맞췄지?", "paraphrase": "밤에 비닐집 안을 얼마나 따뜻하게 해 두기로 했지?", "endings": "하우스 야간 온도를 몇 도에 해 놨더라?"}),
        (10, "26.5도", {"keyword": "육묘하우스 측창 몇 도에 열리지?", "paraphrase": "모종 기르는 비닐집은 얼마나 더워지면 옆 창문이 저절로 젖혀져?", "endings": "육묘하우스에서 측창은 몇 도에 열려?"}),
        (12, "9월 14일", {"keyword": "설향 정식 언제 하기로 했지?", "paraphrase": "딸기 모 밭에 옮겨 심는 날짜가 언제였지?", "endings": "설향 모종을 언제 정식해?"}),
        (14, "3,850원", {"keyword": "우체국 택배 단가 얼마였지?", "paraphrase": "소포 박스당 부치는 값 얼마로 정했지?", "endings": "우체국 택배는 단가가 얼마야?"}),
        (16, "LF-5316", {"keyword": "로컬푸드 출하자 코드 뭐였지?", "paraphrase": "직거래 가게에 물건 낼 때 쓰는 내 고유 번호 알려줘", "endings": "로컬푸드 매장에 낼 때 출하자 코드가 뭐였지?"}),
        (18, "화요일이랑 금요일", {"keyword": "공판장 출하 무슨 요일이야?", "paraphrase": "도매시장 경매에 딸기 내는 날이 언제였지?", "endings": "공판장에 출하하는 날이 무슨 요일이야?"}),
        (20, "4월 30일", {"keyword": "공익직불금 신청 마감 언제야?", "paraphrase": "나라에서 주는 농가 보조금 서류 언제까지 내야 돼?", "endings": "공익직불금은 신청을 언제까지 해야 돼?"}),
        (22, "32명", {"keyword": "유치원 딸기따기 체험 몇 명 예약했지?", "paraphrase": "어린이집 꼬마들 수확하러 오는 거 인원 몇이었지?", "endings": "유치원 체험은 예약이 몇 명이야?"}),
        (24, "EC 1.2", {"keyword": "양액 EC 얼마로 맞췄지?", "paraphrase": "비료 탄 물 농도를 얼마로 해 놨더라?", "endings": "양액 EC가 얼마였지?"}),
    ],
    [
        ("관리기 고치는 기사님 번호 뭐였지?", 6, 4),
        ("육묘하우스 몇 도로 해놨지?", 10, 8),
        ("직불금 마감 며칠이었지?", 20, 12),
        ("로컬푸드 코드 뭐였더라?", 16, 2),
    ],
    [
        "좋은 아침이에요 ☀️",
        "고마워요, 덕분에 살았어요",
        "ㅎㅎ 그러네요",
        "김치전 바삭하게 부치는 법 알려줘요",
        "저 다음 달에 운전면허 학원 등록했어요",
        "조카 졸업 축하 문자 좀 써 줄래요?",
        "왜 바닷물은 짜요?",
        "이순신 장군은 몇 년에 태어났어요?",
        "가을 단풍 구경 가기 좋은 산 추천해 줘요",
        "요즘 어깨가 결리는데 뭐가 좋아요?",
    ],
)


# --- 3. Mixed Korean/English: 분자생물학 랩 박사과정 대학원생의 실험 메모와 잡담 ----------------------------------------

_MX_TURNS = [
    Turn("안녕하세요, 분자생물학 랩 박사과정 2년차 구하진이에요. 실험 일정이랑 sample 위치를 자꾸 까먹어서 여기 적어 둘게요.", "네, 편하게 적어 주세요. sample 위치나 장비 예약, 마감 같은 건 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("제 샘플 상자는 -80 freezer B칸, rack 4의 box 17이에요.", "적어 뒀어요. 상자 옆면에 이름이랑 날짜를 같이 써 두면 정리할 때 덜 헷갈려요."),
    Turn("-80 freezer 문을 오래 열어 두면 샘플 상해요? 찾는 데 자꾸 시간이 걸려서요.", "잠깐은 괜찮지만 자주 오래 열면 서리가 끼고 안쪽 온도가 올라가서 freeze-thaw가 생겨요. rack 위치 map을 문에 붙여 두면 찾는 시간이 확 줄어요."),
    Turn("HEK293 master stock은 LN2 tank canister 6번에 넣어 뒀어요.", "알겠어요. 액체질소 보충 일정도 같이 확인해 두세요."),
    Turn("LN2 다룰 때 장갑은 어떤 거 껴야 돼요? 일반 nitrile 장갑으로 해도 돼요?", "nitrile 장갑은 얇아서 바로 얼어요. cryo 전용 장갑이랑 face shield를 쓰시고, 환기 안 되는 작은 방에서는 산소 농도도 조심하세요."),
    Turn("confocal은 매주 목요일 1시 반부터 세 시간 잡았어요.", "알겠어요. 끝나면 laser 끄는 순서랑 objective 닦는 것 잊지 마세요."),
    Turn("confocal 이미지가 자꾸 bleaching 돼요. 설정 뭘 바꿔야 해요?", "laser power를 낮추고 gain을 조금 올리세요. scan 속도를 빠르게 하고 averaging으로 보완하거나, antifade mounting medium을 쓰는 것도 도움이 돼요."),
    Turn("FACS sorting은 core facility에 화요일 오전 9시 반으로 예약했어요.", "적어 뒀어요. sorting 전에 filter cap tube로 세포를 한 번 걸러 가면 nozzle 막힐 일이 적어요."),
    Turn("FACS 할 때 compensation이 뭐예요? 선배가 설명해 줬는데 잘 모르겠어요.", "형광 색소끼리 빛이 겹쳐서 다른 채널에 새어 들어가는 걸 빼 주는 보정이에요. 색소 하나씩만 염색한 single-stain control로 얼마나 새는지 재서 계산해요."),
    Turn("학회 abstract 마감은 5월 23일이에요, 분자세포생물학회 거요.", "적어 뒀어요. 교수님 검토 시간까지 생각하면 일주일 전에는 초안이 있어야 해요."),
    Turn("abstract 영어로 쓸 때 결과는 현재형으로 써요, 과거형으로 써요?", "내가 한 실험과 결과는 과거형, 결론이나 이미 알려진 사실은 현재형으로 쓰는 게 일반적이에요."),
    Turn("학위논문 심사 신청 마감은 6월 9일이에요.", "알겠어요. 신청서에 지도교수님 서명이 필요할 수 있으니 미리 받아 두세요."),
    Turn("심사위원은 보통 몇 명이고 누가 정해요?", "박사는 보통 다섯 명이고, 지도교수님이 후보를 정해서 학과에 올려요. 외부 심사위원이 한 명 이상 들어가야 하는 학교가 많아요."),
    Turn("anti-GFP antibody 재주문할 때 catalog 번호는 GT-8841이에요.", "적어 뒀어요. lot가 바뀌면 titration을 한 번 다시 해 보세요."),
    Turn("antibody 희석 배수는 어떻게 정해요? datasheet 권장 범위가 너무 넓어요.", "권장 범위 안에서 세 농도 정도로 titration 해서 signal 대비 background가 제일 깨끗한 걸 고르세요. 한 번 정하면 lot 바뀔 때만 다시 보면 돼요."),
    Turn("시약 주문은 연구비 카드 말고 과제번호 RS-3094로 걸어야 해요.", "알겠어요. 주문서에 그 번호를 빠뜨리면 정산이 늦어지니 템플릿에 넣어 두세요."),
    Turn("연구비로 노트북 사도 돼요? 선배들마다 된다, 안 된다 말이 달라요.", "과제 성격과 기관 규정에 따라 달라요. 보통 연구 전용이라는 근거가 있으면 되지만 사전 승인이 필요한 경우가 많으니 산학협력단에 먼저 물어보세요."),
    Turn("HeLa 세포는 지금 passage 23이에요. 30 넘으면 새로 녹이려고요.", "좋은 기준이에요. 계대가 많아지면 특성이 바뀔 수 있으니까요."),
    Turn("cell culture 하다가 contamination 생기면 제일 먼저 뭐 해요?", "오염된 flask는 바로 밀봉해서 버리고, hood와 incubator를 소독하세요. 같은 배지나 시약을 쓴 다른 세포도 며칠 잘 지켜봐야 해요."),
    Turn("lab meeting은 매주 수요일 4시에 생명과학관 507호에서 해요.", "적어 뒀어요. 발표 차례인 주는 전날까지 자료를 올려 두면 좋겠네요."),
    Turn("lab meeting 발표 자료는 몇 장 정도가 적당해요?", "15분 발표면 10장 안팎이 적당해요. 데이터 슬라이드마다 결론을 제목으로 달면 질문이 훨씬 정리돼요."),
    Turn("동물실험 IACUC 승인 번호는 KBR-7715-02예요.", "적어 뒀어요. 실험 기록지마다 그 번호를 적어 두면 점검 때 편해요."),
    Turn("IACUC 승인 받은 마릿수보다 더 쓰게 되면 어떻게 해요?", "쓰기 전에 변경 승인을 먼저 받아야 해요. 이미 넘었다면 바로 위원회에 알리고 사유를 보고하세요."),
    Turn("qPCR annealing 온도는 58.5도로 정했어요.", "알겠어요. gradient로 확인하신 값이면 그대로 가시면 돼요."),
    Turn("qPCR에서 Ct 값이 35 넘게 나오면 믿어도 돼요?", "35가 넘으면 발현이 아주 낮거나 비특이적인 증폭일 수 있어서 조심해야 해요. melt curve랑 no-template control을 같이 보고, cDNA 양을 늘려서 다시 해 보세요."),
    Turn("요즘 교수님이랑 진로 얘기를 해야 하는데, 졸업 후에 해외 postdoc을 갈지 국내 제약회사로 갈지 고민이에요. 1저자 논문은 아직 하나고, 집안 사정상 너무 멀리 오래 가는 건 부담이에요. 교수님은 postdoc을 원하시는 눈치고요. 면담 때 뭘 어떻게 얘기하면 좋을까요?", "먼저 내가 5년 뒤에 어떤 일을 하고 싶은지 한두 문장으로 정리해 가세요. 집안 사정은 구체적으로 다 말하지 않아도 '2~3년 안에는 국내에 있어야 한다'처럼 조건으로 말하면 돼요. 교수님께는 postdoc을 가면 어떤 랩이 좋을지, 회사로 가면 지금 연구 중 뭘 강점으로 내세울지 둘 다 조언을 구하면 대화가 부드러워요."),
    Turn("R에서 ggplot 글씨 크기 한 번에 키우는 법 있어요?", "theme_bw(base_size = 16)처럼 theme에 base_size를 주면 모든 글씨가 같이 커져요. 축 제목만 따로 바꾸려면 theme(axis.title = element_text(size = 18))을 쓰세요."),
    Turn("논문 정리할 때 Zotero랑 Mendeley 중에 뭐가 나아요?", "무료 저장 공간과 플러그인 생태계는 Zotero가 좋고, Word 인용 기능은 둘 다 충분해요. 랩에서 같이 쓰는 게 있으면 그걸 따르는 게 제일 편해요."),
    Turn("밤샘 실험하고 나면 다음 날 컨디션 회복을 어떻게 해요?", "낮잠은 90분 안쪽으로 짧게 자고, 밤엔 평소 시간에 자려고 해 보세요. 물을 많이 마시고 카페인은 오후 두 시 전까지만 드세요."),
    Turn("영어 논문 쓸 때 문법 교정 tool 추천해 주세요.", "Grammarly나 QuillBot이 많이 쓰이고, 학술 문장은 Writefull이 잘 맞아요. 마지막엔 영어 잘하는 동료한테 한 번 읽어 달라고 하는 게 제일 확실해요."),
    Turn("랩 후배가 자꾸 같은 실수를 하는데 어떻게 말해야 기분 안 나빠할까요?", "사람보다 절차를 얘기하세요. '이 단계에서 자주 틀리니까 체크리스트를 같이 만들어 보자'처럼 해결책을 같이 찾는 방식이 좋아요."),
    Turn("통계에서 t-test랑 ANOVA는 언제 써요?", "두 그룹을 비교하면 t-test, 세 그룹 이상이면 ANOVA를 쓰고, ANOVA에서 차이가 나오면 사후 검정으로 어느 그룹끼리 다른지 봐요."),
    Turn("점심 뭐 먹죠? 학생식당 질렸어요.", "학교 앞 쌀국수나 김밥집 어떠세요? 날이 추우면 순두부찌개도 좋고요."),
    Turn("ImageJ로 western blot band 정량하는 법 알려 주세요.", "Analyze 메뉴의 Gels 기능으로 lane을 지정하고 peak 면적을 재면 돼요. loading control로 나눠서 정규화하는 것 잊지 마세요."),
    Turn("포스터 발표 때 사람들이 안 와요. 어떻게 해요?", "제목을 질문 형태로 크게 쓰고, 그림 하나로 핵심이 보이게 하세요. 지나가는 사람한테 먼저 30초 요약을 건네면 훨씬 많이 멈춰요."),
    Turn("분석 코드를 GitHub에 올리는 게 좋아요?", "네, 재현성 면에서 좋아요. 논문 나가기 전엔 private으로 두고, 출판할 때 공개하면서 README에 실행 방법을 적어 두세요."),
    Turn("주말에 랩 나오기 싫은데 세포 때문에 매번 나와요.", "배지 교환 주기를 조절하거나 주말 당번을 동료와 번갈아 맡아 보세요. 일부는 얼려 두고 필요할 때 녹이는 것도 방법이에요."),
    Turn("pipette calibration은 얼마나 자주 해요?", "보통 6개월에서 1년에 한 번 해요. 떨어뜨렸거나 값이 이상하면 바로 점검하세요."),
    Turn("연구실 냉장고 정리 규칙을 어떻게 정하면 좋아요?", "칸마다 주인을 정하고, 모든 튜브에 이름과 날짜를 쓰게 하세요. 한 달에 한 번 날을 정해 이름 없는 건 버린다고 공지하면 잘 지켜져요."),
    Turn("BioRender 말고 그림 그리는 툴 있어요?", "Inkscape가 무료로 쓸 만하고, Illustrator를 쓸 수 있으면 그게 제일 자유로워요. 간단한 건 PowerPoint로도 충분해요."),
    Turn("장학금 신청서 자기소개는 어떻게 써요?", "연구 주제를 한 문장으로 소개하고, 그게 왜 중요한지와 지금까지 낸 성과를 구체적인 숫자로 쓰세요. 앞으로의 계획으로 끝내면 깔끔해요."),
    Turn("실험대가 낮아서 허리가 아파요. 팁 있어요?", "의자 높이를 맞추고 발받침을 두세요. 서서 하는 작업은 한쪽 발을 낮은 받침에 올리면 허리 부담이 줄어요."),
    Turn("Excel에서 ΔΔCt 계산 어떻게 해요?", "target Ct에서 reference Ct를 빼서 ΔCt를 구하고, 처리군 ΔCt에서 대조군 ΔCt를 빼서 ΔΔCt를 구해요. 마지막으로 =POWER(2, -ΔΔCt)로 fold change를 내면 돼요."),
    Turn("요즘 너무 지쳐서 주말엔 아무것도 하기 싫어요.", "그럴 땐 쉬는 것도 일이라고 생각하세요. 가벼운 산책이나 좋아하는 음식처럼 작은 즐거움을 하나씩 챙기고, 오래가면 학교 상담센터도 도움이 돼요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "box 17", {"keyword": "제 샘플 상자 -80 freezer 어디 있었죠?", "paraphrase": "냉동고에 넣어 둔 제 시료 위치 알려줘요", "endings": "샘플 상자를 어디에 뒀더라?"}),
        (4, "canister 6", {"keyword": "HEK293 master stock LN2 tank 어디에 넣었죠?", "paraphrase": "액체질소 통에 얼려 둔 신장세포주 원본은 어디 있죠?", "endings": "HEK293 stock은 몇 번 canister에 들어 있어요?"}),
        (6, "목요일 1시 반", {"keyword": "confocal 예약 언제로 잡았죠?", "paraphrase": "공초점 현미경 쓸 수 있는 날이 언제였죠?", "endings": "confocal 예약이 목요일에 몇 시였죠?"}),
        (8, "9시 반", {"keyword": "FACS sorting 몇 시로 예약했죠?", "paraphrase": "세포 분류 기계 쓰는 거 언제로 잡아 놨죠?", "endings": "FACS는 화요일 몇 시에 예약돼 있죠?"}),
        (10, "5월 23일", {"keyword": "학회 abstract 마감 언제예요?", "paraphrase": "conference 초록 제출 언제까지죠?", "endings": "학회에 abstract 내는 마감이 언제죠?"}),
        (12, "6월 9일", {"keyword": "학위논문 심사 신청 언제까지예요?", "paraphrase": "졸업 논문 디펜스 서류 내는 날 언제까지였죠?", "endings": "학위논문 심사를 언제까지 신청해야 돼요?"}),
        (14, "GT-8841", {"keyword": "anti-GFP antibody catalog 번호 뭐였죠?", "paraphrase": "녹색 형광 단백질 잡는 항체 다시 시킬 때 제품 코드 알려줘요", "endings": "anti-GFP 재주문하려면 catalog 번호가 뭐예요?"}),
        (16, "RS-3094", {"keyword": "시약 주문할 때 과제번호 뭐였죠?", "paraphrase": "실험 재료 살 때 어느 grant 코드로 결제해요?", "endings": "시약을 주문하려면 과제번호가 뭐죠?"}),
        (18, "passage 23", {"keyword": "HeLa passage 몇이에요?", "paraphrase": "그 자궁경부암 라인 몇 번 계대했죠?", "endings": "HeLa 세포가 지금 passage 몇이에요?"}),
        (20, "507호", {"keyword": "lab meeting 어디서 해요?", "paraphrase": "연구실 주간 회의 하는 방 몇 호죠?", "endings": "생명과학관에서 하는 lab meeting 몇 호예요?"}),
        (22, "KBR-7715-02", {"keyword": "IACUC 승인 번호 뭐였죠?", "paraphrase": "쥐 쓰는 실험 윤리위원회 허가 코드 알려줘요", "endings": "동물실험은 IACUC 승인 번호가 뭐죠?"}),
        (24, "58.5도", {"keyword": "qPCR annealing 온도 몇 도였죠?", "paraphrase": "primer가 붙는 단계는 몇 °C로 돌리기로 했죠?", "endings": "qPCR annealing 온도가 몇 도예요?"}),
    ],
    [
        ("LN2 tank에 넣어 둔 거 어디였죠?", 4, 2),
        ("FACS 예약 몇 시였죠?", 8, 6),
        ("논문 심사 신청 마감 언제예요?", 12, 10),
        ("주문할 때 거는 과제번호 뭐였죠?", 16, 14),
    ],
    [
        "굿모닝이에요~",
        "감사합니다 🙏",
        "ㅋㅋㅋ 배고프다",
        "저 다음 주에 이사 가요",
        "Zoom에서 배경 흐리게 하는 법 알려줘요",
        "Python이랑 R 중에 뭐부터 배울까요?",
        "교수님 생신 축하 문자 좀 써 줄래요?",
        "왜 가을엔 하늘이 높아 보여요?",
        "강아지 입양하려면 뭐부터 준비해요?",
        "요즘 클라이밍 시작했는데 팔이 너무 아파요",
    ],
)


# --- 4. Code-heavy: a Rails developer on a booking app for vet clinics, with shell, file, grep and test tools ----

_CODE_TURNS = [
    Turn("Morning. I'm Callum, I work on Whiskerly, the booking app our vet clinics use. Can you take a look at the repo?", "It's a standard Rails app with RSpec, a Procfile for the web and worker processes, and a docker-compose file for the local services.", "run_shell", '{"cmd": "ls"}', "Gemfile\nGemfile.lock\nProcfile\napp\nbin\nconfig\ndb\ndocker-compose.yml\nlib\nspec"),
    Turn("Local Postgres runs in docker compose on port 5434, because something else on my laptop already has 5432.", "Noted. Put it in DATABASE_URL in your .env so nobody has to edit database.yml by hand."),
    Turn("Run the model specs.", "All 212 model specs pass.", "run_tests", '{"path": "spec/models"}', "Randomized with seed 40211\n........................................\n\nFinished in 14.2 seconds (files took 3.1 seconds to load)\n212 examples, 0 failures"),
    Turn("MailHog's web UI is on port 8026 here, so I can see the booking confirmation emails.", "Got it. Point the development SMTP settings at MailHog's SMTP port and every email your app sends will land there instead of a real inbox."),
    Turn("Where do we send the booking confirmation email from?", "The appointments controller sends the confirmation right after a booking is saved, and the reminder job sends the day-before reminder; both go through deliver_later.", "grep", '{"pattern": "deliver_later", "path": "app"}', "app/controllers/appointments_controller.rb:41:      AppointmentMailer.confirmation(@appointment).deliver_later\napp/jobs/reminder_job.rb:18:    AppointmentMailer.reminder(appointment).deliver_later"),
    Turn("I'm working on branch feat/sms-reminders.", "Noted. Push it early so CI runs on it, and keep the migration for the phone-number column on the same branch."),
    Turn("What's on my branch so far?", "A new SMS reminder job with its spec, and a small change to the appointment model; about 130 lines.", "run_shell", '{"cmd": "git diff --stat main"}', " app/jobs/sms_reminder_job.rb        | 54 +++++++++\n app/models/appointment.rb           | 12 +-\n spec/jobs/sms_reminder_job_spec.rb  | 71 ++++++++++++\n 3 files changed, 131 insertions(+), 6 deletions(-)"),
    Turn("Sunniva's branch for the double-booking race is fix/slot-advisory-lock.", "Got it. If it touches the booking service you're also calling from the reminder job, rebase onto it once it merges."),
    Turn("How do Postgres advisory locks work?", "They're locks on a number you choose rather than on a row. `pg_advisory_xact_lock(key)` blocks until no other transaction holds that key and releases it at commit, so hashing clinic id and slot time into the key makes two bookings for the same slot take turns."),
    Turn("We're on Ruby 3.2.4; the Dockerfile and .ruby-version both pin it.", "Noted. Keep the CI image on the same patch release so gems with native extensions build the same way everywhere."),
    Turn("Show me the top of the Gemfile.", "Rails with Postgres and Puma, Sidekiq for background jobs, Flipper for feature flags, the Twilio client for texts and the AWS SDK for S3.", "read_file", '{"path": "Gemfile", "lines": "1-12"}', "source \"https://rubygems.org\"\n\ngem \"rails\", \"~> 7.1\"\ngem \"pg\"\ngem \"puma\"\ngem \"sidekiq\"\ngem \"flipper-active_record\"\ngem \"twilio-ruby\"\ngem \"aws-sdk-s3\"\ngem \"prawn\"\ngem \"bootsnap\", require: false"),
    Turn("Rails itself is 7.1.3; hold off on 7.2 until the Flipper upgrade lands.", "Got it. When you do bump it, run `bin/rails app:update` and go through the new framework defaults one at a time."),
    Turn("What's new in Rails 7.2 that I'd actually care about?", "YJIT on by default for newer Rubies, a generated dev container setup, better defaults for Puma threads, and browser version guards; plus deprecation removals you'll want to clear first."),
    Turn("The vaccination reminder timezone bug is VET-382.", "Noted. Timezone bugs in reminders usually come from computing the send time in UTC instead of the clinic's own zone."),
    Turn("Where do we work out when reminders go out?", "The reminder time is computed in the appointment model with Time.current, which is UTC on the servers, and the job reads it as is.", "grep", '{"pattern": "remind_at", "path": "app"}', "app/models/appointment.rb:27:  def remind_at = starts_at - 1.day\napp/models/appointment.rb:31:    self.remind_at ||= Time.current.change(hour: 9) + 1.day\napp/jobs/reminder_job.rb:9:    Appointment.where(remind_at: ..Time.current).find_each do |appointment|"),
    Turn("The invoice PDF cutting off the last line item is VET-417.", "Got it. Prawn tables silently drop rows that don't fit unless you let them flow onto a new page."),
    Turn("Run the invoice PDF specs.", "One failure: the PDF has one row fewer than the invoice, which matches the cut-off bug.", "run_tests", '{"path": "spec/pdfs"}', "InvoicePdf renders every line item\n  Failure/Error: expect(rows.size).to eq(9)\n    expected: 9\n         got: 8\n\n18 examples, 1 failure"),
    Turn("SMS reminders go on their own Sidekiq queue, sms_urgent, so a mail backlog can't hold them up.", "Noted. Give that queue a higher weight than mailers in the Sidekiq config so it's always picked first."),
    Turn("Show me the Sidekiq config.", "Ten threads and three weighted queues; your new queue isn't listed yet, so jobs pushed to it would never run.", "read_file", '{"path": "config/sidekiq.yml"}', ":concurrency: 10\n:queues:\n  - [critical, 4]\n  - [default, 2]\n  - [mailers, 1]"),
    Turn("X-ray images are uploaded to the S3 bucket whiskerly-xray-eu2.", "Noted. Keep that bucket private with server-side encryption, and hand out short-lived links rather than public URLs."),
    Turn("How do I give a vet a link to an X-ray that expires?", "Use a presigned URL: `blob.url(expires_in: 15.minutes)` with Active Storage, or `Aws::S3::Object#presigned_url(:get, expires_in: 900)` directly. Anyone with the link can open it until it expires, so keep the time short."),
    Turn("The Flipper flag for the new deposit step at booking is online_deposits_beta.", "Got it. Enable it per clinic as an actor rather than by percentage, so a clinic never sees the step appear and vanish."),
    Turn("Where do we already check Flipper flags?", "Two places: the waitlist in the bookings controller and the new navigation in the layout.", "grep", '{"pattern": "Flipper.enabled?", "path": "app"}', "app/controllers/bookings_controller.rb:22:    if Flipper.enabled?(:waitlist, current_clinic)\napp/views/layouts/application.html.erb:9:  <% if Flipper.enabled?(:new_nav, current_user) %>"),
    Turn("The staging app on Heroku is whiskerly-stg-otter.", "Noted. Give it its own Twilio test credentials so staging can never text a real pet owner."),
    Turn("How do I open a Rails console on Heroku?", "`heroku run rails console -a <app>` starts a one-off dyno with a console. Add `--sandbox` to the console command when you only want to look; it rolls everything back on exit."),
    Turn("Bigger question. Clinics want owners to pay a deposit when they book, refunded automatically if the owner cancels more than 24 hours ahead and kept otherwise. Some clinics want a fixed £20, some a percentage of the consult fee. Payments go through Stripe. How would you model this so we never end up with a refund half-done or a deposit nobody can trace?", "Give deposits their own model with a state machine: pending, held, refunded, forfeited, each change written in one transaction with the Stripe id. Store the clinic's rule as data (fixed amount or percentage) and copy the computed amount onto the deposit when it's created, so later rule changes don't rewrite history. Do refunds in a Sidekiq job with the deposit id as Stripe's idempotency key, and let Stripe's webhook confirm the final state; a nightly job can reconcile anything stuck in pending."),
    Turn("Run the whole suite.", "One failure, the invoice PDF spec you already know about, and three pending specs.", "run_tests", '{"path": "spec"}', "Finished in 2 minutes 41 seconds (files took 4.2 seconds to load)\n1184 examples, 1 failure, 3 pending\n\nFailed examples:\n\nrspec ./spec/pdfs/invoice_pdf_spec.rb:12 # InvoicePdf renders every line item"),
    Turn("Let the invoice table flow onto a new page and rerun the PDF specs.", "With the table allowed to break across pages, all 18 PDF specs pass.", "run_tests", '{"path": "spec/pdfs"}', "InvoicePdf renders every line item\n\nFinished in 1.9 seconds\n18 examples, 0 failures"),
    Turn("What's the difference between includes and preload in ActiveRecord?", "`preload` always loads the association in a separate query. `includes` does the same unless you reference the association in a where or order, in which case it switches to a single JOIN like `eager_load`."),
    Turn("Show me the last Bullet warning.", "Bullet caught an N+1 on the appointments index: each appointment loads its pet separately.", "run_shell", '{"cmd": "tail -n 4 log/bullet.log"}', "USE eager loading detected\n  Appointment => [:pet]\n  Add to your query: .includes([:pet])\nCall stack: app/views/appointments/index.html.erb:14"),
    Turn("How do I add an index without locking the table?", "Use `add_index :appointments, :clinic_id, algorithm: :concurrently` and put `disable_ddl_transaction!` at the top of the migration, since Postgres can't build an index concurrently inside a transaction."),
    Turn("Check which migrations are pending.", "Two are pending, both for the deposits work: the deposits table and the reference from appointments.", "run_shell", '{"cmd": "bin/rails db:migrate:status | tail -3"}', "   up     20240311094512  Add clinic timezone to appointments\n  down    20240402101733  Create deposits\n  down    20240402102210  Add deposit ref to appointments"),
    Turn("Write a commit message for the invoice fix.", "\"invoices: let the line-item table flow onto a new page, so long invoices no longer lose their last rows\"."),
    Turn("Explain what a service object is and when it's overkill.", "A plain Ruby class with one public method that does one business action, like booking an appointment, so controllers and models stay thin. It's overkill when the action is a single save with no side effects."),
    Turn("Read the Procfile.", "A Puma web process, a Sidekiq worker, and a release phase that runs migrations on each deploy.", "read_file", '{"path": "Procfile"}', "web: bundle exec puma -C config/puma.rb\nworker: bundle exec sidekiq -C config/sidekiq.yml\nrelease: bin/rails db:migrate"),
    Turn("How do I stop RuboCop complaining about line length in specs only?", "Add an exclusion in .rubocop.yml: under `Layout/LineLength`, set `Exclude: ['spec/**/*']`, or raise `Max` for that path with a nested config in spec/."),
    Turn("How much disk are the log files using?", "The development log has grown past a gigabyte; truncating it with `bin/rails log:clear` frees almost all of it.", "run_shell", '{"cmd": "du -sh log/*"}', "1.3G\tlog/development.log\n38M\tlog/test.log\n6.1M\tlog/bullet.log"),
    Turn("Suggest a name for a concern that makes a model soft-deletable.", "`Discardable` reads well (`appointment.discard`), or `Archivable` if the clinics think of it as archiving."),
    Turn("What's a sensible way to test a Twilio call without sending real texts?", "Wrap Twilio in a small client class and use Twilio's test credentials with their magic numbers in integration tests; in unit specs, record the outgoing requests with WebMock and assert on the body."),
    Turn("Find the TODOs in the jobs folder.", "Two TODOs: one about retrying failed texts and one about batching the reminder query.", "grep", '{"pattern": "TODO", "path": "app/jobs"}', "app/jobs/sms_reminder_job.rb:22:    # TODO retry once on Twilio::REST::RestError 20429\napp/jobs/reminder_job.rb:7:  # TODO batch by clinic to spread the 9am spike"),
    Turn("Give me a checklist before a Friday deploy.", "Green CI, migrations checked for locks, feature flags off for anything half-done, a rollback plan written down, and someone around for the hour after."),
    Turn("How do I profile a slow page in Rails?", "Add rack-mini-profiler for a per-request breakdown and flamegraphs, check the log for query counts, and reach for Bullet or `explain` on the slowest query."),
    Turn("What's the difference between has_many :through and has_and_belongs_to_many?", "`has_many :through` uses a real join model, so you can add columns and validations to the link; `has_and_belongs_to_many` uses a bare join table with no model. Prefer `:through` unless the link will never carry data."),
    Turn("Quick one: how do I rename a local git branch?", "`git branch -m old-name new-name`, or just `git branch -m new-name` for the branch you're on. If it was pushed, push the new name and delete the old one on the remote."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "5434", {"keyword": "What port is local Postgres on?", "paraphrase": "Remind me what my dev database is listening on."}),
        (4, "8026", {"keyword": "What port is the MailHog UI on?", "paraphrase": "Which localhost address lets me read the messages the app sends while I'm developing?"}),
        (6, "feat/sms-reminders", {"keyword": "Which branch am I working on?", "paraphrase": "Which git line holds my changes for texting owners before appointments?"}),
        (8, "fix/slot-advisory-lock", {"keyword": "What's Sunniva's branch?", "paraphrase": "Where's my teammate's change that stops two people getting the same appointment?"}),
        (10, "3.2.4", {"keyword": "Which Ruby version are we on?", "paraphrase": "What interpreter release does the app run on?"}),
        (12, "7.1.3", {"keyword": "What version of Rails are we on?", "paraphrase": "Which release of the web framework do we run?"}),
        (14, "VET-382", {"keyword": "What's the ticket for the vaccination reminder bug?", "paraphrase": "Which issue covers jab notifications going out at the wrong hour?"}),
        (16, "VET-417", {"keyword": "What's the ticket for the invoice PDF?", "paraphrase": "Which issue is about the bill printout losing its final row?"}),
        (18, "sms_urgent", {"keyword": "Which Sidekiq queue do SMS reminders go on?", "paraphrase": "Which worker lane do the text-message jobs run in?"}),
        (20, "whiskerly-xray-eu2", {"keyword": "Which S3 bucket do X-rays go to?", "paraphrase": "Where do we store the radiographs the vets take?"}),
        (22, "online_deposits_beta", {"keyword": "What's the Flipper flag for deposits?", "paraphrase": "Which toggle turns on taking money upfront when someone schedules a visit?"}),
        (24, "whiskerly-stg-otter", {"keyword": "What's the staging app called on Heroku?", "paraphrase": "remind me the name of our pre-production environment in the cloud"}),
    ],
    [
        ("Which port do I open to read the test emails?", 4, 2),
        ("Which branch is Sunniva on?", 8, 6),
        ("Which version is Rails pinned to?", 12, 10),
        ("What's the ticket for the invoice bug?", 16, 14),
    ],
    [
        "morning, need more coffee",
        "cheers, all green now",
        "How do I make a table scroll sideways on mobile in CSS?",
        "How far away is Mars?",
        "I'm adopting a kitten next week.",
        "Write a short poem about a lighthouse keeper.",
        "Why is the sunset orange?",
        "Who wrote The Hobbit?",
        "ha, nice one",
        "Can you recommend noise-cancelling headphones?",
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
