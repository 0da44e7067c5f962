import KeyCat

/// `keycat-admin products update ID [--price N] [--stock N] [--tags a,b] …`: changes only the fields given. A
/// new `--stock` is an adjustment of the difference in the inventory ledger, under the operator's
/// name (see `products adjust-stock`).
struct ProductsUpdateCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "update", abstract: "Change a listing's fields; others stay as they are.",
        arguments: [ArgumentSpec(name: "ID", help: "The product id.")],
        options: [
            OptionSpec(name: "title", valueName: "T", help: "A new title, 1–100 characters."),
            OptionSpec(name: "price", valueName: "N", help: "The selling price, in won."),
            OptionSpec(name: "regular-price", valueName: "N", help: "The regular price, in won."),
            OptionSpec(name: "coupon-price", valueName: "N", help: "The coupon amount, in won."),
            OptionSpec(name: "stock", valueName: "N", help: "Units in stock: recorded in the inventory ledger as an adjustment of the difference."),
            OptionSpec(name: "delivery-fee", valueName: "N", help: "The delivery fee, in won: at most 50,000 (the default bound)."),
            TagsOption.spec,
            OptionSpec(name: "version", valueName: "V", help: "Fail unless the listing is still at this version."),
        ])

    let id: ProductID
    let changes: ProductChanges

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ProductID(try arguments.id(at: 0, named: "ID"))
        var changes = ProductChanges(expectedVersion: try arguments.int("version"))
        changes.title = arguments.string("title")
        changes.price = try arguments.int64("price").map { Money(won: $0) }
        changes.regularPrice = try arguments.int64("regular-price").map { Money(won: $0) }
        changes.couponPrice = try arguments.int64("coupon-price").map { Money(won: $0) }
        changes.stock = try arguments.int("stock")
        changes.deliveryFee = try arguments.int64("delivery-fee").map { Money(won: $0) }
        changes.tags = TagsOption.tags(arguments)
        guard !changes.isEmpty else {
            throw UsageError("nothing to change: give at least one field option", commandPath: arguments.commandPath)
        }
        self.changes = changes
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let product = try await keycat.catalog.update(id, changes, by: context.principal)
        context.emit(json: ProductPresenter.json(product, now: context.now(keycat)),
                     human: "Updated product \(product.id) (now version \(product.version)).")
    }
}
