import CCrypto
import Foundation
import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// Access-token verification and password hashing, against the same primitives called directly.
struct CryptoScenarios {
    let keycat: KeyCat
    let tokenKey: [UInt8]
    let operations: Int

    func run() async throws -> [Comparison] {
        let admin = Principal.operatorConsole("bench")
        let email = "bench-\(UUID().uuidString.prefix(8))@example.com"
        _ = try await keycat.accounts.createUser(SignUpForm(email: email, password: "keycat2026", nick: "벤치"), role: .buyer, by: admin)
        let token = try await keycat.accounts.logIn(email: email, password: "keycat2026").accessToken
        var rows = await [try compare("token verification", operations: operations,
            library: { _ in _ = try await keycat.accounts.authenticate(accessToken: token) },
            baseline: { _ in _ = try Self.rawVerify(token, key: tokenKey) })]

        let hasher = PBKDF2PasswordHasher(iterations: 600_000)
        rows.append(try await compare("password hash (600k)", operations: 7, warmup: 1,
            library: { _ in _ = try await hasher.hash("keycat2026") },
            baseline: { _ in
                var key = [UInt8](repeating: 0, count: 32)
                let salt = try SecureRandom.bytes(count: 16)
                let password = Array("keycat2026".utf8).map { CChar(bitPattern: $0) }
                _ = PKCS5_PBKDF2_HMAC(password, Int32(password.count), salt, Int32(salt.count), 600_000, EVP_sha256(), 32, &key)
            }))
        return rows
    }

    /// HS256 verification the short way: split, recompute the tag, compare, read the claims.
    static func rawVerify(_ token: String, key: [UInt8]) throws -> (String, Double) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]), let payload = Base64URL.decode(parts[1]),
              HMACSHA256.isValid(signature, for: Array("\(parts[0]).\(parts[1])".utf8), key: key),
              let claims = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              let subject = claims["sub"] as? String, let expiry = claims["exp"] as? Double,
              expiry > Date().timeIntervalSince1970
        else { throw RawDatabase.Failure(description: "token refused") }
        return (subject, expiry)
    }
}
