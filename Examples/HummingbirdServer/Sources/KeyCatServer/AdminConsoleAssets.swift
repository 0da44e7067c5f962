import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's files (`Examples/HummingbirdServer/Console`, or `KEYCAT_CONSOLE_DIR`), read
/// once at start: a handful of small files in the repository, no build step. `/admin/` is
/// `index.html`, which also hands the page its CSRF cookie; a name outside the folder's own
/// files is 404.
struct AdminConsoleAssets: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var etag: String
    }

    let files: [String: File]

    /// The folder beside this package's sources, where the repository keeps the console.
    static var defaultDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Console")
    }

    init(directory: URL) throws {
        var files: [String: File] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names where !name.hasPrefix(".") {
            guard let type = Self.contentTypes[(name as NSString).pathExtension] else { continue }
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            files[name] = File(bytes: bytes, contentType: type, etag: "\"\(String(hash, radix: 16))\"")
        }
        guard files["index.html"] != nil else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: directory.appendingPathComponent("index.html").path])
        }
        self.files = files
    }

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "json": "application/json",
    ]

    func response(for name: String, exchange: AdminExchange) -> Response {
        let name = name.isEmpty ? "index.html" : name
        guard let file = files[name] else {
            return AdminExchange.problem(404, "route_not_found", "no console file \(name)")
        }
        var headers: HTTPFields = [.contentType: file.contentType, .eTag: file.etag, .cacheControl: "no-cache"]
        if name == "index.html" { exchange.csrfCookieIfMissing(on: &headers) }
        if exchange.ifNoneMatch == file.etag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
