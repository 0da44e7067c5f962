import KeyCatDomain
import KeyCatInfrastructure

/// Cursors as architecture §3 has them: base64url of `version · sort key · id` followed by an
/// HMAC-SHA256 tag (truncated to 128 bits) over those bytes and the list's query (its name, sort and filters). Changing one
/// bit, or presenting the cursor to another list, sort or filter, fails the tag check.
package struct HMACPageCursorCodec: PageCursorCodec {
    private static let version: UInt8 = 1
    private static let payloadCount = 17
    private static let tagCount = 16
    private let key: HMACKey

    /// - Parameter key: a secret of at least 32 random bytes.
    package init(key: [UInt8]) {
        precondition(key.count >= 32, "a cursor key needs at least 32 bytes")
        self.key = HMACKey(key)
    }

    package func encode(_ position: CursorPosition, query: String) -> String {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(Self.payloadCount + Self.tagCount)
        Self.append(position.sortKey, to: &bytes)
        Self.append(position.id, to: &bytes)
        bytes += tag(for: bytes, query: query)
        return Base64URL.encode(bytes)
    }

    package func decode(_ cursor: String, query: String) throws(KeyCatError) -> CursorPosition {
        guard cursor.utf8.count <= 64, let bytes = Base64URL.decode(cursor),
              bytes.count == Self.payloadCount + Self.tagCount, bytes[0] == Self.version
        else { throw Self.invalid }
        let payload = Array(bytes[..<Self.payloadCount])
        guard ConstantTime.equals(Array(bytes[Self.payloadCount...]), tag(for: payload, query: query)) else {
            throw Self.invalid
        }
        return CursorPosition(sortKey: Self.int64(payload, at: 1), id: Self.int64(payload, at: 9))
    }

    private func tag(for payload: [UInt8], query: String) -> [UInt8] {
        var message = payload
        message.reserveCapacity(payload.count + query.utf8.count)
        message += query.utf8
        return Array(key.authenticationCode(for: message).prefix(Self.tagCount))
    }

    private static var invalid: KeyCatError {
        KeyCatError(.invalidCursor, "the cursor is not valid for this list; start again without one")
    }

    private static func append(_ value: Int64, to bytes: inout [UInt8]) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }

    private static func int64(_ bytes: [UInt8], at offset: Int) -> Int64 {
        var bits: UInt64 = 0
        for index in offset..<offset + 8 { bits = bits << 8 | UInt64(bytes[index]) }
        return Int64(bitPattern: bits)
    }
}
