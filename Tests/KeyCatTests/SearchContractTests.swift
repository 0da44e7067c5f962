import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// The matching contract of docs/search.md, one row per promise, on both stores: each query
/// finds exactly the listings the table names (by a short label), whatever else is listed.
@Suite("Search matching contract")
struct SearchContractTests {
    /// The catalog the table is written against: label, title, content, tags, spec.
    static let listings: [(label: String, title: String, content: String, tags: [String], spec: KeyboardSpec)] = [
        ("hanul", "Hanul H61 미니 블루투스 키보드 (갈축)", "작은 60% 배열. 축이 부드럽고 타건감이 좋습니다.", ["갈축", "미니"],
         KeyboardSpec(input: .mechanical, connection: .bluetooth, switchType: .tactile, layout: .sixtyPercent)),
        ("silent", "저소음 적축 기계식키보드 K200", "사무실용 조용한 키보드를 찾는 분께.", ["저소음", "사무실"],
         KeyboardSpec(input: .mechanical, connection: .wired, switchType: .linear, layout: .fullSize)),
        ("keycap", "SA 프로파일 ABS 이중사출 키캡 세트 — 레트로 (154키)", "레트로 색감의 SA 키캡.", ["키캡", "SA"],
         KeyboardSpec(keycapProfile: .sa)),
        ("gateron", "Gateron 황축 스위치 35개", "게이트론 리니어 스위치, 공장 윤활.", ["스위치"],
         KeyboardSpec(input: .mechanical, switchType: .linear)),
        ("capacitive", "무접점 키보드 B75 텐키리스", "정전용량 무접점, 축감이 독특합니다.", [],
         KeyboardSpec(input: .capacitive, connection: .wired, layout: .tenkeyless)),
        ("pbt", "Keychron Q1 75% 알루미늄 기계식 키보드", "PBT 키캡 기본 장착, 핫스왑.", ["keychron"],
         KeyboardSpec(input: .mechanical, connection: .multi, pcb: .hotSwap, switchType: .linear, layout: .seventyFivePercent)),
        ("mouse", "우드 손목받침대", "호두나무 원목. 축이 없는 제품.", ["우드"], KeyboardSpec()),
    ]

    /// A query and the labels it must find, in any order.
    static let table: [(query: String, finds: Set<String>, promise: String)] = [
        ("갈축", ["hanul"], "a two-syllable word"),
        ("적축", ["silent"], "a two-syllable word"),
        ("키캡", ["keycap", "pbt"], "a two-syllable word, in title and content"),
        ("축감", ["capacitive"], "a two-syllable word in content"),
        ("기계식키보드", ["silent", "pbt"], "a compound without its space finds it with one"),
        ("기계식 키보드", ["silent", "pbt", "hanul"], "a compound with its space finds it without one (and 기계식 in a spec)"),
        ("무접점 키보드", ["capacitive"], "two words, both required"),
        ("저소음 적축 키보드", ["silent"], "three words"),
        ("\u{1100}\u{1161}\u{11AF}\u{110E}\u{116E}\u{11A8}", ["hanul"], "NFD input (갈축 decomposed)"),
        ("GATER", ["gateron"], "a Latin prefix, case-insensitive"),
        ("gateron", ["gateron"], "a Latin word"),
        ("pbt", ["pbt"], "a Latin word in content"),
        ("sa", ["keycap"], "a two-letter Latin word"),
        ("75%", ["pbt"], "a percentage"),
        ("K200", ["silent"], "a model code"),
        ("h61", ["hanul"], "a model code, lowercase"),
        ("b75", ["capacitive"], "a model code"),
        ("키보드를", ["hanul", "silent", "capacitive", "pbt"], "a particle on the query is dropped"),
        ("축", ["hanul", "silent", "gateron", "mouse"], "one syllable: titles and tags, and a word in content with its particle (축이)"),
        ("keychorn", ["pbt"], "one typo in a Latin word of five letters or more"),
        ("gaterno", ["gateron"], "one typo (a swap)"),
        ("블루투스", ["hanul", "pbt"], "a spec value by its Korean name (pbt's is multi: 유무선 블루투스)"),
        ("텐키리스", ["capacitive"], "a layout by its Korean name"),
        ("ㄱㅊ", ["hanul"], "initials of a title word"),
        ("사무실", ["silent"], "a tag"),
        ("조용한키보드를", ["silent"], "a compound with a particle, in content"),
        ("없는말", [], "nothing matches"),
        ("zzzzzz", [], "a Latin word nothing is one edit from"),
    ]

    @Test("every row of the contract table", arguments: TestStore.allCases)
    func contractTable(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let labels = try await Self.stock(shop)
            for row in Self.table {
                let page = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery(row.query)), limit: try PageLimit(100)))
                let found = Set(page.items.compactMap { labels[$0.id] })
                #expect(found == row.finds, "\(row.query): \(row.promise)")
            }
        }
    }

    @Test("synonyms an operator adds match both ways, and removing one stops it", arguments: TestStore.allCases)
    func synonyms(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let labels = try await Self.stock(shop)
            func find(_ query: String) async throws -> Set<String> {
                let page = try await shop.keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery(query)), limit: try PageLimit(100)))
                return Set(page.items.compactMap { labels[$0.id] })
            }
            #expect(try await find("키크론") == [])
            try await shop.keycat.search.addSynonym("키크론", "Keychron", by: shop.operatorConsole)
            try await shop.keycat.search.addSynonym("silent", "저소음", by: shop.operatorConsole)
            #expect(try await find("키크론") == ["pbt"])
            #expect(try await find("silent") == ["silent"])
            #expect(try await find("저소음") == ["silent"])
            try await shop.keycat.search.removeSynonym("키크론", "keychron", by: shop.operatorConsole)
            #expect(try await find("키크론") == [])
        }
    }

    @Test("the spellings one edit away are exactly the words one edit away")
    func oneEditVariants() {
        let variants = TypoDistance.oneEditVariants(of: "keychorn")
        #expect(variants.contains("keychron") && variants.contains("keychor") && variants.contains("keychorns"))
        #expect(!variants.contains("keychorn"))
        #expect(variants.allSatisfy { TypoDistance.isOneEdit("keychorn", $0) })
        #expect(Set(variants).count == variants.count)
    }

    @Test("an empty, over-long or wordless query is a validation error on q")
    func limits() async {
        await expectError(.validation, field: "q") { try SearchQuery("   ") }
        await expectError(.validation, field: "q") { try SearchQuery(String(repeating: "가", count: 101)) }
        await expectError(.validation, field: "q") { try SearchQuery((1...11).map { "w\($0)" }.joined(separator: " ")) }
        await expectError(.validation, field: "q") { try SearchQuery("!!! ---") }
        #expect(throws: Never.self) { try SearchQuery(String(repeating: "가", count: 100)) }
    }

    /// Lists the table's catalog; returns each listing's label by id.
    static func stock(_ shop: TestShop) async throws -> [ProductID: String] {
        let seller = try await shop.user(.seller)
        var labels: [ProductID: String] = [:]
        for listing in listings {
            let product = try await shop.keycat.catalog.create(TestShop.draft(listing.title) { draft in
                draft.content = listing.content
                draft.tags = listing.tags
                draft.spec = listing.spec
                draft.category = listing.label == "keycap" ? .keycap : listing.label == "gateron" ? .switch : .keyboard
            }, for: seller.userID, by: seller)
            labels[product.id] = listing.label
        }
        return labels
    }
}
