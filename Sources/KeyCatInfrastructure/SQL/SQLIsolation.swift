/// How much a write transaction is kept apart from the others running beside it
/// (<https://www.postgresql.org/docs/current/transaction-iso.html>), named by every write.
///
/// On SQLite every level means the same thing: its one writer runs the writes one after another,
/// which is at least as strict as any level here. On Postgres writes run side by side, and the
/// level decides what a write may assume about what it read.
package enum SQLIsolation: String, Sendable, CaseIterable {
    /// Each statement sees what was committed before it began. For writes whose every statement
    /// is conditional on the rows it changes (`UPDATE … WHERE status = ?`, `… WHERE stock >= ?`,
    /// a unique index): Postgres re-checks such a condition after waiting for the row's lock, so
    /// two such writes still agree on one winner, and neither is ever run again for having read
    /// what the other wrote. A write that reads, decides, then writes must not use it.
    case readCommitted = "READ COMMITTED"
    /// Every statement sees the snapshot taken at the first one; a write to a row that another
    /// transaction changed since fails with a serialization failure (40001).
    case repeatableRead = "REPEATABLE READ"
    /// As if the transactions ran one after another, as SQLite's do; any that cannot be so
    /// ordered fails with a serialization failure (40001) and is run again. For writes that read,
    /// decide, then write.
    case serializable = "SERIALIZABLE"
}
