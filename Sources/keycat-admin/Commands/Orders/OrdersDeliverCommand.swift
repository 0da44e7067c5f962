import KeyCat

/// `keycat-admin orders deliver ID`: a shipped order arrived.
struct OrdersDeliverCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "deliver",
        abstract: "Mark a shipped order delivered.",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")])

    let id: OrderID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let order = try await keycat.orders.deliver(id, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order), human: "Order \(id) delivered.")
    }
}
