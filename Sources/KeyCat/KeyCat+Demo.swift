import KeyCatData

extension KeyCat {
    /// The `settings` key that marks a database the demo created.
    private static let demoMarker = "demo_database"

    /// Marks this database as a demo's, so a later demo may replace it (and nothing else).
    package func markAsDemoDatabase() async throws(KeyCatError) {
        try await storage {
            try await database.write {
                try $0.run("INSERT INTO settings (key, value) VALUES (?, X'01') ON CONFLICT (key) DO NOTHING", [.text(Self.demoMarker)])
            }
        }
    }

    /// Whether the demo created this database. Reads only.
    package func isDemoDatabase() async throws(KeyCatError) -> Bool {
        try await storage {
            try await database.read {
                try $0.queryOne("SELECT 1 FROM settings WHERE key = ?", [.text(Self.demoMarker)]) { _ in true } ?? false
            }
        }
    }
}
