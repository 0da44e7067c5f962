import Foundation
import Hummingbird
import KeyCatAPI
import NIOCore

/// The console's session: signing in and out through the API's own routes, and the dashboard's
/// reconciliation status, which only an operator's session may read.
extension AdminConsoleMiddleware {
    func session(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        switch request.method {
        case .get:
            // Nobody signed in is an answer, not an error: the page asks this on every load.
            guard exchange.cookie(AdminCookie.access) != nil || exchange.cookie(AdminCookie.refresh) != nil else {
                return AdminExchange.json(["signed_in": false])
            }
            var response = try await forward(request, exchange, to: "/me")
            if Self.refusesToken(response.status.code) {
                response.status = .ok
                response.body = .init(byteBuffer: ByteBuffer(string: #"{"signed_in":false}"#))
            }
            return response
        case .post:
            if let refusal = exchange.csrfRefusal() { return refusal }
            var request = request
            let body = exchange.withDeviceToken(Array(buffer: try await request.collectBody(upTo: 64 * 1024)))
            let answer = await api.respond(to: exchange.apiRequest(.post, "/sessions", body: body, contentType: "application/json"))
            guard answer.status == 200, let pair = AdminTokenPair(answer.body) else { return AdminExchange.response(answer) }
            var headers = HTTPFields()
            // The device token counts this browser's failed log-ins apart from a stranger's, so
            // guessers elsewhere cannot lock the operator out; it outlives the session.
            exchange.setDeviceToken(from: answer.body, on: &headers)
            guard pair.role == "admin" else {
                // A buyer or seller gets a clear refusal, and no session: the one just made ends here.
                _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": pair.refreshToken]))
                var refusal = AdminExchange.problem(403, "not_an_operator",
                                                    "the console is for operators; this account is a \(pair.role), not an admin")
                refusal.headers.append(contentsOf: headers)
                return refusal
            }
            var response = AdminExchange.json(["user_id": pair.userID, "role": pair.role])
            response.headers.append(contentsOf: headers)
            exchange.setSession(pair, on: &response.headers)
            exchange.renewCSRF(on: &response.headers)
            return response
        default:
            return AdminExchange.problem(405, "method_not_allowed", "\(request.method) is not allowed on /admin/session")
        }
    }

    func logOut(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        guard request.method == .post else {
            return AdminExchange.problem(405, "method_not_allowed", "\(request.method) is not allowed on /admin/session/logout")
        }
        if let refusal = exchange.csrfRefusal() { return refusal }
        if let refresh = exchange.cookie(AdminCookie.refresh) {
            _ = await api.respond(to: exchange.apiRequest(.post, "/sessions/logout", json: ["refresh_token": refresh]))
        }
        var response = Response(status: .noContent)
        exchange.clearSession(on: &response.headers)
        return response
    }

    /// The last reconciliation run, once the session proves to be an operator's (the API's
    /// `GET /me`, refreshed as any request is): its counts and errors are the shop's, not a
    /// buyer's who put an API token of theirs in the console's cookie.
    func reconciliationStatus(_ request: Request, _ exchange: AdminExchange) async throws -> Response {
        let me: (answer: APIResponse, renewed: AdminTokenPair?)
        switch await call(exchange.apiRequest(.get, "/me"), exchange) {
        case let .answered(answer, renewed): me = (answer, renewed)
        case let .instead(response): return response
        }
        guard me.answer.status == 200 else { return answer(me.answer, renewed: me.renewed, exchange) }
        let role = (try? JSONSerialization.jsonObject(with: Data(me.answer.body)) as? [String: Any])?["role"] as? String
        var response = role == "admin" ? AdminExchange.json(reconciliation.json)
            : AdminExchange.problem(403, "not_an_operator", "reconciliation is the operators' to see")
        if let renewed = me.renewed { exchange.setSession(renewed, on: &response.headers) }
        return response
    }
}
