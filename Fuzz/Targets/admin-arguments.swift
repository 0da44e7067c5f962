// `keycat-admin`'s command line is typed by people and scripts: any words at all. The input is
// the words separated by NUL bytes, as the kernel hands them over.
// Contract: a command line parses to a command, help or the version, or throws a `UsageError`;
// a parsed command validates its arguments or throws a `UsageError`, before any work. A parsed
// command line written back in its plain spelling (`--name=value`, then `--` and the
// positionals) parses to the same command and arguments.
import Foundation
@testable import keycat_admin

private let parser = CommandLineParser(root: RootCommand.self)

/// The plain spelling of a parsed command line.
private func words(of parsed: ParsedArguments, globals: GlobalSettings) -> [String] {
    var words = Array(parsed.commandPath.split(separator: " ").dropFirst().map(String.init))
    words += parsed.options.sorted { $0.key < $1.key }.map { "--\($0.key)=\($0.value)" }
    words += parsed.flags.sorted().map { "--\($0)" }
    if let database = globals.databasePath { words.append("--db=\(database)") }
    if globals.json { words.append("--json") }
    if !parsed.positionals.isEmpty { words += ["--"] + parsed.positionals }
    return words
}

@_cdecl("LLVMFuzzerTestOneInput")
public func adminArgumentsFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let line = bytes.isEmpty ? [] : bytes.split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let result: ParseResult
    do {
        result = try parser.parse(line)
    } catch {
        FuzzContract.expect(!error.message.isEmpty && error.commandPath.hasPrefix("keycat-admin"),
                            "a usage error says what and for which command")
        return 0
    }
    switch result {
    case let .help(command, commandPath):
        FuzzContract.expect(!HelpFormatter.help(for: command, commandPath: commandPath).isEmpty, "help says something")
    case .version:
        break
    case let .run(command, parsed, globals):
        do {
            _ = try command.init(parsing: parsed)
        } catch {
            FuzzContract.expect(!error.message.isEmpty, "a usage error says what")
        }
        let again = try? parser.parse(words(of: parsed, globals: globals))
        guard case let .run(sameCommand, sameParsed, sameGlobals)? = again else {
            FuzzContract.expect(false, "the plain spelling of \(line) does not parse to a command")
            return 0
        }
        FuzzContract.expect(ObjectIdentifier(sameCommand) == ObjectIdentifier(command), "same command")
        FuzzContract.expect(sameParsed.commandPath == parsed.commandPath && sameParsed.options == parsed.options
                            && sameParsed.flags == parsed.flags && sameParsed.positionals == parsed.positionals,
                            "same arguments")
        FuzzContract.expect(sameGlobals == globals, "same global options")
    }
    return 0
}
