import Foundation
import KeyCatInfrastructure
import KeyCatPGSimulator

/// The baselines' side of the PG: the simulator's HTTP interface called directly with a token
/// fetched once, as KeyCat's client does it without its router, retries and logging. Shared by
/// the SQLite and Postgres baselines, whose checkouts differ only in their SQL.
struct RawGateway: Sendable {
    let simulator: PGSimulator
    let token: String

    /// Fetches a token the way KeyCat's client does (`POST /users/getToken`).
    static func signIn(to simulator: PGSimulator) async throws -> RawGateway {
        let credentials = simulator.credentials
        let body = try JSONSerialization.data(withJSONObject: ["imp_key": credentials.key, "imp_secret": credentials.secret])
        let response = try await simulator.handle(
            TransportRequest(method: .post, path: "/users/getToken", headers: ["Content-Type": "application/json"], body: body),
            timeout: .seconds(5))
        let envelope = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        guard let token = (envelope?["response"] as? [String: Any])?["access_token"] as? String else {
            throw RawDatabase.Failure(description: "no PG token")
        }
        return RawGateway(simulator: simulator, token: token)
    }

    /// Tells the PG the order's amount, then pays it with the test card that succeeds, as the
    /// buyer does in the PG's window. Returns the payment's `imp_uid`.
    func prepareAndPay(merchantUID: String, amount: Int64) async throws -> String {
        let prepare = try JSONSerialization.data(withJSONObject: ["merchant_uid": merchantUID, "amount": amount], options: [.sortedKeys])
        _ = try await call(.post, "/payments/prepare", body: prepare, idempotencyKey: "prepare-\(merchantUID)-\(amount)")
        return try simulator.pay(merchantUID: merchantUID, cardNumber: PGTestCard.success.number).impUID
    }

    /// Reads the payment back from the PG and checks it paid this order's amount, as `confirm` does.
    func verifyPaid(impUID: String, merchantUID: String, amount: Int64) async throws {
        let answer = try await call(.get, "/payments/\(impUID)")
        guard let payment = answer["response"] as? [String: Any], payment["status"] as? String == "paid",
              (payment["amount"] as? NSNumber)?.int64Value == amount, payment["merchant_uid"] as? String == merchantUID
        else { throw RawDatabase.Failure(description: "payment not paid") }
    }

    private func call(_ method: TransportMethod, _ path: String, body: Data = Data(), idempotencyKey: String? = nil) async throws -> [String: Any] {
        var headers = ["Authorization": token, "Content-Type": "application/json"]
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        let response = try await simulator.handle(TransportRequest(method: method, path: path, headers: headers, body: body), timeout: .seconds(5))
        guard response.status == 200, let envelope = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw RawDatabase.Failure(description: "PG answered \(response.status)")
        }
        return envelope
    }
}
