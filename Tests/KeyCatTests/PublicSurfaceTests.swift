import Foundation
import KeyCat
import Testing

/// Written with nothing but `import KeyCat`: every type KeyCat's public signatures use can be
/// named by a server that embeds it (this file imports no other KeyCat module).
@Suite("What import KeyCat hands a server")
struct PublicSurfaceTests {
    @Test("WebhookHTTPHandler and the HTTP values it speaks are reachable: an unsigned webhook is 400, in process too")
    func webhookHandler() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keycat-surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("shop.db").path)
        configuration.gatewayLog = DiscardingLogSink()
        let keycat = try await KeyCat.open(configuration)
        defer { keycat.close() }

        let handler: any HTTPHandler = WebhookHTTPHandler(keycat.webhooks)
        let request = TransportRequest(method: .post, path: "/webhooks/pg", headers: ["Content-Type": "application/json"],
                                  body: Data(#"{"imp_uid":"imp_1","merchant_uid":"m_1","status":"paid"}"#.utf8))
        let answer: TransportResponse = try await handler.handle(request, timeout: .seconds(5))
        #expect(answer.status == 400)
        let transport: any HTTPTransport = InProcessTransport(handler)
        let sent = try await transport.send(request, timeout: .seconds(5))
        #expect(sent.status == 400)
        let failure: HTTPTransportError? = nil
        #expect(failure == nil)
    }
}
