import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData
@testable import KeyCatInfrastructure

/// A review's insert asks, in its own transaction, whether a purchase still supports it, when
/// the shop's purchases are its own orders: the service's check before it is a separate read, and
/// a refund committing between the two would otherwise leave a review no purchase stands on.
@Suite("A review's insert checks its purchase in its own transaction")
struct ReviewInsertCheckTests {
    @Test("without a supporting line the insert is refused and writes nothing; a store asked not to check inserts", arguments: TestStore.allCases)
    func insertChecks(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            try KeyCatSchema.migrator().migrate(database)
            let (product, buyer) = try await CommerceHarness.stock(database, units: 3, clock: TestClock())
            let form = try ReviewForm(rating: 5, content: "타건감이 아주 좋습니다.").validated()
            let checking = SQLReviewRepository(database: database, checksPurchase: true)
            let refused = await keycatError { try await checking.insert(form, product: product.id, author: buyer.userID, at: Date()) }
            #expect(refused?.code == .forbidden && refused?.context["product_id"] == "\(product.id)", "\(String(describing: refused))")
            let count = { try await database.read { try $0.queryOne("SELECT count(*) FROM reviews", []) { $0.int(0) } } }
            #expect(try await count() == 0)
            await #expect(try database.read { try $0.queryOne("SELECT rating_count FROM products WHERE id = ?", [.integer(product.id.rawValue)]) { $0.int(0) } } == 0)
            // A shop whose purchases live elsewhere (a configured port) leaves the check to it.
            _ = try await SQLReviewRepository(database: database).insert(form, product: product.id, author: buyer.userID, at: Date())
            #expect(try await count() == 1)
        }
        try await store.withDatabases { try await check($0[0]) }
    }
}
