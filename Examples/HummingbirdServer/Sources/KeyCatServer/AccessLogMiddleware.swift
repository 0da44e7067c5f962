import Hummingbird
import KeyCatAPI
import Logging

/// One line per request, when it is answered: method, target as ``APIRequest/loggable(_:)``
/// keeps it (the query's names, not its values: `/users?email=…`), status and time taken.
/// Hummingbird's own request-logging middleware logs the whole URI, so an operator's look-up of a
/// person by email, or a buyer's search, would sit in the log for as long as it is kept.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var metadata: Logger.Metadata = [
            "hb.request.method": .string(request.method.rawValue),
            "hb.request.target": .string(APIRequest.loggable(request.uri.description)),
        ]
        do {
            let response = try await next(request, context)
            metadata["hb.response.status"] = .stringConvertible(response.status.code)
            metadata["duration_ms"] = .string(Self.milliseconds(since: started))
            context.logger.log(level: level, "answered", metadata: metadata)
            return response
        } catch {
            // Hummingbird turns the error into its answer (an `HTTPError`'s status, else 500).
            metadata["hb.response.status"] = .stringConvertible((error as? HTTPResponseError)?.status.code ?? 500)
            metadata["duration_ms"] = .string(Self.milliseconds(since: started))
            context.logger.log(level: level, "answered with an error", metadata: metadata)
            throw error
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
