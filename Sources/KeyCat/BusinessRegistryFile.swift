import Foundation
import KeyCatDomain

/// A business registry as text (`keycat-admin sellers registry F.csv`): one entry per line,
/// `business number,b_stt_cd` (01 active, 02 suspended, 03 closed; anything else, empty too,
/// unregistered), optionally followed by `,representative name,opening date` (`YYYY-MM-DD` or
/// the tax service's `YYYYMMDD`; either may be empty), which applications must then match.
/// Blank lines and lines starting with `#` are skipped.
public struct BusinessRegistryFile: Sendable, Hashable {
    public var entries: [BusinessRegistryEntry]

    public init(entries: [BusinessRegistryEntry]) {
        self.entries = entries
    }

    /// Reads every line, so a file is taken whole or not at all.
    ///
    /// - Throws: a validation error naming the first bad line (`line 3`): a line that is not two
    ///   or four comma-separated fields, a business number that is malformed or fails its
    ///   checksum, a name over 50 characters or a date that is not one.
    public static func decode(_ data: Data) throws(KeyCatError) -> BusinessRegistryFile {
        let text = String(decoding: data, as: UTF8.self)
        var entries: [BusinessRegistryEntry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            // An empty code is a field too: the tax service answers "" for unregistered numbers.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 || fields.count == 4 else {
                throw KeyCatError.validation(
                    "line \(index + 1)", "line \(index + 1) must be 'number,status code[,representative name,opening date]'")
            }
            do throws(KeyCatError) {
                let name = fields.count == 4 && !fields[2].isEmpty
                    ? try TextRules.text(fields[2], SellerService.representativeNameField) : nil
                let date = fields.count == 4 && !fields[3].isEmpty ? try Self.date(fields[3]) : nil
                entries.append(BusinessRegistryEntry(
                    number: try BusinessRegistrationNumber(fields[0]), status: BusinessStatus(taxServiceCode: fields[1]),
                    representativeName: name, openingDate: date))
            } catch {
                throw KeyCatError(error.code, "line \(index + 1): \(error.message)", context: error.context)
            }
        }
        return BusinessRegistryFile(entries: entries)
    }

    /// `YYYY-MM-DD`, or `YYYYMMDD` as the tax service writes `start_dt`.
    private static func date(_ text: String) throws(KeyCatError) -> CalendarDate {
        guard text.count == 8, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) else {
            return try CalendarDate(iso8601: text, field: "opening_date")
        }
        return try CalendarDate(year: number / 10_000, month: number / 100 % 100, day: number % 100, field: "opening_date")
    }
}
