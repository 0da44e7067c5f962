import Foundation
import KeyCat

/// `keycat-admin sellers registry F.csv`: loads the business registry that applications are
/// checked against. Each line is `business number,b_stt_cd` (01 active, 02 suspended, 03 closed;
/// anything else unregistered), optionally followed by `,representative name,opening date`,
/// which applications must then match; blank lines and lines starting with `#` are skipped
/// (``BusinessRegistryFile``). The whole file is checked first and written in one transaction.
struct SellersRegistryCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "registry", abstract: "Load business registry entries (number,b_stt_cd[,name,opening date] per line).",
        arguments: [ArgumentSpec(name: "F.csv", help: "Lines of 'business number,status code[,representative name,opening date]'.")])

    let file: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        file = arguments.positionals[0]
    }

    func run(_ context: CommandContext) async throws {
        let entries = try BusinessRegistryFile.decode(try FileInput.read(URL(fileURLWithPath: file))).entries
        let keycat = try await context.openExisting()
        defer { keycat.close() }
        let count = try await keycat.loadBusinessRegistry(entries, by: context.principal)
        context.emit(json: .object([("loaded", .int(count))]), human: "Loaded \(count) registry entries.")
    }
}
