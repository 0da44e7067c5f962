import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Hand-written judgements of what a buyer expects at the top for 36 queries on the demo
/// catalog (`seed/catalog.json`): each names how many of the first results must have which
/// words in their titles. A ranking change that breaks one has made search worse for that
/// buyer, or the judgement needs rewriting on purpose.
@Suite("Search relevance on the demo catalog")
struct SearchRelevanceTests {
    /// The query, how many top results are judged, and the words each of their titles must have.
    static let judgements: [(query: String, top: Int, titlesHave: [String])] = [
        ("갈축", 5, ["갈축"]),
        ("적축", 5, ["적축"]),
        ("바다축", 5, ["바다축"]),
        ("저소음 바다축", 3, ["저소음 바다축"]),
        ("기계식키보드", 5, ["기계식 키보드"]),
        ("무접점", 3, ["무접점"]),
        ("무접점 키보드", 3, ["무접점", "키보드"]),
        ("캣87", 4, ["캣87"]),
        ("캣87 갈축", 2, ["캣87", "갈축"]),
        ("felt", 3, ["Felt"]),
        ("F99", 3, ["F99"]),
        ("b75", 3, ["B75"]),
        ("hanul", 5, ["Hanul"]),
        ("PBT 키캡", 5, ["PBT", "키캡"]),
        ("SA 키캡", 3, ["SA 프로파일"]),
        ("체리 프로파일", 5, ["체리 프로파일"]),
        ("gmk", 2, ["GMK"]),
        ("레트로 키캡", 2, ["레트로", "키캡"]),
        ("손목받침대", 5, ["손목받침대"]),
        ("원목 손목받침대", 3, ["원목 손목받침대"]),
        ("코일 케이블", 3, ["코일 케이블"]),
        ("스위치 테스터", 2, ["스위치 테스터"]),
        ("윤활제", 2, ["윤활제"]),
        ("광축", 3, ["광축"]),
        ("블루투스 키보드", 3, ["블루투스", "키보드"]),
        ("풀배열", 1, ["풀배열"]),
        ("데스크매트", 3, ["데스크매트"]),
        ("화이트 클릭", 3, ["화이트 클릭"]),
        ("크림 리니어 스위치", 3, ["크림 리니어 스위치"]),
        ("텐키리스", 1, ["텐키리스"]),
        ("한정판", 2, ["한정판"]),
        ("mda", 3, ["MDA"]),
        ("키보드를", 5, ["키보드"]),
        ("usb-c", 3, ["USB-C"]),
        ("중고 갈축", 1, ["[중고]", "갈축"]),
        ("공구 커스텀 키보드", 3, ["[공구]", "커스텀 키보드"]),
    ]

    @Test("the top results of every judged query", arguments: TestStore.allCases)
    func judged(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            _ = try await shop.keycat.importCatalog(try CatalogFile.decode(Data(CatalogFile.demoJSON.utf8)), by: shop.operatorConsole)
            for judgement in Self.judgements {
                let page = try await shop.keycat.catalog.list(ProductListRequest(
                    filter: ProductFilter(text: try SearchQuery(judgement.query)), limit: try PageLimit(judgement.top)))
                let titles = page.items.map(\.title)
                #expect(titles.count == judgement.top, "\(judgement.query): \(titles)")
                for title in titles {
                    #expect(judgement.titlesHave.allSatisfy { title.contains($0) }, "\(judgement.query): «\(title)» among \(titles)")
                }
            }
        }
    }
}
