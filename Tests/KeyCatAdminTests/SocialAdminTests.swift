import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// Everyone bought everything: the admin tests exercise the CLI, not the review rules.
private struct EveryPurchaseEligible: PurchaseHistory {
    func hasEligiblePurchase(buyer: UserID, product: ProductID) throws(KeyCatError) -> Bool { true }
}

/// A database with one product, three reviews of it, a bookmark and a follow, written through
/// the library; the CLI then runs against the database.
private struct SocialFixture {
    let database: AdminDatabase
    let product: ProductID
    let reviews: [ReviewID]
    var path: String { database.argument }

    init(_ database: AdminDatabase) async throws {
        self.database = database
        var configuration = database.configuration
        configuration.passwordIterations = 1_000
        configuration.purchaseHistory = EveryPurchaseEligible()
        let clock = TestClock()
        configuration.clock = clock
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }
        let console = Principal.operatorConsole("tester")
        func user(_ name: String, _ role: Role) async throws -> Principal {
            let user = try await keycat.accounts.createUser(
                SignUpForm(email: "\(name)@example.com", password: "keycat123", nick: name), role: role, by: console)
            return user.principal
        }
        let seller = try await user("seller", .seller)
        let draft = ProductDraft(
            kind: .commercial, category: .keycap, title: "GMK 체리 키캡", content: "PBT 이중사출",
            pricing: Pricing(regularPrice: Money(won: 90_000), salePrice: Money(won: 80_000)),
            delivery: Delivery(fee: Money(won: 3_000), schedule: .standard), stock: 5)
        product = try await keycat.catalog.create(draft, for: seller.userID, by: seller).id
        var written: [ReviewID] = []
        for (index, rating) in [5, 3, 4].enumerated() {
            clock.advance(by: 60)
            let buyer = try await user("buyer\(index)", .buyer)
            await written.append(try keycat.reviews.write(
                ReviewForm(rating: rating, content: "리뷰 \(index): 만족스러운 구매였습니다."), of: product, by: buyer).id)
            if index == 0 {
                try await keycat.bookmarks.add(product, by: buyer)
                try await keycat.follows.follow(seller.userID, by: buyer)
            }
        }
        reviews = written
    }

    func tamper(_ sql: String) throws { try database.execute(sql) }

    /// KeyCat on the fixture's database, as a server would open it.
    func open() async throws -> KeyCat { try await KeyCat.open(database.configuration) }
}

@Suite("keycat-admin reviews and the counter checks")
struct SocialAdminTests {
    @Test("checkHealth names each stored counter tampered with in the database", arguments: TestStore.allCases, [
        ("UPDATE products SET rating_count = rating_count + 1", "rating_count"),
        ("UPDATE products SET rating_sum = rating_sum - 1", "rating_sum"),
        ("UPDATE products SET rating_score = 5000", "rating_score"),
        ("UPDATE products SET bookmark_count = 7", "bookmark_count"),
        ("UPDATE users SET follower_count = follower_count + 1 WHERE role = 'seller'", "follower_count"),
        ("UPDATE users SET following_count = 0", "following_count"),
    ])
    func tamperedCounter(_ store: TestStore, _ edit: (String, String)) async throws {
        let (sql, counter) = edit
        try await withAdminDatabase(store, initialised: false) { database in
            let fixture = try await SocialFixture(database)
            let keycat = try await fixture.open()
            await #expect(try keycat.checkHealth().isHealthy)
            keycat.close()
            try fixture.tamper(sql)
            let reopened = try await fixture.open()
            defer { reopened.close() }
            let problems = try await reopened.checkHealth().invariantProblems
            #expect(problems.count == 1, "\(problems)")
            #expect(problems.first?.contains(counter) == true, "\(problems)")
        }
    }

    @Test("db check exits 1 and reports a tampered counter; it exits 0 before", arguments: TestStore.allCases)
    func databaseCheckProcess(_ store: TestStore) async throws {
        try await withAdminDatabase(store, initialised: false) { database in
            let fixture = try await SocialFixture(database)
            #expect(try database.run(["db", "check", "--db", fixture.path]).status == 0)
            try fixture.tamper("UPDATE products SET bookmark_count = 5 WHERE id = \(fixture.product)")
            let human = try database.run(["db", "check", "--db", fixture.path])
            #expect(human.status == 1)
            #expect(human.standardOutput.contains("product \(fixture.product): bookmark_count is 5 but it has 1 bookmarks"))
            let json = try database.run(["db", "check", "--db", fixture.path, "--json"])
            #expect(json.status == 1)
            let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            #expect(object?["healthy"] as? Bool == false)
            #expect((object?["invariants"] as? [String])?.count == 1)
        }
    }

    @Test("reviews list pages newest first in a table and in JSON", arguments: TestStore.allCases)
    func list(_ store: TestStore) async throws {
        try await withAdminDatabase(store, initialised: false) { database in
            let fixture = try await SocialFixture(database)
            let human = try database.run(["reviews", "list", "--product", "\(fixture.product)", "--db", fixture.path])
            #expect(human.status == 0, "\(human.standardError)")
            #expect(human.standardOutput.hasPrefix("ID"))
            #expect(human.standardOutput.contains("★★★★"))

            let first = try database.run(
                ["reviews", "list", "--product", "\(fixture.product)", "--limit", "2", "--json", "--db", fixture.path])
            #expect(first.status == 0)
            let page = try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any]
            let items = page?["items"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["id"] as? Int64 } == fixture.reviews.reversed().prefix(2).map(\.rawValue))
            #expect(items.first?["rating"] as? Int == 4)
            let cursor = try #require(page?["next_cursor"] as? String)

            let second = try database.run(
                ["reviews", "list", "--product", "\(fixture.product)", "--cursor", cursor, "--json", "--db", fixture.path])
            let rest = try JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any]
            #expect((rest?["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int64 } == [fixture.reviews[0].rawValue])
            #expect(rest?["next_cursor"] is NSNull)
        }
    }

    @Test("reviews delete removes the review, corrects the rating and is audited; again is not found", arguments: TestStore.allCases)
    func delete(_ store: TestStore) async throws {
        try await withAdminDatabase(store, initialised: false) { database in
            let fixture = try await SocialFixture(database)
            let target = fixture.reviews[0]
            let outcome = try database.run(["reviews", "delete", "\(target)", "--db", fixture.path])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("Deleted review \(target)"))

            let keycat = try await fixture.open()
            let product = try await keycat.catalog.product(fixture.product)
            #expect(product.ratingCount == 2 && product.ratingSum == 7)
            let audit = try await keycat.auditLog.recent(limit: 10).first { $0.action == "review.delete" }
            #expect(audit?.actor == "cli:tester" && audit?.target == "review:\(target)")
            await #expect(try keycat.checkHealth().isHealthy)
            keycat.close()

            let again = try database.run(["reviews", "delete", "\(target)", "--db", fixture.path, "--json"])
            #expect(again.status == 1)
            #expect(again.standardError.contains("not_found"))
        }
    }

    @Test("bad reviews arguments are usage errors (exit 2)", arguments: [
        ["reviews", "list"], ["reviews", "list", "--product", "0"], ["reviews", "list", "--product", "x"],
        ["reviews", "list", "--product", "1", "--limit", "101"], ["reviews", "delete"], ["reviews", "delete", "-3"],
        ["reviews"],
    ])
    func usage(arguments: [String]) throws {
        let outcome = try AdminProcess.run(arguments + ["--db", "/nonexistent/keycat.db"])
        #expect(outcome.status == 2, "\(outcome.standardError)")
    }
}
