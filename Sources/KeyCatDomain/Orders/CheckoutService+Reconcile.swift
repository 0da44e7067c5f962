import Foundation

/// What one reconciliation run did.
public struct ReconcileReport: Sendable, Hashable, Codable {
    /// Orders found paid at the PG (late payments, lost answers) and moved to paid.
    public var paid = 0
    /// Orders past their reservation with no payment: expired, stock given back.
    public var expired = 0
    /// Orders the PG settled otherwise (forged amount, payment voided).
    public var failedOrVoided = 0
    /// Payments that paid for nothing, cancelled at the PG.
    public var paymentsVoided = 0
    /// Refunds whose PG answer was lost, now completed or failed.
    public var refundsSettled = 0
    /// Orders the PG could not be asked about this time (left for the next run).
    public var unresolved = 0
    /// Idempotency keys past their retention, deleted (at most
    /// ``CheckoutService/idempotencySweepBatches`` batches of ``CheckoutService/idempotencySweepBatch``).
    public var idempotencyKeysSwept = 0
    /// Handled PG webhook ids older than ``CheckoutService/webhookIDRetention``, forgotten (in
    /// batches, as the keys).
    public var webhookIDsSwept = 0
    /// Paid payments the PG listed in the window (the gateway-side pass).
    public var gatewayPaymentsChecked = 0
    /// Of those, paid at the PG with no order of KeyCat's paid by them.
    public var orphans = 0
    /// What the orphans hold, in all.
    public var orphanAmount = Money.zero
    /// Orphans cancelled at the PG this run (only when asked: ``GatewayReconciliation/voidOrphans``).
    public var orphansVoided = 0
    /// The orphans found, for the operator.
    public var orphanPayments: [GatewayOrphan] = []

    public init() {}
}

/// How far a reconciliation run has got, for an operator watching a long one.
public struct ReconcileProgress: Sendable, Hashable {
    /// The passes of a run, in the order they happen.
    public enum Stage: String, Sendable, Hashable {
        /// KeyCat's open orders, each asked about at the PG.
        case orders
        /// The PG's paid payments of the window, each matched to an order.
        case gatewayPayments = "gateway payments"
        /// Payments that pay for nothing, cancelled at the PG.
        case voids
        /// Refunds whose PG answer was lost.
        case refunds
    }

    /// The pass under way.
    public var stage: Stage
    /// Items of this pass done so far.
    public var done: Int
    /// Items this pass has in all.
    public var total: Int
}

extension CheckoutService {
    /// Settles what was left open, by asking the PG (architecture §6): orders awaiting payment past
    /// their expiry or whose PG answer was lost (`find` by merchant UID: paid → paid as a late
    /// payment, otherwise expired with the stock back once the reservation and its
    /// ``latePaymentGrace`` ran out), payments that pay for nothing and still need cancelling, and
    /// refunds whose answer was lost. An order in its grace that the PG has not seen paid is
    /// asked about again at the next run, not expired: a buyer who opened the payment window a
    /// minute before the end may still pay it, and until 2026-12-02 the next run (a minute at
    /// most, in the example server) expired it, so that payment was voided.
    ///
    /// Safe at any time and from several processes at once: every move is a conditional update,
    /// and PG cancels carry idempotency keys.
    ///
    /// Then, unless `gateway` is ``GatewayReconciliation/off``, it walks the PG's own listing of
    /// paid payments in the recent window and settles or reports those KeyCat's orders do not
    /// account for (see ``reconcileGatewaySide(_:into:progress:)``).
    ///
    /// `progress` is called after each item of each pass (see ``ReconcileProgress``); it must
    /// return quickly.
    public func reconcile(limit: Int = 1_000, gateway options: GatewayReconciliation = GatewayReconciliation(),
                          progress: @Sendable (ReconcileProgress) -> Void = { _ in })
        async throws(KeyCatError) -> ReconcileReport {
        var report = ReconcileReport()
        let now = clock.now()
        let graceEnded = now.addingTimeInterval(-Self.latePaymentGrace)
        let open = try await orders.ordersToReconcile(at: now, limit: limit)
        for (index, order) in open.enumerated() {
            defer { progress(ReconcileProgress(stage: .orders, done: index + 1, total: open.count)) }
            let payment: GatewayPayment?
            do throws(KeyCatError) {
                payment = try await gateway.payment(merchantUID: order.merchantUID)
            } catch where error.code == .paymentNotFound {
                payment = nil
            } catch {
                report.unresolved += 1
                continue
            }
            if let payment, payment.status == .paid, payment.merchantUID == order.merchantUID {
                do throws(KeyCatError) {
                    switch try await settlement.settle(order, with: payment, via: "reconcile") {
                    case .paid: report.paid += 1
                    case .alreadyPaid, .notPaid: break
                    case .forged, .refused, .voided, .soldOut: report.failedOrVoided += 1
                    }
                } catch {
                    report.unresolved += 1
                }
                continue
            }
            // A storage failure here (the file busy past its timeout) leaves this order for the
            // next run instead of abandoning the rest of this one.
            do throws(KeyCatError) {
                if order.expiresAt <= graceEnded {
                    var move = OrderTransition(orderID: order.id, from: .awaitingPayment, to: .expired)
                    move.onlyIfExpiredBy = graceEnded
                    move.returnsStock = true
                    if try await orders.apply(move, at: now) != nil { report.expired += 1 }
                } else {
                    try await orders.setOutcomeUnknown(order.id, false)
                }
            } catch {
                report.unresolved += 1
            }
        }
        await reconcileGatewaySide(options, into: &report, progress: progress)
        let toVoid = try await orders.paymentsToVoid(limit: limit)
        for (index, payment) in toVoid.enumerated() {
            await settlement.void(payment, detail: "settled by reconciliation")
            progress(ReconcileProgress(stage: .voids, done: index + 1, total: toVoid.count))
        }
        // One read to count what is left, not one per payment.
        if !toVoid.isEmpty {
            let left = await Set(try orders.paymentsToVoid(limit: limit).map(\.impUID))
            report.paymentsVoided += toVoid.filter { !left.contains($0.impUID) }.count
        }
        // A refund begun within the window may still be in its first request's hands: two sends
        // racing could have that request hear the PG refuse what this one's send had just done,
        // and record a refund the buyer received as failed.
        let refunds = try await orders.pendingRefunds(begunBy: clock.now().addingTimeInterval(-refundInFlightWindow), limit: limit)
        for (index, refund) in refunds.enumerated() {
            defer { progress(ReconcileProgress(stage: .refunds, done: index + 1, total: refunds.count)) }
            guard let order = try await orders.find(refund.orderID), let impUID = order.impUID else { continue }
            // A pending refund was sent before: the PG may hold it whatever this send hears, so
            // only an answer that proves it did not (RefundOutcome) fails it; a refund the PG made
            // and KeyCat could not record stays pending for the next run, never failed.
            do throws(KeyCatError) {
                _ = try await settlement.sendRefund(refund, impUID: impUID)
            } catch where RefundOutcome.certainlyNotRefunded(by: error, sentBefore: true) {
                do throws(KeyCatError) {
                    try await orders.failRefund(refund, audit: OrderService.failedRefundAudit(
                        refund, actor: "system", action: "reconciliation, asked by \(refund.requestedBy ?? "an earlier request")",
                        error: error, at: clock.now()), at: clock.now())
                    report.refundsSettled += 1
                } catch {
                    report.unresolved += 1
                }
                continue
            } catch {
                report.unresolved += 1
                continue
            }
            do throws(KeyCatError) {
                _ = try await orders.completeRefund(refund, audit: AuditEntry(
                    actor: "system", action: "order.refund", target: "order:\(order.id)",
                    detail: "refund \(refund.id) of \(refund.amount) completed by reconciliation"
                        + (refund.requestedBy.map { ", asked by \($0)" } ?? ""), at: clock.now()), at: clock.now())
                report.refundsSettled += 1
            } catch {
                report.unresolved += 1
            }
        }
        report.idempotencyKeysSwept = await sweepIdempotencyKeys(at: clock.now())
        report.webhookIDsSwept = await sweepWebhookIDs(at: clock.now())
        return report
    }

    /// How long after it was begun reconciliation leaves a pending refund to the request that
    /// began it, by default: longer than that request's sends can take (a cancel and the
    /// read-back of the payment after it, each bounded by the PG client's 30-second deadline).
    /// Two minutes.
    public static let defaultRefundInFlightWindow: TimeInterval = 120

    /// How long after an order's reservation ended a payment may still pay it, by the PG's clock
    /// and by ours: they differ, and a buyer who opened the payment window a minute before the
    /// end may finish a little after it. Later, the order expires and the payment goes
    /// back, as reconciliation would have done had it run first: it may not pay at prices or
    /// holds that ended, however long reconciliation takes to come round. Five minutes.
    ///
    /// A checkout that needs a lapsed order's units takes them only once this has passed too
    /// (the stores' `releaseExpiredReservations`): until 2026-12-01 it took them the moment the
    /// reservation ended, so a buyer who paid in time, and whose confirm came a little late, had
    /// the payment voided and the units sold to someone else.
    public static let latePaymentGrace: TimeInterval = 5 * 60

    /// Keys deleted per write transaction by reconciliation's sweep.
    public static let idempotencySweepBatch = 500
    /// Batches per reconciliation run: a run deletes at most 20 × 500 keys, so a backlog is
    /// worked off over several runs without ever holding the write lock for long.
    public static let idempotencySweepBatches = 20

    /// How long a handled PG webhook's id is kept to recognise a redelivery: 30 days. The PG
    /// retries a delivery for a few days at most, and a redelivery of a forgotten id would only
    /// re-read its payment and apply nothing new (``handleWebhook(id:impUID:merchantUID:)``).
    public static let webhookIDRetention: TimeInterval = 30 * 24 * 3600

    /// Deletes expired idempotency keys in short, bounded transactions. A busy file stops the
    /// sweep (what is left waits for the next run); it never fails the reconciliation.
    func sweepIdempotencyKeys(at now: Date) async -> Int {
        var swept = 0
        for _ in 0..<Self.idempotencySweepBatches {
            guard let batch = try? await idempotency.store.sweepExpired(before: now, limit: Self.idempotencySweepBatch) else { break }
            swept += batch
            if batch < Self.idempotencySweepBatch { break }
        }
        return swept
    }

    /// Forgets handled webhook ids past ``webhookIDRetention`` the same way: bounded batches, a
    /// busy store stops the sweep and never fails the reconciliation.
    func sweepWebhookIDs(at now: Date) async -> Int {
        let cutoff = now.addingTimeInterval(-Self.webhookIDRetention)
        var swept = 0
        for _ in 0..<Self.idempotencySweepBatches {
            guard let batch = try? await webhookEvents.sweep(recordedBefore: cutoff, limit: Self.idempotencySweepBatch) else { break }
            swept += batch
            if batch < Self.idempotencySweepBatch { break }
        }
        return swept
    }
}
