import KeyCat

/// `keycat-admin --version`: what this binary is and what it runs on, for bug reports and for
/// checking that an installed tool matches the databases it will open.
enum VersionPresenter {
    static func emit(json: Bool, to console: Console) {
        let versions = KeyCat.versions
        if json {
            console.print(JSONValue.object([
                ("keycat", .string(versions.keycat)), ("schema", .int(versions.schema)),
                ("sqlite", .string(versions.sqlite)), ("openssl", .string(versions.openSSL)),
            ]).serialized())
        } else {
            console.print("""
                keycat-admin \(versions.keycat)
                schema version \(versions.schema)
                SQLite \(versions.sqlite)
                \(versions.openSSL)
                """)
        }
    }
}
