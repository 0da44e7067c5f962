import Foundation
import KeyCat
import KeyCatInfrastructure
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
