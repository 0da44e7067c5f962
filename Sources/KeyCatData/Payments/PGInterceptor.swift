import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Sends a route's request with the PG token and retries it by architecture §5's rules.
///
/// - adapt: every request gets `Authorization: Bearer <token>` from ``PGTokenProvider``.
/// - 401: the token is dropped, a new one fetched and the request sent again, once; a second
///   401 is `gatewayAuthenticationFailed`.
/// - 429: waits `Retry-After`, then retries (the PG did not act, so any request may be repeated).
/// - 5xx and timeouts: exponential backoff with jitter, for requests safe to repeat only
///   (``PGRoute/isSafeToRepeat``). A refused connection is retried for any request (nothing was
///   sent).
/// - Every retry stays within ``PGClientConfiguration/maxAttempts`` and the call's
///   ``PGClientConfiguration/deadline``; a wait that would end past the deadline is not begun.
package struct PGInterceptor: Sendable {
    let transport: any HTTPTransport
    let tokens: PGTokenProvider
    let configuration: PGClientConfiguration
    let clock: any WallClock
    let sleeper: any Sleeper
    let jitter: @Sendable () -> Double
    let monitor: PGEventMonitor

    /// Sends `route` until it succeeds or a rule says stop.
    ///
    /// - Returns: a 2xx response (which may still carry a v1 business refusal).
    /// - Throws: the mapped ``KeyCatError`` of the last answer.
    package func send(_ route: PGRoute) async throws(KeyCatError) -> TransportResponse {
        try await sendNotingRepeats(route).response
    }

    /// ``send(_:)``, also saying whether an earlier send of this call may have acted (it timed
    /// out, or failed with a 5xx), so a caller can tell an answer to such a repeat from a first
    /// answer. Sends refused before the PG acted (401, 429, a failed token fetch) do not count.
    /// An error thrown after such a send carries ``GatewayCancellation/mayHaveActedContext``:
    /// the refusal of a repeat says nothing of the send before it.
    package func sendNotingRepeats(_ route: PGRoute) async throws(KeyCatError) -> (response: TransportResponse, repeated: Bool) {
        var mayHaveActed = false
        do {
            return try await sendNotingRepeats(route, mayHaveActed: &mayHaveActed)
        } catch where mayHaveActed {
            throw KeyCatError(error.code, error.message,
                              context: error.context.merging([GatewayCancellation.mayHaveActedContext: "true"]) { _, new in new })
        }
    }

    private func sendNotingRepeats(_ route: PGRoute, mayHaveActed: inout Bool) async throws(KeyCatError)
        -> (response: TransportResponse, repeated: Bool)
    {
        let deadline = clock.now().addingTimeInterval(configuration.deadline.seconds)
        var attempt = 0  // bounded by maxAttempts
        var sends = 0  // every send, the token-refresh retry included, for the log
        var refreshed = false
        var retries = 0
        mayHaveActed = false  // an earlier send timed out or failed with a 5xx
        while true {
            let remaining = deadline.timeIntervalSince(clock.now())
            let timeout = min(configuration.requestTimeout, .seconds(max(remaining, 0.001)))
            attempt += 1
            sends += 1
            let outcome = await exchange(route, attempt: sends, timeout: timeout)
            let (rule, error): (PGErrorMapper.Rule, KeyCatError)
            switch outcome {
            case let .answered(response, _) where response.isSuccess:
                return (response, mayHaveActed)
            case let .answered(response, token):
                (rule, error) = (PGResponseDecoder.rule(for: response), PGResponseDecoder.error(for: response))
                if rule.retry == .refreshTokenOnce {
                    guard !refreshed, let token else { throw error }
                    refreshed = true
                    attempt -= 1  // the refresh retry is not one of the bounded attempts
                    tokens.invalidate(token)
                    monitor.note("token refused: fetching a new one and retrying once")
                    continue
                }
            case let .failed(failedRule, failure):
                (rule, error) = (failedRule, failure)
            }
            let delay: Duration
            switch rule.retry {
            case .never, .refreshTokenOnce:
                throw error
            case .afterRetryAfter:
                delay = .seconds(Int(error.context["retry_after"] ?? "") ?? 1)
            case .backoffWhenSafe:
                guard route.isSafeToRepeat || rule == PGErrorMapper.connectionFailed else {
                    throw error
                }
                retries += 1
                if rule != PGErrorMapper.connectionFailed { mayHaveActed = true }
                delay = configuration.backoff(beforeRetry: retries, jitter: jitter())
            }
            guard attempt < configuration.maxAttempts else {
                monitor.note("giving up after \(attempt) attempts: \(error.code)")
                throw error
            }
            guard clock.now().addingTimeInterval(delay.seconds) < deadline else {
                monitor.note("giving up: waiting \(delay) would pass the deadline (\(error.code))")
                throw error
            }
            monitor.note("retrying \(route.method.rawValue) \(route.path) in \(delay) after \(error.code)")
            await sleeper.sleep(for: delay)
            if Task.isCancelled { throw error }
        }
    }

    private enum Outcome {
        /// The PG answered; `token` is the one the request carried.
        case answered(TransportResponse, token: String?)
        /// No usable answer: the rule to apply and its error.
        case failed(PGErrorMapper.Rule, KeyCatError)
    }

    /// One try: fetch the token (when missing), send, log.
    private func exchange(_ route: PGRoute, attempt: Int, timeout: Duration) async -> Outcome {
        var request = route.request
        let token: String
        do {
            token = try await tokens.token(timeout: timeout)
        } catch {
            // A failed token fetch is retried like the request would be: a token request is
            // always safe to repeat, and the route itself was not sent.
            let rule: PGErrorMapper.Rule = switch error.code {
            case .gatewayTimeout, .gatewayUnavailable: PGErrorMapper.connectionFailed
            case .rateLimited: PGErrorMapper.rule(status: 429)
            default: PGErrorMapper.malformed  // never retried
            }
            return .failed(rule, error)
        }
        request.headers["Authorization"] = "Bearer \(token)"
        let started = clock.now()
        do {
            let response = try await transport.send(request, timeout: timeout)
            monitor.exchange(request, attempt: attempt, duration: clock.now().timeIntervalSince(started), outcome: .success(response))
            return .answered(response, token: token)
        } catch {
            monitor.exchange(request, attempt: attempt, duration: clock.now().timeIntervalSince(started), outcome: .failure(error))
            switch error {
            case .timedOut, .other:
                // `.other` (e.g. a connection lost mid-request) is as uncertain as a timeout.
                var mapped = PGErrorMapper.error(for: PGErrorMapper.timeout, status: nil, message: nil)
                if error != .timedOut {
                    mapped = KeyCatError(.gatewayTimeout, "\(mapped.message) (\(error))", context: mapped.context)
                }
                return .failed(PGErrorMapper.timeout, mapped)
            case .cancelled:
                return .failed(PGErrorMapper.cancelled,
                               PGErrorMapper.error(for: PGErrorMapper.cancelled, status: nil, message: nil))
            case .connectionFailed:
                return .failed(PGErrorMapper.connectionFailed,
                               PGErrorMapper.error(for: PGErrorMapper.connectionFailed, status: nil, message: nil))
            }
        }
    }
}
