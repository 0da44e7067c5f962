import Foundation
import KeyCat
import KeyCatInfrastructure

/// `keycat-admin orders refund ID [--amount N] --reason R [--restock] [--idempotency-key K]`: all
/// (default) or part of what was paid, refunded at the PG with the cancellable balance as checksum.
///
/// Every run sends an idempotency key — by default one derived from the order, amount, restock
/// and reason — so running the same command again after a failure (disk full, the PG's answer
/// lost) settles the first refund instead of refunding twice, whether or not reconciliation has
/// completed it meanwhile. To refund the same amount for the same reason a second time on
/// purpose, give another `--idempotency-key`.
struct OrdersRefundCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "refund",
        abstract: "Refund all or part of a paid order at the PG.",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")],
        options: [
            OptionSpec(name: "amount", valueName: "N", help: "Won to refund (default: the whole refundable balance)."),
            OptionSpec(name: "reason", valueName: "R", help: "Why, for the PG and the audit log.", isRequired: true),
            OptionSpec(name: "idempotency-key", valueName: "K",
                       help: "Makes a repeat settle the first refund (default: derived from ID, amount, restock, reason)."),
        ],
        flags: [FlagSpec(name: "restock", help: "Give the units back to stock (full refunds only).")])

    let id: OrderID
    let amount: Int64?
    let reason: String
    let restock: Bool
    let idempotencyKey: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
        amount = try arguments.int64("amount")
        if let amount, amount <= 0 {
            throw UsageError("--amount must be a positive number of won, got \(amount)", commandPath: arguments.commandPath)
        }
        reason = try arguments.requiredString("reason")
        restock = arguments.flag("restock")
        if let key = arguments.string("idempotency-key") {
            guard (1...255).contains(key.count) else {
                throw UsageError("--idempotency-key has 1–255 characters", commandPath: arguments.commandPath)
            }
            idempotencyKey = key
        } else {
            idempotencyKey = Self.derivedKey(id: id, amount: amount, restock: restock, reason: reason)
        }
    }

    /// `cli-refund-` and 32 hex digits of SHA-256 over what the command asks for: the same
    /// command gives the same key.
    static func derivedKey(id: OrderID, amount: Int64?, restock: Bool, reason: String) -> String {
        let request = "\(id)|\(amount.map(String.init) ?? "all")|\(restock)|\(reason)"
        return "cli-refund-" + SHA256.hash(request).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let request = RefundRequest(amount: amount.map { Money(won: $0) }, reason: reason, restock: restock,
                                    idempotencyKey: idempotencyKey)
        let (id, principal) = (id, context.operatorPrincipal)
        let replayed = try await keycat.orders.refunds(of: id, by: principal)
            .contains { $0.requestKey == idempotencyKey && $0.status == .done }
        let order: Order
        do {
            order = try await keycat.orders.refund(id, request, by: principal)
        } catch {
            guard error.context["outcome"] != nil else { throw error }
            throw KeyCatError(error.code, error.message
                + ". Run this command again with the same key, or 'keycat-admin payments reconcile' once two minutes have passed "
                + "(it leaves a refund that young to the request that began it), then 'keycat-admin orders show \(id)'",
                context: error.context)
        }
        let note = replayed ? " (already refunded by an earlier run of this command; nothing was refunded again)" : ""
        context.emit(json: OrderOutput.json(order),
                     human: "Order \(id) is \(order.status.rawValue); refunded \(order.refundedAmount) of \(order.amount).\(note)")
    }
}
