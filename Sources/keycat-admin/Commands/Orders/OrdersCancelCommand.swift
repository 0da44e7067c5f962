import KeyCat

/// `keycat-admin orders cancel ID --reason R`: before shipping only; a paid order is refunded in
/// full at the PG and its units go back to stock.
struct OrdersCancelCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "cancel",
        abstract: "Cancel an order before it ships (a paid one is refunded in full).",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")],
        options: [OptionSpec(name: "reason", valueName: "R", help: "Why, for the audit log.", isRequired: true)])

    let id: OrderID
    let reason: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
        reason = try arguments.requiredString("reason")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let (id, reason, principal) = (id, reason, context.operatorPrincipal)
        let order = try await keycat.orders.cancel(id, reason: reason, by: principal)
        context.emit(json: OrderOutput.json(order), human: "Order \(id) is \(order.status.rawValue).")
    }
}
