import KeyCatInfrastructure

extension KeyCat {
    /// This release of KeyCat.
    public static let version = "0.4.0"

    /// What this build is and runs on.
    public struct Versions: Sendable, Hashable {
        /// ``KeyCat/version``.
        public var keycat: String
        /// The newest schema version this build knows (``KeyCat/latestSchemaVersion``).
        public var schema: Int
        /// The SQLite library loaded at run time.
        public var sqlite: String
        /// The OpenSSL library loaded at run time, as it names itself.
        public var openSSL: String
    }

    /// KeyCat's version, its schema version, and the SQLite and OpenSSL it runs on.
    public static var versions: Versions {
        Versions(keycat: version, schema: latestSchemaVersion, sqlite: LibraryVersions.sqlite, openSSL: LibraryVersions.openSSL)
    }
}
