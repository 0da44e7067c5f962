import Testing
@testable import KeyCatDomain

@Suite("Money")
struct MoneyTests {
    @Test("adds, subtracts and multiplies won")
    func arithmetic() throws {
        let price = Money(won: 129_000)
        #expect(try price + Money(won: 3_000) == Money(won: 132_000))
        #expect(try price - Money(won: 29_000) == Money(won: 100_000))
        #expect(try price * 3 == Money(won: 387_000))
        #expect(try Money.sum([price, price]) == Money(won: 258_000))
    }

    @Test("overflow is a validation error, never a wrap or a trap")
    func overflow() {
        let huge = Money(won: .max)
        #expect(throws: KeyCatError.self) { try huge + Money(won: 1) }
        #expect(throws: KeyCatError.self) { try Money(won: .min) - Money(won: 1) }
        #expect(throws: KeyCatError.self) { try huge * 2 }
        do {
            _ = try huge * 2
        } catch {
            #expect(error.code == .validation)
            #expect(error.context["field"] == "amount")
        }
    }

    @Test("prints grouped won")
    func description() {
        #expect(Money(won: 129_000).description == "₩129,000")
        #expect(Money(won: 1_000_000).description == "₩1,000,000")
        #expect(Money(won: 999).description == "₩999")
        #expect(Money(won: -5_000).description == "-₩5,000")
    }
}
