import Foundation
internal import KeyCatInfrastructure

/// Type-checks Swift source as a client of a built package would compile it: with the search
/// paths, C module maps and language mode SwiftPM used for one of that package's modules (read
/// from the build plan `.build/debug.yaml`), but without its package name, so `package`
/// declarations stay out of reach as they are for any other package.
///
/// Used by the tests that hold the documentation and the public surface to what compiles.
public struct SwiftTypeChecker: Sendable {
    /// The compiler SwiftPM ran.
    public let compiler: String
    /// The flags kept from SwiftPM's command: `-I`, `-D`, `-target`, `-swift-version`,
    /// `-module-cache-path`, and every `-Xcc`/`-Xfrontend` pair.
    public let flags: [String]

    /// The build, a plan or a tool is missing, with what to do about it.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The flags SwiftPM used for `module` in the debug build whose plan is `buildPlan`.
    public init(buildPlan: URL, module: String) throws {
        guard let plan = try? String(contentsOf: buildPlan, encoding: .utf8) else {
            throw Unavailable(description: "no build plan at \(buildPlan.path): build the package first")
        }
        let lines = plan.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: {
            $0.hasPrefix("  \"C.\(module)-") && $0.hasSuffix("-debug.module\":")
        }) else {
            throw Unavailable(description: "the build plan \(buildPlan.path) compiles no module \(module)")
        }
        guard let argsLine = lines[(start + 1)...].prefix(while: { !$0.isEmpty }).first(where: {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("args: ")
        }) else {
            throw Unavailable(description: "the build plan gives no command for \(module)")
        }
        let json = argsLine.trimmingCharacters(in: .whitespaces).dropFirst("args: ".count)
        guard let arguments = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String],
              let compiler = arguments.first else {
            throw Unavailable(description: "the build plan's command for \(module) is not a list of arguments")
        }
        self.compiler = compiler
        self.flags = Self.clientFlags(Array(arguments.dropFirst()))
    }

    /// The flags that say where modules are and what they are built for, which tools other
    /// than the compiler (`swift-symbolgraph-extract`) take too.
    public var searchFlags: [String] {
        Self.clientFlags(flags, keeping: ["-I", "-target", "-module-cache-path", "-Xcc"], singles: ["-I"])
    }

    static func clientFlags(
        _ arguments: [String],
        keeping withValue: Set<String> = ["-I", "-D", "-target", "-swift-version", "-module-cache-path", "-Xcc", "-Xfrontend"],
        singles: [String] = ["-I", "-D"]
    ) -> [String] {
        var kept: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if withValue.contains(argument), index + 1 < arguments.endIndex {
                kept += [argument, arguments[index + 1]]
                index += 2
                continue
            }
            if singles.contains(where: argument.hasPrefix) { kept.append(argument) }
            index += 1
        }
        return kept
    }

    /// The compiler's diagnostics for `files`, type-checked together (no code is generated).
    public func diagnostics(typeChecking files: [URL]) throws -> Diagnostics {
        let checking = try ChildProcess(
            compiler, ["-typecheck", "-parse-as-library", "-module-name", "Checked"] + flags + files.map(\.path),
            standardOutput: .pipe, standardError: .standardOutput)
        let finished = checking.finish()
        return Diagnostics(exitStatus: finished.termination.exitStatus ?? -1, text: String(decoding: finished.output, as: UTF8.self))
    }

    /// What the compiler said.
    public struct Diagnostics: Sendable {
        public var exitStatus: Int32
        public var text: String

        /// The `error:` and `warning:` lines, with the notes that follow each.
        public var problems: [String] {
            text.split(separator: "\n").filter { $0.contains(" error: ") || $0.contains(" warning: ") }.map(String.init)
        }
    }
}
