import Foundation
import KeyCatDomain

extension KeyCat {
    /// Checks a configuration before anything is opened: every bound a setting has, and the
    /// policies' public fields again, since they may have been changed after their initializers
    /// checked them.
    static func validate(_ configuration: Configuration) throws(KeyCatError) {
        guard (1...10_000_000).contains(configuration.passwordIterations) else {
            throw KeyCatError.validation("password_iterations", "password iterations must be between 1 and 10,000,000")
        }
        // Bounded as well as positive: a lifetime is added to a timestamp, which must not overflow.
        let year: TimeInterval = 366 * 24 * 60 * 60
        guard (1...year).contains(configuration.accessTokenLifetime), (1...year).contains(configuration.refreshTokenLifetime),
              (1...year).contains(configuration.refreshTokenFamilyLifetime) else {
            throw KeyCatError.validation("token_lifetime", "token lifetimes must be between 1 second and a year")
        }
        // Re-run the policies' checks: their fields are public and may have been changed after init.
        _ = try configuration.logInThrottle?.validated()
        if let policy = configuration.signUpThrottle {
            _ = try SignUpThrottlePolicy(window: policy.window, attemptsPerClient: policy.attemptsPerClient)
        }
        guard (0...60).contains(configuration.tokenVersionCacheLifetime) else {
            throw KeyCatError.validation("token_version_cache_lifetime", "the token version cache lifetime is 0 to 60 seconds")
        }
        if let limit = configuration.toggleRateLimit {
            // Re-run the checks: the fields are public and may have been changed after init.
            _ = try RateLimit(perSecond: limit.perSecond, burst: limit.burst)
        }
        guard configuration.reservationLifetime > 0, configuration.reservationLifetime <= year else {
            throw KeyCatError.validation("reservation_lifetime", "the reservation lifetime must be between 1 second and a year")
        }
        guard (0...24 * 60 * 60).contains(configuration.refundInFlightWindow) else {
            throw KeyCatError.validation("refund_in_flight_window", "the refund in-flight window must be between 0 and a day")
        }
        for rate in [configuration.confirmationRate, configuration.imageUploadRate].compactMap(\.self) {
            _ = try RateLimit(perSecond: rate.perSecond, burst: rate.burst)
        }
        _ = try configuration.stockHolds?.validated()
        if let rate = configuration.stockHolds?.checkoutRate { _ = try RateLimit(perSecond: rate.perSecond, burst: rate.burst) }
        guard (0...year).contains(configuration.purchaseConfirmationDelay) else {
            throw KeyCatError.validation("purchase_confirmation_delay", "the purchase confirmation delay is 0 seconds to a year")
        }
        guard configuration.parcelTracker == nil
                || (configuration.purchaseConfirmationDelay...year).contains(configuration.untrackedConfirmationDelay) else {
            throw KeyCatError.validation("untracked_confirmation_delay",
                                         "the untracked confirmation delay is the purchase confirmation delay to a year")
        }
        guard (0...year).contains(configuration.imageRetention) else {
            throw KeyCatError.validation("image_retention", "the image retention is 0 seconds to a year")
        }
        guard (0...90 * 24 * 60 * 60).contains(configuration.returnDisputeWindow) else {
            throw KeyCatError.validation("return_dispute_window", "the return dispute window is 0 seconds to 90 days")
        }
        guard ProductDraft.deliveryFeeRange.contains(configuration.maximumDeliveryFee.won) else {
            throw KeyCatError.validation("maximum_delivery_fee", "the maximum delivery fee is 0 to 1,000,000 won")
        }
        // Pruning an event takes its webhook deliveries with it: a retention shorter than the
        // standard retries' span (3 days and 3½ hours) would drop deliveries still being retried,
        // with no `failed` row and no endpoint disabled for it.
        guard (Configuration.minimumEventRetention...(10 * year)).contains(configuration.eventRetention) else {
            throw KeyCatError.validation("event_retention", "the event retention is 7 days to 10 years")
        }
        guard (Configuration.minimumAuditRetention...(10 * year)).contains(configuration.auditRetention) else {
            throw KeyCatError.validation("audit_retention", "the audit retention is 1 year to 10 years")
        }
    }
}
