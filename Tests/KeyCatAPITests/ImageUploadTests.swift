import Foundation
import KeyCat
import KeyCatAPI
import KeyCatTestSupport
import Testing

@Suite("Image upload")
struct ImageUploadTests {
    /// A 640 × 480 PNG's signature and `IHDR`, and some bytes.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 2, 0x80, 0, 0, 1, 0xE0, 8, 2, 0, 0, 0] + [0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: 1, count: 64)

    func upload(_ server: APITestServer, _ bytes: [UInt8], to id: Int64, type: String = "image/png", version: Int64? = nil,
                token: String) async -> Answer {
        let target = "/products/\(id)/images" + (version.map { "?version=\($0)" } ?? "")
        return Answer(response: await server.api.respond(to: APIRequest(
            method: "POST", target: target, headers: ["Content-Type": type, "Authorization": "Bearer \(token)"], body: bytes)))
    }

    @Test("a seller adds images to a listing up to five; a stale version, a non-image, another type or someone else is refused", arguments: TestStore.allCases)
    func upload(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "maker")
            let created = try await server.send("POST", "/products", json: APITestServer.productJSON(), token: seller.token)
            let id = try #require(created.int("id"))
            let version = try #require(created.int("version"))

            let added = await upload(server, Self.png, to: id, version: version, token: seller.token)
            #expect(added.status == 200, "\(added)")
            let images = added["images"] as? [[String: Any]]
            #expect(images?.count == 1 && images?.first?["format"] as? String == "png", "\(added)")
            #expect(added.int("version") == version + 1)

            let stale = await upload(server, Self.png, to: id, version: version, token: seller.token)
            #expect(stale.status == 409 && stale.code == "version_conflict", "\(stale)")
            let text = await upload(server, Array("not an image at all".utf8), to: id, token: seller.token)
            #expect(text.status == 400 && text.field == "images", "\(text)")
            let svg = await upload(server, Self.png, to: id, type: "image/svg+xml", token: seller.token)
            #expect(svg.status == 415, "\(svg)")
            let rival = try await server.signedIn(.seller, "rival")
            let theirs = await upload(server, Self.png, to: id, token: rival.token)
            #expect(theirs.status == 403, "\(theirs)")

            for _ in 0..<4 { #expect(await upload(server, Self.png, to: id, token: seller.token).status == 200) }
            let sixth = await upload(server, Self.png, to: id, token: seller.token)
            #expect(sixth.status == 400 && sixth.field == "images", "\(sixth)")
            let listing = try await server.send("GET", "/products/\(id)")
            #expect((listing["images"] as? [Any])?.count == 5)

            // The images are served by their file name, with their media type.
            let fileName = try #require((listing["images"] as? [[String: Any]])?.first?["file_name"] as? String)
            let image = try await server.send("GET", "/images/\(fileName)")
            #expect(image.status == 200 && image.response.body == Self.png)
            #expect(image.response.headers["content-type"] == "image/png")
            let missing = try await server.send("GET", "/images/\(String(repeating: "0", count: 64)).png")
            #expect(missing.status == 404, "\(missing)")
            // A name that is not `{sha256}.{format}` is a bad request, whatever is stored.
            for name in ["x.png", "notes.txt", String(repeating: "A", count: 64) + ".png"] {
                let answer = try await server.send("GET", "/images/\(name)")
                #expect(answer.status == 400 && answer["field"] as? String == "file_name", "\(name): \(answer)")
            }
            #expect(try await server.send("GET", "/images/a%2Fb").status == 404)
            #expect(try await server.send("GET", "/images/..").status == 404, "a dot segment names no path")
        }
    }

    @Test("a listing can be created with its images as base64", arguments: TestStore.allCases)
    func createWithImages(_ store: TestStore) async throws {
        try await APITestServer.with(store) { server in
            let seller = try await server.signedIn(.seller, "maker")
            var json = APITestServer.productJSON()
            json["images"] = [Data(Self.png).base64EncodedString()]
            let created = try await server.send("POST", "/products", json: json, token: seller.token)
            #expect(created.status == 201 && (created["images"] as? [Any])?.count == 1, "\(created)")
        }
    }
}
