internal import CCrypto

/// HMAC-SHA256 (RFC 2104, with SHA-256 as in RFC 4231) over libcrypto.
package enum HMACSHA256 {
    /// The tag length in bytes.
    package static let byteCount = 32

    /// The HMAC-SHA256 tag of `message` under `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        // HMAC() wants valid pointers even for empty input: pad the buffers, pass the real counts.
        let keyCount = key.count
        let messageCount = message.count
        let paddedKey = keyCount == 0 ? [0] : key
        let paddedMessage = messageCount == 0 ? [0] : message
        let result = paddedKey.withUnsafeBufferPointer { keyBuffer in
            paddedMessage.withUnsafeBufferPointer { messageBuffer in
                tag.withUnsafeMutableBufferPointer { output in
                    HMAC(EVP_sha256(), keyBuffer.baseAddress, Int32(keyCount),
                         messageBuffer.baseAddress, messageCount, output.baseAddress, &length)
                }
            }
        }
        // HMAC() with SHA-256 fails only when memory runs out.
        precondition(result != nil && length == byteCount, "\(CryptoError.fromQueue("HMAC-SHA256"))")
        return tag
    }

    /// Whether `tag` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    package static func isValid(_ tag: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        ConstantTime.equals(tag, authenticationCode(for: message, key: key))
    }
}
