import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// Everything needed to open KeyCat. Only the path is required.
    public struct Configuration: Sendable {
        /// How hard a commit is pushed to disk.
        public enum Durability: String, Sendable, CaseIterable {
            /// `synchronous=FULL`: every commit is fsynced, so a paid order survives power loss.
            case full
            /// `synchronous=NORMAL`: faster; a power loss may lose the last commits (never
            /// corrupts).
            case normal
        }

        /// The SQLite file. Its folder must exist.
        public var databasePath: String
        /// Commit durability. Default ``Durability/full``.
        public var durability: Durability = .full
        /// Read-only connections kept beside the one writer. Default 3.
        public var readerCount: Int = 3
        /// Create the file when missing. When false, a missing file is a storage error.
        public var createIfMissing: Bool = true
        /// Apply pending migrations on open. When false, an outdated schema is used as it is and
        /// only a newer one is refused (for read-only tools such as `db check`).
        public var migrates: Bool = true
        /// Where use cases read the time from.
        public var clock: any WallClock = SystemClock()

        public init(databasePath: String) {
            self.databasePath = databasePath
        }

        var sqlite: SQLiteConfiguration {
            var sqlite = SQLiteConfiguration()
            sqlite.synchronous = durability == .full ? .full : .normal
            sqlite.readerCount = readerCount
            sqlite.createIfMissing = createIfMissing
            return sqlite
        }
    }

    /// What ``KeyCat/checkHealth()`` found. Empty lists mean healthy.
    public struct HealthReport: Sendable, Equatable {
        /// Problems reported by `PRAGMA integrity_check`.
        public var integrityProblems: [String]
        /// Rows whose foreign keys point nowhere.
        public var foreignKeyProblems: [String]
        /// Broken KeyCat invariants.
        public var invariantProblems: [String]

        /// Whether nothing was found.
        public var isHealthy: Bool {
            integrityProblems.isEmpty && foreignKeyProblems.isEmpty && invariantProblems.isEmpty
        }
    }
}
