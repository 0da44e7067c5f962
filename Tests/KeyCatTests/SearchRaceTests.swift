import Foundation
import KeyCat
import KeyCatTestSupport
import Synchronization
import Testing

/// The index's bulk writers (a catch-up when a store opens, an operator's rebuild) running
/// beside the writes a shop never stops taking: whatever order their transactions meet in,
/// the index ends as the catalog says, and every write shows in search.
@Suite("Search under concurrent writes")
struct SearchRaceTests {
    /// Set once the bulk writers are done, so the shop's writes keep coming until then.
    private final class Finish: Sendable {
        private let flag = Atomic(false)
        var isDone: Bool { flag.load(ordering: .acquiring) }
        func done() { flag.store(true, ordering: .releasing) }
    }

    /// A step of the race that failed: which, and after how long (a SQLite write gives up
    /// waiting for the writer after 5 s), so a failure says more than "database is locked".
    struct StepFailure: Error, CustomStringConvertible {
        let step: String
        let after: Duration
        let error: any Error
        var description: String { "\(step) failed after \(after): \(error)" }
    }

    /// Runs `body`, a step of the race named `step`, naming it and its time in any failure.
    private static func step<Result>(_ step: String, _ body: () async throws -> Result) async throws -> Result {
        let started = ContinuousClock.now
        do {
            return try await body()
        } catch {
            throw StepFailure(step: step, after: ContinuousClock.now - started, error: error)
        }
    }

    /// Opens a second server, which catches the index up as it opens for writes; then rebuilds
    /// the index through it, as an operator would.
    private static func catchUpAndRebuild(_ configuration: KeyCat.Configuration, by operatorConsole: Principal,
                                          then finish: Finish) async throws {
        defer { finish.done() }
        let server = try await step("the second server's open and catch-up") { try await KeyCat.open(configuration) }
        defer { server.close() }
        _ = try await step("the rebuild") { try await server.search.reindex(by: operatorConsole) }
    }

    @Test("a catch-up and a rebuild beside edits, deletions, suspensions, reinstatements and payments leave the index whole",
          arguments: TestStore.allCases)
    func bulkWritersBesideWrites(_ store: TestStore) async throws {
        // The buyer checks out and confirms once a round, faster than a shop lets one buyer.
        try await TestShop.with(store, configure: { $0.stockHolds?.checkoutRate = nil; $0.confirmationRate = nil }) { shop in
            let suspended = try await shop.user(.seller)
            let editor = try await shop.user(.seller)
            let buyer = try await shop.user(.buyer)
            // The two sellers' listings at both ends of three catch-up batches of 500.
            var theirs: [Product] = []
            var edited: [Product] = []
            func list(_ round: Int) async throws {
                for number in 0..<4 {
                    theirs.append(try await shop.keycat.catalog.create(
                        TestShop.draft("몽돌 택타일 갈축 \(round)-\(number)") { $0.tags = ["몽돌"] }, for: suspended.userID, by: suspended))
                    edited.append(try await shop.keycat.catalog.create(
                        TestShop.draft("노을 리니어 적축 \(round)-\(number)") { $0.tags = ["노을"]; $0.stock = 100 }, for: editor.userID, by: editor))
                }
            }
            try await list(0)
            _ = try await shop.keycat.seedSynthetic(count: 1_200, seed: 11, by: shop.operatorConsole)
            try await list(1)
            try await SearchUpkeepTests.forgetIndex(shop)

            let finish = Finish()
            async let bulk: Void = Self.catchUpAndRebuild(shop.keycat.configuration, by: shop.operatorConsole, then: finish)
            var round = 0
            var deleted: Set<ProductID> = []
            var lastTitles: [ProductID: String] = [:]
            repeat {
                _ = try await Self.step("suspend") { try await shop.keycat.accounts.suspend(suspended.userID, by: shop.operatorConsole) }
                let index = round % edited.count
                let listing = try await shop.keycat.catalog.product(edited[index].id)
                var changes = ProductChanges(expectedVersion: listing.version)
                changes.title = "노을 리니어 은축 에디션 \(round)호"
                _ = try await Self.step("edit") { try await shop.keycat.catalog.update(listing.id, changes, by: editor) }
                lastTitles[listing.id] = changes.title
                // Two listings in one order, the larger id first.
                let pair = [edited[(index + 1) % edited.count], edited[index]].sorted { $0.id > $1.id }
                let order = try await Self.step("checkout") {
                    try await shop.keycat.checkout.checkout(CheckoutRequest(.items(pair.map { CheckoutItem(productID: $0.id, quantity: 1) })),
                                                            by: buyer)
                }
                _ = try await Self.step("payment") { try await shop.keycat.checkout.confirm(order.id, impUID: try shop.pay(order).impUID, by: buyer) }
                _ = try await Self.step("reinstate") { try await shop.keycat.accounts.reinstate(suspended.userID, by: shop.operatorConsole) }
                if round % 4 == 3, theirs.count > 1 {
                    let gone = theirs.removeLast()
                    try await Self.step("delete") { try await shop.keycat.catalog.delete(gone.id, by: suspended) }
                    deleted.insert(gone.id)
                }
                round += 1
            } while !finish.isDone && round < 200
            try await bulk

            // The index matches the catalog, counts and all.
            let checked = try await KeyCat.open(shop.keycat.configuration)
            defer { checked.close() }
            #expect(try await checked.search.problems() == [])
            // Every write shows: the last titles, the deletions, the seller back, the units sold.
            for (id, title) in lastTitles {
                let found = try await SearchBehaviourTests.search(shop, title, limit: 5).items.map(\.id)
                #expect(found.first == id, "\(title)")
            }
            let stillListed = Set(try await SearchBehaviourTests.search(shop, "몽돌").items.map(\.id))
            #expect(stillListed == Set(theirs.map(\.id)))
            #expect(stillListed.isDisjoint(with: deleted))
            let suggested = try await shop.keycat.search.suggestions(try SuggestionQuery("몽돌")).map(\.text)
            #expect(suggested.contains("몽돌"))
            #expect(try await shop.integer("""
                SELECT count(*) FROM search_documents d WHERE d.units_sold <> (
                    SELECT coalesce(sum(l.quantity), 0) FROM order_lines l JOIN orders o ON o.id = l.order_id
                    WHERE l.product_id = d.product_id AND o.paid_at IS NOT NULL)
                """) == 0)
            #expect(try await shop.integer("SELECT sum(units_sold) FROM search_documents") == 2 * round)
        }
    }
}
