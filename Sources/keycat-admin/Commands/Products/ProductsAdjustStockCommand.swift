import KeyCat

/// `keycat-admin products adjust-stock ID --by ±N --reason R`: moves a listing's stock by hand
/// (a stock count, damaged goods, a delivery) as one movement in its inventory ledger, audited.
struct ProductsAdjustStockCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "adjust-stock", abstract: "Add or remove units by hand, recorded in the inventory ledger with a reason.",
        arguments: [ArgumentSpec(name: "ID", help: "The product id.")],
        options: [
            OptionSpec(name: "by", valueName: "±N", help: "Units to add (5) or remove (-5).", isRequired: true),
            OptionSpec(name: "reason", valueName: "R", help: "Why, 1–200 characters (kept in the ledger and the audit log).",
                       isRequired: true),
        ])

    let id: ProductID
    let adjustment: StockAdjustment

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ProductID(try arguments.id(at: 0, named: "ID"))
        guard let change = try arguments.int("by", in: -1_000_000...1_000_000) else {
            throw UsageError("--by is required", commandPath: arguments.commandPath)
        }
        adjustment = StockAdjustment(change: change, reason: try arguments.requiredString("reason"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let product = try await keycat.catalog.adjustStock(id, by: adjustment, by: context.principal)
        context.emit(json: ProductPresenter.json(product, now: context.now(keycat)),
                     human: "Product \(product.id) now has \(product.stock) in stock.")
    }
}
