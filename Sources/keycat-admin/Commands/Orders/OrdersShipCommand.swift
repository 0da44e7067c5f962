import KeyCat

/// `keycat-admin orders ship ID --carrier C --tracking T`: a paid order leaves the warehouse.
struct OrdersShipCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "ship",
        abstract: "Mark a paid order shipped.",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")],
        options: [
            OptionSpec(name: "carrier", valueName: "C", help: "The carrier, e.g. CJ대한통운.", isRequired: true),
            OptionSpec(name: "tracking", valueName: "T", help: "The tracking number.", isRequired: true),
        ])

    let id: OrderID
    let carrier: String
    let tracking: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
        carrier = try arguments.requiredString("carrier")
        tracking = try arguments.requiredString("tracking")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let order = try await keycat.orders.ship(id, carrier: carrier, trackingNumber: tracking, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order), human: "Order \(id) shipped with \(carrier) (\(tracking)).")
    }
}
