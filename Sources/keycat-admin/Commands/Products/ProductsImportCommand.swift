import Foundation
import KeyCat

/// `keycat-admin products import F.json`: a catalog file (sellers and products, the format of
/// `seed/catalog.json`), all or nothing; products that already exist are left alone.
struct ProductsImportCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "import", abstract: "Import a catalog file (sellers and products), all or nothing.",
        arguments: [ArgumentSpec(name: "F.json", help: "A catalog in the format of seed/catalog.json.")])

    let file: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        file = arguments.positionals[0]
    }

    func run(_ context: CommandContext) async throws {
        let url = URL(fileURLWithPath: file)
        let catalog = try CatalogFile.decode(try FileInput.read(url))
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let showProgress = context.console.isTerminal && !context.json
        let summary = try await keycat.importCatalog(catalog, baseDirectory: url.deletingLastPathComponent(), by: context.principal) {
            if showProgress { context.console.progress("importing: checked \($0) / \($1) products") }
        }
        if showProgress { context.console.endProgress() }
        SeedPresenter.emit(summary, context: context)
    }
}
