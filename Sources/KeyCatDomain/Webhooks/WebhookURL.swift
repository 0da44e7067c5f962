import Foundation

/// Where an endpoint's deliveries are POSTed, checked when the endpoint is added
/// (docs/webhooks.md "Safe by default").
///
/// The rules: `https` only, unless the host is one the operator allowed for development
/// (``KeyCat/Configuration/webhookDevelopmentHosts``), where `http` is accepted too; a host is
/// required, a DNS name (an international one is taken in punycode) or an IP address, not
/// percent-encoded; no user name or password in the URL (a receiver authenticates KeyCat by the
/// signature); a port, when given, in 1–65535; no fragment; at most ``maximumLength``
/// characters. Where the host *resolves* is checked again at every delivery, since DNS
/// answers change.
public struct WebhookURL: Sendable, Hashable, CustomStringConvertible {
    /// The longest URL accepted.
    public static let maximumLength = 2_000

    /// The URL as the operator wrote it (trimmed).
    public let rawValue: String
    /// The host, lowercased, without brackets for an IPv6 literal; an international name in
    /// punycode, as it is resolved.
    public let host: String
    /// `https` or (for a development host) `http`.
    public let scheme: String
    /// The port the delivery connects to (the scheme's default when none was written).
    public let port: Int

    /// - Parameter developmentHosts: hosts (lowercased names or address literals) that may be
    ///   reached over plain `http` and on private or loopback addresses.
    /// - Throws: `validation` on `url` for any broken rule.
    public init(_ text: String, developmentHosts: Set<String> = []) throws(KeyCatError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .validation("url", "the endpoint URL is required") }
        guard trimmed.count <= Self.maximumLength else {
            throw .validation("url", "the endpoint URL is longer than \(Self.maximumLength) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw .validation("url", "the endpoint URL contains spaces or control characters")
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw .validation("url", "«\(trimmed)» is not a URL")
        }
        // The host as DNS spells it (an international name in punycode) or an address literal,
        // never percent-encoded: the parser would decode it, and a resolver and a connection
        // could read it apart (`127.0.0.1%2F.example.com`).
        guard let rawHost = components.encodedHost, !rawHost.isEmpty else {
            throw .validation("url", "the endpoint URL has no host")
        }
        guard rawHost.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-.:[]".contains(Character($0))) })
        else {
            throw .validation("url", "the endpoint URL's host must be a DNS name or an IP address, not percent-encoded")
        }
        let host = Self.normalizedHost(rawHost)
        guard components.user == nil, components.password == nil else {
            throw .validation("url", "the endpoint URL may not carry a user name or password: receivers check the signature")
        }
        guard components.fragment == nil else { throw .validation("url", "the endpoint URL may not have a fragment (#…)") }
        let isDevelopment = developmentHosts.contains(host)
        switch scheme {
        case "https": break
        case "http" where isDevelopment: break
        case "http":
            throw .validation("url", "the endpoint URL must be https (plain http only for an allowed development host)")
        default:
            throw .validation("url", "the endpoint URL must be https, not \(scheme)")
        }
        if let port = components.port {
            guard (1...65_535).contains(port) else { throw .validation("url", "the endpoint URL's port must be 1–65535") }
            self.port = port
        } else {
            self.port = scheme == "https" ? 443 : 80
        }
        self.rawValue = trimmed
        self.host = host
        self.scheme = scheme
    }

    /// A URL read back from storage, checked when it was added.
    public init(stored text: String) {
        rawValue = text
        let components = URLComponents(string: text)
        host = Self.normalizedHost(components?.encodedHost ?? "")
        scheme = components?.scheme?.lowercased() ?? "https"
        port = components?.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { rawValue }

    /// The scheme, host and port (`https://hooks.example.com:8443`).
    public var origin: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost):\(port)"
    }

    /// The path and query to request at ``origin`` (`/` when the URL has no path).
    public var pathAndQuery: String {
        guard let components = URLComponents(string: rawValue) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }

    /// A host as compared with the development hosts: lowercased, brackets and a trailing dot
    /// removed.
    public static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host = String(host.dropLast()) }
        return host
    }
}
