import Foundation
import KeyCatDomain

/// Carriers that say what they are told to: a ``ParcelTracker`` for tests, the demo and local
/// servers, as the PG simulator stands in for the PG. A parcel nobody told it of is
/// ``ParcelTrack/notFound``, as a made-up tracking number is to a real carrier.
///
/// ```swift
/// let carriers = SimulatedCarriers()
/// configuration.parcelTracker = carriers
/// await carriers.report(.delivered(at: now), carrier: "kr.cjlogistics", trackingNumber: "553120261123")
/// ```
public actor SimulatedCarriers: ParcelTracker {
    private var parcels: [String: ParcelTrack] = [:]
    private var down = false
    /// Every question asked, in order (`carrier-code tracking-number`), for tests to count.
    public private(set) var asked: [String] = []

    public init() {}

    /// What the carrier (its code, ``Carrier/code``) says from now on of the parcel with
    /// `trackingNumber`; nil forgets it (``ParcelTrack/notFound`` again).
    public func report(_ track: ParcelTrack?, carrier: String, trackingNumber: String) {
        parcels[Self.key(carrier, trackingNumber)] = track
    }

    /// Whether every question fails, as a tracking service that is down does.
    public func setDown(_ isDown: Bool) { down = isDown }

    public func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack {
        let key = Self.key(carrier.code, trackingNumber)
        asked.append(key)
        guard !down else { throw KeyCatError(.gatewayUnavailable, "the simulated tracking service is down") }
        return parcels[key] ?? .notFound
    }

    private static func key(_ carrier: String, _ trackingNumber: String) -> String { "\(carrier) \(trackingNumber)" }
}
