import Foundation
import KeyCat
import KeyCatTestSupport
import Testing

/// One text field a client sends, and how to send it through its use case.
struct HostileField: Sendable, CustomTestStringConvertible {
    /// What a field's use case does with one value, set up fresh for it.
    struct Probe {
        /// Sends the text; returns it as the store reads it back, or nil for a field that is
        /// never shown again (a password, a key, a log-in).
        let send: (String) async throws -> String?
        /// What else a refusal must leave as it was (the rows of a listing being edited…).
        var state: () async throws -> String = { "" }
    }

    let name: String
    /// The field's value around the hostile text: an email needs its domain.
    var shape: @Sendable (String) -> String = { $0 }
    /// Sets up what the field belongs to in `shop`, for the `index`th value.
    let prepare: @Sendable (SocialShop, Int) async throws -> Probe

    var testDescription: String { name }
}

/// What one value did: stored, or refused with a code.
enum HostileOutcome: Equatable, CustomStringConvertible {
    case stored
    case refused(KeyCatError.Code)

    var description: String {
        switch self {
        case .stored: "stored"
        case let .refused(code): "refused (\(code))"
        }
    }
}

/// Every text field a client can send — sign-up, log-in, profile, listing create and update,
/// review, seller application, checkout, confirm, cancel, refund, shipping, stock, the audit
/// log's filters — gets quotes,
/// SQL comment and terminator, a 30 KB string, bytes that are not UTF-8 (decoded to U+FFFD, as
/// every `String` from bytes is) and a NUL, on every store. Each is stored byte for byte or
/// refused with a typed error that changes nothing, never a storage or internal error (a 500);
/// Postgres answers as SQLite does, except that it cannot store NUL in text and must then say
/// so as a validation error.
@Suite("Hostile text in every client field, on every store")
struct HostileInputTests {
    static let nul = "ki\u{0}m"
    /// Short forms first, which fit fields with tight rules (a nick, an email's local part).
    static let values = [
        "o'ne\"il`", "x');--", "x'); DROP TABLE users;--", String(repeating: "키", count: 10_000),
        String(decoding: [0x6B, 0xC3, 0x28, 0xFF], as: UTF8.self), nul,
    ]

    /// Sends every value through `field` on `store`, checking each answer as it comes.
    static func outcomes(_ field: HostileField, on store: TestStore) async throws -> [HostileOutcome] {
        try await SocialShop.with(store) { shop in
            var outcomes: [HostileOutcome] = []
            for (index, value) in values.enumerated() {
                let text = field.shape(value)
                let probe = try await field.prepare(shop, index)
                let before = try await shop.shop.rowCounts() + "\n" + (try await probe.state())
                do {
                    let readBack = try await probe.send(text)
                    #expect(readBack == nil || readBack == text, "\(field.name) on \(store) read back other text")
                    outcomes.append(.stored)
                } catch let error as KeyCatError {
                    #expect(![.storage, .internalError].contains(error.code),
                            "\(field.name) on \(store): \(value.prefix(12).debugDescription) failed with \(error)")
                    #expect(error.httpStatus < 500, "\(field.name) on \(store): \(error)")
                    if error.code == .validation {
                        let after = try await shop.shop.rowCounts() + "\n" + (try await probe.state())
                        #expect(after == before,
                                "\(field.name) on \(store): a refusal changed something")
                    }
                    outcomes.append(.refused(error.code))
                }
            }
            try await shop.shop.expectHealthy()
            return outcomes
        }
    }

    @Test("hostile text is stored as given or refused with a typed error, the same on both stores; NUL is a validation error on Postgres",
          arguments: TestStore.allCases, HostileField.all)
    func sameOutcomes(_ store: TestStore, _ field: HostileField) async throws {
        let outcomes = try await Self.outcomes(field, on: store)
        guard store == .postgres else { return }
        let reference = try await Self.outcomes(field, on: .sqlite)
        for (index, value) in Self.values.enumerated() {
            if value == Self.nul && outcomes[index] == .refused(.validation) { continue }
            #expect(outcomes[index] == reference[index],
                    "\(field.name): \(value.prefix(12).debugDescription) was \(outcomes[index]) on Postgres, \(reference[index]) on SQLite")
        }
    }
}
