import KeyCatData

extension KeyCat {
    /// Loads entries into the `business_registry` table that seller applications are checked
    /// against (when the configuration plugs in no other ``BusinessRegistry``). An entry for a
    /// number already there replaces it; a number never loaded is unregistered. Audited as
    /// `business_registry.load` in the same transaction.
    ///
    /// Build entries with ``BusinessRegistrationNumber/init(_:)`` (which checks the checksum)
    /// and ``BusinessStatus/init(taxServiceCode:)`` for the tax service's `b_stt_cd`.
    ///
    /// - Returns: the number of entries written.
    /// - Throws: ``KeyCatError/Code/forbidden`` unless `principal` is an admin.
    @discardableResult
    public func loadBusinessRegistry(_ entries: [BusinessRegistryEntry], by principal: Principal) async throws(KeyCatError) -> Int {
        try principal.require(.admin, to: "load the business registry")
        let now = configuration.clock.now()
        let audit = AuditEntry(
            actor: principal.auditActor, action: "business_registry.load", target: "business_registry",
            detail: "\(entries.count) entries", at: now)
        return try await store.loadRegistry(entries, at: now, audit: audit)
    }
}
