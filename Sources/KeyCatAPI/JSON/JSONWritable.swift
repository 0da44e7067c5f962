import KeyCat

/// A response body written with ``JSONWriter`` rather than `JSONEncoder`: the same bytes (keys
/// sorted, absent optionals left out, times in ISO 8601), for the bodies that are answered most.
/// `APIResponse.json` takes this path whenever the body has it.
protocol JSONWritable: Encodable {
    /// Appends the body's JSON to `writer`, keys in sorted order, as `JSONEncoder.keycat` would.
    func write(to writer: inout JSONWriter)
}

extension JSONWriter {
    mutating func write(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// An array of bodies.
    mutating func write(_ values: [some JSONWritable]) {
        beginArray()
        for value in values { value.write(to: &self) }
        endArray()
    }
}

extension APIResponse {
    /// A JSON answer written by ``JSONWriter``: the bytes `JSONEncoder.keycat` would give.
    static func json(_ value: some JSONWritable, status: Int = 200) -> APIResponse {
        var writer = JSONWriter()
        value.write(to: &writer)
        return APIResponse(status: status, headers: ["Content-Type": "application/json"], body: writer.bytes)
    }
}

extension PageBody: JSONWritable where Item: JSONWritable {
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("items"); writer.write(items)
        // Explicitly null on the last page, as the Codable form has it.
        writer.key("next_cursor"); writer.write(nextCursor)
        writer.endObject()
    }
}
