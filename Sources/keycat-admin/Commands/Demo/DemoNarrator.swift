import Foundation

/// Tells the demo's story: numbered steps in plain words on a terminal, or, with `--json`, the
/// same steps collected into one summary object printed at the end.
final class DemoNarrator {
    /// One step as told.
    struct Step {
        var number: Int
        var title: String
        var details: [String]
    }

    private let context: CommandContext
    private(set) var steps: [Step] = []

    init(context: CommandContext) { self.context = context }

    /// Tells step N: a short title (what happens) and a few lines (what it did and why it
    /// matters). Printed at once in human mode so a slow step shows where it is.
    func step(_ title: String, _ details: [String]) {
        let step = Step(number: steps.count + 1, title: title, details: details)
        steps.append(step)
        guard !context.json else { return }
        var text = "\n\(step.number). \(title)\n"
        for line in details {
            text += line.split(separator: "\n", omittingEmptySubsequences: false).map { "   \($0)" }.joined(separator: "\n") + "\n"
        }
        context.console.print(text)
    }

    /// A line outside the numbered steps (the opening and the closing), human mode only.
    func say(_ text: String) {
        if !context.json { context.console.print(text) }
    }

    /// The steps as JSON: `[{"step": 1, "title": "…", "details": ["…"]}, …]`.
    var json: JSONValue {
        .array(steps.map { step in
            .object([
                ("step", .int(step.number)), ("title", .string(step.title)),
                ("details", .array(step.details.map(JSONValue.string))),
            ])
        })
    }
}
