/// `--window-hours N`: how far back the commands that walk the PG's payments look, defined once
/// for `payments reconcile` and `db check --gateway`.
enum GatewayWindowOption {
    static let spec = OptionSpec(
        name: "window-hours", valueName: "N",
        help: "How far back to walk the PG's payments, in hours (1–8784, default 24).")

    /// The window in seconds.
    static func seconds(_ arguments: ParsedArguments) throws(UsageError) -> Double {
        Double(try arguments.int("window-hours", in: 1...8_784) ?? 24) * 60 * 60
    }
}
