import Foundation
import KeyCatDomain

/// A business registry as text (`keycat-admin sellers registry F.csv`): one entry per line,
/// `business number,b_stt_cd` (01 active, 02 suspended, 03 closed; anything else, empty too,
/// unregistered). Blank lines and lines starting with `#` are skipped.
public struct BusinessRegistryFile: Sendable, Hashable {
    public var entries: [BusinessRegistryEntry]

    public init(entries: [BusinessRegistryEntry]) {
        self.entries = entries
    }

    /// Reads every line, so a file is taken whole or not at all.
    ///
    /// - Throws: a validation error naming the first bad line (`line 3`): a line that is not two
    ///   comma-separated fields, or a business number that is malformed or fails its checksum.
    public static func decode(_ data: Data) throws(KeyCatError) -> BusinessRegistryFile {
        let text = String(decoding: data, as: UTF8.self)
        var entries: [BusinessRegistryEntry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            // An empty code is a field too: the tax service answers "" for unregistered numbers.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
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
        return BusinessRegistryFile(entries: entries)
    }
}
