import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// PostgreSQL's own client programs (`pg_dump`, `pg_restore`), which `db backup` and `db restore`
/// hand the rows to on a Postgres database: found on `PATH`, given the URL without its password
/// (the password goes in `PGPASSWORD`, so it never shows in the process list), and confined to
/// the schema the URL's `search_path` names, if any.
struct PostgresTool {
    /// The program's path.
    let executable: String

    /// `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> PostgresTool? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return PostgresTool(executable: candidate) }
        }
        return nil
    }

    /// A `postgres://` URL taken apart for the tools.
    struct Connection {
        /// The URL without its password.
        var url: String
        /// The URL with its password shown as `***`, for messages.
        var masked: String
        /// The password, percent-decoded, when the URL had one.
        var password: String?
        /// The schema of `options=-c search_path=…`, when the URL sets one: the tools then work
        /// on that schema only, where KeyCat keeps its tables.
        var schema: String?

        init(_ url: String) {
            masked = PostgresURL.masked(url)
            let (url, password) = PostgresURL.separatingPassword(url)
            self.password = password
            self.url = url
            if let options = url.firstMatch(of: #/[?&]options=([^&]*)/#),
               let decoded = String(options.1).replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
               let path = decoded.firstMatch(of: #/search_path\s*=\s*([A-Za-z_][A-Za-z0-9_$]*)/#) {
                schema = String(path.1)
            }
        }

        /// `--schema=…` when the URL names one, and the database.
        var arguments: [String] { (schema.map { ["--schema=\($0)"] } ?? []) + ["--dbname=\(url)"] }
    }

    /// Runs the program with `arguments` and `connection`'s password, and throws a storage error
    /// quoting its own message when it exits non-zero. Returns what it wrote to standard output.
    @discardableResult
    func run(_ arguments: [String], connection: Connection) throws(KeyCatError) -> Data {
        var environment = ProcessInfo.processInfo.environment
        if let password = connection.password { environment["PGPASSWORD"] = password }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable, arguments, environment: environment, standardOutput: .pipe, standardError: .pipe)
        } catch {
            // The failure names the program and the cause already ("pg_dump could not be started: …").
            throw KeyCatError(.storage, error.description, context: ["tool": executable])
        }
        let finished = child.finish()
        let message = String(decoding: finished.error, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard finished.termination.succeeded else {
            let name = URL(fileURLWithPath: executable).lastPathComponent
            let (status, ending) = switch finished.termination {
            case let .exited(status): ("\(status)", "exit status \(status)")
            case let .signalled(signal): ("signal \(signal)", "ended by signal \(signal)")
            }
            var text = "\(name) failed (\(ending)): \(message.isEmpty ? "no message" : message)"
            if message.contains("version mismatch") {
                text += "\n(\(name)'s major version must be the server's or newer: install that postgresql-client and put it first on PATH)"
            }
            throw KeyCatError(.storage, text, context: ["tool": name, "status": status])
        }
        return finished.output
    }

    /// `'text'` for a shell, for the commands printed when a tool is missing.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
}
