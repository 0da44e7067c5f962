import Foundation
import KeyCatInfrastructure

/// Logs every exchange with the PG, one line each: method, path, status (or the transport
/// failure), attempt and duration, plus the request body with secrets masked by ``Redactor``.
/// Tokens never appear: the `Authorization` header is not logged and token answers are not.
package struct PGEventMonitor: Sendable {
    private let sink: any LogSink

    package init(sink: any LogSink) { self.sink = sink }

    /// Logs one exchange. `outcome` is the status code, or the transport error.
    package func exchange(
        _ request: TransportRequest, attempt: Int, duration: TimeInterval, outcome: Result<TransportResponse, HTTPTransportError>
    ) {
        guard sink.isEnabled else { return }
        var fields = [
            "pg", "method=\(request.method.rawValue)", "path=\(Redactor.text(request.path))", "attempt=\(attempt)",
        ]
        switch outcome {
        case let .success(response):
            fields.append("status=\(response.status)")
            if let retryAfter = response.header("Retry-After") { fields.append("retry_after=\(retryAfter)") }
        case let .failure(error):
            fields.append("status=none")
            fields.append("transport_error=\"\(error)\"")
        }
        fields.append("duration_ms=\(Int((duration * 1000).rounded()))")
        if !request.body.isEmpty { fields.append("body=\(Redactor.body(request.body))") }
        sink.write(fields.joined(separator: " "))
    }

    /// Logs a decision the interceptor took (a token refresh, a wait before a retry, giving up).
    package func note(_ text: String) {
        guard sink.isEnabled else { return }
        sink.write("pg " + Redactor.text(text))
    }
}
