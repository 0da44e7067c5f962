import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator
import KeyCatTestSupport
import Synchronization
import Testing
@testable import KeyCat

/// The simulator's webhook secret is random per installation and kept with KeyCat's secrets; an
/// empty secret is refused; a refused webhook says nothing of why.
@Suite("Webhook secrets")
struct WebhookSecretTests {
    static func open(_ path: String) async throws -> KeyCat {
        var configuration = KeyCat.Configuration(databasePath: path)
        configuration.passwordIterations = 1_000
        configuration.gatewayLog = DiscardingLogSink()
        return try await KeyCat.open(configuration)
    }

    @Test("two installations' simulators sign with different secrets; one installation keeps its own across opens")
    func perInstallation() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await Self.open(directory.appendingPathComponent("a.db").path)
            let secret = try #require(first.paymentSimulator?.webhookSecret)
            first.close()
            let again = try await Self.open(directory.appendingPathComponent("a.db").path)
            defer { again.close() }
            #expect(again.paymentSimulator?.webhookSecret == secret)
            let other = try await Self.open(directory.appendingPathComponent("b.db").path)
            defer { other.close() }
            #expect(other.paymentSimulator?.webhookSecret != secret)
            #expect(secret.hasPrefix("whsec_") && Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
            #expect(PGSimulator.randomWebhookSecret() != PGSimulator.randomWebhookSecret())
        }
    }

    @Test("an empty webhook secret is refused, for a real PG and for the simulator", arguments: [[], [""], ["whsec_a2V5", "  "]])
    func emptySecrets(secrets: [String]) async throws {
        try await withTemporaryDirectory { directory in
            var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("pg.db").path)
            configuration.paymentGateway = .portOne(baseURL: URL(string: "https://api.iamport.kr")!, apiKey: "key",
                                                    apiSecret: "secret", webhooks: .signed(secrets: secrets))
            let error = try await #require(throws: KeyCatError.self) { try await KeyCat.open(configuration) }
            #expect(error.code == .validation && error.context["field"] == "webhook_secrets")
        }
        #expect(throws: PGSimulatorError.self) { try PGSimulator(webhookSecret: "") }
    }

    @Test("a webhook signed with another secret and one out of time get the same answer, and the reason is logged")
    func oneAnswer() async throws {
        try await withTemporaryDirectory { directory in
            let log = RecordingLogSink()
            var configuration = KeyCat.Configuration(databasePath: directory.appendingPathComponent("w.db").path)
            configuration.passwordIterations = 1_000
            configuration.gatewayLog = log
            let keycat = try await KeyCat.open(configuration)
            defer { keycat.close() }
            let body = Data(#"{"imp_uid":"imp_1","merchant_uid":"kc_1","status":"paid"}"#.utf8)
            let now = Int64(Date().timeIntervalSince1970)
            var answers: [String] = []
            for (secret, timestamp) in [(PGSimulator.randomWebhookSecret(), now), (keycat.paymentSimulator!.webhookSecret, now - 3_600)] {
                let signature = StandardWebhookSignature.sign(id: "msg_x", timestamp: timestamp, body: body, secret: secret)
                do {
                    _ = try await keycat.webhooks.receive(
                        headers: ["webhook-id": "msg_x", "webhook-timestamp": String(timestamp), "webhook-signature": signature],
                        body: body)
                    Issue.record("a bad webhook was accepted")
                } catch let error as KeyCatError {
                    answers.append(String(decoding: error.httpBody, as: UTF8.self))
                }
            }
            #expect(answers.count == 2 && answers[0] == answers[1], "\(answers)")
            #expect(log.lines.contains { $0.contains("no webhook signature matches") })
            #expect(log.lines.contains { $0.contains("too old") })
        }
    }
}

/// A log sink that keeps its lines, for tests.
final class RecordingLogSink: LogSink, Sendable {
    private let kept = Mutex<[String]>([])
    var lines: [String] { kept.withLock { $0 } }
    func write(_ line: String) { kept.withLock { $0.append(line) } }
}
