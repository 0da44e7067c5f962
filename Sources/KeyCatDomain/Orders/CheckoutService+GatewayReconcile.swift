import Foundation

/// How reconciliation looks at the PG's side: which window of the PG's payments it walks, and
/// whether it voids the orphans it finds.
///
/// Voiding is off by default: an orphan is money a buyer paid for an order KeyCat no longer has,
/// which after a restore may be an order the shop already shipped from the lost copy. An operator
/// reads the report (or `db check --gateway`) and asks for the voids.
public struct GatewayReconciliation: Sendable, Hashable {
    /// How far back to walk the PG's payments (by the attempt's start time); 0 skips the
    /// gateway side. Default 24 hours: a daily backup's worth.
    public var lookback: TimeInterval
    /// Cancel orphans at the PG (with an idempotency key per payment, audit-logged).
    public var voidOrphans: Bool
    /// Who the audit log names for the voids.
    public var actor: String

    public init(lookback: TimeInterval = 24 * 60 * 60, voidOrphans: Bool = false, actor: String = "system") {
        self.lookback = lookback
        self.voidOrphans = voidOrphans
        self.actor = actor
    }

    /// Only KeyCat's side: the orders, voids and refunds it knows of.
    public static let off = GatewayReconciliation(lookback: 0)
}

extension CheckoutService {
    /// The gateway-side pass: lists the PG's paid payments started in the last
    /// `options.lookback` (every page, before acting, so voids do not shift the pages), then for
    /// each: a payment of an order awaiting payment is settled as confirm would settle it; one
    /// KeyCat accounts for (or is voiding) is left alone; any other is an orphan — reported, and
    /// with `voidOrphans` cancelled at the PG. A listing the PG refuses or does not answer
    /// counts one `unresolved` and leaves the pass for the next run.
    func reconcileGatewaySide(_ options: GatewayReconciliation, into report: inout ReconcileReport,
                              progress: @Sendable (ReconcileProgress) -> Void) async {
        guard options.lookback > 0 else { return }
        let now = clock.now()
        let paid: [GatewayPayment]
        do throws(KeyCatError) {
            paid = try await gateway.allPayments(status: .paid, in: DateInterval(start: now.addingTimeInterval(-options.lookback), end: now))
        } catch {
            report.unresolved += 1
            return
        }
        let matcher = GatewayMatcher(orders: orders)
        for (index, payment) in paid.enumerated() {
            defer { progress(ReconcileProgress(stage: .gatewayPayments, done: index + 1, total: paid.count)) }
            guard payment.cancellableAmount > .zero else { continue }
            report.gatewayPaymentsChecked += 1
            do throws(KeyCatError) {
                switch try await matcher.match(payment) {
                case .accounted, .beingVoided:
                    continue
                case let .awaiting(order):
                    switch try await settlement.settle(order, with: payment, via: "gateway reconcile") {
                    case .paid: report.paid += 1
                    case .alreadyPaid, .notPaid: break
                    case .forged, .refused, .voided, .soldOut: report.failedOrVoided += 1
                    }
                case let .orphan(orphan):
                    report.orphans += 1
                    report.orphanAmount = Money(won: report.orphanAmount.won + orphan.amount.won)
                    report.orphanPayments.append(orphan)
                    if options.voidOrphans, await void(orphan, payment: payment, actor: options.actor) {
                        report.orphansVoided += 1
                    }
                }
            } catch {
                report.unresolved += 1
            }
        }
    }

    /// Cancels an orphan in full at the PG. One with an order is recorded `voiding` against it
    /// and voided as any payment that pays for nothing; one without is cancelled with the key
    /// `orphan-{imp_uid}` (a repeat is applied once) and written to the audit log. The payment
    /// that pays its order is never cancelled, whatever its amount says (an order's row edited by
    /// hand, a gateway's figure that moved): it is reported for an operator, since cancelling it
    /// would take back the money of an order that may have shipped.
    private func void(_ orphan: GatewayOrphan, payment: GatewayPayment, actor: String) async -> Bool {
        let detail = "orphan (\(orphan.reason.rawValue)), voided on request of \(actor) by reconciliation"
        if let orderID = orphan.orderID {
            guard let order = try? await orders.find(orderID), order.impUID != payment.impUID else { return false }
            let record = OrderPayment(impUID: payment.impUID, orderID: orderID, merchantUID: payment.merchantUID,
                                      amount: payment.amount, status: .voiding, createdAt: clock.now())
            guard (try? await orders.recordVoiding(record)) == true else { return false }
            var voiding = record
            voiding.amount = payment.cancellableAmount
            return await settlement.void(voiding, detail: detail)
        }
        do throws(KeyCatError) {
            _ = try await gateway.cancel(GatewayCancellation(
                target: .impUID(payment.impUID), amount: nil, checksum: payment.cancellableAmount,
                reason: "KeyCat: paid for an order KeyCat does not have", idempotencyKey: "orphan-\(payment.impUID)"))
        } catch where error.code == .paymentAlreadyCancelled {
            // Someone cancelled it meanwhile: the money is back with the buyer.
        } catch {
            return false
        }
        _ = try? await auditLog?.record(AuditEntry(
            actor: actor, action: "payment.void_orphan", target: "pg:\(payment.impUID)",
            detail: "cancelled \(orphan.amount) at the PG (merchant_uid \(payment.merchantUID)): no order in KeyCat",
            at: clock.now()))
        return true
    }
}
