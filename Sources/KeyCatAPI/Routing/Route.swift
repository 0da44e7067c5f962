import Foundation
import KeyCat

/// Who may call a route.
public enum RouteAccess: Sendable, Hashable {
    /// Anyone, without a token.
    case anyone
    /// Any signed-in user (`Authorization: Bearer <access token>`).
    case signedIn
    /// Only these roles; others get 403 `forbidden`.
    case roles(Set<Role>)

    /// Operators only.
    static let admin = RouteAccess.roles([.admin])
}

/// What a route takes as its body.
public enum RouteBody: Sendable, Hashable {
    /// Nothing (a body sent anyway is ignored).
    case none
    /// `application/json` of at most `limit` bytes; an empty body reads as `{}`.
    case json(limit: Int)
    /// Raw bytes of any content type, at most `limit` bytes (the PG's webhooks).
    case raw(limit: Int)
    /// One image's bytes as `image/jpeg`, `image/png`, `image/webp` or `image/gif`, at most
    /// `limit` bytes.
    case image(limit: Int)

    /// The media types an ``image(limit:)`` body may have.
    public static let imageTypes = ["image/gif", "image/jpeg", "image/png", "image/webp"]

    /// The JSON limit of most routes: 1 MiB.
    public static let jsonDefault = RouteBody.json(limit: 1 << 20)

    /// The largest body the route accepts, in bytes.
    public var limit: Int {
        switch self {
        case .none: 0
        case let .json(limit), let .raw(limit), let .image(limit): limit
        }
    }
}

/// One entry of the route table: method, path pattern, who may call it, what it takes, and the
/// handler that decodes, calls one use case and encodes.
struct Route: Sendable {
    typealias Handler = @Sendable (RequestContext) async throws -> APIResponse

    let method: APIMethod
    let path: RoutePath
    let access: RouteAccess
    let body: RouteBody
    /// The query parameters the handler reads; any other in a request is a 400
    /// (``KeyCatAPI/checkQuery(of:for:)``), and the contract test compares them with openapi.yaml.
    let query: [String]
    /// The status of a successful answer.
    let status: Int
    /// Whether the whole handler runs with the store's threads preferred
    /// (``KeyCat/onStorageThreads(_:)``).
    /// The catalog reads say no: most of their answers come from memory, and they go to the
    /// storage threads only to read rows (``RequestContext/catalogRead(_:_:)``), sparing the
    /// cached answers two thread hops.
    let waitsOnStorage: Bool
    let handler: Handler

    init(_ method: APIMethod, _ path: String, _ access: RouteAccess, body: RouteBody = .none, query: [String] = [],
         status: Int = 200, waitsOnStorage: Bool = true, _ handler: @escaping Handler) {
        self.waitsOnStorage = waitsOnStorage
        self.method = method
        self.path = RoutePath(path)
        self.access = access
        self.body = body
        self.query = query
        self.status = status
        self.handler = handler
        description = RouteDescription(method: method, path: path, access: access, body: body, query: query, status: status)
    }

    /// What the route is, without its handler.
    let description: RouteDescription
}

/// A route as data: what ``KeyCatAPI/routes`` lists and openapi.yaml must agree with.
public struct RouteDescription: Sendable, Hashable, CustomStringConvertible {
    public let method: APIMethod
    /// The pattern with parameters in braces, e.g. `/products/{id}`.
    public let path: String
    public let access: RouteAccess
    public let body: RouteBody
    public let query: [String]
    public let status: Int

    public var description: String { "\(method) \(path)" }
}

/// A path pattern such as `/products/{id}/reviews`. A `{name}` segment matches a positive
/// decimal integer (every id KeyCat hands out), so `/products/abc` is an unknown path (404); a
/// `{…_name}` segment (`{file_name}`) matches a name of letters, digits, `.`, `-` and `_`.
struct RoutePath: Sendable, Hashable {
    enum Segment: Sendable, Hashable {
        case literal(String)
        case id(String)
        case name(String)
    }

    let pattern: String
    let segments: [Segment]

    init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/").map { part in
            guard part.hasPrefix("{"), part.hasSuffix("}") else { return .literal(String(part)) }
            let name = String(part.dropFirst().dropLast())
            return name.hasSuffix("_name") ? .name(name) : .id(name)
        }
    }

    /// The parameters when `path`'s segments match, else nil. Segments compare byte for byte:
    /// the literals first, where most routes of a request's length already fail, then the
    /// parameters.
    func match(_ parts: [Substring]) -> [String: String]? {
        guard parts.count == segments.count else { return nil }
        for (segment, part) in zip(segments, parts) {
            if case let .literal(text) = segment, part.utf8.count != text.utf8.count || !part.utf8.elementsEqual(text.utf8) {
                return nil
            }
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal:
                continue
            case let .id(name):
                // Digits without a leading zero: `/products/0007` is not a second name of `/products/7`.
                guard part.utf8.count <= 19, part.utf8.first != UInt8(ascii: "0"), part.utf8.allSatisfy(Self.isDigit),
                      let value = Int64(part), value > 0 else { return nil }
                parameters[name] = String(value)
            case let .name(name):
                guard part.utf8.count <= 200, part.utf8.allSatisfy(Self.isNameByte) else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// An ASCII letter or digit, `.`, `-` or `_`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
