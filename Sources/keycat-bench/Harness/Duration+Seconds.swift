extension Duration {
    /// Seconds, for rates.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    /// Milliseconds, for tables.
    var milliseconds: Double { seconds * 1_000 }
}
