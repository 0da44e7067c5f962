internal import CLibPQ

extension PostgresConnection {
    /// Appends `count` rows to `table` with `COPY … FROM STDIN`
    /// (<https://www.postgresql.org/docs/current/sql-copy.html>): the rows stream to the server in
    /// COPY's text format, with no statement to parse or parameters to bind per row, which is how
    /// Postgres takes many rows fastest. `row` adds the `index`-th row's values, one per column,
    /// to the array it is handed (empty each time).
    ///
    /// It runs in the transaction in progress, if any, outside libpq's pipeline mode (as
    /// ``execute(_:)`` does), and counts one round trip. The rows are checked as they are
    /// written: a row with the wrong number of values, or text holding NUL, stops the copy, which
    /// the server then discards whole, and is thrown. So is the server's own refusal (a key
    /// already present, a constraint), which arrives when the copy ends: nothing of the copy is
    /// kept either way, and a transaction around it must roll back, as after any failed statement.
    package func copy(into table: String, columns: [String], count: Int, row: (Int, inout [SQLValue]) -> Void) throws(PostgresError) {
        let connection = try open()
        if pendingBegin != nil { _ = try exchange([]) }
        try leavePipelineMode(on: connection)
        countRoundTrip(statements: 1)
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        guard let started = PQexec(connection, sql) else { throw abandon(connection, statement: sql) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            // Not a copy: the statement failed (an unknown table or column), which this throws.
            _ = try PostgresResult(started, on: connection, statement: sql)
            throw .unexpectedResponse("COPY did not start", statement: sql)
        }
        PQclear(started)
        var refusal: PostgresError?
        var sent = true  // false once libpq refuses a chunk: the connection broke
        var text = CopyText()
        var values: [SQLValue] = []
        values.reserveCapacity(columns.count)
        for index in 0..<count {
            values.removeAll(keepingCapacity: true)
            row(index, &values)
            guard values.count == columns.count else {
                refusal = .unexpectedResponse("row \(index) has \(values.count) values for \(columns.count) columns", statement: sql)
                break
            }
            do { try text.append(values) } catch { refusal = error; break }
            if text.bytes.count >= CopyText.flushSize {
                sent = send(text.bytes, on: connection)
                text.bytes.removeAll(keepingCapacity: true)
                if !sent { break }
            }
        }
        if refusal == nil, sent, !text.bytes.isEmpty { sent = send(text.bytes, on: connection) }
        // A copy that stopped short ends with an error message, so the server keeps none of it.
        guard PQputCopyEnd(connection, refusal == nil && sent ? nil : "the client stopped the copy") == 1 else {
            throw abandon(connection, statement: sql)
        }
        // The copy's outcome, then the end of its results.
        var outcome: PostgresError?
        while let raw = PQgetResult(connection) {
            do { _ = try PostgresResult(raw, on: connection, statement: sql) } catch { outcome = outcome ?? error }
        }
        if let refusal { throw refusal }
        if !sent { throw abandon(connection, statement: sql) }
        if let outcome { throw outcome }
        if PQstatus(connection) != CONNECTION_OK { throw abandon(connection, statement: sql) }
    }

    /// Sends a chunk of the copy; false when libpq could not (the connection broke, reported at
    /// the copy's end).
    private func send(_ bytes: [UInt8], on connection: OpaquePointer) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) == 1 }
        }
    }
}

/// Rows in COPY's text format: values separated by tabs, rows ended by a newline, `\N` for NULL,
/// and a backslash before each backslash, tab, newline and carriage return in a text.
struct CopyText {
    var bytes: [UInt8] = []

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// How many bytes go to libpq at once.
    static let flushSize = 1 << 16

    init() { bytes.reserveCapacity(Self.flushSize + 4_096) }

    mutating func append(_ values: [SQLValue]) throws(PostgresError) {
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "\t")) }
            switch value {
            case .null:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
            case let .integer(integer):
                append(integer)
            case let .real(real):
                bytes += SQLValue.postgresText(of: real).utf8
            case let .text(text):
                try append(text)
            case let .blob(blob):
                // bytea's hex form, `\x…`, its backslash escaped.
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
                for byte in blob { bytes += [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 15)]] }
            }
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// An integer's decimal digits, without making a string of them (a bulk load copies tens
    /// of millions).
    private mutating func append(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        var magnitude = integer.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    private mutating func append(_ text: String) throws(PostgresError) {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == 0 }
        guard text.utf8.contains(where: special) else {
            bytes += text.utf8
            return
        }
        for byte in text.utf8 {
            switch byte {
            case 0: throw PostgresError.nulInText()
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: bytes.append(byte)
            }
        }
    }
}
