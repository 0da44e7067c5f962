import Foundation

/// One HTTP request as plain values: what a server framework hands ``KeyCatAPI/respond(to:)``.
public struct APIRequest: Sendable {
    /// The method, e.g. ``APIMethod/get``.
    public var method: APIMethod
    /// The path without the query, e.g. `/products/7`, as sent (every route segment is plain ASCII).
    public var path: String
    /// The query parameters in order, already percent-decoded.
    public var query: [(name: String, value: String)]
    /// The header fields; names compare case-insensitively.
    public var headers: APIHeaders
    /// The names of the query parameters whose percent-encoding is not UTF-8 (`%ED%A0%80`, a
    /// lone surrogate; a `%` not followed by two hex digits): their values are kept as sent, and
    /// ``KeyCatAPI/admit(_:)`` refuses them, naming each, rather than search for the escapes.
    public var undecodableQuery: [String]
    /// The body bytes (empty when there is none).
    public var body: [UInt8]
    /// The peer's address, as the server saw it: the key log-in throttling counts attempts by.
    public var clientAddress: String?

    public init(method: APIMethod, path: String, query: [(name: String, value: String)] = [], headers: APIHeaders = [:],
                body: [UInt8] = [], clientAddress: String? = nil, undecodableQuery: [String] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.undecodableQuery = undecodableQuery
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// A request from a target such as `/products?sort=newest&limit=5`: the path and the query
    /// are split and percent-decoded (`+` in the query is a space).
    public init(method: APIMethod, target: String, headers: APIHeaders = [:], body: [UInt8] = [], clientAddress: String? = nil) {
        let questionMark = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        let path = String(target[..<(questionMark ?? target.endIndex)])
        var query: [(name: String, value: String)] = []
        var undecodable: [String] = []
        if let questionMark {
            // Split as bytes: `&` and `=` are ASCII, and bytes skip grapheme breaking.
            for pair in target.utf8[target.utf8.index(after: questionMark)...].split(separator: UInt8(ascii: "&")) {
                let halves = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                let (name, nameDecoded) = Self.decode(Substring(halves[0]))
                let (value, valueDecoded) = halves.count == 2 ? Self.decode(Substring(halves[1])) : ("", true)
                if !nameDecoded || !valueDecoded { undecodable.append(name) }
                query.append((name, value))
            }
        }
        self.init(method: method, path: path, query: query, headers: headers, body: body, clientAddress: clientAddress,
                  undecodableQuery: undecodable)
    }

    /// A query name or value percent-decoded, `+` read as a space, and whether it decoded: a
    /// text whose escapes are not UTF-8 comes back as sent, with false. Most have neither `%`
    /// nor `+`, and are only copied.
    private static func decode(_ text: Substring) -> (text: String, decoded: Bool) {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return (String(text), true) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding else { return (spaced, false) }
        return (decoded, true)
    }

    /// The first value of query parameter `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
