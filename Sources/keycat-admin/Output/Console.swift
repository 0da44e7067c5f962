import Foundation

/// Where a command writes: stdout for results, stderr for errors and progress. Tests capture
/// both.
final class Console {
    private(set) var standardOutput = ""
    private(set) var standardError = ""
    private let capturing: Bool
    /// Whether stderr, where progress goes, is a terminal: progress is shown only then (so a
    /// redirected or captured run gets none), and commands show none with `--json`.
    let isTerminal: Bool

    /// A console on the process's real stdout and stderr.
    static func system() -> Console {
        Console(capturing: false, isTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// A console that keeps everything in memory, for tests.
    static func capturing() -> Console { Console(capturing: true, isTerminal: false) }

    private init(capturing: Bool, isTerminal: Bool) {
        self.capturing = capturing
        self.isTerminal = isTerminal
    }

    /// Writes a line (or a block that ends in a newline) to stdout.
    func print(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if capturing { standardOutput += line } else { FileHandle.standardOutput.write(Data(line.utf8)) }
    }

    /// Writes `text` to stdout exactly as it is (a CSV ends its lines in CRLF itself).
    func write(_ text: String) {
        if capturing { standardOutput += text } else { FileHandle.standardOutput.write(Data(text.utf8)) }
    }

    /// Writes a line to stderr.
    func error(_ text: String) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if capturing { standardError += line } else { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Rewrites the current terminal line of stderr with a progress message, only on a terminal.
    func progress(_ text: String) {
        guard isTerminal, !capturing else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// ``progress(_:)`` as a function any task may call (use cases report progress from their
    /// own), doing nothing unless progress is shown: `showing` (commands pass `!json`) and stderr
    /// a terminal.
    func progressReporter(showing: Bool) -> @Sendable (String) -> Void {
        guard showing, isTerminal, !capturing else { return { _ in } }
        return { text in FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8)) }
    }

    /// Ends a progress line.
    func endProgress() {
        guard isTerminal, !capturing else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
