import KeyCat

/// `keycat-admin products delete ID`: a soft delete; orders keep their snapshot.
struct ProductsDeleteCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "delete", abstract: "Delete a listing (it leaves every list; orders keep their copy).",
        arguments: [ArgumentSpec(name: "ID", help: "The product id.")])

    let id: ProductID

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = ProductID(try arguments.id(at: 0, named: "ID"))
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        try await keycat.catalog.delete(id, by: context.principal)
        context.emit(json: .object([("id", .int(id.rawValue)), ("deleted", .bool(true))]),
                     human: "Deleted product \(id).")
    }
}
