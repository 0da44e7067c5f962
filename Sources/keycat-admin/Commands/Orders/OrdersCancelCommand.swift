import Foundation
import KeyCat

/// `keycat-admin orders cancel ID --reason R [--shipments 7,9]`: what has not left its seller.
/// The whole order while every parcel is pending (a paid one is refunded in full, its units go
/// back to stock), or the named pending parcels (each refunded with its lines and fee, charged to
/// its seller). A parcel that left is `already_shipped`: refund it instead.
struct OrdersCancelCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "cancel",
        abstract: "Cancel an order, or some of its parcels, before they ship (a paid one is refunded).",
        arguments: [ArgumentSpec(name: "ID", help: "The order's id.")],
        options: [
            OptionSpec(name: "reason", valueName: "R", help: "Why, for the audit log.", isRequired: true),
            OptionSpec(name: "shipments", valueName: "IDS", help: "Only these pending parcels, by shipment id, comma-separated."),
        ])

    let id: OrderID
    let reason: String
    let shipments: [ShipmentID]?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = OrderID(try arguments.id(at: 0, named: "ID"))
        reason = try arguments.requiredString("reason")
        if let list = arguments.string("shipments") {
            var ids: [ShipmentID] = []
            for part in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = Int64(part.trimmingCharacters(in: .whitespaces)), value > 0 else {
                    throw UsageError("--shipments takes shipment ids separated by commas, got '\(list)'", commandPath: arguments.commandPath)
                }
                ids.append(ShipmentID(value))
            }
            shipments = ids
        } else {
            shipments = nil
        }
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let (id, reason, shipments, principal) = (id, reason, shipments, context.operatorPrincipal)
        let order = try await keycat.orders.cancel(id, reason: reason, shipments: shipments, by: principal)
        context.emit(json: OrderOutput.json(order), human: "Order \(id) is \(order.status.rawValue) (\(order.fulfilment.rawValue)).")
    }
}
