import Foundation

/// Runs the built `keycat-admin` binary as a real process, for end-to-end tests of exit codes,
/// stdout and stderr.
struct AdminProcess {
    struct Outcome {
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
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var base = ["PATH": "/usr/bin:/bin", "USER": "tester"]
        base.merge(environment) { $1 }
        process.environment = base
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read before waiting so a full pipe never blocks the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }
}
