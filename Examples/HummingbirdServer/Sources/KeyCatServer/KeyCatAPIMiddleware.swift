import HTTPTypes
import Hummingbird
import KeyCatAPI
import NIOCore

/// KeyCatAPI mounted in Hummingbird: every request outside the server's own path prefixes is
/// handed to ``KeyCatAPI/respond(to:)`` as plain values, and its answer is written back as it is.
struct KeyCatAPIMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let api: KeyCatAPI
    /// Paths the server's own routes answer (e.g. the simulator's payment window).
    var ownPrefixes: [String] = []
    /// The largest body any route takes; a larger one is refused before it is read whole.
    let bodyLimit = KeyCatAPI.routes.map(\.body.limit).max() ?? 0

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if ownPrefixes.contains(where: request.uri.path.hasPrefix) { return try await next(request, context) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: bodyLimit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return Self.response(APIResponse(status: 413, headers: ["Content-Type": "application/json"],
                                             body: Array(#"{"code":"payload_too_large","message":"the body is too large"}"#.utf8)))
        }
        let answer = await api.respond(to: APIRequest(
            method: request.method.rawValue, target: request.uri.description,
            headers: HTTPHeaders(request.headers.map { ($0.name.rawName, $0.value) }),
            body: Array(buffer: body), clientAddress: context.remoteAddress?.ipAddress))
        return Self.response(answer)
    }

    static func response(_ answer: APIResponse) -> Response {
        var fields = HTTPFields()
        for field in answer.headers {
            if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// The request context: Hummingbird's, plus the peer's address, which log-in throttling counts
/// attempts by.
struct ServerContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
