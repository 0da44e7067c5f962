import KeyCat

extension KeyCat {
    /// Runs `body` with the store's threads preferred (``KeyCat/storageExecutor``): the one place
    /// KeyCatAPI says where code runs (architecture §7).
    ///
    /// It is a hint, not a duty: every storage call already runs its statements on the store's
    /// threads, hopping there on its own. A handler that makes several calls saves those hops by
    /// starting there — a checkout makes a dozen — while the catalog reads, mostly answered from
    /// memory, go there only when they read rows (``Route/waitsOnStorage``).
    func onStorageThreads<Value, Failure: Error>(_ body: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        try await withTaskExecutorPreference(storageExecutor, operation: body)
    }
}
