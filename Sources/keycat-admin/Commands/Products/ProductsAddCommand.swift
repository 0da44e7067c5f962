import Foundation
import KeyCat

/// `keycat-admin products add --seller ID --file F.json [--tags a,b]`: one listing from a product
/// file (the format of `seed/product-example.json`; image paths are relative to the file).
struct ProductsAddCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "add", abstract: "List a product for a seller from a JSON file.",
        options: [
            OptionSpec(name: "seller", valueName: "ID", help: "The seller's user id.", isRequired: true),
            OptionSpec(name: "file", valueName: "F.json", help: "The product, as in seed/product-example.json.", isRequired: true),
            TagsOption.spec,
        ])

    let seller: UserID
    let file: String
    /// `--tags`, which replace the file's `tags` when given.
    let tags: [String]?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        seller = UserID(try arguments.requiredID("seller"))
        file = try arguments.requiredString("file")
        tags = TagsOption.tags(arguments)
    }

    func run(_ context: CommandContext) async throws {
        let url = URL(fileURLWithPath: file)
        let data = try FileInput.read(url)
        var productFile = try ProductFile.decode(data)
        if let tags { productFile.tags = tags }
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let product = try await keycat.addProduct(
            from: productFile, for: seller, baseDirectory: url.deletingLastPathComponent(), by: context.principal)
        context.emit(json: ProductPresenter.json(product, now: context.now(keycat)),
                     human: "Listed product \(product.id): \(product.title).")
    }
}

/// Reading input files, with I/O failures reported as such (exit 3).
enum FileInput {
    static func read(_ url: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw InputOutputError(message: "cannot read \(url.path)")
        }
        return data
    }
}
