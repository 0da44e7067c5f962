import Foundation
import KeyCat

/// `keycat-admin products stock-history ID [--limit N] [--cursor C]`: a listing's inventory
/// ledger, oldest first, with the running stock; the last balance is the stock today.
struct ProductsStockHistoryCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "stock-history", abstract: "Show a listing's inventory ledger: every stock movement, oldest first.",
        arguments: [ArgumentSpec(name: "ID", help: "The product id.")],
        options: PagingOptions.options)

    let id: ProductID
    let limit: PageLimit
    let cursor: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ProductID(try arguments.id(at: 0, named: "ID"))
        (limit, cursor) = try PagingOptions.parse(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let page = try await keycat.catalog.stockHistory(id, limit: limit, cursor: cursor, by: context.principal)
        context.emitPage(
            page, headers: ["ID", "WHEN", "KIND", "CHANGE", "ORDER", "BY", "REASON"],
            row: { movement in
                [String(movement.id), OrderOutput.timestamp(movement.createdAt), movement.kind.rawValue,
                 movement.change > 0 ? "+\(movement.change)" : String(movement.change),
                 movement.orderID.map { String($0.rawValue) } ?? "", movement.actor, movement.reason]
            },
            json: { movement in
                .object([
                    ("id", .int(movement.id)), ("product_id", .int(movement.productID.rawValue)),
                    ("kind", .string(movement.kind.rawValue)), ("change", .int(movement.change)),
                    ("order_id", movement.orderID.map { .int($0.rawValue) } ?? .null), ("actor", .string(movement.actor)),
                    ("reason", .string(movement.reason)), ("created_at", .string(OrderOutput.timestamp(movement.createdAt))),
                ])
            })
    }
}
