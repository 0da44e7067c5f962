import Foundation
import KeyCat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverse proxies whose `X-Forwarded-For` a server believes, and the client address that
/// follows from it: what log-in, password-change and sign-up throttling count by.
///
/// A request from a peer that is not trusted is that peer's: any `X-Forwarded-For` it sends is
/// ignored, since a client can write whatever it likes there. From a trusted peer, the hops of
/// `X-Forwarded-For` (every such header, in order) are walked from the right, each appended by
/// the proxy before it, skipping trusted ones; the right-most untrusted hop is the client. When
/// every hop is trusted, the left-most is. An entry that is not an address ends the walk at the
/// trusted hop to its right.
public struct TrustedProxies: Sendable, Hashable {
    /// One address or network, as bytes (4 for IPv4, 16 for IPv6) and a prefix length.
    struct Network: Sendable, Hashable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefix
            for (a, b) in zip(address, bytes) where remaining > 0 {
                let bits = min(remaining, 8)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                guard a & mask == b & mask else { return false }
                remaining -= bits
            }
            return true
        }
    }

    let networks: [Network]

    /// No proxy trusted: the peer is always the client.
    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// Parses a comma-separated list of addresses and CIDR networks, e.g.
    /// `"127.0.0.1, 10.0.0.0/8, ::1, fd00::/8"`.
    ///
    /// - Throws: ``KeyCatError/Code/validation`` on `trusted_proxies` naming the entry that is
    ///   not an IPv4 or IPv6 address or network.
    public init(_ list: String) throws(KeyCatError) {
        var networks: [Network] = []
        for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let halves = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.parse(String(halves[0])) else {
                throw KeyCatError.validation("trusted_proxies", "\(entry) is not an IP address or network")
            }
            let prefix = halves.count == 2 ? Int(halves[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else {
                throw KeyCatError.validation("trusted_proxies", "\(entry) has a prefix length out of range")
            }
            networks.append(Network(bytes: bytes, prefix: prefix))
        }
        self.networks = networks
    }

    /// Whether `address` (text) is one of the trusted proxies.
    public func trusts(_ address: String) -> Bool {
        guard let bytes = Self.parse(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` carrying `headers`, in canonical form
    /// (`203.0.113.7`, `2001:db8::1`); nil when the peer is unknown.
    public func clientAddress(peer: String?, headers: APIHeaders) -> String? {
        guard let peer else { return nil }
        // Trusting no one, a dotted IPv4 peer is the client as written: either `parse` refuses it
        // (and it is returned as is) or it is already canonical (inet_pton takes no leading
        // zeros). This runs for every request, most of which never ask for the address.
        if networks.isEmpty, peer.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return peer
        }
        guard let peerBytes = Self.parse(peer) else { return peer }
        var client = Self.format(peerBytes)
        guard networks.contains(where: { $0.contains(peerBytes) }) else { return client }
        let hops = headers.filter { $0.name.lowercased() == "x-forwarded-for" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed().prefix(64) {
            guard let bytes = Self.parse(hop) else { return client }
            client = Self.format(bytes)
            guard networks.contains(where: { $0.contains(bytes) }) else { return client }
        }
        return client
    }

    /// The address's bytes: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6.
    static func parse(_ text: String) -> [UInt8]? {
        var trimmed = text
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { trimmed = String(trimmed.dropFirst().dropLast()) }
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64, !trimmed.contains("%") else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, trimmed, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
        return bytes
    }

    /// The canonical text of an address's bytes.
    static func format(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
