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
    /// up what this one left. Each run also anonymises the addresses of orders delivered more
    /// than ``Configuration/addressRetention`` ago. Safe to run in several processes at once, though one is enough.
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
        while !Task.isCancelled {
            do throws(KeyCatError) {
                let report = try await checkout.reconcile(gateway: gateway)
                _ = try await orders.anonymiseAddresses(olderThan: configuration.addressRetention, by: .operatorConsole("reconcile"))
                onRun(.success(report))
            } catch {
                onRun(.failure(error))
            }
            do {
                try await Task.sleep(for: interval)
            } catch {
                return  // cancelled while waiting
            }
        }
    }
}
