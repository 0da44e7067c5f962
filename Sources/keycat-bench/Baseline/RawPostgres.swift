import CLibPQ
import Foundation

/// The Postgres baseline: libpq used directly, the way a careful hand-written server would —
/// one connection, each statement prepared once (`PQprepare`) and then only executed
/// (`PQexecPrepared`), parameters and results in the text format, the same columns read.
///
/// `@unchecked Sendable`: each connection is used by one task at a time (the concurrency bench
/// gives every buyer its own), never by two threads at once.
final class RawPostgres: @unchecked Sendable {
    let handle: OpaquePointer
    private var statements: [String: String] = [:]
    /// The requests sent and waited for (one a statement; preparing one counts too).
    private(set) var roundTrips = 0

    init(url: String) throws {
        guard let connection = PQconnectdb(url), PQstatus(connection) == CONNECTION_OK else {
            throw RawDatabase.Failure(description: "cannot connect to Postgres")
        }
        handle = connection
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        // As KeyCat's connections have it (``PostgresConnection``): no JIT.
        try execute("SET jit = off")
    }

    deinit { PQfinish(handle) }

    /// Runs `;`-separated statements without parameters or preparing (schema changes).
    func execute(_ sql: String) throws {
        roundTrips += 1
        _ = try Result(PQexec(handle, sql), connection: handle)
    }

    /// A parameter in the text format: an integer, text, or NULL.
    enum Parameter {
        case int(Int64)
        case text(String)
        case null
    }

    /// Runs `sql` (with `$n` parameters), prepared on first use, and returns its result; the
    /// caller clears it (``Result``'s `deinit` does).
    @discardableResult
    func run(_ sql: String, _ parameters: [Parameter] = []) throws -> Result {
        let name = try prepared(sql, count: parameters.count)
        roundTrips += 1
        let result = Self.withValues(parameters) { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try Result(result, connection: handle)
    }

    /// Runs `statements` (each prepared on first use) sent together and answered together, in
    /// libpq's pipeline mode, as KeyCat sends statements that do not wait for one another's
    /// answers: one round trip. Returns their results in order.
    func pipeline(_ statements: [(sql: String, parameters: [Parameter])]) throws -> [Result] {
        let names = try statements.map { try prepared($0.sql, count: $0.parameters.count) }
        guard PQenterPipelineMode(handle) == 1 else { throw RawDatabase.Failure(description: String(cString: PQerrorMessage(handle))) }
        var failure: String?
        for (name, statement) in zip(names, statements) {
            let sent = Self.withValues(statement.parameters) { values in
                PQsendQueryPrepared(handle, name, Int32(statement.parameters.count), values, nil, nil, 0)
            }
            guard sent == 1 else {
                failure = String(cString: PQerrorMessage(handle))
                break
            }
        }
        if PQpipelineSync(handle) != 1 { failure = failure ?? String(cString: PQerrorMessage(handle)) }
        roundTrips += 1
        // Every answer up to the sync is read, whatever failed, so that the connection leaves
        // pipeline mode ready for the next statement. A NULL ends each statement's answer; two
        // in a row mean nothing more will come (a lost connection).
        var answers: [OpaquePointer] = []
        var nulls = 0
        while nulls < 2 {
            guard let answer = PQgetResult(handle) else {
                nulls += 1
                continue
            }
            nulls = 0
            if PQresultStatus(answer) == PGRES_PIPELINE_SYNC {
                PQclear(answer)
                break
            }
            answers.append(answer)
        }
        PQexitPipelineMode(handle)
        if let failure {
            answers.forEach { PQclear($0) }
            throw RawDatabase.Failure(description: failure)
        }
        // The first failed statement's error (those after it were not run); every answer is freed.
        var results: [Result] = []
        for (index, answer) in answers.enumerated() {
            do {
                results.append(try Result(answer, connection: handle))
            } catch {
                answers[(index + 1)...].forEach { PQclear($0) }
                throw error
            }
        }
        guard results.count == statements.count else {
            throw RawDatabase.Failure(description: "\(results.count) answers to \(statements.count) statements")
        }
        return results
    }

    /// `parameters` as C strings, all in one buffer, for the length of `body`.
    private static func withValues<T>(_ parameters: [Parameter], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        var buffer: [CChar] = []
        var offsets: [Int] = []
        for parameter in parameters {
            switch parameter {
            case let .int(value):
                offsets.append(buffer.count)
                buffer += String(value).utf8CString
            case let .text(value):
                offsets.append(buffer.count)
                buffer += value.utf8CString
            case .null:
                offsets.append(-1)
            }
        }
        buffer.append(0)
        return buffer.withUnsafeBufferPointer { bytes in
            body(offsets.map { $0 < 0 ? nil : bytes.baseAddress! + $0 })
        }
    }

    private func prepared(_ sql: String, count: Int) throws -> String {
        if let name = statements[sql] { return name }
        let name = "raw_\(statements.count + 1)"
        roundTrips += 1
        _ = try Result(PQprepare(handle, name, sql, 0, nil), connection: handle)
        statements[sql] = name
        return name
    }

    /// One `PGresult`, read in place.
    final class Result {
        let handle: OpaquePointer

        init(_ raw: OpaquePointer?, connection: OpaquePointer) throws {
            guard let raw else { throw RawDatabase.Failure(description: String(cString: PQerrorMessage(connection))) }
            let status = PQresultStatus(raw)
            guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
                let message = String(cString: PQresultErrorMessage(raw))
                let state = PQresultErrorField(raw, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
                PQclear(raw)
                throw RawDatabase.Failure(description: "\(state) \(message)")
            }
            handle = raw
        }

        deinit { PQclear(handle) }

        var rows: Int32 { PQntuples(handle) }

        /// The rows an `INSERT`, `UPDATE` or `DELETE` changed.
        var changes: Int { PQcmdTuples(handle).map { Int(strtol($0, nil, 10)) } ?? 0 }

        func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) == 1 }

        func int(_ row: Int32, _ column: Int32) -> Int64 {
            guard let text = PQgetvalue(handle, row, column) else { return 0 }
            var value: Int64 = 0
            var index = 0
            let negative = text[0] == 45  // "-"
            if negative { index = 1 }
            while text[index] != 0 {
                value = value &* 10 &+ Int64(text[index] &- 48)
                index += 1
            }
            return negative ? -value : value
        }

        func text(_ row: Int32, _ column: Int32) -> String {
            guard let text = PQgetvalue(handle, row, column) else { return "" }
            return text.withMemoryRebound(to: UInt8.self, capacity: 1) {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(PQgetlength(handle, row, column))), as: UTF8.self)
            }
        }

        func optionalInt(_ row: Int32, _ column: Int32) -> Int64? { isNull(row, column) ? nil : int(row, column) }
        func optionalText(_ row: Int32, _ column: Int32) -> String? { isNull(row, column) ? nil : text(row, column) }
    }
}
