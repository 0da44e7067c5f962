@testable import KeyCatAPI
import Testing

/// ``LRUTable`` on its own: both bounds hold after every insertion, the least recently used
/// value goes first, a read or a replacement makes a value the newest, and freed slots are
/// reused.
@Suite("LRU table: bounded by count and cost, dropping the least recently used")
struct LRUTableTests {
    enum Step {
        case insert(String, cost: Int)
        case read(String)
        case remove(String)
    }

    /// (steps, count limit, cost limit, the keys left from newest to oldest, their total cost)
    static let cases: [(String, [Step], Int, Int, [String], Int)] = [
        ("under both bounds, everything stays in the order used", [.insert("a", cost: 1), .insert("b", cost: 1), .insert("c", cost: 1)], 3, 10,
         ["c", "b", "a"], 3),
        ("one over the count drops the oldest", [.insert("a", cost: 1), .insert("b", cost: 1), .insert("c", cost: 1)], 2, 10,
         ["c", "b"], 2),
        ("a read saves the oldest", [.insert("a", cost: 1), .insert("b", cost: 1), .read("a"), .insert("c", cost: 1)], 2, 10,
         ["c", "a"], 2),
        ("over the cost, as many as needed go", [.insert("a", cost: 4), .insert("b", cost: 4), .insert("c", cost: 9)], 10, 10,
         ["c"], 9),
        ("a value over the whole cost is refused and its key's old value goes",
         [.insert("a", cost: 2), .insert("b", cost: 2), .insert("a", cost: 11)], 10, 10, ["b"], 2),
        ("a replacement is the newest, at its new cost", [.insert("a", cost: 2), .insert("b", cost: 2), .insert("a", cost: 5)], 10, 10,
         ["a", "b"], 7),
        ("a removal frees its slot and its cost", [.insert("a", cost: 3), .insert("b", cost: 3), .remove("a"), .insert("c", cost: 3)],
         2, 10, ["c", "b"], 6),
        ("reading the newest or a missing key changes nothing", [.insert("a", cost: 1), .insert("b", cost: 1), .read("b"), .read("z")],
         2, 10, ["b", "a"], 2),
        ("removing the newest, the oldest and the last keeps the list whole",
         [.insert("a", cost: 1), .insert("b", cost: 1), .insert("c", cost: 1), .remove("c"), .remove("a"), .remove("b"),
          .insert("d", cost: 1), .insert("e", cost: 1)], 5, 10, ["e", "d"], 2),
    ]

    @Test("the keys left and their cost", arguments: cases)
    func steps(_ name: String, _ steps: [Step], _ countLimit: Int, _ costLimit: Int, _ left: [String], _ cost: Int) {
        var table = LRUTable<String, Int>(countLimit: countLimit, costLimit: costLimit)
        for (position, step) in steps.enumerated() {
            switch step {
            case let .insert(key, cost): table.insert(position, for: key, cost: cost)
            case let .read(key): _ = table.value(for: key)
            case let .remove(key): table.removeValue(for: key)
            }
            #expect(table.count <= countLimit && table.totalCost <= costLimit, "\(name), after step \(position)")
        }
        #expect(table.keysByRecency == left, "\(name)")
        #expect(table.totalCost == cost, "\(name)")
        #expect(table.count == left.count, "\(name)")
    }

    @Test("a long run of insertions and reads keeps both bounds and the values they were given")
    func longRun() {
        var table = LRUTable<Int, Int>(countLimit: 50, costLimit: 400)
        var generator = SystemRandomNumberGenerator()
        for step in 0..<10_000 {
            let key = Int.random(in: 0..<200, using: &generator)
            if step % 3 == 0, let value = table.value(for: key) {
                #expect(value == key * 7)
                #expect(table.keysByRecency.first == key)
            } else {
                table.insert(key * 7, for: key, cost: Int.random(in: 1...20, using: &generator))
            }
            #expect(table.count <= 50 && table.totalCost <= 400)
        }
        #expect(Set(table.keysByRecency).count == table.count)
        #expect(table.evictions > 0)
    }
}
