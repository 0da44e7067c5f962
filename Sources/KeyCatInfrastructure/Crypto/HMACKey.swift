internal import CCrypto

/// An HMAC-SHA256 key prepared once for many messages (RFC 2104 §4): the SHA-256 states after
/// the inner and outer padded key blocks are computed at init, so each tag costs two copies of a
/// hash state and the message's own blocks — not a fresh key schedule and provider fetch, as
/// `HMAC()` does on every call. For keys used on hot paths (cursors, webhooks, tokens).
///
/// `@unchecked Sendable`: the two prepared contexts are written only in `init` and afterwards only
/// read, by `EVP_MD_CTX_copy_ex` into a context private to each call.
package final class HMACKey: @unchecked Sendable {
    private let inner: OpaquePointer
    private let outer: OpaquePointer

    /// Prepares `key`.
    package init(_ key: [UInt8]) {
        let blockSize = 64
        var block = key.count > blockSize ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        inner = Self.context(absorbing: block.map { $0 ^ 0x36 })
        outer = Self.context(absorbing: block.map { $0 ^ 0x5C })
    }

    deinit {
        EVP_MD_CTX_free(inner)
        EVP_MD_CTX_free(outer)
    }

    /// The HMAC-SHA256 tag of `message`.
    package func authenticationCode(for message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        var ok = EVP_MD_CTX_copy_ex(context, inner) == 1
        ok = ok && message.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
        ok = ok && EVP_DigestFinal_ex(context, &digest, &length) == 1
        ok = ok && EVP_MD_CTX_copy_ex(context, outer) == 1
        ok = ok && EVP_DigestUpdate(context, digest, digest.count) == 1
        ok = ok && EVP_DigestFinal_ex(context, &digest, &length) == 1
        // These calls fail only when memory runs out.
        precondition(ok && length == SHA256.byteCount, "\(CryptoError.fromQueue("HMAC-SHA256"))")
        return digest
    }

    /// Whether `tag` is the tag of `message`, compared in constant time.
    package func isValid(_ tag: [UInt8], for message: [UInt8]) -> Bool {
        ConstantTime.equals(tag, authenticationCode(for: message))
    }

    private static func context(absorbing block: [UInt8]) -> OpaquePointer {
        let context = EVP_MD_CTX_new()
        let ok = context != nil
            && EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
            && EVP_DigestUpdate(context, block, block.count) == 1
        precondition(ok, "\(CryptoError.fromQueue("HMAC-SHA256 key"))")
        return context!
    }
}
