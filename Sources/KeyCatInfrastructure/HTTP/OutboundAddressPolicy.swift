import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which addresses an outbound request to a URL someone else chose (a webhook endpoint) may
/// reach: public unicast only. Private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, the
/// deprecated site-local fec0::/10), loopback (127/8, ::1), link-local (169.254/16, fe80::/10),
/// unspecified (0/8, ::), multicast and reserved (224/4, 240/4, ff00::/8), special-purpose
/// (192.0.0/24, the benchmarking 198.18/15, the documentation ranges 192.0.2/24, 198.51.100/24,
/// 203.0.113/24 and 2001:db8::/32) addresses are refused. An IPv6 address that carries an IPv4
/// one — mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) — is judged by that
/// IPv4 address; the deprecated IPv4-compatible form (::/96), local NAT64 (64:ff9b:1::/48) and
/// Teredo (2001::/32), whose IPv4 a relay decides, are refused. The usual guard against
/// server-side request forgery (OWASP SSRF Prevention Cheat Sheet).
///
/// Names are resolved with `getaddrinfo` on a thread of Dispatch's, never on the caller's:
/// resolving may take seconds. A name is refused when *any* of its addresses is refused, so a
/// name that answers both a public and a private address cannot be used to reach the private one.
package enum OutboundAddressPolicy {
    /// Resolves `host` and checks every address.
    ///
    /// - Returns: the addresses, as text, when all are public; else the reason to refuse.
    ///
    /// - Parameter timeout: how long the resolver may take; past it the host is refused as not
    ///   resolving in time (`getaddrinfo` cannot be cancelled: its thread finishes on its own,
    ///   and its answer is dropped).
    package static func check(host: String, port: Int, timeout: Duration? = nil) async -> Result<[String], OutboundAddressRefusal> {
        await resolving(host, within: timeout) { checkNow(host: host, port: port) }
    }

    /// `resolve` on a thread of Dispatch's, or a refusal once `timeout` has passed, whichever
    /// comes first.
    package static func resolving(
        _ host: String, within timeout: Duration?, _ resolve: @escaping @Sendable () -> Result<[String], OutboundAddressRefusal>
    ) async -> Result<[String], OutboundAddressRefusal> {
        await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            DispatchQueue.global().async { answer.resume(resolve()) }
            // A Dispatch timer rather than a sleeping task: it needs no thread of the cooperative
            // pool, which other work may be holding when the resolver is slow, and Dispatch
            // overcommits its threads, so resolvers blocked in it do not hold the timer back.
            // After a quick answer it fires into nothing.
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout.seconds)) {
                    answer.resume(.failure(OutboundAddressRefusal("\(host) did not resolve within \(timeout)")))
                }
            }
        }
    }

    /// A continuation resumed by whichever answer comes first, the resolver's or the timeout's.
    private final class FirstAnswer: Sendable {
        private let continuation: Mutex<CheckedContinuation<Result<[String], OutboundAddressRefusal>, Never>?>

        init(_ continuation: CheckedContinuation<Result<[String], OutboundAddressRefusal>, Never>) {
            self.continuation = Mutex(continuation)
        }

        func resume(_ result: Result<[String], OutboundAddressRefusal>) {
            continuation.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }?.resume(returning: result)
        }
    }

    /// ``check(host:port:)`` on the calling thread.
    package static func checkNow(host: String, port: Int) -> Result<[String], OutboundAddressRefusal> {
        let addresses: [[UInt8]]
        switch resolve(host: host, port: port) {
        case let .success(found): addresses = found
        case let .failure(refusal): return .failure(refusal)
        }
        guard !addresses.isEmpty else { return .failure(OutboundAddressRefusal("\(host) has no address")) }
        for address in addresses {
            if let reason = refusalReason(for: address) {
                return .failure(OutboundAddressRefusal("\(host) resolves to \(text(of: address)), \(reason)"))
            }
        }
        return .success(addresses.map(text(of:)))
    }

    /// Why `address` (4 or 16 bytes) may not be reached, or nil when it may.
    package static func refusalReason(for address: [UInt8]) -> String? {
        if address.count == 16 {
            let isMapped = address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
            if isMapped { return refusalReason(for: Array(address[12..<16])) }
            if address.allSatisfy({ $0 == 0 }) { return "an unspecified address" }
            if address[0..<15].allSatisfy({ $0 == 0 }) && address[15] == 1 { return "a loopback address" }
            if address[0..<12].allSatisfy({ $0 == 0 }) { return "an IPv4-compatible address" }
            if address[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return refusalReason(for: Array(address[12..<16])) }
            if address[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return "a local NAT64 address" }
            if address[0] == 0x20, address[1] == 0x02 { return refusalReason(for: Array(address[2..<6])) }
            if address[0..<4] == [0x20, 0x01, 0x00, 0x00] { return "a Teredo address" }
            if address[0..<4] == [0x20, 0x01, 0x0D, 0xB8] { return "a documentation address" }
            if address[0] & 0xFE == 0xFC { return "a private address" }
            if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return "a link-local address" }
            if address[0] == 0xFE && address[1] & 0xC0 == 0xC0 { return "a site-local address" }
            if address[0] == 0xFF { return "a multicast address" }
            return nil
        }
        guard address.count == 4 else { return "not an IP address" }
        let (a, b, c) = (address[0], address[1], address[2])
        switch a {
        case 0: return "an unspecified address"
        case 10: return "a private address"
        case 127: return "a loopback address"
        case 100 where b & 0xC0 == 64: return "a private (shared) address"
        case 169 where b == 254: return "a link-local address"
        case 172 where b & 0xF0 == 16: return "a private address"
        case 192 where b == 168: return "a private address"
        case 192 where b == 0 && c == 0: return "a special-purpose address"
        case 198 where b & 0xFE == 18: return "a benchmarking address"
        case 192 where b == 0 && c == 2, 198 where b == 51 && c == 100, 203 where b == 0 && c == 113:
            return "a documentation address"
        case 224...239: return "a multicast address"
        case 240...255: return "a reserved address"
        default: return nil
        }
    }

    /// An address as text (`10.0.0.1`, `fe80::1`).
    package static func text(of address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        let converted = address.withUnsafeBytes { bytes in inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(buffer.count)) }
        guard converted != nil else { return address.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func resolve(host: String, port: Int) -> Result<[[UInt8]], OutboundAddressRefusal> {
        var hints = addrinfo()
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            return .failure(OutboundAddressRefusal("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    addresses.append(withUnsafeBytes(of: address) { Array($0) })
                case AF_INET6:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    addresses.append(withUnsafeBytes(of: address) { Array($0) })
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return .success(addresses)
    }
}

/// Why an outbound request was not made.
package struct OutboundAddressRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
