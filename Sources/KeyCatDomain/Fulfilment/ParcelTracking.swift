import Foundation

/// What a parcel's carrier says of it, asked by its tracking number (배송 조회).
public enum ParcelTrack: Sendable, Hashable {
    /// The carrier knows no parcel of that number: a made-up number looks like this, and so does
    /// a label printed but not yet handed over.
    case notFound
    /// The carrier has the parcel and has not delivered it.
    case inTransit
    /// The carrier delivered the parcel at that time.
    case delivered(at: Date)

    /// How a shipment keeps what its carrier last said.
    public var status: CarrierStatus {
        switch self {
        case .notFound: .notFound
        case .inTransit: .inTransit
        case .delivered: .delivered
        }
    }
}

/// What a shipment's carrier last said of it (``Shipment/carrierStatus``); nil until it was asked.
public enum CarrierStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case notFound = "not_found"
    case inTransit = "in_transit"
    case delivered
    /// The carrier delivered a parcel of that number more than a day before this one shipped:
    /// another parcel's number (an old one reused, or someone else's). It does not count as
    /// this parcel's delivery.
    case deliveredBeforeShipping = "delivered_before_shipping"
}

/// When carrier tracking's rules count a parcel as delivered, for a shop that tracks parcels.
public struct TrackingCutoffs: Sendable, Hashable {
    /// A parcel no carrier has said was delivered may be confirmed by time, and a rejection of
    /// its return is no longer disputable, once it shipped before this.
    public var untrackedShippedBefore: Date
    /// A carrier's delivery counts for confirmation once KeyCat learnt of it before this: the
    /// buyer is told before their week can be over.
    public var noticedBefore: Date

    public init(untrackedShippedBefore: Date, noticedBefore: Date) {
        self.untrackedShippedBefore = untrackedShippedBefore
        self.noticedBefore = noticedBefore
    }
}

/// Which parcels are due to be asked about again: hourly while young, daily once they shipped
/// a week ago (a parcel its carrier never knows is asked for as long as it waits).
public struct TrackingDue: Sendable, Hashable {
    public var checkedBefore: Date
    public var slowShippedBefore: Date
    public var slowCheckedBefore: Date

    public init(checkedBefore: Date, slowShippedBefore: Date, slowCheckedBefore: Date) {
        self.checkedBefore = checkedBefore
        self.slowShippedBefore = slowShippedBefore
        self.slowCheckedBefore = slowCheckedBefore
    }
}

/// The shop's way to ask carriers where parcels are: a tracking service's client (for example
/// one over the public tracking APIs whose carrier codes ``Carrier/code`` uses), given to KeyCat
/// by the server that embeds it. With one, a parcel's delivery counts from when its carrier says
/// it came, not from its seller's word (docs/marketplace.md, "Carrier tracking").
public protocol ParcelTracker: Sendable {
    /// Where the parcel with `trackingNumber` is, by `carrier`.
    ///
    /// - Throws: any ``KeyCatError`` when the tracking service cannot answer now (down, slow,
    ///   over its quota); the parcel is asked again at the next interval, and the others of the
    ///   run are asked all the same.
    func track(carrier: Carrier, trackingNumber: String) async throws(KeyCatError) -> ParcelTrack
}

/// What one run of ``OrderService/trackParcels(with:interval:limit:by:)`` found.
public struct ParcelTrackingReport: Sendable, Hashable {
    /// Parcels asked about.
    public var asked = 0
    /// Parcels on their way that their carriers said were delivered: now `delivered`, at the
    /// carrier's time.
    public var delivered = 0
    /// Parcels their sellers had marked delivered that their carriers now said were.
    public var deliveryConfirmed = 0
    /// Parcels their carriers knew nothing of.
    public var notFound = 0
    /// Parcels whose number their carrier delivered before they shipped (another parcel's).
    public var deliveredBeforeShipping = 0
    /// Parcels the tracker could not answer for; asked again at the next interval.
    public var failed = 0

    public init() {}
}
