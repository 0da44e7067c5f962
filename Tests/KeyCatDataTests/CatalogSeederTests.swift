import KeyCatInfrastructure
import Testing
@testable import KeyCatData

@Suite("Catalog loads")
struct CatalogSeederTests {
    typealias Seeder = CatalogSeeder<SQLiteDatabase>

    @Test("a load gathers Postgres's statistics by autovacuum's rule: 50 listings and a tenth of the catalog")
    func statisticsRule() {
        // A new shop's import, however small past 50 listings.
        #expect(Seeder.needsStatistics(created: 50, listed: 50))
        #expect(!Seeder.needsStatistics(created: 49, listed: 49))
        // A tenth of the catalog, counted after the load, and no less.
        #expect(Seeder.needsStatistics(created: 10_000, listed: 100_000))
        #expect(!Seeder.needsStatistics(created: 9_999, listed: 100_000))
        #expect(!Seeder.needsStatistics(created: 60, listed: 1_000_000))
        #expect(Seeder.plannedTables.contains("search_terms") && Seeder.plannedTables.contains("products"))
    }
}
