import Foundation
import Synchronization

/// Where log lines go. One line per event, already formatted and already redacted: a sink never
/// sees a secret, so it may write anywhere.
public protocol LogSink: Sendable {
    func write(_ line: String)

    /// Whether lines are kept at all; when false, callers skip building them (redaction is
    /// not free). Default true.
    var isEnabled: Bool { get }
}

extension LogSink {
    public var isEnabled: Bool { true }
}

/// Writes each line to standard error.
public struct StandardErrorLogSink: LogSink {
    public init() {}

    public func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Drops every line.
public struct DiscardingLogSink: LogSink {
    public init() {}
    public func write(_ line: String) {}
    public var isEnabled: Bool { false }
}

/// Keeps every line in memory, for tests that read what was logged.
public final class CapturingLogSink: LogSink {
    private let captured = Mutex<[String]>([])

    public init() {}

    public func write(_ line: String) { captured.withLock { $0.append(line) } }

    /// The lines written so far, oldest first.
    public var lines: [String] { captured.withLock { $0 } }
}
