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
/// Strangers cannot fill it: an answer is filed under the request as its route parsed it
/// (``CatalogReadKey``), so spellings of one request share an entry and undeclared parameters
/// never get this far; the table holds at most ``entryLimit`` answers whose keys, headers and
/// bodies take at most ``byteBudget`` bytes, and makes room by dropping the answers read least
/// recently (``LRUTable``). A crowd of new requests pushes out cold answers, never the memory
/// past its bounds.
///
/// Requests that miss the same answer at the same version at once share one read of the store
/// (``sharedRead(for:version:_:)``): after a write, a crowd of readers costs the store one read
/// per answer, not one per reader.
///
/// Concurrency in one sentence: the table and the reads under way live behind `Mutex`es, held
/// only to look up or file an answer or a read, never while the store is read.
final class CatalogCache: Sendable {
    struct Entry: Sendable {
        /// When the answer stops being true without a write (a discount's end); nil: never.
        let expiresAt: Date?
        let response: APIResponse
    }

    private struct Table {
        var version: Int64?
        var entries: LRUTable<CatalogReadKey, Entry>
    }

    /// A read under way: the answer for a key at a version.
    private struct ReadName: Hashable {
        let version: Int64
        let key: CatalogReadKey
    }

    /// The keys, headers and bodies of the answers kept take at most this many bytes.
    let byteBudget: Int
    /// At most this many answers are kept.
    let entryLimit: Int
    private let table: Mutex<Table>
    /// The reads under way, by version and key.
    private let reads = Mutex<[ReadName: Task<APIResponse, any Error>]>([:])
    /// How many reads ``sharedRead(for:version:_:)`` started, and how many requests waited for
    /// one another had started (for tests).
    private let readsStarted = Atomic<Int>(0)
    private let readsJoined = Atomic<Int>(0)

    /// - Parameters:
    ///   - byteBudget: the most bytes the keys, headers and bodies kept may take (32 MiB).
    ///   - entryLimit: the most answers kept (10,000: a whole catalog's detail pages and its
    ///     busiest lists, while the few hundred bytes each entry costs beyond what is counted
    ///     stay a few megabytes).
    init(byteBudget: Int = 32 << 20, entryLimit: Int = 10_000) {
        self.byteBudget = byteBudget
        self.entryLimit = entryLimit
        table = Mutex(Table(entries: LRUTable(countLimit: entryLimit, costLimit: byteBudget)))
    }

    /// What keeping `response` under `key` costs the budget: the key, every header's name and
    /// value, and the body.
    static func cost(of response: APIResponse, for key: CatalogReadKey) -> Int {
        key.byteCount + response.body.count + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// The answer kept for `key` at `version`, if it is still true at `now`; it becomes the most
    /// recently used. One no longer true is dropped.
    func answer(for key: CatalogReadKey, version: Int64, now: Date) -> APIResponse? {
        table.withLock { table -> APIResponse? in
            guard table.version == version, let entry = table.entries.value(for: key) else { return nil }
            if let expiresAt = entry.expiresAt, now >= expiresAt {
                table.entries.removeValue(for: key)
                return nil
            }
            return entry.response
        }
    }

    /// Files `response` for `key`, read at `version`. Answers of an older version are dropped
    /// when a newer one is filed; past either bound, the least recently used answers go.
    func store(_ response: APIResponse, for key: CatalogReadKey, version: Int64, expiresAt: Date?) {
        table.withLock { table in
            if table.version != version {
                // Versions only grow; an answer read under an older one than the table's is
                // already stale and is not kept.
                if let current = table.version, version < current { return }
                table.version = version
                table.entries.removeAll()
            }
            table.entries.insert(Entry(expiresAt: expiresAt, response: response), for: key,
                                 cost: Self.cost(of: response, for: key))
        }
    }

    /// The answer for `key` at `version`, from `read` — run once however many requests ask at
    /// once: the first starts it, in a task of its own, and the others that miss the same key at
    /// the same version meanwhile wait for it. That is as fresh as a kept answer would be: `read`
    /// starts after `version` was read. The task is nobody's child, so a client that goes away does
    /// not cancel the read the others wait for (its request still waits for that short read). A
    /// 200 answer is kept.
    func sharedRead(
        for key: CatalogReadKey, version: Int64,
        _ read: @escaping @Sendable () async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?)
    ) async throws(KeyCatError) -> APIResponse {
        let name = ReadName(version: version, key: key)
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

    /// How many bytes the answers kept count for against ``byteBudget``, and how many answers
    /// were dropped to make room (for tests).
    var usage: (bytes: Int, evictions: Int) { table.withLock { ($0.entries.totalCost, $0.entries.evictions) } }

    /// The keys kept, from the most to the least recently used (for tests).
    var keysByRecency: [CatalogReadKey] { table.withLock { $0.entries.keysByRecency } }

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
        var headers = APIHeaders()
        for name in ["ETag", "Cache-Control"] {
            if let value = self.headers[name] { headers[name] = value }
        }
        return APIResponse(status: 304, headers: headers)
    }
}
