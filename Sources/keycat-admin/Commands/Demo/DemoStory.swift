import Foundation
import KeyCat

/// The demo's story, told through KeyCat's public use cases only (no SQL): a seller is
/// approved, a buyer browses and searches, saves an address, buys from two sellers and reviews, each seller
/// ships their parcel from their desk, the operator refunds, the month's settlement so far is
/// traced to its rows, and the shop's statistics and health are read. Each method is one or a few numbered steps.
///
final class DemoStory {
    let keycat: KeyCat
    let narrator: DemoNarrator
    /// The operator running the demo (`cli:<login>` in the audit log).
    let operatorConsole: Principal
    /// The carriers the demo's parcels travel with (the shop's ``KeyCat/Configuration/parcelTracker``).
    let carriers: SimulatedCarriers

    // What the story has made so far.
    var seller: Principal!
    var buyer: Principal!
    var product: Product!
    var order: Order!

    init(keycat: KeyCat, narrator: DemoNarrator, operatorConsole: Principal, carriers: SimulatedCarriers) {
        self.keycat = keycat
        self.narrator = narrator
        self.operatorConsole = operatorConsole
        self.carriers = carriers
    }

    /// The business registration number the demo seller applies with (checksum-valid).
    static let businessNumber = "220-81-62176"

    func run() async throws {
        try await openShop()
        try await approveSeller()
        try await signUpBuyer()
        try await browse()
        try await search()
        try await bookmarkAndFollow()
        try await fillCartAndCheckout()
        try await pay()
        try await deliverWebhooks()
        try await shipAndDeliver()
        try await refund()
        try await confirmReceipt()
        try await review()
        try await settle()
        try await statistics()
        try await check()
    }

    var now: Date { keycat.configuration.clock.now() }

    private func openShop() async throws {
        let catalog = try CatalogFile.decode(Data(CatalogFile.demoJSON.utf8))
        // The demo catalog names no image files, so no folder is read.
        let summary = try await keycat.importCatalog(
            catalog, baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), by: operatorConsole)
        narrator.step("The shop opens: a new database, migrated, with the demo catalog", [
            "Schema version \(try await keycat.schemaVersion()) (migrations \(keycat.migrationsApplied.map(String.init).joined(separator: ", ")) applied).",
            "Loaded the demo catalog (seed/catalog.json, built in): \(summary.sellersCreated) sellers and \(summary.productsCreated) products, in one transaction.",
            "Everything lives in one SQLite file; the PG simulator keeps its payments in its own file beside it.",
        ])
    }

    private func approveSeller() async throws {
        let number = try BusinessRegistrationNumber(Self.businessNumber)
        try await keycat.loadBusinessRegistry([BusinessRegistryEntry(number: number, status: .active)], by: operatorConsole)
        let account = try await keycat.accounts.signUp(
            SignUpForm(email: "sori.keys@example.com", password: "sori-keys-2026", nick: "소리키보드"))
        let applicant = Principal(userID: account.id, role: .buyer)
        let (keycat, form) = (keycat, SellerApplicationForm(
            businessNumber: Self.businessNumber, representativeName: "한소리",
            openingDate: try CalendarDate(iso8601: "2021-04-01")))
        let application = try await keycat.sellers.apply(form, by: applicant)
        narrator.step("A keyboard shop applies to sell", [
            "소리키보드 (\(account.email)) signs up and applies with business number \(Self.businessNumber).",
            "The business registry says \(application.registryStatus.rawValue) (the tax service's b_stt_cd 01), so application \(application.id) waits for an operator: \(application.status.rawValue).",
        ])
        let approved = try await keycat.sellers.approve(application.id, by: operatorConsole)
        seller = Principal(userID: account.id, role: .seller)
        product = try await keycat.catalog.create(Self.switchListing, for: account.id, by: seller)
        narrator.step("The operator approves, and the new seller lists a product", [
            "Application \(approved.id) is \(approved.status.rawValue); user \(account.id) is now a seller (written to the audit log).",
            "They list «\(product.title)» (product \(product.id)): \(product.pricing.salePrice), \(product.stock) in stock, tactile switches.",
        ])
    }

    private func signUpBuyer() async throws {
        let email = "minji.typing@example.com", password = "thock-thock-75"
        let account = try await keycat.accounts.signUp(SignUpForm(email: email, password: password, nick: "타건민지"))
        let tokens = try await keycat.accounts.logIn(email: email, password: password)
        buyer = try await keycat.accounts.authenticate(accessToken: tokens.accessToken)
        narrator.step("A buyer signs up and logs in", [
            "타건민지 (\(email)) is user \(account.id). Her password is stored as a salted PBKDF2-SHA256 hash, never as text.",
            "Logging in gave her a 15-minute access token (JWT) and a refresh token; the server reads her identity from the token: user \(buyer.userID), \(buyer.role.rawValue).",
            "(The demo hashes with \(keycat.configuration.passwordIterations.formatted()) PBKDF2 iterations so it runs in seconds; production uses 600,000, and a weaker hash is upgraded at the next log-in.)",
        ])
    }

    private func browse() async throws {
        let first = try await keycat.catalog.list(ProductListRequest(sort: .newest, limit: try PageLimit(5)))
        let second = try await keycat.catalog.list(ProductListRequest(sort: .newest, limit: try PageLimit(5), cursor: first.nextCursor))
        narrator.step("She browses the newest listings, two pages of five", [
            "Page 1:\n" + Self.titles(first.items),
            "Page 2, from the cursor page 1 ended with (\(first.nextCursor.map { String($0.prefix(24)) + "…" } ?? "none")):\n" + Self.titles(second.items),
            "The cursor is signed and remembers the sort: page 2 starts exactly after page 1's last product, however many products are listed meanwhile, and nothing is counted.",
        ])
        let tactile = try await keycat.catalog.list(ProductListRequest(
            filter: ProductFilter(switchType: .tactile), sort: .newest, limit: try PageLimit(5)))
        narrator.step("She narrows it down to tactile switches", [
            Self.titles(tactile.items),
            "The newest is «\(product.title)», from the seller approved a moment ago.",
        ])
    }

    private func bookmarkAndFollow() async throws {
        _ = try await keycat.bookmarks.add(product.id, by: buyer)
        _ = try await keycat.follows.follow(product.sellerID, by: buyer)
        let counts = try await keycat.follows.counts(of: product.sellerID)
        narrator.step("She bookmarks it and follows its seller", [
            "Product \(product.id) now has \(try await keycat.catalog.product(product.id).bookmarkCount) bookmark; seller \(product.sellerID) has \(counts.followers) follower.",
            "The counters are kept in the same transaction as the bookmark and the follow, so lists sort by popularity without counting rows.",
        ])
    }

    static func titles(_ products: [Product]) -> String {
        products.map { "  - \($0.title) (\($0.pricing.salePrice))" }.joined(separator: "\n")
    }

    /// The new seller's listing: 70 tactile switches.
    static let switchListing = ProductDraft(
        kind: .commercial, category: .switch, title: "소리 택타일 스위치 70개 (윤활 완료)",
        content: "공장 윤활을 마친 55g 택타일 스위치 70개 묶음입니다. 핫스왑 보드에 바로 꽂아 쓰세요.",
        pricing: Pricing(regularPrice: Money(won: 42_000), salePrice: Money(won: 35_000)),
        delivery: Delivery(fee: Money(won: 3_000), schedule: .nextDay), stock: 40,
        spec: KeyboardSpec(input: .mechanical, connection: .wired, pcb: .hotSwap, switchType: .tactile,
                           layout: .other, keycapProfile: .cherry, backlight: false))
}
