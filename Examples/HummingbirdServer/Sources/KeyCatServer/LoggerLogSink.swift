import KeyCat
import Logging

/// KeyCat's log lines (each PG exchange, secrets already masked) written to the server's
/// swift-log `Logger`, so they land wherever the server's own logs go.
struct LoggerLogSink: LogSink {
    let logger: Logger
    var level: Logger.Level = .info

    func write(_ line: String) {
        logger.log(level: level, "\(line)")
    }

    /// Lines below the logger's level are not even built (masking secrets is not free).
    var isEnabled: Bool { logger.logLevel <= level }
}
