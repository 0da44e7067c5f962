import Foundation
import KeyCatInfrastructure

/// The words synthetic listings are made of (``SyntheticProduct``), each list from the most
/// used to the least, and how often each is picked: a Zipf spread, as words in real catalogs
/// have, so that a search benchmark meets common words (키보드 in about a third of the
/// listings), middling ones and rare ones (a model code in a handful).
enum SyntheticVocabulary {
    static let brands = ZipfList([
        "키캣", "Keychron", "레오폴드", "Hanul", "앱코", "Akko", "Felt", "바람", "Nori", "한성", "Varmilo", "Orbit",
        "단풍", "Ducky", "Mellow", "소리", "Pebble", "로얄클루", "NuPhy", "오로라", "타건", "Monsgeek", "Epomaker",
        "Filco", "리얼포스", "Cherry", "Lofree", "Womier", "Tofu", "Wooting", "IQunix", "Owlab", "Qwertykeys",
        "Geonworks", "Rama", "Mode", "Vortex", "Kbdfans", "Glorious", "Zoom",
    ], exponent: 1.0)

    /// Switches as sellers name them: Korean colour names (갈축: brown), house names and Latin
    /// product names.
    static let switches = ZipfList([
        "갈축", "적축", "청축", "저소음 적축", "흑축", "은축", "크림 리니어", "바다축", "밀키 옐로우", "황축",
        "Gateron Yellow", "Cherry MX Red", "Cherry MX Brown", "Kailh Box White", "저소음 바다축", "피치 택타일",
        "토피 택타일", "노을축", "라벤더축", "Akko Lavender", "Gateron Milky", "Oil King", "Holy Panda", "Boba U4T",
        "Tangerine", "Alpaca", "판다축", "자석축", "광축 레드", "광축 블루", "Zealios", "Banana Split", "NK Cream",
        "Box Jade", "Silent Black", "Ink Black",
    ], exponent: 1.1)

    static let colours = ZipfList([
        "블랙", "화이트", "그레이", "네이비", "민트", "라벤더", "베이지", "핑크", "레드", "블루", "그린", "옐로우",
        "퍼플", "오렌지", "실버", "브라운", "크림", "버건디", "올리브", "코랄", "차콜", "아이보리", "스카이블루", "로즈골드",
    ], exponent: 1.0)

    static let materials = ZipfList([
        "알루미늄", "플라스틱", "폴리카보네이트", "우드", "아크릴", "스테인리스", "황동", "카본", "티타늄", "실리콘",
        "가죽", "패브릭", "세라믹", "유리",
    ], exponent: 1.0)

    /// What a keyboard's title says beside its model: a material, a colour or a feature.
    static let features = ZipfList(["가스켓", "RGB", "핫스왑", "저소음", "게이밍", "사무용", "커스텀", "슬림", "로우프로파일", "한정판"],
                                   exponent: 1.0)

    static let modelSuffixes = ZipfList(["Pro", "V2", "Max", "SE", "Plus", "Lite", "Mini", "Ultra", "V3", "HE"], exponent: 1.0)

    static let keycapThemes = ZipfList([
        "레트로", "한글 각인", "모노", "바다", "벚꽃", "먹물", "숲", "올리비아", "새벽", "노을", "단청", "한지", "청자",
        "백자", "은하수", "사막", "빙하", "마카롱", "솜사탕", "말차", "라떼", "코코아", "복숭아", "자몽", "Botanical",
        "Dracula", "Laser", "Nautilus", "Mizu", "Bento", "Miami", "Godspeed", "Oblivion", "Dolch", "Hammerhead",
        "WoB", "BoW", "Modern Dolch", "Red Samurai", "Carbon", "Serika", "Hyperfuse", "Striker", "Pulse", "Wasabi",
        "Jamon", "Darling", "Honeywell", "Kaiju", "Nord",
    ], exponent: 1.0)
    static let keycapMaterials = ZipfList(["PBT", "ABS", "POM"], exponent: 1.5)
    static let keycapMethods = ZipfList(["이중사출", "염료승화", "레이저 각인", "무각"], exponent: 1.0)
    static let keycapCounts = ZipfList(["135", "154", "173", "129", "104", "87", "61", "226"], exponent: 1.0)

    static let accessories = ZipfList([
        "코일 케이블", "데스크 매트", "우드 손목받침대", "스위치 풀러", "키캡 리무버", "키보드 파우치", "윤활 키트",
        "스테빌라이저 세트", "흡음 폼", "키보드 덮개", "보강판", "USB 허브", "키보드 받침대", "청소 브러시", "아티산 키캡",
    ], exponent: 1.0)

    /// Tags as sellers add them: one or two of their category's, one of the shop's general ones.
    static let keyboardTags = ZipfList([
        "기계식키보드", "커스텀키보드", "무선키보드", "게이밍", "사무용", "핫스왑", "저소음", "텐키리스", "풀배열",
        "미니키보드", "RGB", "알루미늄", "타건감", "무접점", "입문용", "끝판왕",
    ], exponent: 1.0)
    static let keycapTags = ZipfList(["키캡", "PBT", "한글각인", "커스텀키캡", "레트로", "체리프로파일", "이중사출", "염료승화"],
                                     exponent: 1.0)
    static let switchTags = ZipfList(["스위치", "윤활", "리니어", "택타일", "체리축", "게이트론", "클릭", "스위치교체"], exponent: 1.0)
    static let accessoryTags = ZipfList(["데스크셋업", "데스크용품", "손목받침대", "케이블", "정리"], exponent: 1.0)
    static let generalTags = ZipfList([
        "가성비", "선물추천", "신제품", "당일배송", "정품", "특가", "공구", "한정판", "중고", "리퍼", "해외직구", "화이트", "블랙",
    ], exponent: 1.0)

    /// Sentences of a listing's description, after its title.
    static let sentences = ZipfList([
        "빠른 배송, 정품 보증.", "당일 출고됩니다.", "박스 개봉만 한 새 제품입니다.", "교환 및 반품 가능합니다.",
        "구성품 모두 포함.", "선물용으로 좋습니다.", "타건감이 부드럽고 소음이 적습니다.",
        "사무실에서 쓰기 좋은 조용한 키보드입니다.", "게이밍에 알맞은 빠른 반응 속도.", "핫스왑 지원으로 스위치 교체가 쉽습니다.",
        "윤활 처리된 스테빌라이저 적용.", "맥과 윈도우 모두 지원합니다.", "두꺼운 PBT 재질로 번들거림이 적습니다.",
        "대부분의 기계식 키보드와 호환됩니다.", "각인이 선명합니다.", "공장 윤활 처리.", "구분감이 확실합니다.",
        "원목 소재로 손목이 편안합니다.", "사용감 거의 없습니다.", "재고 소진 시 품절됩니다.", "배터리 4000mAh, 최대 200시간 사용.",
        "키압 45g, 5핀 스위치.", "정전용량 무접점 방식으로 축감이 독특합니다.", "흡음재가 들어 있어 통울림이 없습니다.",
    ], exponent: 1.0)

    /// Model codes: a letter or two and a number (K87, FX104), 20,000 of them in a fixed
    /// shuffled order, so the commonest is in about 1% of keyboards and the rarest in few.
    static let modelCodes: ZipfList = {
        let letters = ["K", "F", "B", "H", "Q", "V", "M", "A", "G", "S", "T", "X", "R", "N", "P", "C", "L", "D", "FX", "GK"]
        var codes: [String] = []
        codes.reserveCapacity(letters.count * 1_000)
        for letter in letters { for number in 1...1_000 { codes.append("\(letter)\(number)") } }
        var generator = SplitMix64(seed: 0x4B43_4D4F_4445)
        for index in codes.indices.dropLast().reversed() {  // Fisher–Yates, seeded
            codes.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return ZipfList(codes, exponent: 1.0)
    }()
}

/// Words with a Zipf spread: the word of rank r (from 1) is picked with weight 1 / r^exponent.
struct ZipfList: Sendable {
    let words: [String]
    /// The cumulative share of each word, the last 1.
    private let cumulative: [Double]

    init(_ words: [String], exponent: Double) {
        self.words = words
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(words.count)
        for rank in 1...words.count {
            total += 1 / pow(Double(rank), exponent)
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    /// A word picked with its weight.
    func pick(_ generator: inout SplitMix64) -> String {
        let draw = Double(generator.next() >> 11) / Double(1 << 53)
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] <= draw { low = middle + 1 } else { high = middle }
        }
        return words[low]
    }

    /// The share of picks that give the word of `rank` (from 1).
    func share(ofRank rank: Int) -> Double {
        cumulative[rank - 1] - (rank > 1 ? cumulative[rank - 2] : 0)
    }
}
