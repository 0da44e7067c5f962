// The HTTP values KeyCat's public API speaks, reachable from `import KeyCat`:
// ``WebhookHTTPHandler`` is an `HTTPHandler` whose `handle(_:timeout:)` takes a `TransportRequest`
// and answers a `TransportResponse`, and the PG simulator delivers webhooks through an
// `HTTPTransport` (`InProcessTransport` in process, `URLSessionTransport` over HTTP). They are
// declared in the Infrastructure layer, which is not a product; these imports hand out only them.
// The names say "transport" so that a file importing KeyCat beside a web framework (Hummingbird,
// Vapor, swift-http-types: `HTTPRequest`, `HTTPResponse`, `HTTPMethod`) sees no clash.
@_exported import struct KeyCatInfrastructure.TransportRequest
@_exported import struct KeyCatInfrastructure.TransportResponse
@_exported import enum KeyCatInfrastructure.TransportMethod
@_exported import protocol KeyCatInfrastructure.HTTPHandler
@_exported import protocol KeyCatInfrastructure.HTTPTransport
@_exported import enum KeyCatInfrastructure.HTTPTransportError
@_exported import struct KeyCatInfrastructure.InProcessTransport
