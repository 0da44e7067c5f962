import KeyCatDomain
import KeyCatInfrastructure

/// Reads an enum stored as its raw text (`'group_buy'`, `'hot_swap'`…) by comparing packed
/// words of SQLite's bytes with each case's, so decoding a row makes no `String` per code and
/// no string comparison: a few integer compares per column.
struct TextCodes<Value: RawRepresentable & CaseIterable & Sendable>: Sendable where Value.RawValue == String {
    private let codes: [SQLiteTextCode]
    private let values: [Value]
    private let column: String

    init(_ type: Value.Type, column: String) {
        values = Array(Value.allCases)
        // Codes longer than 16 bytes would need a byte compare; KeyCat's are all shorter.
        precondition(values.allSatisfy { $0.rawValue.utf8.count <= 16 }, "\(column) codes must be at most 16 bytes")
        codes = values.map { SQLiteTextCode($0.rawValue) }
        self.column = column
    }

    /// The value in `index`.
    ///
    /// - Throws: an internal error for text no case has (a database written by something else).
    func decode(_ row: some SQLRow, _ index: Int) throws -> Value {
        let code = row.textCode(index)
        for position in codes.indices {
            let candidate = codes[position]
            if candidate.count == code.count && candidate.low == code.low && candidate.high == code.high {
                return values[position]
            }
        }
        throw KeyCatError(.internalError, "unknown \(column) «\(row.string(index))» in the database")
    }

    /// The value in `index`, or nil for `NULL`.
    func decodeOptional(_ row: some SQLRow, _ index: Int) throws -> Value? {
        row.isNull(index) ? nil : try decode(row, index)
    }
}
