import CSQLite

/// The baseline: SQLite's C API used directly, the way a careful hand-written server would —
/// the same pragmas as KeyCat, each statement prepared once and reused, the same columns read.
final class RawDatabase {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String, synchronous: String = "FULL") throws {
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let connection else { throw Failure(description: "cannot open \(path)") }
        handle = connection
        sqlite3_busy_timeout(connection, 5_000)
        try execute("""
            PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous); PRAGMA foreign_keys = ON;
            PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY;
            """)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// The cached statement for `sql`, reset and ready to bind.
    func statement(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            return cached
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else { throw Failure(description: String(cString: sqlite3_errmsg(handle))) }
        statements[sql] = statement
        return statement
    }

    func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    func optionalText(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(statement, column)
    }

    func optionalInt(_ statement: OpaquePointer, _ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }

    func bindText(_ statement: OpaquePointer, _ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                _ = keycat_sqlite3_bind_text_transient(statement, index, $0.baseAddress, Int32($0.count))
            }
        }
    }

    func step(_ statement: OpaquePointer) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw Failure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }
}
