internal import CLibPQ

extension PostgresConnection {
    /// Executes `sql` as a server-side prepared statement: prepared under a generated name the
    /// first time this connection sees the text, only executed after that.
    ///
    /// Parameters go in libpq's text format (bytes in binary), results come back as text, read by
    /// ``PostgresRow``.
    func executePrepared(_ sql: String, _ arguments: [PostgresValue]) throws(PostgresError) -> PostgresResult {
        let connection = try open()
        let name = try preparedName(for: sql, on: connection)
        var storage: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for argument in arguments {
            let (bytes, isBinary) = try argument.wireFormat()
            if let bytes {
                offsets.append(storage.count)
                storage += bytes
                storage.append(0)  // text parameters are read as C strings
                lengths.append(Int32(bytes.count))
            } else {
                offsets.append(-1)
                lengths.append(0)
            }
            formats.append(isBinary ? 1 : 0)
        }
        storage.append(0)  // never empty, so the buffer has an address
        let raw = storage.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let values: [UnsafePointer<CChar>?] = offsets.map {
                $0 < 0 ? nil : (base + $0).assumingMemoryBound(to: CChar.self)
            }
            PostgresConnection.countRoundTrip()
            return PQexecPrepared(connection, name, Int32(arguments.count), values, lengths, formats, 0)
        }
        do {
            return try PostgresResult(raw, on: connection, statement: sql)
        } catch {
            // A plan cached before a schema change can no longer run ("cached plan must not
            // change result type"): forget it, so the next call prepares the statement afresh.
            if error.sqlState == "0A000" { statementNames[sql] = nil }
            throw error
        }
    }

    /// The server-side name of `sql`'s prepared statement, preparing it on first use.
    private func preparedName(for sql: String, on connection: OpaquePointer) throws(PostgresError) -> String {
        if let name = statementNames[sql] { return name }
        statementsPrepared += 1
        let name = "keycat_\(statementsPrepared)"
        let translated = PostgresPlaceholders.numbered(sql)
        PostgresConnection.countRoundTrip()
        _ = try PostgresResult(PQprepare(connection, name, translated, 0, nil), on: connection, statement: sql)
        statementNames[sql] = name
        return name
    }
}

/// One `PGresult`, owned by this object and freed in `deinit`.
final class PostgresResult {
    let handle: OpaquePointer

    /// Takes ownership of `raw`, the result of a call on `connection`, and throws when the call
    /// failed.
    init(_ raw: OpaquePointer?, on connection: OpaquePointer, statement: String) throws(PostgresError) {
        guard let raw else {
            let message = PostgresConnection.trimmed(PQerrorMessage(connection))
            if PQstatus(connection) != CONNECTION_OK {
                throw .connectionLost(message, statement: statement)
            }
            throw .unexpectedResponse(message, statement: statement)
        }
        let status = PQresultStatus(raw)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let error = Self.error(from: raw, on: connection, statement: statement)
            PQclear(raw)
            throw error
        }
        handle = raw
    }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    func row(_ index: Int) -> PostgresRow { PostgresRow(result: handle, row: Int32(index)) }

    /// The rows a command changed (`INSERT`, `UPDATE`, `DELETE`, …), or returned; 0 for others.
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The server's error fields, kept apart.
    private static func error(from result: OpaquePointer, on connection: OpaquePointer, statement: String) -> PostgresError {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let message = field("M") ?? PostgresConnection.trimmed(PQresultErrorMessage(result))
        return .server(
            sqlState: field("C"), message: message.isEmpty ? "unknown error" : message, detail: field("D"),
            hint: field("H"), constraint: field("n"), statement: statement,
            connectionIsBroken: PQstatus(connection) != CONNECTION_OK)
    }
}
