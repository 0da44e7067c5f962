import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Reads an enum stored as its raw text (`'group_buy'`, `'hot_swap'`…) by comparing SQLite's
/// bytes with each case's, so decoding a row makes no `String` per code: on a 20-row page that is
/// two hundred allocations saved.
struct TextCodes<Value: RawRepresentable & CaseIterable & Sendable>: Sendable where Value.RawValue == String {
    private let cases: [([UInt8], Value)]
    private let column: String

    init(_ type: Value.Type, column: String) {
        cases = Value.allCases.map { (Array($0.rawValue.utf8), $0) }
        self.column = column
    }

    /// The value in `index`.
    ///
    /// - Throws: an internal error for text no case has (a database written by something else).
    func decode(_ row: SQLiteRow, _ index: Int) throws -> Value {
        let found = row.withUTF8(index) { bytes -> Value? in
            guard let start = bytes.baseAddress else { return nil }
            for (code, value) in cases where code.count == bytes.count {
                if code.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, bytes.count) }) == 0 { return value }
            }
            return nil
        }
        guard let found else {
            throw KeyCatError(.internalError, "unknown \(column) «\(row.string(index))» in the database")
        }
        return found
    }

    /// The value in `index`, or nil for `NULL`.
    func decodeOptional(_ row: SQLiteRow, _ index: Int) throws -> Value? {
        row.isNull(index) ? nil : try decode(row, index)
    }
}
