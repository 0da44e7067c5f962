import KeyCatInfrastructure
import Synchronization

/// A database of either store that counts the write transactions it opens, whether they commit,
/// roll back or change nothing: for tests of what must not take the writer.
struct WriteCountingDatabase<Base: SQLDatabase>: SQLDatabase {
    typealias Connection = Base.Connection

    let base: Base
    /// Shared by every copy of the database.
    let writes = WriteCount()

    var storageExecutor: any TaskExecutor { base.storageExecutor }

    @discardableResult
    func write<Result: Sendable>(isolation: SQLIsolation, _ body: (Connection) throws -> Result) async throws -> Result {
        writes.add()
        return try await base.write(isolation: isolation, body)
    }

    @discardableResult
    func read<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
        try await base.read(body)
    }

    @discardableResult
    func readStatement<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
        try await base.readStatement(body)
    }

    @discardableResult
    func withConnection<Result: Sendable>(_ body: (Connection) throws -> Result) async throws -> Result {
        writes.add()
        return try await base.withConnection(body)
    }

    @discardableResult
    func blockingWithConnection<Result: Sendable>(_ body: (Connection) throws -> Result) throws -> Result {
        writes.add()
        return try base.blockingWithConnection(body)
    }

    func watchCommits() -> ChangeSignal { base.watchCommits() }

    func close() { base.close() }
}

/// How many write transactions a ``WriteCountingDatabase`` opened.
final class WriteCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}
