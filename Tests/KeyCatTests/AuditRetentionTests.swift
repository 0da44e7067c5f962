import Foundation
@testable import KeyCat
@testable import KeyCatData
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing

@Suite("The audit log's retention")
struct AuditRetentionTests {
    static let year: TimeInterval = 365 * 24 * 60 * 60

    @Test("entries older than the retention are pruned, in batches, and the pruning is recorded; newer ones stay",
          arguments: TestStore.allCases)
    func pruning(_ store: TestStore) async throws {
        try await TestShop.with(store) { shop in
            let log = shop.keycat.auditLog
            let start = shop.clock.now()
            for index in 0..<5 {
                try await log.record(AuditEntry(actor: "cli:ops", action: "old.thing", target: "order:\(index)", at: start))
            }
            shop.clock.advance(by: 5 * Self.year - 60)
            try await log.record(AuditEntry(actor: "cli:ops", action: "recent.thing", target: "order:9", at: shop.clock.now()))
            // Five years and a minute after the first: those entries have aged out, the one a
            // minute short of five years after them has not.
            shop.clock.advance(by: 120)
            // Two entries a transaction, as reconciliation's 10,000: the loop goes on until a
            // batch comes back short.
            let cutoff = shop.clock.now().addingTimeInterval(-shop.keycat.configuration.auditRetention)
            #expect(try await Self.prune(shop.keycat.store.database, before: cutoff, at: shop.clock.now()) >= 5)
            let left = try await log.recent(limit: 1_000)
            #expect(!left.contains { $0.action == "old.thing" })
            #expect(left.contains { $0.action == "recent.thing" })
            let record = try #require(left.first { $0.action == "audit.prune" })
            #expect(record.actor == "system" && record.at == shop.clock.now() && record.detail.contains("entries recorded before"), "\(record)")
            await #expect(try shop.keycat.pruneAuditLog() == 0)
            #expect(try await log.recent(limit: 1_000).filter { $0.action == "audit.prune" }.count == 1, "a prune of nothing records nothing")
        }
    }

    static func prune(_ database: some SQLDatabase, before cutoff: Date, at now: Date) async throws -> Int {
        try await SQLAuditLog(database: database).prune(before: cutoff, at: now, batch: 2)
    }

    @Test("a retention under a year or past ten years is refused")
    func bounds() async throws {
        try await TestShop.withConfiguration(.sqlite) { base in
            for retention in [0, 30 * 86_400, Self.year - 1, 11 * Self.year] as [TimeInterval] {
                var configuration = base
                configuration.auditRetention = retention
                await expectError(.validation, field: "audit_retention") { try await KeyCat.open(configuration) }
            }
            var configuration = base
            configuration.auditRetention = Self.year
            try await KeyCat.open(configuration).close()
        }
    }
}
