import KeyCat

/// `keycat-admin products show ID`.
struct ProductsShowCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show one listing with its spec, rating and bookmarks.",
        arguments: [ArgumentSpec(name: "ID", help: "The product id.")])

    let id: ProductID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ProductID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openForReading()
        defer { keycat.close() }
        let product = try await keycat.catalog.product(id, includingUnlisted: true)
        let now = context.now(keycat)
        context.emit(json: ProductPresenter.json(product, now: now), human: ProductPresenter.details(product, now: now))
    }
}
