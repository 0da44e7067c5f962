import Synchronization

/// Search statements kept once built, by everything their text is built from
/// (``SearchListQuery/page(plan:terms:order:floor:filter:sort:after:limit:dialect:)``,
/// ``SearchWindow/floors(of:terms:sizes:)``). A statement is built outside the lock; two searches
/// that build the same one at once both keep the same value. The memo empties when it reaches
/// ``capacity``: a bound on its memory, not an LRU.
final class SearchStatementMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// How many statements are kept (a search page's is about 2 KB).
    static var capacity: Int { 256 }

    private let entries = Mutex<[Key: Value]>([:])

    /// The value kept for `key`, or `build()`'s, kept.
    func value(for key: Key, build: () -> Value) -> Value {
        if let kept = entries.withLock({ $0[key] }) { return kept }
        let built = build()
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = built
        }
        return built
    }
}
