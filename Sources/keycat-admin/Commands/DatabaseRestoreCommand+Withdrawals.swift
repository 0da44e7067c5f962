import Foundation
import KeyCat

/// A forced restore puts back an older copy of the database, in which people who withdrew since
/// the backup are accounts again, their personal data with them. Their withdrawals are read
/// from the database being replaced, before it goes, and made again in the restored one
/// (``KeyCat/carryForward(_:by:)``).
extension DatabaseRestoreCommand {
    /// Reads the withdrawals of the SQLite file a forced restore is about to replace, read-only,
    /// and closes it again before the restore begins (a restore refuses a file still open). On
    /// Postgres the restore reads them itself, on the session that claims the schema
    /// (``KeyCat/restorePostgres(_:from:force:)``).
    func replacedWithdrawals(_ context: CommandContext) async -> KeyCat.ReplacedWithdrawals {
        guard force, FileManager.default.fileExists(atPath: context.databasePath) else { return .none }
        do {
            let keycat = try await context.openForReading(allowOutdated: true)
            defer { keycat.close() }
            guard try await keycat.schemaVersion() > 0 else { return .none }
            return .read(try await keycat.withdrawals())
        } catch let error as KeyCatError {
            return .unreadable(error.message)
        } catch {
            return .unreadable("\(error)")
        }
    }

    /// Makes `replaced`'s withdrawals again in the restored database `keycat`; the JSON fields and
    /// the human lines that say what it did.
    func carry(_ replaced: KeyCat.ReplacedWithdrawals, into keycat: KeyCat,
               _ context: CommandContext) async throws -> (json: [(String, JSONValue)], human: String) {
        switch replaced {
        case .none:
            return ([], "")
        case let .unreadable(reason):
            return ([("withdrawals_unread", .string(reason))],
                    "\nThe database replaced could not be read (\(reason)): anyone who withdrew after the backup "
                        + "is an account again here; withdraw them again by hand.")
        case let .read(withdrawals):
            let outcome = try await keycat.carryForward(withdrawals, by: context.principal)
            let refused = outcome.refused.map { "user \($0.userID): \($0.reason)" }
            return ([("withdrawals_carried", .array(outcome.carried.map { .int(Int($0.rawValue)) })),
                     ("withdrawals_refused", .array(outcome.refused.map {
                         .object([("user_id", .int(Int($0.userID.rawValue))), ("reason", .string($0.reason))])
                     }))],
                    "\nWithdrawals made since the backup, made again here: \(outcome.carried.count)."
                        + (refused.isEmpty ? "" : "\nNot withdrawn again (see these through, then withdraw them by hand):\n  "
                            + refused.joined(separator: "\n  ")))
        }
    }
}
