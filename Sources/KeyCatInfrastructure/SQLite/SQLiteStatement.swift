internal import CSQLite

/// One prepared statement (`sqlite3_stmt`), owned by this object and finalized in `deinit`.
///
/// Statements are prepared once per connection and reused: see ``SQLiteConnection``'s cache.
@usableFromInline
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let connection: OpaquePointer
    /// Set while a caller is stepping through rows, so a re-entrant use of the same SQL gets a
    /// statement of its own instead of resetting this one under its feet.
    var isInUse = false
    /// The bytes of the text arguments bound now, which SQLite reads in place
    /// (``bind(_:)``); empty until a statement binds text.
    private var texts = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// Prepares `sql` on `connection` (<https://sqlite.org/c3ref/prepare.html>).
    ///
    /// - Parameter persistent: hint that the statement is cached and reused for a long time.
    init(sql: String, connection: OpaquePointer, persistent: Bool) throws(SQLiteError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sql.withCString { sqlite3_prepare_v3(connection, $0, -1, flags, &statement, nil) }
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code, connection: connection, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
        texts.deallocate()
    }

    /// The most bytes of text a statement keeps room for. Its arguments' text is copied into
    /// that room and bound where it lies, rather than each value copied by SQLite into memory of
    /// its own and freed again at the reset: a bulk load binds 68 million terms. A statement
    /// whose text needs more room lets SQLite copy it, so no cached statement holds more.
    static let textRoom = 1 << 16

    /// Binds `values` to parameters 1…n. The statement must be reset: the room its text was
    /// bound from before is reused.
    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        // A statement mid-step reads its text where it was bound: the room must not change under it.
        precondition(sqlite3_stmt_busy(handle) == 0, "binding a statement that is running")
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "expected \(expected) arguments, got \(values.count)", sql: sql)
        }
        var textBytes = 0, textCount = 0
        for case .text(let text) in values {
            textBytes += text.utf8.count
            textCount += 1
        }
        let inPlace = textCount > 0 && textBytes <= Self.textRoom
        if inPlace && (texts.baseAddress == nil || textBytes > texts.count) {
            texts.deallocate()
            texts = .allocate(byteCount: max(textBytes, 256), alignment: 1)
        }
        var used = 0
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            if inPlace, case .text(var text) = value {
                let code = text.withUTF8 { utf8 in
                    // Never a nil pointer, which would bind NULL: the room has at least 256 bytes.
                    let start = texts.baseAddress! + used
                    if let bytes = utf8.baseAddress { start.copyMemory(from: bytes, byteCount: utf8.count) }
                    used += utf8.count
                    let bound = start.bindMemory(to: CChar.self, capacity: utf8.count)
                    return keycat_sqlite3_bind_text_static(handle, index, bound, Int32(utf8.count))
                }
                guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
            } else {
                try bind(value, at: index)
            }
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(var text):
            code = text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) {
                    keycat_sqlite3_bind_text_transient(handle, index, $0.baseAddress, Int32($0.count))
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes {
                // A nil pointer would bind NULL; an empty blob must stay an empty blob.
                keycat_sqlite3_bind_blob_transient(
                    handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count))
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection, sql: sql) }
    }

    /// Advances to the next row: `true` when a row is ready, `false` when the statement is done.
    @usableFromInline
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(code: code, connection: connection, sql: sql)
        }
    }

    /// Resets the statement and clears its bindings so it can be run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The current row.
    @usableFromInline
    var row: SQLiteRow { SQLiteRow(statement: handle) }
}
