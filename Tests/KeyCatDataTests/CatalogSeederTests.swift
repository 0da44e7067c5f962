import KeyCatInfrastructure
import Testing
@testable import KeyCatData

@Suite("Catalog loads")
struct CatalogSeederTests {
    typealias Seeder = CatalogSeeder<SQLiteDatabase>

    @Test("a load gathers Postgres's statistics by autovacuum's rule: more than 50 rows and a tenth of the table before it")
    func statisticsRule() {
        // A new shop's import, past 50 listings (a table never analysed is estimated at 0).
        #expect(Seeder.needsStatistics(created: 51, estimate: 0))
        #expect(!Seeder.needsStatistics(created: 50, estimate: 0))
        // A tenth of the rows before the load, and the 50 besides.
        #expect(Seeder.needsStatistics(created: 10_051, estimate: 100_000))
        #expect(!Seeder.needsStatistics(created: 10_050, estimate: 100_000))
        #expect(!Seeder.needsStatistics(created: 60, estimate: 1_000_000))
        #expect(Seeder.plannedTables.contains("search_terms") && Seeder.plannedTables.contains("products"))
    }
}
