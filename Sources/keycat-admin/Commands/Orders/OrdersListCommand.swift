import KeyCat

/// `keycat-admin orders list [--status S] [--buyer ID] [--limit N] [--cursor C]`: newest first.
struct OrdersListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List orders, newest first.",
        options: [
            OptionSpec(name: "status", valueName: "S", help: "Only orders in this status (\(OrderStatus.allCases.map(\.rawValue).joined(separator: ", ")))."),
            OptionSpec(name: "buyer", valueName: "ID", help: "Only this buyer's orders."),
            OptionSpec(name: "seller", valueName: "ID",
                       help: "This seller's desk instead: the paid orders holding their lines, as they see them (not with --status or --buyer)."),
            OptionSpec(name: "shipment", valueName: "S",
                       help: "With --seller, only parcels in this state (\(ShipmentStatus.allCases.map(\.rawValue).joined(separator: ", ")))."),
            OptionSpec(name: "limit", valueName: "N", help: "Orders per page, 1–100 (default 20)."),
            OptionSpec(name: "cursor", valueName: "C", help: "The next_cursor of the previous page."),
        ])

    let filter: OrderFilter
    let seller: UserID?
    let shipmentStatus: ShipmentStatus?
    let limit: Int
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        let buyer = try arguments.int64("buyer").map(UserID.init)
        filter = OrderFilter(status: try arguments.choice("status", as: OrderStatus.self), buyerID: buyer)
        seller = try arguments.int64("seller").map(UserID.init)
        shipmentStatus = try arguments.choice("shipment", as: ShipmentStatus.self)
        if seller != nil, filter.status != nil || buyer != nil {
            throw UsageError("--seller lists a seller's desk; it does not take --status or --buyer (use --shipment)",
                             commandPath: arguments.commandPath)
        }
        if seller == nil, shipmentStatus != nil {
            throw UsageError("--shipment filters a seller's desk; name the seller with --seller", commandPath: arguments.commandPath)
        }
        limit = try arguments.int("limit", in: PageLimit.range) ?? PageLimit.default.value
        cursor = arguments.string("cursor")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        if let seller {
            let desk = try await keycat.orders.sellerOrders(of: seller, status: shipmentStatus, limit: try PageLimit(limit), cursor: cursor,
                                                            by: context.operatorPrincipal)
            context.emit(
                json: .object([("items", .array(desk.items.map(OrderOutput.json))), ("next_cursor", .optional(desk.nextCursor))]),
                human: OrderOutput.table(desk.items) + (desk.nextCursor.map { "next cursor: \($0)" } ?? ""))
            return
        }
        let page = try await keycat.orders.list(filter, limit: try PageLimit(limit), cursor: cursor, by: context.operatorPrincipal)
        context.emit(
            json: .object([("items", .array(page.items.map(OrderOutput.json))), ("next_cursor", .optional(page.nextCursor))]),
            human: OrderOutput.table(page.items) + (page.nextCursor.map { "next cursor: \($0)" } ?? ""))
    }
}
