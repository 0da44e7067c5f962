import Foundation

/// Carrier tracking (배송 조회): with a ``ParcelTracker``, a parcel's delivery is what its carrier
/// says, not only what its seller says.
///
/// A seller marks their own parcel delivered, and KeyCat cannot see the box. Without tracking,
/// the buyer's week to confirm or return it (``confirmDeliveredParcels(olderThan:limit:by:)``)
/// runs from that word: a seller could ship with a made-up tracking number, mark the parcel
/// delivered at once, and be paid a week later unless the buyer noticed. With a tracker:
///
/// - each parcel that left and is not confirmed is asked about at most once per interval until
///   its carrier says it was delivered; a parcel on its way that the carrier delivered becomes
///   `delivered` at the carrier's time (audited `shipment.deliver` by `system:tracking`, the
///   `shipment.delivered` event), and one its seller had marked delivered keeps that time and
///   gains the carrier's (audited `shipment.carrier_delivered`);
/// - the week runs from the carrier's delivery. A parcel no carrier has said was delivered — a
///   made-up number, a carrier the tracker does not know, a tracking service down for days — is
///   confirmed by time only once it also shipped ``Configuration/untrackedConfirmationDelay``
///   ago (four weeks by default), so its buyer has that long to ask for a return or dispute;
/// - what the carrier last said is on the shipment (`carrier_status`, `carrier_delivered_at`)
///   for the buyer, the seller and the operators ruling on a dispute.
extension OrderService {
    /// How often one parcel is asked about: an hour.
    public static let trackingInterval: TimeInterval = 60 * 60

    /// Asks `tracker` about the parcels that left, are not confirmed and whose carrier has not
    /// said they were delivered, each at most once per `interval`, at most `limit` a run, the
    /// longest unasked first, eight questions at a time; reconciliation calls it on every run
    /// when the shop has a tracker. One parcel's failure does not stop the others: it is asked
    /// again after the interval, as a parcel of a carrier KeyCat no longer knows is skipped
    /// until then.
    ///
    /// - Throws: `forbidden` unless an admin; `validation` for a limit under 1 or a negative
    ///   interval; a storage error.
    public func trackParcels(with tracker: any ParcelTracker, interval: TimeInterval = OrderService.trackingInterval, limit: Int = 200,
                             by principal: Principal) async throws(KeyCatError) -> ParcelTrackingReport {
        try principal.require(.admin, to: "track parcels")
        guard interval >= 0, limit > 0 else { throw KeyCatError.validation("limit", "tracking needs a positive limit and an interval of 0 or more") }
        let now = clock.now()
        var report = ParcelTrackingReport()
        let parcels = try await shipments.parcelsToTrack(checkedBefore: now.addingTimeInterval(-interval), limit: limit)
        for start in stride(from: 0, to: parcels.count, by: Self.trackingConcurrency) {
            let batch = Array(parcels[start..<min(start + Self.trackingConcurrency, parcels.count)])
            for (parcel, answer) in await Self.ask(tracker, about: batch) {
                guard let answer else {
                    try await shipments.recordTracking(of: parcel.id, status: nil, carrierDeliveredAt: nil, audit: nil, at: now)
                    continue
                }
                report.asked += 1
                switch answer {
                case .failure:
                    report.failed += 1
                    try await shipments.recordTracking(of: parcel.id, status: nil, carrierDeliveredAt: nil, audit: nil, at: now)
                case let .success(.delivered(reported)):
                    // Never before it left, never after now: a carrier's clock is not the shop's.
                    let delivered = min(max(reported, parcel.shippedAt ?? reported), now)
                    try await recordDelivery(of: parcel, at: delivered, now: now, into: &report)
                case let .success(track):
                    if track == .notFound { report.notFound += 1 }
                    try await shipments.recordTracking(of: parcel.id, status: track.status, carrierDeliveredAt: nil, audit: nil, at: now)
                }
            }
        }
        return report
    }

    /// How many parcels are asked about at once.
    static let trackingConcurrency = 8

    /// The tracker's answer for each parcel, in `parcels`' order; nil for a parcel whose carrier
    /// KeyCat does not know (any more), which is not asked.
    private static func ask(_ tracker: any ParcelTracker, about parcels: [Shipment]) async -> [(Shipment, Result<ParcelTrack, KeyCatError>?)] {
        await withTaskGroup(of: (Int, Result<ParcelTrack, KeyCatError>?).self) { group in
            for (index, parcel) in parcels.enumerated() {
                group.addTask {
                    guard let code = parcel.carrier, let number = parcel.trackingNumber,
                          let carrier = Carrier.all.first(where: { $0.code == code }) else { return (index, nil) }
                    do throws(KeyCatError) {
                        return (index, .success(try await tracker.track(carrier: carrier, trackingNumber: number)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var answers = [Result<ParcelTrack, KeyCatError>?](repeating: nil, count: parcels.count)
            for await (index, answer) in group { answers[index] = answer }
            return Array(zip(parcels, answers))
        }
    }

    /// What the carrier's delivery changes: a parcel on its way becomes delivered at the
    /// carrier's time; one its seller had marked delivered gains the carrier's time. A parcel
    /// that cannot move now (a refund of its order pending) is asked again after the interval.
    private func recordDelivery(of parcel: Shipment, at delivered: Date, now: Date, into report: inout ParcelTrackingReport) async throws(KeyCatError) {
        if parcel.status == .shipped {
            if try await deliverOnCarriersWord(parcel, at: delivered, now: now) {
                report.delivered += 1
                return
            }
            guard try await shipments.shipment(parcel.id)?.status == .delivered else {
                try await shipments.recordTracking(of: parcel.id, status: nil, carrierDeliveredAt: nil, audit: nil, at: now)
                return
            }
        }
        try await shipments.recordTracking(
            of: parcel.id, status: .delivered, carrierDeliveredAt: delivered,
            audit: AuditEntry(actor: "system:tracking", action: "shipment.carrier_delivered", target: "shipment:\(parcel.id)",
                              detail: "order \(parcel.orderID) \(parcel.carrier ?? "") \(parcel.trackingNumber ?? ""): delivered \(delivered)",
                              at: now),
            at: now)
        report.deliveryConfirmed += 1
    }

    /// Moves a parcel on its way to `delivered` at its carrier's time; false when it moved first
    /// (its seller marked it delivered meanwhile), which the caller records as a confirmation.
    private func deliverOnCarriersWord(_ parcel: Shipment, at delivered: Date, now: Date) async throws(KeyCatError) -> Bool {
        var move = ShipmentMove(shipmentID: parcel.id, from: .shipped, to: .delivered)
        move.carrierDeliveredAt = delivered
        move.audit = AuditEntry(actor: "system:tracking", action: "shipment.deliver", target: "shipment:\(parcel.id)",
                                detail: "order \(parcel.orderID) \(parcel.carrier ?? "") \(parcel.trackingNumber ?? ""): delivered \(delivered)",
                                at: now)
        return try await shipments.apply(move, at: now)
    }
}
