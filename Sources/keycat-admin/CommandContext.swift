import Foundation
import KeyCat
import KeyCatPGSimulator
import KeyCatInfrastructure

/// What every command runs with: the resolved global options, the console, and a way to open
/// the database.
struct CommandContext {
    /// The database file: `--db`, else `$KEYCAT_DB`, else `./keycat.db`.
    let databasePath: String
    /// The `--db` given on the command line, if any (the demo never touches `$KEYCAT_DB`).
    let databasePathOption: String?
    /// Whether `--json` was given.
    let json: Bool
    let console: Console
    /// The operator running the tool: an admin principal named after the login user, written in
    /// the audit log as `cli:<login name>`.
    let principal: Principal
    /// The audit log's name for the operator, `cli:<login name>`.
    var actor: String { principal.auditActor }
    /// Reads a secret from standard input with a prompt (``SecretInput``): passwords and
    /// signing secrets are read here, never from arguments.
    let readSecret: (_ prompt: String) -> String?

    init(globals: GlobalSettings, console: Console, environment: [String: String],
         readSecret: @escaping (_ prompt: String) -> String? = { SecretInput.read(prompt: $0) }) {
        databasePathOption = globals.databasePath
        databasePath = globals.databasePath ?? environment["KEYCAT_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "./keycat.db"
        filesBeside = environment["KEYCAT_FILES"].flatMap { $0.isEmpty ? nil : $0 } ?? "keycat.db"
        json = globals.json
        self.console = console
        principal = .operatorConsole(environment["USER"] ?? environment["LOGNAME"] ?? "operator")
        self.readSecret = readSecret
    }

    /// Whether `--db` names a Postgres database (`postgres://…` or `postgresql://…`) rather than
    /// a SQLite file.
    var isPostgres: Bool { databasePath.hasPrefix("postgres://") || databasePath.hasPrefix("postgresql://") }

    /// The database as messages name it: a Postgres URL with its password masked.
    var databaseName: String {
        PostgresURL.masked(databasePath)
    }

    /// On Postgres, where the images folder and the PG simulator's file go, named as a database
    /// path would (`KEYCAT_FILES`, as the example server reads it; default `keycat.db`, so they
    /// sit in the working directory).
    let filesBeside: String

    /// The configuration for the database: on Postgres, the images folder and the PG simulator's
    /// file sit beside ``filesBeside``.
    func configuration() -> KeyCat.Configuration {
        isPostgres ? KeyCat.Configuration(.postgres(url: databasePath, filesBeside: filesBeside))
            : KeyCat.Configuration(databasePath: databasePath)
    }

    /// Opens the database for `init`: creates it when missing, migrates it, stamps it and
    /// restores any missing index. The only command that creates a file.
    func openForWriting() async throws -> KeyCat {
        try await KeyCat.open(configuration())
    }

    /// Opens an existing KeyCat database for a command that changes it: migrated, never created.
    func openExisting() async throws -> KeyCat {
        try requireFile()
        var configuration = configuration()
        configuration.createIfMissing = false
        return try await KeyCat.open(configuration)
    }

    /// Opens an existing KeyCat database for a command that only reads: read-only connections,
    /// so nothing is created, migrated or written, and a read-only file in a read-only
    /// directory works.
    ///
    /// - Parameter allowOutdated: accept a schema older than this build's (`db check`, `db
    ///   backup`); other commands ask for `init` first, since their queries need the new schema.
    /// - Parameter withSimulator: also open the PG simulator's file beside the database, for
    ///   `db check --gateway`, which asks the PG what it holds. The simulator plays the outside
    ///   service and keeps its own file (it may write its tokens there); KeyCat's database stays
    ///   read-only either way.
    func openForReading(allowOutdated: Bool = false, withSimulator: Bool = false) async throws -> KeyCat {
        try requireFile()
        var configuration = configuration()
        // Postgres has no read-only open: the command reads only, and nothing is migrated.
        configuration.store.sqlite?.readOnly = true
        configuration.migrates = !isPostgres && configuration.migrates
        configuration.gatewayLog = DiscardingLogSink()  // PG exchanges stay off the terminal
        if withSimulator {
            let path = PGSimulator.storagePath(besideDatabase: configuration.databasePath)
            guard FileManager.default.fileExists(atPath: path) else {
                throw KeyCatError(.storage, "no PG simulator file at \(path): no payment was ever made through it",
                                  context: ["path": path])
            }
            let clock = configuration.clock
            configuration.paymentGateway = .simulator(try PGSimulator(storage: .file(path: path), now: { clock.now() }))
        }
        let keycat = try await KeyCat.open(configuration)
        if !allowOutdated {
            let version = try await keycat.schemaVersion()
            if version < KeyCat.latestSchemaVersion {
                keycat.close()
                throw KeyCatError(.storage, "\(databaseName) is at schema version \(version), this keycat-admin needs "
                    + "\(KeyCat.latestSchemaVersion): run 'keycat-admin init' to migrate it", context: ["path": databaseName])
            }
        }
        return keycat
    }

    func requireFile() throws {
        guard isPostgres || FileManager.default.fileExists(atPath: databasePath) else {
            throw KeyCatError(.storage, "no database at \(databasePath) (run 'keycat-admin init' first, or check the path)",
                              context: ["path": databasePath])
        }
    }

    /// The time the database's clock shows.
    func now(_ keycat: KeyCat) -> Date { keycat.configuration.clock.now() }

    /// Prints `json` with `--json`, else `human`.
    func emit(json: @autoclosure () -> JSONValue, human: @autoclosure () -> String) {
        console.print(self.json ? json().serialized() : human())
    }
}
