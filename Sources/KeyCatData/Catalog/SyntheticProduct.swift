import KeyCatDomain
import KeyCatInfrastructure

/// Plausible generated listings, written as Korean sellers title them: Korean words with Latin
/// brand, switch and model names ("Keychron K8 Pro 텐키리스 유무선 알루미늄 기계식 키보드
/// (갈축)"), a spec that agrees with the title, a description of a sentence or two after the
/// title, a few tags, and prices in the ranges the Korean keyboard market has them. Words come
/// from ``SyntheticVocabulary`` with a Zipf spread.
package enum SyntheticProduct {
    private typealias Words = SyntheticVocabulary

    package static func draft(using generator: inout SplitMix64) -> ProductDraft {
        let category = pickCategory(&generator)
        let kind: ProductKind = generator.next() % 10 < 7 ? .commercial : (generator.next() % 2 == 0 ? .secondhand : .groupBuy)
        let brand = Words.brands.pick(&generator)
        var spec = KeyboardSpec()
        let title: String
        let priceRange: ClosedRange<Int64>
        var tags = [String]()
        switch category {
        case .keyboard:
            spec = KeyboardSpec(
                input: pick([.mechanical, .mechanical, .mechanical, .mechanical, .mechanical, .mechanical, .capacitive, .optical,
                             .membrane] as [KeyboardSpec.InputMechanism], &generator),
                connection: pick(KeyboardSpec.Connection.allCases, &generator),
                pcb: pick(KeyboardSpec.PCB.allCases, &generator),
                switchType: pick(KeyboardSpec.SwitchType.allCases, &generator),
                layout: pick(KeyboardSpec.Layout.allCases, &generator),
                keycapProfile: pick(KeyboardSpec.KeycapProfile.allCases, &generator),
                backlight: generator.next() % 2 == 0)
            var words = [brand, model(&generator)]
            if let layout = layoutWord(spec.layout, &generator) { words.append(layout) }
            words.append(connectionWord(spec.connection, &generator))
            switch generator.next() % 4 {
            case 0: words.append(Words.materials.pick(&generator))
            case 1: words.append(Words.colours.pick(&generator))
            case 2: words.append(spec.pcb == .hotSwap ? "핫스왑" : Words.features.pick(&generator))
            default: break
            }
            words.append(inputWord(spec.input) + " 키보드")
            title = words.joined(separator: " ") + " (\(Words.switches.pick(&generator)))"
            priceRange = kind == .groupBuy ? 250_000...650_000 : 39_000...219_000
            tags.append(Words.keyboardTags.pick(&generator))
        case .keycap:
            let profile = pick(KeyboardSpec.KeycapProfile.allCases, &generator)
            spec.keycapProfile = profile
            let profileName = generator.next() % 2 == 0 ? profile.rawValue.uppercased() : profileWord(profile)
            title = "\(brand) \(Words.keycapThemes.pick(&generator)) \(profileName) 프로파일 \(Words.keycapMaterials.pick(&generator)) "
                + "\(Words.keycapMethods.pick(&generator)) 키캡 세트 (\(Words.keycapCounts.pick(&generator))키)"
            priceRange = 39_000...189_000
            tags.append(Words.keycapTags.pick(&generator))
        case .switch:
            spec.input = .mechanical
            let type = pick(KeyboardSpec.SwitchType.allCases, &generator)
            spec.switchType = type
            let typeName = switch type { case .linear: "리니어"; case .tactile: "택타일"; case .clicky: "클릭" }
            title = "\(brand) \(Words.switches.pick(&generator)) \(typeName) 스위치 \(pick([10, 35, 45, 70, 90, 110], &generator))개"
            priceRange = 3_500...45_000
            tags.append(Words.switchTags.pick(&generator))
        case .accessory:
            let colour = generator.next() % 3 == 0 ? Words.colours.pick(&generator) + " " : ""
            title = "\(brand) \(colour)\(Words.accessories.pick(&generator))"
            priceRange = 5_000...79_000
            tags.append(Words.accessoryTags.pick(&generator))
        }
        if generator.next() % 2 == 0 { tags.append(category == .keyboard ? Words.keyboardTags.pick(&generator) : Words.generalTags.pick(&generator)) }
        tags.append(Words.generalTags.pick(&generator))
        var sentences = [Words.sentences.pick(&generator)]
        if generator.next() % 2 == 0 { sentences.append(Words.sentences.pick(&generator)) }
        let price = Int64.random(in: priceRange, using: &generator) / 100 * 100
        let discounted = generator.next() % 4 == 0
        return ProductDraft(
            kind: kind, category: category, title: title,
            content: "\(title). " + sentences.joined(separator: " "),
            pricing: Pricing(regularPrice: Money(won: discounted ? price / 10 * 12 : price), salePrice: Money(won: price)),
            delivery: Delivery(fee: Money(won: pick([0, 2_500, 3_000, 3_500], &generator)),
                               schedule: pick(DeliverySchedule.allCases, &generator)),
            stock: Int(generator.next() % 200),
            spec: spec,
            tags: uniqueTags(tags))
    }

    /// The model code at `rank` (from 1) of the Zipf list keyboards' models are drawn from, and
    /// the share of keyboards that carry it: a benchmark picks its rare words here.
    package static func modelCode(rank: Int) -> (code: String, share: Double) {
        (Words.modelCodes.words[rank - 1], Words.modelCodes.share(ofRank: rank))
    }

    /// Keyboards 28% of the listings, accessories 30%, keycaps 22%, switches 20%.
    private static func pickCategory(_ generator: inout SplitMix64) -> ProductCategory {
        switch generator.next() % 50 {
        case 0..<14: .keyboard
        case 14..<25: .keycap
        case 25..<35: .switch
        default: .accessory
        }
    }

    private static func model(_ generator: inout SplitMix64) -> String {
        let code = Words.modelCodes.pick(&generator)
        return generator.next() % 3 == 0 ? code + " " + Words.modelSuffixes.pick(&generator) : code
    }

    private static func layoutWord(_ layout: KeyboardSpec.Layout?, _ generator: inout SplitMix64) -> String? {
        let first = generator.next() % 2 == 0
        switch layout {
        case .fullSize?: return first ? "풀배열" : "104키"
        case .tenkeyless?: return first ? "텐키리스" : "TKL"
        case .seventyFivePercent?: return first ? "75%" : "75배열"
        case .sixtyFivePercent?: return "65%"
        case .sixtyPercent?: return first ? "60%" : "미니"
        case .other?: return pick(["96%", "1800배열", "앨리스", "스플릿", nil], &generator)
        case nil: return nil
        }
    }

    private static func connectionWord(_ connection: KeyboardSpec.Connection?, _ generator: inout SplitMix64) -> String {
        let first = generator.next() % 2 == 0
        switch connection {
        case .wired?: return "유선"
        case .wireless?: return first ? "무선" : "2.4G 무선"
        case .bluetooth?: return "블루투스"
        case .multi?, nil: return first ? "유무선" : "3모드"
        }
    }

    private static func inputWord(_ input: KeyboardSpec.InputMechanism?) -> String {
        switch input {
        case .capacitive?: "무접점"
        case .optical?: "광축"
        case .membrane?: "멤브레인"
        case .scissor?: "팬타그래프"
        case .mechanical?, nil: "기계식"
        }
    }

    private static func profileWord(_ profile: KeyboardSpec.KeycapProfile) -> String {
        switch profile {
        case .cherry: "체리"
        case .oem: "OEM"
        case .sa: "SA"
        case .ksa: "KSA"
        case .osa: "OSA"
        case .dsa: "DSA"
        case .xda: "XDA"
        case .mda: "MDA"
        }
    }

    /// Tags once each, as ``ProductTags/validated(_:)`` keeps them.
    private static func uniqueTags(_ tags: [String]) -> [String] {
        var seen: Set<String> = []
        return tags.filter { seen.insert($0).inserted }
    }

    private static func pick<Element>(_ items: [Element], _ generator: inout SplitMix64) -> Element {
        items[Int(generator.next() % UInt64(items.count))]
    }
}
