/// A use case whose calls wait for a database (architecture §7, "Waiting never blocks").
///
/// Storage calls block the thread they run on until the database answers. A service given a
/// ``storageExecutor`` — KeyCat passes its own storage threads — runs each of its async use
/// cases with that executor preferred, so the waiting holds one of KeyCat's threads, never one
/// of the caller's (a server's request handlers share a thread per core). Without one, a use
/// case runs wherever its caller runs.
protocol WaitsForStorage {
    var storageExecutor: (any TaskExecutor)? { get }
}

extension WaitsForStorage {
    /// Runs `body` with ``storageExecutor`` preferred.
    func onStorage<Value>(_ body: () async throws(KeyCatError) -> Value) async throws(KeyCatError) -> Value {
        try await withTaskExecutorPreference(storageExecutor, operation: body)
    }
}
