/// A table bounded twice, by how many values it holds and by the sum of their costs, which
/// makes room by dropping the values used least recently: whoever adds entries can push out
/// only the coldest, never grow the table past its bounds.
///
/// Every operation is O(1): the values sit in slots of one array, threaded on a list from the
/// most to the least recently used by slot index, and a dictionary finds a key's slot. A slot
/// freed by a removal is reused by the next insertion.
struct LRUTable<Key: Hashable, Value> {
    private struct Slot {
        /// Nil in a free slot, so a removed key or value is not kept alive.
        var key: Key?
        var value: Value?
        var cost: Int
        /// The slot used just after this one (towards the newest), or -1.
        var newer: Int
        /// The slot used just before this one (towards the oldest), or -1.
        var older: Int
    }

    /// At most this many values are kept.
    let countLimit: Int
    /// The costs of the values kept add up to at most this.
    let costLimit: Int
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1
    /// The sum of the costs of the values kept.
    private(set) var totalCost = 0
    /// How many values were dropped to make room, since the table was made.
    private(set) var evictions = 0

    init(countLimit: Int, costLimit: Int) {
        precondition(countLimit > 0 && costLimit > 0, "an LRU table holds at least one value")
        self.countLimit = countLimit
        self.costLimit = costLimit
    }

    /// How many values are kept.
    var count: Int { index.count }

    /// The keys from the most to the least recently used.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            if let key = slots[slot].key { keys.append(key) }
            slot = slots[slot].older
        }
        return keys
    }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        return slots[slot].value
    }

    /// Keeps `value` for `key` as the most recently used, replacing the key's old value, then
    /// drops the least recently used values until both bounds hold. A value that costs more than
    /// ``costLimit`` on its own is not kept (and the key's old value goes).
    ///
    /// - Returns: whether the value is kept.
    @discardableResult
    mutating func insert(_ value: Value, for key: Key, cost: Int) -> Bool {
        removeValue(for: key)
        guard cost <= costLimit else { return false }
        while count >= countLimit || totalCost + cost > costLimit, oldest >= 0 {
            remove(slot: oldest)
            evictions += 1
        }
        let slot: Int
        let fresh = Slot(key: key, value: value, cost: cost, newer: -1, older: newest)
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = fresh
        } else {
            slot = slots.count
            slots.append(fresh)
        }
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
        return true
    }

    /// Drops the value for `key`, if any.
    mutating func removeValue(for key: Key) {
        if let slot = index[key] { remove(slot: slot) }
    }

    /// Drops every value (the bounds stay, and so does the count of evictions).
    mutating func removeAll() {
        slots.removeAll()
        freeSlots.removeAll()
        index.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    private mutating func remove(slot: Int) {
        unlink(slot)
        if let key = slots[slot].key { index[key] = nil }
        totalCost -= slots[slot].cost
        slots[slot] = Slot(key: nil, value: nil, cost: 0, newer: -1, older: -1)
        freeSlots.append(slot)
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    /// Takes `slot` off the recency list, joining its neighbours.
    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }
}
