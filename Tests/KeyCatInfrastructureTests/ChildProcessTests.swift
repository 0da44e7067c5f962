import Foundation
import KeyCatTestSupport
import Testing
@testable import KeyCatInfrastructure

/// `posix_spawn` as KeyCat uses it for `pg_dump`, `pg_restore` and its own tests' children.
@Suite("Child processes", .timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test("arguments, environment and directory reach the child; its exit status comes back")
    func argumentsEnvironmentDirectory() throws {
        try withTemporaryDirectory { directory in
            let child = try ChildProcess(
                "/bin/sh", ["-c", #"printf '%s|%s|%s|' "$0" "$1" "$KEYCAT_PROBE"; pwd; exit 3"#, "first", "second word"],
                environment: ["KEYCAT_PROBE": "probe value", "PATH": "/usr/bin:/bin"], currentDirectory: directory.path,
                standardOutput: .pipe)
            let finished = child.finish()
            let expected = "first|second word|probe value|\(directory.resolvingSymlinksInPath().path)\n"
            #expect(String(decoding: finished.output, as: UTF8.self) == expected)
            #expect(finished.termination == .exited(3) && finished.termination.exitStatus == 3)
            #expect(child.wait() == .exited(3), "the same answer on every call")
        }
    }

    @Test("a megabyte of input is written and closed while a megabyte more on each of standard output and error is read whole, no pipe blocking another")
    func pipesBothWays() throws {
        // More than the pipes hold, so the input is written while the output is read.
        let input = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cat; head -c 1048576 /dev/zero >&2; head -c 1048576 /dev/zero"],
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        let finished = child.finish(input: input)
        #expect(finished.termination.succeeded)
        #expect(finished.output.count == input.count + 1_048_576)
        #expect(finished.output.prefix(input.count) == input)
        #expect(finished.error.count == 1_048_576)
    }

    @Test("standard error follows standard output, or goes to a file of its owner's")
    func errorDestinations() throws {
        let merged = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2"], standardOutput: .pipe,
                                      standardError: .standardOutput).finish()
        #expect(String(decoding: merged.output, as: UTF8.self) == "out\nerr\n")
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("errors.txt")
            let child = try ChildProcess("/bin/sh", ["-c", "echo to the file >&2"], standardError: .file(file.path))
            #expect(child.wait().succeeded)
            #expect(try String(contentsOf: file, encoding: .utf8) == "to the file\n")
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }

    @Test("only the three standard streams cross into the child, not the parent's other descriptors")
    func onlyStandardStreams() throws {
        // A descriptor without close-on-exec, as SQLite's and libpq's may be, numbered far above
        // any the child opens itself.
        let null = Glibc.open("/dev/null", O_RDONLY)
        try #require(null >= 0)
        defer { close(null) }
        let open = fcntl(null, F_DUPFD, 300)
        try #require(open >= 300)
        defer { close(open) }
        // The listing's own directory is one descriptor more, whichever program reads it.
        let child = try ChildProcess("/bin/ls", ["/proc/self/fd"], standardOutput: .pipe)
        let descriptors = String(decoding: child.finish().output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(Set(descriptors.filter { $0 <= 2 }) == [0, 1, 2])
        #expect(descriptors.filter { $0 > 2 }.count == 1, "\(descriptors)")
        #expect(!descriptors.contains(open), "\(descriptors)")
    }

    @Test("the child starts with no signal blocked and SIGPIPE, SIGINT and SIGTERM at their defaults")
    func signalsAtDefaults() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"],
                                     environment: ["PATH": "/usr/bin:/bin"], standardOutput: .pipe)
        let lines = String(decoding: child.finish().output, as: UTF8.self).split(separator: "\n")
        func mask(_ name: String) throws -> UInt64 {
            let line = try #require(lines.first { $0.hasPrefix(name + ":") }, "\(lines)")
            return try #require(UInt64(line.split(separator: "\t").last ?? "", radix: 16))
        }
        #expect(try mask("SigBlk") == 0)
        let ignored = try mask("SigIgn")
        for signal in [SIGPIPE, SIGINT, SIGTERM] {
            #expect(ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) is ignored")
        }
    }

    @Test("a signal ends a running child, and says so; a missing program is a clear error")
    func signalsAndFailures() throws {
        // `cat` runs until its input ends, which it never does here: however long this test
        // waits for a thread, the child is still running when the signal comes.
        let child = try ChildProcess("/bin/cat", standardInput: .pipe)
        #expect(child.isRunning)
        child.signal(SIGTERM)
        #expect(child.wait() == .signalled(SIGTERM))
        #expect(!child.isRunning && child.wait().exitStatus == nil)
        child.signal(SIGKILL)  // waited for already: nothing is sent
        let missing = #expect(throws: ChildProcess.Failure.self) { try ChildProcess("/nonexistent/keycat-tool") }
        #expect(missing?.description == "keycat-tool could not be started: No such file or directory")
    }
}
