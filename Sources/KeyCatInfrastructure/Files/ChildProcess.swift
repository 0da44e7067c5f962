import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A program run as a child process, through `posix_spawn`.
///
/// Foundation's `Process` is not used: on Linux its `run()` lists `/proc/self/fd` copying 256
/// bytes of every entry's name, past the end of glibc's directory buffer when an entry ends
/// it, and crashes the parent now and then (swift-corelibs-foundation #5472, still in Swift
/// 6.3.1's Foundation). KeyCat runs `pg_dump` and `pg_restore` for an operator's backup, and its
/// tests run its executables, so neither may crash on a spawn.
///
/// The child gets exactly its three standard streams: every other descriptor is closed in it
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), its signal mask is empty and the
/// signals a parent commonly handles or ignores are back to their defaults.
package final class ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    package enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe the parent writes to (``standardInput``).
        case pipe
        /// The parent's own.
        case inherit
    }

    /// Where one of the child's output streams goes.
    package enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe the parent reads (``standardOutput``, ``standardError``).
        case pipe
        /// The parent's own.
        case inherit
        /// For standard error only: wherever standard output goes.
        case standardOutput
        /// The file at this path, created or emptied, readable by its owner only.
        case file(String)
    }

    /// How the child ended.
    package enum Termination: Sendable, Hashable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal with this number ended it.
        case signalled(Int32)

        /// Whether it exited with status 0.
        package var succeeded: Bool { self == .exited(0) }

        /// The status it exited with; nil when a signal ended it.
        package var exitStatus: Int32? {
            if case let .exited(status) = self { status } else { nil }
        }
    }

    /// A child that could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The child's process id.
    package let id: pid_t
    /// The write end of the child's standard input, with ``Input/pipe``.
    package let standardInput: FileHandle?
    /// The read end of the child's standard output, with ``Output/pipe``.
    package let standardOutput: FileHandle?
    /// The read end of the child's standard error, with ``Output/pipe``.
    package let standardError: FileHandle?
    private let termination = Mutex<Termination?>(nil)

    /// Starts `executable` (a path: `PATH` is not searched) with `arguments`.
    ///
    /// - Parameters:
    ///   - environment: the child's whole environment; nil: the parent's.
    ///   - currentDirectory: where the child starts; nil: the parent's current directory.
    /// - Throws: ``Failure`` naming the cause (no such program, no such directory, no
    ///   descriptors left).
    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: String? = nil, standardInput input: Input = .null, standardOutput output: Output = .null,
        standardError error: Output = .null
    ) throws(Failure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child's ends of the pipes, closed in the parent once the child has them.
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = close($0) } }
        var parentEnds: [Int32] = []
        var started = false
        defer { if !started { parentEnds.forEach { _ = close($0) } } }

        func pipeEnds() throws(Failure) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw Failure(description: "no pipe for the child: \(String(cString: strerror(errno)))") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        var inputHandle: FileHandle?
        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .inherit: break
        case .pipe:
            let ends = try pipeEnds()
            childEnds.append(ends.read)
            parentEnds.append(ends.write)
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
            inputHandle = FileHandle(fileDescriptor: ends.write, closeOnDealloc: true)
        }
        var outputs: [FileHandle?] = [nil, nil]
        for (index, (target, destination)) in [(Int32(1), output), (Int32(2), error)].enumerated() {
            switch destination {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, target)
            case let .file(path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .pipe:
                let ends = try pipeEnds()
                childEnds.append(ends.write)
                parentEnds.append(ends.read)
                posix_spawn_file_actions_adddup2(&actions, ends.write, target)
                outputs[index] = FileHandle(fileDescriptor: ends.read, closeOnDealloc: true)
            }
        }
        // Nothing but the three streams crosses into the child.
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        if let currentDirectory {
            guard let changeDirectory = Self.changeDirectory else {
                throw Failure(description: "starting a program in another directory needs glibc 2.29 or newer")
            }
            _ = changeDirectory(&actions, currentDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = [executable] + arguments
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let status = withCStringArray(argv) { argv in
            withCStringArray(envp) { envp in posix_spawn(&child, executable, &actions, &attributes, argv, envp) }
        }
        guard status == 0 else {
            let name = URL(fileURLWithPath: executable).lastPathComponent
            throw Failure(description: "\(name) could not be started: \(String(cString: strerror(status)))")
        }
        started = true
        id = child
        standardInput = inputHandle
        standardOutput = outputs[0]
        standardError = outputs[1]
    }

    /// Sends the child `signal`, unless it was already waited for.
    package func signal(_ signal: Int32) {
        termination.withLock { ended in if ended == nil { _ = kill(id, signal) } }
    }

    /// Whether the child is still running (it is not waited for; a child that ended is reaped).
    package var isRunning: Bool {
        termination.withLock { ended in
            guard ended == nil else { return false }
            var status: Int32 = 0
            guard waitpid(id, &status, WNOHANG) == id else { return true }
            ended = Self.termination(status)
            return false
        }
    }

    /// Waits for the child to end, holding the calling thread; the same answer on every call.
    @discardableResult
    package func wait() -> Termination {
        termination.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            while waitpid(id, &status, 0) == -1, errno == EINTR {}
            let result = Self.termination(status)
            ended = result
            return result
        }
    }

    /// What `waitpid`'s `status` says.
    private static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// Writes `input` to the child's standard input (with ``Input/pipe``) and closes it, and reads
    /// its piped standard output and error to their ends, all three at once so that no pipe
    /// fills up while another is served; then waits for it.
    package func finish(input: Data = Data()) -> (termination: Termination, output: Data, error: Data) {
        // The streams still open, by number: 0 written, 1 and 2 read.
        var open: [(stream: Int, descriptor: Int32)] = []
        if let standardInput {
            if input.isEmpty { try? standardInput.close() } else { open.append((0, standardInput.fileDescriptor)) }
        }
        for (stream, handle) in [(1, standardOutput), (2, standardError)] {
            if let handle { open.append((stream, handle.fileDescriptor)) }
        }
        let bytes = [UInt8](input)
        var written = 0
        var collected = [Data(), Data()]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            var polled = open.map { pollfd(fd: $0.descriptor, events: Int16($0.stream == 0 ? POLLOUT : POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), -1) >= 0 || errno == EINTR else { break }
            for (position, entry) in polled.enumerated().reversed() where entry.revents != 0 {
                let stream = open[position].stream
                if stream == 0 {
                    // Ready to write means room for at least PIPE_BUF (4,096) bytes, so a write of
                    // that many never blocks. A child that closed its input gets no more.
                    var done = entry.revents & Int16(POLLERR | POLLHUP) != 0
                    if !done {
                        let count = bytes[written...].prefix(4_096).withUnsafeBytes { Glibc.write(entry.fd, $0.baseAddress, $0.count) }
                        if count > 0 { written += count }
                        done = written == bytes.count || (count < 0 && errno != EINTR && errno != EAGAIN)
                    }
                    if done {
                        try? standardInput?.close()
                        open.remove(at: position)
                    }
                } else {
                    let count = read(entry.fd, &buffer, buffer.count)
                    if count > 0 {
                        collected[stream - 1].append(contentsOf: buffer[..<count])
                    } else if count == 0 || errno != EINTR {
                        open.remove(at: position)
                    }
                }
            }
        }
        return (wait(), collected[0], collected[1])
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does
    /// not declare; nil on an older glibc, where only descriptors marked close-on-exec stay out
    /// of the child.
    private static let closeFrom: CloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29).
    private static let changeDirectory: ChangeDirectory? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }
}
