import Foundation

/// An HTTP method of a ``TransportRequest``: only the ones a payment gateway speaks.
public enum TransportMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

/// An HTTP request as a plain value: what a transport sends and what an in-process handler gets.
///
/// `path` is relative to the transport's base URL and may carry a query (`/payments/find/x?a=b`).
/// Header names are matched case-insensitively by ``header(_:)``.
public struct TransportRequest: Sendable, Hashable {
    public var method: TransportMethod
    public var path: String
    public var headers: [String: String]
    public var body: Data

    public init(method: TransportMethod, path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, whatever its case.
    public func header(_ name: String) -> String? { headers.value(forCaseInsensitiveKey: name) }

    /// The path without its query string.
    public var pathWithoutQuery: String {
        path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
    }

    /// The query's parameters, percent-decoded, `+` read as a space (the last wins when a name
    /// repeats). Any query reads, however malformed.
    public var queryParameters: [String: String] {
        guard let start = path.firstIndex(of: "?") else { return [:] }
        return FormEncoding.dictionary(path[path.index(after: start)...])
    }
}

/// An HTTP response as a plain value.
public struct TransportResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, whatever its case.
    public func header(_ name: String) -> String? { headers.value(forCaseInsensitiveKey: name) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

extension Dictionary where Key == String, Value == String {
    func value(forCaseInsensitiveKey name: String) -> String? {
        if let exact = self[name] { return exact }
        let lowered = name.lowercased()
        return first { $0.key.lowercased() == lowered }?.value
    }
}
