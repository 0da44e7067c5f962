import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization

/// A PortOne v1 webhook notification: `{imp_uid, merchant_uid, status}` as JSON, or the same
/// fields as a form (v1 sends either, by the account's setting). Unsigned, so only ever a hint.
///
/// Only the merchant UID is kept: the order's payment is re-read from the PG, so the
/// notification's `imp_uid` must be there (v1 always sends it) and shaped as the PG's
/// (``PaymentRules/isImpUID(_:)``), and its `status` is ignored.
struct PortOneNotification: Sendable, Hashable {
    let merchantUID: String

    /// Nil unless the body names both a well-formed `imp_uid` and a `merchant_uid` of at most 100
    /// characters.
    init?(body: Data, contentType: String?) {
        var fields: [String: String] = [:]
        let isForm = contentType?.lowercased().contains("x-www-form-urlencoded") == true
        if !isForm, let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] {
            for (name, value) in object { if let text = value as? String { fields[name] = text } }
        } else if let text = String(data: body, encoding: .utf8) {
            fields = FormEncoding.dictionary(text)
        }
        guard let impUID = fields["imp_uid"], let merchantUID = fields["merchant_uid"],
              PaymentRules.isImpUID(impUID), (1...100).contains(merchantUID.count)
        else { return nil }
        self.merchantUID = merchantUID
    }
}

/// The budget of PG reads that unsigned notifications may cause, in one KeyCat: a small token
/// bucket per merchant UID (an order of ours), under a larger one for all of them together, both
/// refilled with the configured clock. Anyone may send notifications, and one forger naming one
/// order over and over spends only that order's budget: a real notification about another
/// order is still handled. The overall cap bounds what a forger naming many orders costs the PG.
///
/// Concurrency in one sentence: both budgets live behind one `Mutex`, so a take is one atomic
/// check of the order's bucket, then the overall one.
final class NotificationBudget: Sendable {
    private struct Buckets {
        var overall: TokenBucket
        var orders: [String: TokenBucket] = [:]
    }

    private let perOrder: RateLimit
    private let overall: RateLimit
    private let clock: any WallClock
    private let buckets: Mutex<Buckets>
    /// Orders' buckets are pruned when there are more than this; a full bucket carries no state.
    static let pruneThreshold = 10_000

    init(perOrder: RateLimit, overall: RateLimit, clock: any WallClock) {
        self.perOrder = perOrder
        self.overall = overall
        self.clock = clock
        buckets = Mutex(Buckets(overall: .full(overall, at: clock.now())))
    }

    /// Takes one read for `merchantUID`; false when its own budget or the overall one is spent.
    /// A refusal by the order's budget costs the overall one nothing, so a flood about one order
    /// never eats into the others'; one by the overall budget leaves the order's as it was.
    func take(for merchantUID: String) -> Bool {
        let now = clock.now()
        let (perOrder, overall) = (perOrder, overall)
        return buckets.withLock { buckets in
            var order = buckets.orders[merchantUID] ?? .full(perOrder, at: now)
            guard order.take(perOrder, at: now) == nil else {
                buckets.orders[merchantUID] = order
                return false
            }
            guard buckets.overall.take(overall, at: now) == nil else { return false }
            buckets.orders[merchantUID] = order
            if buckets.orders.count > Self.pruneThreshold {
                buckets.orders = buckets.orders.filter { !$0.value.isFull(perOrder, at: now) }
            }
            return true
        }
    }
}
