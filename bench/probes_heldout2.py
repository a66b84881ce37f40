# ruff: noqa: E501, E402
"""A second held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take either module. The dataclasses, :func:`questions`, the comparison keys
and the per-conversation checks are that module's own, imported here, so both sets are held to one rule book.

Four new conversations with other people, subjects and facts: ``english`` (a freelance photographer moving flat while
planning his grandmother's 90th), ``korean`` (a freelance translator living alone with two cats), ``mixed`` (a product
manager on a mobile app team, Korean with English work words) and ``code`` (a web developer on a TypeScript storefront,
with tool calls and their results).
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
# (the data keeps one turn and one fact per line)

# --- 1. English: a freelance photographer moving flat, two shoots and a grandmother's 90th ----------------------

_EN_TURNS = [
    Turn("Hey! End of the month I'm moving flats, I've got two weddings to shoot and my grandma turns 90. I'll throw details at you as they land, okay?", "Sounds like a full month. Send things as they come and I'll help you keep the moving parts straight."),
    Turn("Is it rude to show up to photograph a wedding in dark jeans if the couple said there's no dress code?", "Not rude, but as the photographer you're part of how the day looks. Dark chinos or smart trousers with a plain shirt blend in better than jeans and still let you kneel and climb."),
    Turn("The moving truck is booked: U-Haul confirmation UH-58213, pick-up Saturday at 7 am from the Elm Street lot.", "Got it. Early pick-ups go faster, and do a walk-around video of the vehicle before you drive off so nobody argues about old dents."),
    Turn("There's a food truck outside my studio every Friday doing birria tacos. Are those hard to make at home?", "Not hard, just slow: chuck or short rib braised for three hours in a chili and spice broth, then the tortillas get dipped in the fat and crisped. The broth doubles as the dipping consommé."),
    Turn("Storage unit is B-114 at the Cubesmart on Route 9, and the gate code is 7306.", "Noted. Most of those facilities log every gate entry, so keep that to yourself and whoever helps you haul boxes."),
    Turn("The new building's front door code is 2591, then the bell icon.", "Saved. Worth testing it once before moving day so you're not stuck on the pavement with a sofa."),
    Turn("My nephew asked me what a unit of measurement even is. How do I explain inches versus centimeters to a six-year-old?", "Tell him a unit is just an agreed-on size of step. Give him a paper clip and a crayon, measure the table in both, and he'll see that the number changes but the table doesn't."),
    Turn("Grandma's 90th is at Rosalind's Tea Room on Fifth, 1 pm on the 12th, party of 22.", "Lovely choice. Ask them whether they can put her chair where she can see everyone; at ninety the best seat matters more than the menu."),
    Turn("What's actually the difference between green and black tea? Grandma swears only one of them keeps her awake.", "Both come from the same plant; black tea is fully oxidised, green isn't. Black usually has somewhat more caffeine per cup, so she may well be right, though brewing time matters as much as the type."),
    Turn("My phone plan caps mobile data at 15 GB and I always run out by the 20th. Worth upgrading?", "Check where the data goes first: photo backup over mobile data and video apps are the usual culprits. Set uploads to Wi-Fi only for a month; if you still run out, an unlimited plan may cost less than overage."),
    Turn("The Okafor wedding shoot is at Bellwether Farm on June 8, ceremony at 4:30.", "Noted. A late-afternoon ceremony on a farm usually means great light for portraits right after, so leave room for that in the timeline."),
    Turn("The Lindqvist engagement shoot is at sunrise on the 3rd, meeting at the old lighthouse on Gull Point.", "Got it. Sunrise sessions go quickly, so scout the spot the evening before and check which way the light comes in."),
    Turn("I planted bamboo by the fence and now new shoots keep popping up in the neighbour's yard. How do I stop it?", "It sounds like a running type. Dig a trench and sink a root barrier about 60 cm deep along the fence line, and snap off new shoots as they come up; they're easy to remove while they're soft."),
    Turn("For the insurance form: my main camera, the Sony A7 IV, has serial number 4829117.", "Noted. Keep a photo of the serial sticker and the receipt in the same folder as the form; insurers usually ask for both after a claim."),
    Turn("I binged a true-crime serial podcast all night. Any recommendations that aren't too gory?", "Try 'Serial' season one if you haven't, 'Heavyweight' for something kinder, or 'The Dream' for a con story with no blood at all."),
    Turn("My car insurance quote doubled when I ticked 'business use' for driving to clients. Is that normal?", "A jump is normal, double is steep. Ask whether they have an occasional business use category; many insurers price a few trips a month much lower than full commercial use."),
    Turn("The backup body, a Fujifilm X-T4, is serial 71C05562.", "Got it, I'll keep that alongside the other one."),
    Turn("How do I back up 4 TB of RAW files without paying a fortune for cloud storage?", "Two local drives plus one offsite copy: a desktop drive you sync daily, a second you swap at a friend's place monthly, and a cheap cold-storage tier for the finished galleries only."),
    Turn("Biscuit, my cat, is on methimazole 2.5 mg twice a day for her thyroid, hidden in a pill pocket.", "Noted. If she ever skips a dose, don't double the next one; just carry on and let the vet know at the next check."),
    Turn("My neighbour's cat keeps sleeping on the hood of my car. Harmless, or should I worry about scratches?", "Mostly harmless, but claws on take-off do leave fine scratches. A breathable car cover or a motion-activated sprinkler nearby usually moves the nap spot elsewhere."),
    Turn("New landlord is Gerald Pruitt, his cell is 555-0148, and he prefers a text before you phone.", "Noted. Keep your first messages in writing anyway; it's handy to have a record of what was agreed."),
    Turn("A landlord can't keep my deposit for normal wear and tear, right? The old place has some nail holes from frames.", "Right, in most places small nail holes count as normal wear. Take dated photos of every room when you hand back the keys, and fill the holes with a bit of spackle if you want to remove any doubt."),
    Turn("The movers' dispatcher is Renée, reach her at 555-0193 on moving day.", "Got it. Dispatchers juggle several crews, so call early in the morning to confirm the arrival window."),
    Turn("Picked the cake at Hadley Bakery: lemon with elderflower cream, pick-up ticket 4471, Friday by 5.", "That sounds lovely and light. Keep the ticket with your keys so it comes with you on Friday."),
    Turn("Grandma wants 'no fuss', but I'd love to say a few words. How long should a toast at a 90th birthday be?", "Two to three minutes: one story that shows who she is, one line of thanks, and the raised glass. Short toasts get the warmest reactions, especially when the guest of honour asked for no fuss."),
    Turn("Different topic: I want to learn some Spanish before a trip to Mexico City in the autumn. I have about twenty minutes a day, I hate grammar drills, and I mostly want to order food, ask directions and chat a bit with people. What's a realistic plan for four months?", "With twenty minutes a day: spend the first month on a beginner course built around listening (Language Transfer's Spanish course is excellent and drill-free), then add ten minutes of a Mexican Spanish podcast for learners, and from month three do one short conversation a week with a tutor online. Learn phrases for food and directions as whole chunks rather than grammar."),
    Turn("My sourdough starter stopped bubbling. Is it dead?", "Almost certainly not. Cold kitchens slow starters down a lot. Feed it twice a day with equal weights of flour and water and keep it somewhere around 24-26°C; it should be lively again in two or three days."),
    Turn("How should I price a half-day portrait session as a freelancer? I've been guessing.", "Work backwards: decide what you need to earn a year, divide by realistic billable sessions, and add editing time, travel and gear wear. Then check local rates; most people undercharge by leaving out the editing hours."),
    Turn("Help me write a polite nudge to a client whose invoice is three weeks overdue.", "\"Hi Sam, hope all's well! Just a quick note that invoice #112 from last month is still open. I've attached it again for convenience. Could you let me know when to expect payment? Thanks so much.\" Friendly, specific and easy to act on."),
    Turn("My lower back aches after carrying gear all day. Anything besides 'lift with your knees'?", "Switch to a backpack or harness that spreads the load across both shoulders and hips, carry less per trip, and do a few minutes of hip hinges and glute bridges on shoot mornings. If the ache lasts for weeks, see a physio."),
    Turn("What's a good chess opening for a total beginner?", "The Italian Game: e4, Nf3, Bc4. It teaches the basic ideas of controlling the centre, developing pieces quickly and castling early without needing memorised theory."),
    Turn("Explain how a heat pump heats a house when it's cold outside.", "It works like a fridge in reverse: a refrigerant absorbs heat from the outdoor air even when it's cold, gets compressed so its temperature rises, and releases that heat inside. Moving heat takes much less energy than making it, which is why it's efficient."),
    Turn("Write a short Instagram caption for a moody autumn portrait.", "\"Soft light, slow leaves, and a little quiet before winter.\" Or shorter: \"October, in one look.\""),
    Turn("My fiddle-leaf fig is dropping leaves. What am I doing wrong?", "Usually it's a change: a move, a draught or irregular watering. Give it bright indirect light, water only when the top few centimetres of soil are dry, and don't move it again for a while; they sulk after changes."),
    Turn("Remind me what the rule of thirds actually is.", "Imagine the frame split by two horizontal and two vertical lines into nine parts. Putting the subject on one of the lines or where they cross usually looks more natural than dead centre."),
    Turn("Do freelancers have to pay estimated taxes every quarter?", "In the US, generally yes, if you expect to owe at least $1,000 for the year. Setting aside 25-30% of each payment in a separate account makes the quarterly payments painless."),
    Turn("What stretches help after being on my feet for ten hours?", "Calf stretches against a wall, a standing quad stretch, a hamstring fold and lying with your legs up the wall for five minutes. Rolling your soles over a tennis ball helps too."),
    Turn("Recommend a documentary about jazz.", "Ken Burns' 'Jazz' is the big one, ten episodes. For something shorter, 'Miles Davis: Birth of the Cool' or 'Chasing Trane' are both excellent."),
    Turn("How do I get red wine out of a white shirt?", "Blot, don't rub. Rinse from the back with cold water, then apply a mix of dish soap and hydrogen peroxide, let it sit for half an hour and wash as usual. Test the peroxide on a seam first."),
    Turn("What's the difference between a latte and a flat white?", "A flat white has less milk and a thinner, silkier foam, so the coffee tastes stronger. A latte is bigger and milkier with a bit more foam on top."),
    Turn("A friend wants me to do her engagement photos for free. How do I say no without being a jerk?", "Be warm and clear: \"I love that you thought of me! I keep my weekends for paid work, but I'd be glad to give you a friends discount.\" Offering something smaller keeps the friendship without giving away your living."),
    Turn("How do I make a small flat feel bigger with furniture?", "Use fewer, larger pieces instead of many small ones, raise furniture on legs so you see the floor, put a big mirror opposite the window and keep walkways clear. Light curtains hung high make ceilings look taller."),
    Turn("Is it worth learning to drive a manual car these days?", "It's a useful skill if you travel to places where rentals are mostly manual, like much of Europe, but most new cars, especially electric ones, are automatic, so it's less essential than it was."),
    Turn("Remind me what ISO does on a camera, in one paragraph.", "ISO sets how much the sensor's signal is amplified. Raising it lets you shoot in less light or with faster shutter speeds, at the cost of more noise. Keep it as low as the light allows, and raise it before you let a moving subject blur."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (3, "UH-58213", {"keyword": "What's the U-Haul confirmation number?", "paraphrase": "Which reference do I give when I collect the rental van?"}),
        (5, "7306", {"keyword": "What's the gate code for the storage unit?", "paraphrase": "How do I get into the place where my extra boxes are kept?"}),
        (6, "2591", {"keyword": "What's the front door code at the new building?", "paraphrase": "What do I punch in to enter my next apartment block?"}),
        (8, "Rosalind's Tea Room", {"keyword": "Where is grandma's party?", "paraphrase": "Which venue did I book for Nana's big celebration?"}),
        (11, "Bellwether Farm", {"keyword": "Where is the Okafor wedding?", "paraphrase": "Where do the bride and groom I'm photographing this summer say their vows?"}),
        (12, "Gull Point", {"keyword": "Where's the Lindqvist engagement shoot?", "paraphrase": "At dawn, where do I photograph the couple who just got betrothed?"}),
        (14, "4829117", {"keyword": "What's the serial number of my Sony?", "paraphrase": "What ID is printed under my primary mirrorless?"}),
        (17, "71C05562", {"keyword": "What's the Fujifilm's serial?", "paraphrase": "What ID is printed on my spare mirrorless?"}),
        (19, "methimazole", {"keyword": "What medicine is Biscuit on?", "paraphrase": "What tablets does my kitty need for her gland problem?"}),
        (21, "555-0148", {"keyword": "What's Gerald Pruitt's number?", "paraphrase": "How do I contact the guy I'll be renting from?"}),
        (23, "555-0193", {"keyword": "What's the number for the movers' dispatcher?", "paraphrase": "Who do I ring if the van crew is running late?"}),
        (24, "elderflower", {"keyword": "What flavour is the cake?", "paraphrase": "What did I order from the pastry shop for Nana's celebration?"}),
    ],
    [
        ("What's the code for the front door at the new place?", 6, 5),
        ("Where's the engagement shoot?", 12, 11),
        ("What's the serial number of my backup camera?", 17, 14),
        ("What's the movers' phone number?", 23, 21),
    ],
    [
        "hey, how's it going?",
        "Can you recommend a podcast about space exploration?",
        "What's the best bread for French toast?",
        "Is bamboo actually a grass?",
        "thanks so much!",
        "Who painted The Starry Night?",
        "Write me a haiku about autumn leaves.",
        "How many teaspoons are in a tablespoon?",
        "lol okay",
        "What time is it in Tokyo right now?",
    ],
)


# --- 2. Korean: 혼자 사는 프리랜서 번역가, 고양이 두 마리, 본가와 중고거래 --------------------------------------------

_KO_TURNS = [
    Turn("안녕! 요즘 번역 일이 두 건이나 겹쳐서 머리가 터질 것 같아. 생각나는 것들 여기 좀 메모해 둘게.", "네, 생각나는 대로 적어 주세요. 나중에 필요할 때 찾아서 정리해 드릴게요."),
    Turn("출판사 소설 번역 원고 마감은 11월 28일이야.", "알겠어요. 마감 일주일 전쯤 전체 교정 볼 시간을 따로 빼 두시면 마음이 편하실 거예요."),
    Turn("요즘 출판 번역료는 원고지 한 장에 보통 얼마 받아? 나 너무 싸게 받는 것 같아.", "경력과 분야에 따라 차이가 크지만, 문학 번역은 원고지 한 장당 몇천 원대가 흔해요. 번역가 협회나 커뮤니티에 공개된 요율표를 참고해서 다음 계약 때 근거로 제시해 보세요."),
    Turn("게임 현지화 건 마감은 12월 5일이고, 분량은 스크립트 3만 단어 정도야.", "적어뒀어요. 게임 스크립트는 변수나 태그가 섞여 있어서 QA 시간이 생각보다 걸리니까 여유를 두세요."),
    Turn("담당 편집자는 한지우 님이야. 메일 보낼 때 이름 틀리지 말자.", "네, 기억해 둘게요. 메일 서명이나 주소록에 미리 저장해 두면 실수가 줄어요."),
    Turn("게임 하다가 새벽까지 안 자는 버릇 고치고 싶어. 요즘 모바일 게임에 하루 세 시간은 쓰는 듯.", "앱별 사용 시간 제한을 걸어 두고, 밤 11시 이후엔 휴대폰을 침대에서 먼 곳에 충전해 보세요. 끊기보다 시간을 정해 두는 쪽이 오래가요."),
    Turn("첫째 고양이 보리는 심장약 베나제프릴을 아침저녁 반 알씩 먹어.", "알겠어요. 약 먹이는 시간을 매일 비슷하게 맞추는 게 중요하니 알림을 맞춰 두셔도 좋아요."),
    Turn("보리차를 매일 끓여 마시는데 몸에 좋은 거 맞아?", "카페인이 없고 수분 보충에 좋아서 물 대신 마시기 괜찮아요. 다만 끓인 건 상온에 오래 두면 상하기 쉬우니 냉장 보관하고 하루 이틀 안에 드세요."),
    Turn("둘째 고양이 콩이는 신장 때문에 처방식 사료 k/d만 먹여야 해.", "적어뒀어요. 간식도 인이 적은 걸로 골라야 하니 성분표를 꼭 확인하세요."),
    Turn("집에서 콩국수 해 먹고 싶은데 콩은 몇 시간 불려야 돼?", "여름엔 6~8시간, 겨울엔 하룻밤 정도 불리면 돼요. 삶을 때 너무 오래 삶으면 메주 냄새가 나니까 거품이 올라오고 몇 분 뒤에 불을 끄세요."),
    Turn("아빠 생신은 음력 8월 3일이야. 매년 양력 날짜가 바뀌어서 헷갈려.", "알겠어요. 휴대폰 캘린더에 음력 반복 일정으로 넣어 두면 매년 자동으로 맞춰져요."),
    Turn("엄마 생신은 양력으로 2월 11일이고.", "네, 어머님 생신도 적어둘게요."),
    Turn("음력이랑 양력은 왜 매년 차이가 달라지는 거야?", "음력의 한 해는 약 354일이라 양력보다 열하루쯤 짧아요. 그래서 해마다 날짜가 앞당겨지다가 몇 년에 한 번 윤달을 넣어서 다시 맞춰요."),
    Turn("유튜브 영상 편집 좀 배워 보고 싶은데, 초보가 쓰기 좋은 무료 프로그램 있어? 채널 이름도 아직 못 정했어.", "다빈치 리졸브 무료 버전이 기능이 충분하고, 더 간단한 걸 원하면 캡컷도 괜찮아요. 이름은 나중에 바꿀 수 있으니 일단 영상부터 몇 개 올려 보세요."),
    Turn("노트북 수리 맡긴 택배 운송장 번호는 6089-1142-7735야.", "적어뒀어요. 수리 센터에 도착하면 접수 문자가 오니까 그때 한 번 확인해 보세요."),
    Turn("엄마한테 보낸 반찬 택배는 운송장 5521-3307-9468이야.", "네, 그것도 따로 적어둘게요. 반찬은 날이 따뜻하면 상할 수 있으니 도착 예정일을 확인해 보세요."),
    Turn("택배 기사님이 문 앞에 두고 갔는데 없어지면 누구 책임이야?", "문 앞 배송을 요청했거나 동의했다면 보상이 어려울 수 있어요. 그런 요청이 없었다면 택배사에 배송 완료 사진과 위치를 확인해 달라고 하고 분실 접수를 하세요."),
    Turn("노트북 배터리가 완충해도 두 시간을 못 가. 교체해야 하나?", "배터리 성능 상태를 먼저 확인해 보세요. 설계 용량의 80% 아래로 떨어졌다면 교체할 때가 됐고, 밝기와 백그라운드 앱만 줄여도 조금은 늘어나요."),
    Turn("필라테스 회원번호는 P-30277이야. 예약 앱 로그인할 때 필요해.", "적어뒀어요. 앱에서 자동 로그인을 켜 두면 매번 입력하지 않아도 돼요."),
    Turn("필라테스랑 요가 중에 허리 통증엔 뭐가 더 나아?", "둘 다 도움이 되지만 허리 통증에는 코어를 단계적으로 강화하는 필라테스를 권하는 경우가 많아요. 통증이 심하면 먼저 병원에서 원인을 확인하세요."),
    Turn("본가 내려갈 때 타는 고속버스는 동서울에서 9시 50분 출발이야.", "알겠어요. 명절이나 주말에는 표가 빨리 나가니 미리 예매해 두세요."),
    Turn("고속버스 우등이랑 일반이 많이 차이 나? 네 시간 타야 돼서.", "좌석이 훨씬 넓고 뒤로 많이 젖혀져서 네 시간이면 우등이 확실히 편해요. 요금 차이가 크지 않다면 우등을 추천해요."),
    Turn("당근에서 의자 팔기로 했어. 토요일 3시에 합정역 7번 출구에서 만나.", "적어둘게요. 거래 전에 의자 상태 사진을 한 번 더 보내 두면 현장에서 말이 덜 나와요."),
    Turn("당근 케이크 만들 때 당근은 갈아야 돼, 채 썰어야 돼?", "강판에 가늘게 갈거나 아주 얇게 채 써는 게 좋아요. 너무 곱게 갈면 물이 많이 나와서 반죽이 질어지니까 살짝 물기를 짜서 넣으세요."),
    Turn("중고거래할 때 사기 안 당하려면 뭘 조심해야 돼?", "직거래를 원칙으로 하고, 선입금을 요구하거나 외부 메신저로 옮기자고 하면 의심하세요. 고가 물건은 사람 많은 곳에서 확인하고 거래하세요."),
    Turn("이번 겨울에 혼자 일본 여행을 가 볼까 하는데, 후쿠오카랑 삿포로 중에 고민이야. 일정은 4박 5일이고, 온천이랑 맛집은 꼭 가고 싶고, 눈 구경도 하고 싶긴 한데 너무 추운 건 싫어. 렌트는 안 하고 대중교통으로만 다닐 거야.", "추운 걸 싫어하시면 후쿠오카가 무난해요. 시내는 지하철로 다니기 편하고, 유후인이나 벳푸 온천도 버스로 당일치기가 돼요. 눈이 꼭 보고 싶으시면 삿포로가 맞지만 영하 날씨와 미끄러운 길을 각오하셔야 해요."),
    Turn("혼자 밥 먹기 좋은 메뉴 추천해 줘. 요즘 배달만 시켜 먹어서.", "덮밥, 국수, 샐러드 볼처럼 한 그릇으로 끝나는 게 좋아요. 주말에 밥을 소분해 얼려 두면 평일에 반찬 한두 개만 있어도 금방 차려 먹을 수 있어요."),
    Turn("프리랜서 종합소득세 신고할 때 경비로 뭘 넣을 수 있어?", "업무용 노트북이나 소프트웨어 구독료, 작업 관련 도서, 통신비 일부 같은 게 대표적이에요. 증빙을 모아 두고, 처음이면 세무사 상담을 한 번 받아 보시는 걸 추천해요."),
    Turn("요즘 집중이 너무 안 돼. 집에서 일하니까 자꾸 딴짓해.", "작업 시간과 쉬는 시간을 정해 두고, 일할 때는 휴대폰을 다른 방에 두세요. 아침에 옷을 갈아입고 책상에 앉는 것만으로도 전환이 잘 돼요."),
    Turn("겨울 이불 세탁은 집에서 해도 돼? 부피가 커서.", "세탁기 용량이 충분하면 울 코스로 빨아도 되지만, 두꺼운 솜이불은 빨래방 대형 세탁기가 훨씬 편해요. 완전히 말리지 않으면 냄새가 나니 건조에 신경 쓰세요."),
    Turn("영어 원서 읽기 시작하려는데 뭐부터 읽으면 좋을까?", "이미 내용을 아는 책의 원서부터 시작하면 부담이 적어요. 《어린 왕자》나 《찰리와 초콜릿 공장》처럼 문장이 짧은 책을 추천해요."),
    Turn("손목이 시큰거려. 키보드 오래 쳐서 그런가?", "장시간 타이핑이면 손목에 무리가 갈 수 있어요. 손목 받침대를 쓰고 키보드 높이를 팔꿈치와 맞추고, 한 시간마다 손목을 풀어 주세요. 저림이 계속되면 병원에 가 보세요."),
    Turn("주말에 혼자 볼 만한 영화 추천해 줘. 잔잔한 거.", "《리틀 포레스트》, 《패터슨》, 《퍼펙트 데이즈》 추천해요. 셋 다 조용하고 일상적인 이야기예요."),
    Turn("원룸 겨울 난방비 아끼는 방법 있어?", "창문에 뽁뽁이를 붙이고 문풍지로 외풍을 막으세요. 보일러는 껐다 켰다 하기보다 외출 모드로 낮게 유지하는 게 대체로 덜 나와요."),
    Turn("번역할 때 쓰는 CAT 툴, 혼자 일하는 사람한테도 필요해?", "반복되는 문장이 많은 기술 번역이나 게임 텍스트라면 용어 일관성 때문에 큰 도움이 돼요. 문학 번역이라면 없어도 되지만 용어집 정리 기능만이라도 써 볼 만해요."),
    Turn("식물 키우고 싶은데 햇빛 잘 안 드는 방에서도 잘 크는 거 있어?", "스킨답서스, 산세베리아, 스파티필럼이 빛이 적어도 잘 버텨요. 물은 흙이 마르면 한 번에 흠뻑 주세요."),
    Turn("요즘 커피를 하루 네 잔씩 마시는데 너무 많나?", "성인 기준 하루 카페인 권장량이 400mg 정도라 아메리카노 네 잔이면 거의 한계예요. 오후에는 디카페인으로 바꿔 보세요."),
    Turn("친구가 결혼한다는데 축사를 부탁받았어. 어떻게 시작하면 좋을까?", "처음 만났을 때 이야기나 친구를 잘 보여 주는 짧은 일화로 시작하세요. 3분 안쪽으로, 마지막은 두 사람에게 건네는 덕담으로 마무리하면 좋아요."),
    Turn("러닝 처음 시작하는데 하루에 몇 km 뛰는 게 좋아?", "처음엔 거리보다 시간으로 정하세요. 뛰기 1분, 걷기 2분을 20~30분 반복하는 식으로 주 3회 시작하면 무리가 없어요."),
    Turn("세탁기에서 쉰내 나. 청소 어떻게 해?", "세탁조 클리너를 넣고 통세척 코스를 돌리세요. 빨래가 끝나면 문을 열어 두고, 고무 패킹 안쪽도 가끔 닦아 주면 냄새가 덜 나요."),
    Turn("거절 잘 못하는 성격 고치고 싶어. 일이 자꾸 쌓여.", "바로 대답하지 말고 '일정 확인해 보고 알려 드릴게요'로 시간을 버는 연습부터 해 보세요. 거절할 때는 이유를 길게 말하지 않는 게 오히려 깔끔해요."),
    Turn("김장 안 하고 김치 사 먹는 게 더 싸?", "양이 적은 1인 가구라면 사 먹는 게 대체로 싸고 편해요. 재료값과 시간, 보관 공간까지 생각하면 김장은 식구가 많을 때 이득이에요."),
    Turn("밤에 자꾸 야식 생각나는데 참는 방법 있어?", "저녁을 너무 일찍 또는 적게 먹으면 야식이 당기기 쉬워요. 저녁에 단백질을 충분히 먹고, 배고프면 따뜻한 차나 우유 한 잔으로 넘겨 보세요."),
    Turn("다음 달부터 가계부 써 보려고. 앱이랑 엑셀 중에 뭐가 나아?", "카드 내역이 자동으로 불러와지는 앱이 꾸준히 쓰기엔 편해요. 직접 분류하면서 돈 흐름을 보고 싶으면 엑셀도 좋고요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "11월 28일", {"keyword": "출판사 원고 마감 언제였지?", "paraphrase": "장편 옮기는 작업 언제까지 넘기기로 했지?", "endings": "출판사 원고는 마감이 언제야?"}),
        (4, "12월 5일", {"keyword": "게임 현지화 마감 언제야?", "paraphrase": "로컬라이징 납품일이 며칠이었지?", "endings": "게임 현지화는 마감이 언제였더라?"}),
        (5, "한지우", {"keyword": "담당 편집자 이름 뭐였지?", "paraphrase": "출판 쪽 에디터분 성함이 어떻게 되더라?", "endings": "담당 편집자가 누구였지?"}),
        (7, "베나제프릴", {"keyword": "보리 심장약 뭐 먹인다고 했지?", "paraphrase": "큰 냥이한테 하루 두 번 주는 알약 이름이 뭐였지?", "endings": "보리가 먹는 심장약이 뭐였더라?"}),
        (9, "k/d", {"keyword": "콩이 처방식 사료 뭐였지?", "paraphrase": "작은 냥이 콩팥 안 좋아서 주는 밥이 뭐였지?", "endings": "콩이한테 먹이는 처방식이 뭐였지?"}),
        (11, "음력 8월 3일", {"keyword": "아빠 생신 언제야?", "paraphrase": "아버지 태어나신 날 며칠이었지?", "endings": "아빠는 생신이 언제였지?"}),
        (12, "2월 11일", {"keyword": "엄마 생신 며칠이었지?", "paraphrase": "어머니 태어나신 날짜가 언제였지?", "endings": "엄마는 생신이 언제야?"}),
        (15, "6089-1142-7735", {"keyword": "노트북 수리 택배 운송장 번호 뭐였지?", "paraphrase": "고치러 보낸 랩탑 배송 조회하려면 뭐 입력해야 돼?", "endings": "노트북 수리 택배는 운송장이 뭐였지?"}),
        (16, "5521-3307-9468", {"keyword": "엄마한테 보낸 반찬 택배 운송장 번호?", "paraphrase": "어머니께 부친 밑반찬 상자 배송 조회 어떻게 해?", "endings": "엄마한테 보낸 반찬은 운송장 번호가 뭐였지?"}),
        (19, "P-30277", {"keyword": "필라테스 회원번호 뭐였지?", "paraphrase": "운동 다니는 곳 멤버십 ID가 뭐였지?", "endings": "필라테스는 회원번호가 뭐였더라?"}),
        (21, "9시 50분", {"keyword": "본가 가는 고속버스 몇 시 출발이야?", "paraphrase": "고향 집 갈 때 대중교통 언제 걸로 예매했지?", "endings": "본가로 내려가는 고속버스가 몇 시지?"}),
        (23, "7번 출구", {"keyword": "당근 거래 어디서 만나기로 했지?", "paraphrase": "중고 앱으로 걸상 넘기는 약속 장소 어디였지?", "endings": "의자는 합정역 어디서 팔기로 했지?"}),
    ],
    [
        ("게임 번역 마감 언제였지?", 4, 2),
        ("둘째 고양이는 뭐 먹여야 했지?", 9, 7),
        ("엄마 생신 언제지?", 12, 11),
        ("엄마한테 보낸 택배 번호 뭐였지?", 16, 15),
    ],
    [
        "안녕~ 잘 잤어?",
        "ㅎㅎ 고마워 덕분에 살았다",
        "오늘 저녁 뭐 먹을지 골라줘",
        "친구 생일 축하 메시지 짧게 써줘",
        "버스 파업은 보통 며칠 가?",
        "요가 매트는 두꺼운 게 좋아?",
        "태양계에서 제일 큰 행성이 뭐야?",
        "졸려…",
        "김치찌개 맛있게 끓이는 법 알려줘",
        "에베레스트 산 높이가 얼마야?",
    ],
)


# --- 3. Mixed Korean/English: 모바일 앱 팀 PM의 launch 준비 메모와 잡담 ------------------------------------------------

_MX_TURNS = [
    Turn("이번 주부터 checkout 개편 launch 준비라 정신없을 거예요. 메모 좀 같이 정리해 줘요.", "네, 생각나는 대로 던져 주세요. 일정이랑 숫자는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("Figma 시안 파일은 'Checkout v7 final_real'이에요. v6 말고 이거 봐야 해요.", "알겠어요. 파일 이름이 헷갈리기 쉬우니 팀 채널에 링크를 고정해 두면 좋아요."),
    Turn("push 알림 A/B test 결과 나왔어요, variant B가 CTR 4.8%로 이겼어요.", "좋네요. 클릭률만 보지 말고 알림 끄기 비율도 같이 봐 두면 다음 실험 때 도움이 돼요."),
    Turn("A/B test 돌릴 때 sample size는 어떻게 계산해요? 통계를 잘 몰라서요.", "기존 전환율, 감지하고 싶은 최소 차이, 유의수준과 검정력을 정하면 온라인 계산기가 그룹별 필요한 사용자 수를 알려줘요. 결과를 보면서 중간에 멈추지 않는 게 제일 중요해요."),
    Turn("홈 배너 A/B test는 variant A가 CTR 2.1%로 이겼고요.", "네, 배너 쪽 결과도 적어둘게요. 노출 위치가 같았는지도 같이 기록해 두세요."),
    Turn("알림 권한 허용률이 너무 낮은데 onboarding에서 언제 물어보는 게 좋아요?", "첫 실행에 바로 묻기보다, 사용자가 알림이 왜 필요한지 느끼는 순간에 먼저 앱 안에서 설명하고 시스템 팝업을 띄우는 게 허용률이 훨씬 높아요."),
    Turn("iOS 심사에 올린 건 3.14.2, build 905예요.", "알겠어요. 심사 중에 급한 수정이 생기면 build를 새로 올려야 하니 변경 사항을 모아 두세요."),
    Turn("Android는 Play Console 내부 테스트 트랙에 versionCode 1187로 올렸어요.", "적어뒀어요. 내부 트랙에서 문제없으면 단계적 출시 비율을 낮게 시작하는 걸 추천해요."),
    Turn("iOS 심사 reject 사유가 'Guideline 4.3 spam'이라는데 이게 무슨 뜻이에요?", "비슷한 앱이 이미 많거나 같은 코드로 여러 앱을 찍어낸 것처럼 보일 때 받는 사유예요. 앱만의 기능과 차별점을 Resolution Center에 구체적으로 설명하면 통과되는 경우가 많아요."),
    Turn("장애 나면 Slack #inc-checkout 채널에 먼저 공유해야 해요.", "알겠어요. 장애 공유 템플릿을 채널에 고정해 두면 당황할 때도 빠뜨리는 게 줄어요."),
    Turn("Slack 채널이 너무 많아서 sidebar 정리하는 팁 있어요?", "섹션을 만들어서 '내 업무', '공지', '잡담'처럼 묶고, 자주 안 보는 채널은 음소거한 뒤 접어 두세요. 안 읽은 것만 보기 옵션도 도움이 돼요."),
    Turn("배포 공지는 #rel-train 채널에 올리는 게 규칙이에요.", "네, 그것도 적어둘게요."),
    Turn("'release train' 방식이 뭐예요? 개발팀이 자꾸 그 말을 써요.", "정해진 주기마다 기차가 출발하듯 배포하는 방식이에요. 그 시점까지 준비된 기능만 싣고, 못 탄 건 다음 기차를 기다려요. 일정이 예측 가능해지는 게 장점이에요."),
    Turn("이번 주 입사한 인턴은 박도윤 님이에요, 영어 이름은 Daniel이고요.", "알겠어요. 첫 주에 같이 점심 한 번 하시면 적응에 큰 도움이 될 거예요."),
    Turn("인턴한테 첫 주에 뭘 맡기면 좋을까요? 너무 어려운 건 말고요.", "경쟁 앱 checkout 흐름을 캡처해서 비교 정리하기 같은 리서치 과제가 좋아요. 제품을 빨리 이해하게 되고 결과물이 팀에도 쓸모 있어요."),
    Turn("요즘 회사에서 영어 이름 쓰는 문화 어떻게 생각해요? 수평 문화라고는 하는데.", "호칭이 주는 위계감을 줄이는 데는 효과가 있지만, 이름만 바꾸고 의사결정 방식이 그대로면 형식에 그치기 쉬워요. 결국 회의에서 누구 말이 통하는지가 더 중요해요."),
    Turn("싱가포르 출장 hotel 예약번호는 HX7Q2L이에요, Marina 쪽 Pan Pacific.", "적어뒀어요. 체크인 때 여권이랑 같이 보여 주면 돼요."),
    Turn("다음 주 싱가포르 날씨 어때요? 우산 챙겨야 하나요?", "싱가포르는 이 시기에 오후 소나기가 잦아서 작은 우산이 있으면 좋아요. 실내는 에어컨이 강하니 얇은 겉옷도 챙기세요."),
    Turn("비행기는 KE645, 항공 예약번호는 B8ZT4M이에요.", "알겠어요. 온라인 체크인은 보통 출발 48시간 전부터 열려요."),
    Turn("출장비 정산할 때 식비 영수증 없으면 어떻게 해요?", "대부분 회사는 카드 내역이나 지출 사유서로 대체할 수 있게 해 줘요. 재무팀 규정을 먼저 확인하고, 다음부터는 영수증을 바로 사진 찍어 두세요."),
    Turn("비행기에서 노트북으로 일하면 집중 잘 되던데, 기내 Wi-Fi 쓸 만해요?", "메일이나 메신저 정도는 되지만 화상회의나 큰 파일은 힘들어요. 중요한 자료는 미리 오프라인으로 받아 두세요."),
    Turn("이번 분기 OKR 핵심 지표는 D7 retention 22% 달성이에요.", "적어뒀어요. 주간 단위로 추이를 대시보드에 걸어 두면 분기 말에 놀랄 일이 줄어요."),
    Turn("OKR이랑 KPI 차이가 정확히 뭐예요? 팀장님이 섞어서 써서요.", "KPI는 평소 건강 상태를 재는 지표이고, OKR은 이번 기간에 크게 바꾸고 싶은 목표와 그 달성 기준이에요. KPI가 OKR의 Key Result로 쓰일 수도 있어요."),
    Turn("점심 스터디는 목요일 12시 반, 'Designing Data-Intensive Applications' 6장 할 차례예요.", "알겠어요. 발표 순서가 돌아오면 요약을 한 쪽짜리로 준비해 가시면 좋아요."),
    Turn("스터디 모임이 자꾸 흐지부지되는데 오래 가는 비결 있어요?", "분량을 작게 잡고, 매주 한 명이 진행을 맡아 돌아가게 하세요. 빠지면 벌금보다 짧은 요약을 올리는 규칙이 오래가요."),
    Turn("다음 분기 roadmap 발표를 제가 맡게 됐어요. 임원분들 앞에서 20분인데, 기능 목록을 나열하면 지루하다고 하고, 너무 추상적이면 구체적인 게 없다고 하시고... 어떤 구조로 가야 할지 모르겠어요.", "문제 하나로 시작해서, 그 문제를 해결하는 세 가지 큰 축을 보여 주고, 축마다 대표 기능 한두 개와 기대 지표를 붙이세요. 마지막에 필요한 결정이나 지원을 한 장으로 요청하면 임원 발표로 깔끔해요."),
    Turn("회의록 쓰는 게 너무 귀찮아요. 좋은 방법 없어요?", "결정 사항, 담당자, 기한 세 가지만 적는 템플릿을 쓰세요. 회의 끝나기 전 2분 동안 화면에 띄워 확인받으면 따로 정리할 일이 거의 없어요."),
    Turn("JIRA 대신 Linear 써 보자는 의견이 있는데 어때요?", "Linear는 빠르고 단순해서 작은 팀이 좋아해요. 대신 복잡한 권한이나 커스텀 워크플로가 필요하면 Jira가 나을 수 있으니, 한 팀이 한 달 파일럿을 해 보세요."),
    Turn("디자이너랑 개발자가 자꾸 간격 px 가지고 싸워요. 중간에서 어떻게 해요?", "디자인 토큰으로 spacing 값을 4나 8 단위로 정해 두면 싸울 일이 줄어요. 예외는 디자이너가 이유를 적어 두는 규칙을 만드세요."),
    Turn("사용자 인터뷰할 때 질문 어떻게 해야 유도 질문이 안 돼요?", "'이 기능 좋으세요?' 대신 '마지막으로 이걸 했을 때 어떻게 하셨는지 말씀해 주세요'처럼 과거 행동을 묻는 질문을 하세요. 의견보다 실제 경험이 더 믿을 만해요."),
    Turn("요즘 야근 많아서 운동을 못 해요. 10분짜리 루틴 있을까요?", "스쿼트, 푸시업, 플랭크, 런지를 40초씩 하고 20초 쉬는 걸 두 바퀴 돌리면 10분이에요. 출근 전에 하면 빼먹을 일이 적어요."),
    Turn("영어 회의에서 말 끼어들기가 너무 어려워요.", "\"Can I add something here?\"나 \"Just to build on that,\" 같은 문장을 미리 입에 붙여 두세요. 손을 살짝 드는 것만으로도 차례를 받기 쉬워요."),
    Turn("팀원이 자꾸 마감을 넘기는데 어떻게 얘기하죠?", "비난보다 사실로 시작하세요. 언제 무엇이 늦었는지 말하고, 막히는 게 뭔지 묻고, 다음에는 중간 점검 날짜를 같이 정하세요."),
    Turn("Notion으로 팀 wiki 만들려는데 구조 어떻게 잡아요?", "팀 소개, 진행 중인 프로젝트, 업무 가이드, 회의록 네 개 정도로 시작하세요. 처음부터 너무 잘게 나누면 아무도 안 찾아요."),
    Turn("SQL 조금 배워서 데이터 직접 뽑고 싶어요. 어디서부터 해요?", "SELECT, WHERE, GROUP BY, JOIN 네 가지만 익혀도 PM이 필요한 대부분은 뽑을 수 있어요. 회사 데이터로 궁금한 질문 하나를 정해서 직접 풀어 보는 게 제일 빨라요."),
    Turn("요즘 눈이 너무 건조해요. 모니터 오래 봐서 그런가요?", "화면을 오래 보면 눈 깜빡임이 줄어서 건조해지기 쉬워요. 20분마다 20초 먼 곳을 보고, 인공눈물을 쓰고, 모니터를 눈높이보다 살짝 낮게 두세요."),
    Turn("퇴사한 동료 송별 선물로 뭐가 좋을까요? 5만 원 정도요.", "좋은 펜이나 명함 지갑, 팀원들이 한마디씩 쓴 롤링페이퍼를 같이 주면 반응이 좋아요."),
    Turn("Amplitude에서 funnel 만들 때 자꾸 숫자가 안 맞아요.", "이벤트 순서 조건과 전환 기간 설정을 먼저 확인하세요. 같은 사용자가 여러 기기로 들어오면 user id가 합쳐지지 않아 숫자가 어긋나기도 해요."),
    Turn("연봉 협상 때 이직 제안 받은 거 말해도 돼요?", "말해도 되지만 협박처럼 들리지 않게, 시장 가치에 대한 근거로 차분하게 꺼내세요. 실제로 옮길 생각이 없다면 카드로 쓰지 않는 게 안전해요."),
    Turn("점심시간에 낮잠 자면 오후에 더 피곤하던데 왜 그래요?", "30분 넘게 자면 깊은 잠에 들어갔다 깨서 오히려 멍해져요. 15~20분만 알람 맞추고 자 보세요."),
    Turn("PRD 쓸 때 꼭 들어가야 하는 항목이 뭐예요?", "문제 정의, 대상 사용자, 목표와 성공 지표, 범위와 범위 밖, 주요 흐름, 열린 질문이요. 해결책보다 문제를 먼저 충분히 쓰는 게 핵심이에요."),
    Turn("주말에 성수동 가 보려는데 요즘 뭐가 핫해요?", "팝업 스토어가 워낙 자주 바뀌어서 가기 전에 SNS에서 이번 주 팝업을 확인하세요. 서울숲 산책이랑 묶으면 하루 코스로 좋아요."),
    Turn("팀 막내가 회의에서 말을 안 해요. 어떻게 끌어내죠?", "회의 전에 안건을 공유해서 생각할 시간을 주고, 회의 중에 '○○ 님은 사용자 입장에서 어떻게 보세요?'처럼 구체적으로 물어보세요."),
    Turn("카페인 끊으면 두통이 온다던데 진짜예요?", "네, 갑자기 끊으면 하루이틀 뒤 두통이 오는 경우가 많아요. 일주일에 걸쳐 양을 조금씩 줄이면 훨씬 수월해요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "final_real", {"keyword": "Figma 시안 파일 이름 뭐였죠?", "paraphrase": "디자인 최신본 문서 제목이 뭐였더라?", "endings": "Figma 시안은 파일이 뭐였죠?"}),
        (3, "4.8%", {"keyword": "push 알림 A/B test 결과 어땠어요?", "paraphrase": "휴대폰으로 보내는 메시지 실험에서 이긴 쪽 클릭률 얼마였죠?", "endings": "push 알림은 A/B test에서 CTR이 얼마였죠?"}),
        (5, "2.1%", {"keyword": "홈 배너 A/B test CTR 얼마였죠?", "paraphrase": "첫 화면 광고 띠 실험 클릭률 얼마 나왔죠?", "endings": "홈 배너는 CTR이 얼마로 이겼죠?"}),
        (7, "build 905", {"keyword": "iOS 심사 올린 build 번호 뭐였죠?", "paraphrase": "애플 스토어 검토 넣은 버전 몇이었죠?", "endings": "iOS 심사엔 build 몇으로 올렸죠?"}),
        (8, "1187", {"keyword": "Android versionCode 몇으로 올렸죠?", "paraphrase": "구글 스토어 쪽 제출한 버전 숫자 뭐였죠?", "endings": "Android 내부 테스트에는 versionCode 몇이 올라갔죠?"}),
        (10, "#inc-checkout", {"keyword": "장애 나면 어느 Slack 채널에 공유해요?", "paraphrase": "서비스 터졌을 때 알리는 방 이름이 뭐였죠?", "endings": "장애는 어느 채널로 공유하죠?"}),
        (12, "#rel-train", {"keyword": "배포 공지 채널 어디였죠?", "paraphrase": "새 버전 내보냈다고 알릴 방이 어디였죠?", "endings": "배포 공지를 어느 채널에 올려요?"}),
        (14, "박도윤", {"keyword": "새로 입사한 인턴 이름 뭐였죠?", "paraphrase": "요번에 합류한 실습생 성함이 어떻게 돼요?", "endings": "인턴은 이름이 뭐였죠?"}),
        (17, "HX7Q2L", {"keyword": "싱가포르 출장 hotel 예약번호 알려줘요.", "paraphrase": "해외 업무 여행 숙소 확인 코드가 뭐였죠?", "endings": "출장 hotel은 예약번호가 뭐죠?"}),
        (19, "B8ZT4M", {"keyword": "비행기 예약번호 뭐였죠?", "paraphrase": "타고 가는 편 발권 코드 알려줘요.", "endings": "비행기 예약번호를 잊어버렸어요, 뭐였죠?"}),
        (22, "22%", {"keyword": "이번 분기 OKR 핵심 지표 뭐였죠?", "paraphrase": "석 달 목표 중 제일 중요한 숫자가 뭐였더라?", "endings": "분기 OKR은 핵심 지표가 뭐였죠?"}),
        (24, "6장", {"keyword": "점심 스터디 이번에 몇 장 해요?", "paraphrase": "밥 먹으면서 하는 독서 모임 어디까지 읽어야 하죠?", "endings": "점심 스터디에서는 몇 장 할 차례죠?"}),
    ],
    [
        ("배너 A/B test CTR 몇 %였죠?", 5, 3),
        ("Android build 번호 뭐였죠?", 8, 7),
        ("배포 공지 어느 Slack 채널에 올려요?", 12, 10),
        ("항공권 예약번호 뭐였죠?", 19, 17),
    ],
    [
        "다들 저녁 맛있게 드세요~",
        "ㅋㅋ 아 진짜요?",
        "오늘 퇴근하고 뭐 하지",
        "JavaScript랑 Java 차이가 뭐예요?",
        "통계 공부 입문서 추천해 줄래요?",
        "주말에 가볼 만한 서울 전시 추천해줘요",
        "피곤해서 커피 한 잔 더 마실까 고민 중",
        "MBTI 믿어요?",
        "우산 없는데 지금 밖에 비 와요?",
        "sidebar 색 바꾸는 CSS 알려줘요",
    ],
)


# --- 4. Code-heavy: a web developer on a TypeScript storefront, with shell, file and test tools --------------------

_CODE_TURNS = [
    Turn("Morning. I'm on the storefront repo today, fernwood-web. What's in it?", "It's a Next.js app in TypeScript: pages and components under `src/`, Playwright end-to-end tests in `e2e/`, Terraform in `infra/`, and a small Kafka consumer in `src/consumers/`.", "run_shell", '{"cmd": "ls"}', "README.md\ne2e\ninfra\nnext.config.js\npackage.json\npnpm-lock.yaml\nsrc\ntsconfig.json\nvitest.config.ts"),
    Turn("The preview deploy for my PR is at web-pr-482-orbit.vercel.app.", "Noted. Preview links are public by default on many plans, so don't seed that deploy with real customer data."),
    Turn("Open the markdown preview component, I think it's src/components/Preview.tsx.", "It renders user-supplied markdown with `dangerouslySetInnerHTML` and no sanitising step. That's an XSS risk; running the HTML through DOMPurify first would close it.", "read_file", '{"path": "src/components/Preview.tsx"}', "import { marked } from \"marked\";\n\nexport function Preview({ text }: { text: string }) {\n  return <div className=\"md\" dangerouslySetInnerHTML={{ __html: marked(text) }} />;\n}\n"),
    Turn("The build server runs Node 18.19.1, pinned in the CI image.", "Got it. Then avoid APIs that only landed in Node 20, or the build will pass locally and fail there."),
    Turn("The dev container has Node 20.11.0, so local and CI differ.", "That mismatch bites eventually. An `engines` field in package.json plus an `.nvmrc` makes the difference visible before it breaks a build."),
    Turn("The category tree test crashes, can you run it?", "It crashes walking the tree: a node without `children` reaches `walk`, which assumes every node has that array. Defaulting to an empty array for leaves fixes it.", "run_tests", '{"path": "src/lib/tree.test.ts"}', "FAIL src/lib/tree.test.ts > buildTree > handles leaf categories\nTypeError: Cannot read properties of undefined (reading 'map')\n    at walk (src/lib/tree.ts:41:27)\n  1 failed | 6 passed"),
    Turn("Stripe test-mode webhook secret is whsec_test_9QmR4vLp.", "Noted. Keep it in `.env.local`; the Stripe CLI prints a fresh one for `stripe listen` too, so don't mix them up."),
    Turn("GitHub says secret scanning found a token in one of my commits. What do I do?", "Revoke the token first, at the provider, because it's already exposed. Then remove it from the code, and if the repo is public consider rewriting history; but revocation is the step that matters."),
    Turn("The live webhook secret is whsec_live_Zt71KcWd, only in the prod vault.", "Understood, I won't repeat it. Make sure the app reads it from the environment at runtime rather than baking it into the build."),
    Turn("Staging GraphQL endpoint: https://gql.stg.fernwood.io/v2", "Noted. Point `NEXT_PUBLIC_GQL_URL` at it in the staging environment rather than hard-coding it in the client."),
    Turn("Grep for where we create the GraphQL client.", "The Apollo client is created once in `src/lib/apollo.ts` and reads its URL from the environment; the cart page builds a second client of its own, which is probably why its cache behaves differently.", "run_shell", '{"cmd": "grep -rn \\"new ApolloClient\\" src"}', "src/lib/apollo.ts:12:export const client = new ApolloClient({ uri: process.env.NEXT_PUBLIC_GQL_URL, cache });\nsrc/pages/cart.tsx:30:  const local = new ApolloClient({ uri: process.env.NEXT_PUBLIC_GQL_URL, cache: new InMemoryCache() });"),
    Turn("What's the difference between a REST endpoint and a GraphQL resolver, briefly?", "A REST endpoint is a URL that returns a fixed shape of data. A GraphQL resolver is a function behind one field of a schema; the client's query decides which resolvers run, so one request can gather exactly the fields it needs."),
    Turn("Order events go to the Kafka topic orders.v3.created.", "Got it. Keep the consumer's group id stable, or a redeploy will start reading from the beginning of the log."),
    Turn("Check the consumer config.", "The consumer reads its topic from `ORDERS_TOPIC`, commits offsets automatically every five seconds and has no retry limit, so a poison message would be retried forever.", "read_file", '{"path": "src/consumers/orders.ts"}', "export const consumer = kafka.consumer({ groupId: \"storefront-orders\" });\nawait consumer.subscribe({ topic: process.env.ORDERS_TOPIC!, fromBeginning: false });\nawait consumer.run({ autoCommitInterval: 5000, eachMessage: handleOrder });"),
    Turn("Failed messages go to the dead-letter topic orders.v3.dlq.", "Noted. Add an alert on that one's lag; a dead-letter queue nobody watches just hides failures."),
    Turn("PagerDuty on-call for the storefront this week is Priyanka, @pkaur on Slack.", "Got it. If you change anything risky late in the day, give her a heads-up first."),
    Turn("How do I call a function only once in React? useEffect runs twice in dev.", "That's StrictMode mounting components twice on purpose in development to surface side effects. Make the effect idempotent with a cleanup; if it truly must run once, guard it with a ref, but usually the fix is the cleanup."),
    Turn("Run the cart tests.", "Two failures: the coupon test expects a 10% discount but gets none, and the tax test is off by a cent. The rest of the cart suite passes.", "run_tests", '{"path": "src/cart"}', " FAIL  src/cart/coupon.test.ts > applies percentage coupon\n   expected 90 to be 100\n FAIL  src/cart/tax.test.ts > rounds tax per line\n   expected 1.07 to be 1.08\n Test Files  2 failed | 9 passed (11)\n      Tests  2 failed | 41 passed (43)"),
    Turn("The Datadog latency dashboard is abc-7rt-2kq.", "Noted. Pin it in the team channel so whoever's investigating a slowdown lands there first."),
    Turn("Show me the coupon code path.", "The coupon is applied after the total is already computed and the result is thrown away: `applyCoupon` returns a new cart but the caller ignores it. Assigning the returned cart fixes the failing test.", "read_file", '{"path": "src/cart/checkout.ts"}', "export function checkout(cart: Cart, coupon?: Coupon) {\n  const total = sum(cart.lines);\n  if (coupon) applyCoupon(cart, coupon);\n  return { cart, total };\n}\n"),
    Turn("The error-rate dashboard in Datadog is x9p-44m-ufe.", "Got it. It's worth adding a monitor on it too, so you hear about spikes before customers report them."),
    Turn("The admin page's dashboard component re-renders on every keystroke in the search box. Why?", "The search text probably lives in state at the top of the page, so every keystroke re-renders everything below it. Move the state into the search component, or memoise the heavy children with `React.memo`."),
    Turn("Check the Terraform plan before I apply.", "The plan replaces the CDN distribution instead of updating it, because the origin id changed. That would cause a few minutes of downtime; renaming it back or using a `moved` block avoids the replacement.", "run_shell", '{"cmd": "terraform -chdir=infra plan -no-color"}', "  # aws_cloudfront_distribution.web must be replaced\n-/+ resource \"aws_cloudfront_distribution\" \"web\" {\n      ~ origin_id = \"web-origin\" -> \"storefront-origin\" # forces replacement\n\nPlan: 1 to add, 0 to change, 1 to destroy."),
    Turn("Terraform state lives in the S3 bucket fernwood-tfstate-prod, locked with the DynamoDB table tf-locks.", "Noted. Turn on versioning for that bucket if it isn't already; it's the undo button for a corrupted state."),
    Turn("What's a token bucket rate limiter, in two sentences?", "Tokens drip into a bucket at a fixed rate up to a maximum, and each request takes one; when the bucket is empty, requests wait or are refused. It allows short bursts while keeping the average rate capped."),
    Turn("Let's fix the coupon bug and rerun the cart tests.", "With the returned cart assigned, the coupon test passes. The tax rounding test still fails; that's a separate issue in how each line rounds.", "run_tests", '{"path": "src/cart"}', " FAIL  src/cart/tax.test.ts > rounds tax per line\n   expected 1.07 to be 1.08\n Test Files  1 failed | 10 passed (11)\n      Tests  1 failed | 42 passed (43)"),
    Turn("Why would tax come out a cent short when I round per line?", "Floating-point: 1.075 can't be represented exactly, so it's stored as 1.07499999 and rounds down. Work in integer cents or use a decimal library, and round half up at one defined point."),
    Turn("Show me the tax helper.", "It multiplies a float price by the rate and calls `Math.round(x * 100) / 100`, which hits exactly that floating-point problem. Converting to cents first fixes it.", "read_file", '{"path": "src/cart/tax.ts"}', "export const lineTax = (price: number, rate: number) =>\n  Math.round(price * rate * 100) / 100;\n"),
    Turn("Change it to integer cents and run the whole suite.", "All green: the tax helper now takes cents and the full suite passes.", "run_tests", '{"path": "src"}', " Test Files  38 passed (38)\n      Tests  312 passed (312)\n   Duration  9.84s"),
    Turn("Write a commit message for the two cart fixes.", "\"cart: keep the coupon's returned cart and compute tax in integer cents, so coupons apply and per-line tax no longer loses a cent\". One line says what and why."),
    Turn("What does the lint say before I push?", "Three warnings and no errors: an unused import, a missing dependency in a hook's dependency list and an `any` in the tree helper.", "run_shell", '{"cmd": "pnpm lint"}', "src/cart/tax.ts\n  1:10  warning  'Decimal' is defined but never used  @typescript-eslint/no-unused-vars\nsrc/pages/search.tsx\n  22:6  warning  React Hook useEffect has a missing dependency: 'query'  react-hooks/exhaustive-deps\nsrc/lib/tree.ts\n  8:31  warning  Unexpected any  @typescript-eslint/no-explicit-any\n\n3 problems (0 errors, 3 warnings)"),
    Turn("Explain the exhaustive-deps warning like I'm tired.", "The effect uses `query` but doesn't list it, so it keeps seeing the first value forever. Add `query` to the array, or move the logic so it doesn't need it."),
    Turn("Which packages are out of date?", "Next.js is one minor behind, and the date library is a major version behind; the major bump has breaking changes in formatting tokens, so do that one separately.", "run_shell", '{"cmd": "pnpm outdated"}', "Package     Current  Latest\nnext        14.1.0   14.2.3\ndate-fns    2.30.0   3.6.0\nzod         3.22.4   3.23.8"),
    Turn("What's the difference between `pnpm install` and `pnpm install --frozen-lockfile`?", "The plain install may update the lockfile to satisfy package.json. The frozen one refuses if the lockfile doesn't match, which is what you want in CI so builds are reproducible."),
    Turn("Look at the recent history, did someone touch the checkout page?", "Yes, two commits yesterday changed the checkout page: one moved the address form and one added analytics events.", "run_shell", '{"cmd": "git log --oneline -5 -- src/pages/checkout.tsx"}', "a41c9e2 checkout: send begin_checkout and add_payment_info events\n7be03d1 checkout: address form above the order summary on mobile\n3f2e8aa checkout: lazy-load the payment widget\n91d0c44 checkout: show delivery estimate\n0c7a5b1 checkout: first version"),
    Turn("How should I name a branch for the cart fixes?", "Something like `fix/cart-coupon-and-tax` says what it covers. Keep it short and lower-case with hyphens."),
    Turn("Explain CORS in two sentences.", "Browsers block a page from reading responses from another origin unless that server says it's allowed, via `Access-Control-Allow-Origin` and related headers. It protects users' cookies, not the server, so it's configured on the server being called."),
    Turn("Run the end-to-end smoke test for checkout.", "The smoke test passes in Chromium but times out in WebKit waiting for the payment iframe; that's usually the lazy-loaded widget taking longer there.", "run_tests", '{"path": "e2e/smoke.spec.ts"}', "  ✓  [chromium] › smoke.spec.ts:5:1 › guest can check out (8.1s)\n  ✘  [webkit] › smoke.spec.ts:5:1 › guest can check out (30.0s)\n     Timeout 30000ms exceeded waiting for frame \"payment\"\n  1 failed, 1 passed"),
    Turn("Is it okay to raise the Playwright timeout for that one?", "For one known-slow step, yes: wait on the iframe with its own longer timeout rather than raising the global one, so other slowdowns still get caught."),
    Turn("What's the difference between `useMemo` and `useCallback`?", "`useMemo` caches a computed value; `useCallback` caches a function. `useCallback(fn, deps)` is the same as `useMemo(() => fn, deps)`."),
    Turn("Suggest a name for a helper that turns cents into a display price.", "`formatPrice(cents: number, currency: string): string` reads well and says the unit in its parameter."),
    Turn("How big is the production bundle now?", "The first-load JavaScript for the checkout page is 212 kB, the largest of the app; the payment widget is already lazy, so the next win is the date library.", "run_shell", '{"cmd": "pnpm build | tail -5"}', "Route (pages)                    Size     First Load JS\n┌ ○ /                            5.2 kB         98 kB\n├ ○ /cart                        7.9 kB        121 kB\n└ ○ /checkout                    41 kB         212 kB\n+ First Load JS shared by all    87 kB"),
    Turn("Why is my laptop fan screaming whenever the dev server is running?", "Usually the file watcher: on a big repo it can poll thousands of files. Exclude `node_modules` and build output from watching, and check that the dev server isn't type-checking the whole project on every save."),
    Turn("Give me a checklist for reviewing a checkout PR.", "Prices and tax in integer cents; coupon and tax order defined and tested; no card data in logs or analytics; loading and error states for the payment widget; and an end-to-end run in at least two browsers."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "web-pr-482-orbit", {"keyword": "What's the preview URL for my PR?", "paraphrase": "Where can reviewers click through my branch's build before it merges?"}),
        (4, "18.19.1", {"keyword": "What Node version does the build server run?", "paraphrase": "Which JavaScript runtime release is on the continuous integration machines?"}),
        (5, "20.11.0", {"keyword": "What Node is in the dev container?", "paraphrase": "Which JavaScript runtime release do I have on my own laptop setup?"}),
        (7, "whsec_test_9QmR4vLp", {"keyword": "What's the Stripe test webhook secret?", "paraphrase": "Which signing key does the payment provider's sandbox use for callbacks?"}),
        (9, "whsec_live_Zt71KcWd", {"keyword": "What's the live webhook secret?", "paraphrase": "Which signing key protects real customer payment callbacks?"}),
        (10, "gql.stg.fernwood.io", {"keyword": "What's the staging GraphQL endpoint?", "paraphrase": "What URL does the pre-production query API sit at?"}),
        (13, "orders.v3.created", {"keyword": "Which Kafka topic do order events go to?", "paraphrase": "Where are purchase messages published on the streaming bus?"}),
        (15, "orders.v3.dlq", {"keyword": "What's the dead-letter topic?", "paraphrase": "Where does the stream park the events nobody could handle?"}),
        (16, "@pkaur", {"keyword": "Who's on-call this week?", "paraphrase": "Who gets paged if the shop breaks tonight?"}),
        (19, "abc-7rt-2kq", {"keyword": "What's the Datadog latency dashboard id?", "paraphrase": "Which monitoring board shows how slow requests are?"}),
        (21, "x9p-44m-ufe", {"keyword": "What's the error-rate dashboard?", "paraphrase": "Which monitoring board tracks how often things break?"}),
        (24, "fernwood-tfstate-prod", {"keyword": "Where does the Terraform state live?", "paraphrase": "Where is the infrastructure bookkeeping file kept for production?"}),
    ],
    [
        ("Which Node version is in the dev container?", 5, 4),
        ("What's the live Stripe webhook secret?", 9, 7),
        ("What's the dead-letter Kafka topic?", 15, 13),
        ("Which Datadog dashboard shows errors?", 21, 19),
    ],
    [
        "morning!",
        "lol nice",
        "What's the capital of Norway?",
        "Write a limerick about a rubber duck.",
        "How many bytes are in a kilobyte, 1000 or 1024?",
        "Any tips for staying awake after lunch?",
        "Who invented the telephone?",
        "Can you explain what a token is in crypto?",
        "What's a good name for a new puppy?",
        "Is it going to rain in Seattle today?",
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
