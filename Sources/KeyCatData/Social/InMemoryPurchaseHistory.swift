import KeyCatDomain
import Synchronization

/// Purchases in memory, for testing reviews before (and without) the orders tables. Record an
/// order's status per buyer and product; the rule is ``PurchaseHistory``'s: eligible when any
/// of the buyer's orders of the product is paid, shipped, delivered or partially refunded.
package final class InMemoryPurchaseHistory: PurchaseHistory {
    /// The order states of architecture §2's state machine.
    package enum OrderStatus: String, Sendable, CaseIterable {
        case awaitingPayment, paid, shipped, delivered, partiallyRefunded, refunded, expired, cancelled, failed

        /// Whether an order in this state lets its buyer review: delivered, or delivered and
        /// then partly refunded (this history takes a partial refund as one after delivery).
        package var allowsReview: Bool {
            switch self {
            case .delivered, .partiallyRefunded: true
            case .awaitingPayment, .paid, .shipped, .refunded, .expired, .cancelled, .failed: false
            }
        }
    }

    private struct Key: Hashable {
        var buyer: UserID
        var product: ProductID
    }

    private let orders = Mutex<[Key: [OrderStatus]]>([:])

    package init() {}

    /// Records an order of `product` by `buyer` in `status`.
    package func record(buyer: UserID, product: ProductID, status: OrderStatus) {
        orders.withLock { $0[Key(buyer: buyer, product: product), default: []].append(status) }
    }

    /// Moves every order of `product` by `buyer` to `status` (a refund, a cancellation…).
    package func setStatus(buyer: UserID, product: ProductID, to status: OrderStatus) {
        orders.withLock { orders in
            let key = Key(buyer: buyer, product: product)
            orders[key] = (orders[key] ?? [status]).map { _ in status }
        }
    }

    package func hasEligiblePurchase(buyer: UserID, product: ProductID) throws(KeyCatError) -> Bool {
        orders.withLock { $0[Key(buyer: buyer, product: product)]?.contains(where: \.allowsReview) ?? false }
    }
}
