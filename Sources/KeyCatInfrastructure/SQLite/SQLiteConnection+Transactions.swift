extension SQLiteConnection: SQLTransactionSteps {
    /// A write transaction (SQLite's one kind: see ``SQLConnection/transaction(isolation:_:)``).
    @discardableResult
    package func transaction<Result>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try transaction(isolation: .serializable, body)
    }

    /// A write starts with `BEGIN IMMEDIATE`, taking the write lock up front so a transaction never
    /// fails half-way for want of it (<https://sqlite.org/lang_transaction.html>); a read with
    /// `BEGIN DEFERRED`, its snapshot taken at its first read.
    package func beginTransaction(_ kind: SQLTransactionKind) throws {
        announcesCommit = false
        try run(kind == .read ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE")
    }

    package func commitTransaction(_ kind: SQLTransactionKind) throws {
        try run("COMMIT")
    }

    package func rollbackTransaction() {
        // SQLite may already have rolled back (e.g. after SQLITE_FULL); then there is nothing
        // to roll back.
        if isInTransaction { _ = try? run("ROLLBACK") }
    }

    /// SQLite's statements are never cancelled from outside (a read's progress handler stops only
    /// long reads), so `body` just runs.
    package func ending<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try body()
    }
}
