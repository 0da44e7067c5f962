import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing

/// Waiting never blocks (architecture §7): a storage call waits for the database on the store's
/// own threads, wherever its caller runs, so a caller's plain task runs while more such calls
/// than there are cores wait.
///
/// The slow dependency is the SQLite file itself, its write lock held by a connection of the
/// test's own: eight checkouts wait for it at once (the writer in SQLite's busy handler, the
/// others in line for the writer), and the lock goes only after a plain task has run. A design
/// that waited on the caller's threads (one per core in Swift's pool) would hold both in the
/// busy handler: nothing else, the test included, would run until SQLite's five-second busy
/// timeout failed the checkouts. No duration is asserted: that the plain task ran while the
/// file was locked, and that every checkout then went through.
@Suite("Storage waits on KeyCat's threads")
struct StorageWaitTests {
    @Test("a plain task runs while eight checkouts wait for a SQLite file another connection holds locked")
    func plainTaskRunsWhileStorageWaits() async throws {
        try await TestShop.with(configure: { $0.stockHolds = nil }) { shop in
            let keycat = shop.keycat
            let product = try await shop.product(stock: 100)
            var buyers: [Principal] = []
            for _ in 0..<8 { buyers.append(try await shop.user(.buyer)) }
            let holder = try SQLiteConnection(path: shop.keycat.configuration.databasePath, configuration: SQLiteConfiguration())
            defer { holder.close() }
            try holder.execute("BEGIN IMMEDIATE")
            try await withThrowingTaskGroup(of: Order.self) { group in
                for buyer in buyers {
                    group.addTask {
                        try await keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])),
                                                           by: buyer)
                    }
                }
                try await Task.sleep(for: .milliseconds(50))
                // The eight are waiting for the file, more than there are cores; a plain task still runs.
                let answer = await Task { 6 * 7 }.value
                #expect(answer == 42)
                // A read answers meanwhile: the schema's version once took the writer, on the
                // caller's thread, and would have waited here for the checkout holding it.
                #expect(try await keycat.schemaVersion() == KeyCat.latestSchemaVersion)
                try holder.execute("ROLLBACK")
                var made = 0
                for try await order in group where order.status == .awaitingPayment { made += 1 }
                #expect(made == buyers.count)
            }
            await #expect(try shop.stock(of: product.id) == 92)
        }
    }
}

/// The same with the slow dependency being Postgres itself: a row another connection has locked.
/// Eight checkouts of that product wait at once in Postgres for the lock, a plain task runs, then
/// the lock goes and every checkout completes. A watchdog on a thread of its own ends the lock's
/// session after two minutes, so a design that held the cooperative pool fails instead of hanging.
@Suite("Storage waits on KeyCat's threads, on Postgres",
       .enabled(if: PostgresTestServer.isConfigured, "\(PostgresTestServer.skipReason)"))
struct PostgresStorageWaitTests {
    @Test("a plain task runs while eight checkouts wait at once on a row Postgres holds locked")
    func plainTaskRunsWhileCheckoutsWait() async throws {
        try await withLockedProduct(stock: 100, configure: { $0.store.postgres?.maximumConnections = 10 }) { shop, product, lock in
            let keycat = shop.keycat
            var buyers: [Principal] = []
            for _ in 0..<8 { buyers.append(try await shop.user(.buyer)) }
            try await withThrowingTaskGroup(of: Order.self) { group in
                for buyer in buyers {
                    group.addTask {
                        try await keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])),
                                                           by: buyer)
                    }
                }
                var waiting = 0
                while waiting < buyers.count, !lock.watchdog.fired {
                    try await Task.sleep(for: .milliseconds(5))
                    waiting = try lock.waiters()
                }
                // All eight are waiting in Postgres, more than there are cores; a plain task still runs.
                #expect(waiting == buyers.count, "\(lock.sessions())")
                let answer = await Task { 6 * 7 }.value
                #expect(answer == 42)
                try lock.release()
                var made = 0
                for try await order in group where order.status == .awaitingPayment { made += 1 }
                #expect(made == buyers.count)
            }
            #expect(!lock.watchdog.fired, "the lock was released by the test, not by the watchdog")
            await #expect(try shop.stock(of: product.id) == 92)
        }
    }

    /// A server cancels a request's task when its client goes away; a checkout waiting in Postgres
    /// for a row lock must then stop waiting, roll back and give its connection back clean, not
    /// hold the connection (and its place in the lock's queue) until the lock goes.
    @Test("a cancelled checkout waiting in Postgres for a locked row stops at once, changes nothing, lets its key go, and its connection is reused")
    func cancelledCheckoutStopsWaiting() async throws {
        try await withLockedProduct(stock: 10, configure: { $0.store.postgres?.maximumConnections = 4; $0.stockHolds = nil }) { shop, product, lock in
            let keycat = shop.keycat
            let buyer = try await shop.user(.buyer)
            let checkout = Task {
                try await keycat.checkout.checkout(
                    CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)]), idempotencyKey: "retry-me"), by: buyer)
            }
            while try lock.waiters() < 1, !lock.watchdog.fired { try await Task.sleep(for: .milliseconds(5)) }
            checkout.cancel()
            let error = await #expect(throws: KeyCatError.self) { try await checkout.value }
            #expect(error?.code == .storage && error?.context["sql_state"] == "57014")
            // It stopped waiting while the lock is still held, and nothing of it remains.
            #expect(!lock.watchdog.fired, "the checkout ended before the lock did: \(lock.sessions())")
            #expect(try lock.waiters() == 0)
            try lock.release()
            await #expect(try shop.stock(of: product.id) == 10)
            await #expect(try keycat.orders.list(by: buyer).items.isEmpty)
            // Its Idempotency-Key was let go (a quick statement, run though the task was cancelled),
            // so the client's retry runs at once instead of waiting out the key's lease.
            let retried = try await shop.checkout(product, by: buyer, key: "retry-me")
            #expect(retried.status == .awaitingPayment)
            // The pool's connections, the cancelled one among them, serve the next checkouts.
            for _ in 0..<3 { _ = try await shop.checkout(product, by: buyer) }
            await #expect(try shop.stock(of: product.id) == 6)
        }
    }

    /// A catch-up of the search index locks its batch's listings after its turn
    /// (`SearchIndex.catchUpLock`). Until 2026-11-30 a payment took its own turn in its last
    /// exchange, after taking the units of a line sold on payment: waiting for the batch while
    /// holding the row the batch wanted, a deadlock Postgres broke after a second.
    @Test("a payment waits for a catch-up's batch before it locks anything, so a line sold on payment of a listing the batch holds is paid once the batch ends")
    func paymentWaitsForCatchUpBatch() async throws {
        try await withPostgresSchema { postgres in
            let tag = "keycat_turn_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            let url = try postgres.schemaURL() + "&application_name=" + tag
            try await TestShop.with(configure: { $0.store = .postgres(url: url, filesBeside: $0.databasePath) }) { shop in
                let product = try await shop.product(stock: 1)
                let buyer = try await shop.user(.buyer)
                let order = try await shop.checkout(product, by: buyer)
                #expect(order.lines.map(\.stockTaken) == [false], "one unit cannot be held: it is sold on payment")
                let payment = try shop.pay(order)
                // A batch: its listing locked, its turn held.
                let batch = try LockedRow(product.id, tag: tag, configuration: postgres)
                defer { batch.close() }
                try batch.holder.execute("LOCK TABLE settings IN EXCLUSIVE MODE")
                let keycat = shop.keycat
                let confirming = Task { try await keycat.checkout.confirm(order.id, impUID: payment.impUID, by: buyer) }
                while try batch.waiters() < 1, !batch.watchdog.fired { try await Task.sleep(for: .milliseconds(5)) }
                let waitingForTurn = try batch.watcher.queryOne("""
                    SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                    WHERE a.application_name = ? AND NOT l.granted AND l.relation = to_regclass('settings')
                    """, [.text(tag)]) { $0.int(0) }
                #expect(waitingForTurn == 1, "\(batch.sessions())")
                try batch.holder.execute("COMMIT")
                let paid = try await confirming.value
                #expect(paid.status == .paid && paid.lines.map(\.stockTaken) == [true])
                #expect(try await shop.integer("SELECT units_sold FROM search_documents WHERE product_id = \(product.id)") == 1)
                #expect(!batch.watchdog.fired, "the batch ended by the test, not by the watchdog")
            }
        }
    }

    /// A seller may change what a listing is only until it has been paid for. A payment is a
    /// `READ COMMITTED` write, which the edit's serializable snapshot does not watch: until
    /// 2026-12-02 a payment committing after the edit's first read went unseen, and the listing
    /// sold as a keyboard became a keycap set. The edit now locks the listing's orders awaiting
    /// payment, so it waits for a payment in flight, then runs again and sees it.
    @Test("a seller's change of a listing's category waits for a payment of it in flight, and is refused once the payment lands")
    func categoryChangeWaitsForPayment() async throws {
        try await withPostgresSchema { postgres in
            let tag = "keycat_goods_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            let url = try postgres.schemaURL() + "&application_name=" + tag
            try await TestShop.with(configure: { $0.store = .postgres(url: url, filesBeside: $0.databasePath) }) { shop in
                let product = try await shop.product(stock: 5)
                let buyer = try await shop.user(.buyer)
                let order = try await shop.checkout(product, by: buyer)
                // The payment in flight: its move written, not yet committed.
                let payment = try LockedRow(product.id, tag: tag, configuration: postgres)
                defer { payment.close() }
                try payment.holder.execute("ROLLBACK; BEGIN")
                try payment.holder.execute(
                    "UPDATE orders SET status = 'paid', paid_at = updated_at WHERE id = \(order.id.rawValue) AND status = 'awaiting_payment'")
                let keycat = shop.keycat
                let seller = Principal(userID: product.sellerID, role: .seller)
                let edited = Atomic<Bool>(false)
                let editing = Task {
                    defer { edited.store(true, ordering: .releasing) }
                    var changes = ProductChanges(expectedVersion: try await keycat.catalog.product(product.id).version)
                    changes.category = .keycap
                    changes.title = "GMK 클래식 키캡 세트"
                    return try await keycat.catalog.update(product.id, changes, by: seller)
                }
                while try payment.waiters() < 1, !edited.load(ordering: .acquiring), !payment.watchdog.fired {
                    try await Task.sleep(for: .milliseconds(5))
                }
                let finishedEarly = edited.load(ordering: .acquiring)
                #expect(!finishedEarly, "the edit did not wait for the payment: \(payment.sessions())")
                try payment.holder.execute("COMMIT")
                let refused = await keycatError { try await editing.value }
                #expect(refused?.code == .illegalTransition && refused?.context["field"] == "category", "\(String(describing: refused))")
                let after = try await keycat.catalog.product(product.id)
                #expect(after.category == product.category && after.title == product.title)
                #expect(!payment.watchdog.fired)
            }
        }
    }

    /// An endpoint added while the webhooks' fan-out runs waits for it, and is created at the
    /// time after: an event that fan-out passed over occurred before the endpoint existed, and
    /// any later one is fanned out once the endpoint is there. Until 2026-11-30 the add stamped
    /// its time before its write, so an event occurring in between and fanned out before the
    /// endpoint committed was queued for no one.
    @Test("an endpoint added while the webhooks' fan-out runs waits for it, and is created at the time after it")
    func endpointWaitsForFanOut() async throws {
        try await withPostgresSchema { postgres in
            let tag = "keycat_fanout_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            let url = try postgres.schemaURL() + "&application_name=" + tag
            try await TestShop.with(configure: { $0.store = .postgres(url: url, filesBeside: $0.databasePath) }) { shop in
                let product = try await shop.product(stock: 1)
                // A fan-out under way: the dispatch position's row locked.
                let fanOut = try LockedRow(product.id, tag: tag, configuration: postgres)
                defer { fanOut.close() }
                try fanOut.holder.execute("SELECT 1 FROM webhook_dispatch WHERE id = 1 FOR UPDATE")
                let keycat = shop.keycat
                let console = shop.operatorConsole
                let added = Atomic<Bool>(false)
                let adding = Task {
                    defer { added.store(true, ordering: .releasing) }
                    return try await keycat.webhookEndpoints.add(url: "https://hooks.example.com/keycat", events: "*", by: console)
                }
                while try fanOut.waiters() < 1, !added.load(ordering: .acquiring), !fanOut.watchdog.fired {
                    try await Task.sleep(for: .milliseconds(5))
                }
                // A row's lock is waited for as its holder's transaction: the waiting statement names the row.
                let waiting = try fanOut.watcher.queryOne("""
                    SELECT count(*) FROM pg_stat_activity
                    WHERE application_name = ? AND wait_event_type = 'Lock' AND query LIKE '%FROM webhook_dispatch%'
                    """, [.text(tag)]) { $0.int(0) }
                #expect(waiting == 1, "the add did not wait for the fan-out: \(fanOut.sessions())")
                shop.clock.advance(by: 5)
                try fanOut.holder.execute("COMMIT")
                let endpoint = try await adding.value.endpoint
                #expect(endpoint.createdAt == StoredTimeProbe.stored(shop.clock.now()), "stamped after the fan-out ended")
                #expect(!fanOut.watchdog.fired)
            }
        }
    }

    /// A shop on a fresh Postgres schema with one product of `stock` units, whose row another
    /// session holds locked (`FOR UPDATE`) until `lock.release()`; a watchdog ends that session
    /// after two minutes.
    private func withLockedProduct(
        stock: Int, configure: @escaping (inout KeyCat.Configuration) -> Void,
        _ body: (TestShop, Product, LockedRow) async throws -> Void
    ) async throws {
        try await withPostgresSchema { postgres in
            // The shop's sessions carry a name of their own, so tests beside it are not counted.
            let tag = "keycat_wait_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            let url = try postgres.schemaURL() + "&application_name=" + tag
            try await TestShop.with(configure: { $0.store = .postgres(url: url, filesBeside: $0.databasePath); configure(&$0) }) { shop in
                let product = try await shop.product(stock: stock)
                let lock = try LockedRow(product.id, tag: tag, configuration: postgres)
                defer { lock.close() }
                try await body(shop, product, lock)
            }
        }
    }

    /// A product's row locked by a session of its own, and a second session watching the shop's.
    final class LockedRow {
        let holder: PostgresConnection
        let watcher: PostgresConnection
        let watchdog: Watchdog
        let tag: String

        init(_ product: ProductID, tag: String, configuration: PostgresConfiguration) throws {
            holder = try PostgresConnection(configuration: configuration)
            watcher = try PostgresConnection(configuration: configuration)
            self.tag = tag
            try holder.execute("BEGIN; SELECT id FROM products WHERE id = \(product.rawValue) FOR UPDATE")
            watchdog = Watchdog(terminating: holder.backendProcessID, configuration: configuration, after: 120)
        }

        /// How many of the shop's sessions wait for a lock now.
        func waiters() throws -> Int {
            try watcher.queryOne("SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND wait_event_type = 'Lock'",
                                 [.text(tag)]) { $0.int(0) } ?? 0
        }

        /// What the shop's sessions are doing, for a failure's message.
        func sessions() -> [String] {
            (try? watcher.query("""
                SELECT state, coalesce(wait_event_type, '') || ':' || coalesce(wait_event, ''), left(query, 50)
                FROM pg_stat_activity WHERE application_name = ?
                """, [.text(tag)]) { "\($0.optionalString(0) ?? "") \($0.string(1)) \($0.optionalString(2) ?? "")" }) ?? []
        }

        func release() throws { try holder.execute("ROLLBACK") }

        func close() {
            watchdog.disarm()
            watcher.close()
            holder.close()
        }
    }

    /// Ends a backend's session after a deadline, from a thread of its own, unless disarmed.
    final class Watchdog: Sendable {
        private let disarmed = Atomic<Bool>(false)
        private let didFire = Atomic<Bool>(false)

        var fired: Bool { didFire.load(ordering: .acquiring) }

        init(terminating backend: Int32, configuration: PostgresConfiguration, after seconds: Int) {
            Thread.detachNewThread { [self] in
                for _ in 0..<(seconds * 10) {
                    if disarmed.load(ordering: .acquiring) { return }
                    usleep(100_000)
                }
                guard let connection = try? PostgresConnection(configuration: configuration) else { return }
                defer { connection.close() }
                didFire.store(true, ordering: .releasing)
                _ = try? connection.queryOne("SELECT pg_terminate_backend(CAST(? AS int))", [.int(Int(backend))]) { _ in true }
            }
        }

        func disarm() { disarmed.store(true, ordering: .releasing) }
    }
}

@Suite("KeyCat's storage threads after close")
struct StorageWaitAfterCloseTests {
    @Test("a use case called after close fails as a closed KeyCat's calls do, and does not hang")
    func callAfterClose() async throws {
        try await TestShop.with { shop in
            let buyer = try await shop.user(.buyer)
            shop.keycat.close()
            await #expect(throws: KeyCatError.self) {
                try await shop.keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: ProductID(rawValue: 1), quantity: 1)])),
                                                        by: buyer)
            }
        }
    }
}
