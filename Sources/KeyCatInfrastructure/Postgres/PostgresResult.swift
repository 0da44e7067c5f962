internal import CLibPQ

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
