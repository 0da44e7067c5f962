import Foundation
import KeyCat

/// `keycat-admin sellers registry F.csv`: loads the business registry that applications are
/// checked against. Each line is `business number,b_stt_cd` (01 active, 02 suspended, 03 closed;
/// anything else unregistered); blank lines and lines starting with `#` are skipped. The whole
/// file is checked first and written in one transaction.
struct SellersRegistryCommand: AdminCommand {
    static let configuration = CommandConfiguration(
        name: "registry", abstract: "Load business registry entries (number,b_stt_cd per line).",
        arguments: [ArgumentSpec(name: "F.csv", help: "Lines of 'business number,status code'.")])

    let file: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        file = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws {
        let text = String(decoding: try FileInput.read(URL(fileURLWithPath: file)), as: UTF8.self)
        var entries: [BusinessRegistryEntry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else {
                throw KeyCatError.validation("line \(index + 1)", "line \(index + 1) must be 'number,status code'")
            }
            do throws(KeyCatError) {
                entries.append(BusinessRegistryEntry(
                    number: try BusinessRegistrationNumber(fields[0]), status: BusinessStatus(taxServiceCode: fields[1])))
            } catch {
                throw KeyCatError(error.code, "line \(index + 1): \(error.message)", context: error.context)
            }
        }
        let keycat = try context.openExisting()
        defer { keycat.close() }
        let count = try keycat.loadBusinessRegistry(entries, by: context.principal)
        context.emit(json: .object([("loaded", .int(count))]), human: "Loaded \(count) registry entries.")
    }
}
