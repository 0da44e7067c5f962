import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// The business registry as a table the operator loads (`business_registry`), standing in for
/// the tax service's status API. A number not in the table is unregistered.
package struct SQLBusinessRegistry<Database: SQLDatabase>: BusinessRegistry {
    private let database: Database

    package init(database: Database) { self.database = database }

    package func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus {
        try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT status FROM business_registry WHERE business_number = ?", [.text(number.digits)]
                ) { BusinessStatus(rawValue: $0.string(0)) } ?? nil
            } ?? .unregistered
        }
    }

    /// Adds or replaces entries, in one transaction with `audit`.
    /// - Returns: the number of entries written.
    package func load(_ entries: [BusinessRegistryEntry], at: Date, audit: AuditEntry) async throws(KeyCatError) -> Int {
        try await storage {
            try await database.write { connection in
                for entry in entries {
                    try connection.run(
                        """
                        INSERT INTO business_registry (business_number, status, updated_at) VALUES (?, ?, ?)
                        ON CONFLICT (business_number) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
                        """,
                        [.text(entry.number.digits), .text(entry.status.rawValue), StoredTime.value(at)])
                }
                try AuditLogTable.insert(audit, on: connection)
                return entries.count
            }
        }
    }
}

/// A business registry in memory, for tests.
package struct InMemoryBusinessRegistry: BusinessRegistry {
    private let entries: [BusinessRegistrationNumber: BusinessStatus]

    package init(_ entries: [BusinessRegistryEntry] = []) {
        self.entries = Dictionary(entries.map { ($0.number, $0.status) }, uniquingKeysWith: { $1 })
    }

    package func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus {
        entries[number] ?? .unregistered
    }
}
