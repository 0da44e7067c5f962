import Foundation
import KeyCat
internal import KeyCatInfrastructure
import Synchronization

/// The catalog's read answers (`GET /products`, `GET /products/{id}`) kept in memory, each filed
/// under the catalog version read *before* the rows were (``KeyCat/catalogVersion()``), so an
/// answer is served again only while nothing has committed since: a write returns after its
/// commit, and the next read sees a new version and reads the rows anew. An answer built from a
/// running discount also expires when the first such discount ends, since the selling price
/// changes then without a write.
///
/// Requests that miss the same answer at the same version at once share one read of the store
/// (``sharedRead(for:version:_:)``): after a write, a crowd of readers costs the store one read
/// per answer, not one per reader.
///
/// Concurrency in one sentence: the table and the reads under way live behind `Mutex`es, held
/// only to look up or file an answer or a read, never while the store is read.
final class CatalogCache: Sendable {
    struct Entry: Sendable {
        let version: Int64
        /// When the answer stops being true without a write (a discount's end); nil: never.
        let expiresAt: Date?
        let response: APIResponse
    }

    private struct Table {
        var version: Int64?
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    /// At most this many body bytes are kept; past it, the table starts over.
    let byteBudget: Int
    private let table = Mutex(Table())
    /// The reads under way, by version and key.
    private let reads = Mutex<[String: Task<APIResponse, any Error>]>([:])
    /// How many reads ``sharedRead(for:version:_:)`` started, and how many requests waited for
    /// one another had started (for tests).
    private let readsStarted = Atomic<Int>(0)
    private let readsJoined = Atomic<Int>(0)

    init(byteBudget: Int = 32 << 20) {
        self.byteBudget = byteBudget
    }

    /// The answer kept for `key` at `version`, if it is still true at `now`.
    func answer(for key: String, version: Int64, now: Date) -> APIResponse? {
        table.withLock { table -> APIResponse? in
            guard table.version == version, let entry = table.entries[key] else { return nil }
            if let expiresAt = entry.expiresAt, now >= expiresAt { return nil }
            return entry.response
        }
    }

    /// Files `response` for `key`, read at `version`. Answers of an older version are dropped
    /// when a newer one is filed; a full table starts over.
    func store(_ response: APIResponse, for key: String, version: Int64, expiresAt: Date?) {
        table.withLock { table in
            if table.version != version {
                // Versions only grow; an answer read under an older one than the table's is
                // already stale and is not kept.
                if let current = table.version, version < current { return }
                table = Table(version: version)
            }
            if table.bytes + response.body.count > byteBudget { table = Table(version: version) }
            guard response.body.count <= byteBudget else { return }
            table.bytes += response.body.count - (table.entries[key]?.response.body.count ?? 0)
            table.entries[key] = Entry(version: version, expiresAt: expiresAt, response: response)
        }
    }

    /// The answer for `key` at `version`, from `read` — run once however many requests ask at
    /// once: the first starts it, in a task of its own, and the others that miss the same key at
    /// the same version meanwhile wait for it. That is as fresh as a kept answer would be: `read`
    /// starts after `version` was read. The task is nobody's child, so a client that goes away does
    /// not cancel the read the others wait for (its request still waits for that short read). A
    /// 200 answer is kept.
    func sharedRead(
        for key: String, version: Int64,
        _ read: @escaping @Sendable () async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?)
    ) async throws(KeyCatError) -> APIResponse {
        let name = "\(version) \(key)"
        let task = reads.withLock { reads in
            if let running = reads[name] {
                readsJoined.add(1, ordering: .relaxed)
                return running
            }
            readsStarted.add(1, ordering: .relaxed)
            let task = Task { () async throws -> APIResponse in
                defer { self.reads.withLock { $0[name] = nil } }
                let answer = try await read()
                if answer.response.status == 200 {
                    self.store(answer.response, for: key, version: version, expiresAt: answer.expiresAt)
                }
                return answer.response
            }
            reads[name] = task
            return task
        }
        do {
            return try await task.value
        } catch let error as KeyCatError {
            throw error
        } catch {
            throw KeyCatError(.internalError, "a shared catalog read failed: \(error)")
        }
    }

    /// How many answers are kept (for tests).
    var count: Int { table.withLock { $0.entries.count } }

    /// How many store reads ``sharedRead(for:version:_:)`` started, and how many requests
    /// joined one already under way (for tests).
    var sharedReads: (started: Int, joined: Int) {
        (readsStarted.load(ordering: .relaxed), readsJoined.load(ordering: .relaxed))
    }
}

extension APIResponse {
    /// A strong entity tag for these body bytes (RFC 9110 §8.8.3): the first 16 bytes of their
    /// SHA-256, base64url, quoted. Equal bytes, equal tag, on every server.
    static func entityTag(of body: [UInt8]) -> String {
        "\"" + Base64URL.encode(SHA256.hash(body).prefix(16)) + "\""
    }

    /// Whether an `If-None-Match` header value names `tag`: `*`, or a comma-separated list of
    /// tags compared weakly (a `W/` prefix ignored), as RFC 9110 §13.1.2 says for GET.
    static func ifNoneMatch(_ header: String?, matches tag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var text = candidate.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("W/") { text.removeFirst(2) }
            return text == tag
        }
    }

    /// 304 Not Modified for a 200 answer with an `ETag`: the validator and caching headers, no
    /// body (RFC 9110 §15.4.5).
    func notModified() -> APIResponse {
        var headers = HTTPHeaders()
        for name in ["ETag", "Cache-Control"] {
            if let value = self.headers[name] { headers[name] = value }
        }
        return APIResponse(status: 304, headers: headers)
    }
}
