import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import Synchronization

/// Fetches and caches the PG access token.
///
/// The token request goes straight to the transport, never through ``PGInterceptor``: fetching a
/// token can therefore never trigger another token fetch. Concurrent callers may each fetch one
/// when the cache is empty; the PG accepts any unexpired token, so the last one cached wins.
package final class PGTokenProvider: Sendable {
    private struct CachedToken: Sendable {
        let value: String
        let expiresAt: Date
    }

    private let transport: any HTTPTransport
    private let configuration: PGClientConfiguration
    private let clock: any WallClock
    private let monitor: PGEventMonitor
    private let cached = Mutex<CachedToken?>(nil)
    private let fetches = Atomic<Int>(0)

    package init(transport: any HTTPTransport, configuration: PGClientConfiguration, clock: any WallClock, monitor: PGEventMonitor) {
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.monitor = monitor
    }

    /// How many tokens were fetched so far.
    package var fetchCount: Int { fetches.load(ordering: .relaxed) }

    /// A token valid for at least the refresh margin, fetched when the cache has none.
    package func token(timeout: Duration) async throws(KeyCatError) -> String {
        let now = clock.now()
        let margin = configuration.tokenRefreshMargin.seconds
        if let token = cached.withLock({ $0 }), token.expiresAt.timeIntervalSince(now) > margin { return token.value }
        return try await fetch(timeout: timeout)
    }

    /// Forgets `token` (after the PG refused it), unless a newer one is already cached.
    package func invalidate(_ token: String) {
        cached.withLock { if $0?.value == token { $0 = nil } }
    }

    private func fetch(timeout: Duration) async throws(KeyCatError) -> String {
        fetches.add(1, ordering: .relaxed)
        let request = PGRoute.getToken(key: configuration.apiKey, secret: configuration.apiSecret).request
        let started = clock.now()
        let response: TransportResponse
        do {
            response = try await transport.send(request, timeout: timeout)
        } catch {
            monitor.exchange(request, attempt: 1, duration: clock.now().timeIntervalSince(started), outcome: .failure(error))
            let rule = error == .timedOut ? PGErrorMapper.timeout : PGErrorMapper.connectionFailed
            throw PGErrorMapper.error(for: rule, status: nil, message: nil)
        }
        monitor.exchange(request, attempt: 1, duration: clock.now().timeIntervalSince(started), outcome: .success(response))
        guard response.isSuccess else { throw PGResponseDecoder.error(for: response) }
        let payload = try PGResponseDecoder.payload(PGTokenPayload.self, from: response)
        let token = CachedToken(value: payload.accessToken, expiresAt: Date(timeIntervalSince1970: TimeInterval(payload.expiredAt)))
        cached.withLock { $0 = token }
        return token.value
    }
}
