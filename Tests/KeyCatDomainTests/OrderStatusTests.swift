import KeyCatDomain
import Testing

@Suite("Order state machine")
struct OrderStatusTests {
    /// architecture §2, written out by hand so the table in code is checked against the design.
    static let legal: Set<String> = [
        "awaiting_payment→paid", "awaiting_payment→expired", "awaiting_payment→cancelled", "awaiting_payment→failed",
        "paid→shipped", "shipped→delivered",
        "paid→partially_refunded", "shipped→partially_refunded", "delivered→partially_refunded",
        "paid→refunded", "shipped→refunded", "delivered→refunded",
        "partially_refunded→partially_refunded", "partially_refunded→refunded",
        "paid→cancelled",
    ]

    static let allMoves: [(OrderStatus, OrderStatus)] = OrderStatus.allCases.flatMap { from in
        OrderStatus.allCases.map { (from, $0) }
    }

    static func isLegal(_ move: (OrderStatus, OrderStatus)) -> Bool { legal.contains("\(move.0.rawValue)→\(move.1.rawValue)") }
    static let illegalMoves: [(OrderStatus, OrderStatus)] = allMoves.filter { !isLegal($0) }
    static let legalMoves: [(OrderStatus, OrderStatus)] = allMoves.filter { isLegal($0) }

    @Test("every move outside architecture §2 is an illegal-transition conflict", arguments: illegalMoves)
    func illegal(_ from: OrderStatus, _ to: OrderStatus) {
        #expect(!from.canMove(to: to))
        #expect(throws: KeyCatError.self) { try from.checkMove(to: to) }
        do {
            try from.checkMove(to: to)
        } catch {
            #expect(error.code == .illegalTransition)
            #expect(error.context["from"] == from.rawValue && error.context["to"] == to.rawValue)
        }
    }

    @Test("every move architecture §2 draws is allowed", arguments: legalMoves)
    func legal(_ from: OrderStatus, _ to: OrderStatus) throws {
        #expect(from.canMove(to: to))
        try from.checkMove(to: to)
    }

    @Test("expired, cancelled, failed and refunded are final")
    func finalStates() {
        for status in [OrderStatus.expired, .cancelled, .failed, .refunded] {
            #expect(OrderStatus.transitions[status]?.isEmpty == true)
        }
    }
}
