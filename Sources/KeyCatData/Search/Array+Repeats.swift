extension Array where Element: Equatable {
    /// Drops each element equal to the one before it: on a sorted array, every repeat.
    mutating func removeAdjacentRepeats() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            swapAt(kept, index)
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension Array where Element: Comparable {
    /// Sorts, each element once: for a few elements, cheaper than hashing them into a set.
    mutating func sortDroppingRepeats() {
        sort()
        removeAdjacentRepeats()
    }
}
