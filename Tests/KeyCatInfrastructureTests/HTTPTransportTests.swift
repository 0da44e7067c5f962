import Foundation
import Testing
@testable import KeyCatInfrastructure
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers every request with its own path, after checking the timeout it was given.
struct EchoHandler: HTTPHandler {
    func handle(_ request: TransportRequest, timeout: Duration) async throws(HTTPTransportError) -> TransportResponse {
        if timeout < .milliseconds(10) { throw .timedOut }
        return TransportResponse(status: 200, headers: ["X-Path": request.path], body: request.body)
    }
}

@Suite("HTTP transports")
struct HTTPTransportTests {
    @Test("the in-process transport hands the request and timeout to its handler")
    func inProcess() async throws {
        let transport = InProcessTransport(EchoHandler())
        let response = try await transport.send(TransportRequest(method: .post, path: "/a?b=c", body: Data("x".utf8)), timeout: .seconds(1))
        #expect(response.header("x-path") == "/a?b=c")
        #expect(response.body == Data("x".utf8))
        await #expect(throws: HTTPTransportError.timedOut) {
            _ = try await transport.send(TransportRequest(method: .get, path: "/"), timeout: .milliseconds(1))
        }
    }

    @Test("a refused connection is connectionFailed, not a timeout")
    func refused() async throws {
        // Port 1 on loopback: nothing listens there, so the kernel refuses at once.
        let transport = URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:1")!)
        do {
            _ = try await transport.send(TransportRequest(method: .get, path: "/payments/imp_1"), timeout: .seconds(5))
            Issue.record("expected a failure")
        } catch {
            guard case .connectionFailed = error else {
                Issue.record("expected connectionFailed, got \(error)")
                return
            }
        }
    }

    @Test("a server that never answers is timedOut, within the request's timeout")
    func silentServerTimesOut() async throws {
        let server = try #require(SilentServer())
        let transport = URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        await #expect(throws: HTTPTransportError.timedOut) {
            _ = try await transport.send(TransportRequest(method: .get, path: "/payments/imp_1"), timeout: .milliseconds(5))
        }
        withExtendedLifetime(server) {}
    }

    /// The exchange is abandoned, not cancelled (``URLSessionTransport``): the caller hears
    /// `cancelled` at once, while the silent server would hold the request for its minute.
    @Test("a cancelled caller stops waiting with cancelled, long before the request's timeout")
    func cancelledCaller() async throws {
        let server = try #require(SilentServer())
        let transport = URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let (started, signal) = AsyncStream<Void>.makeStream()
        let call = Task { () async -> HTTPTransportError? in
            signal.yield()
            do throws(HTTPTransportError) {
                _ = try await transport.send(TransportRequest(method: .get, path: "/payments/imp_1"), timeout: .seconds(60))
                return nil
            } catch {
                return error
            }
        }
        for await _ in started { break }
        call.cancel()
        let outcome = await call.value
        #expect(outcome == .cancelled)
        // The next request on the same transport is unaffected.
        await #expect(throws: HTTPTransportError.timedOut) {
            _ = try await transport.send(TransportRequest(method: .get, path: "/payments/imp_2"), timeout: .milliseconds(5))
        }
        withExtendedLifetime(server) {}
    }

    @Test("URL errors sort into timeout and cancelled", arguments: [
        (URLError.Code.timedOut, HTTPTransportError.timedOut),
        (.cancelled, .cancelled),
    ])
    func urlErrorMapping(_ code: URLError.Code, _ expected: HTTPTransportError) {
        #expect(URLSessionTransport.transportError(for: URLError(code)) == expected)
    }

    @Test("refused, unknown host and TLS failures are connection failures", arguments: [
        URLError.Code.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .secureConnectionFailed,
    ])
    func connectionFailures(_ code: URLError.Code) {
        guard case .connectionFailed = URLSessionTransport.transportError(for: URLError(code)) else {
            Issue.record("\(code) should be a connection failure")
            return
        }
    }

    @Test("a connection lost mid-request is not a connection failure (the request may have arrived)")
    func lostMidRequest() {
        guard case .other = URLSessionTransport.transportError(for: URLError(.networkConnectionLost)) else {
            Issue.record("expected other")
            return
        }
    }

    @Test("header lookup ignores case")
    func headerCase() {
        let request = TransportRequest(method: .get, path: "/?x=1", headers: ["Idempotency-Key": "k"])
        #expect(request.header("idempotency-key") == "k")
        #expect(request.pathWithoutQuery == "/")
    }
}
