import Foundation
import KeyCatDomain
import KeyCatInfrastructure
import KeyCatPGSimulator
import Synchronization

/// The buyers of a simulation, checking out concurrently. Each order draws its choices from the
/// seed and its number, so a run replays (up to the interleaving the scheduler picks).
struct SimulationBuyers: Sendable {
    let keycat: KeyCat
    let simulator: PGSimulator
    let world: SimulationWorld
    let options: PaymentSimulation.Options

    private final class Shared: Sendable {
        let next = Atomic<Int>(0)
        let report = Mutex(PaymentSimulation.Report())
    }

    func run(progress: (@Sendable (Int, Int) -> Void)?) async throws(KeyCatError) -> PaymentSimulation.Report {
        let shared = Shared()
        let total = max(0, options.orders)
        await withTaskGroup(of: Void.self) { group in
            for buyer in world.buyers {
                group.addTask {
                    while true {
                        let index = shared.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < total else { return }
                        let outcome = await order(index, by: buyer)
                        shared.report.withLock { $0.record(outcome) }
                        if index % 10 == 9 {
                            let delivered = await simulator.deliverPendingWebhooks()
                            shared.report.withLock { $0.webhookDeliveries += delivered }
                        }
                        progress?(index + 1, total)
                    }
                }
            }
        }
        return shared.report.withLock { $0 }
    }

    enum Outcome {
        case outOfStock, checkoutError, abandoned, declined, confirmed, confirmError, leftToWebhook
    }

    private func order(_ index: Int, by buyer: Principal) async -> Outcome {
        var random = SplitMix64(seed: options.seed &* 1_000_003 &+ UInt64(index))
        // One to three products, so most carts hold both sellers' parcels; a few buyers give
        // another address with the order instead of their saved one.
        let products = Set((0..<Int.random(in: 1...3, using: &random)).map { _ in
            world.products[Int.random(in: 0..<world.products.count, using: &random)]
        }).sorted { $0.rawValue < $1.rawValue }
        let items = products.map { CheckoutItem(productID: $0, quantity: Int.random(in: 1...2, using: &random)) }
        let destination = random.chance(0.2) ? (try? SimulationWorld.address(index + 50_000)).map(CheckoutRequest.Destination.inline) : nil
        let request = CheckoutRequest(.items(items), destination: destination, idempotencyKey: "sim-\(world.tag)-\(index)")
        let order: Order
        do {
            order = try await keycat.checkout.checkout(request, by: buyer)
            if random.chance(0.1) {
                // A client retrying the same request: the first answer comes back, no new order.
                _ = try? await keycat.checkout.checkout(request, by: buyer)
            }
        } catch {
            return error.code == .outOfStock ? .outOfStock : .checkoutError
        }
        if random.chance(options.abandonRate) { return .abandoned }
        var payment: PGPaymentRecord?
        if random.chance(options.declineRate) {
            let card = [PGTestCard.declined, .insufficientFunds, .expiredCard, .processingError]
                .randomElement(using: &random) ?? .declined
            _ = try? simulator.pay(merchantUID: order.merchantUID, cardNumber: card.number)
            guard random.chance(0.5) else { return .declined }
            payment = try? simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number,
                                         amount: order.amount.won)
        } else {
            payment = try? simulator.pay(merchantUID: order.merchantUID, cardNumber: PGTestCard.success.number)
        }
        guard let payment else { return .declined }
        if random.chance(options.skipConfirmRate) { return .leftToWebhook }
        do {
            let paid = try await keycat.checkout.confirm(order.id, impUID: payment.impUID,
                                                         idempotencyKey: "sim-confirm-\(world.tag)-\(index)", by: buyer)
            await fulfil(paid, &random)
            return .confirmed
        } catch {
            return .confirmError
        }
    }

    /// What the sellers do with a paid order: the first parcel often leaves and sometimes
    /// arrives; now and then the last parcel's seller refunds one of its lines (the units back
    /// while it has not left), so settlements see refunds as well as sales.
    private func fulfil(_ order: Order, _ random: inout SplitMix64) async {
        guard let first = order.shipments.first, let last = order.shipments.last else { return }
        let seller = { (shipment: Shipment) in Principal(userID: shipment.sellerID, role: .seller) }
        if random.chance(options.lineRefundRate), let line = last.lines.first {
            _ = try? await keycat.orders.refundLines(
                of: last.id, LineRefundRequest(lines: [line], reason: "simulated: out of that colour",
                                               idempotencyKey: "sim-refund-\(world.tag)-\(order.id)"), by: seller(last))
        }
        let tracking = "5531" + String(format: "%08d", order.id.rawValue % 100_000_000)
        if random.chance(0.5),
           (try? await keycat.orders.ship(shipment: first.id, carrier: "cj", trackingNumber: tracking, by: seller(first))) != nil,
           random.chance(0.5) {
            _ = try? await keycat.orders.deliver(shipment: first.id, by: seller(first))
        }
    }
}

extension PaymentSimulation.Report {
    mutating func record(_ outcome: SimulationBuyers.Outcome) {
        ordersAttempted += 1
        switch outcome {
        case .outOfStock: outOfStock += 1
        case .checkoutError: checkoutErrors += 1
        case .abandoned: ordersCreated += 1
        case .declined: ordersCreated += 1; declined += 1
        case .confirmed: ordersCreated += 1; confirmed += 1
        case .confirmError: ordersCreated += 1; confirmErrors += 1
        case .leftToWebhook: ordersCreated += 1
        }
    }
}
