// Written by scripts/embed-catalog from seed/catalog.json: edit that file and run the script.

extension CatalogFile {
    /// The demo catalog, `seed/catalog.json` as it was when the binary was built, so `seed` and
    /// `demo` work from any directory.
    package static let demoJSON = #"""
{
  "sellers": [
    {
      "key": "s01",
      "email": "keycat.official@example.com",
      "nick": "키캣공식스토어",
      "business_number": "1208156302",
      "representative": "김하늘",
      "opened_on": "2019-03-12"
    },
    {
      "key": "s02",
      "email": "tajeon.shop@example.com",
      "nick": "타건샵",
      "business_number": "2148643408",
      "representative": "박준호",
      "opened_on": "2017-08-01"
    },
    {
      "key": "s03",
      "email": "switchlab@example.com",
      "nick": "스위치연구소",
      "business_number": "1051225541",
      "representative": "이서윤",
      "opened_on": "2020-11-23"
    },
    {
      "key": "s04",
      "email": "usedkeys.market@example.com",
      "nick": "중고키보드장터",
      "business_number": "6172560890",
      "representative": "정민재",
      "opened_on": "2018-05-09"
    },
    {
      "key": "s05",
      "email": "gb.house@example.com",
      "nick": "공구하우스",
      "business_number": "1108761421",
      "representative": "최유진",
      "opened_on": "2021-02-17"
    },
    {
      "key": "s06",
      "email": "keycap.atelier@example.com",
      "nick": "키캡공방",
      "business_number": "1314755838",
      "representative": "한지우",
      "opened_on": "2019-09-30"
    },
    {
      "key": "s07",
      "email": "lube.master@example.com",
      "nick": "윤활장인",
      "business_number": "4093303804",
      "representative": "오태현",
      "opened_on": "2020-04-04"
    },
    {
      "key": "s08",
      "email": "desk.setup@example.com",
      "nick": "데스크셋업",
      "business_number": "2208138943",
      "representative": "윤서진",
      "opened_on": "2016-12-01"
    },
    {
      "key": "s09",
      "email": "retrocaps@example.com",
      "nick": "레트로키캡",
      "business_number": "3015850855",
      "representative": "강도윤",
      "opened_on": "2022-01-20"
    },
    {
      "key": "s10",
      "email": "ec.market@example.com",
      "nick": "무접점마켓",
      "business_number": "1388698365",
      "representative": "신예린",
      "opened_on": "2018-10-15"
    },
    {
      "key": "s11",
      "email": "alu.boards@example.com",
      "nick": "알루보드웍스",
      "business_number": "1248821352",
      "representative": "장현우",
      "opened_on": "2021-07-07"
    },
    {
      "key": "s12",
      "email": "taguenlog@example.com",
      "nick": "타건로그",
      "business_number": "5060709186",
      "representative": "임수아",
      "opened_on": "2023-03-02"
    }
  ],
  "products": [
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "오피스 K200 유선 멤브레인 키보드 (한글 각인)",
      "content": "사무실 기본용 풀배열 멤브레인 키보드입니다. 생활방수 설계와 한/영 각인, 높이 조절 받침대를 갖췄습니다. USB 연결만 하면 바로 사용 가능합니다.",
      "regular_price": 19000,
      "price": 15200,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 12,
      "spec": {
        "input": "membrane",
        "connection": "wired",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "멤브레인",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "오피스 K200 무선 멤브레인 키보드 마우스 세트",
      "content": "2.4GHz 수신기 하나로 키보드와 마우스를 함께 연결하는 세트입니다. AA 건전지로 약 12개월 사용할 수 있어 사무실 대량 구매용으로 좋습니다.",
      "regular_price": 29000,
      "price": 25900,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 50,
      "spec": {
        "input": "membrane",
        "connection": "wireless",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "멤브레인",
        "무선",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 베이직 게이밍 멤브레인 키보드 RGB",
      "content": "입문용 게이밍 멤브레인 키보드입니다. 7가지 RGB 효과, 19키 동시입력, 멀티미디어 키를 지원합니다. 키감은 가볍고 소음이 적습니다.",
      "regular_price": 35000,
      "price": 31000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 300,
      "spec": {
        "input": "membrane",
        "connection": "wired",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "멤브레인",
        "풀배열",
        "게이밍",
        "RGB"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "슬림 팬타그래프 키보드 SL100 화이트",
      "content": "노트북 같은 얕은 키감의 팬타그래프 키보드입니다. 두께 16mm로 책상이 깔끔해지고 타건음이 조용합니다.",
      "regular_price": 25000,
      "price": 25000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {
        "input": "scissor",
        "connection": "wired",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "팬타그래프",
        "풀배열"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "멀티페어링 블루투스 팬타그래프 키보드 BT300",
      "content": "블루투스 기기 3대를 버튼 하나로 전환합니다. 윈도우·맥·iPadOS 자판 전환 지원, USB-C 충전식으로 한 번 충전에 약 두 달 사용합니다.",
      "regular_price": 39000,
      "price": 36000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 40,
      "spec": {
        "input": "scissor",
        "connection": "bluetooth",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "팬타그래프",
        "무선",
        "블루투스",
        "텐키리스"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "접이식 휴대용 블루투스 키보드 (태블릿 거치대 포함)",
      "content": "반으로 접어 파우치에 넣는 휴대용 키보드입니다. 태블릿 거치대를 동봉했고 카페나 출장지에서 간단한 문서 작업에 알맞습니다.",
      "regular_price": 32000,
      "price": 32000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 12,
      "spec": {
        "input": "scissor",
        "connection": "bluetooth",
        "layout": "other",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "팬타그래프",
        "무선",
        "블루투스"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 사일런트 멤브레인 키보드 텐키리스",
      "content": "숫자패드를 뺀 텐키리스 크기의 조용한 멤브레인 키보드입니다. 마우스 공간이 넓어지고 도서관, 독서실에서도 쓸 수 있는 타건음입니다.",
      "regular_price": 24000,
      "price": 24000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {
        "input": "membrane",
        "connection": "wired",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "멤브레인",
        "저소음",
        "텐키리스"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "멀티 무선 멤브레인 키보드 MK420 (블루투스+2.4G)",
      "content": "블루투스와 2.4GHz 수신기를 모두 지원하는 풀배열 멤브레인 키보드입니다. 흰색 백라이트 3단계 조절과 충전식 배터리를 탑재했습니다.",
      "regular_price": 45000,
      "price": 37900,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {
        "input": "membrane",
        "connection": "multi",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "멤브레인",
        "무선",
        "블루투스",
        "풀배열"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "미니 숫자 키패드 KP19 유선",
      "content": "텐키리스 키보드와 함께 쓰기 좋은 19키 숫자 키패드입니다. 회계·엑셀 작업용으로 인기가 많고 케이블 길이는 1.5m입니다.",
      "regular_price": 19000,
      "price": 16200,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {
        "input": "membrane",
        "connection": "wired",
        "layout": "other",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "멤브레인"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣87 유선 기계식 키보드 (적축)",
      "content": "87키 텐키리스 입문용 기계식 키보드입니다. 5핀 핫스왑 기판으로 스위치 교체가 쉽고, PBT 이중사출 키캡을 기본 장착했습니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 3000,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "tkl",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "적축",
        "텐키리스",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣87 유선 기계식 키보드 (갈축)",
      "content": "87키 텐키리스 입문용 기계식 키보드입니다. 5핀 핫스왑 기판으로 스위치 교체가 쉽고, PBT 이중사출 키캡을 기본 장착했습니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "tkl",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "텐키리스",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣87 유선 기계식 키보드 (청축)",
      "content": "87키 텐키리스 입문용 기계식 키보드입니다. 5핀 핫스왑 기판으로 스위치 교체가 쉽고, PBT 이중사출 키캡을 기본 장착했습니다. 장착 스위치: 청축 — 찰칵거리는 클릭음이 선명한 클릭 축.",
      "regular_price": 69000,
      "price": 61900,
      "coupon_price": 2000,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "clicky",
        "layout": "tkl",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "청축",
        "텐키리스",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣98 유무선 기계식 키보드 (저소음 바다축)",
      "content": "숫자패드를 살린 98배열 3모드(유선·블루투스·2.4GHz) 키보드입니다. 가스켓 마운트와 4중 흡음재로 통울림을 잡았고 배터리는 4000mAh입니다. 장착 스위치: 저소음 바다축 — 저소음 댐퍼가 들어간 리니어 축으로 사무실에서도 부담 없는 타건음.",
      "regular_price": 124000,
      "price": 108900,
      "coupon_price": 2000,
      "discount_days": 5,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣98 유무선 기계식 키보드 (크림 리니어)",
      "content": "숫자패드를 살린 98배열 3모드(유선·블루투스·2.4GHz) 키보드입니다. 가스켓 마운트와 4중 흡음재로 통울림을 잡았고 배터리는 4000mAh입니다. 장착 스위치: 크림 리니어 — 부드럽게 떨어지는 45g 리니어로 보글보글한 타건감.",
      "regular_price": 119000,
      "price": 108900,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣98 유무선 기계식 키보드 (피치 택타일)",
      "content": "숫자패드를 살린 98배열 3모드(유선·블루투스·2.4GHz) 키보드입니다. 가스켓 마운트와 4중 흡음재로 통울림을 잡았고 배터리는 4000mAh입니다. 장착 스위치: 피치 택타일 — 초반에 또렷한 걸림이 오는 택타일 축.",
      "regular_price": 119000,
      "price": 119000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "택타일",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Felt F99 유무선 기계식 키보드 (저소음 바다축)",
      "content": "작은 면적에 방향키와 숫자패드를 모두 담은 99키 배열입니다. 볼륨 노브, 가스켓 구조, PBT 염료승화 키캡 구성으로 가성비가 좋습니다. 장착 스위치: 저소음 바다축 — 저소음 댐퍼가 들어간 리니어 축으로 사무실에서도 부담 없는 타건음.",
      "regular_price": 134000,
      "price": 106900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Felt F99 유무선 기계식 키보드 (밀키 옐로우)",
      "content": "작은 면적에 방향키와 숫자패드를 모두 담은 99키 배열입니다. 볼륨 노브, 가스켓 구조, PBT 염료승화 키캡 구성으로 가성비가 좋습니다. 장착 스위치: 밀키 옐로우 — 공장 윤활된 노란 리니어 축으로 서걱임이 적음.",
      "regular_price": 129000,
      "price": 114000,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Felt F99 유무선 기계식 키보드 (갈축)",
      "content": "작은 면적에 방향키와 숫자패드를 모두 담은 99키 배열입니다. 볼륨 노브, 가스켓 구조, PBT 염료승화 키캡 구성으로 가성비가 좋습니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 129000,
      "price": 123000,
      "coupon_price": 0,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 25,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "바람 B75 Pro 3모드 가스켓 키보드 (크림 리니어)",
      "content": "75% 배열에 로터리 노브를 단 3모드 키보드입니다. 폴리카보네이트 보강판과 소프트 가스켓으로 부드러운 타건감을 냅니다. 장착 스위치: 크림 리니어 — 부드럽게 떨어지는 45g 리니어로 보글보글한 타건감.",
      "regular_price": 149000,
      "price": 126900,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 25,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "75배열",
        "핫스왑",
        "가스켓"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "바람 B75 Pro 3모드 가스켓 키보드 (저소음 라벤더)",
      "content": "75% 배열에 로터리 노브를 단 3모드 키보드입니다. 폴리카보네이트 보강판과 소프트 가스켓으로 부드러운 타건감을 냅니다. 장착 스위치: 저소음 라벤더 — 바닥과 상단 모두 소음을 줄인 저소음 리니어.",
      "regular_price": 154000,
      "price": 135900,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "75배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "바람 B75 Pro 3모드 가스켓 키보드 (피치 택타일)",
      "content": "75% 배열에 로터리 노브를 단 3모드 키보드입니다. 폴리카보네이트 보강판과 소프트 가스켓으로 부드러운 타건감을 냅니다. 장착 스위치: 피치 택타일 — 초반에 또렷한 걸림이 오는 택타일 축.",
      "regular_price": 149000,
      "price": 141900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 150,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "택타일",
        "무선",
        "75배열",
        "핫스왑",
        "가스켓"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Nori N65 알루미늄 핫스왑 키보드 (밀키 옐로우)",
      "content": "CNC 가공 알루미늄 하우징의 65% 유선 키보드입니다. 무게 1.6kg으로 책상 위에서 밀리지 않고, 황동 웨이트가 묵직한 타건음을 만듭니다. 장착 스위치: 밀키 옐로우 — 공장 윤활된 노란 리니어 축으로 서걱임이 적음.",
      "regular_price": 179000,
      "price": 142900,
      "coupon_price": 0,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "65배열",
        "핫스왑",
        "알루미늄"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Nori N65 알루미늄 핫스왑 키보드 (갈축)",
      "content": "CNC 가공 알루미늄 하우징의 65% 유선 키보드입니다. 무게 1.6kg으로 책상 위에서 밀리지 않고, 황동 웨이트가 묵직한 타건음을 만듭니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 179000,
      "price": 179000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "65배열",
        "핫스왑",
        "알루미늄"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Hanul H61 미니 블루투스 키보드 (적축)",
      "content": "휴대하기 좋은 60% 미니 배열 블루투스 키보드입니다. 기기 3대 페어링, Fn 레이어로 방향키를 사용합니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 3000,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "connection": "bluetooth",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "60_percent",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "기계식키보드",
        "적축",
        "무선",
        "블루투스",
        "미니배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Hanul H61 미니 블루투스 키보드 (갈축)",
      "content": "휴대하기 좋은 60% 미니 배열 블루투스 키보드입니다. 기기 3대 페어링, Fn 레이어로 방향키를 사용합니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 79000,
      "price": 75000,
      "coupon_price": 2000,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "connection": "bluetooth",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "60_percent",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "무선",
        "블루투스",
        "미니배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "타건 T104 사무용 기계식 키보드 (갈축)",
      "content": "숫자패드가 있는 풀배열 사무용 기계식 키보드입니다. 군더더기 없는 디자인과 튼튼한 ABS 하우징, 한글 각인 키캡을 갖췄습니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 89000,
      "price": 89000,
      "coupon_price": 1000,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "tactile",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "타건 T104 사무용 기계식 키보드 (적축)",
      "content": "숫자패드가 있는 풀배열 사무용 기계식 키보드입니다. 군더더기 없는 디자인과 튼튼한 ABS 하우징, 한글 각인 키캡을 갖췄습니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 89000,
      "price": 76000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "linear",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "기계식키보드",
        "적축",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "타건 T104 사무용 기계식 키보드 (청축)",
      "content": "숫자패드가 있는 풀배열 사무용 기계식 키보드입니다. 군더더기 없는 디자인과 튼튼한 ABS 하우징, 한글 각인 키캡을 갖췄습니다. 장착 스위치: 청축 — 찰칵거리는 클릭음이 선명한 클릭 축.",
      "regular_price": 89000,
      "price": 82000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "clicky",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "기계식키보드",
        "청축",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣68 RGB 무선 키보드 (저소음 바다축)",
      "content": "2.4GHz 전용 동글로 지연시간을 줄인 68키 무선 키보드입니다. 남쪽 방향 RGB LED와 체리 프로파일 키캡으로 키캡 교체 호환성이 좋습니다. 장착 스위치: 저소음 바다축 — 저소음 댐퍼가 들어간 리니어 축으로 사무실에서도 부담 없는 타건음.",
      "regular_price": 104000,
      "price": 104000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "connection": "wireless",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "65배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣68 RGB 무선 키보드 (적축)",
      "content": "2.4GHz 전용 동글로 지연시간을 줄인 68키 무선 키보드입니다. 남쪽 방향 RGB LED와 체리 프로파일 키캡으로 키캡 교체 호환성이 좋습니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 99000,
      "price": 99000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "connection": "wireless",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "적축",
        "무선",
        "65배열",
        "핫스왑",
        "RGB"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "오로라 A87 화이트 기계식 키보드 (적축)",
      "content": "화이트 하우징과 파스텔 백라이트가 어울리는 텐키리스 키보드입니다. 데스크 셋업용으로 인기가 많은 디자인입니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 75000,
      "price": 64000,
      "coupon_price": 0,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 120,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "linear",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "적축",
        "텐키리스"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "keyboard",
      "title": "오로라 A87 화이트 기계식 키보드 (화이트 클릭)",
      "content": "화이트 하우징과 파스텔 백라이트가 어울리는 텐키리스 키보드입니다. 데스크 셋업용으로 인기가 많은 디자인입니다. 장착 스위치: 화이트 클릭 — 청축보다 가볍고 맑은 클릭음.",
      "regular_price": 75000,
      "price": 75000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 12,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "clicky",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "클릭",
        "텐키리스"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Orbit O80 게이밍 광축 키보드 (옵티컬 레드)",
      "content": "빛으로 입력을 감지하는 광축 텐키리스 게이밍 키보드입니다. 채터링이 없고 8000Hz 폴링레이트를 지원합니다. 레드는 가벼운 리니어, 블루는 클릭감이 있는 광축입니다.",
      "regular_price": 139000,
      "price": 131900,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 0,
      "spec": {
        "input": "optical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "광축",
        "리니어",
        "텐키리스",
        "핫스왑",
        "게이밍"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Orbit O80 게이밍 광축 키보드 (옵티컬 블루)",
      "content": "빛으로 입력을 감지하는 광축 텐키리스 게이밍 키보드입니다. 채터링이 없고 8000Hz 폴링레이트를 지원합니다. 레드는 가벼운 리니어, 블루는 클릭감이 있는 광축입니다.",
      "regular_price": 139000,
      "price": 139000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 12,
      "spec": {
        "input": "optical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "clicky",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "광축",
        "클릭",
        "텐키리스",
        "핫스왑",
        "게이밍"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Felt F75 유무선 기계식 키보드 (저소음 바다축)",
      "content": "F99의 75% 버전입니다. 가스켓 구조와 흡음 폼 5겹 구성으로 조약돌 같은 타건음을 냅니다. 장착 스위치: 저소음 바다축 — 저소음 댐퍼가 들어간 리니어 축으로 사무실에서도 부담 없는 타건음.",
      "regular_price": 114000,
      "price": 90900,
      "coupon_price": 3000,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "75배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Felt F75 유무선 기계식 키보드 (크림 리니어)",
      "content": "F99의 75% 버전입니다. 가스켓 구조와 흡음 폼 5겹 구성으로 조약돌 같은 타건음을 냅니다. 장착 스위치: 크림 리니어 — 부드럽게 떨어지는 45g 리니어로 보글보글한 타건감.",
      "regular_price": 109000,
      "price": 109000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "75배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "바람 B104 풀배열 유무선 키보드 (밀키 옐로우)",
      "content": "풀배열을 포기할 수 없는 분들을 위한 3모드 키보드입니다. 전용 소프트웨어로 매크로와 레이어를 설정할 수 있습니다. 장착 스위치: 밀키 옐로우 — 공장 윤활된 노란 리니어 축으로 서걱임이 적음.",
      "regular_price": 159000,
      "price": 159000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "full_size",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "풀배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keyboard",
      "title": "바람 B104 풀배열 유무선 키보드 (갈축)",
      "content": "풀배열을 포기할 수 없는 분들을 위한 3모드 키보드입니다. 전용 소프트웨어로 매크로와 레이어를 설정할 수 있습니다. 장착 스위치: 갈축 — 가벼운 구분감이 있는 넌클릭 택타일 축.",
      "regular_price": 159000,
      "price": 159000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "full_size",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "갈축",
        "무선",
        "풀배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣60 미니 유선 키보드 (적축)",
      "content": "딱 필요한 키만 남긴 60% 배열 유선 키보드입니다. QMK 호환 펌웨어로 키맵을 자유롭게 바꿀 수 있습니다. 장착 스위치: 적축 — 가볍고 걸림 없는 기본 리니어 축.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 5000,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "60_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "적축",
        "미니배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keyboard",
      "title": "키캣 캣60 미니 유선 키보드 (피치 택타일)",
      "content": "딱 필요한 키만 남긴 60% 배열 유선 키보드입니다. QMK 호환 펌웨어로 키맵을 자유롭게 바꿀 수 있습니다. 장착 스위치: 피치 택타일 — 초반에 또렷한 걸림이 오는 택타일 축.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "60_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "택타일",
        "미니배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Nori N75 풀알루미늄 유무선 키보드 (크림 리니어)",
      "content": "알루미늄 하우징에 3모드를 지원하는 75% 키보드입니다. 가스켓과 FR4 보강판, 스테빌 공장 윤활로 바로 써도 완성도가 높습니다. 장착 스위치: 크림 리니어 — 부드럽게 떨어지는 45g 리니어로 보글보글한 타건감.",
      "regular_price": 199000,
      "price": 159000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "리니어",
        "무선",
        "75배열",
        "핫스왑",
        "알루미늄"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Nori N75 풀알루미늄 유무선 키보드 (저소음 라벤더)",
      "content": "알루미늄 하우징에 3모드를 지원하는 75% 키보드입니다. 가스켓과 FR4 보강판, 스테빌 공장 윤활로 바로 써도 완성도가 높습니다. 장착 스위치: 저소음 라벤더 — 바닥과 상단 모두 소음을 줄인 저소음 리니어.",
      "regular_price": 199000,
      "price": 175000,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "75배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s10",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Hanul 정전용량 무접점 키보드 87 (35g 균등)",
      "content": "러버돔과 스프링, 정전용량 방식을 결합한 무접점 키보드입니다. 35g 균등 키압으로 장시간 타이핑에도 손가락이 편합니다. 스위치는 기판에 고정되어 있습니다.",
      "regular_price": 219000,
      "price": 192900,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "input": "capacitive",
        "connection": "wired",
        "pcb": "soldered",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "무접점",
        "텐키리스"
      ]
    },
    {
      "seller": "s10",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Hanul 정전용량 무접점 키보드 104 (45g 저소음)",
      "content": "풀배열 무접점 키보드입니다. 저소음 처리로 보글보글한 소리 대신 차분한 타건음을 내며 사무실과 재택근무에 잘 어울립니다.",
      "regular_price": 249000,
      "price": 249000,
      "coupon_price": 10000,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 300,
      "spec": {
        "input": "capacitive",
        "connection": "wired",
        "pcb": "soldered",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "무접점",
        "저소음",
        "풀배열"
      ]
    },
    {
      "seller": "s10",
      "kind": "commercial",
      "category": "keyboard",
      "title": "Hanul 무접점 블루투스 키보드 87 (변흡 35g)",
      "content": "유선과 블루투스를 모두 지원하는 무접점 키보드입니다. 키 위치마다 다른 변흡 키압으로 새끼손가락 부담을 줄였습니다.",
      "regular_price": 289000,
      "price": 289000,
      "coupon_price": 5000,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 25,
      "spec": {
        "input": "capacitive",
        "connection": "multi",
        "pcb": "soldered",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "무접점",
        "무선",
        "블루투스",
        "텐키리스"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Aster 65 알루미늄 커스텀 키보드 (가스켓) - 크림 리니어 빌드",
      "content": "6063 알루미늄 CNC 하우징과 포론 가스켓을 사용한 65% 커스텀 보드입니다. 4가지 아노다이징 색상 중 선택, 제작 기간 약 10주 예상입니다. 빌드 옵션: 크림 리니어.",
      "regular_price": 329000,
      "price": 329000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 60,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": false
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "리니어",
        "65배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Tide 75 풀알루미늄 커스텀 키보드 - 피치 택타일 빌드",
      "content": "3모드 무선 지원 75% 커스텀입니다. 상판 분리형 구조와 PVD 황동 웨이트, 폴리카보네이트·FR4 보강판 2종을 동봉합니다. 공구 마감 후 순차 생산합니다. 빌드 옵션: 피치 택타일.",
      "regular_price": 389000,
      "price": 357900,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 5000,
      "delivery_schedule": "standard",
      "stock": 50,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "75_percent",
        "keycap_profile": "mda",
        "backlight": false
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "택타일",
        "무선",
        "75배열"
      ]
    },
    {
      "seller": "s11",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Sora TKL 황동 웨이트 커스텀 키보드 - 갈축 빌드",
      "content": "전통적인 텐키리스 배열의 하이엔드 커스텀입니다. 솔더링 기판으로 다양한 배열을 지원하며 미러 폴리싱 황동 웨이트가 포함됩니다. 빌드 옵션: 갈축.",
      "regular_price": 549000,
      "price": 466900,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 5000,
      "delivery_schedule": "standard",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "tactile",
        "layout": "tkl",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "갈축",
        "텐키리스"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Mellow 60 폴리카보네이트 커스텀 키보드 - 저소음 바다축 빌드",
      "content": "투명 폴리카보네이트 하우징의 60% 커스텀입니다. 개스킷 스트립 마운트로 부드러운 통울림을 내며 RGB 하부 조명이 잘 비칩니다. 빌드 옵션: 저소음 바다축.",
      "regular_price": 259000,
      "price": 259000,
      "coupon_price": 0,
      "delivery_fee": 4000,
      "delivery_schedule": "standard",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "60_percent",
        "keycap_profile": "mda",
        "backlight": true
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "저소음",
        "리니어",
        "미니배열"
      ]
    },
    {
      "seller": "s11",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Hwarang 75 단청 에디션 커스텀 키보드 - 크림 리니어 빌드",
      "content": "단청 문양 레이저 각인 하판을 넣은 한국 디자인 75% 커스텀 키보드입니다. 수량 한정 생산이며 각 제품에 일련번호가 새겨집니다. 빌드 옵션: 크림 리니어.",
      "regular_price": 459000,
      "price": 389900,
      "coupon_price": 0,
      "discount_days": 21,
      "delivery_fee": 5000,
      "delivery_schedule": "standard",
      "stock": 100,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": false
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "리니어",
        "무선",
        "75배열"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Monolith 1800 커스텀 키보드 - 밀키 옐로우 빌드",
      "content": "숫자패드를 포함한 1800 컴팩트 배열 커스텀입니다. 업무용 숫자 입력이 많은 분들을 위한 알루미늄 보드로 탑 마운트 구조입니다. 빌드 옵션: 밀키 옐로우.",
      "regular_price": 429000,
      "price": 378000,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "리니어",
        "핫스왑"
      ]
    },
    {
      "seller": "s11",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Eclipse 65 티타늄 웨이트 에디션 - 저소음 라벤더 빌드",
      "content": "티타늄 웨이트와 세라믹 코팅 하우징을 적용한 한정 에디션입니다. 무선 3모드, 가스켓 마운트, 전용 하드케이스 포함입니다. 빌드 옵션: 저소음 라벤더.",
      "regular_price": 649000,
      "price": 552000,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 100,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "mda",
        "backlight": false
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "저소음",
        "리니어",
        "무선"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keyboard",
      "title": "[공구] Daon TKL 클래식 커스텀 키보드 - 화이트 클릭 빌드",
      "content": "스텝 스컬처 키캡과 잘 어울리는 높은 전면 각도의 TKL 커스텀입니다. 솔더링 기판과 황동 보강판 조합으로 단단한 타건감을 냅니다. 빌드 옵션: 화이트 클릭.",
      "regular_price": 359000,
      "price": 305000,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 5000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "clicky",
        "layout": "tkl",
        "keycap_profile": "mda",
        "backlight": true
      },
      "tags": [
        "공구",
        "커스텀키보드",
        "기계식키보드",
        "클릭",
        "텐키리스"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] 키캣 캣87 갈축 (박스 풀구성, 사용감 적음)",
      "content": "6개월 사용한 제품입니다. 키캡 번들거림 없고 박스, 케이블, 키캡 리무버까지 모두 있습니다. 직거래 없이 택배 발송만 합니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "tkl",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "갈축",
        "텐키리스",
        "핫스왑"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Felt F99 저소음 바다축 화이트",
      "content": "구매 후 한 달 사용했습니다. 스테빌 추가 윤활 작업을 해 두었고 배터리 상태 양호합니다. 박스 모서리 약간 눌림 있습니다.",
      "regular_price": 85000,
      "price": 85000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "other",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "저소음",
        "리니어",
        "무선",
        "핫스왑"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Hanul 무접점 87 35g 균등 (키캡 교체)",
      "content": "순정 키캡은 별도 동봉하고 PBT 키캡으로 교체된 상태입니다. 모든 키 정상 입력 확인, 생활 기스 조금 있습니다.",
      "regular_price": 159000,
      "price": 159000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "capacitive",
        "connection": "wired",
        "pcb": "soldered",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "중고",
        "무접점",
        "텐키리스"
      ]
    },
    {
      "seller": "s12",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Nori N65 알루미늄 밀키 옐로우 (윤활 완료)",
      "content": "스위치 전체 205g0 윤활과 필름 작업을 마쳤습니다. 하우징에 미세한 찍힘 1곳 있으며 사진으로 안내해 드립니다.",
      "regular_price": 129000,
      "price": 129000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "리니어",
        "65배열",
        "핫스왑",
        "알루미늄"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] 타건 T104 청축 사무용 키보드",
      "content": "사무실 이전으로 판매합니다. 1년 사용, 키캡 약간 번들거림 있으나 작동 이상 없습니다. 박스 없이 뽁뽁이 포장 발송합니다.",
      "regular_price": 35000,
      "price": 35000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "soldered",
        "switch_type": "clicky",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "중고",
        "기계식키보드",
        "청축",
        "풀배열",
        "사무용"
      ]
    },
    {
      "seller": "s12",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Aster 65 커스텀 키보드 네이비 (공구 정품)",
      "content": "지난 공구 물량 정품입니다. 크림 리니어 빌드, 하우징 기스 없음. 여분 가스켓과 보강판을 함께 드립니다.",
      "regular_price": 279000,
      "price": 279000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "65_percent",
        "keycap_profile": "cherry",
        "backlight": false
      },
      "tags": [
        "중고",
        "기계식키보드",
        "리니어",
        "65배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Orbit O80 광축 레드 게이밍 키보드",
      "content": "게임용으로 3개월 사용했습니다. 광축 여분 5개와 전용 리무버 포함, RGB 전 구간 정상 점등됩니다.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "optical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "linear",
        "layout": "tkl",
        "keycap_profile": "oem",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "광축",
        "리니어",
        "텐키리스",
        "핫스왑"
      ]
    },
    {
      "seller": "s12",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] 바람 B75 Pro 피치 택타일 (풀박스)",
      "content": "선물 받고 거의 사용하지 않은 제품입니다. 보호필름도 일부 남아 있으며 구성품 모두 있습니다.",
      "regular_price": 99000,
      "price": 99000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "connection": "multi",
        "pcb": "hot_swap",
        "switch_type": "tactile",
        "layout": "75_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "택타일",
        "무선",
        "75배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] 키캣 캣60 미니 화이트 클릭 (개조품)",
      "content": "기본 적축을 화이트 클릭 축으로 교체한 개조품입니다. 원래 스위치는 동봉하지 않습니다. 개조 특성상 반품은 어렵습니다.",
      "regular_price": 49000,
      "price": 49000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 2,
      "spec": {
        "input": "mechanical",
        "connection": "wired",
        "pcb": "hot_swap",
        "switch_type": "clicky",
        "layout": "60_percent",
        "keycap_profile": "cherry",
        "backlight": true
      },
      "tags": [
        "중고",
        "기계식키보드",
        "클릭",
        "미니배열",
        "핫스왑"
      ]
    },
    {
      "seller": "s10",
      "kind": "secondhand",
      "category": "keyboard",
      "title": "[중고] Hanul 무접점 104 45g 저소음",
      "content": "매장 시타용으로 전시했던 제품입니다. 키캡 전체 세척 후 발송하며 A급 상태입니다. 전시 상품이라 박스는 없습니다.",
      "regular_price": 169000,
      "price": 169000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "input": "capacitive",
        "connection": "wired",
        "pcb": "soldered",
        "layout": "full_size",
        "keycap_profile": "oem",
        "backlight": false
      },
      "tags": [
        "중고",
        "무접점",
        "저소음",
        "풀배열"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 염료승화 키캡 세트 — 레트로 (139키)",
      "content": "베이지와 그레이 조합에 레드 엔터를 넣은 80년대 사무기기 감성의 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 염료승화 방식 139키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 59000,
      "price": 59000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 0,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 염료승화 키캡 세트 — 한지 (139키)",
      "content": "한지처럼 따뜻한 미색 바탕에 먹색 각인을 넣은 차분한 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 염료승화 방식 139키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 59000,
      "price": 59000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 30,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 이중사출 키캡 세트 — 먹물 (173키)",
      "content": "검정 바탕에 회색 각인으로 어떤 하우징에도 잘 어울리는 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 이중사출 방식 173키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 20,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      }
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "GMK 스타일 체리 프로파일 ABS 이중사출 키캡 세트 — 바다",
      "content": "짙은 남색과 청록 포인트의 시원한 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. ABS 이중사출 방식 168키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다. 광택이 생기기 쉬운 ABS 특성상 직사광선 보관은 피해 주세요.",
      "regular_price": 129000,
      "price": 129000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 40,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "ABS",
        "이중사출",
        "GMK"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 염료승화 키캡 세트 — 벚꽃 (142키)",
      "content": "연분홍과 화이트에 벚꽃 노벨티 키를 더한 봄 테마입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 염료승화 방식 142키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 65000,
      "price": 56900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 50,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 염료승화 키캡 세트 — 단청 (147키)",
      "content": "녹색·주홍·청색 단청 색을 모디 키에 살린 한국 전통 테마입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 염료승화 방식 147키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 69000,
      "price": 63000,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 80,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      }
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "OEM 프로파일 PBT 이중사출 키캡 세트 — 흑백 (108키)",
      "content": "화이트 알파와 블랙 모디, 가장 무난한 모노 배색입니다. OEM 프로파일은 대부분의 완제품 키보드와 같은 익숙한 높이이 특징입니다. PBT 이중사출 방식 108키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 39000,
      "price": 39000,
      "coupon_price": 1000,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 120,
      "spec": {
        "keycap_profile": "oem"
      },
      "tags": [
        "키캡",
        "OEM",
        "PBT",
        "이중사출"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keycap",
      "title": "OEM 프로파일 PBT 이중사출 키캡 세트 — 먹물 (108키)",
      "content": "검정 바탕에 회색 각인으로 어떤 하우징에도 잘 어울리는 배색입니다. OEM 프로파일은 대부분의 완제품 키보드와 같은 익숙한 높이이 특징입니다. PBT 이중사출 방식 108키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 39000,
      "price": 36900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {
        "keycap_profile": "oem",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "OEM",
        "PBT",
        "이중사출"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "OEM 프로파일 PBT 염료승화 키캡 세트 — 라떼 (135키)",
      "content": "크림과 커피 브라운 톤의 부드러운 배색입니다. OEM 프로파일은 대부분의 완제품 키보드와 같은 익숙한 높이이 특징입니다. PBT 염료승화 방식 135키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 49000,
      "price": 49000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 150,
      "spec": {
        "keycap_profile": "oem",
        "layout": "other"
      }
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "SA 프로파일 ABS 이중사출 키캡 세트 — 레트로 (154키)",
      "content": "베이지와 그레이 조합에 레드 엔터를 넣은 80년대 사무기기 감성의 배색입니다. SA 프로파일은 높고 둥근 구형 상단으로 레트로한 타이핑감이 특징입니다. ABS 이중사출 방식 154키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다. 광택이 생기기 쉬운 ABS 특성상 직사광선 보관은 피해 주세요.",
      "regular_price": 119000,
      "price": 100900,
      "coupon_price": 0,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "keycap_profile": "sa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "SA",
        "ABS",
        "이중사출"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "SA 프로파일 PBT 이중사출 키캡 세트 — 청자 (150키)",
      "content": "고려청자의 옥빛을 담은 은은한 연청색 배색입니다. SA 프로파일은 높고 둥근 구형 상단으로 레트로한 타이핑감이 특징입니다. PBT 이중사출 방식 150키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 99000,
      "price": 88900,
      "coupon_price": 5000,
      "discount_days": 7,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 50,
      "spec": {
        "keycap_profile": "sa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "SA",
        "PBT",
        "이중사출"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "KSA 프로파일 PBT 이중사출 키캡 세트 — 새벽 (146키)",
      "content": "보랏빛 남색에서 주황으로 이어지는 새벽 하늘 그라데이션입니다. KSA 프로파일은 SA보다 낮춘 구형 프로파일로 편안한 각도이 특징입니다. PBT 이중사출 방식 146키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 89000,
      "price": 77900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {
        "keycap_profile": "ksa",
        "layout": "other"
      }
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "KSA 프로파일 PBT 이중사출 키캡 세트 — 크림소다 (146키)",
      "content": "연두와 크림 화이트의 청량한 배색입니다. KSA 프로파일은 SA보다 낮춘 구형 프로파일로 편안한 각도이 특징입니다. PBT 이중사출 방식 146키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 89000,
      "price": 77900,
      "coupon_price": 2000,
      "discount_days": 21,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "keycap_profile": "ksa"
      },
      "tags": [
        "키캡",
        "KSA",
        "PBT",
        "이중사출"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "OSA 프로파일 PBT 염료승화 키캡 세트 — 한지 (143키)",
      "content": "한지처럼 따뜻한 미색 바탕에 먹색 각인을 넣은 차분한 배색입니다. OSA 프로파일은 SA와 체리 사이 높이의 구형 프로파일이 특징입니다. PBT 염료승화 방식 143키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "keycap_profile": "osa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "OSA",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "OSA 프로파일 PBT 염료승화 키캡 세트 — 민트초코 (143키)",
      "content": "민트색 알파와 초콜릿 브라운 모디의 달콤한 배색입니다. OSA 프로파일은 SA와 체리 사이 높이의 구형 프로파일이 특징입니다. PBT 염료승화 방식 143키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {
        "keycap_profile": "osa",
        "layout": "other"
      }
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "DSA 프로파일 PBT 염료승화 키캡 세트 — 바다 (128키)",
      "content": "짙은 남색과 청록 포인트의 시원한 배색입니다. DSA 프로파일은 모든 열 높이가 같은 균일 프로파일로 배열 자유도가 높음이 특징입니다. PBT 염료승화 방식 128키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 2000,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 30,
      "spec": {
        "keycap_profile": "dsa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "DSA",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keycap",
      "title": "DSA 프로파일 PBT 염료승화 키캡 세트 — 벚꽃 (128키)",
      "content": "연분홍과 화이트에 벚꽃 노벨티 키를 더한 봄 테마입니다. DSA 프로파일은 모든 열 높이가 같은 균일 프로파일로 배열 자유도가 높음이 특징입니다. PBT 염료승화 방식 128키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 1000,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 120,
      "spec": {
        "keycap_profile": "dsa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "DSA",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "XDA 프로파일 PBT 염료승화 키캡 세트 — 민트초코 (133키)",
      "content": "민트색 알파와 초콜릿 브라운 모디의 달콤한 배색입니다. XDA 프로파일은 넓고 평평한 상단의 균일 프로파일이 특징입니다. PBT 염료승화 방식 133키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 49000,
      "price": 39000,
      "coupon_price": 2000,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 20,
      "spec": {
        "keycap_profile": "xda"
      }
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keycap",
      "title": "XDA 프로파일 PBT 염료승화 키캡 세트 — 라떼 (133키)",
      "content": "크림과 커피 브라운 톤의 부드러운 배색입니다. XDA 프로파일은 넓고 평평한 상단의 균일 프로파일이 특징입니다. PBT 염료승화 방식 133키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 49000,
      "price": 45000,
      "coupon_price": 3000,
      "discount_days": 5,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "keycap_profile": "xda"
      },
      "tags": [
        "키캡",
        "XDA",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "MDA 프로파일 PBT 염료승화 키캡 세트 — 크림소다 (137키)",
      "content": "연두와 크림 화이트의 청량한 배색입니다. MDA 프로파일은 XDA에 스컬처를 더한 중간 높이 프로파일이 특징입니다. PBT 염료승화 방식 137키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 55000,
      "price": 55000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 12,
      "spec": {
        "keycap_profile": "mda",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "MDA",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "MDA 프로파일 PBT 이중사출 키캡 세트 — 흑백 (137키)",
      "content": "화이트 알파와 블랙 모디, 가장 무난한 모노 배색입니다. MDA 프로파일은 XDA에 스컬처를 더한 중간 높이 프로파일이 특징입니다. PBT 이중사출 방식 137키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 150,
      "spec": {
        "keycap_profile": "mda"
      }
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 이중사출 키캡 세트 — 흑백 (141키)",
      "content": "화이트 알파와 블랙 모디, 가장 무난한 모노 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 이중사출 방식 141키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 59000,
      "price": 59000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "PBT",
        "이중사출"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keycap",
      "title": "체리 프로파일 PBT 염료승화 키캡 세트 — 라떼 (139키)",
      "content": "크림과 커피 브라운 톤의 부드러운 배색입니다. 체리 프로파일은 낮고 안정적인 높이로 손목 부담이 적음이 특징입니다. PBT 염료승화 방식 139키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 55000,
      "price": 55000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 12,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "PBT",
        "염료승화"
      ]
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "OEM 프로파일 PBT 염료승화 키캡 세트 — 단청 (129키)",
      "content": "녹색·주홍·청색 단청 색을 모디 키에 살린 한국 전통 테마입니다. OEM 프로파일은 대부분의 완제품 키보드와 같은 익숙한 높이이 특징입니다. PBT 염료승화 방식 129키 구성으로 ANSI 배열과 주요 65%·75%·TKL 배열을 지원합니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 120,
      "spec": {
        "keycap_profile": "oem"
      }
    },
    {
      "seller": "s06",
      "kind": "commercial",
      "category": "keycap",
      "title": "아티산 키캡 — 고양이 발바닥 레진 (ESC용)",
      "content": "손으로 한 개씩 캐스팅한 레진 아티산 키캡입니다. 말랑해 보이는 고양이 발바닥 모양으로 ESC나 포인트 키에 어울립니다.",
      "regular_price": 18000,
      "price": 17100,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 200,
      "spec": {
        "keycap_profile": "sa"
      },
      "tags": [
        "키캡",
        "SA",
        "아티산"
      ]
    },
    {
      "seller": "s09",
      "kind": "commercial",
      "category": "keycap",
      "title": "한글 자모 노벨티 키캡 6종 세트 (체리)",
      "content": "ㄱ, ㅎ, ㅇ 등 한글 자모가 들어간 노벨티 6종입니다. 체리 프로파일 R1·R4 높이로 구성되어 모디 키 자리에 포인트로 쓰기 좋습니다.",
      "regular_price": 15000,
      "price": 15000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_dawn",
      "stock": 200,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "체리프로파일",
        "노벨티",
        "한글각인"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "keycap",
      "title": "WASD 방향키 포인트 키캡 8종 (OEM, 레드)",
      "content": "게이밍 키보드용 WASD와 방향키 8개 포인트 키캡입니다. OEM 프로파일 PBT 이중사출로 글자가 지워지지 않습니다.",
      "regular_price": 9000,
      "price": 8300,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {
        "keycap_profile": "oem"
      }
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "keycap",
      "title": "투명 푸딩 키캡 풀세트 (OEM, 블랙)",
      "content": "상단은 불투명, 측면은 반투명한 푸딩 키캡입니다. RGB 백라이트가 옆으로 퍼져 화려한 연출이 가능합니다.",
      "regular_price": 29000,
      "price": 29000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 150,
      "spec": {
        "keycap_profile": "oem"
      },
      "tags": [
        "키캡",
        "OEM",
        "푸딩키캡"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] GMK 스타일 체리 프로파일 ABS 이중사출 키캡 — 한밤의 서울",
      "content": "남산타워와 한강 야경을 모티브로 한 네이비·옐로우 배색입니다. 베이스 키트와 노벨티, 40% 키트를 옵션으로 운영합니다.",
      "regular_price": 169000,
      "price": 148900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 5000,
      "delivery_schedule": "next_day",
      "stock": 10,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "공구",
        "체리프로파일",
        "ABS",
        "이중사출",
        "GMK"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] 체리 프로파일 ABS 키캡 — 청자상감 베이스 키트",
      "content": "청자 상감 문양을 노벨티로 담은 한정 공구입니다. 최소 수량 달성 시 생산을 확정하며 배송은 약 4개월 후 예정입니다.",
      "regular_price": 179000,
      "price": 179000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 100,
      "spec": {
        "keycap_profile": "cherry",
        "layout": "other"
      }
    },
    {
      "seller": "s09",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] SA 프로파일 ABS 이중사출 키캡 — 오락실",
      "content": "80~90년대 오락실 콘솔에서 영감을 받은 SA 키캡입니다. 높고 둥근 키캡이 주는 또각거리는 소리가 매력입니다.",
      "regular_price": 189000,
      "price": 166000,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 5000,
      "delivery_schedule": "next_day",
      "stock": 60,
      "spec": {
        "keycap_profile": "sa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "공구",
        "SA",
        "ABS",
        "이중사출"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] MDA 프로파일 PBT 키캡 — 녹차라떼",
      "content": "녹차와 우유 색을 담은 PBT 두꺼운 사출 키캡입니다. 베이스 키트에 스플릿 스페이스바 키트 옵션이 추가됩니다.",
      "regular_price": 139000,
      "price": 131900,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 5000,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "keycap_profile": "mda",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "공구",
        "MDA",
        "PBT"
      ]
    },
    {
      "seller": "s09",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] KSA 프로파일 PBT 이중사출 키캡 — 겨울 숲",
      "content": "자작나무와 눈을 표현한 화이트·그린 배색입니다. KSA 특유의 낮은 구형 상단으로 SA보다 타이핑이 편합니다.",
      "regular_price": 149000,
      "price": 142000,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 5000,
      "delivery_schedule": "standard",
      "stock": 50,
      "spec": {
        "keycap_profile": "ksa",
        "layout": "other"
      }
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "keycap",
      "title": "[공구] OSA 프로파일 PBT 키캡 — 모노크롬 타자기",
      "content": "타자기 시대의 키를 재해석한 모노 배색 OSA 세트입니다. 이중사출 레전드로 오래 써도 글자가 선명합니다.",
      "regular_price": 145000,
      "price": 137900,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 5000,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {
        "keycap_profile": "osa",
        "layout": "other"
      },
      "tags": [
        "키캡",
        "공구",
        "OSA",
        "PBT"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keycap",
      "title": "[중고] 체리 프로파일 PBT 키캡 — 레트로 (알파 미개봉)",
      "content": "모디 키만 한 달 사용했고 알파 키는 미개봉 상태입니다. 원래 트레이에 담아 발송합니다.",
      "regular_price": 35000,
      "price": 35000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "keycap_profile": "cherry"
      },
      "tags": [
        "키캡",
        "중고",
        "체리프로파일",
        "PBT"
      ]
    },
    {
      "seller": "s12",
      "kind": "secondhand",
      "category": "keycap",
      "title": "[중고] SA 프로파일 ABS 키캡 — 오락실 베이스 (한 번 장착)",
      "content": "지난 공구 정품으로 한 번 장착했다가 보관만 했습니다. 번들거림 없고 스페이스바 2종 포함입니다.",
      "regular_price": 139000,
      "price": 139000,
      "coupon_price": 0,
      "delivery_fee": 0,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "keycap_profile": "sa"
      }
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keycap",
      "title": "[중고] XDA 프로파일 PBT 키캡 민트초코 (일부 누락)",
      "content": "ㄱ 키 하나와 오른쪽 Shift 1개가 빠져 있어 저렴하게 드립니다. 나머지는 세척 완료 상태입니다.",
      "regular_price": 19000,
      "price": 19000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "keycap_profile": "xda"
      },
      "tags": [
        "키캡",
        "중고",
        "XDA",
        "PBT"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "keycap",
      "title": "[중고] DSA 프로파일 키캡 흑백 (세척 완료)",
      "content": "6개월 사용한 균일 프로파일 키캡입니다. 초음파 세척 후 완전 건조해 발송합니다. 약간의 사용감 있습니다.",
      "regular_price": 22000,
      "price": 22000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "keycap_profile": "dsa"
      },
      "tags": [
        "키캡",
        "중고",
        "DSA"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 바다축 저소음 리니어 스위치 (10알)",
      "content": "저소음 댐퍼를 넣은 37g 리니어 스위치입니다. 바닥 소음이 작아 사무실용 키보드에 추천합니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 4500,
      "price": 4500,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "today",
      "stock": 150,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 바다축 저소음 리니어 스위치 (70알)",
      "content": "저소음 댐퍼를 넣은 37g 리니어 스위치입니다. 바닥 소음이 작아 사무실용 키보드에 추천합니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 28500,
      "price": 28500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "저소음",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 바다축 저소음 리니어 스위치 (90알)",
      "content": "저소음 댐퍼를 넣은 37g 리니어 스위치입니다. 바닥 소음이 작아 사무실용 키보드에 추천합니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 36500,
      "price": 32900,
      "coupon_price": 1000,
      "discount_days": 5,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "저소음",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 크림 리니어 스위치 45g (10알)",
      "content": "POM 하우징 특유의 보글거리는 소리가 나는 리니어입니다. 길게 다듬어지는 '길들이기' 변화가 있습니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 5000,
      "price": 5000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 크림 리니어 스위치 45g (35알)",
      "content": "POM 하우징 특유의 보글거리는 소리가 나는 리니어입니다. 길게 다듬어지는 '길들이기' 변화가 있습니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 17500,
      "price": 14000,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 3500,
      "delivery_schedule": "today",
      "stock": 150,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 크림 리니어 스위치 45g (90알)",
      "content": "POM 하우징 특유의 보글거리는 소리가 나는 리니어입니다. 길게 다듬어지는 '길들이기' 변화가 있습니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 40500,
      "price": 40500,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 150,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 택타일 갈축 62g (35알)",
      "content": "초반에 가벼운 구분감이 있는 택타일 스위치입니다. 타이핑 위주 사용자에게 알맞습니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 14000,
      "price": 12600,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      }
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 택타일 갈축 62g (70알)",
      "content": "초반에 가벼운 구분감이 있는 택타일 스위치입니다. 타이핑 위주 사용자에게 알맞습니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 25000,
      "price": 21900,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 120,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "갈축",
        "택타일"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 택타일 갈축 62g (90알)",
      "content": "초반에 가벼운 구분감이 있는 택타일 스위치입니다. 타이핑 위주 사용자에게 알맞습니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 32500,
      "price": 32500,
      "coupon_price": 2000,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "갈축",
        "택타일"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 피치 택타일 67g (10알)",
      "content": "걸림이 크고 또렷한 택타일입니다. 장스프링 적용으로 복귀가 빠르고 구분감이 확실합니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 5500,
      "price": 4400,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 피치 택타일 67g (35알)",
      "content": "걸림이 크고 또렷한 택타일입니다. 장스프링 적용으로 복귀가 빠르고 구분감이 확실합니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 19000,
      "price": 19000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "택타일"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "몽돌 피치 택타일 67g (70알)",
      "content": "걸림이 크고 또렷한 택타일입니다. 장스프링 적용으로 복귀가 빠르고 구분감이 확실합니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 34500,
      "price": 27900,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 2500,
      "delivery_schedule": "next_dawn",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "택타일"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 클릭 청축 60g (10알)",
      "content": "클릭 재킷 구조로 경쾌한 찰칵 소리가 나는 스위치입니다. 타건 소리를 좋아하는 분께 추천합니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 3500,
      "price": 3200,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 2500,
      "delivery_schedule": "standard",
      "stock": 50,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      }
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 클릭 청축 60g (35알)",
      "content": "클릭 재킷 구조로 경쾌한 찰칵 소리가 나는 스위치입니다. 타건 소리를 좋아하는 분께 추천합니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 12000,
      "price": 12000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "청축",
        "클릭"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "switch",
      "title": "KC 클릭 청축 60g (90알)",
      "content": "클릭 재킷 구조로 경쾌한 찰칵 소리가 나는 스위치입니다. 타건 소리를 좋아하는 분께 추천합니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 28500,
      "price": 28500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 12,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "청축",
        "클릭"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 화이트 클릭 스위치 50g (35알)",
      "content": "청축보다 가볍고 맑은 클릭음을 냅니다. 클릭 바 구조로 소리가 일정합니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 14000,
      "price": 14000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 화이트 클릭 스위치 50g (70알)",
      "content": "청축보다 가볍고 맑은 클릭음을 냅니다. 클릭 바 구조로 소리가 일정합니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 25000,
      "price": 25000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "클릭"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Hanul 화이트 클릭 스위치 50g (90알)",
      "content": "청축보다 가볍고 맑은 클릭음을 냅니다. 클릭 바 구조로 소리가 일정합니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 32500,
      "price": 32500,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "클릭"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "밀키 옐로우 리니어 스위치 (공장 윤활) (10알)",
      "content": "가성비 리니어의 대표격 스위치입니다. 공장 윤활로 개봉 후 바로 장착해도 서걱임이 적습니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 3500,
      "price": 3500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "밀키 옐로우 리니어 스위치 (공장 윤활) (35알)",
      "content": "가성비 리니어의 대표격 스위치입니다. 공장 윤활로 개봉 후 바로 장착해도 서걱임이 적습니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 10500,
      "price": 10500,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_dawn",
      "stock": 40,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "윤활",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "밀키 옐로우 리니어 스위치 (공장 윤활) (70알)",
      "content": "가성비 리니어의 대표격 스위치입니다. 공장 윤활로 개봉 후 바로 장착해도 서걱임이 적습니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 19000,
      "price": 17100,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "윤활",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Orbit 옵티컬 레드 광축 스위치 (35알)",
      "content": "Orbit 광축 키보드 전용 리니어 스위치입니다. 접점이 없어 채터링이 생기지 않습니다. 35개 1팩 구성이며 광축 전용 소켓에만 호환됩니다.",
      "regular_price": 21000,
      "price": 19900,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 20,
      "spec": {
        "input": "optical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "Orbit 옵티컬 레드 광축 스위치 (70알)",
      "content": "Orbit 광축 키보드 전용 리니어 스위치입니다. 접점이 없어 채터링이 생기지 않습니다. 70개 1팩 구성이며 광축 전용 소켓에만 호환됩니다.",
      "regular_price": 38000,
      "price": 38000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "input": "optical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "광축",
        "리니어"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "switch",
      "title": "Orbit 옵티컬 블루 광축 스위치 (35알)",
      "content": "Orbit 광축 키보드 전용 클릭 스위치입니다. 교체용 또는 부분 교체용으로 좋습니다. 35개 1팩 구성이며 광축 전용 소켓에만 호환됩니다.",
      "regular_price": 21000,
      "price": 20000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 5,
      "spec": {
        "input": "optical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "광축",
        "클릭"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "switch",
      "title": "Orbit 옵티컬 블루 광축 스위치 (90알)",
      "content": "Orbit 광축 키보드 전용 클릭 스위치입니다. 교체용 또는 부분 교체용으로 좋습니다. 90개 1팩 구성이며 광축 전용 소켓에만 호환됩니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 80,
      "spec": {
        "input": "optical",
        "switch_type": "clicky"
      }
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "저소음 라벤더 리니어 스위치 40g (35알)",
      "content": "상단과 바닥 모두 댐퍼를 넣은 저소음 리니어입니다. 야간 게임이나 공용 공간에서 쓰기 좋습니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 17500,
      "price": 17500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 30,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "저소음",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "저소음 라벤더 리니어 스위치 40g (70알)",
      "content": "상단과 바닥 모두 댐퍼를 넣은 저소음 리니어입니다. 야간 게임이나 공용 공간에서 쓰기 좋습니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 31500,
      "price": 28900,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "저소음",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "저소음 라벤더 리니어 스위치 40g (90알)",
      "content": "상단과 바닥 모두 댐퍼를 넣은 저소음 리니어입니다. 야간 게임이나 공용 공간에서 쓰기 좋습니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 40500,
      "price": 40500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 12,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "잉크 블랙 헤비 리니어 65g (10알)",
      "content": "무게감 있는 65g 리니어입니다. 오타를 줄이고 싶은 분이나 묵직한 키감을 좋아하는 분께 맞습니다. 10개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 6500,
      "price": 6500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 200,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "잉크 블랙 헤비 리니어 65g (70알)",
      "content": "무게감 있는 65g 리니어입니다. 오타를 줄이고 싶은 분이나 묵직한 키감을 좋아하는 분께 맞습니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 41000,
      "price": 41000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "standard",
      "stock": 0,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "switch",
      "title": "잉크 블랙 헤비 리니어 65g (90알)",
      "content": "무게감 있는 65g 리니어입니다. 오타를 줄이고 싶은 분이나 묵직한 키감을 좋아하는 분께 맞습니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 300,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "은축 스피드 리니어 (1.2mm 입력) (35알)",
      "content": "1.2mm에서 입력되는 짧은 작동 거리의 스피드 스위치입니다. FPS·리듬 게임용으로 인기 있습니다. 35개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 16000,
      "price": 14100,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 150,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "은축 스피드 리니어 (1.2mm 입력) (70알)",
      "content": "1.2mm에서 입력되는 짧은 작동 거리의 스피드 스위치입니다. FPS·리듬 게임용으로 인기 있습니다. 70개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 28500,
      "price": 28500,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 120,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "리니어"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "switch",
      "title": "은축 스피드 리니어 (1.2mm 입력) (90알)",
      "content": "1.2mm에서 입력되는 짧은 작동 거리의 스피드 스위치입니다. FPS·리듬 게임용으로 인기 있습니다. 90개 1팩 구성이며 5핀 핫스왑 기판에 호환됩니다.",
      "regular_price": 36500,
      "price": 31000,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 12,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "switch",
      "title": "[공구] 한정판 POM 롱폴 리니어 스위치 (70알)",
      "content": "전 부품 POM 소재에 롱폴 스템을 적용한 한정판 리니어입니다. 공구 마감 후 약 8주 뒤 발송합니다.",
      "regular_price": 42000,
      "price": 37000,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 60,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "공구",
        "리니어"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "switch",
      "title": "[공구] 한정판 유리 하우징 택타일 스위치 (90알)",
      "content": "반투명 하우징과 택타일 스템을 조합한 한정 스위치입니다. 소량 생산으로 재판 계획이 없습니다.",
      "regular_price": 45000,
      "price": 45000,
      "coupon_price": 0,
      "delivery_fee": 4000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "공구",
        "택타일"
      ]
    },
    {
      "seller": "s03",
      "kind": "group_buy",
      "category": "switch",
      "title": "[공구] 단청 리니어 스위치 컬러 에디션 (35알)",
      "content": "단청 색을 입힌 컬러 하우징 리니어 스위치입니다. 공구 참여자에게 스위치 필름 35매를 증정합니다.",
      "regular_price": 24500,
      "price": 24500,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 60,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      }
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "switch",
      "title": "[공구] 딥 택타일 스위치 T-Bump 68g (70알)",
      "content": "걸림이 크고 둥근 딥 택타일입니다. 샘플 피드백을 반영해 스프링 무게를 2g 올렸습니다.",
      "regular_price": 39000,
      "price": 39000,
      "coupon_price": 0,
      "delivery_fee": 4000,
      "delivery_schedule": "standard",
      "stock": 20,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      },
      "tags": [
        "스위치",
        "공구",
        "택타일"
      ]
    },
    {
      "seller": "s07",
      "kind": "secondhand",
      "category": "switch",
      "title": "[중고] 윤활 완료 크림 리니어 스위치 70알 (205g0 + 필름)",
      "content": "스템·하우징·스프링 분리 윤활과 스위치 필름 작업을 완료했습니다. 2주 사용 후 탈거했습니다.",
      "regular_price": 38000,
      "price": 38000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "switch_type": "linear"
      },
      "tags": [
        "스위치",
        "중고",
        "윤활",
        "리니어"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "switch",
      "title": "[중고] 갈축 택타일 스위치 90알 (탈거품)",
      "content": "키보드 교체로 탈거한 스위치입니다. 핀 휨 검수를 마쳤고 전량 정상 작동합니다.",
      "regular_price": 18000,
      "price": 18000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 2,
      "spec": {
        "input": "mechanical",
        "switch_type": "tactile"
      }
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "switch",
      "title": "[중고] 청축 클릭 스위치 35알 (미사용 여분)",
      "content": "키보드 구매 시 받은 여분 스위치로 미사용입니다. 부분 교체용으로 적당합니다.",
      "regular_price": 7000,
      "price": 7000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "standard",
      "stock": 1,
      "spec": {
        "input": "mechanical",
        "switch_type": "clicky"
      },
      "tags": [
        "스위치",
        "중고",
        "청축",
        "클릭"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "원목 손목받침대 월넛 (TKL 사이즈)",
      "content": "북미산 월넛 원목을 오일 마감한 손목받침대입니다. 바닥 미끄럼 방지 패드가 붙어 있고 TKL 키보드 폭에 맞췄습니다.",
      "regular_price": 29000,
      "price": 25900,
      "coupon_price": 0,
      "discount_days": 10,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 12,
      "spec": {},
      "tags": [
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "원목 손목받침대 메이플 (풀배열 사이즈)",
      "content": "밝은 메이플 원목으로 화이트 셋업과 잘 어울립니다. 풀배열 키보드 폭 440mm입니다.",
      "regular_price": 32000,
      "price": 32000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 120,
      "spec": {},
      "tags": [
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "원목 손목받침대 체리목 (65% 사이즈)",
      "content": "65% 키보드에 맞춘 320mm 길이의 체리목 손목받침대입니다. 사용할수록 색이 깊어집니다.",
      "regular_price": 25000,
      "price": 25000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 40,
      "spec": {},
      "tags": [
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s12",
      "kind": "commercial",
      "category": "accessory",
      "title": "메모리폼 손목받침대 (라이크라 원단)",
      "content": "부드러운 메모리폼에 땀 흡수가 잘 되는 라이크라 원단을 씌웠습니다. 세탁 가능한 커버입니다.",
      "regular_price": 15000,
      "price": 12000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 25,
      "spec": {},
      "tags": [
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "accessory",
      "title": "항공 커넥터 코일 케이블 USB-C (블랙/네이비)",
      "content": "GX16 항공 커넥터로 분리되는 코일 케이블입니다. 파라코드 피복, 전체 길이 1.5m, 데이터 전송 지원입니다.",
      "regular_price": 35000,
      "price": 35000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {},
      "tags": [
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "accessory",
      "title": "항공 커넥터 코일 케이블 USB-C (크림/베이지)",
      "content": "크림 톤 키캡과 어울리는 베이지 파라코드 코일 케이블입니다. 키보드 쪽 USB-C, PC 쪽 USB-A입니다.",
      "regular_price": 35000,
      "price": 35000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "standard",
      "stock": 120,
      "spec": {},
      "tags": [
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s02",
      "kind": "commercial",
      "category": "accessory",
      "title": "USB-C to A 직선 케이블 1.8m",
      "content": "일반 직선형 교체 케이블입니다. 패브릭 피복으로 꼬임이 적고 대부분의 키보드와 호환됩니다.",
      "regular_price": 9000,
      "price": 9000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 300,
      "spec": {},
      "tags": [
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스테인리스 스위치 풀러 (2in1 키캡 리무버 포함)",
      "content": "스위치 풀러와 와이어 키캡 리무버를 한쪽씩 담은 2in1 공구입니다. 스테인리스 소재로 휘지 않습니다.",
      "regular_price": 7000,
      "price": 6400,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 25,
      "spec": {},
      "tags": [
        "스위치풀러",
        "DIY",
        "키캡리무버"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "와이어 키캡 리무버",
      "content": "키캡 측면 손상 없이 뽑는 와이어형 리무버입니다. 키보드 청소할 때 꼭 필요한 기본 공구입니다.",
      "regular_price": 5000,
      "price": 5000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {},
      "tags": [
        "키캡리무버"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 윤활제 205 그레이드 5ml",
      "content": "리니어 스위치 스템과 하우징 윤활용 고점도 그리스입니다. 얇게 바르면 서걱임이 줄고 소리가 정돈됩니다.",
      "regular_price": 12000,
      "price": 12000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 5,
      "spec": {},
      "tags": [
        "윤활",
        "DIY"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 윤활제 105 오일 5ml",
      "content": "스프링 윤활용 저점도 오일입니다. 스프링 잡음을 줄이는 데 사용하며 택타일 스위치에도 안전합니다.",
      "regular_price": 11000,
      "price": 11000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_dawn",
      "stock": 40,
      "spec": {},
      "tags": [
        "윤활",
        "DIY"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스테빌라이저 전용 다이엘렉트릭 그리스 10g",
      "content": "스테빌 와이어 윤활에 쓰는 점성 높은 그리스입니다. 스페이스바 덜그럭 소리를 줄입니다.",
      "regular_price": 9000,
      "price": 8600,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 3500,
      "delivery_schedule": "today",
      "stock": 120,
      "spec": {},
      "tags": [
        "윤활",
        "스테빌",
        "DIY"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 윤활 입문 키트 (오프너·붓·스탠드·윤활제)",
      "content": "5핀 스위치 오프너, 윤활 붓 2종, 20구 스위치 스탠드, 205 윤활제를 한 번에 구성했습니다. 처음 윤활하는 분께 추천합니다.",
      "regular_price": 39000,
      "price": 35900,
      "coupon_price": 0,
      "discount_days": 3,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {},
      "tags": [
        "윤활",
        "DIY",
        "스위치오프너"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 오프너 알루미늄 (MX 호환)",
      "content": "스위치를 눌러 끼우기만 하면 상하판이 분리됩니다. 알루미늄 CNC 가공으로 오래 씁니다.",
      "regular_price": 19000,
      "price": 19000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 20,
      "spec": {},
      "tags": [
        "스위치오프너",
        "DIY"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 필름 0.15mm 100매",
      "content": "하우징 사이 유격을 줄여 소리를 단단하게 만드는 필름입니다. 대부분의 MX 호환 스위치에 맞습니다.",
      "regular_price": 6000,
      "price": 5300,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "today",
      "stock": 200,
      "spec": {}
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "스크류인 스테빌라이저 세트 (6.25u 기준, 공장 윤활)",
      "content": "PCB 고정형 스크류인 스테빌 세트입니다. 2u 4개, 6.25u 1개 구성이며 공장 윤활 완료 상태입니다.",
      "regular_price": 22000,
      "price": 22000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {},
      "tags": [
        "윤활",
        "DIY",
        "스테빌"
      ]
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "accessory",
      "title": "키보드 흡음 폼 키트 (65% / 75% 공용)",
      "content": "케이스 폼과 PCB 폼, 스위치 패드로 구성된 흡음 키트입니다. 통울림과 스프링 잡음을 줄입니다.",
      "regular_price": 15000,
      "price": 15000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {},
      "tags": [
        "흡음",
        "DIY"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "데스크매트 900×400 먹물 (논슬립)",
      "content": "키보드와 마우스를 함께 올리는 대형 데스크매트입니다. 테두리 박음질로 올 풀림이 없습니다.",
      "regular_price": 19000,
      "price": 19000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 0,
      "spec": {},
      "tags": [
        "데스크매트",
        "데스크셋업"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "데스크매트 900×400 한지 (논슬립)",
      "content": "미색 바탕에 은은한 한지 결을 인쇄한 데스크매트입니다. 밝은 키캡 셋업과 잘 어울립니다.",
      "regular_price": 19000,
      "price": 19000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_dawn",
      "stock": 12,
      "spec": {},
      "tags": [
        "데스크매트",
        "데스크셋업"
      ]
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "아크릴 키보드 먼지 덮개 (TKL)",
      "content": "투명 아크릴로 만든 키보드 덮개입니다. 키보드를 보여주면서 먼지와 고양이 털을 막아 줍니다.",
      "regular_price": 25000,
      "price": 25000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 80,
      "spec": {}
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "accessory",
      "title": "키보드 휴대용 하드 파우치 (65%·75%)",
      "content": "EVA 하드 쉘 파우치로 내부에 케이블 수납 주머니가 있습니다. 출퇴근길 휴대용으로 좋습니다.",
      "regular_price": 22000,
      "price": 18900,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 25,
      "spec": {}
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "accessory",
      "title": "알루미늄 키보드 전용 하드케이스 (TKL)",
      "content": "커스텀 키보드 이동과 보관을 위한 하드케이스입니다. 완충 폼을 키보드 모양대로 재단해 넣었습니다.",
      "regular_price": 49000,
      "price": 49000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 5,
      "spec": {}
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 테스터 24종 (아크릴 베이스)",
      "content": "리니어·택타일·클릭 24종을 한 번에 눌러 볼 수 있는 테스터입니다. 스위치 고르기 전에 먼저 써 보세요.",
      "regular_price": 29000,
      "price": 27000,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 50,
      "spec": {},
      "tags": [
        "스위치테스터"
      ]
    },
    {
      "seller": "s03",
      "kind": "commercial",
      "category": "accessory",
      "title": "스위치 테스터 9종 미니",
      "content": "인기 스위치 9종을 담은 미니 테스터입니다. 키캡 9개가 함께 들어 있습니다.",
      "regular_price": 12000,
      "price": 9600,
      "coupon_price": 0,
      "discount_days": 7,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 200,
      "spec": {},
      "tags": [
        "스위치테스터"
      ]
    },
    {
      "seller": "s07",
      "kind": "commercial",
      "category": "accessory",
      "title": "키보드 청소 키트 (브러시·에어블로워·극세사)",
      "content": "키보드 틈새 먼지 제거용 브러시, 에어블로워, 극세사 천 세트입니다.",
      "regular_price": 14000,
      "price": 12600,
      "coupon_price": 0,
      "discount_days": 14,
      "delivery_fee": 2500,
      "delivery_schedule": "next_dawn",
      "stock": 0,
      "spec": {}
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "accessory",
      "title": "황동 포인트 키캡 ESC (체리 R1)",
      "content": "황동 통 가공 ESC 키캡입니다. 묵직한 무게감과 시간이 지나며 변하는 색감이 매력입니다.",
      "regular_price": 29000,
      "price": 29000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "standard",
      "stock": 30,
      "spec": {}
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "모니터 받침대 원목 (키보드 수납 공간)",
      "content": "모니터를 올리고 아래에 키보드를 넣어 둘 수 있는 원목 받침대입니다. 폭 800mm, 높이 100mm입니다.",
      "regular_price": 59000,
      "price": 54000,
      "coupon_price": 1000,
      "discount_days": 7,
      "delivery_fee": 0,
      "delivery_schedule": "next_dawn",
      "stock": 200,
      "spec": {}
    },
    {
      "seller": "s01",
      "kind": "commercial",
      "category": "accessory",
      "title": "USB 무선 동글 연장 어댑터",
      "content": "2.4GHz 수신기를 키보드 가까이 두어 끊김을 줄이는 연장 어댑터입니다. 케이블 길이 1m입니다.",
      "regular_price": 5000,
      "price": 5000,
      "coupon_price": 0,
      "delivery_fee": 3000,
      "delivery_schedule": "next_day",
      "stock": 300,
      "spec": {}
    },
    {
      "seller": "s11",
      "kind": "commercial",
      "category": "accessory",
      "title": "키보드 각도 조절 받침 (알루미늄, 7도)",
      "content": "평평한 키보드 아래에 두어 7도 경사를 만드는 알루미늄 받침입니다. 실리콘 패드로 흔들림이 없습니다.",
      "regular_price": 39000,
      "price": 39000,
      "coupon_price": 1000,
      "delivery_fee": 3000,
      "delivery_schedule": "next_dawn",
      "stock": 200,
      "spec": {}
    },
    {
      "seller": "s08",
      "kind": "commercial",
      "category": "accessory",
      "title": "게이밍 데스크 정리 세트 (케이블 홀더·매트·손목받침)",
      "content": "데스크매트, 원목 손목받침대, 케이블 홀더 3종을 함께 담은 세트입니다. 따로 사는 것보다 저렴합니다.",
      "regular_price": 79000,
      "price": 79000,
      "coupon_price": 5000,
      "delivery_fee": 0,
      "delivery_schedule": "today",
      "stock": 40,
      "spec": {},
      "tags": [
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "accessory",
      "title": "[공구] 단청 문양 데스크매트 900×400",
      "content": "Hwarang 75 공구와 함께 진행하는 단청 문양 데스크매트입니다. 공구 단독 구매도 가능합니다.",
      "regular_price": 29000,
      "price": 28000,
      "coupon_price": 0,
      "discount_days": 5,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 10,
      "spec": {},
      "tags": [
        "공구",
        "데스크매트",
        "데스크셋업"
      ]
    },
    {
      "seller": "s05",
      "kind": "group_buy",
      "category": "accessory",
      "title": "[공구] 항공 커넥터 코일 케이블 — 한밤의 서울 컬러",
      "content": "키캡 공구 '한밤의 서울' 배색에 맞춘 코일 케이블입니다. 키캡 공구와 같은 일정으로 발송합니다.",
      "regular_price": 45000,
      "price": 41000,
      "coupon_price": 0,
      "discount_days": 30,
      "delivery_fee": 3500,
      "delivery_schedule": "standard",
      "stock": 20,
      "spec": {},
      "tags": [
        "공구",
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s09",
      "kind": "group_buy",
      "category": "accessory",
      "title": "[공구] 자개 상감 원목 손목받침대 (한정 50개)",
      "content": "월넛 원목에 자개 조각을 상감한 손목받침대입니다. 장인이 한 개씩 작업해 자개 무늬가 제품마다 조금씩 다릅니다.",
      "regular_price": 69000,
      "price": 69000,
      "coupon_price": 0,
      "delivery_fee": 5000,
      "delivery_schedule": "standard",
      "stock": 80,
      "spec": {},
      "tags": [
        "공구",
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "accessory",
      "title": "[중고] 원목 손목받침대 월넛 TKL (사용감 있음)",
      "content": "1년 사용한 월넛 손목받침대입니다. 오일 재마감 후 보내 드리며 모서리 작은 찍힘이 있습니다.",
      "regular_price": 15000,
      "price": 15000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {},
      "tags": [
        "중고",
        "손목받침대",
        "데스크셋업"
      ]
    },
    {
      "seller": "s12",
      "kind": "secondhand",
      "category": "accessory",
      "title": "[중고] 항공 커넥터 코일 케이블 블랙",
      "content": "두 달 사용했습니다. 커넥터 체결 정상이고 코일 늘어짐 없습니다.",
      "regular_price": 18000,
      "price": 18000,
      "coupon_price": 0,
      "delivery_fee": 3500,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {},
      "tags": [
        "중고",
        "케이블",
        "USB_C"
      ]
    },
    {
      "seller": "s04",
      "kind": "secondhand",
      "category": "accessory",
      "title": "[중고] 스위치 테스터 24종 (2개 누락)",
      "content": "24종 중 2개가 빠져 22종만 있습니다. 아크릴 베이스 기스 약간 있습니다.",
      "regular_price": 12000,
      "price": 12000,
      "coupon_price": 0,
      "delivery_fee": 2500,
      "delivery_schedule": "next_day",
      "stock": 1,
      "spec": {},
      "tags": [
        "중고",
        "스위치테스터"
      ]
    }
  ]
}
"""#
}
