import Foundation
import KeyCat
import KeyCatInfrastructure
import Synchronization
import Testing

/// SQLite only: SQLite's online backup API, page by page, of a file.
@Suite("Online backups")
struct BackupTests {
    /// Every account in `keycat`, walking the pages.
    static func userCount(_ keycat: KeyCat) async throws -> Int {
        let console = Principal.operatorConsole("tester")
        var count = 0
        var cursor: String?
        repeat {
            let page = try await keycat.accounts.listUsers(limit: PageLimit(100), cursor: cursor, by: console)
            count += page.items.count
            cursor = page.nextCursor
        } while cursor != nil
        return count
    }

    /// Opens the backup at `path` as KeyCat would, without creating anything.
    static func openCopy(_ path: String) async throws -> KeyCat {
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.createIfMissing = false
        configuration.gatewayLog = DiscardingLogSink()
        return try await KeyCat.open(configuration)
    }

    @Test("the copy is a healthy KeyCat database with the same orders")
    func copy() async throws {
        try await TestShop.with { shop in
            let product = try await shop.product()
            let buyer = try await shop.user(.buyer)
            let order = try await shop.paidOrder(product, by: buyer)
            let path = shop.directory.appendingPathComponent("backup.db").path
            var steps: [BackupProgress] = []
            try await shop.keycat.backup(to: path, pagesPerStep: 4, by: shop.operatorConsole) { steps.append($0) }
            #expect(steps.count > 1)
            #expect(steps.last.map { $0.copiedPages == $0.totalPages } == true)
            let copy = try await Self.openCopy(path)
            defer { copy.close() }
            await #expect(try copy.checkHealth().isHealthy)
            await #expect(try copy.orders.order(order.id, by: shop.operatorConsole).status == .paid)
            await #expect(try copy.schemaVersion() == KeyCat.latestSchemaVersion)
        }
    }

    @Test("a backup never overwrites a file, and only an admin takes one")
    func refusals() async throws {
        try await TestShop.with { shop in
            let path = shop.directory.appendingPathComponent("existing.db").path
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
            await expectError(.storage) { try await shop.keycat.backup(to: path, by: shop.operatorConsole) }
            #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
            let buyer = try await shop.user(.buyer)
            let other = shop.directory.appendingPathComponent("other.db").path
            await expectError(.forbidden) { try await shop.keycat.backup(to: other, by: buyer) }
            #expect(!FileManager.default.fileExists(atPath: other))
            await expectError(.storage) {
                try await shop.keycat.backup(to: shop.directory.appendingPathComponent("missing/folder.db").path, by: shop.operatorConsole)
            }
        }
    }

    @Test("a backup taken while another task writes is one consistent snapshot that passes the check")
    func concurrentWriter() async throws {
        try await TestShop.with { shop in
            _ = try await shop.keycat.seedSynthetic(count: 2_000, seed: 7, by: shop.operatorConsole)
            let before = try await Self.userCount(shop.keycat)
            let stop = Atomic<Bool>(false)
            let started = Atomic<Bool>(false)
            let keycat = shop.keycat
            let console = shop.operatorConsole
            // Writes accounts from the backup's first step until told to stop: commits land beside
            // the backup's snapshot, never before it.
            let writer = Task.detached { () -> Int in
                var written = 0
                while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(1)) }
                while !stop.load(ordering: .relaxed) {
                    _ = try await keycat.accounts.createUser(
                        SignUpForm(email: "writer\(written)@example.com", password: "keycat123", nick: "writer\(written)"),
                        role: .buyer, by: console)
                    written += 1
                    await Task.yield()
                }
                return written
            }
            let path = shop.directory.appendingPathComponent("live.db").path
            var steps = 0
            // A second connection to the file, so the progress callback can commit synchronously.
            let side = try SQLiteDatabase(path: shop.keycat.configuration.databasePath)
            defer { side.close() }
            try await shop.keycat.backup(to: path, pagesPerStep: 8, by: shop.operatorConsole) { _ in
                started.store(true, ordering: .relaxed)
                // A commit between every two steps, whatever the scheduler does with the writer.
                steps += 1
                _ = try? side.blockingWrite {
                    try $0.run("INSERT INTO settings (key, value) VALUES (?, X'01')", [.text("step\(steps)")])
                }
            }
            stop.store(true, ordering: .relaxed)
            _ = try await writer.value
            #expect(steps > 1)
            let copy = try await Self.openCopy(path)
            defer { copy.close() }
            let report = try await copy.checkHealth()
            #expect(report.isHealthy, "\(report)")
            // The snapshot: exactly the accounts that existed when the backup began.
            #expect(try await Self.userCount(copy) == before)
            // Every commit made between two steps landed in the live file, none in the snapshot.
            let stepRows = "SELECT count(*) FROM settings WHERE key LIKE 'step%'"
            #expect(try side.blockingRead { try $0.queryOne(stepRows) { $0.int(0) } } == steps)
            let snapshot = try SQLiteDatabase(path: path)
            defer { snapshot.close() }
            #expect(try snapshot.blockingRead { try $0.queryOne(stepRows) { $0.int(0) } } == 0)
        }
    }
}
