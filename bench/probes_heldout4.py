# ruff: noqa: E501, E402
"""A fourth held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the four sets. The dataclasses, :func:`questions`, the
comparison keys and the per-conversation checks are that module's own, imported here, so every set is held to one
rule book. Sets 1 to 3 were used while recall was tuned or reported; this one was written afterwards, without seeing
how recall works, for reporting.

Four new conversations with other people, subjects and facts: ``english`` (a retired schoolteacher planning a rail trip
to Scotland while sorting out card fraud and her late mother-in-law's estate with the bank), ``korean`` (a university
student juggling a convenience-store job, a band club and exams), ``mixed`` (the QA and dev team of a Korean game
studio, Korean with English work words) and ``code`` (a data scientist on a churn model, with notebook cells, shell,
file and test tools and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words, with and without "my"/"내",
as requests ("remind me ..."), in past and present tense; look-alikes where the other words pick one of two facts of a
kind (two train dates, two phone numbers, two changelists, two ports); and unrelated questions of every sort, from
small talk and thanks to how-tos that share common words with filler turns and first-person news never mentioned.
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
#: the people and pets this set names, so a test can hold that sets 1 to 3 name none of them
PEOPLE = (
    "Maureen", "Clive", "Rosa Quintero", "Adebayo", "Tobias", "Marmalade", "Rahel", "문재석", "서유나", "엄태오", "차수빈",
)

# (the data keeps one turn and one fact per line)

# --- 1. English: a retired teacher planning a rail trip to Scotland while sorting card fraud and an estate -------

_EN_TURNS = [
    Turn("Hello there. I'm Maureen, retired now after thirty-one years teaching geography. My husband Clive and I are off to Scotland in May, and the bank has been giving me headaches. Can I jot things down with you as we go?", "Of course, Maureen. Put things here whenever they come up and I'll help you keep the trip and the bank business in order."),
    Turn("The bank opened a fraud claim for the two charges on my debit card I never made; the case reference is FRD-448-2091.", "I'm sorry that happened. Banks usually refund unauthorised card payments within a few working days while they investigate, so keep an eye on your statement and note the date you reported it."),
    Turn("A former pupil asked me to write a character reference for her first teaching job. What should go in it?", "Say how long you've known her and in what role, then give two or three concrete examples of her qualities, such as patience with a struggling class or reliability. End with a clear recommendation and your contact details."),
    Turn("The Caledonian Sleeper is booked: we leave London Euston on Thursday 9 May, overnight to Inverness.", "Lovely. Board early so you can settle in, and pack a small overnight bag; the cabins are snug and the big suitcases are a nuisance in them."),
    Turn("My grandson Tobias wants to train his new puppy not to jump on visitors. Any tips I can pass on?", "Teach the puppy that jumping earns nothing: visitors turn away and only give attention when all four paws are on the floor. Ask for a sit at the door and reward it, and keep sessions short and frequent."),
    Turn("Is a Senior Railcard worth it if we only go by rail three or four times a year?", "Usually yes. It costs about thirty pounds a year and takes a third off most fares, so one long journey like London to Scotland often pays for it on its own."),
    Turn("Coming back, we're on the LNER from Edinburgh Waverley to King's Cross on Saturday 18 May at 10:30.", "Noted. Waverley is a big station, so allow time to find the platform, and reserve seats together if they weren't included with the tickets."),
    Turn("My card was declined at the garden centre yesterday even though there's plenty in the account. Why would that happen?", "Often the bank's own security system blocks a payment it thinks looks unusual, especially after a recent fraud report. A new card number not yet updated, or a daily limit, can also do it. The banking app or a call to the bank will tell you which."),
    Turn("The bank's fraud team has a direct line, 0345 600 7781; they told me not to use the number on the back of the card.", "Got it. Do ring them yourself on that line rather than calling back any number that contacts you; that's the safest habit."),
    Turn("I keep getting calls from numbers claiming to be my bank. How do I tell a real one from a scam?", "Assume any unexpected call is a scam. A real bank will never ask for your PIN or full password, or ask you to move money to a 'safe account'. Hang up, wait five minutes, and ring the bank back on a number you already trust."),
    Turn("Rosa Quintero next door is feeding Marmalade while we're away; her mobile is 07700 918342.", "Lovely to have a neighbour you trust. Leave her a note with the vet's details and how much food Marmalade gets, just in case."),
    Turn("Marmalade has started scratching the side of the sofa again. How do I stop a cat doing that?", "Give her a tall, sturdy scratching post right next to that spot, and make the sofa unappealing with double-sided tape or a throw for a few weeks. Praise and treats when she uses the post help it stick."),
    Turn("Our travel insurance is with Staysure, policy TRV-77310-K, and it covers Clive's heart condition.", "Good that the condition is declared; that's what makes claims go smoothly. Keep the emergency assistance number on your phone as well as on paper."),
    Turn("In Edinburgh we're staying three nights at the Kittiwake Guest House on Leith Walk.", "That's a handy spot, with buses straight up to Princes Street. Ask them whether they can store your luggage on the last morning before your train."),
    Turn("What's the etiquette for tipping at a guest house? I never know whether to leave something.", "It isn't expected in the UK, but if the owners went out of their way for you, a few pounds in an envelope or a thank-you card is always welcome. Restaurants are where ten to twelve percent is usual."),
    Turn("Clive's blood pressure tablet is amlodipine, 5 mg every morning, so I need to pack a month's worth.", "Noted. Pack it in your hand luggage in its original box, and bring a copy of the prescription in case anything goes missing."),
    Turn("Tobias wants a tablet for his ninth birthday. Is nine too young to have one of his own?", "Plenty of nine-year-olds have one; what matters is the rules around it. Set parental controls, keep it out of the bedroom at night, and agree on screen time before it's unwrapped rather than after."),
    Turn("The appointment with Mr. Adebayo at the bank about Clive's late mother's estate is on 23 April at 2:40 pm.", "Noted. Bring the death certificate, the will if there is one, and your own ID, and ask him which forms they'll need to release the accounts."),
    Turn("What does a probate registry actually do, and do we need a solicitor for a small estate?", "The registry gives the executor legal authority to deal with the estate. For a simple, small estate many people apply online themselves without a solicitor, and some banks release small balances without probate at all."),
    Turn("My eye test is Friday 26 April at 11:05 am; they'll put drops in so I can't drive home.", "Noted. Arrange a lift or a taxi, and bring sunglasses; the light is uncomfortable for a few hours after the drops."),
    Turn("Why do my eyes water so much when I read in bed at night?", "Tired eyes blink less, so they dry out, and the eyes then overproduce tears. Better lighting, regular breaks and some lubricating drops usually help; if it persists, mention it to the optician."),
    Turn("Can you explain how a key safe works? A friend wants one for her mum's carers.", "It's a small metal box fixed to the wall with a code lock. The house key goes inside, and anyone who knows the code can let themselves in. Choose a police-approved model and change the code now and then."),
    Turn("The cottage on Skye has a key safe by the back door; the code is 3958.", "Got it. Cottages in remote spots often have patchy signal, so it's worth having it written down rather than only in an email."),
    Turn("I'm reading aloud at the library's story hour next week. Any picture books that work for a mixed age group?", "'The Tiger Who Came to Tea', 'Room on the Broom' and 'Owl Babies' all go down well: they rhyme or repeat, so little ones join in, and older children enjoy the pictures."),
    Turn("My book club chose Small Things Like These for May, so I'll read it on the sleeper.", "It's short and beautifully written, so a journey is perfect for it. You'll likely finish it before Inverness."),
    Turn("Now a bigger favour. I've been roped into organising our village summer fete on the last Saturday of June. Last year it rained, the tombola ran out of prizes by two o'clock and nobody knew who was in charge of the car park. We have about twenty volunteers, a field behind the church hall and a budget of four hundred pounds. How would you organise it so it doesn't fall apart?", "Start with a one-page plan: a named lead for each area (stalls, tombola, teas, car park, first aid, clearing up) and a simple timetable for the day. Book a marquee or gazebos as a wet-weather backup and put the teas under cover. Ask for tombola prizes from local shops a month ahead and set aside double what you think you need. Give the car park team high-visibility vests and a marked layout. Meet the leads twice beforehand, and on the day keep one person free to solve problems rather than running a stall."),
    Turn("Can you give me a reliable recipe for fruit scones?", "Rub 75 g of cold butter into 350 g of self-raising flour with a pinch of salt, stir in 3 tablespoons of sugar and a handful of sultanas, then add 175 ml of warm milk with a squeeze of lemon. Pat to 4 cm thick, cut without twisting, brush with egg and bake at 220°C for about 10 to 12 minutes."),
    Turn("Greenfly are all over my roses. Anything that isn't a harsh spray?", "Squash them or blast them off with a jet of water, and encourage ladybirds and blue tits, which eat them by the hundred. A spray of diluted washing-up liquid works on bad patches; avoid spraying when bees are about."),
    Turn("How do I make the writing bigger on my phone? I'm squinting at every message.", "On most phones it's in Settings under Display, then Font size or Text size. Drag the slider to the right; there's often a separate Display zoom that makes everything larger too."),
    Turn("Help me write a complaint to the council about the potholes on our lane.", "\"Dear Highways Team, I'm writing to report several deep potholes on Mill Lane, between the church and the school. They've worsened over the winter and are now a danger to cyclists and to older residents on foot. I've attached photographs. Please could you let me know when they will be inspected and repaired? Yours sincerely, Maureen.\""),
    Turn("My knees ache going downstairs. Any gentle exercises?", "Straight-leg raises while sitting, slow sit-to-stand from a firm chair, and gentle step-ups on the bottom stair strengthen the muscles that protect the knee. Do a few every day and stop if anything causes sharp pain."),
    Turn("What's the difference between a robin and a chaffinch? I've got both in the garden, I think.", "A robin has an orange-red face and breast and a round, upright shape. A male chaffinch has a pinkish breast, a blue-grey cap and clear white bars on its wings, and it often feeds on the ground under the feeder."),
    Turn("Write a little verse for a colleague's retirement card. She taught French for forty years.", "\"Forty years of verbs and tenses, / Of patient smiles and good defences, / Now trade the classroom for the sun: / Bonne retraite, your work is done!\""),
    Turn("Why won't my strawberry jam set? It's been boiling for ages.", "Strawberries are low in pectin. Add the juice of a lemon or use jam sugar with pectin, and check for the set with a cold saucer: a drop should wrinkle when you push it. Over-boiling makes it darker and toffee-like rather than firmer."),
    Turn("How do I start a video call with my sister on WhatsApp?", "Open the chat with her, then tap the little camera icon at the top right. She'll get a ringing call; when she answers, you'll both see each other. Hold the phone at arm's length at eye level for the best picture."),
    Turn("Is it true we lose our sense of smell as we get older?", "Yes, gradually, from about sixty onwards for many people. A sudden loss is different and worth mentioning to a doctor, but a slow decline is common and one reason food can seem blander."),
    Turn("What are some good crossword habits for a beginner to cryptic clues?", "Look for the definition at the very start or end of the clue; the rest is wordplay. Learn the common signals, like 'broken' or 'sort of' for an anagram, and solve alongside the next day's answers to see how setters think."),
    Turn("Can you explain what an ISA is in simple terms?", "It's a savings or investment account where you don't pay tax on the interest or gains. Everyone in the UK can put up to £20,000 a year into ISAs, split across cash and stocks and shares as they like."),
    Turn("My hearing aid keeps whistling. Is it broken?", "Usually not. Whistling is feedback, most often from a dome that isn't seated properly, earwax, or the volume being too high. Check the fit and clean it; if it keeps on, the audiologist can adjust it."),
    Turn("Recommend some gentle comedy to watch in the evenings.", "'Detectorists' is gentle and funny, 'Gavin & Stacey' is warm, and 'Ghosts' is silly in a kind way. For something older, 'Dad's Army' still holds up."),
    Turn("What's the best way to clean old silver cutlery?", "Line a bowl with foil, add the cutlery, sprinkle bicarbonate of soda and pour over boiling water; the tarnish lifts off without scrubbing. Rinse, dry straight away and buff with a soft cloth."),
    Turn("How many steps a day should someone in their seventies aim for?", "Studies suggest around 6,000 to 8,000 steps a day brings most of the benefit for older adults. Any increase from where you are now helps, even a short walk after each meal."),
    Turn("Why do leaves change colour in autumn?", "As days shorten, trees stop making green chlorophyll. The yellows and oranges that were there all along show through, and some trees make red pigments from the sugars trapped in the leaves."),
    Turn("Is it safe to freeze cooked rice?", "Yes, if you cool it quickly, within an hour, and freeze it in portions. Reheat it until it's piping hot all the way through, and only reheat it once."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "FRD-448-2091", {"keyword": "What's the reference for my fraud claim?", "paraphrase": "Remind me what to quote when I phone up about the stolen money."}),
        (4, "Thursday 9 May", {"keyword": "When does the Caledonian Sleeper leave?", "paraphrase": "What day do we set off for the Highlands?"}),
        (7, "Saturday 18 May", {"keyword": "What time is the LNER from Waverley?", "paraphrase": "Which date do we head home at the end of the holiday?"}),
        (9, "0345 600 7781", {"keyword": "What's the fraud team's direct line?", "paraphrase": "Who do I ring if more dodgy payments turn up on my statement?"}),
        (11, "07700 918342", {"keyword": "What's Rosa's mobile?", "paraphrase": "How do I reach the neighbour looking after our moggy?"}),
        (13, "TRV-77310-K", {"keyword": "What's our travel insurance policy?", "paraphrase": "If one of us is taken ill up in Scotland, what do I give the hospital?"}),
        (14, "Kittiwake", {"keyword": "Where are we staying in Edinburgh?", "paraphrase": "Which B&B did I book for the Scottish capital?"}),
        (16, "amlodipine", {"keyword": "What's Clive's blood pressure tablet?", "paraphrase": "remind me which medicine my husband takes for his heart"}),
        (18, "2:40 pm", {"keyword": "When am I seeing Mr. Adebayo?", "paraphrase": "What time is the meeting about the inheritance paperwork?"}),
        (20, "11:05 am", {"keyword": "When is my eye test?", "paraphrase": "What time do I have to be at the optician's?"}),
        (23, "3958", {"keyword": "What's the key safe code at the cottage?", "paraphrase": "How do we get in when we arrive at the island rental?"}),
        (25, "Small Things Like These", {"keyword": "Which book did my book club choose?", "paraphrase": "Which novel is the literary group discussing next?"}),
    ],
    [
        ("When's our train back?", 7, 4),
        ("What's Rosa's phone number?", 11, 9),
        ("What time do they check my eyes?", 20, 18),
        ("Which reference do I give the insurers?", 13, 2),
    ],
    [
        "Good afternoon! How are you today?",
        "Thank you, dear, you've been ever so helpful.",
        "How do I get a Victoria sponge to rise properly?",
        "Who was the first woman to fly solo across the Atlantic?",
        "I'm thinking of taking up watercolour painting.",
        "Write a short poem for my sister's eightieth birthday.",
        "What's the best way to train a wisteria along a fence?",
        "Why is the sea salty?",
        "My nephew is getting married in June. What's a good present?",
        "ha, that's true",
    ],
)


# --- 2. Korean: 편의점 알바와 밴드 동아리, 시험을 같이 챙기는 대학생 ---------------------------------------------------

_KO_TURNS = [
    Turn("안녕~ 나 이번 학기 진짜 정신없어. 편의점 알바에 밴드 동아리에 시험까지 겹쳤거든. 까먹을 것 같은 거 여기다 적어 놓을게.", "좋아요, 생각날 때마다 던져 주세요. 일정이랑 번호 같은 건 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("편의점 점장님 문재석 님 번호는 010-5832-9047이야. 대타 구할 때 연락드려야 돼.", "적어뒀어요. 대타 부탁은 최소 하루 전에 문자로 먼저 드리고, 급하면 전화하는 게 예의예요."),
    Turn("점장님이 나한테 야간 타임도 해 볼 생각 없냐고 물어보셨는데, 야간 알바 하면 몸 많이 상해?", "수면 리듬이 깨지기 쉬워서 학기 중엔 힘들 수 있어요. 한다면 주말 이틀 정도로만 하고, 낮에 최소 6시간은 어둡게 해서 자는 걸 지키세요."),
    Turn("밴드 동아리 회장 서유나 언니 번호는 010-2264-7315야.", "알겠어요, 적어둘게요. 공연이나 합주 일정 바뀌면 바로 연락할 수 있겠네요."),
    Turn("다음 학기에 나보고 동아리 회장 하래. 회장 하면 취업할 때 도움이 돼?", "자기소개서에 쓸 리더십 경험이 생기는 건 확실해요. 다만 시간이 많이 드니까 알바랑 학점까지 감당할 수 있을지 먼저 따져 보세요. 부회장이랑 일을 나누는 구조를 만들면 훨씬 수월해요."),
    Turn("우리 동아리 정기공연은 10월 25일 금요일 저녁 7시, 학생회관 대강당에서 해.", "적어뒀어요! 공연 2주 전쯤부터는 합주 횟수를 늘리고, 리허설 날짜도 미리 잡아 두세요."),
    Turn("어제 인디밴드 공연 보러 갔는데 귀가 아직도 먹먹하고 삐 소리가 나. 괜찮아지겠지?", "큰 소리에 노출된 뒤에는 하루 이틀 먹먹할 수 있어요. 조용히 쉬면 대부분 돌아오지만, 사흘 넘게 이명이 계속되면 이비인후과에 가 보세요. 다음 공연부터는 공연용 귀마개를 챙기세요."),
    Turn("통계학 중간고사는 10월 21일 월요일 오전 10시야.", "알겠어요. 시험 일주일 전부터는 지난 기출이랑 과제 문제 위주로 다시 풀어 보세요."),
    Turn("통계학 공부하는데 표준편차가 뭔지 직관적으로 설명해 줄래?", "값들이 평균에서 보통 얼마나 떨어져 있는지를 나타내는 숫자예요. 반 친구들 키가 다 비슷하면 표준편차가 작고, 들쭉날쭉하면 커요."),
    Turn("시험 기간에 밤새우는 게 나아, 그냥 자는 게 나아?", "자는 게 나아요. 잠을 자는 동안 낮에 본 내용이 기억으로 정리되거든요. 정 시간이 없으면 새벽까지 하더라도 최소 네다섯 시간은 자고 시험 보러 가세요."),
    Turn("동아리방 도어락 비밀번호는 7193*이야. 별표까지 눌러야 열려.", "적어뒀어요. 마지막에 별표 누르는 거 까먹기 쉬우니까 같이 기억해 둘게요."),
    Turn("와이파이 비밀번호를 까먹었는데 공유기에서 다시 확인하는 방법 있어?", "공유기 뒷면 스티커에 기본 비밀번호가 적혀 있는 경우가 많아요. 바꿨다면 연결된 컴퓨터에서 브라우저로 192.168.0.1 같은 관리자 페이지에 들어가서 무선 설정을 보면 돼요."),
    Turn("도서관 사물함 비밀번호는 0462로 해 뒀어.", "알겠어요. 사물함은 학기 끝나면 비워야 하는 경우가 많으니 반납 날짜도 한번 확인해 두세요."),
    Turn("도서관 열람실에 자리만 맡아 두고 몇 시간씩 안 오는 사람들 진짜 짜증 나. 어떻게 해야 돼?", "대부분 좌석 배정 시스템에 자리 비움 시간이 정해져 있어요. 너무 오래 비어 있으면 관리실에 얘기하는 게 제일 깔끔하고, 직접 짐을 치우는 건 괜히 다툼이 날 수 있어서 피하세요."),
    Turn("편의점 시급은 올해부터 10,030원이래. 주휴수당은 따로고.", "적어뒀어요. 근무 시간이랑 같이 기록해 두면 월급 들어올 때 제대로 계산됐는지 확인하기 쉬워요."),
    Turn("주휴수당은 어떻게 계산하는 거야? 주 15시간 넘으면 받는 거 맞아?", "네, 일주일에 15시간 이상 일하고 정해진 날을 다 나가면 받아요. 보통 '일주일 근무시간 ÷ 40 × 8 × 시급'으로 계산해요. 주 20시간이면 4시간 치를 더 받는 셈이에요."),
    Turn("기숙사는 세종관 612호야. 택배 주소 쓸 때 자꾸 헷갈려.", "알겠어요. 쇼핑 앱 기본 배송지에 동이랑 호수까지 한 번 저장해 두면 매번 안 헷갈려요."),
    Turn("기숙사 밥이 너무 맛없어서 매일 라면만 먹게 돼. 건강에 많이 안 좋겠지?", "매일 라면이면 나트륨은 많고 단백질이랑 채소는 부족해져요. 계란이나 두부, 냉동 채소를 넣어서 끓이고, 국물은 반 이상 남기면 훨씬 나아요."),
    Turn("마케팅원론 조별과제 발표는 공학관 204호에서 해. 다음 주 목요일이야.", "적어뒀어요. 발표 전날 그 강의실 빔프로젝터랑 노트북 연결이 되는지 미리 확인해 보세요."),
    Turn("발표할 때 너무 떨려서 목소리까지 떨려. 덜 긴장하는 방법 있어?", "첫 문장을 통째로 외워 두면 시작이 편해져요. 발표 전에 숨을 4초 들이쉬고 6초 내쉬는 걸 몇 번 하고, 청중 중에 고개 끄덕이는 사람 한 명을 보면서 말해 보세요."),
    Turn("동아리 MT 장소는 청평 물빛캠핑장으로 정했어.", "좋네요! 인원 확정되면 차량이랑 장보기 담당을 미리 나눠 두세요."),
    Turn("캠핑 가면 밤에 많이 추워? 10월 말인데 뭐 챙겨야 돼?", "10월 말 경기도 산 쪽은 밤에 5도 아래로 떨어질 수 있어요. 두꺼운 패딩이나 경량 패딩, 핫팩, 수면 양말 꼭 챙기고, 침낭 밑에 깔 매트도 있으면 좋아요."),
    Turn("중고로 산 베이스 기타는 38만 원 주고 샀어. 펜더 재즈베이스야.", "괜찮은 가격에 사셨네요. 중고 악기는 처음에 줄 한 번 갈고 넥 상태를 점검받으면 오래 써요."),
    Turn("기타 줄 가는 거 혼자 해도 돼? 어쿠스틱 기타인데 친구 거야.", "혼자 충분히 할 수 있어요. 한 줄씩 풀고 새 줄로 바로 갈아 끼우면 넥에 무리가 덜 가요. 튜닝은 새 줄이 늘어나니까 며칠 동안 자주 다시 맞춰 주세요."),
    Turn("권 교수님 면담은 수요일 오후 4시 10분으로 잡혔어.", "알겠어요. 면담 전에 여쭤볼 걸 세 가지 정도로 정리해 가면 시간을 알차게 쓸 수 있어요."),
    Turn("요즘 진로 고민이 커. 경영학과 2학년인데 데이터 분석 쪽이 재밌어 보여서 복수전공을 할지, 그냥 자격증 따고 인턴을 알아볼지 모르겠어. 알바는 계속해야 되고 학점은 3.6이야. 뭐부터 하는 게 좋을까?", "먼저 맛보기부터 해 보세요. 이번 방학에 온라인 강의로 파이썬이랑 SQL 기초를 듣고, 작은 데이터로 분석 프로젝트 하나를 해 보면 정말 맞는지 알 수 있어요. 맞으면 복수전공을 신청하고, 아니면 ADsP 같은 자격증과 인턴 쪽으로 가도 늦지 않아요. 알바 시간이 고정돼 있으니 학기 중에는 한 과목씩만 늘리는 게 현실적이에요."),
    Turn("감기 기운이 있는데 약 먹고 알바 가도 돼?", "열이 없고 몸살이 심하지 않으면 괜찮지만, 콧물약은 졸릴 수 있으니 졸음 주의 표시를 확인하세요. 손님 응대하니까 마스크는 꼭 쓰세요."),
    Turn("카톡 답장을 하루 넘게 안 하는 친구가 있는데 서운하다고 말해도 될까?", "말해도 돼요. 다만 '왜 답 안 해'보다 '연락이 늦으면 좀 걱정되더라'처럼 내 마음 위주로 말하면 상대가 덜 방어적으로 받아들여요."),
    Turn("50만 원대 노트북 추천해 줘. 과제랑 넷플릭스 정도만 해.", "그 용도면 램 16GB, SSD 512GB, 인텔 i5나 라이젠 5급이면 충분해요. 무게가 1.5kg 안쪽인지 보고, 학생 할인 행사 기간을 노리면 더 좋은 걸 살 수 있어요."),
    Turn("엑셀에서 VLOOKUP 쓰는 법 쉽게 알려 줘.", "=VLOOKUP(찾을 값, 표 범위, 가져올 열 번호, FALSE) 순서예요. 예를 들어 학번으로 이름을 찾으려면 학번이 표의 첫 열에 있어야 하고, 마지막에 FALSE를 넣어야 정확히 일치하는 값만 찾아요."),
    Turn("살 빼려고 저녁을 굶는데 오히려 밤에 폭식하게 돼.", "저녁을 아예 굶으면 밤에 더 당겨요. 차라리 저녁을 일찍, 단백질 위주로 적게 먹는 게 나아요. 닭가슴살, 계란, 두부 같은 걸로 포만감을 챙기세요."),
    Turn("넷플릭스에서 볼 만한 한국 예능 추천해 줘.", "〈피지컬: 100〉이나 〈솔로지옥〉이 가볍게 보기 좋아요. 웃긴 걸 원하면 〈데블스 플랜〉보다 〈코미디 로얄〉 쪽이 나아요."),
    Turn("턱에 여드름이 자꾸 나. 왜 그래?", "턱 여드름은 호르몬, 수면 부족, 스트레스랑 관련이 많아요. 손으로 턱을 괴는 습관이나 마스크 마찰도 영향을 주고요. 오래가면 피부과에서 연고를 처방받는 게 빨라요."),
    Turn("흰 옷이랑 색깔 옷 같이 빨아도 돼?", "처음 몇 번은 따로 빠는 게 안전해요. 특히 청바지나 진한 색 새 옷은 물이 빠질 수 있어요. 같이 빨아야 하면 찬물에 이염 방지 시트를 넣으세요."),
    Turn("부모님 결혼 25주년인데 선물 뭐 하면 좋을까? 예산은 10만 원 정도야.", "두 분 사진으로 만든 포토북이나 손편지를 곁들인 커플 식사권이 좋아요. 직접 예약해 드리는 식사 자리가 제일 기억에 남는다는 분들이 많아요."),
    Turn("헬스장 처음 가는데 뭐부터 해야 돼? 기구를 하나도 몰라.", "처음 2주는 러닝머신이나 사이클로 20분 걷고, 레그프레스, 랫풀다운, 체스트프레스 같은 머신 세 가지만 가볍게 해 보세요. 트레이너가 무료로 기구 설명해 주는 헬스장도 많아요."),
    Turn("지하철이랑 버스 중에 통학할 때 뭐가 더 나을까? 둘 다 40분 정도 걸려.", "시간이 같다면 지하철이 정시성이 좋아서 시험 날 같은 때 안심이 돼요. 버스는 앉아 갈 수 있으면 책 보기가 편하고요. 평소엔 편한 걸 타고, 중요한 날은 지하철을 타세요."),
    Turn("소개팅 나가는데 무슨 얘기를 해야 어색하지 않을까?", "요즘 빠져 있는 것, 최근에 간 맛집, 주말에 주로 뭐 하는지처럼 가볍게 이어지는 질문이 좋아요. 내 얘기 반, 상대 얘기 반을 듣는다는 생각으로 하면 자연스러워요."),
    Turn("시간 관리를 너무 못해. 할 일은 많은데 맨날 미뤄.", "할 일을 15분 안에 끝낼 수 있는 크기로 쪼개서 첫 번째 것만 바로 시작해 보세요. 하루에 꼭 할 일을 세 개만 정하고, 휴대폰은 다른 방에 두는 것도 효과가 커요."),
    Turn("토익 점수 몇 점 정도 있어야 인턴 지원할 때 괜찮아?", "회사마다 다르지만 대기업 인턴은 보통 800점 이상을 많이 봐요. 점수보다 스피킹 등급을 요구하는 곳도 늘었으니 지원할 회사 공고를 먼저 확인하세요."),
    Turn("아침에 일어나기가 너무 힘들어. 알람을 다섯 개 맞춰도 못 일어나.", "알람을 침대에서 먼 곳에 두고, 일어나자마자 커튼을 열어 햇빛을 보세요. 주말에도 같은 시간에 일어나면 일주일쯤 지나 훨씬 수월해져요."),
    Turn("김치찌개 맛있게 끓이는 팁 있어?", "잘 익은 김치를 돼지고기랑 먼저 기름에 충분히 볶은 다음 물을 넣으세요. 김치 국물 한 국자랑 설탕 반 숟갈이 신맛을 잡아 줘요."),
    Turn("친구 생일인데 카톡 선물하기로 뭐 보내면 무난해?", "커피 기프티콘보다 조금 특별한 디저트나 핸드크림, 향이 좋은 바디워시 같은 게 무난하게 좋아요. 2~3만 원대가 부담 없어요."),
    Turn("이번 주말에 비 온대? 우산 챙겨야 할까?", "저는 실시간 날씨를 볼 수 없어서 기상청 앱이나 포털 날씨를 확인해 보세요. 강수 확률이 40% 넘으면 작은 우산 하나 챙기는 게 마음 편해요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "010-5832-9047", {"keyword": "점장님 번호 뭐였지?", "paraphrase": "일하는 가게 사장님한테 전화하려면 어떻게 해?", "endings": "문재석 점장님한테 연락할 번호가 뭐야?"}),
        (4, "010-2264-7315", {"keyword": "동아리 회장 번호 뭐였더라?", "paraphrase": "우리 모임 제일 높은 선배 전화번호 알려줘", "endings": "동아리 회장한테 연락할 번호가 뭐였지?"}),
        (6, "10월 25일", {"keyword": "정기공연 언제야?", "paraphrase": "우리 무대 서는 날이 며칠이었지?", "endings": "정기공연을 하는 게 언제였더라?"}),
        (8, "10월 21일", {"keyword": "통계학 중간고사 언제였지?", "paraphrase": "확률 분포 배우는 과목 시험 언제 보더라?", "endings": "통계학은 중간고사가 언제지?"}),
        (11, "7193*", {"keyword": "동아리방 비밀번호 뭐였지?", "paraphrase": "밴드 연습실 문 열 때 누르는 숫자 뭐였더라?", "endings": "동아리방의 도어락은 비번이 뭐야?"}),
        (13, "0462", {"keyword": "사물함 비밀번호 뭐였지?", "paraphrase": "열람실 앞 내 보관함 여는 숫자 뭐였지?", "endings": "도서관에 있는 사물함은 비밀번호가 뭐였지?"}),
        (15, "10,030원", {"keyword": "편의점 시급 얼마야?", "paraphrase": "가게에서 한 시간 일하면 얼마 받는다 그랬지?", "endings": "편의점에서 받는 시급이 얼마였지?"}),
        (17, "세종관 612호", {"keyword": "기숙사 몇 호였지?", "paraphrase": "내가 사는 학교 건물 방 번호가 뭐더라?", "endings": "내 기숙사가 몇 호였지?"}),
        (19, "공학관 204호", {"keyword": "조별과제 발표 어디서 해?", "paraphrase": "팀플 프레젠테이션 하는 강의실이 어디였지?", "endings": "조별과제를 발표하는 데가 어디였지?"}),
        (21, "물빛캠핑장", {"keyword": "MT 어디로 정했지?", "paraphrase": "밴드 사람들이랑 하룻밤 자고 오는 데 어디로 됐어?", "endings": "MT 장소가 어디였지?"}),
        (23, "38만 원", {"keyword": "베이스 기타 얼마 주고 샀지?", "paraphrase": "지난번에 들인 내 악기, 얼마 줬었지?", "endings": "베이스 기타를 얼마에 샀더라?"}),
        (25, "4시 10분", {"keyword": "교수님 면담 몇 시야?", "paraphrase": "지도해 주시는 선생님 뵈러 가는 거 언제더라?", "endings": "교수님이랑 면담하는 게 몇 시였지?"}),
    ],
    [
        ("회장 언니 전화번호가 뭐였지?", 4, 2),
        ("동아리 공연 날짜 언제였지?", 6, 8),
        ("도서관 사물함 비번 뭐였지?", 13, 11),
        ("교수님 면담 무슨 요일이었지?", 25, 19),
    ],
    [
        "안녕~ 오늘 날씨 진짜 좋다",
        "고마워, 진짜 도움 됐어!",
        "ㅋㅋㅋㅋ 아 진짜 웃기다",
        "내 친구가 결혼한대! 축의금은 얼마가 적당할까?",
        "강아지 입양할까 고민 중이야",
        "비행기는 어떻게 하늘에 떠 있어?",
        "라면 끓일 때 물은 몇 ml 넣어?",
        "가을에 관한 동시 하나 지어 줄래?",
        "와이파이 속도 빠르게 하는 법 있어?",
        "오늘 기분이 좀 꿀꿀해",
    ],
)


# --- 3. Mixed Korean/English: 게임 스튜디오 QA·개발팀의 업무 메모와 잡담 ---------------------------------------------

_MX_TURNS = [
    Turn("이번 milestone부터 QA 쪽 메모는 여기다 남길게요. 빌드가 하루에 몇 개씩 나와서 자꾸 헷갈려요 ㅠ", "네, 편하게 남겨 주세요. 빌드랑 티켓 번호는 제가 정리해 두고 물어보실 때 찾아 드릴게요."),
    Turn("이번 milestone QA 빌드는 Perforce CL 184503 기준이에요.", "적어뒀어요. 버그 리포트마다 빌드 CL을 같이 적어 두면 나중에 재현할 때 훨씬 편해요."),
    Turn("Perforce에서 shelve랑 submit 차이가 뭐예요? 신입분이 물어보는데 설명을 잘 못하겠어요.", "submit은 변경을 depot에 정식으로 올려서 모두가 받게 하는 거고, shelve는 서버에 임시로 맡겨 두는 거예요. 다른 사람이 unshelve로 받아서 리뷰하거나 테스트할 수 있지만, 정식 히스토리에는 안 남아요."),
    Turn("hotfix 빌드는 CL 184772로 새로 뽑았어요. 오늘 QA는 이걸로 돌려요.", "알겠어요. 기존 milestone 빌드랑 섞이지 않게 테스트 시트에 빌드 열을 하나 더 두세요."),
    Turn("hotfix를 live에 바로 내보낼 때 QA 범위를 어디까지 잡아야 해요?", "고친 부분 검증에 더해서, 그 코드가 닿는 화면들의 smoke test 정도는 꼭 하세요. 결제, 로그인, 튜토리얼처럼 막히면 치명적인 흐름은 매번 짧게라도 확인하는 게 좋아요."),
    Turn("로그인 직후 인벤토리 열면 crash 나는 건 QA-6612로 등록했어요.", "확인했어요. 재현율이랑 기기 모델, OS 버전을 티켓에 같이 남기면 개발 쪽에서 훨씬 빨리 잡아요."),
    Turn("crash 로그 볼 때 symbolicate가 안 돼서 주소만 나와요. 왜 그래요?", "빌드할 때 나온 심볼 파일이 crash 리포팅 도구에 안 올라가서 그래요. iOS는 dSYM, Android는 mapping 파일이랑 native 심볼을 빌드 파이프라인에서 자동 업로드하게 설정하세요."),
    Turn("결제 팝업에서 가격 텍스트 깨지는 건 QA-6645예요. 일본어 폰트에서만 나요.", "적어뒀어요. 폰트 atlas에 해당 글자가 빠졌을 가능성이 커요. 통화 기호랑 전각 숫자를 같이 확인해 보세요."),
    Turn("폰트 라이선스 때문에 게임에 아무 폰트나 넣으면 안 되죠?", "네, 개인용 무료라도 게임에 임베드하는 건 따로 라이선스가 필요한 경우가 많아요. 상업용 임베드가 허용된 폰트인지 꼭 확인하고, Noto 같은 오픈 라이선스 폰트를 쓰면 안전해요."),
    Turn("QA용 테스트 서버 주소는 qa2.stonepine.games예요. 포트는 기본이고요.", "알겠어요. 클라이언트 설정에서 서버 선택 메뉴에 이 주소를 기본으로 넣어 두면 매번 입력 안 해도 돼요."),
    Turn("테스트 서버에 동접 몇 명까지 붙여 봐야 부하 테스트라고 할 수 있어요?", "예상 최대 동접의 1.5배에서 2배까지는 올려 보는 게 보통이에요. 봇으로 단계적으로 늘리면서 응답 시간이랑 에러율이 어디서 꺾이는지 보세요."),
    Turn("소프트 런칭은 3월 4일, 필리핀이랑 캐나다 두 나라에서 먼저 해요.", "적어뒀어요. 시차 때문에 한국 시간으로 새벽에 오픈될 수 있으니 모니터링 당번을 미리 정해 두세요."),
    Turn("소프트 런칭 때 보통 어떤 지표를 제일 먼저 봐요? D1 retention?", "D1 retention이랑 튜토리얼 완료율을 제일 먼저 봐요. 그다음이 crash율, 첫 결제 전환율, 세션 길이예요. 초반엔 숫자가 적으니까 며칠 모아서 추세로 보세요."),
    Turn("글로벌 런칭일은 4월 15일로 확정됐어요. 마케팅 쪽 공지도 나갔고요.", "확인했어요. 그 전 2주는 code freeze로 두고 크리티컬 버그만 받는 게 안전해요."),
    Turn("런칭 당일에 서버 터지면 보통 어떻게 대응해요? 대기열 같은 거 미리 만들어 둬야 할까요?", "네, 로그인 대기열은 미리 만들어 두는 게 좋아요. 서버가 버거울 때 입장을 조절할 수 있거든요. 점검 공지 템플릿이랑 보상 정책도 미리 정해 두면 당황할 일이 줄어요."),
    Turn("클라 엔진은 Unity 2022.3.41f1로 고정이에요. 다른 버전으로 열면 안 돼요.", "적어뒀어요. Unity Hub에서 그 버전만 설치해 두면 실수로 다른 버전으로 여는 걸 막을 수 있어요."),
    Turn("Unity 버전 올릴 때 LTS 말고 최신 버전 쓰면 위험해요?", "출시를 앞둔 프로젝트라면 LTS를 쓰는 게 안전해요. 최신 tech stream은 기능은 많지만 버그 수정이 덜 돼 있고, 중간에 올리면 에셋 재임포트랑 플러그인 호환 문제가 생기기 쉬워요."),
    Turn("제가 쓰는 테스트폰 Galaxy S23 자산 태그는 QAD-0719예요.", "알겠어요. 기기 대여 시트에도 같은 태그로 적혀 있는지 한번 맞춰 보세요."),
    Turn("테스트폰 배터리가 너무 빨리 닳는데 게임 때문인지 폰 문제인지 어떻게 알아요?", "게임 없이 화면만 켜 둔 상태와 게임을 30분 돌린 상태의 배터리 감소를 비교해 보세요. 설정의 배터리 사용량에서 앱별 비율도 보고, 프레임 제한을 30으로 낮췄을 때 차이가 크면 게임 쪽 최적화 문제예요."),
    Turn("이번 분기 crash-free users 목표는 99.7%예요.", "적어뒀어요. 대시보드에 그 선을 기준선으로 그어 두면 떨어질 때 바로 보여요."),
    Turn("crash-free rate이랑 ANR rate 차이 좀 설명해 주세요.", "crash-free rate는 일정 기간 동안 앱이 한 번도 죽지 않은 사용자나 세션의 비율이고, ANR rate는 Android에서 앱이 5초 넘게 응답하지 않아 '앱 응답 없음' 창이 뜬 비율이에요. Google Play는 ANR도 품질 지표로 따로 봐요."),
    Turn("외주 QA 업체 PM은 엄태오 님이에요. 일정 조율은 이분이랑 하면 돼요.", "확인했어요. 주간 단위로 테스트 범위랑 일정을 메일로 한 번씩 정리해 드리면 서로 오해가 적어요."),
    Turn("외주 QA한테 버그 리포트 양식을 뭐로 달라고 하면 좋아요?", "제목, 빌드 번호, 기기와 OS, 재현 절차, 기대 결과와 실제 결과, 재현율, 첨부 영상 순서로 고정해 달라고 하세요. 심각도 기준표도 같이 주면 우선순위 다툼이 줄어요."),
    Turn("스토어 심사에 올린 앱 버전은 1.8.2예요. build number는 따로고요.", "적어뒀어요. 심사 중에는 같은 버전으로 다른 빌드를 올릴 수 없으니 급한 수정은 다음 버전 번호로 준비해 두세요."),
    Turn("애플 심사에서 reject 먹으면 보통 며칠 걸려요? 재심사요.", "수정해서 다시 올리면 보통 하루에서 이틀 안에 결과가 나와요. 사유가 애매하면 App Review에 답장으로 질문할 수 있고, 급하면 긴급 심사 요청도 할 수 있어요."),
    Turn("QA 리드 차수빈 님이 다음 달부터 육아휴직이라 제가 석 달 동안 리드 대행을 맡게 됐어요. 팀원은 다섯 명이고 외주도 관리해야 하는데, regression 범위는 매번 늘고 사람은 그대로예요. 처음 한 달 동안 뭘 정리하면 좋을까요?", "먼저 regression 케이스를 위험도 기준으로 세 등급으로 나누세요. 매 빌드 도는 핵심 20%, 주 1회 도는 중간, 릴리스 전에만 도는 나머지로요. 반복적인 UI 흐름 몇 개는 자동화 후보로 개발팀과 합의하고, 팀원 다섯 명과는 첫 2주 안에 1on1을 해서 각자 맡고 싶은 영역을 정하세요. 차수빈 님께는 휴직 전에 결정 권한 범위를 미리 확인받아 두면 편해요."),
    Turn("오늘 점심 뭐 먹을까요? 비 와서 멀리 나가기 싫어요.", "건물 안이나 바로 앞에서 먹을 수 있는 국밥이나 우동 어떠세요? 배달이면 김치찌개 정식도 무난해요."),
    Turn("영어로 standup 할 때 자연스러운 표현 좀 알려줘요.", "\"Yesterday I wrapped up ...\", \"Today I'm going to ...\", \"I'm blocked on ..., could someone help?\" 세 문장이면 충분해요. blocker가 없으면 \"No blockers\"라고 하면 돼요."),
    Turn("기획자가 버그가 아니라 spec이라고 우기는데 어떻게 말하죠?", "기획 문서의 해당 부분을 같이 띄워 놓고 '문서에는 이렇게 돼 있는데 실제는 이렇다'로 사실만 보여 주세요. 애매하면 'spec 확인 필요' 라벨로 돌려서 기획 쪽이 결정하게 하는 게 깔끔해요."),
    Turn("Jira에서 JQL로 이번 주에 내가 만든 티켓만 보는 법 알려줘요.", "reporter = currentUser() AND created >= startOfWeek() ORDER BY created DESC 로 검색하세요. 필터로 저장해 두면 매번 안 쳐도 돼요."),
    Turn("모니터 오래 보니까 눈이 너무 건조해요. 인공눈물 자주 넣어도 돼요?", "보존제 없는 일회용 인공눈물은 하루 여러 번 넣어도 괜찮아요. 20분마다 20초씩 먼 곳을 보는 습관도 도움이 되고, 계속 불편하면 안과에 가 보세요."),
    Turn("회의록 정리할 때 좋은 템플릿 있어요?", "날짜와 참석자, 안건, 결정 사항, 액션 아이템(담당자와 기한) 순서면 충분해요. 결정 사항과 액션 아이템만 굵게 표시해도 나중에 찾기 쉬워요."),
    Turn("Git이랑 Perforce 둘 다 써야 하는데 머리가 복잡해요. 차이를 한 줄로 말하면?", "Git은 각자 전체 저장소를 복제해서 쓰는 분산형이고, Perforce는 중앙 서버에서 파일을 체크아웃해서 쓰는 중앙형이에요. 큰 바이너리 에셋이 많은 게임 회사에서 Perforce를 많이 쓰는 이유가 그거예요."),
    Turn("야근이 너무 잦아요. 팀장님한테 어떻게 얘기하죠?", "최근 몇 주 동안의 야근 시간을 숫자로 정리해서 가져가세요. '힘들다'보다 '이 정도 일정이면 이 부분이 밀린다'로 말하면 일정이나 범위 조정으로 이어지기 쉬워요."),
    Turn("엑셀에서 중복 없는 값 개수 세는 함수 있어요?", "=COUNTA(UNIQUE(A2:A100)) 를 쓰면 돼요. 예전 버전이면 =SUMPRODUCT(1/COUNTIF(A2:A100,A2:A100)) 로도 셀 수 있어요."),
    Turn("게임 회사 다니는데 게임이 점점 재미없어져요. 다들 그래요?", "업계 분들한테 흔한 얘기예요. 일로 보는 눈이 생겨서 그래요. 전혀 다른 장르나 인디 게임을 가볍게 해 보거나, 한동안 게임 말고 다른 취미에 시간을 쓰면 다시 돌아오는 경우가 많아요."),
    Turn("Slack에서 스레드 답장을 채널에도 같이 보내는 거 어떻게 해요?", "스레드에서 답장 입력창 아래 '채널에도 보내기' 체크박스를 켜고 보내면 돼요."),
    Turn("요즘 허리가 아파요. 의자를 바꿔야 할까요?", "의자보다 자세와 높이가 먼저예요. 발이 바닥에 닿고 무릎이 90도, 모니터 상단이 눈높이에 오게 맞추고, 한 시간에 한 번은 일어나서 걸으세요. 그래도 아프면 요추 받침 쿠션부터 써 보세요."),
    Turn("팀 회식 장소 추천해 주세요. 열두 명 정도요.", "룸이 있는 고깃집이나 샤브샤브집이 인원 많을 때 편해요. 술을 안 마시는 분도 있으면 메뉴가 다양한 곳으로 고르세요."),
    Turn("신입 QA한테 exploratory testing을 어떻게 가르쳐요?", "30분짜리 세션 단위로 '이 화면에서 돈이 꼬일 수 있는 곳을 찾아보자' 같은 목표 하나를 주고, 끝나면 찾은 것과 궁금한 것을 메모로 남기게 하세요. 처음 몇 번은 옆에서 같이 하면서 생각을 말로 하게 하면 빨리 늡니다."),
    Turn("주말에 혼자 갈 만한 전시 있을까요?", "국립현대미술관이나 리움 같은 곳은 기획전이 자주 바뀌어서 홈페이지를 보고 고르면 좋아요. 혼자면 평일 오전이나 주말 오픈 직후가 한산해요."),
    Turn("커피 말고 오후에 졸릴 때 방법 있어요?", "5분만 밖에 나가서 걷거나 계단을 오르내리면 금방 깨요. 점심을 가볍게 먹고, 물을 충분히 마시는 것도 효과가 있어요."),
    Turn("퇴사한 동료한테 안부 메시지 보내고 싶은데 뭐라고 쓰죠?", "\"잘 지내시죠? 같이 일할 때 생각나서 연락드려요. 새 회사 적응은 어떠세요? 언제 밥 한번 먹어요!\" 정도면 부담 없이 좋아요."),
    Turn("금요일 저녁에 빌드 깨지면 누가 고쳐요? 맨날 애매해요.", "마지막으로 submit한 사람이 1차 책임을 지는 규칙을 정해 두면 깔끔해요. 금요일 오후엔 큰 submit을 자제하는 팀 규칙도 같이 두면 좋아요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "184503", {"keyword": "milestone QA 빌드 CL 몇이었죠?", "paraphrase": "요번 단계 검수 돌리는 changelist 번호가 뭐였죠?", "endings": "milestone QA는 빌드가 CL 몇이었죠?"}),
        (4, "184772", {"keyword": "hotfix 빌드 CL 번호요?", "paraphrase": "급하게 고친 버전은 changelist 몇 번으로 나왔죠?", "endings": "hotfix 빌드를 CL 몇으로 뽑았죠?"}),
        (6, "QA-6612", {"keyword": "인벤토리 crash 티켓 번호 뭐였죠?", "paraphrase": "접속하자마자 가방 화면 누르면 앱 죽는 버그, Jira 몇 번이었죠?", "endings": "인벤토리를 열 때 나는 crash가 몇 번으로 등록됐죠?"}),
        (8, "QA-6645", {"keyword": "결제 팝업 텍스트 깨지는 거 티켓 뭐였죠?", "paraphrase": "구매 창에서 금액 글자 이상하게 나오는 버그 번호 뭐였죠?", "endings": "결제 팝업의 가격이 깨지는 건 몇 번이었죠?"}),
        (10, "qa2.stonepine.games", {"keyword": "QA 테스트 서버 주소 뭐였죠?", "paraphrase": "검수용 환경 접속 URL 좀 다시 알려줘요", "endings": "테스트 서버는 주소가 어떻게 돼요?"}),
        (12, "3월 4일", {"keyword": "소프트 런칭 언제예요?", "paraphrase": "일부 국가에 시범으로 여는 날이 며칠이었죠?", "endings": "소프트 런칭이 며칠이었죠?"}),
        (14, "4월 15일", {"keyword": "글로벌 런칭일 언제로 확정됐죠?", "paraphrase": "전 세계 정식 출시 날짜 언제예요?", "endings": "글로벌 런칭일이 며칠이었죠?"}),
        (16, "2022.3.41f1", {"keyword": "Unity 버전 몇으로 고정이에요?", "paraphrase": "게임 에디터 어떤 릴리스로 열어야 해요?", "endings": "Unity는 버전이 뭐로 고정돼 있죠?"}),
        (18, "QAD-0719", {"keyword": "제 테스트폰 자산 태그 뭐였죠?", "paraphrase": "QA 기기 중에 내 갤럭시에 붙은 관리 번호 뭐였죠?", "endings": "테스트폰의 자산 태그가 뭐였죠?"}),
        (20, "99.7%", {"keyword": "crash-free 목표 몇 퍼센트였죠?", "paraphrase": "앱 튕김 없이 쓰는 유저 비율 얼마 넘기기로 했죠?", "endings": "이번 분기의 crash-free 목표가 몇이죠?"}),
        (22, "엄태오", {"keyword": "외주 QA 업체 PM 누구였죠?", "paraphrase": "바깥 검수 회사 쪽 책임자 이름 뭐였더라?", "endings": "외주 업체의 PM이 누구예요?"}),
        (24, "1.8.2", {"keyword": "심사 올린 앱 버전이 뭐였죠?", "paraphrase": "애플이랑 구글 검토 들어간 릴리스 번호가 뭐였죠?", "endings": "스토어 심사를 올린 버전이 뭐였죠?"}),
    ],
    [
        ("hotfix CL 몇 번이었죠?", 4, 2),
        ("결제 쪽 버그 ticket 번호가 뭐였죠?", 8, 6),
        ("글로벌 런칭 날짜 언제였죠?", 14, 12),
        ("앱 버전 몇이었죠?", 24, 16),
    ],
    [
        "좋은 아침이에요~",
        "오 감사해요 👍",
        "ㅋㅋㅋ 아 배고프다",
        "저 다음 달에 이사 가요",
        "Figma에서 auto layout 어떻게 써요?",
        "Python이랑 C# 중에 뭐가 더 빨라요?",
        "회사 동료 생일 축하 메시지 좀 써 줘요",
        "블랙홀은 어떻게 생겨요?",
        "놀이공원 대기열 줄이는 꿀팁 있어요?",
        "요즘 러닝 시작했는데 무릎이 좀 아파요",
    ],
)


# --- 4. Code-heavy: a data scientist on a churn model, with notebook cells, shell, file and test tools ------------

_CODE_TURNS = [
    Turn("I'm picking up the churn model project today. What's in the repo?", "It's a small Python project: notebooks for exploration, a `churn` package with the feature and training code, configs, tests and a requirements file.", "run_shell", '{"cmd": "ls"}', "README.md\nconfigs\nchurn\ndata\nnotebooks\nrequirements.txt\ntests\nMakefile"),
    Turn("MLflow's tracking server is on port 5055 on the team box.", "Noted. Set `MLFLOW_TRACKING_URI` in your shell profile so every notebook and script logs to the same place without you passing it around."),
    Turn("Check what's listening on this machine right now.", "Only Postgres and Redis are up locally; nothing is serving notebooks or experiment tracking on this box.", "run_shell", '{"cmd": "ss -ltnp | grep LISTEN"}', "LISTEN 0 244  127.0.0.1:5432  0.0.0.0:*  users:((\"postgres\",pid=1021))\nLISTEN 0 511  127.0.0.1:6379  0.0.0.0:*  users:((\"redis-server\",pid=1107))"),
    Turn("JupyterLab on the GPU box runs on port 8899; the token is in 1Password.", "Got it. Binding it to localhost on that box and reaching it through an SSH tunnel is safer than exposing the port on the network."),
    Turn("How do I tunnel to a remote notebook port over SSH?", "Run `ssh -N -L <local>:localhost:<remote> you@host` and open `http://localhost:<local>` in your browser. Add `-f` to send it to the background, or put a `LocalForward` line in `~/.ssh/config` so a plain `ssh host` sets it up."),
    Turn("I'm working on branch exp/churn-xgb-v2.", "Noted. Keep experiment configs in the branch too, so a run in the tracker can always be matched to the code that produced it."),
    Turn("Show me the remote branches.", "There's main, a release branch for the current production model, a dependency bump and a dashboard branch. Your own branch isn't pushed yet.", "run_shell", '{"cmd": "git branch -r"}', "  origin/HEAD -> origin/main\n  origin/main\n  origin/release/model-2024-06\n  origin/chore/bump-numpy\n  origin/feat/retention-dashboard"),
    Turn("Rahel has the leakage fix on fix/target-encoding-leak; I'll merge it once she's done.", "Okay. Until it's merged, treat any score from the current features as optimistic; leakage usually inflates offline metrics a lot."),
    Turn("What does target leakage look like concretely in a churn model?", "A feature that's only known because the customer already churned, like 'days since last login' computed after the cancellation date, or a target encoding fitted on the full data including the validation rows. The model looks brilliant offline and falls apart in production."),
    Turn("The training data is data/raw/churn_2024q3.parquet, 1.2M rows.", "Noted. It's worth recording a checksum of that file in the experiment run, so you know later exactly which snapshot a model saw."),
    Turn("Load the training frame in the notebook and show the class balance.", "About 8% of customers churned, so the classes are imbalanced but not extremely so; there are 47 columns.", "run_cell", '{"notebook": "notebooks/01_explore.ipynb", "code": "df = load_training_frame()\\nprint(df.shape)\\nprint(df[\\"churned\\"].value_counts(normalize=True))"}', "(1204377, 47)\nchurned\n0    0.9186\n1    0.0814\nName: proportion, dtype: float64"),
    Turn("Is 8% churners a problem for gradient boosting?", "Not by itself. Boosted trees cope well; judge the model with PR-AUC rather than accuracy, and use `scale_pos_weight` or class weights if recall on churners is too low. Avoid oversampling before the split, or you'll leak copies into validation."),
    Turn("Use random seed 20817 everywhere; that's what the baseline report used.", "Noted. Put it in one config value and pass it to the splitter, the model and NumPy's generator, so nothing picks up a default seed by accident."),
    Turn("Check how the split function seeds things.", "The splitter takes a `seed` argument but the shuffle inside uses the global NumPy state, so two runs with the same argument can still differ.", "read_file", '{"path": "churn/split.py"}', "import numpy as np\n\ndef train_valid_split(df, seed, valid_frac=0.2):\n    idx = np.arange(len(df))\n    np.random.shuffle(idx)\n    cut = int(len(idx) * (1 - valid_frac))\n    return df.iloc[idx[:cut]], df.iloc[idx[cut:]]"),
    Turn("The notebook kernel is on pandas 2.2.2.", "Noted. Copy-on-write warnings are on by default in that line, so chained assignments in older notebooks will start complaining."),
    Turn("What versions of numpy and xgboost are installed?", "NumPy 1.26.4 and XGBoost 2.1.1; both fine together.", "run_shell", '{"cmd": "pip list 2>/dev/null | grep -Ei \\"^(numpy|xgboost) \\""}', "numpy                     1.26.4\nxgboost                   2.1.1"),
    Turn("scikit-learn is pinned to 1.5.1 in requirements.txt because of the calibration API.", "Noted. Leave a comment next to the pin saying why, so nobody bumps it in a routine upgrade."),
    Turn("What's the difference between Platt scaling and isotonic calibration?", "Platt scaling fits a sigmoid to the model's scores; it needs little data and can't overfit much. Isotonic fits a free-form increasing step function; it's more flexible but needs thousands of samples, or it memorises noise."),
    Turn("The data drift investigation is ticket DS-418.", "Noted. A population stability index per feature, month over month, is a quick first chart for that ticket."),
    Turn("Run the feature tests.", "One failure: `test_tenure_months_non_negative` finds negative tenure for customers whose signup date is after the snapshot date, which points at bad upstream dates rather than your code.", "run_tests", '{"path": "tests/test_features.py"}', "tests/test_features.py ....F..\nFAILED tests/test_features.py::test_tenure_months_non_negative - assert (-3 >= 0)\n1 failed, 6 passed in 4.12s"),
    Turn("The label leakage bug Rahel found is DS-433.", "Got it. Link it from the leakage branch's pull request so the reviewer sees the context."),
    Turn("Read the training config.", "It trains XGBoost with 600 trees, a learning rate of 0.05, depth 6 and early stopping after 50 rounds, reading features from the directory in `DATA_DIR`.", "read_file", '{"path": "configs/train.yaml"}', "model: xgboost\nparams:\n  n_estimators: 600\n  learning_rate: 0.05\n  max_depth: 6\n  subsample: 0.8\nearly_stopping_rounds: 50\nfeatures_dir: ${DATA_DIR}/features"),
    Turn("Set ORCA_USE_GPU=1 before training or it silently falls back to CPU.", "Noted. It would be kinder to log which device training actually used at the start of every run, so the fallback isn't silent anymore."),
    Turn("Is the GPU free right now?", "One A10G with 24 GB; about 1.2 GB is in use by an idle Jupyter kernel, so it's essentially free.", "run_shell", '{"cmd": "nvidia-smi --query-gpu=name,memory.used,memory.total,utilization.gpu --format=csv"}', "name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\nNVIDIA A10G, 1214 MiB, 23028 MiB, 0 %"),
    Turn("We agreed with the retention team on a decision threshold of 0.415 for the churn score.", "Noted. Write it next to the precision and recall it gave on validation, so when the model is retrained you can check whether it still means the same thing."),
    Turn("Bigger question. Next month I have to present the model to the marketing leads, none of them technical. They want to know who will leave, why, and whether the discount campaign is worth it. I have twenty minutes, SHAP plots, a lift chart and last quarter's campaign results. How should I structure the talk so it lands?", "Open with the decision they make, not the model: 'who should get the offer'. Then show the lift chart as 'if we contact the top 10% the model picks, we reach three times as many leavers as contacting at random'. Use two or three SHAP drivers told as customer stories, not the full beeswarm plot. Close with the campaign maths: cost per contact, saved customers and the break-even point, and a clear recommendation. Keep the methods on a backup slide for questions."),
    Turn("Train a quick baseline in the notebook and show validation AUC.", "The baseline reaches a ROC-AUC of 0.861 and a PR-AUC of 0.402 on validation; early stopping kicked in at round 412.", "run_cell", '{"notebook": "notebooks/02_baseline.ipynb", "code": "model = fit_baseline(train, valid)\\nreport(model, valid)"}', "[411]\tvalid-auc:0.86094\tvalid-aucpr:0.40188\nStopped at round 412\nROC-AUC 0.861  PR-AUC 0.402"),
    Turn("Why is PR-AUC so much lower than ROC-AUC here?", "With only 8% positives, precision is hard to keep high, and PR-AUC's baseline is the positive rate itself, not 0.5. A PR-AUC around 0.4 is about five times better than random here, which is respectable."),
    Turn("Run the linter on the package.", "Three findings: an unused import in the feature module, a bare `except` in the loader and an f-string without placeholders.", "run_shell", '{"cmd": "ruff check churn"}', "churn/features.py:3:8: F401 `math` imported but unused\nchurn/io.py:41:5: E722 Do not use bare `except`\nchurn/report.py:18:11: F541 f-string without any placeholders\nFound 3 errors."),
    Turn("Explain SHAP values in two sentences for a product manager.", "For each customer, SHAP splits the model's prediction into how much each feature pushed the risk up or down from the average. So instead of 'the model says 70%', you can say 'mostly because their usage dropped and they filed two complaints'."),
    Turn("Show me the top features by mean absolute SHAP.", "Usage decline over the last 30 days leads, followed by support tickets and contract type; tenure and discount history matter less.", "run_cell", '{"notebook": "notebooks/03_explain.ipynb", "code": "top_shap(model, valid, k=5)"}', "usage_drop_30d        0.412\nsupport_tickets_90d   0.288\ncontract_monthly      0.201\ntenure_months         0.133\nhad_discount          0.071"),
    Turn("How do I stop a notebook's outputs from bloating git diffs?", "Use `nbstripout` as a git filter so outputs are removed on commit, or pair notebooks with plain `.py` files through Jupytext and review those. Either keeps diffs readable."),
    Turn("Write a commit message for fixing the split seeding.", "\"split: shuffle with a Generator made from the seed argument, so two runs with the same seed give the same split instead of depending on global NumPy state\"."),
    Turn("How much disk is left? The data folder keeps growing.", "The data disk is 84% full; the feature snapshots take most of it, and older ones could go to object storage.", "run_shell", '{"cmd": "df -h /data && du -sh /data/* | sort -h | tail -3"}', "Filesystem      Size  Used Avail Use% Mounted on\n/dev/sdb1       500G  418G   82G  84% /data\n21G\t/data/raw\n64G\t/data/models\n311G\t/data/features"),
    Turn("What's the difference between stratified K-fold and grouped K-fold?", "Stratified keeps the class ratio the same in every fold. Grouped keeps all rows of one group, like one customer, in the same fold so the model can't learn a customer in training and be tested on them. With several rows per customer you usually want grouped, ideally with stratification too."),
    Turn("Rerun the feature tests after the date fix.", "All seven feature tests pass now.", "run_tests", '{"path": "tests/test_features.py"}', "tests/test_features.py .......\n7 passed in 3.98s"),
    Turn("Is it worth switching from pandas to Polars for the feature pipeline?", "If the pipeline is slow or memory-bound, yes: Polars is multi-threaded and lazy, often several times faster on group-bys and joins. If it runs in minutes and the team knows pandas well, the rewrite may not pay off yet."),
    Turn("Check the Makefile targets.", "Targets for installing, testing, linting, training and building the docs; `make train` passes the config path.", "read_file", '{"path": "Makefile"}', "install:\n\tpip install -r requirements.txt\ntest:\n\tpytest -q\nlint:\n\truff check churn tests\ntrain:\n\tpython -m churn.train --config configs/train.yaml\ndocs:\n\tmkdocs build"),
    Turn("How do I profile a slow pandas groupby?", "Time it with `%timeit` on a sample first, then look at dtypes: grouping on object columns is slow, so convert keys to `category`. `observed=True` avoids empty category combinations, and `agg` with built-in names like 'sum' beats a Python lambda."),
    Turn("Suggest a name for a function that bins tenure into cohorts.", "`tenure_cohort(months: int) -> str` reads well, or `bin_tenure` if you prefer a verb."),
    Turn("What's a sensible way to version datasets without a big platform?", "Keep raw snapshots immutable in object storage with dates in their names, record a checksum and the path in each training run, and use DVC if you want git-like commands on top. The key is never overwriting a snapshot."),
    Turn("Give me a checklist before handing a model to the engineering team.", "A pinned environment, a single entry point to train and to predict, input schema and example payloads, the metrics it was accepted on, known failure modes, a monitoring plan for drift and a contact person. A short model card covers most of it."),
    Turn("How do I explain a confusion matrix to someone in finance?", "Frame it as four piles of customers: the leavers we caught, the leavers we missed, the loyal ones we bothered for nothing and the loyal ones we correctly left alone. Then put a cost on each pile, which finance people do naturally."),
    Turn("What's the quickest way to share a notebook result with someone who doesn't use Python?", "Export it to HTML with `jupyter nbconvert --to html --no-input` so they only see the charts and text, or paste the key charts into a short doc with two sentences under each."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "5055", {"keyword": "What port is the MLflow tracking server on?", "paraphrase": "Where do I point the experiment logger's URI?"}),
        (4, "8899", {"keyword": "Which port does JupyterLab use?", "paraphrase": "What number goes after localhost to reach my notebooks remotely?"}),
        (6, "exp/churn-xgb-v2", {"keyword": "Which branch am I on?", "paraphrase": "Where in git did I put my boosted-tree experiments?"}),
        (8, "fix/target-encoding-leak", {"keyword": "What's Rahel's branch for the leakage fix?", "paraphrase": "Where's my coworker's patch for the column that peeks at the outcome?"}),
        (10, "churn_2024q3.parquet", {"keyword": "Where's the training data file?", "paraphrase": "Where do the third-quarter customer records live on disk?"}),
        (13, "20817", {"keyword": "What random seed should I use?", "paraphrase": "Which number keeps my runs reproducible?"}),
        (15, "2.2.2", {"keyword": "Which pandas version is the kernel on?", "paraphrase": "What release of the dataframe library do I have in Jupyter?"}),
        (17, "1.5.1", {"keyword": "What's scikit-learn pinned to?", "paraphrase": "Which sklearn release are we stuck on?"}),
        (19, "DS-418", {"keyword": "What's the ticket for the data drift investigation?", "paraphrase": "Which issue tracks the input distributions shifting over time?"}),
        (21, "DS-433", {"keyword": "What ticket is the label leakage bug?", "paraphrase": "Which issue is the one where the answer sneaks into the features?"}),
        (23, "ORCA_USE_GPU", {"keyword": "Which env var turns on the GPU for training?", "paraphrase": "How do I make the model fit on the graphics card instead of the processor?"}),
        (25, "0.415", {"keyword": "What decision threshold did we agree on?", "paraphrase": "Above what cut-off do we call a customer at risk of leaving?"}),
    ],
    [
        ("Which port is Jupyter on?", 4, 2),
        ("What's Rahel's branch called?", 8, 6),
        ("Which version of scikit-learn are we on?", 17, 15),
        ("Which DS ticket is the leakage one?", 21, 19),
    ],
    [
        "morning! first coffee in hand",
        "cheers, that did it",
        "What's the difference between a crocodile and an alligator?",
        "How do I undo my last commit in git?",
        "I'm thinking of adopting a dog.",
        "Write a limerick about a cat who hates Mondays.",
        "How many moons does Jupiter have?",
        "Who invented the printing press?",
        "haha nice one",
        "Can you recommend a good book on statistics for beginners?",
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
