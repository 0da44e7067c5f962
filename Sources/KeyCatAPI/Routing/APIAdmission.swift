import KeyCat

/// What ``KeyCatAPI/admit(_:)`` decided from a request's head.
public struct APIAdmission: Sendable {
    /// The answer to send at once, without reading the body (404, 405, 401, 403, 419, 413, 415,
    /// 400 for the query);
    /// nil when the request may go on.
    public let refusal: APIResponse?
    /// The most body bytes to read for the matched route; 0 when it takes no body (one sent
    /// anyway need not be read) or the request is refused.
    public var bodyLimit: Int { route?.body.limit ?? 0 }
    /// The 413 to send when the body turns out longer than ``bodyLimit`` while it is read (a
    /// chunked body, or one longer than its `Content-Length` said).
    public var bodyTooLarge: APIResponse { KeyCatAPI.finished(KeyCatAPI.tooLarge(route?.body ?? .none), method: route?.method ?? .post) }
    let route: Route?
    let parameters: [String: String]
    let caller: Principal?

    init(refusal: APIResponse) {
        self.refusal = refusal
        route = nil
        parameters = [:]
        caller = nil
    }

    init(route: Route, parameters: [String: String], caller: Principal?) {
        refusal = nil
        self.route = route
        self.parameters = parameters
        self.caller = caller
    }
}
