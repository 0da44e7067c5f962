internal import CCrypto
import Foundation

extension SHA256 {
    /// SHA-256 over data that arrives in pieces (a file read in chunks), so a large file is
    /// hashed without holding it in memory. Owns one `EVP_MD_CTX`, freed in `deinit`.
    ///
    /// Not `Sendable`: one digest is fed by one thread.
    package final class Digester {
        private let context: OpaquePointer

        package init() {
            // EVP_MD_CTX_new and EVP_DigestInit_ex with the built-in SHA-256 fail only when memory runs out.
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                preconditionFailure("\(CryptoError.fromQueue("SHA-256"))")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds `bytes` to the digest.
        package func update(_ bytes: some ContiguousBytes) {
            let ok = bytes.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            precondition(ok == 1, "\(CryptoError.fromQueue("SHA-256"))")
        }

        /// The digest of everything added. Call once.
        package func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
            var length: UInt32 = 0
            let ok = EVP_DigestFinal_ex(context, &digest, &length)
            precondition(ok == 1 && length == SHA256.byteCount, "\(CryptoError.fromQueue("SHA-256"))")
            return digest
        }
    }

    /// The SHA-256 of the file at `path`, read in 64 KiB chunks.
    ///
    /// - Throws: `CocoaError` when the file cannot be read.
    package static func hash(fileAt path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { try? handle.close() }
        let digester = Digester()
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty { digester.update(chunk) }
        return digester.finish()
    }

    /// Lower-case hexadecimal, the form checksums are written in.
    package static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
