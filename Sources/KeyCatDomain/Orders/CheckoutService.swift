import Foundation

/// Checkout, payment confirmation, PG webhooks and reconciliation (architecture §6).
///
/// Flow: ``checkout(_:by:)`` computes the amount on the server, takes the stock and creates the
/// order in one transaction, then pre-registers merchant UID and amount with the PG; the buyer
/// pays at the PG; ``confirm(_:impUID:idempotencyKey:by:)`` and/or ``handleWebhook(id:impUID:merchantUID:)``
/// re-read the payment and move the order; ``reconcile(limit:)`` settles whatever was left open.
/// No write transaction is ever held across a PG call: commit, call, then apply the answer with a
/// conditional update, so concurrent confirms, webhooks and reconcilers (in any process) agree.
public struct CheckoutService: Sendable {
    let orders: any OrderRepository
    let carts: any CartRepository
    let products: any ProductRepository
    let gateway: any PaymentGateway
    let webhookEvents: any WebhookEventStore
    let idempotency: IdempotentRunner
    let settlement: PaymentSettlement
    let clock: any WallClock
    /// Where voids of orphan payments (paid at the PG for no order) are recorded.
    let auditLog: (any AuditLog)?
    /// How long stock is held for payment.
    public let reservationLifetime: TimeInterval
    /// How long reconciliation leaves a just-begun pending refund to the request that began it
    /// (``defaultRefundInFlightWindow``).
    public let refundInFlightWindow: TimeInterval
    /// What one buyer may hold unpaid (nil: no caps), and the checkout rate it limits.
    public let holds: StockHoldPolicy?
    let checkoutLimiter: PerUserRateLimiter
    /// How fast one buyer's confirmations may ask the PG (by default ``RateLimit/confirmationsDefault``).
    let confirmLimiter: PerUserRateLimiter
    /// The buyers' address books, where a checkout's `address_id` and default are found.
    let addresses: AddressService?

    public init(
        orders: any OrderRepository, carts: any CartRepository, products: any ProductRepository,
        gateway: any PaymentGateway, webhookEvents: any WebhookEventStore, idempotency: any IdempotencyStore,
        clock: any WallClock, reservationLifetime: TimeInterval = 15 * 60, auditLog: (any AuditLog)? = nil,
        holds: StockHoldPolicy? = nil, addresses: (any AddressRepository)? = nil,
        refundInFlightWindow: TimeInterval = CheckoutService.defaultRefundInFlightWindow,
        confirmationRate: RateLimit? = .confirmationsDefault
    ) {
        self.refundInFlightWindow = refundInFlightWindow
        self.addresses = addresses.map { AddressService(addresses: $0, clock: clock) }
        self.orders = orders
        self.carts = carts
        self.products = products
        self.gateway = gateway
        self.webhookEvents = webhookEvents
        self.idempotency = IdempotentRunner(store: idempotency, orders: orders, clock: clock)
        self.settlement = PaymentSettlement(orders: orders, gateway: gateway, clock: clock)
        self.clock = clock
        self.auditLog = auditLog
        self.reservationLifetime = reservationLifetime
        self.holds = holds
        checkoutLimiter = PerUserRateLimiter(limit: holds?.checkoutRate, clock: clock, what: "checkouts")
        confirmLimiter = PerUserRateLimiter(limit: confirmationRate, clock: clock, what: "payment confirmations")
    }

    /// Creates an order awaiting payment and registers its amount with the PG.
    ///
    /// A key is fingerprinted with the request as sent: the lines it names, or `cart` for the
    /// cart's, and where it ships. The cart's lines are the buyer's state when the key was first
    /// used, not part of the request, so a retry after the order was paid (which takes its lines
    /// out of the cart) replays that order rather than finding nothing to check out.
    ///
    /// - Throws: `validation` for an empty cart, a quantity outside 1–99 or more than 50 lines;
    ///   `notFound` for a product that is gone (with `reason: unlisted` for one out of the
    ///   catalog while its seller is withdrawn or suspended); `forbidden` for a seller's own listing;
    ///   `outOfStock` naming the product and what is left; `reservationLimit` over ``holds``'s
    ///   open orders and `rateLimited` over its checkout rate (a replayed key is neither; a line
    ///   past its holding caps is sold on payment, ``OrderLine/stockTaken`` false);
    ///   `idempotencyKeyReused`/`requestInProgress`; a gateway error when the PG could not
    ///   register the amount (the order is then cancelled and its stock given back).
    public func checkout(_ request: CheckoutRequest, by principal: Principal) async throws(KeyCatError) -> Order {
        try principal.require(.buyer, .seller, to: "check out")
        let given: [CheckoutItem]? = switch request.source {
        case .cart: nil
        case .items: try await resolveItems(request.source, for: principal.userID)
        }
        let lines = given.map(Self.fingerprint(of:))
        let fingerprint = (lines ?? "cart") + Self.fingerprint(of: request.destination)
        return try await idempotency.run(scope: "checkout:\(principal.userID)", key: request.idempotencyKey,
                                         fingerprint: fingerprint) { () async throws(KeyCatError) -> Order in
            // The key is kept on the order it made: a retry whose first answer was never stored
            // (the process died, the disk filled) finds that order instead of making another.
            // Only within the key's retention: past it the key is new again, as its stored answer is.
            if let key = request.idempotencyKey, let made = try await orders.find(buyer: principal.userID, requestKey: key),
               clock.now().timeIntervalSince(made.createdAt) < idempotency.retention {
                // The order keeps its lines and where it ships, not which saved address that was.
                guard lines.map({ $0 == Self.fingerprint(of: made) }) ?? true,
                      request.inlineAddress.map({ $0 == made.shippingAddress }) ?? true else {
                    throw KeyCatError(.idempotencyKeyReused, "this Idempotency-Key was used for another checkout")
                }
                return made
            }
            let items: [CheckoutItem]
            if let given { items = given } else { items = try await resolveItems(request.source, for: principal.userID) }
            let destination = try await addresses?.resolve(request.destination, for: principal.userID)
            try await checkoutLimiter.take(for: principal.userID)
            return try await placeOrder(items, for: principal.userID, shippingAddress: destination ?? request.inlineAddress,
                                        requestKey: request.idempotencyKey)
        }
    }

    /// The fingerprint of a request's items (merged and sorted by ``resolveItems(_:for:)``).
    static func fingerprint(of items: [CheckoutItem]) -> String {
        items.map { "\($0.productID)x\($0.quantity)" }.joined(separator: ",")
    }

    /// Prices are read just before the order's transaction, which then takes the stock with
    /// `UPDATE … WHERE stock >= ? AND listed = 1`: a price changed in between applies from the
    /// next order (the buyer pays what the returned order says, never a price it does not show).
    /// The fingerprint of an order's items, as ``checkout(_:by:)`` computes it of a request.
    static func fingerprint(of order: Order) -> String {
        order.lines.sorted { $0.productID < $1.productID }.map { "\($0.productID)x\($0.quantity)" }.joined(separator: ",")
    }

    /// What a checkout's fingerprint adds for where it ships: nothing for the default address (so
    /// a key's fingerprint from before destinations counted is still its own), else the saved
    /// address's id or the inline address's fields. The same key sent to another address is
    /// another checkout, refused, not the first order replayed.
    static func fingerprint(of destination: CheckoutRequest.Destination?) -> String {
        switch destination {
        case nil: ""
        case let .saved(id): "|address:\(id)"
        case let .inline(address):
            "|to:" + [address.recipient, address.phone, address.postcode, address.roadAddress, address.detail, address.request]
                .joined(separator: "\u{1F}")
        }
    }

    private func placeOrder(_ items: [CheckoutItem], for buyerID: UserID, shippingAddress: DeliveryAddress?,
                            requestKey: String?) async throws(KeyCatError) -> Order {
        let now = clock.now()
        var lines: [OrderLine] = []
        let found = try await products.find(items.map(\.productID))
        for item in items {
            guard let product = found[item.productID], product.deletedAt == nil else {
                throw KeyCatError.notFound("product", item.productID)
            }
            // Out of the catalog with its withdrawn or suspended seller: not for sale, and said so.
            guard product.isListed else {
                throw KeyCatError(.notFound, "product \(product.id) is not for sale now",
                                  context: ["entity": "product", "id": "\(product.id)", "reason": "unlisted"])
            }
            // A seller buying their own listing would only move stock and fake sales.
            guard product.sellerID != buyerID else {
                throw KeyCatError(.forbidden, "a seller cannot buy their own listing", context: ["product_id": "\(product.id)"])
            }
            lines.append(OrderLine(productID: product.id, title: product.title, unitPrice: product.sellingPrice(at: now),
                                   quantity: item.quantity, deliveryFee: product.delivery.fee, sellerID: product.sellerID))
        }
        var lineTotals: [Money] = []
        for line in lines { lineTotals.append(try line.total()) }
        let itemsTotal = try Money.sum(lineTotals)
        // One parcel per seller, charged the highest fee among its lines.
        let deliveryTotal = try Money.sum(Shipment.parcels(of: lines).map(\.deliveryFee))
        var newOrder = NewOrder(
            merchantUID: Self.newMerchantUID(), buyerID: buyerID, lines: lines, itemsTotal: itemsTotal,
            deliveryTotal: deliveryTotal, amount: try itemsTotal + deliveryTotal,
            expiresAt: now.addingTimeInterval(reservationLifetime), requestKey: requestKey,
            holdLimits: holds?.limits)
        newOrder.shippingAddress = shippingAddress
        let order = try await orders.create(newOrder, at: now)
        do throws(KeyCatError) {
            try await gateway.prepare(merchantUID: order.merchantUID, amount: order.amount)
        } catch {
            // Nobody can pay an order the PG does not know the amount of: give the stock back.
            var move = OrderTransition(orderID: order.id, from: .awaitingPayment, to: .cancelled)
            move.returnsStock = true
            move.releasesRequestKey = true
            _ = try? await orders.apply(move, at: clock.now())
            throw error
        }
        return order
    }

    /// The cart's lines or the given ones, merged by product and checked.
    private func resolveItems(_ source: CheckoutRequest.Source, for buyerID: UserID) async throws(KeyCatError) -> [CheckoutItem] {
        let raw: [CheckoutItem]
        switch source {
        case .cart: raw = try await carts.entries(of: buyerID).map { CheckoutItem(productID: $0.productID, quantity: $0.quantity) }
        case let .items(items): raw = items
        }
        guard !raw.isEmpty else { throw KeyCatError.validation("items", "there is nothing to check out") }
        // Bounded before any work: at most 50 lines of at most 99, so no sum below can overflow
        // and the merge stays small.
        guard raw.count <= CartRules.maximumLines * CartRules.quantityRange.upperBound else {
            throw KeyCatError.validation("items", "an order has at most \(CartRules.maximumLines) lines")
        }
        var merged: [CheckoutItem] = []
        for item in raw {
            guard CartRules.quantityRange.contains(item.quantity) else {
                throw KeyCatError.validation("quantity", "a quantity is between 1 and 99, got \(item.quantity)")
            }
            if let index = merged.firstIndex(where: { $0.productID == item.productID }) {
                merged[index].quantity += item.quantity
                guard CartRules.quantityRange.contains(merged[index].quantity) else {
                    throw KeyCatError.validation("quantity", "a quantity is between 1 and 99, got \(merged[index].quantity)")
                }
            } else {
                merged.append(item)
            }
        }
        guard merged.count <= CartRules.maximumLines else {
            throw KeyCatError.validation("items", "an order has at most \(CartRules.maximumLines) lines")
        }
        if let line = merged.first(where: { !CartRules.quantityRange.contains($0.quantity) }) {
            throw KeyCatError.validation("quantity", "a quantity is between 1 and 99, got \(line.quantity)")
        }
        return merged.sorted { $0.productID < $1.productID }
    }

    /// `kc_` and 32 random hex digits: 35 characters, within the PG's 40.
    static func newMerchantUID() -> String {
        "kc_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
