import Foundation
import Synchronization
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

    package func confirms(_ number: BusinessRegistrationNumber, representativeName: String, openingDate: CalendarDate)
        async throws(KeyCatError) -> Bool? {
        let row = try await storage {
            try await database.read { connection in
                try connection.queryOne(
                    "SELECT status, representative_name, opening_date FROM business_registry WHERE business_number = ?",
                    [.text(number.digits)]) { ($0.string(0), $0.optionalString(1), $0.optionalString(2)) }
            }
        }
        guard let (status, name, date) = row else { return nil }
        let entry = BusinessRegistryEntry(
            number: number, status: BusinessStatus(rawValue: status) ?? .unregistered, representativeName: name,
            openingDate: try date.map { text throws(KeyCatError) in try CalendarDate(iso8601: text, field: "opening_date") })
        return entry.confirms(representativeName: representativeName, openingDate: openingDate)
    }

    /// Adds or replaces entries, in one transaction with `audit`. An entry without a
    /// representative or opening date keeps the ones loaded before: a daily refresh of the
    /// statuses alone does not switch the owner check off.
    /// - Returns: the number of entries written.
    package func load(_ entries: [BusinessRegistryEntry], at: Date, audit: AuditEntry) async throws(KeyCatError) -> Int {
        try await storage {
            try await database.write { connection in
                for entry in entries {
                    try connection.run(
                        """
                        INSERT INTO business_registry (business_number, status, representative_name, opening_date, updated_at)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (business_number) DO UPDATE SET status = excluded.status,
                            representative_name = coalesce(excluded.representative_name, business_registry.representative_name),
                            opening_date = coalesce(excluded.opening_date, business_registry.opening_date),
                            updated_at = excluded.updated_at
                        """,
                        [.text(entry.number.digits), .text(entry.status.rawValue),
                         .optional(entry.representativeName.map(SQLValue.text)), .optional(entry.openingDate.map { .text($0.description) }),
                         StoredTime.value(at)])
                }
                try AuditLogTable.insert(audit, on: connection)
                return entries.count
            }
        }
    }
}

/// A business registry in memory, for tests: loaded at first, and again as an operator would.
package final class InMemoryBusinessRegistry: BusinessRegistry {
    private let entries: Mutex<[BusinessRegistrationNumber: BusinessRegistryEntry]>
    private let questions = Mutex(0)

    /// How many questions it was asked: a server's registry may be an API with a quota.
    package var asked: Int { questions.withLock { $0 } }

    package init(_ entries: [BusinessRegistryEntry] = []) {
        self.entries = Mutex(Dictionary(entries.map { ($0.number, $0) }, uniquingKeysWith: { $1 }))
    }

    /// Adds these entries, each replacing the number's entry whole if there is one (the table's
    /// load keeps a name and date that a line without them leaves out; this does not).
    package func load(_ loaded: [BusinessRegistryEntry]) {
        entries.withLock { entries in
            for entry in loaded { entries[entry.number] = entry }
        }
    }

    package func status(of number: BusinessRegistrationNumber) async throws(KeyCatError) -> BusinessStatus {
        questions.withLock { $0 += 1 }
        return entries.withLock { $0[number]?.status } ?? .unregistered
    }

    package func confirms(_ number: BusinessRegistrationNumber, representativeName: String, openingDate: CalendarDate)
        async throws(KeyCatError) -> Bool? {
        questions.withLock { $0 += 1 }
        return entries.withLock { $0[number] }?.confirms(representativeName: representativeName, openingDate: openingDate)
    }
}
