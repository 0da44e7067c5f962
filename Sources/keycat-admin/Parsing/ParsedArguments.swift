import Foundation

/// What the parser found for the selected command, with typed accessors that turn a bad value
/// into a ``UsageError`` naming the option.
struct ParsedArguments {
    /// The words that selected the command, e.g. `keycat-admin db check`.
    var commandPath: String
    /// Option values by name (without `--`).
    var options: [String: String] = [:]
    /// Flags that were given, by name.
    var flags: Set<String> = []
    /// Positional arguments in order.
    var positionals: [String] = []

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    func string(_ name: String) -> String? { options[name] }

    /// The value of `--name`, which must be given.
    func requiredString(_ name: String) throws(UsageError) -> String {
        guard let value = options[name] else {
            throw UsageError("missing --\(name)", commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as an integer within `range`, if given.
    func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text) else {
            throw UsageError("--\(name) takes a whole number, got '\(text)'", commandPath: commandPath)
        }
        if let range, !range.contains(value) {
            throw UsageError(
                "--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)",
                commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as a 64-bit integer, if given.
    func int64(_ name: String) throws(UsageError) -> Int64? {
        guard let text = options[name] else { return nil }
        guard let value = Int64(text) else {
            throw UsageError("--\(name) takes a whole number, got '\(text)'", commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as a row id (a positive whole number), if given.
    func id(_ name: String) throws(UsageError) -> Int64? {
        guard options[name] != nil else { return nil }
        return try requiredID(name)
    }

    /// The value of a required `--name` taking an id: a positive whole number.
    func requiredID(_ name: String) throws(UsageError) -> Int64 {
        let text = try requiredString(name)
        guard let value = Int64(text), value > 0 else {
            throw UsageError("--\(name) takes an id, a positive whole number, got '\(text)'", commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as a fraction from 0 to 1, if given.
    func probability(_ name: String) throws(UsageError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let value = Double(text), (0...1).contains(value) else {
            throw UsageError("--\(name) takes a number from 0 to 1, got '\(text)'", commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as one of `Choice`'s raw values, if given.
    func choice<Choice: RawRepresentable & CaseIterable>(
        _ name: String, as type: Choice.Type
    ) throws(UsageError) -> Choice? where Choice.RawValue == String {
        guard let text = options[name] else { return nil }
        guard let value = Choice(rawValue: text) else {
            let valid = Choice.allCases.map(\.rawValue)
            var message = "--\(name) must be one of \(valid.joined(separator: ", ")), got '\(text)'"
            if let near = closestMatch(to: text, in: valid) { message += "; did you mean '\(near)'?" }
            throw UsageError(message, commandPath: commandPath)
        }
        return value
    }

    /// The value of `--name` as an instant: `2026-11-01` (midnight in Asia/Seoul, the shop's
    /// day, as `stats` counts days) or a full ISO 8601 time with its zone
    /// (`2026-11-01T09:30:00Z`, `2026-11-01T18:30:00+09:00`).
    func date(_ name: String) throws(UsageError) -> Date? {
        guard let text = options[name] else { return nil }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let day = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "Asia/Seoul")!).year().month().day()
        if let date = try? Date(text, strategy: day) { return date }
        throw UsageError("--\(name) takes a date (2026-11-01, a day in Asia/Seoul) or an ISO 8601 time "
                         + "(2026-11-01T09:30:00Z), got '\(text)'", commandPath: commandPath)
    }

    /// The positional argument at `index` as a row id.
    func id(at index: Int, named name: String) throws(UsageError) -> Int64 {
        guard index < positionals.count else {
            throw UsageError("missing \(name)", commandPath: commandPath)
        }
        guard let value = Int64(positionals[index]), value > 0 else {
            throw UsageError("\(name) must be a positive whole number, got '\(positionals[index])'",
                             commandPath: commandPath)
        }
        return value
    }
}
