import Foundation
import KeyCatData
import KeyCatDomain
import KeyCatInfrastructure

/// What loading a catalog did.
public struct SeedSummary: Sendable, Equatable {
    public var sellersCreated: Int
    public var sellersExisting: Int
    public var productsCreated: Int
    public var productsExisting: Int

    init(_ report: SeedReport) {
        sellersCreated = report.sellersCreated
        sellersExisting = report.sellersExisting
        productsCreated = report.productsCreated
        productsExisting = report.productsExisting
    }
}

extension KeyCat {
    /// Loads a catalog file (the demo catalog, or an operator's import): creates its sellers as
    /// locked seller accounts when their email is new, and the products that do not exist yet
    /// (same seller, same title). Every product and image is validated first; then everything is
    /// written in one transaction, so a bad file changes nothing and a second run changes nothing.
    ///
    /// - Parameters:
    ///   - baseDirectory: where relative image paths in the file are read from.
    ///   - progress: called after each product is checked (and its images stored), with the
    ///     number checked and the total; the write that follows is one transaction.
    /// - Throws: `forbidden` unless an admin calls; `validation` naming the product and field.
    public func importCatalog(_ file: CatalogFile, baseDirectory: URL? = nil, by principal: Principal,
                              progress: (_ checked: Int, _ total: Int) -> Void = { _, _ in }) async throws(KeyCatError) -> SeedSummary {
        try principal.require(.admin, to: "import catalogs")
        let now = configuration.clock.now()
        var sellerIndex: [String: Int] = [:]
        for (index, seller) in file.sellers.enumerated() {
            guard sellerIndex.updateValue(index, forKey: seller.key) == nil else {
                throw .validation("sellers[\(index)].key", "seller key «\(seller.key)» appears twice")
            }
        }
        var products: [(seller: Int, draft: ProductDraft, images: [ProductImage])] = []
        for (index, product) in file.products.enumerated() {
            do throws(KeyCatError) {
                guard let key = product.seller, let seller = sellerIndex[key] else {
                    throw KeyCatError.validation("seller", "names no seller of this file")
                }
                let draft = try product.draft(at: now).validated(at: now)
                try ProductDraft.checkDeliveryFee(draft.delivery.fee, atMost: configuration.maximumDeliveryFee)
                let images = try await storeImages(product.images ?? [], baseDirectory: baseDirectory)
                products.append((seller, draft, images))
                progress(index + 1, file.products.count)
            } catch {
                throw KeyCatError(error.code, "product \(index + 1) «\(product.title)»: \(error.message)",
                                  context: error.context.merging(["product_index": String(index)]) { $1 })
            }
        }
        let audit = AuditEntry(actor: principal.auditActor, action: "catalog.import", at: now)
        return await SeedSummary(try store.seedCatalog(
            sellers: try file.sellers.map { seller throws(KeyCatError) in
                SeedSeller(email: try AccountRules.email(seller.email), nick: try AccountRules.nick(seller.nick))
            },
            products: products, at: now, audit: audit))
    }

    /// Adds `count` generated listings from synthetic sellers, reproducibly from `seed`, in
    /// batched transactions on SQLite and, from 50,000 products, one transaction on Postgres
    /// (for benchmarks and load tests).
    ///
    /// - Parameter progress: called after each batch with the number loaded so far.
    public func seedSynthetic(count: Int, seed: UInt64, by principal: Principal,
                              progress: (Int) -> Void = { _ in }) async throws(KeyCatError) -> SeedSummary {
        try await seedSynthetic(count: count, seed: seed, by: principal, rebuildThreshold: nil, progress: progress)
    }

    /// ``seedSynthetic(count:seed:by:progress:)`` rebuilding the indexes from `rebuildThreshold`
    /// products (nil: 50,000): for tests of that path that must not hold one Postgres
    /// transaction open for minutes (every event reader on the server waits for it).
    func seedSynthetic(count: Int, seed: UInt64, by principal: Principal, rebuildThreshold: Int?,
                       progress: (Int) -> Void = { _ in }) async throws(KeyCatError) -> SeedSummary {
        try principal.require(.admin, to: "seed synthetic catalogs")
        guard (1...10_000_000).contains(count) else {
            throw .validation("synthetic", "the number of synthetic products must be 1–10,000,000")
        }
        let now = configuration.clock.now()
        let audit = AuditEntry(actor: principal.auditActor, action: "catalog.seed_synthetic", at: now)
        return await SeedSummary(try Self.seedSynthetic(count: count, seed: seed, at: now, audit: audit,
                                                          rebuildThreshold: rebuildThreshold, progress: progress, in: store.database))
    }

    private static func seedSynthetic<Database: SQLDatabase>(
        count: Int, seed: UInt64, at now: Date, audit: AuditEntry, rebuildThreshold: Int?, progress: (Int) -> Void,
        in database: Database
    ) async throws(KeyCatError) -> SeedReport {
        let search = SearchMaintenance(database: database)
        // The record that every listing is indexed is withdrawn first: a load killed between its
        // batches leaves it absent, and the next write-open indexes whatever the load left out.
        try await search.withdrawRecord()
        let catalog = SyntheticCatalog(database: database,
                                       rebuildThreshold: rebuildThreshold ?? SyntheticCatalog<Database>.defaultRebuildThreshold)
        let report = try await catalog.load(count: count, seed: seed, at: now, audit: audit, progress: progress)
        // Whatever the bulk path left without its search entries is indexed here, a batch per
        // transaction, so a listing is found as soon as the load returns; the record is made again.
        _ = try await search.catchUp(checkingEveryListing: true)
        return report
    }

    /// Reads and stores the images a product file names. Every image is read and checked before
    /// any is stored.
    func storeImages(_ paths: [String], baseDirectory: URL?) async throws(KeyCatError) -> [ProductImage] {
        guard paths.count <= ImageRules.maximumPerProduct else {
            throw .validation("images", "a product has at most \(ImageRules.maximumPerProduct) images")
        }
        let contents = try Self.readImages(paths, baseDirectory: baseDirectory)
        for bytes in contents { _ = try imageStore.inspect(bytes) }
        var stored: [ProductImage] = []
        for bytes in contents { stored.append(try await imageStore.store(bytes)) }
        return stored
    }
}

extension KeyCat {
    /// Lists one product from a product file for `sellerID`, reading its images from
    /// `baseDirectory`: the operators' `products add`.
    ///
    /// - Throws: as ``CatalogService/create(_:for:images:by:)``, and `validation` for the file.
    public func addProduct(from file: ProductFile, for sellerID: UserID, baseDirectory: URL? = nil,
                           by principal: Principal) async throws(KeyCatError) -> Product {
        let now = configuration.clock.now()
        let draft = try file.draft(at: now)
        let images = try Self.readImages(file.images ?? [], baseDirectory: baseDirectory)
        return try await catalog.create(draft, for: sellerID, images: images, by: principal)
    }

    /// The bytes of image files named in a product file, relative to `baseDirectory`.
    static func readImages(_ paths: [String], baseDirectory: URL?) throws(KeyCatError) -> [[UInt8]] {
        var contents: [[UInt8]] = []
        for path in paths {
            let url = baseDirectory.map { URL(fileURLWithPath: path, relativeTo: $0) } ?? URL(fileURLWithPath: path)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw .validation("images", "cannot read image \(path)")
            }
            contents.append([UInt8](data))
        }
        return contents
    }
}
