import Foundation
import Testing
@testable import KeyCatInfrastructure

/// KeyCat's own threads: work that prefers them runs there, on threads that say whose they are.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "thread names are read from Linux's /proc"))
struct DedicatedThreadsTests {
    /// The calling thread's name as the kernel reports it (what `top -H` and `perf` show).
    private static func kernelThreadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("work that prefers the executor runs on its threads, which carry the given name")
    func namedThreads() async {
        let threads = DedicatedThreads(count: 2, name: "keycat-test")
        defer { threads.shutdown() }
        let (isCurrent, name) = await withTaskExecutorPreference(threads) { (threads.isCurrent, Self.kernelThreadName()) }
        #expect(isCurrent)
        #expect(name == "keycat-test-0")
        #expect(!threads.isCurrent)
    }

    @Test("every thread carries its name, however soon it runs after it starts")
    func namesUnderLoad() async {
        // Foundation's own naming raced with `start()` and lost now and then under load; many
        // executors starting their threads at once make that race likely.
        let names = await withTaskGroup(of: String.self) { group in
            for number in 0..<64 {
                group.addTask {
                    let threads = DedicatedThreads(count: 1, name: "keycat-race-\(number % 10)")
                    defer { threads.shutdown() }
                    return await withTaskExecutorPreference(threads) { Self.kernelThreadName() }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.filter { !$0.hasPrefix("keycat-race-") }.isEmpty, "\(names)")
    }

    @Test("a SQLite database's threads are named by its configuration")
    func databaseThreadName() async throws {
        var configuration = SQLiteConfiguration()
        configuration.threadName = "keycat-sim"
        let database = try SQLiteDatabase(path: ":memory:", configuration: configuration)
        defer { database.close() }
        let name = try await database.readStatement { _ in Self.kernelThreadName() }
        #expect(name == "keycat-sim-0")
    }
}
