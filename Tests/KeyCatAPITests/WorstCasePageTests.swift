import Foundation
import KeyCat
import KeyCatAPI
import Testing

/// The largest answer each list can give: a page of 100 whose every text field is at its cap, in
/// the characters that cost most in JSON: four bytes of UTF-8 each where control characters are
/// refused (a title), and a control character (six bytes of JSON, `\u0001`) where they are kept
/// (a description). The figures are in the README; this test builds those pages for real and holds them to
/// the stated bounds, so raising a cap without updating them fails here.
@Suite("Worst-case page sizes")
struct WorstCasePageTests {
    /// A four-byte character (MUSICAL SYMBOL G CLEF).
    static func widest(_ characters: Int) -> String { String(repeating: "\u{1D11E}", count: characters) }

    @Test("a page of 100 listings, each with the longest title and description and five images, stays under 1.5 MiB")
    func products() async throws {
        try await APITestServer.with { server in
            let seller = try await server.keycat.accounts.createUser(
                SignUpForm(email: "widest@example.com", password: "keycat123", nick: Self.widest(20)), role: .seller,
                by: .operatorConsole("tests"))
            let images = (0..<5).map { ImageUploadTests.png + [UInt8($0)] }
            for index in 0..<100 {
                var draft = ProductDraft(
                    kind: .commercial, category: .keyboard, title: Self.widest(ProductDraft.titleLength.upperBound),
                    content: String(repeating: "\u{1}", count: ProductDraft.maximumContentLength),
                    pricing: Pricing(regularPrice: Money(won: 99_999_999), salePrice: Money(won: 99_999_998)),
                    delivery: Delivery(fee: ProductDraft.defaultMaximumDeliveryFee, schedule: .nextDawn), stock: 1_000_000 - index)
                draft.spec = KeyboardSpec(input: .mechanical, connection: .multi, pcb: .hotSwap, switchType: .tactile,
                                          layout: .seventyFivePercent, keycapProfile: .cherry, backlight: true)
                _ = try await server.keycat.catalog.create(draft, for: seller.id, images: images, by: .operatorConsole("tests"))
            }
            let page = try await server.send("GET", "/products?limit=100")
            #expect(page.items.count == 100)
            let bytes = page.response.body.count
            print("worst-case page of 100 products: \(bytes) bytes")
            #expect(bytes < 3 << 19, "\(bytes) bytes")
            #expect(bytes > 100 * 12_000, "the page does hold the widest text (\(bytes) bytes)")
        }
    }

    @Test("a page of 100 followers with the widest nicks stays under 32 KiB")
    func followers() async throws {
        try await APITestServer.with { server in
            let followee = try await server.signedIn(.buyer, "followee")
            for index in 0..<100 {
                let user = try await server.keycat.accounts.createUser(
                    SignUpForm(email: "f\(index)@example.com", password: "keycat123", nick: Self.widest(20)), role: .buyer,
                    by: .operatorConsole("tests"))
                _ = try await server.keycat.follows.follow(UserID(rawValue: followee.id), by: Principal(userID: user.id, role: .buyer))
            }
            let followers = try await server.send("GET", "/users/\(followee.id)/followers?limit=100")
            #expect(followers.items.count == 100)
            print("worst-case page of 100 followers: \(followers.response.body.count) bytes")
            #expect(followers.response.body.count < 32 << 10)
        }
    }
}
