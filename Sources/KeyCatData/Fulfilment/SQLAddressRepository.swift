import Foundation
import KeyCatDomain
import KeyCatInfrastructure

/// Users' address books (``FulfilmentSchema``). A user has at most one default, kept by a
/// partial unique index: making one the default clears the other in the same transaction.
package struct SQLAddressRepository<Database: SQLDatabase>: AddressRepository {
    let database: Database

    package init(database: Database) { self.database = database }

    static var columns: String {
        "id, user_id, recipient, phone, postcode, road_address, detail, request, is_default, created_at, updated_at"
    }

    static func decode(_ row: some SQLRow) -> SavedAddress {
        SavedAddress(
            id: AddressID(row.int64(0)), userID: UserID(row.int64(1)),
            address: DeliveryAddress(recipient: row.string(2), phone: row.string(3), postcode: row.string(4),
                                     roadAddress: row.string(5), detail: row.string(6), request: row.string(7)),
            isDefault: row.bool(8), createdAt: StoredTime.date(row.int64(9)), updatedAt: StoredTime.date(row.int64(10)))
    }

    package func addresses(of user: UserID) async throws(KeyCatError) -> [SavedAddress] {
        try await storage {
            try await database.read {
                try $0.query("SELECT \(Self.columns) FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id DESC",
                             [.integer(user.rawValue)], Self.decode)
            }
        }
    }

    package func find(_ id: AddressID) async throws(KeyCatError) -> SavedAddress? {
        try await storage {
            try await database.read { try $0.queryOne("SELECT \(Self.columns) FROM addresses WHERE id = ?", [.integer(id.rawValue)], Self.decode) }
        }
    }

    package func add(_ address: DeliveryAddress, for user: UserID, makeDefault: Bool, limit: Int, at now: Date) async throws(KeyCatError) -> SavedAddress {
        try await storage {
            try await database.write { connection in
                let count = try connection.queryOne("SELECT count(*) FROM addresses WHERE user_id = ?", [.integer(user.rawValue)]) {
                    $0.int(0)
                } ?? 0
                guard count < limit else {
                    throw KeyCatError(.limitReached, "an address book holds at most \(limit) addresses; delete one first",
                                      context: ["limit": "\(limit)"])
                }
                let isDefault = makeDefault || count == 0
                if isDefault { try Self.clearDefault(of: user, on: connection) }
                let id = try connection.insertReturningID("""
                    INSERT INTO addresses (user_id, recipient, phone, postcode, road_address, detail, request, is_default, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.integer(user.rawValue)] + Self.values(address) + [.bool(isDefault), StoredTime.value(now), StoredTime.value(now)])
                return SavedAddress(id: AddressID(id), userID: user, address: address, isDefault: isDefault, createdAt: now, updatedAt: now)
            }
        }
    }

    package func update(_ id: AddressID, of user: UserID, to address: DeliveryAddress, isDefault: Bool?, at now: Date) async throws(KeyCatError) -> SavedAddress? {
        try await storage {
            try await database.write { connection in
                // Another's address, or one deleted since the caller read it, changes nothing:
                // not even the caller's default, which clearing first would have left unset.
                guard try connection.queryOne("SELECT 1 FROM addresses WHERE id = ? AND user_id = ?",
                                              [.integer(id.rawValue), .integer(user.rawValue)], { _ in true }) == true else { return nil }
                if isDefault == true { try Self.clearDefault(of: user, on: connection) }
                var sql = "UPDATE addresses SET recipient = ?, phone = ?, postcode = ?, road_address = ?, detail = ?, request = ?, updated_at = ?"
                var arguments = Self.values(address) + [StoredTime.value(now)]
                if let isDefault { sql += ", is_default = ?"; arguments.append(.bool(isDefault)) }
                sql += " WHERE id = ? AND user_id = ?"
                arguments += [.integer(id.rawValue), .integer(user.rawValue)]
                try connection.run(sql, arguments)
                if isDefault == false { try Self.keepADefault(of: user, avoiding: id, on: connection) }
                return try connection.queryOne("SELECT \(Self.columns) FROM addresses WHERE id = ?", [.integer(id.rawValue)], Self.decode)
            }
        }
    }

    package func delete(_ id: AddressID, of user: UserID) async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.write { connection in
                guard try connection.run("DELETE FROM addresses WHERE id = ? AND user_id = ?",
                                         [.integer(id.rawValue), .integer(user.rawValue)]) == 1 else { return false }
                try Self.keepADefault(of: user, avoiding: id, on: connection)
                return true
            }
        }
    }

    static func values(_ address: DeliveryAddress) -> [SQLValue] {
        [.text(address.recipient), .text(address.phone), .text(address.postcode), .text(address.roadAddress),
         .text(address.detail), .text(address.request)]
    }

    /// A book that holds addresses always has a default, which a checkout without one named
    /// ships to: when it has none (its default deleted or unmarked), the newest address other
    /// than `avoiding` becomes it, or `avoiding` itself when it is the only one. Until
    /// 2026-12-01 deleting the default left none, and the next checkout was placed without an
    /// address although the buyer had others.
    private static func keepADefault(of user: UserID, avoiding id: AddressID, on connection: some SQLConnection) throws {
        try connection.run("""
            UPDATE addresses SET is_default = 1
            WHERE id = (SELECT id FROM addresses WHERE user_id = ? ORDER BY CASE WHEN id = ? THEN 1 ELSE 0 END, id DESC LIMIT 1)
              AND NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ? AND is_default = 1)
            """, [.integer(user.rawValue), .integer(id.rawValue), .integer(user.rawValue)])
    }

    private static func clearDefault(of user: UserID, on connection: some SQLConnection) throws {
        try connection.run("UPDATE addresses SET is_default = 0 WHERE user_id = ? AND is_default = 1", [.integer(user.rawValue)])
    }
}
