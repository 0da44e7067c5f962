import Foundation
import KeyCat

/// What a handler gets: the request, its path parameters (parsed by the router), the caller when
/// the route needs one, and readers for the body and the query that fail with a 400 naming the
/// field.
struct RequestContext: Sendable {
    let request: APIRequest
    let keycat: KeyCat
    let parameters: [String: String]
    /// The authenticated caller; nil only on ``RouteAccess/anyone`` routes.
    let caller: Principal?
    let route: RouteDescription
    /// The catalog reads' answers kept in memory (see ``catalogRead(_:_:)``).
    let cache: CatalogCache

    /// The time now, by KeyCat's clock.
    var now: Date { keycat.configuration.clock.now() }

    /// The authenticated caller of a signed-in route.
    func principal() throws(KeyCatError) -> Principal {
        guard let caller else { throw KeyCatError(.invalidToken, "an access token is required") }
        return caller
    }

    /// The path parameter `name` as a typed id. The router matched it as a positive integer.
    ///
    /// - Throws: `internal` when the route's path has no such parameter: a handler asking for a
    ///   name its pattern does not declare is a programming error, never an id of 0.
    func id<ID: EntityID>(_ name: String = "id", as type: ID.Type = ID.self) throws(KeyCatError) -> ID {
        guard let text = parameters[name], let value = Int64(text) else { throw undeclared(name) }
        return ID(rawValue: value)
    }

    /// A text path parameter (`{file_name}`), as the router matched it.
    ///
    /// - Throws: `internal` when the route's path has no such parameter.
    func name(_ name: String) throws(KeyCatError) -> String {
        guard let text = parameters[name] else { throw undeclared(name) }
        return text
    }

    private func undeclared(_ name: String) -> KeyCatError {
        KeyCatError(.internalError, "\(route) reads an undeclared path parameter \(name)")
    }

    /// The body decoded as `Body`; an empty body reads as `{}`.
    ///
    /// - Throws: 400 `validation` naming the field that is missing, null or of the wrong type,
    ///   or given twice in one object (``JSONMembers``), or, for a ``JSONClosedObject``,
    ///   one it does not read; `body` for JSON that does not parse.
    func json<Body: Decodable>(_ type: Body.Type = Body.self) throws(KeyCatError) -> Body {
        let bytes = request.body.isEmpty ? Array("{}".utf8) : request.body
        do {
            let body = try Self.decoder.decode(Body.self, from: Data(bytes))
            let members = JSONMembers.scan(bytes)
            if let repeated = members.repeated {
                let name = String(repeated.prefix(64))
                throw KeyCatError.validation(name, "\"\(name)\" is given twice in one object: which one was meant is not clear")
            }
            if let closed = Body.self as? any JSONClosedObject.Type, let unknown = closed.unknownMember(among: members.topLevel) {
                let name = String(unknown.prefix(64))
                throw KeyCatError.validation(name, "\"\(name)\" is not a member this change knows, so nothing was changed")
            }
            return body
        } catch let error as DecodingError {
            throw Self.explain(error, in: bytes)
        } catch let error as KeyCatError {
            throw error
        } catch {
            throw .validation("body", "the body is not valid JSON")
        }
    }

    /// The value of query parameter `name`, which the route must declare.
    func query(_ name: String) throws(KeyCatError) -> String? {
        guard route.query.contains(name) else {
            throw KeyCatError(.internalError, "\(route) reads an undeclared query parameter \(name)")
        }
        return request.queryValue(name)
    }

    /// An integer query parameter.
    func integer(_ name: String) throws(KeyCatError) -> Int64? {
        guard let text = try query(name) else { return nil }
        guard let value = Int64(text) else { throw .validation(name, "\(name) must be an integer") }
        return value
    }

    /// A boolean query parameter: `true` or `false`.
    func boolean(_ name: String) throws(KeyCatError) -> Bool? {
        switch try query(name) {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw .validation(name, "\(name) must be true or false")
        }
    }

    /// An RFC 3339 time query parameter (§5.6: `2026-11-01T00:00:00+09:00`, `…T15:00:00Z`,
    /// fractional seconds allowed): an instant, so the offset is required. A `+` sent unescaped
    /// reads as a space in a query (form encoding), so a space before the offset is taken as `+`.
    /// https://www.rfc-editor.org/rfc/rfc3339#section-5.6
    ///
    /// - Throws: 400 `validation` naming the parameter for anything else.
    func instant(_ name: String) throws(KeyCatError) -> Date? {
        guard let text = try query(name) else { return nil }
        guard let date = Self.instant(text) else {
            throw .validation(name, "\(name) must be an RFC 3339 time with its offset, e.g. 2026-11-01T00:00:00+09:00")
        }
        return date
    }

    /// `text` as an RFC 3339 date-time, or nil.
    static func instant(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        // RFC 3339 allows `t` and `z` (§5.6's NOTE); the only letters a date-time has.
        var text = text.uppercased()
        if text.utf8.count > 19, let space = text.lastIndex(of: " "), text.distance(from: text.startIndex, to: space) >= 19 {
            text.replaceSubrange(space...space, with: "+")
        }
        // This style also reads a time without fractional seconds; the plain one would drop them.
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// A query parameter that is one of `Value`'s raw values.
    func choice<Value: RawRepresentable & CaseIterable>(_ name: String, as type: Value.Type = Value.self) throws(KeyCatError) -> Value?
    where Value.RawValue == String {
        guard let text = try query(name) else { return nil }
        guard let value = Value(rawValue: text) else {
            let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw .validation(name, "\(name) must be one of \(allowed)")
        }
        return value
    }

    /// An id given in a body (`product_id`, `seller_id`…): every id KeyCat hands out is positive,
    /// so zero or less is a 400 naming `field`, not a missing thing.
    static func positiveID(_ value: Int64, field: String) throws(KeyCatError) -> Int64 {
        guard value > 0 else { throw .validation(field, "\(field) must be a positive id") }
        return value
    }

    /// `limit` (1–100, default 20).
    func limit() throws(KeyCatError) -> PageLimit {
        guard let value = try integer("limit") else { return .default }
        guard let small = Int(exactly: value) else { throw .validation("limit", "limit must be between 1 and 100") }
        return try PageLimit(small)
    }

    /// `next`: the cursor of the previous page's `next_cursor`.
    func cursor() throws(KeyCatError) -> String? { try query("next") }

    /// The `Idempotency-Key` header as sent: the use case that takes it checks it (1–255 bytes,
    /// a 400 naming `Idempotency-Key`), so the rule lives in one place.
    func idempotencyKey() -> String? { request.headers["Idempotency-Key"] }

    /// The decoding error as a 400 naming the field. Foundation reports a number that does not
    /// fit its field (`1.5` for an integer) as invalid JSON without a path; when the JSON itself
    /// parses, the first such number is found and named instead.
    static func explain(_ error: DecodingError, in bytes: [UInt8]) -> KeyCatError {
        guard case let .dataCorrupted(context) = error, context.codingPath.isEmpty,
              let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return KeyCatError(decoding: error)
        }
        let field = firstNonInteger(in: object, at: []) ?? "body"
        return .validation(field, field == "body" ? "the body has a value out of range" : "\(field) must be an integer in range")
    }

    private static func firstNonInteger(in value: Any, at path: [String]) -> String? {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = firstNonInteger(in: object[key]!, at: path + [key]) { return found }
            }
        case let array as [Any]:
            for (index, item) in array.enumerated() {
                if let found = firstNonInteger(in: item, at: path + [String(index)]) { return found }
            }
        case let number as NSNumber where !(value is Bool):
            if Int64(exactly: number.doubleValue) == nil || number.doubleValue.magnitude >= 9.2e18 {
                return path.isEmpty ? "body" : path.joined(separator: ".")
            }
        default:
            break
        }
        return nil
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// The query parameters of every list.
let pageQuery = ["next", "limit"]
