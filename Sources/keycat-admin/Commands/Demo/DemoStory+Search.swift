import KeyCat

extension DemoStory {
    /// She searches the way people type in Korean, and the operator teaches search a synonym.
    func search() async throws {
        narrator.step("She searches the catalog as she would type it", [
            try await found("갈축", "a 2-syllable switch name, in titles and tags"),
            try await found("기계식키보드", "written without the space, still finds 기계식 키보드"),
            try await found("hanu", "a Latin prefix, case-insensitive: the Hanul brand"),
            try await found("ㅈㅅㅇ", "initials only, as the as-you-type box gets them: 저소음"),
            try await found("소리 택타일", "the listing made a moment ago: the index is written in the listing's own transaction"),
            "Relevance first (title above tags above the description, whole words and the exact phrase above parts), then whether it is in stock, its sales, bookmarks and rating.",
        ])
        let before = try await results("silent")
        let added = try await keycat.search.addSynonym("silent", "저소음", by: operatorConsole)
        narrator.step("The operator teaches search a synonym", [
            "Before: «silent» finds \(before.items.isEmpty ? "nothing" : "\(before.items.count)+ listings"): no title says it in English.",
            "The operator runs 'keycat-admin search synonyms add silent 저소음': \(added ? "added" : "already there"), both ways, written to the audit log.",
            try await found("silent", "now finds the 저소음 listings, at once: no reindexing"),
        ])
    }

    /// The first page (of 3) for `text`, by relevance.
    private func results(_ text: String) async throws -> Page<Product> {
        try await keycat.catalog.list(ProductListRequest(filter: ProductFilter(text: try SearchQuery(text)), limit: try PageLimit(3)))
    }

    /// «text» (why it is worth showing): its top three titles.
    private func found(_ text: String, _ why: String) async throws -> String {
        let page = try await results(text)
        let titles = page.items.isEmpty ? "  (nothing)" : Self.titles(page.items)
        return "«\(text)» — \(why):\n" + titles
    }
}
