import Foundation
import KeyCatDomain
import Synchronization

/// Carts in memory, for tests of the use cases without a file. Behaves as
/// ``SQLCartRepository`` does.
package final class InMemoryCartRepository: CartRepository {
    private let lines = Mutex<[UserID: [CartEntry]]>([:])
    private let products: (any ProductRepository)?

    /// - Parameter products: where ``contents(of:)`` looks products up (none: every line shows
    ///   as unavailable).
    package init(products: (any ProductRepository)? = nil) { self.products = products }

    package func contents(of userID: UserID) async throws(KeyCatError) -> [(entry: CartEntry, product: CartProductFacts?)] {
        let entries = try entries(of: userID)
        let found = try await products?.find(entries.map(\.productID)) ?? [:]
        return entries.map { ($0, found[$0.productID].map(CartProductFacts.init)) }
    }

    package func entries(of userID: UserID) throws(KeyCatError) -> [CartEntry] {
        lines.withLock { $0[userID] ?? [] }
    }

    package func add(_ productID: ProductID, quantity: Int, cap: Int, for userID: UserID, maximumLines: Int, at now: Date) throws(KeyCatError) -> CartEntry {
        try upsert(productID, for: userID, maximumLines: maximumLines, at: now) { min(($0 ?? 0) + quantity, cap) }
    }

    package func set(_ productID: ProductID, quantity: Int, for userID: UserID, maximumLines: Int, at now: Date) throws(KeyCatError) -> CartEntry {
        try upsert(productID, for: userID, maximumLines: maximumLines, at: now) { _ in quantity }
    }

    private func upsert(_ productID: ProductID, for userID: UserID, maximumLines: Int, at now: Date,
                        _ quantity: (Int?) -> Int) throws(KeyCatError) -> CartEntry {
        try lines.withLock { lines throws(KeyCatError) -> CartEntry in
            var entries = lines[userID] ?? []
            if let index = entries.firstIndex(where: { $0.productID == productID }) {
                entries[index].quantity = quantity(entries[index].quantity)
                lines[userID] = entries
                return entries[index]
            }
            guard entries.count < maximumLines else {
                throw KeyCatError.validation("cart", "a cart holds at most \(maximumLines) lines")
            }
            let entry = CartEntry(productID: productID, quantity: quantity(nil), addedAt: now)
            entries.append(entry)
            lines[userID] = entries
            return entry
        }
    }

    @discardableResult
    package func remove(_ productID: ProductID, for userID: UserID) throws(KeyCatError) -> Bool {
        lines.withLock { lines in
            let before = lines[userID]?.count ?? 0
            lines[userID]?.removeAll { $0.productID == productID }
            return (lines[userID]?.count ?? 0) < before
        }
    }

    package func clear(_ userID: UserID) throws(KeyCatError) {
        lines.withLock { $0[userID] = nil }
    }

    /// Removes `products` from `userID`'s cart (what a paid order does).
    func removeBought(_ products: [ProductID], for userID: UserID) {
        lines.withLock { $0[userID]?.removeAll { products.contains($0.productID) } }
    }
}
