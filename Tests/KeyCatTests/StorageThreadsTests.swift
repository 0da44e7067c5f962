import Foundation
import KeyCat
import KeyCatInfrastructure
import Synchronization
import Testing

/// Waiting never blocks (architecture §7): KeyCat's use cases wait for the database on its own
/// storage threads, so a caller's plain task runs while more storage calls than there are
/// cores wait on a database that does not answer.
///
/// The database "does not answer" because another connection holds SQLite's write lock. Under
/// the old design every checkout held a thread of Swift's cooperative pool (one per core) while
/// it waited, so the plain task could not run until the lock was released; here it runs at once.
/// The lock is released as soon as the plain task has run, or after four seconds (less than the
/// five SQLite waits for a lock), and the test asserts the order of the two, never a duration.
@Suite("Storage waits on KeyCat's threads")
struct StorageThreadsTests {
    final class Flags: Sendable {
        let plainTaskRan = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
        let ranWhileHeld = Atomic<Bool>(false)
        let locked = Atomic<Bool>(false)
    }

    @Test("a plain task runs while eight checkouts wait on a locked database, and the checkouts then succeed")
    func plainTaskRunsWhileStorageWaits() async throws {
        try await TestShop.with { shop in
            let keycat = shop.keycat
            let seller = try shop.user(.seller)
            let product = try keycat.catalog.create(TestShop.draft { $0.stock = 100 }, for: seller.userID, by: seller)
            let buyers = try (0..<8).map { _ in try shop.user(.buyer) }
            let calls = buyers.count

            // Another process's writer holds the lock.
            let blocker = try SQLiteDatabase(path: shop.directory.appendingPathComponent("shop.db").path)
            defer { blocker.close() }
            let flags = Flags()
            let done = DispatchSemaphore(value: 0)
            let holder = Thread {
                try? blocker.withWriter { connection in
                    try connection.execute("BEGIN IMMEDIATE")
                    flags.locked.store(true, ordering: .releasing)
                    _ = done.wait(timeout: .now() + 4)
                    flags.ranWhileHeld.store(flags.plainTaskRan.load(ordering: .acquiring), ordering: .releasing)
                    flags.released.store(true, ordering: .releasing)
                    try connection.execute("COMMIT")
                }
            }
            holder.start()
            while !flags.locked.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for buyer in buyers {
                    group.addTask {
                        _ = try await keycat.checkout.checkout(
                            CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)])), by: buyer)
                    }
                }
                // Give the checkouts time to start waiting; then a plain task must still run.
                try await Task.sleep(for: .milliseconds(200))
                let answer = await Task { 6 * 7 }.value
                flags.plainTaskRan.store(answer == 42, ordering: .releasing)
                done.signal()
                try await group.waitForAll()
            }
            let ranWhileHeld = flags.ranWhileHeld.load(ordering: .acquiring)
            #expect(ranWhileHeld, "the plain task waited for the database lock to be released")
            #expect(try keycat.catalog.product(product.id).stock == 100 - calls)
        }
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
