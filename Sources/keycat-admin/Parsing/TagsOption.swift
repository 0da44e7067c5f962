import Foundation

/// `--tags a,b,c`, shared by `products add` and `products update`: a listing's whole set of tags,
/// comma-separated (a tag has no comma: only letters, digits and `_`, with an optional `#`).
/// `--tags ""` gives the empty set, removing every tag. The tags themselves are checked by the
/// library (``ProductTags``), as for any other field of a listing.
enum TagsOption {
    static let spec = OptionSpec(
        name: "tags", valueName: "T,T",
        help: "The listing's tags, comma-separated, up to 10 (갈축,저소음,#무선); \"\" removes them all.")

    /// The tags given, trimmed, empty items dropped; nil when `--tags` was not given.
    static func tags(_ arguments: ParsedArguments) -> [String]? {
        arguments.string(spec.name).map { list in
            list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
