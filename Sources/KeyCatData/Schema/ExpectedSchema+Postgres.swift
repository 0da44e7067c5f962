import KeyCatInfrastructure

/// The schema KeyCat's migrations build on Postgres, by name, and how a database departs from
/// it: `db check`'s view of a Postgres store, as ``ExpectedSchema`` is of a SQLite file.
///
/// A restore that stopped part way, a hand-run `DROP INDEX`, or a `CREATE INDEX CONCURRENTLY`
/// that failed leave a database whose rows are whole but which is slow (an index missing or
/// invalid), silent (a trigger missing: no catalog notifications, so other servers serve old
/// pages; no stock events) or broken (a function missing). None of that shows in the rows.
///
/// The expected names are read from the migrations' own Postgres DDL (``KeyCatSchema/script(for:)``),
/// statement by statement in order, so a later migration's `DROP` removes what an earlier one
/// made and a new migration's objects are expected as soon as it is appended. Only what is
/// missing or invalid is reported: Postgres adds indexes of its own (a primary key's), and those
/// are not KeyCat's to name.
package enum PostgresExpectedSchema {
    /// One table, index, trigger or function the migrations leave.
    package struct Object: Sendable, Hashable, Comparable {
        package let kind: Kind
        package let name: String

        package enum Kind: String, Sendable, Comparable {
            case table, index, trigger, function

            package static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        package static func < (lhs: Object, rhs: Object) -> Bool { (lhs.kind, lhs.name) < (rhs.kind, rhs.name) }
    }

    /// Every object the migrations leave, in kind and name order.
    package static let objects: [Object] = objects(in: KeyCatSchema.script(for: .postgres))

    /// The objects `script`'s statements leave, each `DROP` taking away what was made before it
    /// (a dropped table takes its indexes and triggers with it).
    static func objects(in script: String) -> [Object] {
        var made: [Object: String?] = [:]  // each object, with the table an index or trigger is on
        for statement in statements(of: script) {
            let words = statement.split(whereSeparator: \.isWhitespace).map { $0.lowercased() }
            func word(after keyword: String, skipping optional: [String] = []) -> String? {
                guard var index = words.firstIndex(of: keyword) else { return nil }
                index += 1
                while index < words.count, optional.contains(words[index]) { index += 1 }
                return index < words.count ? name(words[index]) : nil
            }
            guard words.count > 2 else { continue }
            switch (words[0], words[1]) {
            case ("create", "table"):
                if let table = word(after: "table", skipping: ["if", "not", "exists"]) { made[Object(kind: .table, name: table)] = .some(nil) }
            case ("create", "index"), ("create", "unique"):
                if let index = word(after: "index", skipping: ["if", "not", "exists", "concurrently"]) {
                    made[Object(kind: .index, name: index)] = .some(word(after: "on", skipping: ["only"]))
                }
            case ("create", "trigger"):
                if let trigger = word(after: "trigger") { made[Object(kind: .trigger, name: trigger)] = .some(word(after: "on")) }
            case ("create", "function"), ("create", "or"):
                if let function = word(after: "function") { made[Object(kind: .function, name: function)] = .some(nil) }
            case ("drop", "table"):
                if let table = word(after: "table", skipping: ["if", "exists"]) {
                    made[Object(kind: .table, name: table)] = nil
                    for (object, on) in made where on == table { made[object] = nil }
                }
            case ("drop", "index"):
                if let index = word(after: "index", skipping: ["if", "exists", "concurrently"]) { made[Object(kind: .index, name: index)] = nil }
            case ("drop", "trigger"):
                if let trigger = word(after: "trigger", skipping: ["if", "exists"]) { made[Object(kind: .trigger, name: trigger)] = nil }
            case ("drop", "function"):
                if let function = word(after: "function", skipping: ["if", "exists"]) { made[Object(kind: .function, name: function)] = nil }
            default:
                continue
            }
        }
        return made.keys.sorted()
    }

    /// A name as written: up to a parenthesis, without quotes, in lower case (as Postgres folds it).
    private static func name(_ word: String) -> String {
        String(word.prefix { $0 != "(" }).trimmingCharacters(in: ["\""])
    }

    /// The statements of `script`: its `--` comments and dollar-quoted bodies left out, split at
    /// semicolons, each with its whitespace collapsed.
    static func statements(of script: String) -> [String] {
        var text = ""
        var inBody = false
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(line)
            if !inBody, let comment = line.range(of: "--") { line = line[..<comment.lowerBound] }
            // A body opens and closes with `$$`; what lies between is the function's, not DDL.
            var kept = ""
            var rest = line
            while let marker = rest.range(of: "$$") {
                if !inBody { kept += rest[..<marker.lowerBound] }
                inBody.toggle()
                rest = rest[marker.upperBound...]
            }
            if !inBody { kept += rest }
            text += kept + "\n"
        }
        return text.split(separator: ";").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// What is missing or invalid in the connection's schema (its `search_path`'s first), one
    /// sentence each: empty when every object the migrations leave is there and every index is
    /// valid. A database at an older version gets one sentence saying so.
    package static func problems(on connection: PostgresConnection) throws -> [String] {
        let version = try connection.queryOne(
            "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0 ELSE (SELECT coalesce(max(version), 0) FROM schema_migrations) END",
            []) { $0.int(0) } ?? 0
        if version < KeyCatSchema.steps.count {
            return ["the schema is at version \(version), this build's is \(KeyCatSchema.steps.count) ('keycat-admin init' migrates it)"]
        }
        var present: Set<Object> = []
        var invalid: [String] = []
        try connection.forEach("""
            SELECT 'table', c.relname, true FROM pg_class c
            WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
            UNION ALL
            SELECT 'index', c.relname, i.indisvalid AND i.indisready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relnamespace = current_schema()::regnamespace
            UNION ALL
            SELECT 'trigger', t.tgname, t.tgenabled <> 'D' FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
            UNION ALL
            SELECT 'function', p.proname, true FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
            """, []) { row in
            guard let kind = Object.Kind(rawValue: row.string(0)) else { return }
            let object = Object(kind: kind, name: row.string(1))
            present.insert(object)
            if !row.bool(2), objects.contains(object) {
                invalid.append(kind == .trigger
                    ? "trigger \(object.name) is disabled (ALTER TABLE … ENABLE TRIGGER \(object.name) restores it)"
                    : "index \(object.name) is invalid: a build that did not finish (REINDEX INDEX \(object.name) rebuilds it)")
            }
        }
        let missing = objects.filter { !present.contains($0) }.map { object in
            "\(object.kind.rawValue) \(object.name) is missing"
                + (object.kind == .table ? "" : " (restore the schema from a backup, or re-create it as its migration does)")
        }
        // A trigger no migration made runs code of someone else's on every write of KeyCat's
        // tables (a restored dump can carry one). Views, functions and indexes of the shop's own
        // (reporting, say) are left alone: they change no row.
        let foreign = present.filter { $0.kind == .trigger && !objects.contains($0) }.sorted().map { object in
            "trigger \(object.name) is not one of KeyCat's: it runs on writes of its table; drop it once you know what made it"
        }
        return missing + invalid.sorted() + foreign
    }
}
