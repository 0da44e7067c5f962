import Foundation
import Testing
import KeyCat

/// The catalog built into the binary is `seed/catalog.json`, byte for byte.
@Suite("The built-in demo catalog")
struct DemoCatalogTests {
    @Test("matches seed/catalog.json (run scripts/embed-catalog after editing it) and decodes")
    func matchesTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("seed/catalog.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        // A multi-line literal drops the newline before its closing quotes.
        #expect(CatalogFile.demoJSON + "\n" == text, "seed/catalog.json changed: run scripts/embed-catalog")
        let catalog = try CatalogFile.decode(Data(CatalogFile.demoJSON.utf8))
        #expect(catalog.products.count == 178)
        #expect(catalog.sellers.count == 12)
    }
}
