/// The payment gateway (PG), seen from the domain: register what an order must cost, read
/// what the buyer actually paid, and cancel (refund).
///
/// Every failure is a ``KeyCatError`` with a gateway code (architecture §5): e.g. `paymentNotFound`,
/// `alreadyPaid`, `cancellableAmountInconsistent`, `rateLimited`, `gatewayUnavailable`, and
/// `gatewayTimeout`, which means *the outcome is unknown*: the gateway may have acted, so re-read
/// the payment (or leave it to reconciliation) before trying anything else.
public protocol PaymentGateway: Sendable {
    /// Pre-registers the amount the buyer must pay for `merchantUID`, so the gateway refuses a
    /// payment of any other amount. Repeating it with the same amount is harmless.
    func prepare(merchantUID: String, amount: Money) async throws(KeyCatError)

    /// The payment the gateway knows by `impUID`.
    func payment(impUID: String) async throws(KeyCatError) -> GatewayPayment

    /// The latest payment attempt for `merchantUID`.
    func payment(merchantUID: String) async throws(KeyCatError) -> GatewayPayment

    /// One page of the gateway's payments by status and start time, newest first: how
    /// reconciliation finds payments KeyCat holds no order for (a restored backup, a lost write).
    func payments(_ query: GatewayPaymentQuery) async throws(KeyCatError) -> GatewayPaymentPage

    /// Cancels all or part of a payment and returns it as it stands afterwards.
    ///
    /// An error whose context holds ``GatewayCancellation/mayHaveActedContext`` says an earlier send of this cancel
    /// may have been applied (its answer was lost), so the refusal that ended the call says
    /// nothing of whether the money moved.
    func cancel(_ cancellation: GatewayCancellation) async throws(KeyCatError) -> GatewayPayment

    /// Whether the gateway takes real money: then a payment it made in test mode
    /// (``GatewayPayment/isTestPayment``) pays for no order. False for simulators and sandboxes,
    /// which make nothing but test payments.
    var takesRealMoney: Bool { get }
}

extension PaymentGateway {
    /// A gateway takes no real money unless it says so.
    public var takesRealMoney: Bool { false }
}

extension GatewayPayment {
    /// Why this payment cannot pay for an order at `gateway`, or nil when it can: it must be in
    /// KRW, and at a gateway that takes real money it must not be a test payment. The amount is
    /// checked apart (a forged amount).
    public func refusal(at gateway: any PaymentGateway) -> String? {
        if currency != Money.currency { return "paid in \(currency.isEmpty ? "an unnamed currency" : currency), not \(Money.currency)" }
        if isTestPayment && gateway.takesRealMoney { return "a test (sandbox) payment cannot pay for an order at a live gateway" }
        return nil
    }
}

extension GatewayCancellation {
    /// The context key (value `"true"`) of a gateway error that ended a call after an earlier
    /// send of the same call may have acted: its outcome is unknown.
    public static let mayHaveActedContext = "gateway_may_have_acted"
}
