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

/// The budget of PG reads that unsigned notifications may cause, shared by every request of one
/// KeyCat: a token bucket refilled with the configured clock.
final class NotificationBudget: Sendable {
    private let limit: RateLimit
    private let clock: any WallClock
    private let bucket: Mutex<TokenBucket>

    init(limit: RateLimit, clock: any WallClock) {
        self.limit = limit
        self.clock = clock
        bucket = Mutex(.full(limit, at: clock.now()))
    }

    /// Takes one read from the budget; false when it is spent.
    func take() -> Bool {
        let now = clock.now()
        return bucket.withLock { $0.take(limit, at: now) == nil }
    }
}
