/// An HTTP request method, compared by its upper-case name (RFC 9110 §9: methods are
/// case-sensitive, and every standard one is upper case; a server framework that hands over
/// `get` meant `GET`).
///
/// A struct rather than an enum: a request may carry any method (`PROPFIND`, `BREW`), which the
/// API must still name in its 405 answer. The routes use the constants.
public struct APIMethod: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name in upper case, e.g. `GET`.
    public let rawValue: String

    /// The method named `name`, in upper case.
    public init(_ name: String) {
        // Methods come in upper case: they are copied, not case-mapped, then.
        rawValue = name.utf8.allSatisfy { UInt8(ascii: "A")...UInt8(ascii: "Z") ~= $0 } ? name : name.uppercased()
    }

    public init(stringLiteral name: String) { self.init(name) }

    public var description: String { rawValue }

    public static let get = APIMethod("GET")
    public static let head = APIMethod("HEAD")
    public static let post = APIMethod("POST")
    public static let put = APIMethod("PUT")
    public static let patch = APIMethod("PATCH")
    public static let delete = APIMethod("DELETE")
    public static let options = APIMethod("OPTIONS")
}
