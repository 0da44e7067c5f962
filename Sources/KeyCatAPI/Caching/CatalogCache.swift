import Foundation
internal import KeyCatInfrastructure
import Synchronization

/// The catalog's read answers (`GET /products`, `GET /products/{id}`) kept in memory, each filed
/// under the catalog version read *before* the rows were (``KeyCat/catalogVersion()``), so an
/// answer is served again only while nothing has committed since: a write returns after its
/// commit, and the next read sees a new version and reads the rows anew. An answer built from a
/// running discount also expires when the first such discount ends, since the selling price
/// changes then without a write.
///
/// Concurrency in one sentence: the table lives behind one `Mutex`, held only to look up or file
/// an answer, never while the store is read.
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

    /// How many answers are kept (for tests).
    var count: Int { table.withLock { $0.entries.count } }
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
