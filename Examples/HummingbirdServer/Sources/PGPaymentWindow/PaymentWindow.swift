import Foundation
import Hummingbird
import KeyCatPGSimulator
import Logging
import ServiceLifecycle

/// The PG simulator's payment window: the page a buyer pays in after checkout, for an order's
/// `merchant_uid`, under a prefix (`/pg/` beside the example server, `/sandbox/` in the sandbox).
///
/// - `GET {prefix}payments/{merchant_uid}`: opens the window, which is when the PG's payment
///   appears (v1), and shows the page (amount, a card number field, the test cards).
/// - `POST {prefix}payments/{merchant_uid}` with `{"card_number": "4242 4242 4242 4242"}` (or the
///   page's form): pays with that card; answers the attempt as JSON — `imp_uid`, `status` (`paid`
///   or `failed`), `failure_reason`, `amount`, `card_last4` — for the app to confirm with. 404 when
///   nothing is prepared for the merchant UID, 409 when it is already paid. After a failed
///   attempt the buyer may try again, for the same amount.
/// - `POST {prefix}payments/{merchant_uid}/cancel`: the buyer closes the window without paying;
///   the ready attempt fails ("사용자가 결제를 취소하셨습니다") and a webhook goes out. Answers the
///   attempt, 404 when none is open.
public enum PaymentWindow {
    /// Mounts the window at `prefix` (`/pg/`: a leading and a trailing slash).
    public static func add<Context: RequestContext>(to router: Router<Context>, simulator: PGSimulator, prefix: String) {
        let base = String(prefix.dropFirst())
        router.get("\(base)payments/:merchant_uid") { _, context -> Response in
            let merchantUID = try context.parameters.require("merchant_uid")
            do {
                // Opening the window is what makes the payment appear at the PG (v1).
                guard let payment = try await blocking(on: simulator, { try simulator.openWindow(merchantUID: merchantUID) }) else {
                    return notFound(merchantUID)
                }
                return html(page(payment, prefix: prefix))
            } catch PGSimulatorError.alreadyPaid {
                return json(["code": "already_paid", "message": "\(merchantUID) is already paid"], status: .conflict)
            }
        }
        router.post("\(base)payments/:merchant_uid/cancel") { _, context -> Response in
            let merchantUID = try context.parameters.require("merchant_uid")
            guard let failed = try await blocking(on: simulator, { try simulator.cancelWindow(merchantUID: merchantUID) }) else {
                return json(["code": "payment_not_found", "message": "no payment window is open for \(merchantUID)"], status: .notFound)
            }
            return json(attempt(failed))
        }
        router.post("\(base)payments/:merchant_uid") { request, context -> Response in
            let merchantUID = try context.parameters.require("merchant_uid")
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: 4096))
            guard let cardNumber = cardNumber(in: body) else {
                return json(["code": "validation", "message": "card_number is required"], status: .badRequest)
            }
            do {
                // The amount the window shows, which the merchant prepared: after a failed attempt
                // the buyer tries again for the same amount.
                let paid = try await blocking(on: simulator) { () throws -> PGPaymentRecord? in
                    guard let prepared = simulator.prepared(merchantUID: merchantUID) else { return nil }
                    return try simulator.pay(merchantUID: merchantUID, cardNumber: cardNumber, amount: prepared.amount)
                }
                guard let payment = paid else { return notFound(merchantUID) }
                return json(attempt(payment))
            } catch PGSimulatorError.alreadyPaid {
                return json(["code": "already_paid", "message": "\(merchantUID) is already paid"], status: .conflict)
            } catch {
                return json(["code": "simulator", "message": "\(error)"], status: .internalServerError)
            }
        }
    }

    /// Runs `body`, which blocks (the simulator writes its own SQLite file and waits for the
    /// disk), on the simulator's own threads, so a payment holds no thread of the pool that the
    /// server's other requests share. (Not `DispatchQueue.global()`: on Linux, Swift's tasks run
    /// on those same threads.)
    private static func blocking<Value: Sendable>(
        on simulator: PGSimulator, _ body: () throws -> Value
    ) async throws -> Value {
        try await withTaskExecutorPreference(simulator.storageExecutor) { try body() }
    }

    /// The attempt as the window answers it.
    static func attempt(_ payment: PGPaymentRecord) -> [String: Any] {
        [
            "imp_uid": payment.impUID, "merchant_uid": payment.merchantUID, "amount": payment.amount,
            "status": payment.status.rawValue, "failure_reason": payment.failureReason ?? NSNull(),
            "card_last4": payment.cardLast4 ?? NSNull(),
        ]
    }

    /// `card_number` from a JSON object or a form body.
    static func cardNumber(in body: String) -> String? {
        if let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] {
            return object["card_number"] as? String
        }
        for pair in body.split(separator: "&") where pair.hasPrefix("card_number=") {
            let value = pair.dropFirst("card_number=".count).replacingOccurrences(of: "+", with: " ")
            return value.removingPercentEncoding
        }
        return nil
    }

    static func notFound(_ merchantUID: String) -> Response {
        json(["code": "payment_not_found", "message": "nothing is prepared for \(merchantUID)"], status: .notFound)
    }

    static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func html(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func page(_ payment: PGPaymentRecord, prefix: String) -> String {
        let merchantUID = payment.merchantUID.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        let cards = PGTestCard.allCases.map { "<li><code>\($0.number)</code> \($0.failureReason ?? "approved")</li>" }.joined()
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>KeyCat PG simulator</title></head><body>
            <h1>Pay \(payment.amount) won</h1><p>Order \(merchantUID), status \(payment.status.rawValue).</p>
            <form method="post" action="\(prefix)payments/\(merchantUID)">
            <label>Card number <input name="card_number" autocomplete="off"></label> <button>Pay</button></form>
            <p>Test cards:</p><ul>\(cards)</ul></body></html>
            """
    }
}

/// Posts the simulator's webhooks to its registered receiver over HTTP, as a real PG would, every
/// `interval` until the server shuts down. An unacknowledged webhook is tried again.
public struct SimulatorWebhookDelivery: Service {
    let simulator: PGSimulator
    let interval: Duration
    let logger: Logger

    public init(simulator: PGSimulator, interval: Duration = .milliseconds(250), logger: Logger) {
        self.simulator = simulator
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let delivered = await simulator.deliverPendingWebhooks()
                if delivered > 0 { logger.debug("delivered \(delivered) simulator webhooks") }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
