import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// What checkout and confirm cost in round trips on Postgres, where each one is a wait on the
/// network (architecture §7). Counts, not times: they do not vary between machines.
@Suite("Postgres round trips of checkout, confirm and toggles", .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresRoundTripTests {
    @Test("checkout is three round trips and nine statements, confirm three and sixteen, shipping a parcel two: each write's last batch carries its COMMIT")
    func checkoutAndConfirm() async throws {
        try await withPostgresTestDatabase { database in
            let clock = TestClock()
            let gateway = FakeGateway()
            let (product, buyer) = try await CommerceHarness.stock(database, units: 5, clock: clock)
            let shop = CommerceHarness.stored(database, product: product, buyer: buyer, clock: clock, gateway: gateway)
            // The first order prepares the statements; the second is what every later one costs.
            for round in 0..<2 {
                let beforeCheckout = (database.roundTripCount, database.statementCount)
                let order = try await shop.order(quantity: 1)
                let checkout = database.roundTripCount - beforeCheckout.0
                let checkoutStatements = database.statementCount - beforeCheckout.1
                gateway.add(GatewayPayment(impUID: "imp_\(round)", merchantUID: order.merchantUID, status: .paid, amount: order.amount))
                let beforeConfirm = (database.roundTripCount, database.statementCount)
                let paid = try await shop.checkout.confirm(order.id, impUID: "imp_\(round)", by: shop.buyer)
                let confirm = database.roundTripCount - beforeConfirm.0
                let confirmStatements = database.statementCount - beforeConfirm.1
                #expect(paid.status == .paid && paid.impUID == "imp_\(round)" && paid.lines.count == 1 && paid.shipments.count == 1)
                // Products; stock takes with the order's row; parcels, lines, ledger and COMMIT.
                #expect(checkout == 3, "round \(round)")
                // The order's row; the turn after a catch-up with the conditional UPDATE; payment, sale entries, units sold, cart, read-back and COMMIT.
                #expect(confirm == 3, "round \(round)")
                // Statements, the server's work: checkout's answer is built from what it wrote,
                // not read back (four reads fewer), and confirm checks the order's own row alone
                // (one read where the whole order is four).
                // Each writes its event in its last batch: a statement more, no round trip.
                #expect(checkoutStatements == 9, "round \(round): products; BEGIN, stock take, order; parcel, line, ledger, order.created, COMMIT")
                #expect(confirmStatements == 16, "round \(round): thirteen, a turn after any catch-up of the index, the units sold that rank search results, and order.paid")
            }
            // A seller ships the last order's parcel: the move with its order's parcels read, then
            // the order's status, carrier and audit entry with the COMMIT.
            let last = try await #require(try shop.orders.list(OrderFilter(), after: nil, limit: 1).first)
            var move = ShipmentMove(shipmentID: try #require(last.shipments.first).id, from: .pending, to: .shipped)
            move.carrier = Carrier.all[0]
            move.trackingNumber = "123456789012"
            let beforeShip = database.roundTripCount
            await #expect(try SQLFulfilmentRepository(database: database).apply(move, at: clock.now()))
            #expect(database.roundTripCount - beforeShip == 2)
            let shipped = try await #require(try shop.orders.find(last.id))
            #expect(shipped.status == .shipped && shipped.carrier == Carrier.all[0].code && shipped.trackingNumber == "123456789012")
            // Each write's event, in the order they committed, from the rows the batches changed.
            let log = SQLEventLog(database: database)
            var page = try await log.page(after: .start, limit: 100)
            while page.isBehind {
                // Behind another suite's transaction on the shared server: readable once it ends.
                try await Task.sleep(for: .milliseconds(10))
                page = try await log.page(after: .start, limit: 100)
            }
            let events = page.events.filter { $0.type != .productCreated }
            #expect(events.map(\.type) == [.orderCreated, .orderPaid, .orderCreated, .orderPaid, .shipmentShipped])
            #expect(events.last?.data["tracking_number"] == "123456789012" && events.last?.data["buyer_id"] == .integer(buyer.userID.rawValue))
            #expect(events[1].data["amount"] == events[0].data["amount"] && events[1].data["imp_uid"] == "imp_0")
            #expect(events[1].data["status"] == "paid" && events[0].data["status"] == "awaiting_payment")
            // What the batches wrote is all there.
            let entries = try await database.readStatement { try $0.queryOne("SELECT count(*) FROM settlement_entries") { $0.int(0) } }
            #expect(entries == 4, "a sale and a delivery fee for each of the two orders")
            await #expect(try shop.stock() == 3)
        }
    }

    @Test("a bookmark's add is three round trips, its removal two: the product locked with the checks or the delete, the count with the COMMIT")
    func bookmarkToggles() async throws {
        try await withPostgresTestDatabase { database in
            let clock = TestClock()
            let (product, buyer) = try await CommerceHarness.stock(database, units: 1, clock: clock)
            let bookmarks = SQLBookmarkRepository(database: database)
            func roundTrips(_ toggle: () async throws -> Bool) async throws -> (changed: Bool, roundTrips: Int) {
                let before = database.roundTripCount
                let changed = try await toggle()
                return (changed, database.roundTripCount - before)
            }
            // The first toggles prepare the statements; the second pair is what every later one costs.
            for round in 0..<2 {
                let added = try await roundTrips { try await bookmarks.add(product.id, by: buyer.userID, at: clock.now()) }
                #expect(added == (true, 3), "round \(round): lock and checks; insert; count and COMMIT")
                let again = try await roundTrips { try await bookmarks.add(product.id, by: buyer.userID, at: clock.now()) }
                #expect(again == (false, 3), "round \(round): lock and checks; insert; COMMIT")
                let removed = try await roundTrips { try await bookmarks.remove(product.id, by: buyer.userID) }
                #expect(removed == (true, 2), "round \(round): lock and delete; count and COMMIT")
            }
            let count = try await database.readStatement {
                try $0.queryOne("SELECT bookmark_count FROM products WHERE id = ?", [.integer(product.id.rawValue)]) { $0.int(0) }
            }
            #expect(count == 0)
        }
    }

    @Test("a log-in's session starts in two round trips: its family taken from the account's row at the version checked, then its token with the COMMIT")
    func sessionStart() async throws {
        try await withPostgresTestDatabase { database in
            let clock = TestClock()
            let (_, buyer) = try await CommerceHarness.stock(database, units: 1, clock: clock)
            let tokens = SQLRefreshTokenRepository(database: database)
            func start(at version: Int64) async throws -> (family: Int64?, roundTrips: Int) {
                let before = database.roundTripCount
                let family = try await tokens.startFamily(
                    for: buyer.userID, tokenVersion: version, first: TokenDigest(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }), issuedAt: clock.now(),
                    expiresAt: clock.now().addingTimeInterval(3_600))
                return (family, database.roundTripCount - before)
            }
            // The first start prepares the statements; the second is what every later one costs.
            for round in 0..<2 {
                let started = try await start(at: 0)
                #expect(started.family != nil && started.roundTrips == 2, "round \(round)")
            }
            // At a version the account has left, nothing is written.
            let stale = try await start(at: 1)
            #expect(stale.family == nil && stale.roundTrips <= 2)
            let rows = try await database.readStatement {
                try $0.queryOne("SELECT (SELECT count(*) FROM refresh_token_families), (SELECT count(*) FROM refresh_tokens)") {
                    [$0.int(0), $0.int(1)]
                }
            }
            #expect(rows == [2, 2])
        }
    }
}

extension PostgresRoundTripTests {
    /// What the listing tests start from, on a fresh database: a stocked listing (whose seller
    /// lists the rest), the repository and search's maintenance.
    private func withListings(
        _ body: (PostgresDatabase, TestClock, Product, SQLProductRepository<PostgresDatabase>,
                 SearchMaintenance<PostgresDatabase>) async throws -> Void
    ) async throws {
        try await withPostgresTestDatabase { database in
            let clock = TestClock()
            let (first, _) = try await CommerceHarness.stock(database, units: 5, clock: clock)
            // Batches of 500 from the first, so a batch's round trips are counted whole.
            try await body(database, clock, first, SQLProductRepository(database: database),
                           SearchMaintenance(database: database, firstBatch: SearchIndex.batchSize))
        }
    }

    @Test("a listing's create is three round trips, an edit of its text four, its withdrawal three, its dozen words' counts in one batch")
    func listingWrites() async throws {
        try await withListings { database, clock, first, products, maintenance in
            func found(_ text: String) async throws -> [ProductID] {
                var filter = ProductFilter()
                filter.text = try SearchQuery(text)
                return try await products.search(filter, sort: .relevance, after: nil, limit: 20).hits.map(\.product.id)
            }
            func words(_ word: String) async throws -> Int? {
                try await database.readStatement {
                    try $0.queryOne("SELECT products FROM search_words WHERE word = ? AND kind = 'word'", [.text(word)]) { $0.int(0) }
                }
            }
            // The first round prepares the statements; the later ones are what every write costs.
            for round in 0..<3 {
                let (name, rename) = (["첫모델", "둘모델", "셋모델"][round], ["첫한정판", "둘한정판", "셋한정판"][round])
                var draft = CommerceHarness.draft(5)
                draft.title = "게이트론 오일킹 리니어 스위치 \(name) 저소음"
                draft.tags = ["갈축", "신제품", "라운드\(round)"]
                let audit = AuditEntry(actor: "seller:1", action: "product.create", target: "", detail: "", at: clock.now())
                let beforeCreate = database.roundTripCount
                let product = try await products.insert(draft, sellerID: first.sellerID, images: [], at: clock.now(), audit: audit)
                // The row, for its id; its ledger, document, 60-odd postings, a dozen words' counts,
                // audit entry and event; the COMMIT.
                #expect(database.roundTripCount - beforeCreate == 3, "round \(round)")
                #expect(try await maintenance.problems().isEmpty, "round \(round)")
                #expect(try await found(name) == [product.id])
                #expect(try await found("라운드\(round)") == [product.id])
                #expect(try await words(name) == 1)

                var edited = product
                edited.title = "게이트론 오일킹 리니어 스위치 \(rename) 저소음"
                edited.stock = 7
                let beforeEdit = database.roundTripCount
                let updated = try await products.update(edited, expectedVersion: product.version, at: clock.now(), audit: audit)
                // The listing as it was; the UPDATE with its document; the stock's ledger, the
                // changed postings and counts, audit entry and read-back; the event with the COMMIT.
                #expect(database.roundTripCount - beforeEdit == 4, "round \(round)")
                #expect(updated.title == edited.title && updated.stock == 7 && updated.version == product.version + 1)
                #expect(try await products.find(product.id) == updated)
                #expect(try await found(name).isEmpty)
                #expect(try await found(rename) == [product.id])
                #expect(try await words(name) == 0)
                #expect(try await words(rename) == 1)
                // A word the listing keeps is neither counted again nor taken away.
                #expect(try await words("게이트론") == 1)
                #expect(try await maintenance.problems().isEmpty, "round \(round)")

                let beforeDelete = database.roundTripCount
                try await products.delete(product.id, expectedVersion: nil, at: clock.now(), audit: audit)
                // The UPDATE with the document; the postings, document and counts removed, audit
                // entry and event; the COMMIT.
                #expect(database.roundTripCount - beforeDelete == 3, "round \(round)")
                #expect(try await words("게이트론") == 0)
                #expect(try await found(rename).isEmpty)
                #expect(try await words(rename) == 0)
                #expect(try await maintenance.problems().isEmpty, "round \(round)")
            }
            // Every write's stock movement and audit entry is there: three listings created at 5,
            // each set to 7 and withdrawn.
            let ledger = try await database.readStatement {
                try $0.query("SELECT kind, change FROM stock_movements WHERE product_id > ? ORDER BY id", [.integer(first.id.rawValue)]) {
                    "\($0.string(0)) \($0.int(1))"
                }
            }
            #expect(ledger == Array(repeating: ["listed 5", "adjustment 2"], count: 3).flatMap { $0 })
            let audits = try await database.readStatement { try $0.queryOne("SELECT count(*) FROM audit_log") { $0.int(0) } }
            #expect(audits == 9)
            // And each write's event, in the order they committed.
            let log = SQLEventLog(database: database)
            var page = try await log.page(after: .start, limit: 100)
            while page.isBehind {
                // Behind another suite's transaction on the shared server: readable once it ends.
                try await Task.sleep(for: .milliseconds(10))
                page = try await log.page(after: .start, limit: 100)
            }
            let events = page.events.filter { $0.aggregate.id != first.id.rawValue }
            #expect(events.map(\.type) == Array(repeating: [.productCreated, .productUpdated, .productWithdrawn], count: 3).flatMap { $0 })
            #expect(events.filter { $0.type == .productUpdated }.allSatisfy { $0.data["changed"] == ["title", "stock"] })
            // A write that fails changes nothing: an edit from a stale version.
            let stale = try #require(try await products.find(first.id))
            await #expect(throws: KeyCatError.self) {
                try await products.update(stale, expectedVersion: stale.version - 1, at: clock.now(), audit: nil)
            }
            #expect(try await products.find(first.id) == stale)
        }
    }
}

extension PostgresRoundTripTests {
    @Test("catching up and rebuilding the index take the same round trips for 41 listings as for 81: a handful per 500, not two or three per listing")
    func bulkIndexing() async throws {
        try await withListings { database, clock, first, products, maintenance in
            let colours = ["레드", "블루", "그린", "옐로", "퍼플", "화이트", "블랙", "실버"]
            func list(_ numbers: Range<Int>) async throws {
                for number in numbers {
                    var draft = CommerceHarness.draft(5)
                    draft.title = "키보드 \(colours[number % colours.count]) 에디션 \(number)호"
                    draft.tags = ["한정", colours[number % colours.count]]
                    _ = try await products.insert(draft, sellerID: first.sellerID, images: [], at: clock.now(), audit: nil)
                }
            }
            func postings() async throws -> [String] {
                try await database.readStatement { connection in
                    try connection.query("SELECT term, product_id, weight FROM search_terms ORDER BY term, product_id", []) {
                        "\($0.string(0)) \($0.int64(1)) \($0.int(2))"
                    }
                }
            }
            /// The round trips of a catch-up from nothing and of a rebuild that mends a stray
            /// posting, a lost one and a wrong count, each checked against the postings the
            /// listings' own writes made.
            func indexAgain(listings: Int) async throws -> (catchUp: Int, reindex: Int) {
                let expected = try await postings()
                // As a database from before search holds it: the listings, none of their search rows.
                try await database.write { connection in
                    try connection.execute("""
                        DELETE FROM search_terms; DELETE FROM search_documents; DELETE FROM search_words;
                        DELETE FROM settings WHERE key = 'search.analyzer_version'
                        """)
                }
                let beforeCatchUp = database.roundTripCount
                #expect(try await maintenance.catchUp() == listings)
                let catchUp = database.roundTripCount - beforeCatchUp
                #expect(try await maintenance.problems().isEmpty)
                #expect(try await postings() == expected)
                // Written behind the index's back: the rebuild then checks each listing's
                // postings, in one batch of queries for them all.
                try await database.write { connection in
                    try connection.execute("""
                        INSERT INTO search_terms (term, product_id, weight) VALUES ('stray', \(first.id), 1);
                        DELETE FROM search_terms WHERE term = '#한정' AND product_id = (SELECT max(product_id) FROM search_terms);
                        UPDATE search_words SET products = products + 3 WHERE word = '레드' AND kind = 'tag'
                        """)
                }
                #expect(try await maintenance.problems().count >= 2)
                let beforeReindex = database.roundTripCount
                #expect(try await maintenance.reindex() == listings)
                let reindex = database.roundTripCount - beforeReindex
                #expect(try await maintenance.problems().isEmpty)
                #expect(try await postings() == expected)
                return (catchUp, reindex)
            }
            try await list(0..<40)
            let few = try await indexAgain(listings: 41)
            try await list(40..<80)
            let more = try await indexAgain(listings: 81)
            // Before, each listing cost a round trip for its document and one for its writes (and
            // one for its postings in the rebuild): 86 and 141 for the 41 listings.
            #expect(few == more)
            // Since 2026-12-01 the rebuild's last step takes out deleted listings in a write of its
            // own and surveys the counts in a read of its own, so that no write holds the writer
            // through a pass over the whole index: 27 where it was 21.
            #expect(few.catchUp <= 8 && few.reindex <= 27, "\(few)")
        }
    }

    @Test("a rebuild takes the entries of listings deleted behind the index's back out in the same round trips for one as for ten")
    func rebuildRemovesDeletedListingsInBatches() async throws {
        try await withListings { database, clock, first, products, maintenance in
            var ids: [ProductID] = []
            for number in 0..<12 {
                var draft = CommerceHarness.draft(5)
                draft.title = "키보드 에디션 \(number)호"
                ids.append(try await products.insert(draft, sellerID: first.sellerID, images: [], at: clock.now(), audit: nil).id)
            }
            /// Deletes `gone` behind the index's back, then rebuilds: the rebuild's round trips.
            func rebuild(deleting gone: ArraySlice<ProductID>) async throws -> Int {
                try await database.write { connection in
                    try connection.execute("UPDATE products SET deleted_at = 1, listed = 0 WHERE id IN (\(gone.map { String($0.rawValue) }.joined(separator: ", ")))")
                }
                #expect(try await maintenance.problems().count >= gone.count)
                let before = database.roundTripCount
                _ = try await maintenance.reindex()
                let trips = database.roundTripCount - before
                #expect(try await maintenance.problems().isEmpty)
                let left = try await database.readStatement { connection in
                    try connection.queryOne("""
                        SELECT count(*) FROM search_documents d JOIN products p ON p.id = d.product_id WHERE p.deleted_at IS NOT NULL
                        """, []) { $0.int(0) }
                }
                #expect(left == 0)
                return trips
            }
            _ = try await rebuild(deleting: ids[0..<1])  // prepares the statements
            let one = try await rebuild(deleting: ids[1..<2])
            let ten = try await rebuild(deleting: ids[2..<12])
            // Before, each deleted listing cost two round trips: its document, then its removal.
            #expect(one == ten, "one: \(one), ten: \(ten)")
        }
    }
}

extension PostgresRoundTripTests {
    @Test("a search's look-ups that wait for no other answer share a round trip: 갈축 is two, gater three (they were three and five)")
    func searchLookUps() async throws {
        try await withListings { database, clock, first, products, _ in
            for (title, tags) in [("게이트론 황축 리니어 스위치 키보드", ["갈축"]), ("키크론 Q1 알루미늄 키보드", ["사무용"]),
                                  ("Keychron K2 무선 키보드 갈축", ["저소음"])] {
                var draft = CommerceHarness.draft(5)
                draft.title = title
                draft.tags = tags
                _ = try await products.insert(draft, sellerID: first.sellerID, images: [], at: clock.now(), audit: nil)
            }
            func search(_ text: String) async throws -> (titles: [String], roundTrips: Int) {
                var filter = ProductFilter()
                filter.text = try SearchQuery(text)
                let before = database.roundTripCount
                let hits = try await products.search(filter, sort: .relevance, after: nil, limit: 20).hits
                return (hits.map(\.product.title).sorted(), database.roundTripCount - before)
            }
            // Each query once first, so that its statements are prepared.
            let queries = ["갈축", "무선 키보드", "keyc", "gater", "gaetron", "ㄱㅊ 키보드", "키크론"]
            for query in queries { _ = try await search(query) }
            // A Korean word: the synonyms with the window's floors its plan without synonyms
            // has (it has none), then the page.
            #expect(try await search("갈축") == (["Keychron K2 무선 키보드 갈축", "게이트론 황축 리니어 스위치 키보드"], 2))
            // Two words: the synonyms with the groups' counts (few: every match is ranked, no floors), then the page.
            #expect(try await search("무선 키보드") == (["Keychron K2 무선 키보드 갈축"], 2))
            // A prefix: the synonyms and the prefix spelt out, the floors, the page.
            #expect(try await search("keyc") == (["Keychron K2 무선 키보드 갈축"], 3))
            // Synonyms, whether a listed listing has a word starting with `gater`, and the prefix
            // spelt out: one round trip where they were three.
            #expect(try await search("gater").roundTrips == 3)
            // A word no listing has a word starting with: its words one edit away then follow.
            let misspelt = try await search("gaetron")
            #expect(misspelt.titles == ["Gateron Oil King"] && misspelt.roundTrips == 4, "\(misspelt)")
            // Initials beside a word: the synonyms and the initials' words together, then the
            // groups' counts (few enough to rank them all: no floors) and the page.
            let initials = try await search("ㄱㅊ 키보드")
            #expect(initials.titles == ["Keychron K2 무선 키보드 갈축", "게이트론 황축 리니어 스위치 키보드"] && initials.roundTrips == 3, "\(initials)")
            #expect(try await search("키크론") == (["키크론 Q1 알루미늄 키보드"], 2))
            // A facet count of a Korean word: the synonyms with the word's postings counted, then
            // the tally (it was three).
            let repository = SQLSearchRepository(database: database)
            var filter = ProductFilter()
            filter.text = try SearchQuery("갈축")
            _ = try await repository.facetTally(for: filter, limit: 100)
            let beforeFacets = database.roundTripCount
            let tally = try await repository.facetTally(for: filter, limit: 100)
            #expect(database.roundTripCount - beforeFacets == 2)
            #expect(tally.counts.values.reduce(0, +) == 2 && !tally.isCapped)
            let audit = AuditEntry(actor: "admin:1", action: "search.synonym.add", target: "", detail: "", at: clock.now())
            #expect(try await repository.addSynonym(try SynonymPair("키크론", "keychron"), at: clock.now(), audit: audit))
            // With a synonym the floors sent alongside are not the plan's: its prefix is spelt
            // out, then the floors and the page follow, a round trip more than before it had one.
            _ = try await search("키크론")
            #expect(try await search("키크론") == (["Keychron K2 무선 키보드 갈축", "키크론 Q1 알루미늄 키보드"], 4))
            // And its facet count: the counts sent alongside are dropped, the prefix spelt out.
            filter.text = try SearchQuery("키크론")
            _ = try await repository.facetTally(for: filter, limit: 100)
            let beforeSynonymFacets = database.roundTripCount
            #expect(try await repository.facetTally(for: filter, limit: 100).counts.values.reduce(0, +) == 2)
            #expect(database.roundTripCount - beforeSynonymFacets == 4)
        }
    }
}
