import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Search's own rows (``SearchSchema``) over SQLite or Postgres.
package struct SQLSearchRepository<Database: SQLDatabase>: SearchRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    package func synonyms() async throws(KeyCatError) -> [SynonymPair] {
        try await storage {
            try await database.read { connection in
                try connection.query("SELECT word, synonym FROM search_synonyms WHERE word < synonym ORDER BY word, synonym", []) { row in
                    try SynonymPair(row.string(0), row.string(1))
                }
            }
        }
    }

    package func addSynonym(_ pair: SynonymPair, at now: Date, audit: AuditEntry) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let present = try connection.queryOne("SELECT 1 FROM search_synonyms WHERE word = ? AND synonym = ?",
                                                      [.text(pair.word), .text(pair.synonym)]) { _ in true } ?? false
                for word in [pair.word, pair.synonym] where !present {
                    let count = try connection.queryOne("SELECT count(*) FROM search_synonyms WHERE word = ?", [.text(word)]) { $0.int(0) } ?? 0
                    guard count < SynonymPair.maximumPerWord else {
                        throw KeyCatError(.limitReached, "«\(word)» has \(SynonymPair.maximumPerWord) synonyms already; remove one first",
                                          context: ["limit": "\(SynonymPair.maximumPerWord)", "word": word])
                    }
                }
                var added = 0
                for (word, synonym) in [(pair.word, pair.synonym), (pair.synonym, pair.word)] {
                    added += try connection.run(
                        "INSERT INTO search_synonyms (word, synonym, created_at) VALUES (?, ?, ?) ON CONFLICT (word, synonym) DO NOTHING",
                        [.text(word), .text(synonym), StoredTime.value(now)])
                }
                if added > 0 { try AuditLogTable.insert(audit, on: connection) }
                return added > 0
            }
        }
    }

    package func removeSynonym(_ pair: SynonymPair, audit: AuditEntry) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                let removed = try connection.run(
                    "DELETE FROM search_synonyms WHERE (word = ? AND synonym = ?) OR (word = ? AND synonym = ?)",
                    [.text(pair.word), .text(pair.synonym), .text(pair.synonym), .text(pair.word)])
                if removed > 0 { try AuditLogTable.insert(audit, on: connection) }
                return removed > 0
            }
        }
    }

    package func plan(for query: SearchQuery) async throws(KeyCatError) -> SearchPlan {
        try await storage {
            try await database.read { connection in
                let prepared = try SearchPlanner.prepare(query, on: connection)
                var plan = prepared.plan
                plan.narrowedPrefixes = prepared.terms.narrowed
                return plan
            }
        }
    }

    package func sales(of ids: [ProductID]) async throws(KeyCatError) -> [ProductID: StandingSales] {
        guard !ids.isEmpty else { return [:] }
        let list = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        return try await storage {
            try await database.read { connection in
                var sold: [ProductID: StandingSales] = [:]
                try connection.forEach(
                    "SELECT product_id, units_sold, value_sold FROM search_documents WHERE product_id IN (\(connection.dialect.integersFromJSON))",
                    [.text(list)]) { sold[ProductID($0.int64(0))] = StandingSales(units: $0.int(1), value: Money(won: $0.int64(2))) }
                return sold
            }
        }
    }

    package func reindex(progress: @Sendable (Int) -> Void) async throws(KeyCatError) -> Int {
        try await SearchMaintenance(database: database).reindex(progress: progress)
    }

    package func problems() async throws(KeyCatError) -> [String] {
        try await SearchMaintenance(database: database).problems()
    }
}
