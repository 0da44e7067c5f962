import Foundation
import KeyCat

/// The URL the PG posts its webhooks to. It answers as ``WebhookHTTPHandler`` does, so the PG
/// redelivers exactly when a later try can succeed.
enum WebhookRoutes {
    static let routes: [Route] = [
        Route(.post, "/webhooks/pg", .anyone, body: .raw(limit: 1 << 20)) { context in
            let headers = context.request.headers.lowercased
            do throws(KeyCatError) {
                _ = try await context.keycat.webhooks.receive(headers: headers, body: Data(context.request.body))
                return APIResponse(status: 200)
            } catch {
                return answer(refusing: error)
            }
        },
    ]

    /// What the PG is answered when its webhook was not taken: the status that makes it send
    /// again exactly when a later try can succeed, with `Retry-After` when KeyCat knows when
    /// (the notification budget's refill).
    static func answer(refusing error: KeyCatError) -> APIResponse {
        let status = WebhookHTTPHandler.status(for: error)
        if status == 200 { return APIResponse(status: 200) }
        var answer = APIResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(error.httpBody))
        if let retryAfter = error.context["retry_after"] { answer.headers["Retry-After"] = retryAfter }
        return answer
    }
}
