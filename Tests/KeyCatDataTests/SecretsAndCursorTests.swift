import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

@Suite("Secrets and cursors")
struct SecretsAndCursorTests {
    /// Runs `body` on a migrated database of `backend` (SQLite or Postgres).
    func withStored(_ backend: Backend, _ body: (any SecretsInStore) async throws -> Void) async throws {
        switch backend {
        case .inMemory: Issue.record("the secrets live in a database")
        case .sqlite: try await withTestDatabase { try await body(SecretsIn(database: $0)) }
        case .postgres: try await withPostgresTestDatabase { try await body(SecretsIn(database: $0)) }
        }
    }

    @Test("secrets are created once, 32 random bytes each, and read back on the next open", arguments: Backend.stored)
    func createdOnce(_ backend: Backend) async throws {
        try await withStored(backend) { database in
            let first = try await database.loadOrCreate(nil, nil)
            let second = try await database.loadOrCreate(nil, nil)
            #expect(first.tokenSigningKey.count == 32 && first.cursorKey.count == 32)
            #expect(first.tokenSigningKey != first.cursorKey)
            #expect(first.tokenSigningKey == second.tokenSigningKey)
            #expect(first.cursorKey == second.cursorKey)
        }
    }

    @Test("keys the server passes win over stored ones; short ones are refused", arguments: Backend.stored)
    func provided(_ backend: Backend) async throws {
        try await withStored(backend) { database in
            let key = [UInt8](repeating: 7, count: 48)
            let secrets = try await database.loadOrCreate(key, nil)
            #expect(secrets.tokenSigningKey == key)
            #expect(secrets.cursorKey.count == 32)
            let short = await keycatError { try await database.loadOrCreate(nil, [UInt8](repeating: 1, count: 31)) }
            #expect(short?.context["field"] == "cursor_key")
        }
    }

    @Test("secrets never show in descriptions or dumps")
    func redacted() async throws {
        try await withTestDatabase { database in
            let secrets = try await KeyCatSecrets.loadOrCreate(database)
            var dumped = ""
            dump(secrets, to: &dumped)
            for text in [secrets.description, String(reflecting: secrets), "\(secrets)", dumped] {
                #expect(!text.contains(String(secrets.tokenSigningKey[0])) || text.contains("redacted"))
                #expect(!text.contains(Base64URL.encode(secrets.tokenSigningKey)))
                #expect(!text.contains("\(secrets.tokenSigningKey)"))
            }
        }
    }

    @Test("a cursor round-trips its position and is refused when tampered with or reused elsewhere")
    func cursors() throws {
        let codec = HMACPageCursorCodec(key: [UInt8](repeating: 9, count: 32))
        let position = CursorPosition(sortKey: 129_000, id: 77)
        let cursor = codec.encode(position, query: "products:price-asc")
        #expect(try codec.decode(cursor, query: "products:price-asc") == position)
        #expect(keycatError { try codec.decode(cursor, query: "products:price-desc") }?.code == .invalidCursor)
        var bytes = try #require(Base64URL.decode(cursor) as [UInt8]?)
        bytes[3] ^= 1
        #expect(keycatError { try codec.decode(Base64URL.encode(bytes), query: "products:price-asc") }?.code == .invalidCursor)
        let otherKey = HMACPageCursorCodec(key: [UInt8](repeating: 8, count: 32))
        #expect(keycatError { try otherKey.decode(cursor, query: "products:price-asc") }?.code == .invalidCursor)
        for junk in ["", "abc", String(repeating: "A", count: 2_000), "!!!"] {
            #expect(keycatError { try codec.decode(junk, query: "products:price-asc") }?.code == .invalidCursor)
        }
    }

    @Test("refresh tokens are stored only as their SHA-256 digest", arguments: Backend.stored)
    func digestsOnly(_ backend: Backend) async throws {
        try await withAccounts(backend) { harness in
            _ = try await harness.signUp()
            let pair = try await harness.accounts.logIn(email: "kim@example.com", password: "keycat2026")
            let raw = try #require(Base64URL.decode(pair.refreshToken))
            let stored = try await harness.query("SELECT digest FROM refresh_tokens") { $0.bytes(0) }
            #expect(stored == [SHA256.hash(raw)])
            let hashes = try await harness.query("SELECT password_hash FROM users") { $0.string(0) }
            #expect(hashes?.count == 1 && hashes?.first?.contains("keycat2026") == false)
        }
    }
}

/// ``KeyCatSecrets/loadOrCreate(_:tokenSigningKey:cursorKey:)`` on one store, its type hidden.
protocol SecretsInStore {
    func loadOrCreate(_ tokenSigningKey: [UInt8]?, _ cursorKey: [UInt8]?) async throws -> KeyCatSecrets
}

struct SecretsIn<Database: SQLDatabase>: SecretsInStore {
    let database: Database

    func loadOrCreate(_ tokenSigningKey: [UInt8]?, _ cursorKey: [UInt8]?) async throws -> KeyCatSecrets {
        try await KeyCatSecrets.loadOrCreate(database, tokenSigningKey: tokenSigningKey, cursorKey: cursorKey)
    }
}
