import KeyCatDomain
import KeyCatInfrastructure
import KeyCatTestSupport
import Testing
@testable import KeyCatData

/// A bulk write's vocabulary counts: summed over its listings, written once per word in key
/// order, and counted the same as one listing at a time would.
@Suite("Vocabulary tally")
struct VocabularyTallyTests {
    private static func word(_ key: String, _ kind: SearchAnalyzer.VocabularyEntry.Kind = .word) -> SearchAnalyzer.VocabularyEntry {
        SearchAnalyzer.VocabularyEntry(kind: kind, display: key.capitalized, key: key)
    }

    @Test("a listing's words in both its old and new entries move nothing; the batch's moves are summed by word, in key order")
    func sums() {
        var tally = VocabularyTally()
        // One listing keeps 갈축 and swaps gateron for kailh; two others take up gateron.
        tally.record(removing: [(kind: "word", key: "gateron"), (kind: "word", key: "갈축")],
                     adding: [Self.word("kailh"), Self.word("갈축")])
        tally.record(removing: [], adding: [Self.word("gateron"), Self.word("갈축", .tag)])
        tally.record(removing: [], adding: [Self.word("gateron")])
        let moves = tally.moves.map { "\($0.key)/\($0.kind) +\($0.added) -\($0.removed)" }
        #expect(moves == ["gateron/word +2 -1", "kailh/word +1 -0", "갈축/tag +1 -0"])
        #expect(tally.moves.first?.entry == Self.word("gateron"))
    }

    @Test("a new word's row is named by the first listing that takes it up; keys the same to Swift but not in bytes are two words, as in the stores")
    func spellingsAndBytes() {
        var tally = VocabularyTally()
        tally.record(removing: [], adding: [SearchAnalyzer.VocabularyEntry(kind: .word, display: "Gateron", key: "gateron")])
        tally.record(removing: [], adding: [SearchAnalyzer.VocabularyEntry(kind: .word, display: "GATERON", key: "gateron")])
        #expect(tally.moves.map(\.entry?.display) == ["Gateron"])
        #expect(tally.moves.map(\.added) == [2])

        let composed = "갈축", decomposed = "갈축".decomposedStringWithCanonicalMapping
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        var bytes = VocabularyTally()
        bytes.record(removing: [(kind: "word", key: decomposed)], adding: [Self.word(composed)])
        #expect(bytes.moves.map { Array($0.key.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)].sorted { $0.lexicographicallyPrecedes($1) })
        #expect(bytes.moves.map { $0.added - $0.removed }.sorted() == [-1, 1])
    }

    @Test("summed counts, while they add up, end as one listing at a time leaves them: a new word inserted with its count, one let go counted down but never below zero, its row kept",
          arguments: TestStore.allCases)
    func writes(_ store: TestStore) async throws {
        func check(_ database: some SQLDatabase) async throws {
            func counts() async throws -> [String: Int] {
                try await database.read { connection in
                    var counts: [String: Int] = [:]
                    try connection.forEach("SELECT word, products FROM search_words WHERE word IN ('alps', 'kailh')", []) {
                        counts[$0.string(0)] = $0.int(1)
                    }
                    return counts
                }
            }
            func write(_ listings: [(removing: [String], adding: [String])]) async throws {
                var tally = VocabularyTally()
                for listing in listings {
                    tally.record(removing: listing.removing.map { (kind: "word", key: $0) }, adding: listing.adding.map { Self.word($0) })
                }
                try await database.write { connection in
                    try connection.batch(SearchIndex.vocabularyStatements(tally.moves), atMost: 100)
                }
            }
            try await write([([], ["alps", "kailh"]), ([], ["alps"]), ([], ["alps"])])
            #expect(try await counts() == ["alps": 3, "kailh": 1])
            try await write([(["alps"], []), (["alps", "kailh"], ["kailh"])])
            #expect(try await counts() == ["alps": 1, "kailh": 1])
            // More let go than were counted (a count already wrong): zero, the row kept.
            try await write([(["alps"], []), (["alps"], []), (["alps"], [])])
            #expect(try await counts() == ["alps": 0, "kailh": 1])
            try await write([(["kailh"], []), ([], ["alps", "kailh"]), ([], ["alps"])])
            #expect(try await counts() == ["alps": 2, "kailh": 1])
            // An unlisted listing's words: a new row at zero, an existing one left as it is.
            var kept = VocabularyTally()
            kept.keep([Self.word("alps"), Self.word("cherry")])
            try await database.write { connection in
                try connection.batch(SearchIndex.vocabularyStatements(kept.moves), atMost: 100)
            }
            let cherry = try await database.read { try $0.queryOne("SELECT products FROM search_words WHERE word = 'cherry'", []) { $0.int(0) } }
            #expect(cherry == 0)
            #expect(try await counts() == ["alps": 2, "kailh": 1])
        }
        switch store {
        case .sqlite: try await withTestDatabase { try await check($0) }
        case .postgres: try await withPostgresTestDatabase { try await check($0) }
        }
    }
}
