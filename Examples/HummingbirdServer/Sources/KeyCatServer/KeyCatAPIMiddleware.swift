import HTTPTypes
import Hummingbird
import KeyCatAPI
import NIOCore

/// KeyCatAPI mounted in Hummingbird: every request outside the server's own path prefixes is
/// judged by its head first (``KeyCatAPI/admit(_:)``: route, token, announced size and type),
/// refused without its body being buffered when the head is enough, and otherwise answered by
/// ``KeyCatAPI/respond(to:admitted:)`` with its body read up to that route's own limit.
/// (Hummingbird discards the unread rest of a refused body before the next request on the
/// connection.)
struct KeyCatAPIMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let api: KeyCatAPI
    /// Paths the server's own routes answer (e.g. the simulator's payment window).
    var ownPrefixes: [String] = []
    /// The proxies whose `X-Forwarded-For` names the client (`KEYCAT_TRUSTED_PROXIES`).
    var trustedProxies: TrustedProxies = .none

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if ownPrefixes.contains(where: request.uri.path.hasPrefix) { return try await next(request, context) }
        let headers = APIHeaders(request.headers.map { ($0.name.rawName, $0.value) })
        var apiRequest = APIRequest(
            method: APIMethod(request.method.rawValue), target: request.uri.description, headers: headers,
            clientAddress: trustedProxies.clientAddress(peer: context.remoteAddress?.ipAddress, headers: headers))
        let admission = await api.admit(apiRequest)
        if let refusal = admission.refusal { return Self.response(refusal) }
        if admission.bodyLimit > 0 {
            var request = request
            do {
                apiRequest.body = Array(buffer: try await request.collectBody(upTo: admission.bodyLimit))
            } catch let error as HTTPError where error.status == .contentTooLarge {
                return Self.response(admission.bodyTooLarge)
            }
        }
        return Self.response(await api.respond(to: apiRequest, admitted: admission))
    }

    static func response(_ answer: APIResponse) -> Response {
        var fields = HTTPFields()
        for field in answer.headers {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// The request context: Hummingbird's, plus the peer's address, which (or, behind a trusted proxy,
/// the client `X-Forwarded-For` names) throttling counts attempts by.
struct ServerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
