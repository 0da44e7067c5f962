import KeyCat

/// `keycat-admin returns`: buyers' return requests, decided by an operator for the seller, and
/// the disputes operators rule on (`list --status disputed`, then approve or reject).
struct ReturnsCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "returns", abstract: "Buyers' return requests and disputes: list, approve (refund the parcel), reject.",
        subcommands: [ReturnsListCommand.self, ReturnsApproveCommand.self, ReturnsRejectCommand.self])

    static let headers = ["ID", "SHIPMENT", "ORDER", "SELLER", "BUYER", "STATUS", "REASON"]

    static func row(_ request: ReturnRequest) -> [String] {
        ["\(request.id)", "\(request.shipmentID)", "\(request.orderID)", "\(request.sellerID)", "\(request.buyerID)",
         request.status.rawValue, request.reason]
    }

    static func json(_ request: ReturnRequest) -> JSONValue {
        .object([
            ("id", .int(request.id.rawValue)), ("shipment_id", .int(request.shipmentID.rawValue)),
            ("order_id", .int(request.orderID.rawValue)), ("seller_id", .int(request.sellerID.rawValue)),
            ("buyer_id", .int(request.buyerID.rawValue)), ("reason", .string(request.reason)), ("status", .string(request.status.rawValue)),
            ("decision", .optional(request.decision)), ("created_at", .string(OrderOutput.timestamp(request.createdAt))),
            ("decided_at", .optional(request.decidedAt.map(OrderOutput.timestamp))),
            ("dispute", .optional(request.dispute)), ("disputed_at", .optional(request.disputedAt.map(OrderOutput.timestamp))),
            ("ruling", .optional(request.ruling)), ("ruled_by", .optional(request.ruledBy)),
            ("ruled_at", .optional(request.ruledAt.map(OrderOutput.timestamp))),
        ])
    }
}

/// `keycat-admin returns list [--status requested|approved|rejected|disputed]`, newest first.
struct ReturnsListCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "List return requests, newest first.",
        options: [OptionSpec(name: "status", valueName: "S", help: "requested, approved, rejected or disputed (to rule on).")]
            + PagingOptions.options)

    let status: ReturnRequest.Status?
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        status = try arguments.choice("status", as: ReturnRequest.Status.self)
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let page = try await keycat.orders.returnRequests(status: status, limit: limit, cursor: cursor, by: context.principal)
        context.emitPage(page, headers: ReturnsCommand.headers, row: ReturnsCommand.row, json: ReturnsCommand.json)
    }
}

/// `keycat-admin returns approve ID [--restock]`: refunds the parcel's lines still held at the PG.
struct ReturnsApproveCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "approve", abstract: "Approve a return: refund the parcel's lines still held (its fee stays with the seller).",
        arguments: [ArgumentSpec(name: "ID", help: "The return request's id.")],
        flags: [FlagSpec(name: "restock", help: "The goods came back: put the units back on sale.")])

    let id: ReturnRequestID
    let restock: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ReturnRequestID(try arguments.id(at: 0, named: "ID"))
        restock = arguments.flag("restock")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForPayments()
        defer { keycat.close() }
        let order = try await keycat.orders.approveReturn(id, restock: restock, by: context.operatorPrincipal)
        context.emit(json: OrderOutput.json(order),
                     human: "Return \(id) approved; order \(order.id) is \(order.status.rawValue), \(order.refundedAmount) refunded in all.")
    }
}

/// `keycat-admin returns reject ID --reason R`: on a disputed request, the final ruling.
struct ReturnsRejectCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "reject", abstract: "Reject a return request, saying why (on a disputed one, for good).",
        arguments: [ArgumentSpec(name: "ID", help: "The return request's id.")],
        options: [OptionSpec(name: "reason", valueName: "R", help: "Why, shown to the buyer.", isRequired: true)])

    let id: ReturnRequestID
    let reason: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ReturnRequestID(try arguments.id(at: 0, named: "ID"))
        reason = try arguments.requiredString("reason")
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let request = try await keycat.orders.rejectReturn(id, reason: reason, by: context.operatorPrincipal)
        context.emit(json: ReturnsCommand.json(request), human: "Return \(request.id) rejected.")
    }
}
