# ruff: noqa: E501, E402
"""An eighth held-out probe set for conversation recall, written blind to how recall ranks turns.

Same shape, rules and API as ``bench/probes_heldout.py`` (its docstring says how a conversation is fed and how a
question counts as answered); a bench can take any of the eight sets. The dataclasses, :func:`questions`, the
comparison keys and the per-conversation checks are that module's own, imported here, so every set is held to one
rule book. Sets 1 to 7 were used while recall was tuned or reported; this one was written afterwards, without seeing
how recall works or any result of it, for reporting.

Four new conversations with other people, subjects and facts: ``english`` (a mobile dog groomer who sings alto in a
community choir going on a short concert tour to Galway), ``korean`` (the owner of a small neighbourhood flower shop),
``mixed`` (an etch process engineer in a semiconductor fab, Korean with English fab words) and ``code`` (a C#/.NET
developer on a warehouse picking service, with shell, file, grep and test tools and their results).

Questions are asked the way people ask later in a chat: paraphrases in their own words that describe the thing rather
than name it, with and without "my"/"우리"/"제", as requests ("remind me ...", "알려줘"), in past and present tense;
look-alikes where the other words pick one of two facts of a kind (two mobile numbers, two door codes, two dates, two
monthly sums, two extensions, two lots, two machines, two ports, two queues, two tickets, two feature flags); and
unrelated questions of every sort, from greetings and thanks to how-tos that share common words with filler turns,
first-person news never mentioned, writing requests, a few "why" questions and general knowledge.
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
#: the people and pets this set names, so a test can hold that sets 1 to 7 name none of them
PEOPLE = (
    "Philippa", "Cosmo Varley", "Ashworth", "Tariq", "Ewan", "Juniper", "기소담", "방현철", "하도겸", "맹정란", "선우재희",
    "Lachlan", "Zofia", "Emeka",
)

# (the data keeps one turn and one fact per line)

# --- 1. English: a mobile dog groomer who sings alto in a community choir touring to Galway ----------------------

_EN_TURNS = [
    Turn("Hello! I'm Philippa. I run a mobile dog-grooming van round the villages, with a small unit on the industrial estate for the big dogs, and I sing alto in a community choir that's off on a little concert tour to Galway this autumn. I'll keep notes here as things come up, if that's alright.", "Lovely to meet you, Philippa. Note away, and I'll help you keep the grooming rounds and the choir tour straight."),
    Turn("The grooming van's registration is KD19 XVP, in case the insurer or the council asks.", "Noted. Keep a photo of the logbook on your phone as well; it saves a trip home when someone wants to see it."),
    Turn("Do I need to tell anyone if I fit a bigger water heater in the van? It's registered as a panel van.", "A heater on its own doesn't usually change the vehicle's body type, so the DVLA needn't know. Do tell your insurer about any modification, though, or they could refuse a claim."),
    Turn("Our choir director is Cosmo Varley, mobile 07384 602 915, if I'm ever running late for a rehearsal.", "Got it. A quick text before the warm-up starts is usually all a director wants."),
    Turn("Cosmo wants everything sung from memory on the tour. Any tricks for learning lyrics fast?", "Learn them two lines at a time, sing them aloud while you drive between clients, and write the first letter of each word on a card as a prompt. Recording the alto line on your phone and singing along helps a lot too."),
    Turn("My trade account with Groomers Depot is GD-774203; they want it on every phone order.", "Noted. Ask whether they deliver free above a certain spend; grooming supplies add up quickly."),
    Turn("My clipper blades keep running hot halfway through a big dog. Is it the blades or the clippers?", "Usually the blades: they heat up as they dull or clog with hair. Spray them with a coolant, swap to a second blade mid-groom and get them sharpened every couple of months. If a fresh blade still heats up fast, the clipper's motor may need a service."),
    Turn("The Galway concert is on Saturday 11 October, in St Nicholas' church.", "Wonderful. A church that old will have a long echo; leave a beat after each phrase for it to settle."),
    Turn("The concert programme has a song in Irish. How do I learn the pronunciation without embarrassing myself?", "Ask for a recording by a native speaker and write the words out the way they sound to you. Practise slowly, a line at a time, and check the tricky vowels with whoever in the choir speaks it."),
    Turn("Mrs Ashworth's key safe code is 3096; she leaves her cocker spaniel in the kitchen for me on Tuesdays.", "Got it. Scramble the dial after you close it, so the code isn't left showing."),
    Turn("Is it safe to groom a dog when the owner isn't home? What if something goes wrong?", "Plenty of groomers do it, but agree the rules in writing first: an emergency contact, the vet's details and what the owner wants done if the dog seems unwell. Keep a short note of each visit, and never leave a dog alone on the table."),
    Turn("The alarm at my grooming unit on the industrial estate is 7142.", "Noted. Change it if you ever give a temporary code to a cleaner or a contractor."),
    Turn("The alarm at the unit keeps going off at night when nobody's there. What usually causes that?", "Often a spider or a moth on a motion sensor, a draught moving something, or a weak backup battery. Clean the sensors, check the battery and look at the alarm's log to see which zone triggered."),
    Turn("The coach for the choir tour is with Brayford Coaches, booking reference BRY-30527.", "Got it. Check whether the driver's overnight stay is included; on trips of several days it's sometimes extra."),
    Turn("The coach from Dublin to Galway takes about three hours. How do we stop people getting travel sick?", "Seat anyone prone to it near the front, keep a window open a crack if you can, and suggest ginger sweets or a travel-sickness tablet taken before you set off. A stop halfway helps more than people expect."),
    Turn("The dress rehearsal is Thursday 25 September, in the school hall on Mill Road.", "Noted. Wear your concert shoes to it; standing for two hours in new shoes is a surprise nobody wants on the night."),
    Turn("How do I keep my voice from going during a long rehearsal? I always croak by the end.", "Warm up gently for ten minutes, sip water through the day, and avoid shouting or whispering beforehand. During the rehearsal, sing the high passages at half voice when the director isn't working on them."),
    Turn("Our own dog Juniper's microchip number is 977200008412365.", "Saved. Keep it with her vaccination card; you'll need it if she ever travels abroad with you."),
    Turn("We might move house next year. Do I have to update the microchip database myself?", "Yes: in the UK the keeper has to keep the chip's details current by law. Log in to the database the chip is registered with and change the address; it's free or a small fee."),
    Turn("My mechanic is Tariq at Hillside Motors, 07519 330 274; he fits the van in at short notice.", "Noted. A mechanic who'll squeeze you in is worth keeping sweet."),
    Turn("The mechanic says the van's clutch is starting to slip. Roughly how long have I got?", "It could be weeks or months depending on how you drive, but it only gets worse and can leave you stranded. When the van is your income, booking it in soon costs less than a recovery call-out."),
    Turn("My public liability policy with Petsure Pro is PL-5520918.", "Got it. Keep a copy of the certificate in the van; some clients ask to see it."),
    Turn("Does public liability cover me if a dog nips someone while I'm grooming it?", "Usually yes: it covers injury to members of the public and damage to their property. Injury to the dog in your care is normally a separate care, custody and control section, so check your policy has it."),
    Turn("Choir subs are £42 a term, paid to Ewan, our treasurer.", "Noted. That's reasonable for a choir with a paid director and a tour."),
    Turn("Is it normal for a choir to charge subs when it already sells tickets for its concerts?", "Yes. Ticket money often just covers the venue, the music and the accompanist for that concert, while subs pay for the director and the rehearsal room all year."),
    Turn("Bigger question. The tour is five days, Wednesday to Sunday, and I've about thirty regular grooming clients who book every four to six weeks. Some of the older dogs matt badly if they go longer between grooms, and two of my clients are elderly and rely on me to come to them. I don't want to lose regulars to another groomer while I'm away, but I also want to enjoy the trip and not come back to chaos. How would you plan the weeks around it?", "Work backwards from the tour: in the three weeks before it, bring forward anyone who'd fall due while you're away, starting with the dogs that matt and your two elderly clients. Tell every client the dates now, with a short message offering them a slot before or after. Keep the Monday and Tuesday after you get back light for the overflow, and don't book anything on the Tuesday before you leave, so you can pack and rest. If a client truly can't wait, a trusted groomer you can recommend for one visit keeps them from drifting away."),
    Turn("What's a quick vegetarian dinner that reheats well?", "A chickpea and spinach curry or a lentil bolognese: both keep for three days in the fridge and taste better the next day. Make a double batch and freeze half."),
    Turn("My hands get cracked and sore from all the washing at work. What helps?", "Wear nitrile gloves for the bathing, pat your hands dry rather than rubbing them, and use a thick barrier cream before work and a greasy balm at night. If the cracks bleed or don't heal, see a pharmacist about a mild steroid cream."),
    Turn("Help me write a short note to my clients saying I'll be away for a week in October.", "\"Hi! Just a heads-up that I'll be away from Wednesday to Sunday in mid-October. If your dog is due around then, reply and I'll fit you in the week before or after. Thanks so much, and give them a scratch from me!\""),
    Turn("Who composed the Messiah?", "George Frideric Handel, in 1741; he wrote it in about three and a half weeks, and it was first performed in Dublin the following year."),
    Turn("How do I stop the windscreen misting up on cold mornings?", "Put the blower on the windscreen with the air conditioning on, which dries the air, and set the air to come from outside rather than recirculating. Keeping the inside of the glass clean makes a surprising difference."),
    Turn("What's a good stretch for a stiff neck?", "Slowly tip your ear towards your shoulder and hold for twenty seconds each side, then tuck your chin in gently ten times. Rolling your shoulders back between jobs helps stop it coming back."),
    Turn("Can you suggest a few names for a grooming business?", "Something friendly and local works best: \"Suds on Wheels\", \"The Tidy Paw\", \"Fluff & Fold\" or your village's name plus \"Dog Spa\". Check the name is free as a domain and on social media first."),
    Turn("How do I get dog hair out of car seats?", "A rubber glove or a damp squeegee dragged across the fabric bunches the hair up so you can pick it off, then finish with a vacuum. A pumice-style pet hair stone works well on carpets."),
    Turn("Is it worth getting a card reader for a small business?", "Usually yes: more people pay by card than cash now, and the readers are cheap with fees of around 1 to 2 percent a transaction. It also means fewer trips to the bank."),
    Turn("What's the difference between a soprano and a mezzo?", "Range and colour: a soprano sings highest and usually has a brighter sound, while a mezzo sits a little lower with a warmer, darker tone. Altos sit lower still."),
    Turn("Recommend a novel for a long coach journey.", "'The Thursday Murder Club' by Richard Osman is light and funny, and 'The Salt Path' by Raynor Winn is a gentle true story you can dip in and out of."),
    Turn("How long do hard-boiled eggs keep in the fridge?", "About a week in their shells; once peeled, eat them within a couple of days."),
    Turn("What's an easy way to keep track of mileage for my tax return?", "Use a mileage app that logs trips by GPS, or a notebook in the van with the date, start and end readings and the reason for each trip. HMRC's simplified rate then gives you the claim per mile."),
    Turn("Why do cats knead blankets?", "It's a leftover from kittenhood, when kneading helped milk flow; adult cats do it when they feel content, and it also leaves scent from glands in their paws."),
    Turn("How do I politely turn away a client who always cancels at the last minute?", "Be kind but clear: \"I'm afraid I can't keep holding slots after late cancellations, so I won't be able to book you in for now.\" Or ask for a deposit that's kept if they cancel with less than a day's notice."),
    Turn("What's a good thank-you present for a choir director at the end of the season?", "A card signed by everyone plus a voucher for a music shop or a nice bottle of something; a framed photo of the choir on tour would go down well too."),
    Turn("How do I descale a kettle?", "Fill it halfway with equal parts water and white vinegar or a tablespoon of citric acid, bring it to the boil, leave it for an hour, then rinse and boil fresh water twice."),
    Turn("Give me a ten-minute warm-up for singers.", "Two minutes of stretching and shoulder rolls, two of breathing (in for four, hiss out for eight), two of lip trills and sirens, two of humming scales, and two of a simple round to bring the voices together."),
]

ENGLISH = _build(
    "english",
    "en",
    _EN_TURNS,
    [
        (2, "KD19 XVP", {"keyword": "What's the grooming van's registration?", "paraphrase": "Remind me what's on the number plate of my work vehicle."}),
        (4, "07384 602 915", {"keyword": "What's Cosmo's mobile number?", "paraphrase": "How do I reach the man who conducts our singing group?"}),
        (6, "GD-774203", {"keyword": "What's my Groomers Depot account number?", "paraphrase": "Which customer number do I quote to the supplier I get my shampoo and blades from?"}),
        (8, "Saturday 11 October", {"keyword": "When is the Galway concert?", "paraphrase": "What date do we perform in the west of Ireland?"}),
        (10, "3096", {"keyword": "What's Mrs Ashworth's key safe code?", "paraphrase": "How do I get into that client's house when she's out at work?"}),
        (12, "7142", {"keyword": "What's the alarm code for my grooming unit?", "paraphrase": "Which digits switch off the security system where I wash the big dogs?"}),
        (14, "BRY-30527", {"keyword": "What's the booking reference for Brayford Coaches?", "paraphrase": "What do I tell the bus company taking us round Ireland so they can find our trip?"}),
        (16, "Thursday 25 September", {"keyword": "When is the dress rehearsal?", "paraphrase": "When's our last full run-through before we go away?"}),
        (18, "977200008412365", {"keyword": "What's Juniper's microchip number?", "paraphrase": "What's the ID implanted under our pup's skin?"}),
        (20, "07519 330 274", {"keyword": "What's Tariq's number at Hillside Motors?", "paraphrase": "How do I get hold of the garage that fixes my vehicle?"}),
        (22, "PL-5520918", {"keyword": "What's my public liability policy number?", "paraphrase": "What's the reference on the cover that pays out if I hurt a customer by accident?"}),
        (24, "£42 a term", {"keyword": "How much are choir subs?", "paraphrase": "How much do I owe the singers each season for membership?"}),
    ],
    [
        ("Which number do I ring when the van's playing up?", 20, 4),
        ("What's the code to turn the alarm off?", 12, 10),
        ("When do we rehearse in the school hall?", 16, 8),
        ("What's my insurance reference again?", 22, 14),
    ],
    [
        "Hiya, happy Friday!",
        "Brilliant, thanks a million.",
        "How do I get candle wax out of a tablecloth?",
        "My sister has just had twins!",
        "Write a limerick about a soggy picnic.",
        "Why does chopping onions sting your eyes?",
        "Why do fireflies glow?",
        "How many bones are in the human body?",
        "ha, classic",
        "Can you recommend a board game for four adults?",
    ],
)


# --- 2. Korean: 동네에서 작은 꽃집을 혼자 꾸려 가는 사장님 ------------------------------------------------------------

_KO_TURNS = [
    Turn("안녕하세요, 저는 동네에서 작은 꽃집 '소담꽃방'을 하는 기소담이에요. 혼자 꾸려 가다 보니 번호랑 날짜가 자꾸 헷갈려서 여기 적어 둘게요.", "반가워요, 사장님. 편하게 적어 두세요. 거래처 번호나 납품 날짜는 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("양재 꽃시장 도매 거래처 들꽃상회 사장님 번호는 010-6172-4093이에요.", "적어 뒀어요. 경매 끝나고 통화가 잘 되는 시간대도 같이 알아 두시면 좋아요."),
    Turn("꽃시장은 새벽 몇 시에 가야 좋은 꽃을 건져요?", "보통 새벽 1시에서 3시 사이에 물건이 제일 많아요. 단골 도매상한테 전날 전화로 주문해 두면 늦게 가도 좋은 걸 따로 챙겨 줘요."),
    Turn("배달은 방현철 기사님이 해 주세요. 번호는 010-2958-0631이에요.", "알겠어요. 기념일처럼 배달이 몰리는 날은 며칠 전에 미리 일정을 잡아 두세요."),
    Turn("배달 가다가 꽃다발이 흔들려서 꽃잎이 떨어졌대요. 어떻게 싸야 돼요?", "꽃다발을 상자에 세워 넣고 바닥에 물주머니를 고정하세요. 차 안에서는 신문지를 구겨서 빈틈을 채우면 덜 흔들려요."),
    Turn("가게 월세는 매달 25일에 185만 원 나가요.", "적어 뒀어요. 자동이체로 걸어 두면 깜빡할 일이 없어요."),
    Turn("월세가 재계약 때 많이 오를까 봐 걱정돼요. 얼마까지 올릴 수 있어요?", "상가 임대차 보호 대상이면 갱신할 때 5%를 넘게 올릴 수 없어요. 보증금과 월세를 환산한 금액이 기준 안에 드는지 먼저 확인해 보세요."),
    Turn("포장지랑 리본 주문하는 쇼핑몰 아이디는 sodam_flora예요.", "적어 뒀어요. 비밀번호는 여기 말고 따로 보관해 두세요."),
    Turn("리본을 예쁘게 묶는 요령이 있어요? 자꾸 한쪽이 삐뚤어져요.", "고리를 만들 때 리본의 같은 면이 바깥으로 오게 잡고, 마지막에 양쪽 고리를 동시에 당겨 모양을 맞추세요. 끝을 사선으로 자르면 덜 풀려요."),
    Turn("웨딩 부케는 12월 6일 토요일 오전에 신부 대기실로 납품해요.", "축하할 일이네요. 부케는 전날 저녁에 만들어 냉장 보관하면 당일에 싱싱해요."),
    Turn("겨울 웨딩 부케에는 어떤 꽃이 좋아요?", "작약은 철이 아니라서 장미, 라넌큘러스, 아네모네를 많이 쓰고 목화 가지를 섞기도 해요. 흰색에 초록 소재를 곁들이면 겨울 느낌이 잘 나요."),
    Turn("개업 축하 화환 세 개는 11월 21일 아침까지 새로 여는 치과 앞으로 보내야 돼요.", "적어 뒀어요. 리본 문구를 미리 받아 두시면 당일에 덜 바빠요."),
    Turn("화환 리본 문구는 보통 뭐라고 써요?", "'축 개업'이나 '번창을 기원합니다'가 흔해요. 한쪽 리본에 축하 문구, 다른 쪽에 보내는 사람 이름을 적어요."),
    Turn("가게 뒷문 도어락 비밀번호는 6240이에요.", "적어 뒀어요. 아르바이트생이 바뀌면 번호도 바꾸는 게 좋아요."),
    Turn("도어락 건전지는 얼마나 자주 갈아야 돼요?", "보통 1년에 한 번이면 되는데, 경고음이 나면 바로 가세요. 추운 겨울에는 더 빨리 닳아요."),
    Turn("옥상 창고 자물쇠 번호는 9173이에요. 화분이랑 흙 포대가 거기 있어요.", "알겠어요. 비 오는 날 흙 포대가 젖지 않게 비닐을 덮어 두세요."),
    Turn("옥상 창고에 둔 흙에서 작은 날벌레가 생겨요. 어떻게 해요?", "뿌리파리일 가능성이 커요. 포대를 꽉 묶어 두고, 쓰기 전에 햇볕에 펼쳐 말리세요. 끈끈이 트랩을 같이 두면 확 줄어요."),
    Turn("정기 꽃 구독은 한 달에 네 번 배달하고 59,000원 받아요.", "적어 뒀어요. 꽃 시세가 오르는 달에는 구성을 바꿔서 맞추면 돼요."),
    Turn("정기 구독 손님한테 매번 다른 꽃을 보내려면 어떻게 관리해요?", "손님별로 보낸 꽃과 색을 표로 적어 두세요. 계절 꽃 위주로 짜고, 좋아하는 색이나 싫어하는 꽃을 처음에 물어보면 편해요."),
    Turn("관엽식물 분갈이 흙은 상토 6, 펄라이트 3, 마사토 1로 섞어요.", "적어 뒀어요. 물 빠짐이 좋아서 과습으로 뿌리가 썩는 일이 줄어요."),
    Turn("몬스테라 분갈이는 언제 하는 게 좋아요?", "봄이나 초여름이 좋아요. 뿌리가 화분 밑으로 삐져나오면 한 치수 큰 화분으로 옮기고, 분갈이 후 일주일은 직사광선을 피하세요."),
    Turn("길 건너 어린이집은 매달 첫째 주 월요일에 교실 꽃을 주문해요.", "단골이네요. 아이들 손이 닿는 곳에 둘 테니 가시 없는 꽃으로 구성하세요."),
    Turn("아이들 있는 곳에 두면 안 되는 꽃이나 식물이 있어요?", "은방울꽃, 디펜바키아, 수선화 알뿌리처럼 독성이 있는 건 피하세요. 백합 꽃가루는 옷에 묻으면 잘 안 지워져서 아이들 공간에는 빼는 게 좋아요."),
    Turn("토요일 꽃꽂이 원데이 클래스는 정원 6명으로 받아요.", "적어 뒀어요. 재료 준비나 설명하기에 딱 알맞은 인원이에요."),
    Turn("원데이 클래스 재료비는 보통 얼마 받아요?", "꽃 종류에 따라 다르지만 한 사람에 5만 원에서 8만 원 정도가 많아요. 들고 가기 좋게 포장까지 해 드리면 만족도가 높아요."),
    Turn("고민이 있어요. 어버이날이랑 스승의 날이 있는 5월에는 주문이 평소의 다섯 배로 몰려요. 작년에는 밤새 카네이션 바구니를 만들다가 배달이 늦어서 항의도 받았어요. 아르바이트를 더 쓰자니 가르칠 시간이 없고, 예약을 일찍 닫자니 매출이 아까워요. 혼자서 어떻게 준비하면 좋을까요?", "메뉴를 세 가지 정도로 줄이고 가격대별로 미리 정해 두세요. 예약은 날짜별 수량을 정해 받고, 그 수량이 차면 마감하는 게 항의보다 나아요. 바구니 틀과 포장은 일주일 전부터 미리 만들어 두고, 꽃만 전날 꽂으세요. 아르바이트는 꽃을 만지는 일 대신 포장과 포장지 접기, 배달 정리만 맡기면 가르칠 게 적어요. 배달은 지역별로 시간대를 묶어 기사님과 미리 동선을 짜 두세요."),
    Turn("요즘 손이 너무 트는데 핸드크림 말고 방법 있어요?", "물 일을 할 때 얇은 면장갑 위에 고무장갑을 끼고, 밤에는 바셀린을 듬뿍 바르고 면장갑을 끼고 자 보세요. 갈라진 데가 낫지 않으면 피부과에 가 보세요."),
    Turn("간판 조명을 바꾸면 전기요금이 많이 줄어요?", "오래된 형광등 간판이면 절반 넘게 줄기도 해요. 켜는 시간을 타이머로 정해 두면 더 아낄 수 있어요."),
    Turn("혼자 가게를 보면 점심은 어떻게 챙겨 먹어요?", "손님이 뜸한 시간을 정해 두고 간단한 도시락이나 주먹밥을 준비해 두세요. 문에 '잠시 식사 중, 10분 뒤에 돌아와요' 같은 팻말을 걸어 두는 것도 방법이에요."),
    Turn("꽃 받은 손님한테 보낼 감사 문자 예쁘게 써 줄래요?", "\"소담꽃방입니다. 오늘 보내 드린 꽃이 마음에 드셨길 바라요. 줄기 끝을 사선으로 조금씩 잘라 물을 갈아 주시면 더 오래 보실 수 있어요. 감사합니다!\""),
    Turn("겨울에 가게 유리창에 김이 서리는데 어떻게 없애요?", "실내외 온도 차 때문이라 환기를 조금씩 해 주고, 유리창에 김 서림 방지제를 발라 두면 한동안 괜찮아요. 창가에 물 많은 화분을 몰아 두지 않는 것도 도움이 돼요."),
    Turn("무릎이 아파요. 하루 종일 서 있어서 그런가 봐요.", "쿠션 있는 신발이나 바닥 매트를 쓰고, 틈틈이 앉아서 다리를 쭉 펴 주세요. 계단 오르내릴 때 아프면 병원에서 한 번 봐 달라고 하세요."),
    Turn("장미는 왜 가시가 있어요?", "줄기를 갉아 먹는 동물을 막으려고 생겼다고 보는 게 일반적이에요. 다른 식물에 걸쳐서 위로 자라는 데도 도움이 돼요."),
    Turn("동네 가게들끼리 같이 할 만한 행사 아이디어 있어요?", "스탬프 투어가 쉬워요. 가게마다 도장을 받으면 작은 선물을 주는 식이에요. 계절마다 골목 장터를 열어 각자 물건을 조금씩 내놓는 것도 좋아요."),
    Turn("카드 수수료를 줄이는 방법이 있어요?", "매출이 적은 영세 가맹점이면 우대 수수료가 자동으로 적용되는지 확인하세요. 간편결제나 지역화폐는 수수료가 더 낮은 경우도 있어요."),
    Turn("꽃 이름 외우기가 너무 어려워요. 요령 있어요?", "매일 들어오는 꽃 다섯 개씩만 사진과 이름을 같이 찍어 두고 저녁에 다시 보세요. 손님한테 설명하면서 말로 해 보면 훨씬 빨리 외워져요."),
    Turn("세종대왕이 한글을 언제 만들었어요?", "1443년에 훈민정음을 만들었고, 1446년에 세상에 널리 알렸어요. 한글날은 반포한 날을 기념하는 거예요."),
    Turn("요즘 잠이 안 와요. 새벽에 자꾸 깨요.", "자기 전 한 시간은 휴대폰을 멀리하고, 낮잠은 20분 안으로 줄여 보세요. 새벽에 깨면 억지로 누워 있지 말고 잠깐 일어나 조용한 일을 하다가 다시 누우세요."),
    Turn("가게 앞에 내놓은 화분을 누가 자꾸 가져가요. 어떻게 하죠?", "무거운 화분을 바깥에 두고 작은 건 안으로 들이세요. 작은 체인으로 화분끼리 묶어 두거나 방범 카메라 안내문을 붙이는 것도 효과가 있어요."),
    Turn("종합소득세 신고는 언제 해요?", "매년 5월 한 달 동안 해요. 성실신고확인 대상이면 6월 말까지예요. 영수증과 카드 매출 내역을 미리 모아 두면 편해요."),
    Turn("튤립이 화병에서 자꾸 고개를 숙여요.", "튤립은 꽂힌 뒤에도 계속 자라고 빛 쪽으로 휘어요. 물을 얕게 담고 줄기를 신문지로 말아 몇 시간 두면 다시 곧게 서요."),
    Turn("엄마 생신 선물로 뭐가 좋을까요?", "직접 만든 꽃바구니에 손편지를 곁들이면 사장님만 드릴 수 있는 선물이 돼요. 함께 나들이를 가는 것도 좋아하실 거예요."),
    Turn("비 오는 날엔 손님이 없어서 우울해요.", "그런 날은 밀린 손질이나 사진 촬영을 하는 날로 정해 보세요. 비 오는 날 할인 같은 작은 행사를 SNS에 올려도 반응이 괜찮아요."),
    Turn("사진 찍을 때 꽃이 예쁘게 나오는 조명 방법 알려줘요.", "창가의 부드러운 자연광이 제일 좋아요. 햇빛이 세면 얇은 커튼으로 가리고, 반대쪽에 흰 종이를 세워 그림자를 밝혀 주세요."),
]

KOREAN = _build(
    "korean",
    "ko",
    _KO_TURNS,
    [
        (2, "010-6172-4093", {"keyword": "들꽃상회 사장님 번호 뭐였지?", "paraphrase": "새벽마다 물건 떼 오는 단골집 전화번호 알려줘", "endings": "들꽃상회는 사장님 연락처가 어떻게 돼?"}),
        (4, "010-2958-0631", {"keyword": "배달 기사님 번호 뭐였지?", "paraphrase": "손님들한테 꽃 실어다 주시는 분 연락처 알려줘", "endings": "방현철 기사님한테 연락하려면 번호가 뭐야?"}),
        (6, "185만 원", {"keyword": "가게 월세 얼마 나가지?", "paraphrase": "상가 주인한테 다달이 내는 돈이 얼마였지?", "endings": "가게 월세가 얼마였지?"}),
        (8, "sodam_flora", {"keyword": "쇼핑몰 아이디 뭐였지?", "paraphrase": "꽃다발 싸는 종이 사는 사이트에 로그인할 때 쓰는 이름 알려줘", "endings": "포장지 주문하는 쇼핑몰은 아이디가 뭐야?"}),
        (10, "12월 6일", {"keyword": "웨딩 부케 언제 납품이지?", "paraphrase": "결혼식에 들어갈 꽃다발은 언제까지 보내야 하지?", "endings": "웨딩 부케를 언제 납품해?"}),
        (12, "11월 21일", {"keyword": "개업 화환 언제까지 보내야 돼?", "paraphrase": "이번에 개원하는 병원에 세워 줄 큰 꽃 장식은 며칠까지 가야 돼?", "endings": "개업 화환은 언제까지야?"}),
        (14, "6240", {"keyword": "뒷문 도어락 비밀번호 뭐였지?", "paraphrase": "우리 꽃방 뒤쪽 출입구 열 때 누르는 숫자 알려줘", "endings": "뒷문은 도어락 비밀번호가 뭐야?"}),
        (16, "9173", {"keyword": "옥상 창고 자물쇠 번호 뭐였지?", "paraphrase": "지붕 위에 짐 넣어 두는 곳은 어떻게 열어?", "endings": "옥상 창고는 자물쇠가 몇 번이야?"}),
        (18, "59,000원", {"keyword": "정기 꽃 구독 한 달에 얼마 받지?", "paraphrase": "매주 집으로 다발 보내 드리는 손님들은 다달이 얼마 내지?", "endings": "정기 구독료가 한 달에 얼마였지?"}),
        (20, "펄라이트 3", {"keyword": "관엽식물 분갈이 흙 비율 어떻게 섞었지?", "paraphrase": "잎 보는 화초 옮겨 심을 때 배합이 어떻게 돼?", "endings": "관엽식물은 분갈이할 때 흙을 어떻게 섞어?"}),
        (22, "첫째 주 월요일", {"keyword": "어린이집 꽃 주문 언제 하지?", "paraphrase": "애들 맡기는 곳에서 정기적으로 부탁하는 날이 언제였지?", "endings": "어린이집에서 꽃 주문은 언제야?"}),
        (24, "정원 6명", {"keyword": "원데이 클래스 몇 명까지 받지?", "paraphrase": "주말에 여는 꽃 만들기 수업은 최대 몇 사람이야?", "endings": "원데이 클래스는 정원이 몇 명이야?"}),
    ],
    [
        ("꽃 배달해 주시는 분 번호 뭐였지?", 4, 2),
        ("개업 화환 납품 며칠이었지?", 12, 10),
        ("옥상 자물쇠 몇 번이었지?", 16, 14),
        ("꽃 구독은 매달 얼마씩이었지?", 18, 6),
    ],
    [
        "굿모닝이에요~ 오늘 하늘 맑네요",
        "정말 고마워요, 살 것 같아요",
        "ㅎㅎㅎ 그러게요",
        "된장찌개 맛있게 끓이는 법 알려줘요",
        "저 드디어 운전면허 땄어요!",
        "친구 생일 카드에 쓸 짧은 글 부탁해요",
        "왜 바다는 짠가요?",
        "왜 겨울엔 낮이 짧아요?",
        "이순신 장군은 언제 태어났어요?",
        "주말에 볼 만한 영화 추천해 줘요",
    ],
)


# --- 3. Mixed Korean/English: 반도체 fab etch 공정 엔지니어의 업무 메모와 잡담 -----------------------------------------

_MX_TURNS = [
    Turn("안녕하세요, 반도체 fab에서 etch 공정 엔지니어 2년차 하도겸이에요. 장비 ID, lot, 내선 번호가 너무 많아서 여기 메모해 둘게요.", "반가워요. 편하게 적어 두세요. 번호나 일정은 제가 정리해 두고 필요할 때 찾아 드릴게요."),
    Turn("제 담당 장비는 etch chamber ETC-07B예요.", "적어 뒀어요. 장비마다 버릇이 조금씩 달라서 담당 장비 history를 따로 정리해 두면 좋아요."),
    Turn("같은 모델 장비인데 chamber마다 etch rate가 조금씩 달라요. 왜 그래요?", "chamber 벽면 상태, RF 부품 마모, 온도 제어 편차 때문에 chamber matching이 완벽하진 않아요. 주기적으로 monitor wafer를 돌려서 차이를 보고 recipe offset으로 맞추는 게 일반적이에요."),
    Turn("지금 양산 recipe 이름은 DT_OX_442R이에요.", "알겠어요. recipe를 건드릴 때는 꼭 change control 절차를 밟으세요."),
    Turn("recipe 파라미터 하나 바꾸려면 보통 어떤 절차가 필요해요?", "변경 사유와 영향 평가를 적고, split lot으로 검증한 뒤 결과를 리뷰 회의에서 승인받아요. 승인 전에는 양산 lot에 적용하면 안 돼요."),
    Turn("다음 wet clean PM은 3월 23일 야간이에요.", "적어 뒀어요. PM 끝나고 돌릴 seasoning wafer도 미리 챙겨 두세요."),
    Turn("PM 끝나고 seasoning은 얼마나 해야 돼요?", "장비와 공정마다 다르지만 dummy wafer를 수십 장 돌리고 particle과 etch rate가 안정됐는지 확인한 뒤 release해요. 기준은 팀 spec을 따르세요."),
    Turn("맹정란 파트장님 내선은 4416이에요.", "알겠어요. 장비 down처럼 급한 일은 메신저보다 전화가 빨라요."),
    Turn("파트장님께 장비 down 보고할 때 뭘 먼저 말해야 돼요?", "언제부터 어떤 장비가 어떤 증상으로 멈췄는지, 영향받은 lot 수, 지금까지 한 조치, 예상 복구 시간 순서로 짧게 말하세요."),
    Turn("vendor FSE Lachlan 번호는 010-8830-2146이에요. RF generator 문제는 이 분한테 연락해요.", "적어 뒀어요. 연락할 때 alarm code와 log를 같이 보내면 훨씬 빨라요."),
    Turn("vendor 엔지니어랑 영어로 통화하는 게 아직 어색해요.", "자주 쓰는 표현을 미리 적어 두세요. 'The chamber tripped on a reflected power alarm at 3 a.m.'처럼 증상, 시간, 해 본 조치를 한 문장씩 준비하면 훨씬 편해요."),
    Turn("제 gowning locker는 B동 217번이에요.", "알겠어요. 방진복 사이즈 표시도 locker 안쪽에 붙여 두면 편해요."),
    Turn("방진복 입는 순서가 자꾸 헷갈려요.", "보통 hood, coverall, boots 순서로 위에서 아래로 입고, 마지막에 장갑을 소매 위로 덮어요. 거울로 머리카락이 삐져나오지 않았는지 확인하세요."),
    Turn("etch rate 관리 상한, UCL은 312 nm/min이에요.", "적어 뒀어요. 한 점이라도 넘으면 OOC 대응 절차를 따르세요."),
    Turn("SPC chart에서 OOC 나면 바로 장비를 세워야 돼요?", "팀 OCAP에 따라 달라요. 보통은 lot을 hold하고 monitor wafer로 다시 확인한 다음, 재현되면 장비를 inhibit하고 원인을 찾아요."),
    Turn("지금 제일 급한 hot lot은 KQ58314.1이에요.", "알겠어요. dispatch 우선순위가 제대로 바뀌었는지 MES에서 한 번 더 확인하세요."),
    Turn("hot lot이 너무 많으면 다른 lot들이 밀리는데 어떻게 조율해요?", "생산관리팀과 하루 hot lot 한도를 정해 두는 곳이 많아요. 모든 lot이 급하면 아무것도 급하지 않게 되니, 우선순위 근거를 같이 공유하세요."),
    Turn("particle 문제로 hold 걸린 lot은 KQ58290.3이에요.", "적어 뒀어요. hold 사유와 담당자를 MES comment에 남겨 두세요."),
    Turn("particle 원인 찾을 때 뭐부터 봐요?", "defect map 패턴부터 보세요. 가장자리에 몰리면 chamber 벽이나 edge ring, 무작위로 흩어져 있으면 wafer 이송이나 환경 쪽일 가능성이 커요."),
    Turn("선우재희 선배 장비는 ETC-12A예요. 선배 휴가 때 제가 봐 드려요.", "알겠어요. 인수인계 받을 때 최근 이슈랑 잡혀 있는 PM 일정을 같이 물어보세요."),
    Turn("선배 휴가 동안 다른 사람 장비를 맡으면 뭘 챙겨야 돼요?", "최근 alarm history, 진행 중인 split lot, 특이한 recipe 설정, vendor 연락처를 받아 두세요. 애매한 건 사진과 메모로 남겨 달라고 부탁하면 좋아요."),
    Turn("설비 parts 창고 내선은 5083이에요.", "적어 뒀어요. 야간에 창고가 닫혀 있는지도 확인해 두세요."),
    Turn("parts 재고가 없으면 다른 fab에서 빌려올 수 있어요?", "대부분 회사에 fab 간 parts 이관 절차가 있어요. 급한 요청은 파트장 승인을 받고 물류팀에 연락하는 식이에요."),
    Turn("고객사 audit은 4월 8일이에요. 그 전에 장비 로그북 정리해야 돼요.", "알겠어요. 로그북에 빈칸이나 서명 누락이 없는지부터 보세요."),
    Turn("audit 때 엔지니어한테 주로 뭘 물어봐요?", "변경 관리 기록, 교육 이수 기록, OOC 대응 기록을 자주 봐요. 모르는 건 추측하지 말고 확인해서 답하겠다고 하는 게 안전해요."),
    Turn("고민이 있어요. 3조 2교대라 생활 리듬이 완전히 깨졌어요. 회사에서 공정 개발팀으로 옮길 기회가 있다는데 거기는 주간 근무지만 성과 압박이 세고, 지금 팀은 선배들이 좋아서 떠나기 아쉬워요. 대학원 진학도 생각 중이고요. 어떻게 정리하면 좋을까요?", "먼저 3년 뒤에 어떤 일을 하고 싶은지 적어 보세요. 공정 개발팀 경험은 대학원에 가든 회사에 남든 강점이 되니, 옮긴다면 순서상 먼저 하는 것도 방법이에요. 개발팀에 있는 선배에게 실제 하루 일과와 평가 방식을 물어보고, 지금 팀 분들과는 부서를 옮겨도 관계를 이어 갈 수 있다는 점도 생각해 보세요. 체력이 제일 급하면 그걸 가장 무거운 기준으로 두세요."),
    Turn("점심 메뉴 추천해 줘요. 구내식당이 또 돈가스예요.", "근처 쌀국수나 비빔밥 어떠세요? 시간이 없으면 편의점 샐러드에 삶은 달걀도 든든해요."),
    Turn("Excel VLOOKUP이랑 XLOOKUP 차이가 뭐예요?", "XLOOKUP은 왼쪽 열도 찾을 수 있고, 못 찾았을 때 값을 바로 지정할 수 있어요. 열 번호 대신 범위를 직접 주니까 열을 끼워 넣어도 안 깨져요."),
    Turn("교대 근무하면 살이 찌는데 어떻게 관리해요?", "야간 근무 중에는 기름진 간식 대신 단백질 위주로 조금씩 드시고, 퇴근 직후 과식을 피하세요. 근무 패턴이 바뀌어도 식사 시간 간격은 일정하게 유지하는 게 중요해요."),
    Turn("영어 이메일 맺음말로 뭐가 무난해요?", "'Best regards'가 제일 무난하고, 조금 편한 사이면 'Thanks'나 'Cheers'도 써요. 처음 연락하는 분께는 'Kind regards'도 좋아요."),
    Turn("Python으로 CSV 파일 여러 개 합치는 법 간단히 알려줘요.", "pandas로 `pd.concat([pd.read_csv(f) for f in files])`를 쓰면 돼요. 파일 목록은 `glob.glob('*.csv')`로 가져오세요."),
    Turn("눈이 너무 건조해요. 클린룸 공기가 건조해서 그런가요?", "클린룸은 습도를 일정하게 관리해도 오래 있으면 눈이 마르기 쉬워요. 인공눈물을 자주 넣고, 모니터 볼 때 일부러 눈을 깜빡여 주세요."),
    Turn("회의에서 발표할 때 slide 몇 장이 적당해요?", "10분 발표면 다섯 장에서 여덟 장 정도가 적당해요. 한 장에 메시지 하나만 담으세요."),
    Turn("주말에 등산 가기 좋은 곳 있어요?", "처음이면 북한산 둘레길이나 청계산처럼 길이 잘 정비된 곳이 좋아요. 아침 일찍 출발하면 사람이 적어요."),
    Turn("후배한테 피드백 줄 때 어떻게 말해야 기분 안 상해요?", "사람이 아니라 행동에 대해 말하고, 구체적인 예와 함께 다음에 어떻게 하면 좋을지를 같이 얘기하세요. 잘한 점도 꼭 같이 말해 주세요."),
    Turn("TOEIC 점수 올리는 요령 있어요?", "LC는 매일 조금씩 받아쓰기를 하고, RC는 Part 5 문법 문제를 시간 재면서 푸세요. 모의고사는 실제 시간에 맞춰 풀어 보는 게 중요해요."),
    Turn("통근 버스에서 잠깐 자면 오히려 더 피곤해요.", "깊이 잠들기 전에 깨면 개운하지만 20분을 넘기면 더 멍해져요. 알람을 15분으로 맞추고 목베개를 써 보세요."),
    Turn("Jira 티켓 제목은 어떻게 쓰는 게 좋아요?", "무엇이 어떻게 잘못됐는지 한 줄로 쓰세요. 예를 들어 '장비 알람 리포트에서 야간 데이터가 빠짐'처럼 대상과 증상을 같이 넣으면 검색하기도 좋아요."),
    Turn("야식 끊는 방법 있을까요?", "저녁을 너무 일찍 가볍게 먹으면 밤에 배가 고프니 단백질을 충분히 드세요. 야식이 당기면 따뜻한 차를 마시고 양치를 해 버리는 것도 효과가 있어요."),
    Turn("반도체 회로는 왜 그렇게 작게 만들어요?", "트랜지스터가 작을수록 같은 면적에 더 많이 넣을 수 있고, 전력도 덜 쓰고 더 빨리 동작해요. 그래서 칩 성능과 가격이 함께 좋아져요."),
    Turn("Outlook 메일 자동 분류 규칙 만드는 법 알려줘요.", "메일을 오른쪽 클릭해서 '규칙', '규칙 만들기'를 고르고 보낸 사람이나 제목 조건을 정한 뒤 옮길 폴더를 고르면 돼요."),
    Turn("부모님 결혼기념일 선물 추천해 줘요.", "두 분이 함께 쓰실 수 있는 것이 좋아요. 근교 호텔 숙박권이나 사진을 넣은 앨범, 같이 드실 식사 예약도 인기가 많아요."),
    Turn("커피 대신 마실 만한 거 있어요?", "옥수수수염차나 루이보스처럼 카페인 없는 차가 좋아요. 졸릴 때는 찬물 한 잔과 가벼운 스트레칭도 꽤 효과가 있어요."),
    Turn("오늘 장비가 세 번이나 down 됐어요. 지쳐요.", "정말 고생 많으셨어요. 오늘은 일찍 쉬시고, 내일 원인 정리는 머리가 맑을 때 하세요."),
]

MIXED = _build(
    "mixed",
    "ko+en",
    _MX_TURNS,
    [
        (2, "ETC-07B", {"keyword": "제 담당 장비 번호 뭐였죠?", "paraphrase": "제가 맡고 있는 식각 설비 ID 알려줘요", "endings": "제 담당 장비가 뭐였죠?"}),
        (4, "DT_OX_442R", {"keyword": "양산 recipe 이름 뭐였죠?", "paraphrase": "요즘 대량 생산에 돌리는 공정 조건 세트가 뭐였죠?", "endings": "양산 recipe는 이름이 뭐예요?"}),
        (6, "3월 23일", {"keyword": "다음 wet clean PM 언제예요?", "paraphrase": "장비 뜯어서 세정하는 정기 점검 날짜가 며칠이었죠?", "endings": "다음 PM은 며칠 야간에 해요?"}),
        (8, "4416", {"keyword": "맹정란 파트장님 내선 몇 번이에요?", "paraphrase": "우리 팀 리더한테 사내 전화로 걸려면 몇 번 눌러요?", "endings": "맹정란 파트장님한테 전화하려면 내선이 뭐예요?"}),
        (10, "010-8830-2146", {"keyword": "Lachlan 번호 뭐였죠?", "paraphrase": "고주파 전원 고장 나면 전화할 장비 업체 엔지니어 전화번호가 뭐예요?", "endings": "vendor FSE한테 연락하려면 번호가 뭐예요?"}),
        (12, "B동 217번", {"keyword": "제 gowning locker 몇 번이에요?", "paraphrase": "방진복 갈아입는 곳에서 제 보관함 위치가 어디였죠?", "endings": "B동에서 제 gowning locker가 몇 번이죠?"}),
        (14, "312 nm/min", {"keyword": "etch rate UCL 얼마예요?", "paraphrase": "식각 속도가 넘으면 안 되는 선이 얼마였죠?", "endings": "etch rate 관리 상한이 얼마예요?"}),
        (16, "KQ58314.1", {"keyword": "hot lot 번호 뭐였죠?", "paraphrase": "가장 먼저 처리해야 하는 웨이퍼 묶음이 뭐예요?", "endings": "지금은 어떤 hot lot이 제일 급해요?"}),
        (18, "KQ58290.3", {"keyword": "hold 걸린 lot 번호 뭐였죠?", "paraphrase": "먼지 때문에 멈춰 둔 웨이퍼 묶음 ID 알려줘요", "endings": "particle 문제 때문에 hold된 lot이 뭐였죠?"}),
        (20, "ETC-12A", {"keyword": "선우재희 선배 장비 번호 뭐예요?", "paraphrase": "제가 대신 맡아 주는 선임 설비 ID가 뭐죠?", "endings": "선우재희 선배는 장비가 뭐예요?"}),
        (22, "5083", {"keyword": "parts 창고 내선 몇 번이에요?", "paraphrase": "부품 받으러 갈 때 미리 전화하는 사내 번호 알려줘요", "endings": "parts 창고는 내선이 뭐예요?"}),
        (24, "4월 8일", {"keyword": "고객사 audit 언제예요?", "paraphrase": "외부 회사가 우리 라인 점검하러 오는 날이 며칠이죠?", "endings": "고객사에서 audit 오는 날이 언제예요?"}),
    ],
    [
        ("창고 내선 몇 번이었죠?", 22, 8),
        ("hold 걸어 둔 lot 뭐였죠?", 18, 16),
        ("audit 날짜 며칠이에요?", 24, 6),
        ("선배 장비 ID 뭐였죠?", 20, 2),
    ],
    [
        "좋은 아침이요, 오늘도 화이팅",
        "감사해요, 큰 도움 됐어요",
        "ㅋㅋㅋ 인정이요",
        "Notion에서 표 만드는 법 알려줘요",
        "저 이번에 고양이 입양했어요",
        "팀장님 승진 축하 메시지 써 줄래요?",
        "왜 가을 하늘은 더 높아 보여요?",
        "왜 매운 걸 먹으면 땀이 나요?",
        "태양계에서 가장 큰 행성이 뭐예요?",
        "요즘 들을 만한 podcast 추천해 줘요",
    ],
)


# --- 4. Code-heavy: a C#/.NET developer on a warehouse picking service, with shell, file, grep and test tools -----

_CODE_TURNS = [
    Turn("Hi, I'm Zofia. I work on PickWave, the warehouse picking service at Larchfield Foods: ASP.NET Core on .NET 8 with EF Core and SQL Server. Can you look around the repo?", "One solution with the projects under src and the tests under tests, a pinned SDK in global.json, shared build settings in Directory.Build.props and a compose file for the local services.", "run_shell", '{"cmd": "ls"}', "Directory.Build.props\nPickWave.sln\nREADME.md\ndocker-compose.yml\nglobal.json\nsrc\ntests"),
    Turn("Local SQL Server runs in Docker on port 14331, because 1433 is already taken by the one the old ERP client installs.", "Noted. Put it in your user secrets as the connection string's server part (host, then a comma, then the port), so it never lands in a committed appsettings file."),
    Turn("Are the compose services up?", "All three containers are running and SQL Server reports healthy; the Service Bus emulator and Seq have no health check, so they only show as up.", "run_shell", '{"cmd": "docker compose ps --format \\"{{.Name}} {{.Status}}\\""}', "pickwave-sqlserver-1 Up 3 hours (healthy)\npickwave-servicebus-1 Up 3 hours\npickwave-seq-1 Up 3 hours"),
    Turn("The API listens on https://localhost:7261 when I run it from the command line.", "Got it. If the browser complains about the certificate, `dotnet dev-certs https --trust` sorts it out once per machine."),
    Turn("Run the unit tests.", "All 287 unit tests pass.", "run_tests", '{"cmd": "dotnet test tests/PickWave.UnitTests"}', "  Determining projects to restore...\n  All projects are up-to-date for restore.\n  PickWave.UnitTests -> tests/PickWave.UnitTests/bin/Debug/net8.0/PickWave.UnitTests.dll\nTest run for PickWave.UnitTests.dll (.NETCoreApp,Version=v8.0)\n\nPassed!  - Failed:     0, Passed:   287, Skipped:     0, Total:   287, Duration: 3 s - PickWave.UnitTests.dll (net8.0)"),
    Turn("I'm on branch feature/wave-batching.", "Noted. Push it early so the pipeline runs the migration check on it as well."),
    Turn("What's on my branch so far?", "A new WaveBatcher with its tests, an EF migration for a batch table and a small change to the pick-list endpoint; about 300 lines.", "run_shell", '{"cmd": "git diff --stat main"}', " src/PickWave.Api/Endpoints/PickLists.cs          |  19 ++-\n src/PickWave.Domain/Waves/WaveBatcher.cs         | 134 +++++++++++++\n src/PickWave.Infrastructure/Migrations/20240702_AddBatches.cs |  41 ++++\n tests/PickWave.UnitTests/Waves/WaveBatcherTests.cs | 108 +++++++++++\n 4 files changed, 296 insertions(+), 6 deletions(-)"),
    Turn("global.json pins the SDK to 8.0.303, so everyone builds with the same compiler.", "Good. Set rollForward to latestPatch in it as well, so a machine with a newer patch of the same band still builds."),
    Turn("What happens if someone has a newer SDK installed than the pinned one?", "It depends on rollForward: with latestPatch a newer patch in the same feature band is used, with latestFeature or latestMinor a newer band is allowed, and with disable only the exact version builds. Without a matching SDK, `dotnet build` stops with an error naming the version it wanted."),
    Turn("Pick confirmations go out on the Service Bus queue pick-confirmed-v2.", "Noted. Turn on duplicate detection for it, so a retried send doesn't confirm the same pick twice."),
    Turn("Where do we send to Service Bus?", "Two senders: pick confirmations from the pick-list endpoint and stock adjustments from the cycle-count handler, both through a small publisher that takes the queue name from configuration.", "grep", '{"pattern": "SendMessageAsync", "path": "src"}', "src/PickWave.Infrastructure/Messaging/BusPublisher.cs:38:        await sender.SendMessageAsync(message, ct);\nsrc/PickWave.Api/Endpoints/PickLists.cs:77:        await publisher.PublishAsync(Queues.PickConfirmations, confirmation, ct);\nsrc/PickWave.Api/Handlers/CycleCountHandler.cs:52:        await publisher.PublishAsync(Queues.StockAdjustments, adjustment, ct);"),
    Turn("Stock adjustments from the cycle counts go on a different queue, stock-adjust-v1.", "Got it. Keep its dead-letter queue watched; a bad adjustment there means the stock figures drift silently."),
    Turn("How do I stop one bad message from blocking a Service Bus queue?", "Set MaxDeliveryCount on the queue (ten is the default): after that many failed attempts the message moves to the dead-letter queue and the rest flow again. In the handler, dead-letter messages you know can never succeed straight away with a reason, instead of throwing."),
    Turn("The bug where pickers get sent to an empty bin is WMS-2093.", "Noted. That usually means the bin choice reads stock that's already been reserved by another pick."),
    Turn("Where do we choose the next bin for a picker?", "The router asks the stock query for bins with quantity on hand, but it doesn't subtract reservations, which fits the empty-bin bug.", "grep", '{"pattern": "NextBin", "path": "src"}', "src/PickWave.Domain/Routing/PickRouter.cs:44:    public Bin NextBin(PickLine line, Location from)\nsrc/PickWave.Domain/Routing/PickRouter.cs:47:        var candidates = _stock.BinsWithQuantity(line.Sku).Where(b => b.OnHand > 0);\nsrc/PickWave.Api/Endpoints/PickLists.cs:58:            var bin = router.NextBin(line, current);"),
    Turn("The bug where weights show in pounds on the German handhelds is WMS-2114.", "Got it. Check whether the unit comes from the site's settings or from the device's culture."),
    Turn("Run the tests for the unit conversion.", "One failure: a Hamburg site formats a 12.5 kg case as pounds, which matches the handheld bug.", "run_tests", '{"cmd": "dotnet test tests/PickWave.UnitTests --filter FullyQualifiedName~Units"}', "  Failed PickWave.UnitTests.Units.WeightFormatterTests.Metric_site_shows_kilograms [12 ms]\n  Error Message:\n   Assert.Equal() Failure: Strings differ\n   Expected: \"12.5 kg\"\n   Actual:   \"27.6 lb\"\n\nFailed!  - Failed:     1, Passed:    17, Skipped:     0, Total:    18, Duration: 61 ms - PickWave.UnitTests.dll (net8.0)"),
    Turn("Emeka is working on the bin-lock deadlock on fix/bin-lock-ordering.", "Noted. If he changes the lock order, rebase onto his work before you touch the reservation code."),
    Turn("Show me how we take the bin lock.", "Each reservation locks its bins one at a time in the order of the pick lines, so two pick lists touching the same bins in a different order can deadlock; sorting the bin ids first would fix that.", "read_file", '{"path": "src/PickWave.Infrastructure/Stock/BinLocks.cs", "lines": "20-34"}', "public async Task LockAsync(IEnumerable<int> binIds, CancellationToken ct)\n{\n    foreach (var id in binIds)\n    {\n        await _db.Database.ExecuteSqlInterpolatedAsync(\n            $\"SELECT Id FROM Bins WITH (UPDLOCK, ROWLOCK) WHERE Id = {id}\", ct);\n    }\n}"),
    Turn("The SQL connection string lives in Key Vault under the secret name pickwave-sql-conn.", "Got it. Give the app's managed identity only get and list on secrets, nothing more."),
    Turn("How do I read a Key Vault secret from an ASP.NET Core app without putting credentials in config?", "Add the Azure.Extensions.AspNetCore.Configuration.Secrets package and call `builder.Configuration.AddAzureKeyVault(new Uri(vaultUri), new DefaultAzureCredential())`. In Azure the managed identity signs in; on your machine DefaultAzureCredential uses your Azure CLI login."),
    Turn("The new batching is behind the feature flag PickWave.SmartBatching.", "Noted. Default it to off in every environment until the warehouse team has tried it on one shift."),
    Turn("Where do we check feature flags?", "In two places: the pick-list endpoint decides whether to batch, and the router decides whether to skip zones, both through IFeatureManager.", "grep", '{"pattern": "IsEnabledAsync", "path": "src"}', "src/PickWave.Api/Endpoints/PickLists.cs:31:        if (await features.IsEnabledAsync(Flags.Batching))\nsrc/PickWave.Domain/Routing/PickRouter.cs:29:        _skipZones = features.IsEnabledAsync(Flags.Zones).GetAwaiter().GetResult();"),
    Turn("Zone skipping for the chilled aisles is behind another flag, PickWave.ZoneSkipping.", "Got it. Note the router reads that one with GetResult in its constructor; making it async would be safer."),
    Turn("Run the whole test suite.", "One failure, the unit conversion test you already know about; the integration tests against SQL Server all pass.", "run_tests", '{"cmd": "dotnet test"}', "Passed!  - Failed:     0, Passed:    96, Skipped:     2, Total:    98, Duration: 41 s - PickWave.IntegrationTests.dll (net8.0)\nFailed!  - Failed:     1, Passed:   286, Skipped:     0, Total:   287, Duration: 3 s - PickWave.UnitTests.dll (net8.0)"),
    Turn("Bigger question. Pickers walk the whole warehouse for every order today. I want to group orders into waves so one walk picks for several orders, but the chilled and frozen aisles must be picked last so nothing warms up, some customers have a cut-off for the next lorry, and the pick carts hold at most six totes. The orders keep arriving all day, and the supervisors want to override a wave by hand when a lorry is late. How would you design the batching so it's fair, predictable and doesn't need a rewrite when a new constraint comes along?", "Treat it as a small pipeline. Every few minutes take the open orders, sort them by lorry cut-off, then fill waves greedily up to the cart's six totes, preferring orders whose bins overlap with the wave's so far. Keep each constraint as its own small rule object (cut-off, cart size, temperature order) that either accepts an order into a wave or says why not, so a new constraint is one more rule. Order the walk inside a wave by zone, with chilled and frozen zones last. Store waves as rows with a status, so a supervisor's override is just an edit that the batcher respects, and record why each order went where, which makes the result explainable when someone asks."),
    Turn("What's the difference between IQueryable and IEnumerable in EF Core?", "An IQueryable builds an expression that EF turns into SQL, so filters run in the database; once you have an IEnumerable, the rest happens in memory. Calling AsEnumerable or ToList too early pulls every row across."),
    Turn("Which migrations have been applied?", "All but the batch table from your branch, which is still pending.", "run_shell", '{"cmd": "dotnet ef migrations list --project src/PickWave.Infrastructure"}', "Build started...\nBuild succeeded.\n20240214_Initial\n20240403_AddReservations\n20240528_AddZoneTemperature\n20240702_AddBatches (Pending)"),
    Turn("Write a commit message for the unit fix.", "\"units: take the weight unit from the site's settings instead of the handheld's culture, so metric sites always show kilograms\"."),
    Turn("How do I log structured data with Serilog?", "Use message templates with named holes: `log.Information(\"Picked {Quantity} of {Sku} from {Bin}\", qty, sku, bin)`. Each hole becomes a property you can search in Seq, which plain string interpolation would lose."),
    Turn("Find the TODOs in src.", "Three TODOs: retrying failed publishes, paging the pick-list query and caching the zone map.", "grep", '{"pattern": "TODO", "path": "src"}', "src/PickWave.Infrastructure/Messaging/BusPublisher.cs:41:        // TODO retry transient failures with backoff\nsrc/PickWave.Api/Endpoints/PickLists.cs:22:    // TODO page instead of returning every open pick list\nsrc/PickWave.Domain/Routing/ZoneMap.cs:9:// TODO cache the zone map per site for a few minutes"),
    Turn("What's the difference between a record and a class in C#?", "A record compares by value and gives you ToString, equality and `with` copies for free, which suits immutable data like messages. A class compares by reference and is the usual choice for things with identity and behaviour."),
    Turn("Show me Program.cs.", "Standard minimal hosting: EF Core with SQL Server, Service Bus, feature management and Serilog, with the endpoints mapped at the end.", "read_file", '{"path": "src/PickWave.Api/Program.cs", "lines": "1-16"}', "var builder = WebApplication.CreateBuilder(args);\nbuilder.Host.UseSerilog((ctx, cfg) => cfg.ReadFrom.Configuration(ctx.Configuration));\nbuilder.Services.AddDbContext<PickDb>(o => o.UseSqlServer(builder.Configuration.GetConnectionString(\"Pick\")));\nbuilder.Services.AddSingleton(new ServiceBusClient(builder.Configuration[\"Bus:Connection\"]));\nbuilder.Services.AddFeatureManagement();\nbuilder.Services.AddScoped<PickRouter>();\nbuilder.Services.AddScoped<WaveBatcher>();\n\nvar app = builder.Build();\napp.UseSerilogRequestLogging();\napp.MapPickLists();\napp.MapCycleCounts();\napp.Run();"),
    Turn("How do I make an HttpClient retry on transient errors?", "With .NET 8, add Microsoft.Extensions.Http.Resilience and call `.AddStandardResilienceHandler()` on the typed client; it brings retries with backoff, a circuit breaker and timeouts. For custom rules, build a pipeline with Polly's retry strategy."),
    Turn("Check formatting before I push.", "Two files need whitespace fixes; `dotnet format` without the flag would fix both.", "run_shell", '{"cmd": "dotnet format --verify-no-changes"}', "src/PickWave.Domain/Waves/WaveBatcher.cs(57,1): error WHITESPACE: Fix whitespace formatting. Replace 9 characters with '\\n\\s\\s\\s\\s\\s\\s\\s\\s'.\nsrc/PickWave.Api/Endpoints/PickLists.cs(19,44): error WHITESPACE: Fix whitespace formatting. Delete 1 characters."),
    Turn("Suggest a name for a class that plans the walking order inside a wave.", "`WalkPlanner` or `PickPathPlanner` both say what it does; I'd pick `PickPathPlanner` next to `PickRouter`."),
    Turn("How much space are the bin and obj folders taking?", "About 2.3 GB across the projects, mostly the test projects' Debug output; `dotnet clean` or deleting them is safe.", "run_shell", '{"cmd": "du -sch */*/bin */*/obj | tail -n 1"}', "2.3G\ttotal"),
    Turn("Why could async code deadlock in old ASP.NET but not in ASP.NET Core?", "Old ASP.NET had a synchronization context that let only one thread run a request's code at a time, so blocking on a task with .Result while its continuation waited for that context deadlocked. ASP.NET Core has no such context, though blocking still wastes threads."),
    Turn("I took the unit from the site settings now. Rerun the conversion tests.", "All 18 conversion tests pass now.", "run_tests", '{"cmd": "dotnet test tests/PickWave.UnitTests --filter FullyQualifiedName~Units"}', "Passed!  - Failed:     0, Passed:    18, Skipped:     0, Total:    18, Duration: 58 ms - PickWave.UnitTests.dll (net8.0)"),
    Turn("How do I undo a commit that's already been pushed?", "Use `git revert <sha>`: it adds a new commit that undoes the old one, so nobody's history is rewritten. Only reset and force-push on a branch nobody else has pulled."),
    Turn("Show me the last few commits.", "Your three batching commits on top of the zone temperature work from main.", "run_shell", '{"cmd": "git log --oneline -5"}', "a41c9e2 waves: fill waves up to the cart's tote limit\n7d03b18 waves: sort open orders by lorry cut-off\n2f6e551 migrations: add the batch table\n9bc1a07 zones: store each zone's temperature class\n58e2d4f routing: pass the site into the router"),
    Turn("Give me a checklist for reviewing a database migration.", "Does it lock a big table for long, is it reversible or is there a plan if not, are new columns nullable or given defaults, are indexes created online where needed, and has it been run against a copy of production-sized data?"),
    Turn("What's the difference between AsNoTracking and a normal query in EF Core?", "A normal query registers every entity with the change tracker so SaveChanges can write edits back; AsNoTracking skips that, which is faster and lighter for read-only queries."),
    Turn("Recommend a good book on domain-driven design.", "Eric Evans' 'Domain-Driven Design' is the original but dense; Vaughn Vernon's 'Domain-Driven Design Distilled' is a short, practical way in."),
]

CODE = _build(
    "code",
    "en",
    _CODE_TURNS,
    [
        (2, "14331", {"keyword": "What port is local SQL Server on?", "paraphrase": "Remind me where the database container listens on my laptop."}),
        (4, "7261", {"keyword": "Which localhost port does the API use?", "paraphrase": "Where do I send requests when I'm trying the endpoints on my machine?"}),
        (6, "feature/wave-batching", {"keyword": "Remind me which branch I'm on.", "paraphrase": "Where in git does my grouping-orders work live?"}),
        (8, "8.0.303", {"keyword": "Which SDK version does global.json pin?", "paraphrase": "Which release of the dotnet tooling are we locked to?"}),
        (10, "pick-confirmed-v2", {"keyword": "Which queue do pick confirmations go on?", "paraphrase": "Where do we publish the message saying an item was taken off the shelf?"}),
        (12, "stock-adjust-v1", {"keyword": "Which queue do stock adjustments go on?", "paraphrase": "Where do inventory corrections after an audit of the racks get sent?"}),
        (14, "WMS-2093", {"keyword": "What's the ticket for the empty bin bug?", "paraphrase": "Which issue covers staff being routed to a location with nothing in it?"}),
        (16, "WMS-2114", {"keyword": "What's the ticket for weights in pounds?", "paraphrase": "Which issue is about the devices at the Hamburg depot displaying imperial units?"}),
        (18, "fix/bin-lock-ordering", {"keyword": "What's Emeka's branch?", "paraphrase": "Where's my colleague's patch for the two transactions waiting on each other?"}),
        (20, "pickwave-sql-conn", {"keyword": "What's the Key Vault secret for the SQL connection string?", "paraphrase": "What's the entry called in our Azure credential store that tells the app how to reach the database?"}),
        (22, "PickWave.SmartBatching", {"keyword": "What's the feature flag for the new batching?", "paraphrase": "Which toggle turns on grouping orders together?"}),
        (24, "PickWave.ZoneSkipping", {"keyword": "What's the flag for zone skipping?", "paraphrase": "Which toggle lets staff bypass the refrigerated section?"}),
    ],
    [
        ("Which port does the web API use?", 4, 2),
        ("Which queue do the cycle counts go to?", 12, 10),
        ("What's the ticket for the German handhelds?", 16, 14),
        ("What's the flag for the chilled aisles?", 24, 22),
    ],
    [
        "hey, back from my coffee",
        "cheers, that did the trick",
        "How do I make a CSS grid with three equal columns?",
        "I'm adopting a rescue greyhound next week.",
        "Write a short poem about rain on a tin roof.",
        "Why do cats sleep so much?",
        "Why does the moon look bigger near the horizon?",
        "Who painted The Night Watch?",
        "haha nice",
        "Can you suggest a good standing desk?",
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
