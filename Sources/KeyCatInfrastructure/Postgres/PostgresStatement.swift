/// One statement of an exchange: SQL with `?` markers and the values bound to them.
package struct PostgresStatement {
    package var sql: String
    package var arguments: [SQLValue]

    package init(_ sql: String, _ arguments: [SQLValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}

/// A statement's values as libpq takes them: text (NUL-terminated) or binary bytes in one buffer.
struct PostgresParameters {
    private var storage: [UInt8] = []
    private var offsets: [Int] = []
    private var lengths: [Int32] = []
    private var formats: [Int32] = []

    init(_ arguments: [SQLValue]) throws(PostgresError) {
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
    }

    /// Calls `body` with the count and the arrays `PQsendQueryPrepared` takes; libpq copies the
    /// values into its output buffer before returning.
    func withPointers<Result>(
        _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> Result
    ) -> Result {
        storage.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let values: [UnsafePointer<CChar>?] = offsets.map {
                $0 < 0 ? nil : (base + $0).assumingMemoryBound(to: CChar.self)
            }
            return body(Int32(offsets.count), values, lengths, formats)
        }
    }
}
