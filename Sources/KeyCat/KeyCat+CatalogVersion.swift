import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// A number that changes whenever the catalog may have changed — by this process, another
    /// process sharing the file, or another server sharing the database — and stays the same
    /// otherwise: for caches of answers built from the catalog, such as KeyCatAPI's. Read it
    /// *before* reading what you keep, and keep it under the number read, so a kept answer is
    /// never older than its number.
    ///
    /// - On SQLite: this process's writes, counted as soon as each returns, plus the file's data
    ///   version (`PRAGMA data_version`), which changes with every commit to the file from any
    ///   connection. The file is asked at most once a millisecond (asking takes a read
    ///   transaction's locks, which would cost more than the cached answer), so another
    ///   process's commit counts within a millisecond of it.
    /// - On Postgres: the catalog changes announced by the database (a trigger on `products`
    ///   notifies on commit; this process listens on a connection of its own), plus this
    ///   process's writes that changed the catalog (the trigger marks the transaction, and the
    ///   mark travels back with its `COMMIT`), counted as soon as the write returns. Another
    ///   server's change counts once its notification arrives, one network hop after its commit.
    ///
    /// Nil while a change could go unseen, and nothing may be cached then: an in-memory
    /// database; on Postgres, until the listener has started (the first call starts it) and
    /// while its connection is lost.
    ///
    /// - Throws: ``KeyCatError/Code/storage`` when the SQLite file cannot be read.
    public func catalogVersion() async throws(KeyCatError) -> Int64? {
        try store.catalogVersion()
    }
}
