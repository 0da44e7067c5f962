import Foundation

/// A user's address book (`/me/addresses`): only its owner reads or changes it. Orders copy the
/// address they ship to, so editing or deleting an entry never changes an order.
public struct AddressService: Sendable {
    let addresses: any AddressRepository
    let clock: any WallClock

    public init(addresses: any AddressRepository, clock: any WallClock) {
        self.addresses = addresses
        self.clock = clock
    }

    /// The caller's addresses, the default first.
    public func list(by principal: Principal) async throws(KeyCatError) -> [SavedAddress] {
        try await addresses.addresses(of: principal.userID)
    }

    /// Adds an address to the caller's book (at most ``AddressRules/maximumPerUser``); the first
    /// one becomes the default.
    public func add(_ address: DeliveryAddress, makeDefault: Bool = false, by principal: Principal) async throws(KeyCatError) -> SavedAddress {
        try requireUser(principal)
        return try await addresses.add(address, for: principal.userID, makeDefault: makeDefault,
                                       limit: AddressRules.maximumPerUser, at: clock.now())
    }

    /// Changes one of the caller's addresses.
    ///
    /// - Throws: `notFound` for an address that is not the caller's (whether or not it exists,
    ///   so ids of others' addresses are not learnt); `validation` for a changed field.
    public func update(_ id: AddressID, _ changes: AddressChanges, by principal: Principal) async throws(KeyCatError) -> SavedAddress {
        try requireUser(principal)
        guard let current = try await addresses.find(id), current.userID == principal.userID else {
            throw KeyCatError.notFound("address", id)
        }
        let address = try changes.applied(to: current.address)
        guard let updated = try await addresses.update(id, of: principal.userID, to: address, isDefault: changes.isDefault, at: clock.now())
        else { throw KeyCatError.notFound("address", id) }
        return updated
    }

    /// Deletes one of the caller's addresses.
    public func delete(_ id: AddressID, by principal: Principal) async throws(KeyCatError) {
        try requireUser(principal)
        guard try await addresses.delete(id, of: principal.userID) else { throw KeyCatError.notFound("address", id) }
    }

    /// The address an order of `buyer` ships to: the one named, or the default when none is.
    ///
    /// - Throws: `notFound` for a named address that is not the buyer's.
    func resolve(_ choice: CheckoutRequest.Destination?, for buyer: UserID) async throws(KeyCatError) -> DeliveryAddress? {
        switch choice {
        case let .saved(id):
            guard let saved = try await addresses.find(id), saved.userID == buyer else { throw KeyCatError.notFound("address", id) }
            return saved.address
        case let .inline(address):
            return address
        case nil:
            return try await addresses.addresses(of: buyer).first(where: \.isDefault)?.address
        }
    }

    private func requireUser(_ principal: Principal) throws(KeyCatError) {
        // The operator console is no user and has no address book.
        guard principal.operatorName == nil else {
            throw KeyCatError(.forbidden, "the operator console has no address book")
        }
    }
}
