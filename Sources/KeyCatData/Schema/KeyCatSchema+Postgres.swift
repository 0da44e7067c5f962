import Foundation
import KeyCatInfrastructure

extension KeyCatSchema {
    /// Every migration's DDL as `store` runs it, in order, each under a `-- N: name` line: the
    /// text the schema golden files pin (`Tests/KeyCatDataTests/Golden/`).
    package static func script(for dialect: SQLDialect) -> String {
        steps.map { step in
            "-- \(step.version): \(step.name)\n\(step.sql(for: dialect).trimmingCharacters(in: .whitespacesAndNewlines))\n"
        }.joined(separator: "\n")
    }

    /// The channel Postgres announces catalog changes on (migration 20), for
    /// ``PostgresDatabase/changeVersion(channel:)``.
    package static let catalogChangeChannel = CatalogSchema.changeChannel

    /// The query a server sends with each write's `COMMIT` (``PostgresConfiguration/commitProbe``):
    /// non-empty when the transaction changed the catalog (migration 20's trigger sets it).
    package static let catalogCommitProbe = CatalogSchema.commitProbe

    /// The advisory lock every connection of a KeyCat store holds, shared, while it is open
    /// (``PostgresConfiguration/onConnect``): its first key says KeyCat's store is open (`KCOP`),
    /// its second which schema. A restore takes it alone (``openStoreLockQuery``) and so finds a
    /// server or tool still running on the schema it would replace. Taken with `try`, a
    /// connection made while a restore holds it goes on without it.
    package static let openStoreLockCall = "pg_try_advisory_lock_shared(\(openStoreLockClass), hashtext(coalesce(current_schema(), '')))"

    /// ``openStoreLockCall``'s lock taken alone, for the session's life: true when no open store holds it.
    package static let openStoreLockQuery = "SELECT pg_try_advisory_lock(\(openStoreLockClass), hashtext(coalesce(current_schema(), '')))"

    /// The sessions holding ``openStoreLockCall``'s lock: each one's process id, application
    /// name and client address.
    package static let openStoreSessionsQuery = """
        SELECT a.pid, coalesce(a.application_name, ''), coalesce(host(a.client_addr), 'local socket')
        FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = \(openStoreLockClass) AND l.objsubid = 2
          AND CAST(l.objid AS bigint) = (CAST(hashtext(coalesce(current_schema(), '')) AS bigint) & 4294967295)
        ORDER BY a.pid
        """

    private static let openStoreLockClass = 0x4B43_4F50
}
