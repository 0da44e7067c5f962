import Foundation
import KeyCat

extension RequestContext {
    /// What a CDN or browser may do with a catalog read: keep it, but ask again each time
    /// (`no-cache`), which its `ETag` makes a cheap 304 while nothing changed. Stock and prices
    /// change with every order, so no answer is ever fresh for a fixed time.
    static let catalogCacheControl = "public, no-cache"

    /// Answers a catalog read (the same for every caller) with a strong `ETag`, `304 Not
    /// Modified` for an `If-None-Match` that names it, and from ``CatalogCache`` while the
    /// catalog has not changed since the answer was read; requests that miss the same answer at
    /// once share one read (``CatalogCache/sharedRead(for:version:_:)``).
    ///
    /// A kept answer is served on the caller's thread (the version check reads shared memory);
    /// rows are read on KeyCat's storage threads.
    ///
    /// - Parameters:
    ///   - key: the request as the route parsed it, which the answer is filed under: the route
    ///     parses before it asks, so a request it refuses is never looked up.
    ///   - read: reads the rows and builds the answer; returns it with the time it stops being
    ///     true without a write (the earliest end of a running discount it shows), if any.
    func catalogRead(
        _ key: CatalogReadKey, _ read: @escaping @Sendable () async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?)
    ) async throws(KeyCatError) -> APIResponse {
        // Read before the rows: an answer filed under it can only be newer than it.
        let version = try await keycat.catalogVersion()
        let response: APIResponse
        if let version, let kept = cache.answer(for: key, version: version, now: now) {
            response = kept
        } else if let version {
            let keycat = self.keycat
            response = try await cache.sharedRead(for: key, version: version) { () async throws(KeyCatError) in
                try await Self.tagged(read, keycat: keycat)
            }
        } else {
            response = try await Self.tagged(read, keycat: keycat).response
        }
        if response.status == 200, let tag = response.headers["ETag"],
           APIResponse.ifNoneMatch(request.headers["If-None-Match"], matches: tag) {
            return response.notModified()
        }
        return response
    }

    /// `read` run on KeyCat's storage threads, a 200 answer given its `ETag` and `Cache-Control`.
    private static func tagged(
        _ read: @Sendable () async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?), keycat: KeyCat
    ) async throws(KeyCatError) -> (response: APIResponse, expiresAt: Date?) {
        var answer = try await keycat.onStorageThreads { () async throws(KeyCatError) in try await read() }
        if answer.response.status == 200 {
            answer.response.headers["ETag"] = APIResponse.entityTag(of: answer.response.body)
            answer.response.headers["Cache-Control"] = catalogCacheControl
        }
        return answer
    }

    /// The earliest end of a running discount among `products`: the moment a selling price
    /// shown changes without a write.
    static func priceBoundary(of products: some Sequence<Product>, after now: Date) -> Date? {
        products.compactMap(\.pricing.discountEndsAt).filter { $0 > now }.min()
    }
}
