import Foundation
import KeyCat
import KeyCatInfrastructure
import KeyCatTestSupport
import Synchronization
import Testing

/// Waiting never blocks (architecture §7): KeyCat's use cases wait for their storage and the
/// services they call on KeyCat's own storage threads, so a caller's plain task runs while more
/// such calls than there are cores wait.
///
/// The slow dependency is a business registry that does not answer until told to: eight seller
/// applications wait on it at once, and they are released only after a plain task has run. Under the old design each application held a thread of
/// Swift's cooperative pool (one per core) while it waited, so neither the eight nor the plain
/// task could all get a thread; the registry gives up after two minutes so that design fails
/// rather than hangs. No duration is asserted: that all eight waited at once, and the order.
@Suite("Storage waits on KeyCat's threads")
struct StorageThreadsTests {
    /// A registry that blocks its caller's thread until released, as a slow network call in a
    /// synchronous client would.
    final class SlowRegistry: BusinessRegistry, Sendable {
        let gate = DispatchSemaphore(value: 0)
        let waiting = Atomic<Int>(0)
        let gaveUp = Atomic<Int>(0)

        func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus {
            waiting.add(1, ordering: .releasing)
            if gate.wait(timeout: .now() + 120) == .timedOut { gaveUp.add(1, ordering: .releasing) }
            return .active
        }
    }

    @Test("a plain task runs while eight seller applications wait at once on a slow registry; none waits in vain")
    func plainTaskRunsWhileStorageWaits() async throws {
        let registry = SlowRegistry()
        try await TestShop.with(configure: { $0.businessRegistry = registry; $0.readerCount = 7 }) { shop in
            let keycat = shop.keycat
            let applicants = try (0..<8).map { _ in try shop.user(.buyer) }
            let form = SellerApplicationForm(businessNumber: "220-81-62176", representativeName: "한소리",
                                             openingDate: try CalendarDate(iso8601: "2021-04-01"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for applicant in applicants {
                    group.addTask { _ = try await keycat.sellers.apply(form, by: applicant) }
                }
                while registry.waiting.load(ordering: .acquiring) < applicants.count {
                    try await Task.sleep(for: .milliseconds(5))
                }
                // All eight are waiting, more than there are cores; a plain task still runs.
                let answer = await Task { 6 * 7 }.value
                #expect(answer == 42)
                for _ in applicants { registry.gate.signal() }
                try await group.waitForAll()
            }
            // Had they held the cooperative pool, they could not all have waited at once: the
            // first would have waited out the registry's two minutes.
            let gaveUp = registry.gaveUp.load(ordering: .acquiring)
            #expect(gaveUp == 0)
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
        try await withPostgresSchema { postgres in
            let url = try postgres.schemaURL()
            try await TestShop.with(configure: { $0.postgresURL = url; $0.readerCount = 9 }) { shop in
                let keycat = shop.keycat
                let product = try shop.product(stock: 100)
                let buyers = try (0..<8).map { _ in try shop.user(.buyer) }
                let locker = try PostgresConnection(configuration: postgres)
                let watcher = try PostgresConnection(configuration: postgres)
                defer { watcher.close(); locker.close() }
                try locker.execute("BEGIN; SELECT id FROM products WHERE id = \(product.id.rawValue) FOR UPDATE")
                let lockHolder = locker.backendProcessID
                let watchdog = Watchdog(terminating: lockHolder, configuration: postgres, after: 120)
                defer { watchdog.disarm() }
                try await withThrowingTaskGroup(of: Order.self) { group in
                    for buyer in buyers {
                        group.addTask {
                            try await keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])),
                                                               by: buyer)
                        }
                    }
                    var waiting = 0
                    while waiting < buyers.count, !watchdog.fired {
                        try await Task.sleep(for: .milliseconds(5))
                        // Waiters queue: the first waits for the lock's holder, the next for the first.
                        waiting = try watcher.queryOne("""
                            WITH RECURSIVE blocked (pid) AS (
                                SELECT pid FROM pg_stat_activity WHERE CAST(? AS int) = ANY(pg_blocking_pids(pid))
                                UNION
                                SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY(pg_blocking_pids(a.pid)))
                            SELECT count(*) FROM blocked
                            """, [.int(Int(lockHolder))]) { $0.int(0) } ?? 0
                    }
                    // All eight are waiting in Postgres, more than there are cores; a plain task still runs.
                    #expect(waiting == buyers.count)
                    let answer = await Task { 6 * 7 }.value
                    #expect(answer == 42)
                    try locker.execute("ROLLBACK")
                    var made = 0
                    for try await order in group where order.status == .awaitingPayment { made += 1 }
                    #expect(made == buyers.count)
                }
                #expect(!watchdog.fired, "the lock was released by the test, not by the watchdog")
                #expect(try shop.stock(of: product.id) == 92)
            }
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
struct StorageThreadsCloseTests {
    @Test("a use case called after close fails as a closed KeyCat's calls do, and does not hang")
    func callAfterClose() async throws {
        try await TestShop.with { shop in
            let buyer = try shop.user(.buyer)
            shop.keycat.close()
            await #expect(throws: KeyCatError.self) {
                try await shop.keycat.checkout.checkout(CheckoutRequest(.items([CheckoutItem(productID: ProductID(rawValue: 1), quantity: 1)])),
                                                        by: buyer)
            }
        }
    }
}
