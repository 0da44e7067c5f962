import Foundation

/// The `manifest.json` of a backup directory: what was copied, from where, when, by which
/// KeyCat, how many rows it holds, and the SHA-256 of every file, so a restore can prove the
/// copy intact before it puts anything in place.
///
/// A backup directory holds `keycat.db` (the database) — or, for a Postgres shop, `keycat.pgdump`
/// (`pg_dump`'s custom format, its images inside) — `keycat.pg.db` (the PG simulator's file,
/// when there was one), `images/` (the product images the database references; on Postgres, the
/// folder of images from before they moved into the database) and this manifest. The directory
/// is 0700 and every file 0600.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// One copied file, by its path inside the backup directory.
    public struct File: Codable, Sendable, Hashable {
        /// E.g. `keycat.db`, `images/<sha256>.png`.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int64
        /// The SHA-256 of its bytes, lower-case hexadecimal.
        public var sha256: String
    }

    /// The manifest's own name in the backup directory.
    public static let fileName = "manifest.json"
    /// The database's name in the backup directory.
    public static let databaseFile = "keycat.db"
    /// A Postgres shop's rows in the backup directory: `pg_dump --format=custom`.
    public static let postgresDumpFile = "keycat.pgdump"
    /// The PG simulator file's name in the backup directory.
    public static let simulatorFile = "keycat.pg.db"
    /// The images folder's name in the backup directory.
    public static let imagesFolder = "images"
    /// The layout this build writes and the newest it restores.
    public static let currentFormat = 1

    /// The layout version (``currentFormat`` when written).
    public var format: Int
    /// When the backup finished copying the database.
    public var createdAt: Date
    /// The KeyCat release that took it.
    public var keycatVersion: String
    /// The database's schema version (a restore by an older KeyCat refuses a newer one).
    public var schemaVersion: Int
    /// The SQLite library that took it; nil for a Postgres backup.
    public var sqliteVersion: String?
    /// `postgres` for a Postgres shop's backup; nil (absent) for SQLite's.
    public var store: String?
    /// The Postgres server the rows were dumped from (`server_version`).
    public var postgresVersion: String?
    /// The database file that was backed up.
    public var source: String
    /// Rows per table in the database copy (users, products, orders, payments, refunds…).
    public var counts: [String: Int]
    /// Payments in the simulator's copy; nil when there was no simulator file.
    public var simulatorPayments: Int?
    /// Images copied.
    public var images: Int
    /// Images the database references that were not on disk when the backup ran (normally
    /// empty; `db check` of the source would not notice them either).
    public var missingImages: [String]
    /// Every file copied, with its size and checksum.
    public var files: [File]

    /// Whether the backup is a Postgres shop's (`keycat.pgdump`) rather than a SQLite file's.
    public var isPostgres: Bool { store == "postgres" }

    /// The file holding the rows: ``postgresDumpFile`` or ``databaseFile``.
    public var rowsFile: String { isPostgres ? Self.postgresDumpFile : Self.databaseFile }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
