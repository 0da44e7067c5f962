import Foundation
import KeyCat
import Synchronization
import KeyCatTestSupport
import Testing

@Suite("Reconciliation on a schedule")
struct ReconciliationLoopTests {
    @Test("the loop reconciles run after run, reporting each, and stops when its task is cancelled",
          arguments: TestStore.allCases)
    func loop(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let product = try await shop.product(stock: 5)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.checkout(product, by: buyer)
            shop.clock.advance(by: 21 * 60)  // past the reservation and its grace: the first run expires it

            let reports = Mutex<[ReconcileReport]>([])
            let (runs, continuation) = AsyncStream.makeStream(of: Int.self)
            let loop = Task {
                await shop.keycat.reconcile(every: .milliseconds(5), gateway: .off) { outcome in
                    guard case .success(let report) = outcome else { return }
                    let count = reports.withLock { $0.append(report); return $0.count }
                    continuation.yield(count)
                }
            }
            for await count in runs where count >= 3 { break }
            loop.cancel()
            await loop.value

            let seen = reports.withLock { $0 }
            #expect(seen.count >= 3)
            #expect(seen.map(\.expired).reduce(0, +) == 1, "only the first run has something to expire")
            await #expect(try shop.keycat.orders.order(order.id, by: shop.operatorConsole).status == .expired)
            let settled = seen.count
            try await Task.sleep(for: .milliseconds(50))
            #expect(reports.withLock { $0.count } == settled, "no run after cancellation")
        }
    }
}
