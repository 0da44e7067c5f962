import Foundation
import KeyCat

/// `keycat-admin orders list [--status S] [--buyer ID] [--seller ID] [--since D] [--until D]
/// [--limit N] [--cursor C]`: newest first, every filter given holding; or
/// `orders list --seller ID --desk [--shipment S]`: a seller's desk as the seller sees it.
struct OrdersListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List orders, newest first.",
        discussion: """
            --seller lists the orders holding a parcel of that seller, whole, with any other filter.
            --since and --until are the half-open window [--since, --until) of when orders were
            placed: days in Asia/Seoul (2026-11-01) or ISO 8601 times. --desk shows the seller's
            desk instead: the paid orders holding their lines, only their lines and parcel, as the
            seller sees them.
            """,
        options: [
            OptionSpec(name: "status", valueName: "S", help: "Only orders in this status (\(OrderStatus.allCases.map(\.rawValue).joined(separator: ", ")))."),
            OptionSpec(name: "buyer", valueName: "ID", help: "Only this buyer's orders."),
            OptionSpec(name: "seller", valueName: "ID", help: "Only orders holding a parcel of this seller."),
            OptionSpec(name: "since", valueName: "D", help: "Only orders placed at or after D."),
            OptionSpec(name: "until", valueName: "D", help: "Only orders placed before D (excluded)."),
            OptionSpec(name: "shipment", valueName: "S",
                       help: "With --seller, the desk's parcels in this state (\(ShipmentStatus.allCases.map(\.rawValue).joined(separator: ", "))); implies --desk."),
            OptionSpec(name: "limit", valueName: "N", help: "Orders per page, 1–100 (default 20)."),
            OptionSpec(name: "cursor", valueName: "C", help: "The next_cursor of the previous page."),
        ],
        flags: [FlagSpec(name: "desk", help: "With --seller, the seller's desk (not with --status, --buyer, --since or --until).")])

    let filter: OrderFilter
    /// The seller whose desk to show, instead of the order list.
    let desk: UserID?
    let shipmentStatus: ShipmentStatus?
    let limit: Int
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        filter = OrderFilter(
            status: try arguments.choice("status", as: OrderStatus.self), buyerID: try arguments.id("buyer").map(UserID.init),
            sellerID: try arguments.id("seller").map(UserID.init),
            placedFrom: try arguments.date("since"), placedBefore: try arguments.date("until"))
        shipmentStatus = try arguments.choice("shipment", as: ShipmentStatus.self)
        let wantsDesk = arguments.flag("desk") || shipmentStatus != nil
        if wantsDesk {
            guard let seller = filter.sellerID else {
                throw UsageError("--desk and --shipment show a seller's desk; name the seller with --seller",
                                 commandPath: arguments.commandPath)
            }
            guard filter == OrderFilter(sellerID: seller) else {
                throw UsageError("a seller's desk does not take --status, --buyer, --since or --until (use --shipment)",
                                 commandPath: arguments.commandPath)
            }
            desk = seller
        } else {
            desk = nil
        }
        if let since = filter.placedFrom, let until = filter.placedBefore, since >= until {
            throw UsageError("--since must be before --until", commandPath: arguments.commandPath)
        }
        limit = try arguments.int("limit", in: PageLimit.range) ?? PageLimit.default.value
        cursor = arguments.string("cursor")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        if let desk {
            let page = try await keycat.orders.sellerOrders(of: desk, status: shipmentStatus, limit: try PageLimit(limit), cursor: cursor,
                                                            by: context.operatorPrincipal)
            context.emit(
                json: .object([("items", .array(page.items.map(OrderOutput.json))), ("next_cursor", .optional(page.nextCursor))]),
                human: OrderOutput.table(page.items) + (page.nextCursor.map { "next cursor: \($0)" } ?? ""))
            return
        }
        let page = try await keycat.orders.list(filter, limit: try PageLimit(limit), cursor: cursor, by: context.operatorPrincipal)
        context.emit(
            json: .object([("items", .array(page.items.map(OrderOutput.json))), ("next_cursor", .optional(page.nextCursor))]),
            human: OrderOutput.table(page.items) + (page.nextCursor.map { "next cursor: \($0)" } ?? ""))
    }
}
