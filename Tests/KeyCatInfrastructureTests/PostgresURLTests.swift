import Testing
@testable import KeyCatInfrastructure

/// A Postgres URL's password never reaches a message, a log, the audit log or a tool's command line.
@Suite("Postgres URLs")
struct PostgresURLTests {
    @Test("the password is masked wherever libpq would read it from", arguments: [
        ("postgres://shop:s3cret@db.example/keycat", "postgres://shop:***@db.example/keycat"),
        ("postgres://shop:p@ss/w@rd@db.example:5432/keycat?sslmode=require", "postgres://shop:***@db.example:5432/keycat?sslmode=require"),
        ("postgresql://shop@db.example/keycat?password=s3cret&sslmode=require", "postgresql://shop@db.example/keycat?password=***&sslmode=require"),
        ("postgres://shop:a@h/db?sslmode=disable&password=b", "postgres://shop:***@h/db?sslmode=disable&password=***"),
        ("postgres://shop@db.example/keycat", "postgres://shop@db.example/keycat"),
        ("postgres://db.example/keycat?user=me@example", "postgres://db.example/keycat?user=me@example"),
    ])
    func masked(_ url: String, _ shown: String) {
        #expect(PostgresURL.masked(url) == shown)
    }

    @Test("the tools get the URL without its password, and the password apart, percent-decoded", arguments: [
        ("postgres://shop:s3%40cret@db.example/keycat", "postgres://shop@db.example/keycat", "s3@cret"),
        ("postgres://shop:p@ss/w@rd@db.example/keycat", "postgres://shop@db.example/keycat", "p@ss/w@rd"),
        ("postgres://shop@h/db?password=b%26c&sslmode=require", "postgres://shop@h/db?sslmode=require", "b&c"),
        ("postgres://shop@h/db?sslmode=require&password=b", "postgres://shop@h/db?sslmode=require", "b"),
        ("postgres://shop@h/db?password=b", "postgres://shop@h/db", "b"),
        ("postgres://shop@h/db", "postgres://shop@h/db", nil),
    ] as [(String, String, String?)])
    func separated(_ url: String, _ bare: String, _ password: String?) {
        let parts = PostgresURL.separatingPassword(url)
        #expect(parts.url == bare && parts.password == password)
    }
}
