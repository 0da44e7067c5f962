import Foundation

/// Carrier tracking (배송 조회): with a ``ParcelTracker``, a parcel's delivery is what its carrier
/// says, not only what its seller says.
///
/// A seller marks their own parcel delivered, and KeyCat cannot see the box. Without tracking,
/// the buyer's week to confirm or return it (``confirmDeliveredParcels(olderThan:limit:by:)``)
/// runs from that word: a seller could ship with a made-up tracking number, mark the parcel
/// delivered at once, and be paid a week later unless the buyer noticed. With a tracker:
///
/// - each parcel that left and is not confirmed is asked about (hourly, daily once it shipped a
///   week ago) until its carrier says it was delivered; a parcel on its way that the carrier
///   delivered becomes `delivered` at the carrier's time (audited `shipment.deliver` by
///   `system:tracking`, the `shipment.delivered` event), and one its seller had marked delivered
///   keeps that time and gains the carrier's (audited `shipment.carrier_delivered`);
/// - a delivery of its number more than a day before the parcel shipped is another parcel's (an
///   old number reused): it counts for nothing (`delivered_before_shipping`, audited
///   `shipment.carrier_mismatch` once);
/// - the week runs from the carrier's delivery, once KeyCat has known of it for
///   ``carrierNoticeGrace``. A parcel no carrier has said was delivered — a made-up number, a
///   carrier the tracker does not know, a tracking service down for days — is confirmed by time
///   only once it also shipped ``untrackedDelay`` ago (four weeks by default), and a seller's
///   rejection of its return stays disputable until then;
/// - what the carrier last said is on the shipment (`carrier_status`, `carrier_delivered_at`)
///   for the buyer, the seller and the operators ruling on a dispute, and a seller corrects a
///   mistyped number (``correctTracking(of:carrier:trackingNumber:by:)``) until its carrier
///   delivered the parcel.
extension OrderService {
    /// How often one parcel is asked about while it is young: an hour.
    public static let trackingInterval: TimeInterval = 60 * 60
    /// How often a parcel that shipped a week ago or more is asked about: a day.
    public static let slowTrackingInterval: TimeInterval = 24 * 60 * 60
    /// How long before it shipped a carrier's delivery of its number may be and still be this
    /// parcel's (a seller who enters the number late): a day. Earlier is another parcel's.
    public static let shippingTolerance: TimeInterval = 24 * 60 * 60
    /// How long a carrier's delivery must have been known before it lets time confirm the
    /// parcel: two days, so a delivery learnt late (the tracking service down) never confirms a
    /// parcel in the run that learns of it, before its buyer could be told.
    public static let carrierNoticeGrace: TimeInterval = 2 * 24 * 60 * 60

    /// The times carrier tracking's rules are judged by at `now`; nil when the shop does not
    /// track parcels.
    func trackingCutoffs(at now: Date) -> TrackingCutoffs? {
        untrackedDelay.map {
            TrackingCutoffs(untrackedShippedBefore: now.addingTimeInterval(-$0), noticedBefore: now.addingTimeInterval(-Self.carrierNoticeGrace))
        }
    }

    /// Asks `tracker` about the parcels that left, are not confirmed and whose carrier has not
    /// said they were delivered — each at most once per `interval` (daily once it shipped a week
    /// ago), at most `limit` a run, the longest unasked first, eight questions at a time;
    /// reconciliation calls it on every run when the shop has a tracker. The parcels are claimed
    /// before they are asked about, so servers sharing a database do not ask twice, and a parcel
    /// whose answer fails, or cannot be recorded, waits its turn like the others and stops no
    /// other.
    ///
    /// - Throws: `forbidden` unless an admin; `validation` for a limit under 1 or a negative
    ///   interval; a storage error claiming the parcels, or (after every parcel was tried) the
    ///   first one recording an answer.
    public func trackParcels(with tracker: any ParcelTracker, interval: TimeInterval = OrderService.trackingInterval, limit: Int = 200,
                             by principal: Principal) async throws(KeyCatError) -> ParcelTrackingReport {
        try principal.require(.admin, to: "track parcels")
        guard interval >= 0, (1...1_000).contains(limit) else {
            throw KeyCatError.validation("limit", "tracking asks about 1 to 1,000 parcels a run, at an interval of 0 or more")
        }
        let now = clock.now()
        var report = ParcelTrackingReport()
        var storageFailure: KeyCatError?
        let due = TrackingDue(checkedBefore: now.addingTimeInterval(-interval), slowShippedBefore: now.addingTimeInterval(-7 * 24 * 60 * 60),
                              slowCheckedBefore: now.addingTimeInterval(-max(interval, Self.slowTrackingInterval)))
        let parcels = try await shipments.claimParcelsToTrack(due, limit: limit, at: now)
        for start in stride(from: 0, to: parcels.count, by: Self.trackingConcurrency) where !Task.isCancelled {
            // The parcels not asked (cancelled: the server is stopping) were claimed: they wait their turn.
            let batch = Array(parcels[start..<min(start + Self.trackingConcurrency, parcels.count)])
            for (parcel, answer) in await Self.ask(tracker, about: batch) {
                guard let answer else { continue }  // a carrier KeyCat no longer knows: not asked
                report.asked += 1
                do throws(KeyCatError) {
                    try await record(answer, of: parcel, at: now, into: &report)
                } catch {
                    report.failed += 1
                    storageFailure = storageFailure ?? error
                }
            }
        }
        if let storageFailure { throw storageFailure }
        return report
    }

    /// The earliest delivery time believed: a tracker's answer before it is not a time.
    static let earliestDelivery = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01

    /// How many parcels are asked about at once.
    static let trackingConcurrency = 8

    /// The tracker's answer for each parcel, in `parcels`' order; nil for a parcel whose carrier
    /// KeyCat does not know (any more), which is not asked.
    private static func ask(_ tracker: any ParcelTracker, about parcels: [Shipment]) async -> [(Shipment, Result<ParcelTrack, KeyCatError>?)] {
        await withTaskGroup(of: (Int, Result<ParcelTrack, KeyCatError>?).self) { group in
            for (index, parcel) in parcels.enumerated() {
                group.addTask {
                    guard let code = parcel.carrier, let number = parcel.trackingNumber,
                          let carrier = try? Carrier.named(code) else { return (index, nil) }
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

    /// Records one answer: a failure as nothing (the parcel was claimed: it waits its turn), a
    /// carrier's word as its status, a delivery as below.
    private func record(_ answer: Result<ParcelTrack, KeyCatError>, of parcel: Shipment, at now: Date,
                        into report: inout ParcelTrackingReport) async throws(KeyCatError) {
        switch answer {
        case .failure:
            report.failed += 1
        case let .success(.delivered(reported)) where !(Self.earliestDelivery...now.addingTimeInterval(Self.shippingTolerance)).contains(reported):
            report.failed += 1  // not a time a parcel of this shop was delivered: nothing is believed
        case let .success(.delivered(reported)):
            // The number's delivery must come after the parcel left with that number: after it
            // shipped, or after its number was last corrected (a correction cannot claim a
            // delivery made before it).
            let since = max(parcel.shippedAt ?? reported, parcel.trackingCorrectedAt ?? .distantPast)
            guard reported >= since.addingTimeInterval(-Self.shippingTolerance) else {
                // Audited once, when the carrier first says so.
                let audit = parcel.carrierStatus == .deliveredBeforeShipping ? nil : AuditEntry(
                    actor: "system:tracking", action: "shipment.carrier_mismatch", target: "shipment:\(parcel.id)",
                    detail: "\(Self.trackingDetail(parcel)): its carrier delivered that number "
                        + "at \(reported), before the parcel left with it at \(since): another parcel's number", at: now)
                if try await shipments.recordTracking(of: parcel.id, status: .deliveredBeforeShipping, carrierDeliveredAt: nil, audit: audit,
                                                      claimedAt: now) {
                    report.deliveredBeforeShipping += 1
                }
                return
            }
            // Never before it left, never after now: a carrier's clock is not the shop's.
            try await recordDelivery(of: parcel, at: min(max(reported, since), now), now: now, into: &report)
        case let .success(track):
            if try await shipments.recordTracking(of: parcel.id, status: track.status, carrierDeliveredAt: nil, audit: nil, claimedAt: now),
               track == .notFound {
                report.notFound += 1
            }
        }
    }

    /// What the carrier's delivery changes: a parcel on its way becomes delivered at the
    /// carrier's time; one its seller had marked delivered gains the carrier's time. A parcel
    /// that cannot move now (a refund of its order pending) waits its turn to be asked again.
    private func recordDelivery(of parcel: Shipment, at delivered: Date, now: Date, into report: inout ParcelTrackingReport) async throws(KeyCatError) {
        if parcel.status == .shipped {
            if try await deliverOnCarriersWord(parcel, at: delivered, now: now) {
                report.delivered += 1
                return
            }
            guard try await shipments.shipment(parcel.id)?.status == .delivered else { return }
        }
        let recorded = try await shipments.recordTracking(
            of: parcel.id, status: .delivered, carrierDeliveredAt: delivered,
            audit: AuditEntry(actor: "system:tracking", action: "shipment.carrier_delivered", target: "shipment:\(parcel.id)",
                              detail: "\(Self.trackingDetail(parcel)): delivered \(delivered)",
                              at: now),
            claimedAt: now)
        if recorded { report.deliveryConfirmed += 1 }
    }

    /// How tracking's audit entries name a parcel: its order, carrier and number.
    private static func trackingDetail(_ parcel: Shipment) -> String {
        "order \(parcel.orderID) \(parcel.carrier ?? "") \(parcel.trackingNumber ?? "")"
    }

    /// Moves a parcel on its way to `delivered` at its carrier's time; false when it moved first
    /// (its seller marked it delivered meanwhile) or cannot move now.
    private func deliverOnCarriersWord(_ parcel: Shipment, at delivered: Date, now: Date) async throws(KeyCatError) -> Bool {
        var move = ShipmentMove(shipmentID: parcel.id, from: .shipped, to: .delivered)
        move.carrierDeliveredAt = delivered
        move.trackingClaimedAt = now
        move.audit = AuditEntry(actor: "system:tracking", action: "shipment.deliver", target: "shipment:\(parcel.id)",
                                detail: "\(Self.trackingDetail(parcel)): delivered \(delivered)",
                                at: now)
        return try await shipments.apply(move, at: now)
    }

    /// Corrects a parcel's carrier and tracking number (송장 수정). A seller's typo would
    /// otherwise leave the carrier knowing nothing of the parcel, and with tracking, time would
    /// confirm it only four weeks after it shipped. Its seller or an admin, while the parcel has
    /// left, is not confirmed and its carrier has not said it was delivered: a delivery a carrier
    /// reported is not undone by another number. The carrier is asked about the new number at
    /// the next run, and only a delivery of it after the correction counts: a number swapped for
    /// one already delivered closes no buyer's window. The shipping time, which the four weeks run
    /// from, stays. Audited `shipment.tracking` with both numbers; the same number again changes
    /// nothing. The new number, as a shipped one, must be no other parcel's
    /// (``ship(shipment:carrier:trackingNumber:by:)``), and the parcel holds it from now.
    ///
    /// - Throws: `notFound` for a shipment not the caller's; `validation` for an unknown carrier
    ///   or a number not of its format; `duplicate` (`tracking_number`) for a number another
    ///   parcel holds; `illegalTransition` when the parcel has not left, is confirmed, or its
    ///   carrier reported it delivered.
    public func correctTracking(of id: ShipmentID, carrier: String, trackingNumber: String, by principal: Principal) async throws(KeyCatError) -> Order {
        let shipment = try await ownedShipment(id, by: principal)
        let known = try Carrier.named(carrier)
        let number = try known.trackingNumber(trackingNumber)
        // The same carrier and number: nothing to correct (and the parcel keeps its place in line).
        if shipment.hasLeft, shipment.carrier == known.code, shipment.trackingNumber == number, shipment.confirmedAt == nil,
           shipment.carrierDeliveredAt == nil {
            return try await settlement.reload(shipment.orderID)
        }
        let now = clock.now()
        let audit = AuditEntry(actor: principal.auditActor, action: "shipment.tracking", target: "shipment:\(id)",
                               detail: "order \(shipment.orderID): \(shipment.carrier ?? "-") \(shipment.trackingNumber ?? "-") → \(known.code) \(number)",
                               at: now)
        let use = numberUse(at: now)
        guard try await shipments.correctTracking(of: id, carrier: known, trackingNumber: number, use: use, audit: audit, at: now) else {
            let current = try await shipments.shipment(id) ?? shipment
            if current.hasLeft, current.confirmedAt == nil, current.carrierDeliveredAt == nil {
                guard try await shipments.numberIsTaken(known, number, besides: id, use) else {
                    throw KeyCatError(.illegalTransition, "shipment \(id) changed meanwhile; read it again",
                                      context: ["status": current.status.rawValue])
                }
                throw Self.numberTaken(known, number)
            }
            let why = !current.hasLeft ? "has not left: it is shipped with its number"
                : current.confirmedAt != nil ? "is confirmed"
                : "was delivered by its carrier's own word"
            throw KeyCatError(.illegalTransition, "shipment \(id) \(why); its tracking number stays",
                              context: ["status": current.status.rawValue])
        }
        return try await settlement.reload(shipment.orderID)
    }
}
