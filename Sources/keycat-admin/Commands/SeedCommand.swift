import Foundation
import KeyCat

/// `keycat-admin seed [--file F] [--synthetic N] [--seed S]`: loads the demo catalog (built
/// into the binary, so it works from any directory) or a catalog file (idempotent), or N
/// generated listings for load tests.
struct SeedCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "seed", abstract: "Load the demo catalog, or generate a large synthetic one.",
        discussion: "Running it twice changes nothing. With --synthetic, N generated listings are added each run.",
        options: [
            OptionSpec(name: "file", valueName: "F", help: "A catalog file (default: the built-in demo catalog, seed/catalog.json)."),
            OptionSpec(name: "synthetic", valueName: "N", help: "Generate N listings instead of loading a file."),
            OptionSpec(name: "seed", valueName: "S", help: "The random seed for --synthetic (default 1)."),
        ])

    let file: String?
    let synthetic: Int?
    let seed: UInt64

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        file = arguments.string("file")
        synthetic = try arguments.int("synthetic", in: 1...10_000_000)
        guard let seed = UInt64(arguments.string("seed") ?? "1") else {
            throw UsageError("--seed takes a whole number", commandPath: arguments.commandPath)
        }
        self.seed = seed
        if synthetic != nil && arguments.string("file") != nil {
            throw UsageError("give --file or --synthetic, not both", commandPath: arguments.commandPath)
        }
    }

    func run(_ context: CommandContext) async throws {
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let summary: SeedSummary
        if let synthetic {
            let showProgress = context.console.isTerminal && !context.json
            summary = try await keycat.seedSynthetic(count: synthetic, seed: seed, by: context.principal) { loaded in
                if showProgress { context.console.progress("seeding: \(loaded) / \(synthetic)") }
            }
            if showProgress { context.console.endProgress() }
        } else if let file {
            let url = URL(fileURLWithPath: file)
            let catalog = try CatalogFile.decode(try FileInput.read(url))
            summary = try await keycat.importCatalog(catalog, baseDirectory: url.deletingLastPathComponent(), by: context.principal)
        } else {
            let catalog = try CatalogFile.decode(Data(CatalogFile.demoJSON.utf8))
            let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            summary = try await keycat.importCatalog(catalog, baseDirectory: here, by: context.principal)
        }
        SeedPresenter.emit(summary, context: context)
    }
}

/// How a seeding run is reported.
enum SeedPresenter {
    static func emit(_ summary: SeedSummary, context: CommandContext) {
        context.emit(
            json: .object([
                ("sellers_created", .int(summary.sellersCreated)), ("sellers_existing", .int(summary.sellersExisting)),
                ("products_created", .int(summary.productsCreated)), ("products_existing", .int(summary.productsExisting)),
            ]),
            human: "Sellers: \(summary.sellersCreated) created, \(summary.sellersExisting) already there. "
                + "Products: \(summary.productsCreated) created, \(summary.productsExisting) already there.")
    }
}
