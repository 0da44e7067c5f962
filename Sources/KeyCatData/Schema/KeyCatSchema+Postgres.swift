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
}
