import Foundation
import KeyCatDomain
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// Runs `body` with the idempotency store of `backend`, its rows in a fresh database.
func withIdempotencyStore(_ backend: Backend, _ body: (any IdempotencyStore) async throws -> Void) async throws {
    switch backend {
    case .inMemory: try await body(InMemoryIdempotencyStore())
    case .sqlite: try await withTestDatabase { try await body(SQLIdempotencyStore(database: $0)) }
    case .postgres: try await withPostgresTestDatabase { try await body(SQLIdempotencyStore(database: $0)) }
    }
}

@Suite("An idempotency key's lease, the same on every store")
struct IdempotencyLeaseTests {
    @Test("a key whose first request is still running says to retry; past its lease another may take it",
          arguments: Backend.allCases)
    func keyInProgress(_ backend: Backend) async throws {
        try await withIdempotencyStore(backend) { store in
            let now = Date(timeIntervalSince1970: 1_767_225_600)
            let first = try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now, retention: 86_400, lease: 120)
            #expect(first == .claimed)
            #expect(await keycatError {
                try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now.addingTimeInterval(1), retention: 86_400, lease: 120)
            }?.code == .requestInProgress)
            // A claim abandoned past its lease (its process died) may be taken again.
            let retaken = try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now.addingTimeInterval(121),
                                                retention: 86_400, lease: 120)
            #expect(retaken == .claimed)
            // The abandoned first claim can no longer release or answer for the key.
            try await store.release(scope: "s", key: "k", claimedAt: now)
            try await store.complete(scope: "s", key: "k", response: Data("first".utf8), claimedAt: now)
            #expect(await keycatError {
                try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now.addingTimeInterval(122), retention: 86_400, lease: 120)
            }?.code == .requestInProgress)
            try await store.complete(scope: "s", key: "k", response: Data("second".utf8), claimedAt: now.addingTimeInterval(121))
            let replay = try await store.claim(scope: "s", key: "k", fingerprint: "f", at: now.addingTimeInterval(123),
                                               retention: 86_400, lease: 120)
            #expect(replay == .replay(Data("second".utf8)))
        }
    }

    @Test("a released claim frees the key at once; the same key in another scope is another key", arguments: Backend.allCases)
    func releaseAndScopes(_ backend: Backend) async throws {
        try await withIdempotencyStore(backend) { store in
            let now = Date(timeIntervalSince1970: 1_767_225_600)
            #expect(try await store.claim(scope: "checkout:1", key: "k", fingerprint: "f", at: now, retention: 86_400, lease: 120) == .claimed)
            #expect(try await store.claim(scope: "checkout:2", key: "k", fingerprint: "g", at: now, retention: 86_400, lease: 120) == .claimed)
            try await store.release(scope: "checkout:1", key: "k", claimedAt: now)
            #expect(try await store.claim(scope: "checkout:1", key: "k", fingerprint: "h", at: now.addingTimeInterval(1),
                                          retention: 86_400, lease: 120) == .claimed)
            #expect(await keycatError {
                try await store.claim(scope: "checkout:2", key: "k", fingerprint: "g", at: now.addingTimeInterval(1), retention: 86_400, lease: 120)
            }?.code == .requestInProgress)
        }
    }
}
