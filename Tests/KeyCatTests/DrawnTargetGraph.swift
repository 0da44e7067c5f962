import Foundation

/// The graph of targets a Markdown document draws: the code block after a
/// `<!-- target graph … -->` comment, one line per target, `KeyCatData → KeyCatDomain, KeyCatInfrastructure`.
/// Parentheses are prose (`KeyCatDomain → (Foundation only)`); box-drawing padding is ignored.
struct DrawnTargetGraph {
    static let marker = "<!-- target graph"

    var document: URL
    /// Each drawn target and what it is drawn pointing to.
    var edges: [String: Set<String>]

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The graphs `document` draws, one per marker.
    static func all(in document: URL) throws -> [DrawnTargetGraph] {
        try all(in: String(contentsOf: document, encoding: .utf8), of: document)
    }

    static func all(in text: String, of document: URL) throws -> [DrawnTargetGraph] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var graphs: [DrawnTargetGraph] = []
        for (index, line) in lines.enumerated() where line.hasPrefix(marker) {
            let location = "\(document.lastPathComponent):\(index + 1)"
            guard index + 1 < lines.count, lines[index + 1].hasPrefix("```") else {
                throw Malformed(description: "\(location): a target graph marker not followed by a code block")
            }
            var edges: [String: Set<String>] = [:]
            var number = index + 2
            while number < lines.count, !lines[number].hasPrefix("```") {
                defer { number += 1 }
                let drawn = lines[number].replacing(#/\([^)]*\)/#, with: "")
                if drawn.allSatisfy(\.isWhitespace) { continue }
                let sides = drawn.split(separator: "→", omittingEmptySubsequences: false)
                guard sides.count == 2 else { throw Malformed(description: "\(document.lastPathComponent):\(number + 1): not `Target → A, B`: \(lines[number])") }
                let source = sides[0].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "─")))
                guard edges[source] == nil else {
                    throw Malformed(description: "\(document.lastPathComponent):\(number + 1): \(source) is drawn twice")
                }
                edges[source] = Set(sides[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            }
            guard number < lines.count else { throw Malformed(description: "\(location): the target graph's block is not closed") }
            graphs.append(DrawnTargetGraph(document: document, edges: edges))
        }
        return graphs
    }

    /// How the drawing differs from `manifest`'s targets outside `Tests/`: edges drawn that it
    /// does not declare, edges it declares that are not drawn, and names that are not targets.
    func differences(from manifest: PackageManifest) -> [String] {
        let drawable = manifest.targets.filter { $0.kind != .testTarget && !$0.path.hasPrefix("Tests/") }
        let names = Set(drawable.map(\.name))
        let name = document.lastPathComponent
        var differences: [String] = []
        for source in edges.keys.sorted() where !names.contains(source) {
            differences.append("\(name) draws \(source), which is not a target of Package.swift outside Tests/")
        }
        for target in drawable {
            let declared = Set(target.dependencies)
            guard let drawn = edges[target.name] else {
                if !declared.isEmpty {
                    differences.append("\(name) does not draw \(target.name), which Package.swift has depend on \(declared.sorted().joined(separator: ", "))")
                }
                continue
            }
            for extra in drawn.subtracting(declared).sorted() {
                differences.append("\(name) draws \(target.name) → \(extra), which Package.swift does not declare")
            }
            for missing in declared.subtracting(drawn).sorted() {
                differences.append("\(name) misses \(target.name) → \(missing), which Package.swift declares")
            }
        }
        return differences
    }
}
