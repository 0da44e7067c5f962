import Foundation
import KeyCat

/// `keycat-admin`'s exit codes (architecture §8).
enum ExitCode: Int32 {
    /// Done.
    case success = 0
    /// A domain error: not found, conflict, validation…
    case domainError = 1
    /// The command line was wrong.
    case usage = 2
    /// Storage or I/O failed: the database or a file could not be read or written.
    case storageOrIO = 3
}

/// The one place errors are printed: a single line on stderr (or a JSON object with `--json`),
/// and the exit code that goes with the error's kind.
enum ErrorReporter {
    static func report(_ error: any Error, json: Bool, to output: Console) -> ExitCode {
        let code: String
        let message: String
        let exitCode: ExitCode
        switch error {
        case let usage as UsageError:
            code = "usage"
            message = "\(usage.message) (see '\(usage.commandPath) --help')"
            exitCode = .usage
        case let domain as KeyCatError:
            code = domain.code.rawValue
            message = domain.message
            exitCode = domain.code == .storage ? .storageOrIO : .domainError
        case let io as InputOutputError:
            code = "io"
            message = io.message
            exitCode = .storageOrIO
        default:
            code = "io"
            message = error.localizedDescription
            exitCode = .storageOrIO
        }
        if json {
            let body = JSONValue.object([
                ("error", .object([("code", .string(code)), ("message", .string(message))]))
            ])
            output.error(body.serialized())
        } else {
            output.error("keycat-admin: \(message)")
        }
        return exitCode
    }
}

/// A file could not be read or written.
struct InputOutputError: Error {
    var message: String
}
