import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// A number that changes whenever a write commits to the store — from this process or any
    /// other sharing the file — and stays the same otherwise: for caches of answers built from
    /// the store, such as KeyCatAPI's catalog cache. Read it *before* reading what you keep, and
    /// keep it under the number read, so a kept answer is never older than its number.
    ///
    /// Nil where the store cannot tell cheaply, and nothing may be cached: an in-memory database,
    /// and Postgres, where other servers' commits would reach this one by `LISTEN`/`NOTIFY` on a
    /// connection of its own (not built yet), so every read goes to the database.
    ///
    /// - Throws: ``KeyCatError/Code/storage`` when the file cannot be read.
    public func dataVersion() async throws(KeyCatError) -> Int64? {
        switch store {
        case let .sqlite(database): try storage { try database.dataVersion() }
        case .postgres: nil
        }
    }
}
