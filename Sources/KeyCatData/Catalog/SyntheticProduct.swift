import KeyCatDomain

/// Plausible generated listings: brand, model and switch names combined per category, with
/// prices in the ranges the Korean keyboard market has them.
package enum SyntheticProduct {
    private static let brands = ["키캣", "Felt", "바람", "Nori", "Hanul", "Orbit", "단풍", "Mellow", "소리", "Pebble"]
    private static let models = ["F75", "B65", "K87", "Arc 60", "Tide 98", "Mono TKL", "Nova 75", "Aero 65", "Lumen 80", "Crest 100"]
    private static let switches = ["바다축", "크림 리니어", "토피 택타일", "밀키 클릭", "노을축", "저소음 적축", "갈축", "은축"]
    private static let keycapThemes = ["레트로", "바다", "올리비아", "먹물", "벚꽃", "한글 각인", "모노", "숲"]

    package static func draft(using generator: inout SplitMix64) -> ProductDraft {
        let category = ProductCategory.allCases[Int(generator.next() % 4)]
        let kind: ProductKind = generator.next() % 10 < 7 ? .commercial : (generator.next() % 2 == 0 ? .secondhand : .groupBuy)
        let brand = pick(brands, &generator)
        var spec = KeyboardSpec()
        let title: String
        let priceRange: ClosedRange<Int64>
        switch category {
        case .keyboard:
            spec = KeyboardSpec(
                input: .mechanical, connection: pick(KeyboardSpec.Connection.allCases, &generator),
                pcb: pick(KeyboardSpec.PCB.allCases, &generator),
                switchType: pick(KeyboardSpec.SwitchType.allCases, &generator),
                layout: pick(KeyboardSpec.Layout.allCases, &generator),
                keycapProfile: pick(KeyboardSpec.KeycapProfile.allCases, &generator),
                backlight: generator.next() % 2 == 0)
            title = "\(brand) \(pick(models, &generator)) 기계식 키보드 (\(pick(switches, &generator)))"
            priceRange = kind == .groupBuy ? 250_000...650_000 : 39_000...219_000
        case .keycap:
            spec.keycapProfile = pick(KeyboardSpec.KeycapProfile.allCases, &generator)
            title = "\(brand) \(pick(keycapThemes, &generator)) PBT 키캡 세트"
            priceRange = 39_000...189_000
        case .switch:
            spec.input = .mechanical
            spec.switchType = pick(KeyboardSpec.SwitchType.allCases, &generator)
            title = "\(brand) \(pick(switches, &generator)) 스위치 \(pick([10, 35, 70, 90], &generator))개"
            priceRange = 3_500...45_000
        case .accessory:
            title = "\(brand) \(pick(["우드 손목받침대", "코일 케이블", "스위치 풀러", "윤활 키트", "키보드 파우치"], &generator))"
            priceRange = 5_000...79_000
        }
        let price = Int64.random(in: priceRange, using: &generator) / 100 * 100
        let discounted = generator.next() % 4 == 0
        return ProductDraft(
            kind: kind, category: category, title: title,
            content: "\(title). 빠른 배송, 정품 보증.",
            pricing: Pricing(regularPrice: Money(won: discounted ? price / 10 * 12 : price), salePrice: Money(won: price)),
            delivery: Delivery(fee: Money(won: pick([0, 2_500, 3_000, 3_500], &generator)),
                               schedule: pick(DeliverySchedule.allCases, &generator)),
            stock: Int(generator.next() % 200),
            spec: spec)
    }

    private static func pick<Element>(_ items: [Element], _ generator: inout SplitMix64) -> Element {
        items[Int(generator.next() % UInt64(items.count))]
    }
}
