import Foundation
import KeyCat

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
    /// Reads standard input (passwords are read here, never from arguments).
    let readStandardInput: () -> String?

    init(globals: GlobalSettings, console: Console, environment: [String: String],
         readStandardInput: @escaping () -> String? = { readLine(strippingNewline: true) }) {
        databasePathOption = globals.databasePath
        databasePath = globals.databasePath ?? environment["KEYCAT_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "./keycat.db"
        json = globals.json
        self.console = console
        principal = .operatorConsole(environment["USER"] ?? environment["LOGNAME"] ?? "operator")
        self.readStandardInput = readStandardInput
    }

    /// Opens the database, creating and migrating it.
    func openForWriting() throws -> KeyCat {
        try KeyCat.open(KeyCat.Configuration(databasePath: databasePath))
    }

    /// Opens an existing database without creating or migrating anything.
    func openExisting(migrate: Bool = true) throws -> KeyCat {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw KeyCatError(.storage, "no database at \(databasePath) (run 'keycat-admin init' first)")
        }
        var configuration = KeyCat.Configuration(databasePath: databasePath)
        configuration.createIfMissing = false
        configuration.migrates = migrate
        return try KeyCat.open(configuration)
    }

    /// The time the database's clock shows.
    func now(_ keycat: KeyCat) -> Date { keycat.configuration.clock.now() }

    /// Prints `json` with `--json`, else `human`.
    func emit(json: @autoclosure () -> JSONValue, human: @autoclosure () -> String) {
        console.print(self.json ? json().serialized() : human())
    }
}
