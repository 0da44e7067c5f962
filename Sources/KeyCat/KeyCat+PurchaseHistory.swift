import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

extension KeyCat {
    /// The purchase history reviews ask: the configured one, else KeyCat's own orders.
    static func purchaseHistory(_ configuration: Configuration, database: SQLiteDatabase) -> any PurchaseHistory {
        configuration.purchaseHistory ?? SQLitePurchaseHistory(database: database)
    }
}
