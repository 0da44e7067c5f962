import Foundation
import Synchronization

/// Each account's token version as this process last read it, kept for a short ``lifetime`` so
/// that most authenticated requests need no database read.
///
/// The database is the one truth: a change this process makes is forgotten here at once (the next
/// request reads the new version), and a change another process makes (another server on the
/// same Postgres database, or `keycat-admin`) is seen at the latest ``lifetime`` later. A read
/// that started before a change is not kept, so a forgotten version cannot come back stale.
public final class TokenVersionCache: Sendable {
    private struct Entry {
        var version: Int64
        var readAt: Date
    }

    private struct State {
        var entries: [UserID: Entry] = [:]
        /// Bumped by every ``forget(_:)``: a read that began under an older one is not kept.
        var generation: UInt64 = 0
    }

    /// How long a version read from the store is trusted. 0 reads the store on every request.
    public let lifetime: TimeInterval
    /// At most this many accounts are remembered; past it, the oldest half is dropped.
    static let capacity = 65_536
    private let state = Mutex(State())

    /// - Parameter lifetime: seconds a read version is trusted, 0…60.
    public init(lifetime: TimeInterval) {
        self.lifetime = min(max(lifetime, 0), 60)
    }

    /// The account's version: remembered when read less than ``lifetime`` ago, else `read` from
    /// the store (nil when the account does not exist, which is not remembered).
    package func version(
        of id: UserID, at now: Date, read: (UserID) async throws(KeyCatError) -> Int64?
    ) async throws(KeyCatError) -> Int64? {
        let (cached, generation) = state.withLock { state in
            (state.entries[id].flatMap { now.timeIntervalSince($0.readAt) < lifetime ? $0.version : nil }, state.generation)
        }
        if let cached { return cached }
        guard let version = try await read(id) else { return nil }
        guard lifetime > 0 else { return version }
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= Self.capacity {
                let oldest = state.entries.sorted { $0.value.readAt < $1.value.readAt }.prefix(Self.capacity / 2)
                for (key, _) in oldest { state.entries[key] = nil }
            }
            state.entries[id] = Entry(version: version, readAt: now)
        }
        return version
    }

    /// Drops what is remembered of the account: call after changing its token version.
    public func forget(_ id: UserID) {
        state.withLock { state in
            state.entries[id] = nil
            state.generation &+= 1
        }
    }
}
