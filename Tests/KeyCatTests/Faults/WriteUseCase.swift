import Foundation
@testable import KeyCat
import KeyCatData
import KeyCatInfrastructure

/// The use cases that write, each run on a fresh copy of a ``FaultShop``.
enum WriteUseCase: String, CaseIterable, Sendable, CustomStringConvertible {
    case checkout, confirm, refund, webhook, review, bookmark, productUpdate, migration

    var description: String { rawValue }

    /// Whether the PG acts in the middle of the use case, so that what KeyCat holds is only
    /// final once reconciliation has asked the PG (a refund the PG made but KeyCat could not
    /// record stays pending until then, by design).
    var settlesByReconciliation: Bool { self == .refund }

    /// Runs the use case on `keycat`, opened on a copy of `shop` (nil for the migration).
    func run(on keycat: KeyCat, _ shop: FaultShop?) async throws {
        guard let shop else { return }
        let admin = Principal.operatorConsole("tester")
        switch self {
        case .checkout:
            _ = try await keycat.checkout.checkout(
                CheckoutRequest(.items([CheckoutItem(productID: shop.productID, quantity: 2)])), by: shop.buyer)
        case .confirm:
            _ = try await keycat.checkout.confirm(shop.unconfirmed.id, impUID: shop.unconfirmedImpUID, by: shop.buyer)
        case .refund:
            _ = try await keycat.orders.refund(
                shop.paid.id, RefundRequest(amount: Money(won: 3_000), reason: "scratched case", idempotencyKey: "refund-1"),
                by: admin)
        case .webhook:
            _ = try await keycat.checkout.handleWebhook(
                id: "wh_1", impUID: shop.unconfirmedImpUID, merchantUID: shop.unconfirmed.merchantUID)
        case .review:
            _ = try await keycat.reviews.write(ReviewForm(rating: 4, content: "Smooth linears, a little pingy."),
                                               of: shop.productID, by: shop.buyer)
        case .bookmark:
            _ = try await keycat.bookmarks.add(shop.productID, by: shop.buyer)
        case .productUpdate:
            var changes = ProductChanges(expectedVersion: nil)
            changes.price = Money(won: 9_000)
            changes.stock = 7
            _ = try await keycat.catalog.update(shop.productID, changes, by: shop.seller)
        case .migration:
            break  // the open is the use case: see ``FaultSweep``
        }
    }
}

/// A database one migration behind, for the migration use case: every KeyCat migration but
/// the newest applied, as an older KeyCat left it.
enum OutdatedDatabase {
    static func build(at path: String) throws {
        let migrations = KeyCatSchema.migrations
        var configuration = SQLiteConfiguration()
        configuration.readerCount = 0
        let database = try SQLiteDatabase(path: path, configuration: configuration)
        defer { database.close() }
        try SchemaMigrator(migrations: Array(migrations.dropLast())).migrate(database, now: FaultShop.instant)
    }
}
