import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// The buyer's side of the payment window: pays `merchantUID` with a card.
    ///
    /// The payment uses the attempt `POST /payments/prepare` registered for `merchantUID`. When
    /// `amount` is given and differs from the prepared amount, the attempt fails ("amount does
    /// not match"), as a real PG with pre-registration does. Without a prepared attempt, `amount`
    /// is required and a new attempt is made with it (the way to simulate a forged amount when
    /// the merchant skipped preparation).
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
        let payment: PGPaymentRecord
        do {
            payment = try store.write { connection throws -> PGPaymentRecord in
                var attempt: PGPaymentRecord
                if let latest = try PGStore.latestPayment(merchantUID: merchantUID, on: connection), latest.status == .ready {
                    attempt = latest
                } else if let latest = try PGStore.latestPayment(merchantUID: merchantUID, on: connection),
                          latest.status == .paid || latest.status == .cancelled {
                    throw PGSimulatorError.alreadyPaid(merchantUID: merchantUID)
                } else {
                    guard let amount, amount > 0 else { throw PGSimulatorError.invalidAmount(amount ?? 0) }
                    attempt = PGPaymentRecord(
                        impUID: Self.newImpUID(), merchantUID: merchantUID, amount: amount, cancelledAmount: 0,
                        status: .ready, failureReason: nil, cardLast4: nil, paidAt: nil, cancelledAt: nil,
                        startedAt: now())
                    try PGStore.insert(attempt, on: connection)
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
                if attempt.status == .paid { attempt.paidAt = at }
                try PGStore.update(attempt, on: connection)
                return attempt
            }
        } catch let error as PGSimulatorError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        enqueueWebhook(for: payment)
        return payment
    }
}
