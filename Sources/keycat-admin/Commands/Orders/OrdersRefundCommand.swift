import KeyCat

/// `keycat-admin orders refund ID [--amount N] --reason R [--restock]`: all (default) or part of
/// what was paid, refunded at the PG with the cancellable balance as checksum.
struct OrdersRefundCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "refund",
        abstract: "Refund all or part of a paid order at the PG.",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")],
        options: [
            OptionSpec(name: "amount", valueName: "N", help: "Won to refund (default: the whole refundable balance)."),
            OptionSpec(name: "reason", valueName: "R", help: "Why, for the PG and the audit log.", isRequired: true),
        ],
        flags: [FlagSpec(name: "restock", help: "Give the units back to stock (full refunds only).")])

    let id: OrderID
    let amount: Int64?
    let reason: String
    let restock: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
        amount = try arguments.int64("amount")
        if let amount, amount <= 0 {
            throw UsageError("--amount must be a positive number of won, got \(amount)", commandPath: arguments.commandPath)
        }
        reason = try arguments.requiredString("reason")
        restock = arguments.flag("restock")
    }

    func run(_ context: CommandContext) throws {
        let keycat = try context.openForPayments()
        defer { keycat.close() }
        let request = RefundRequest(amount: amount.map { Money(won: $0) }, reason: reason, restock: restock)
        let (id, principal) = (id, context.operatorPrincipal)
        let order = try waitFor { try await keycat.orders.refund(id, request, by: principal) }
        context.emit(json: OrderOutput.json(order),
                     human: "Order \(id) is \(order.status.rawValue); refunded \(order.refundedAmount) of \(order.amount).")
    }
}
