import Foundation
import KeyCatInfrastructure

/// Runs the built `keycat-admin` binary as a real process, for end-to-end tests of exit codes,
/// stdout and stderr.
struct AdminProcess {
    struct Outcome: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The test bundle is built beside the package's executables.
    static let binary = URL(fileURLWithPath: Bundle.main.bundlePath).appendingPathComponent("keycat-admin")

    /// Runs `keycat-admin arguments…`, feeding `input` on stdin, with `environment` added to a
    /// clean one (so the caller's `$KEYCAT_DB` never leaks in).
    static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:],
        currentDirectory: URL? = nil, binary: URL = AdminProcess.binary
    ) throws -> Outcome {
        var base = ["PATH": "/usr/bin:/bin", "USER": "tester"]
        base.merge(environment) { $1 }
        let admin = try ChildProcess(
            binary.path, arguments, environment: base, currentDirectory: currentDirectory?.path,
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        let finished = admin.finish(input: Data(input.utf8))
        return Outcome(
            status: finished.termination.exitStatus ?? -1,
            standardOutput: String(decoding: finished.output, as: UTF8.self),
            standardError: String(decoding: finished.error, as: UTF8.self))
    }
}
