import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// The buyer opens the payment window for `merchantUID`: as in v1, this is when a payment
    /// appears (status `ready`, a new `imp_uid`), for the amount the merchant prepared. Opening it
    /// again while that attempt is ready returns the same attempt; after a failed one it makes a
    /// new one.
    ///
    /// - Returns: the ready attempt, or nil when nothing is prepared for `merchantUID`.
    /// - Throws: ``PGSimulatorError/alreadyPaid(merchantUID:)`` when the merchant UID is paid.
    public func openWindow(merchantUID: String) throws(PGSimulatorError) -> PGPaymentRecord? {
        try windowWrite { connection throws -> PGPaymentRecord? in
            try Self.readyAttempt(merchantUID: merchantUID, amount: nil, on: connection, at: now())
        }
    }

    /// The buyer's side of the payment window: pays `merchantUID` with a card.
    ///
    /// The payment is the window's ready attempt (opening the window first when it is not open),
    /// for the amount `POST /payments/prepare` registered. When `amount` is given and differs from
    /// it, the attempt fails ("amount does not match"), as a real PG with pre-registration does.
    /// Without a prepared amount, `amount` is required and an attempt is made with it (the way to
    /// simulate a forged amount when the merchant skipped preparation).
    ///
    /// The card decides the outcome (see ``PGTestCard``); any other number is declined as
    /// invalid. Either way a webhook is queued. Only the last four digits are kept.
    ///
    /// - Returns: the payment attempt, `paid` or `failed`.
    /// - Throws: ``PGSimulatorError/alreadyPaid(merchantUID:)`` when the merchant UID is paid;
    ///   ``PGSimulatorError/invalidAmount(_:)`` without a prepared amount or a positive `amount`.
    @discardableResult
    public func pay(merchantUID: String, cardNumber: String, amount: Int64? = nil) throws(PGSimulatorError) -> PGPaymentRecord {
        let digits = cardNumber.filter(\.isNumber)
        let card = PGTestCard(number: digits)
        let at = now()
        let payment = try windowWrite { connection throws -> PGPaymentRecord in
            guard var attempt = try Self.readyAttempt(merchantUID: merchantUID, amount: amount, on: connection, at: at) else {
                throw PGSimulatorError.invalidAmount(amount ?? 0)
            }
            attempt.cardLast4 = digits.count >= 4 ? String(digits.suffix(4)) : nil
            if let amount, amount != attempt.amount {
                attempt.status = .failed
                attempt.failureReason = "the amount \(amount) does not match the prepared amount \(attempt.amount)"
            } else if let card {
                attempt.status = card.failureReason == nil ? .paid : .failed
                attempt.failureReason = card.failureReason
            } else {
                attempt.status = .failed
                attempt.failureReason = "invalid card number"
            }
            if attempt.status == .paid { attempt.paidAt = at } else { attempt.failedAt = at }
            try PGStore.update(attempt, on: connection)
            return attempt
        }
        enqueueWebhook(for: payment, cause: payment.status == .paid ? .paid : .declined)
        return payment
    }

    /// The buyer closes the window without paying: the ready attempt fails with v1's "사용자가
    /// 결제를 취소하셨습니다" and a webhook is queued (v1 notifies this too).
    ///
    /// - Returns: the failed attempt, or nil when no attempt of `merchantUID` is ready.
    @discardableResult
    public func cancelWindow(merchantUID: String) throws(PGSimulatorError) -> PGPaymentRecord? {
        let at = now()
        let failed = try windowWrite { connection throws -> PGPaymentRecord? in
            guard var attempt = try PGStore.latestPayment(merchantUID: merchantUID, on: connection), attempt.status == .ready else {
                return nil
            }
            attempt.status = .failed
            attempt.failureReason = "사용자가 결제를 취소하셨습니다"
            attempt.failedAt = at
            try PGStore.update(attempt, on: connection)
            return attempt
        }
        if let failed { enqueueWebhook(for: failed, cause: .windowCancelled) }
        return failed
    }

    /// The merchant UID's ready attempt: the latest when it is ready (brought to the prepared
    /// amount, when `PUT /payments/prepare` changed it since the window opened), else a new one
    /// for the prepared amount (or `amount` when nothing is prepared). Nil when there is neither.
    private static func readyAttempt(
        merchantUID: String, amount: Int64?, on connection: SQLiteConnection, at: Date
    ) throws -> PGPaymentRecord? {
        let latest = try PGStore.latestPayment(merchantUID: merchantUID, on: connection)
        let prepared = try PGStore.prepared(merchantUID: merchantUID, on: connection)?.amount
        switch latest?.status {
        case .ready?:
            guard var open = latest else { return nil }
            if let prepared, prepared != open.amount {
                open.amount = prepared
                try PGStore.update(open, on: connection)
            }
            return open
        case .paid?, .cancelled?: throw PGSimulatorError.alreadyPaid(merchantUID: merchantUID)
        case .failed?, nil: break
        }
        guard let attemptAmount = prepared ?? amount else { return nil }
        guard attemptAmount > 0 else { throw PGSimulatorError.invalidAmount(attemptAmount) }
        let attempt = PGPaymentRecord(
            impUID: newImpUID(), merchantUID: merchantUID, amount: attemptAmount, cancelledAmount: 0, status: .ready,
            failureReason: nil, cardLast4: nil, paidAt: nil, cancelledAt: nil, startedAt: at)
        try PGStore.insert(attempt, on: connection)
        return attempt
    }

    /// One window transaction, its errors as ``PGSimulatorError``.
    private func windowWrite<Value: Sendable>(_ body: (SQLiteConnection) throws -> Value) throws(PGSimulatorError) -> Value {
        do {
            return try store.write(body)
        } catch let error as PGSimulatorError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
