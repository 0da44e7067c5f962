// The logging port, reachable from `import KeyCat`: ``KeyCat/Configuration/gatewayLog`` takes a
// `LogSink`, so a server embedding KeyCat names the protocol to route KeyCat's lines into its
// own logger (swift-log's `Logger`, say), or picks one of the sinks below. The declarations live
// in the Infrastructure layer, which is not a product; these imports hand out only them.
@_exported import protocol KeyCatInfrastructure.LogSink
@_exported import struct KeyCatInfrastructure.StandardErrorLogSink
@_exported import struct KeyCatInfrastructure.DiscardingLogSink
@_exported import class KeyCatInfrastructure.CapturingLogSink
// The transport that posts the bundled PG simulator's webhooks to a server's own webhook URL
// over HTTP (``PGSimulator/registerWebhookReceiver(_:path:)``), as a real PG would.
@_exported import struct KeyCatInfrastructure.URLSessionTransport
