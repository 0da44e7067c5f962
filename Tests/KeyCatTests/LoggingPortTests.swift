import Foundation
import KeyCat
import Synchronization
import Testing

/// A server's own sink, written with nothing but `import KeyCat` in this file: the logging port
/// is public there, so an embedding server routes KeyCat's lines into its own logger.
final class ServerLogSink: LogSink {
    private let kept = Mutex<[String]>([])

    func write(_ line: String) { kept.withLock { $0.append(line) } }

    var lines: [String] { kept.withLock { $0 } }
}

/// The store plays no part: these check where the PG client's lines go.
@Suite("The logging port, from import KeyCat")
struct LoggingPortTests {
    @Test("a server's own sink gets the PG exchanges of a checkout, with the PG's secret masked")
    func serverSinkGetsGatewayLines() async throws {
        let sink = ServerLogSink()
        try await TestShop.with(configure: { $0.gatewayLog = sink }) { shop in
            let seller = try await shop.user(.seller)
            let product = try await shop.keycat.catalog.create(TestShop.draft(), for: seller.userID, images: [], by: seller)
            let buyer = try await shop.user(.buyer)
            let order = try await shop.keycat.checkout.checkout(
                CheckoutRequest(.items([CheckoutItem(productID: product.id, quantity: 1)]), idempotencyKey: nil), by: buyer)
            #expect(order.status == .awaitingPayment)
        }
        #expect(sink.lines.contains { $0.contains("path=/users/getToken") }, "\(sink.lines)")
        #expect(sink.lines.contains { $0.contains("path=/payments/prepare") }, "\(sink.lines)")
        #expect(!sink.lines.joined().contains("imp_test_secret_do_not_log"))
    }

    @Test("the sinks KeyCat ships are reachable too")
    func shippedSinks() {
        var configuration = KeyCat.Configuration(databasePath: ":memory:")
        configuration.gatewayLog = DiscardingLogSink()
        #expect(!configuration.gatewayLog.isEnabled)
        configuration.gatewayLog = StandardErrorLogSink()
        #expect(configuration.gatewayLog.isEnabled)
        let capturing = CapturingLogSink()
        capturing.write("one line")
        #expect(capturing.lines == ["one line"])
    }
}
