import KeyCat

/// `keycat-admin shipments`: ship and deliver one seller's parcel of an order, correct its
/// tracking number, and confirm its receipt for the buyer.
struct ShipmentsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "shipments",
        abstract: "Ship and deliver one seller's parcel of an order; correct its tracking number; confirm its receipt for the buyer.",
        subcommands: [ShipmentsShipCommand.self, ShipmentsCorrectTrackingCommand.self, ShipmentsDeliverCommand.self,
                      ShipmentsConfirmReceiptCommand.self])
}

/// `keycat-admin shipments ship ID --carrier C --tracking T`.
struct ShipmentsShipCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "ship",
        abstract: "Mark a pending shipment shipped.",
        arguments: [ArgumentSpec(name: "ID", help: "The shipment's id.")],
        options: [
            OptionSpec(name: "carrier", valueName: "C", help: "A known carrier: its code (kr.cjlogistics), name or alias (CJ대한통운, cj).",
                       isRequired: true),
            OptionSpec(name: "tracking", valueName: "T", help: "The tracking number, of the carrier's format.", isRequired: true),
        ])

    let id: ShipmentID
    let carrier: String
    let tracking: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ShipmentID(try arguments.id(at: 0, named: "ID"))
        carrier = try arguments.requiredString("carrier")
        tracking = try arguments.requiredString("tracking")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let order = try await keycat.orders.ship(shipment: id, carrier: carrier, trackingNumber: tracking, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order),
                     human: "Shipment \(id) of order \(order.id) shipped; the order is \(order.status.rawValue) (\(order.fulfilment.rawValue)).")
    }
}

/// `keycat-admin shipments correct-tracking ID --carrier C --tracking T` (송장 수정): until its
/// carrier reports the parcel delivered.
struct ShipmentsCorrectTrackingCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "correct-tracking",
        abstract: "Correct a parcel's carrier and tracking number until its carrier reports it delivered.",
        arguments: ShipmentsShipCommand.configuration.arguments,
        options: ShipmentsShipCommand.configuration.options)

    let ship: ShipmentsShipCommand

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        ship = try ShipmentsShipCommand(parsing: arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let order = try await keycat.orders.correctTracking(of: ship.id, carrier: ship.carrier, trackingNumber: ship.tracking,
                                                            by: context.operatorPrincipal)
        let shipment = order.shipments.first { $0.id == ship.id }
        context.emit(json: OrderOutput.json(order),
                     human: "Shipment \(ship.id) of order \(order.id) now goes with \(shipment?.carrier ?? "-") \(shipment?.trackingNumber ?? "-")"
                        + (keycat.configuration.parcelTracker == nil ? "." : "; its carrier is asked about it at the next tracking run."))
    }
}

/// `keycat-admin shipments deliver ID`.
struct ShipmentsDeliverCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "deliver",
        abstract: "Mark a shipped shipment delivered.",
        arguments: [ArgumentSpec(name: "ID", help: "The shipment's id.")])

    let id: ShipmentID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ShipmentID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let order = try await keycat.orders.deliver(shipment: id, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order),
                     human: "Shipment \(id) of order \(order.id) delivered; the order is \(order.status.rawValue) (\(order.fulfilment.rawValue)).")
    }
}

/// `keycat-admin shipments confirm-receipt ID`: 구매확정 for the buyer (a phone call, a settled
/// dispute); the parcel's sale becomes payable and its lines reviewable.
struct ShipmentsConfirmReceiptCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "confirm-receipt",
        abstract: "Confirm a delivered parcel's receipt for its buyer (purchase confirmation).",
        arguments: [ArgumentSpec(name: "ID", help: "The shipment's id.")])

    let id: ShipmentID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ShipmentID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let order = try await keycat.orders.confirmReceipt(of: id, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order), human: "Shipment \(id) of order \(order.id): receipt confirmed.")
    }
}
