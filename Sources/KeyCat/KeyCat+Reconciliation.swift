import Foundation

extension KeyCat {
    /// Reconciles every `interval` until the calling task is cancelled: the loop a server starts
    /// once, beside its HTTP listener, instead of a cron entry for `keycat-admin payments
    /// reconcile`.
    ///
    /// ```swift
    /// let reconciliation = Task { await keycat.reconcile(every: .seconds(60)) { outcome in
    ///     if case .failure(let error) = outcome { logger.warning("reconcile: \(error)") }
    /// } }
    /// // at shutdown:
    /// reconciliation.cancel()
    /// ```
    ///
    /// Each run is ``CheckoutService/reconcile(limit:gateway:progress:)`` (KeyCat's open orders,
    /// voids and lost refunds, then the PG's paid payments of the last day). A failed run (the
    /// file busy, the PG down) is reported to `onRun` and the loop goes on; the next run picks
    /// up what this one left. Each run also approves again the returns whose refund did not go
    /// through (``OrderService/settleApprovedReturns(limit:by:)``), confirms the receipt of parcels delivered more than
    /// ``Configuration/purchaseConfirmationDelay`` ago (``confirmDeliveredParcels()``) and
    /// anonymises the addresses of orders delivered more than ``Configuration/addressRetention`` ago,
    /// and prunes events older than ``Configuration/eventRetention`` (``pruneEvents()``) and audit
    /// entries older than ``Configuration/auditRetention`` (``pruneAuditLog()``), and last
    /// asks the carriers where parcels are when the shop tracks them (``trackParcels()``). Once a
    /// day it also sweeps the images no listing names (``sweepImages(dryRun:)``): first an hour
    /// after the loop starts (a rolling deploy's older servers, which store images without
    /// marking them stored again, are gone by then), then a day after each sweep, an hour after
    /// one that failed. Safe to run in several processes at once, though one is enough.
    ///
    /// - Parameters:
    ///   - interval: the pause between the end of one run and the start of the next.
    ///   - gateway: the gateway-side pass's options (window, voiding orphans).
    ///   - onRun: called after every run with its report or its error.
    public func reconcile(
        every interval: Duration,
        gateway: GatewayReconciliation = GatewayReconciliation(),
        onRun: @Sendable (Result<ReconcileReport, KeyCatError>) -> Void = { _ in }
    ) async {
        var nextImageSweep = configuration.clock.now().addingTimeInterval(Self.imageSweepRetry)
        while !Task.isCancelled {
            // Each step runs whether or not the one before it worked: confirming receipts and
            // anonymising addresses do not wait on the PG answering. The first failure is reported.
            var outcome: Result<ReconcileReport, KeyCatError>
            do throws(KeyCatError) {
                outcome = .success(try await checkout.reconcile(gateway: gateway))
            } catch {
                outcome = .failure(error)
            }
            do throws(KeyCatError) {
                _ = try await orders.settleApprovedReturns(by: .operatorConsole("reconcile"))
            } catch {
                if case .success = outcome { outcome = .failure(error) }
            }
            do throws(KeyCatError) {
                _ = try await confirmDeliveredParcels()
            } catch {
                if case .success = outcome { outcome = .failure(error) }
            }
            do throws(KeyCatError) {
                _ = try await orders.anonymiseAddresses(olderThan: configuration.addressRetention, by: .operatorConsole("reconcile"))
            } catch {
                if case .success = outcome { outcome = .failure(error) }
            }
            do throws(KeyCatError) {
                _ = try await pruneEvents()
                _ = try await pruneAuditLog()
            } catch {
                if case .success = outcome { outcome = .failure(error) }
            }
            let now = configuration.clock.now()
            if now >= nextImageSweep {
                do throws(KeyCatError) {
                    _ = try await sweepImages()
                    nextImageSweep = now.addingTimeInterval(Self.imageSweepInterval)
                } catch {
                    nextImageSweep = now.addingTimeInterval(Self.imageSweepRetry)
                    if case .success = outcome { outcome = .failure(error) }
                }
            }
            do throws(KeyCatError) {
                // Last: a tracking service that answers slowly delays nothing else.
                _ = try await trackParcels()
            } catch {
                if case .success = outcome { outcome = .failure(error) }
            }
            onRun(outcome)
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // cancelled while waiting
            }
        }
    }

    /// How often the reconciliation loop sweeps images: a day.
    static let imageSweepInterval: TimeInterval = 24 * 60 * 60
    /// How long the loop waits before its first sweep, and after a sweep that failed: an hour.
    static let imageSweepRetry: TimeInterval = 60 * 60

    /// Deletes the stored images no listing names any more: those no listing ever named, stored more
    /// than ``ImageRules/sweepGrace`` ago, and those of listings withdrawn more than
    /// ``Configuration/imageRetention`` ago, whose image lists are emptied first
    /// (``CatalogService/sweepImages(retention:dryRun:by:)``; docs/operations.md).
    @discardableResult
    public func sweepImages(dryRun: Bool = false) async throws(KeyCatError) -> ImageSweepReport {
        try await catalog.sweepImages(retention: configuration.imageRetention, dryRun: dryRun, by: .operatorConsole("reconcile"))
    }

    /// Deletes the events older than ``Configuration/eventRetention`` (docs/events.md).
    ///
    /// - Returns: how many it deleted.
    @discardableResult
    public func pruneEvents() async throws(KeyCatError) -> Int {
        try await store.events.prune(before: configuration.clock.now().addingTimeInterval(-configuration.eventRetention))
    }

    /// Deletes the audit entries older than ``Configuration/auditRetention``, recording that it
    /// did (docs/operations.md, "The audit log's retention").
    ///
    /// - Returns: how many it deleted.
    @discardableResult
    public func pruneAuditLog() async throws(KeyCatError) -> Int {
        let now = configuration.clock.now()
        return try await auditLog.prune(before: now.addingTimeInterval(-configuration.auditRetention), at: now)
    }

    /// Asks the ``Configuration/parcelTracker`` where the parcels on their way are, each at most
    /// once an hour (a day once it shipped a week ago), up to 200 a run, each question given
    /// ``parcelTrackingTimeout`` (``OrderService/trackParcels(with:interval:limit:by:)``);
    /// reconciliation does it on every run. Without a tracker it asks nothing.
    @discardableResult
    public func trackParcels() async throws(KeyCatError) -> ParcelTrackingReport {
        guard let tracker = configuration.parcelTracker else { return ParcelTrackingReport() }
        return try await orders.trackParcels(with: DeadlineTracker(tracker, timeout: Self.parcelTrackingTimeout), by: .operatorConsole("reconcile"))
    }

    /// How long one question to the tracker may take before it counts as failed: 10 seconds.
    public static let parcelTrackingTimeout: Duration = .seconds(10)

    /// Confirms the receipt of every parcel delivered more than
    /// ``Configuration/purchaseConfirmationDelay`` ago that its buyer neither confirmed nor asked
    /// to return (구매확정), in batches of a thousand, each audited `shipment.confirm`. A parcel
    /// whose return is disputed, or whose seller's rejection may still be disputed
    /// (``Configuration/returnDisputeWindow``), waits. With a ``Configuration/parcelTracker``,
    /// the delivery that counts is the carrier's, and a parcel no carrier has said was delivered
    /// waits until it shipped ``Configuration/untrackedConfirmationDelay`` ago.
    ///
    /// - Returns: how many it confirmed.
    @discardableResult
    public func confirmDeliveredParcels() async throws(KeyCatError) -> Int {
        var total = 0
        while true {
            let confirmed = try await orders.confirmDeliveredParcels(
                olderThan: configuration.purchaseConfirmationDelay, limit: 1_000, by: .operatorConsole("reconcile"))
            total += confirmed
            if confirmed < 1_000 { return total }
        }
    }
}
