import Foundation
import Testing
@testable import KeyCatDomain

@Suite("Domain basics")
struct DomainBasicsTests {
    @Test("page limits are 1–100 with a default of 20", arguments: [0, 101, -1])
    func invalidLimit(limit: Int) {
        #expect(throws: KeyCatError.self) { try PageLimit(limit) }
    }

    @Test("valid page limits keep their value")
    func validLimit() throws {
        #expect(try PageLimit(1).value == 1)
        #expect(try PageLimit(100).value == 100)
        #expect(PageLimit.default.value == 20)
    }

    @Test("typed ids of different entities are different types with the same raw value")
    func identifiers() throws {
        let product = ProductID(7)
        #expect(product.description == "7")
        #expect(ProductID(3) < product)
        let encoded = try JSONEncoder().encode(product)
        #expect(String(decoding: encoded, as: UTF8.self) == "7")
        #expect(try JSONDecoder().decode(ProductID.self, from: encoded) == product)
    }

    @Test("the test clock stands still until moved")
    func testClock() {
        let clock = TestClock()
        let start = clock.now()
        #expect(clock.now() == start)
        clock.advance(by: 90)
        #expect(clock.now().timeIntervalSince(start) == 90)
    }

    @Test("errors describe themselves with their code and context")
    func errorDescription() {
        let error = KeyCatError.validation("nick", "nick must be 2–20 characters")
        #expect(error.code == .validation)
        #expect(error.description == "validation: nick must be 2–20 characters [field=nick]")
    }
}
