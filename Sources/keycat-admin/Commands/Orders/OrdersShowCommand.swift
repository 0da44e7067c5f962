import KeyCat

/// `keycat-admin orders show ID`: one order with its lines.
struct OrdersShowCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Show one order with its lines.",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")])

    let id: OrderID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let order = try await keycat.orders.order(id, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order), human: OrderOutput.detail(order))
    }
}
