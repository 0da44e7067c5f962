import KeyCatDomain
import KeyCatInfrastructure

/// Cursors as DESIGN §3 asks: base64url of (version, id, query fingerprint, sort key) followed
/// by a 16-byte HMAC-SHA256 tag under the cursor key. A changed byte, or a cursor carried to a
/// list with other filters or sort, fails the tag or the fingerprint and is `invalidCursor`.
package struct HMACPageCursorCodec: PageCursorCodec {
    static let version: UInt8 = 1
    static let tagByteCount = 16
    static let fingerprintByteCount = 8

    private let key: [UInt8]

    package init(key: [UInt8]) { self.key = key }

    package func encode(_ position: CursorPosition, query: String) -> String {
        var payload: [UInt8] = [Self.version]
        payload += withUnsafeBytes(of: position.id.bigEndian) { Array($0) }
        payload += Self.fingerprint(query)
        payload += Array(position.sortKey.utf8)
        return Base64URL.encode(payload + tag(payload))
    }

    package func decode(_ cursor: String, query: String) throws(KeyCatError) -> CursorPosition {
        let invalid = KeyCatError(.invalidCursor, "the cursor is not valid for this list")
        let headerCount = 1 + 8 + Self.fingerprintByteCount
        guard cursor.utf8.count <= 1024, let bytes = Base64URL.decode(cursor),
              bytes.count >= headerCount + Self.tagByteCount else { throw invalid }
        let payload = Array(bytes.dropLast(Self.tagByteCount))
        guard ConstantTime.equals(Array(bytes.suffix(Self.tagByteCount)), tag(payload)),
              payload[0] == Self.version,
              Array(payload[9..<headerCount]) == Self.fingerprint(query)
        else { throw invalid }
        let id = payload[1..<9].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard let sortKey = String(validating: payload[headerCount...], as: UTF8.self) else { throw invalid }
        return CursorPosition(sortKey: sortKey, id: id)
    }

    private func tag(_ payload: [UInt8]) -> [UInt8] {
        Array(HMACSHA256.authenticationCode(for: payload, key: key).prefix(Self.tagByteCount))
    }

    private static func fingerprint(_ query: String) -> [UInt8] {
        Array(SHA256.hash(query).prefix(fingerprintByteCount))
    }
}
