// The HTTP values KeyCat's public API speaks, reachable from `import KeyCat`:
// ``WebhookHTTPHandler`` is an `HTTPHandler` whose `handle(_:timeout:)` takes an `HTTPRequest`
// and answers an `HTTPResponse`, and the PG simulator delivers webhooks through an
// `HTTPTransport` (`InProcessTransport` in process, `URLSessionTransport` over HTTP). They are
// declared in the Infrastructure layer, which is not a product; these imports hand out only them.
@_exported import struct KeyCatInfrastructure.HTTPRequest
@_exported import struct KeyCatInfrastructure.HTTPResponse
@_exported import enum KeyCatInfrastructure.HTTPMethod
@_exported import protocol KeyCatInfrastructure.HTTPHandler
@_exported import protocol KeyCatInfrastructure.HTTPTransport
@_exported import enum KeyCatInfrastructure.HTTPTransportError
@_exported import struct KeyCatInfrastructure.InProcessTransport
