import Foundation

/// The key a client's sign-ups and log-ins are counted under: its address, except that every
/// IPv6 address in one /64 network is one client.
///
/// An IPv6 host is handed a whole /64 as a matter of course (RFC 4291 §2.5.1 fixes interface
/// identifiers at 64 bits; RFC 8981's temporary addresses rotate them), so a budget per address
/// would give one machine 2⁶⁴ of them. Counting by the /64 gives it one, as an IPv4 address does.
/// IPv4 addresses, IPv4-mapped IPv6 addresses (`::ffff:203.0.113.7`, counted as the IPv4 address)
/// and anything that is not an IP address (a server may pass its own client names) are counted
/// as given; an IPv6 address in brackets or with a zone (`%eth0`) is read without them.
public enum ThrottleClient {
    /// The throttling key for `client`: `2001:db8:1:2::/64` for any address in that /64,
    /// `203.0.113.7` for `::ffff:203.0.113.7`, and `client` itself for anything else.
    public static func key(for client: String) -> String {
        guard client.utf8.contains(UInt8(ascii: ":")), let groups = ipv6Groups(client) else { return client }
        if groups.prefix(5).allSatisfy({ $0 == 0 }), groups[5] == 0xFFFF {
            return [groups[6] >> 8, groups[6] & 0xFF, groups[7] >> 8, groups[7] & 0xFF].map { String($0) }.joined(separator: ".")
        }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in RFC 4291 §2.2's text forms, or nil.
    static func ipv6Groups(_ text: String) -> [UInt16]? {
        var address = Substring(text)
        if address.hasPrefix("["), address.hasSuffix("]") { address = address.dropFirst().dropLast() }
        if let zone = address.firstIndex(of: "%") {
            guard address.index(after: zone) < address.endIndex else { return nil }
            address = address[..<zone]
        }
        guard address.utf8.count <= 45 else { return nil }
        let halves = address.components(separatedBy: "::")
        switch halves.count {
        case 1:
            guard let groups = groups(halves[0], last: true), groups.count == 8 else { return nil }
            return groups
        case 2:
            guard let head = groups(halves[0], last: false), let tail = groups(halves[1], last: true),
                  head.count + tail.count <= 7 else { return nil }
            return head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        default:
            return nil
        }
    }

    /// The groups of one side of `::`: hexadecimal groups of one to four digits, separated by
    /// colons; the `last` side may end in a dotted IPv4 address (two groups).
    private static func groups(_ part: String, last: Bool) -> [UInt16]? {
        guard !part.isEmpty else { return [] }
        var pieces = part.split(separator: ":", omittingEmptySubsequences: false)
        var tail: [UInt16] = []
        if last, let final = pieces.last, final.contains(".") {
            guard let bytes = ipv4Bytes(final) else { return nil }
            tail = [bytes[0] << 8 | bytes[1], bytes[2] << 8 | bytes[3]]
            pieces.removeLast()
        }
        var groups: [UInt16] = []
        for piece in pieces {
            guard (1...4).contains(piece.utf8.count), piece.utf8.allSatisfy(isHexDigit),
                  let value = UInt16(piece, radix: 16) else { return nil }
            groups.append(value)
        }
        return groups + tail
    }

    /// The four bytes of a dotted-decimal IPv4 address (no leading zeros, as `inet_pton` reads it).
    private static func ipv4Bytes(_ text: Substring) -> [UInt16]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt16] = []
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  part == "0" || !part.hasPrefix("0"), let value = UInt16(part), value <= 255 else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
