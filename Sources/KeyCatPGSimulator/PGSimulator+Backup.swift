import Foundation
import KeyCatInfrastructure

extension PGSimulator {
    /// Copies the simulator file at `path` to a new owner-only file at `destination` with
    /// SQLite's online backup, while simulators in this and other processes keep using it, and
    /// returns how many payments the copy holds (read from the same snapshot).
    ///
    /// Part of a KeyCat backup: the simulator stands for the PG, which is outside the shop's
    /// database, so its copy is taken at a slightly later instant than the database's. It may
    /// know of payments the database copy does not; reconciliation settles those orders.
    ///
    /// - Throws: ``PGSimulatorError/storage(_:)`` when `path` is missing or is not the
    ///   simulator's file, when something is at `destination`, or when SQLite fails. A failed
    ///   copy leaves nothing at `destination`.
    public static func backupStorage(at path: String, to destination: String) throws(PGSimulatorError) -> Int {
        var configuration = SQLiteConfiguration()
        configuration.readOnly = true
        configuration.createIfMissing = false
        configuration.readerCount = 0
        configuration.application = PGStore.application
        do {
            let database = try SQLiteDatabase(path: path, configuration: configuration)
            defer { database.close() }
            var payments = 0
            try database.blockingBackup(to: destination) { _ in } snapshot: { connection in
                payments = try connection.queryOne("SELECT count(*) FROM pg_payments") { $0.int(0) } ?? 0
            }
            return payments
        } catch {
            throw .storage("cannot back up \(path) to \(destination): \(error)")
        }
    }
}
