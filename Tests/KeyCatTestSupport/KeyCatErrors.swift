package import KeyCatDomain

/// The ``KeyCatError`` `body` throws, or nil when it returns (or throws something else).
package func keycatError(_ body: () throws -> some Any) -> KeyCatError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? KeyCatError
    }
}

/// The ``KeyCatError`` `body` throws, or nil when it returns (or throws something else).
package func keycatError(_ body: () async throws -> some Any) async -> KeyCatError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? KeyCatError
    }
}
