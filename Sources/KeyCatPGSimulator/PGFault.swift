import KeyCatInfrastructure

/// The simulator's endpoints (PortOne v1's paths), for counting requests and aiming faults.
public enum PGEndpoint: String, Sendable, Hashable, CaseIterable {
    /// `POST /users/getToken`
    case getToken
    /// `POST /payments/prepare`
    case prepare
    /// `PUT /payments/prepare`: changes a prepared amount.
    case updatePrepared
    /// `GET /payments/prepare/{merchant_uid}`
    case prepared
    /// `GET /payments/{imp_uid}`
    case payment
    /// `GET /payments/find/{merchant_uid}[/{payment_status}]`
    case findPayment
    /// `GET /payments/findAll/{merchant_uid}[/{payment_status}]`
    case findAllPayments
    /// `POST /payments/cancel`
    case cancel
    /// `GET /payments/status/{payment_status}?from=&to=&page=&limit=&sorting=`
    case paymentsByStatus

    init?(method: String, path: String) {
        let segments = path.split(separator: "/").map(String.init)
        guard segments.count >= 2 else { return nil }
        switch (method, segments[0], segments[1], segments.count) {
        case ("POST", "users", "getToken", 2): self = .getToken
        case ("POST", "payments", "prepare", 2): self = .prepare
        case ("PUT", "payments", "prepare", 2): self = .updatePrepared
        case ("GET", "payments", "prepare", 3): self = .prepared
        case ("POST", "payments", "cancel", 2): self = .cancel
        case ("GET", "payments", "find", 3...4): self = .findPayment
        case ("GET", "payments", "findAll", 3...4): self = .findAllPayments
        case ("GET", "payments", "status", 3): self = .paymentsByStatus
        case ("GET", "payments", _, 2): self = .payment
        default: return nil
        }
    }
}

/// One thing going wrong on one request.
public enum PGFault: Sendable, Hashable {
    /// Answer with this error type's HTTP status (e.g. `.pgProvider` → 502) and v1's envelope,
    /// without acting.
    case error(PGErrorType)
    /// Answer 429 with `Retry-After: seconds`, without acting.
    case rateLimited(retryAfterSeconds: Int)
    /// Act on the request, then lose the answer: the caller sees a timeout.
    case lostAnswer
    /// Answer 200 with a body that is not the envelope.
    case malformedBody
}

/// Faults drawn at random, reproducibly from ``seed``. Rates are probabilities per request
/// (0 = never, 1 = always); scripted faults (``PGSimulator/injectFault(_:on:times:)``) go first.
public struct PGFaultConfiguration: Sendable, Hashable {
    /// Seeds the simulator's random generator: the same seed and requests give the same faults.
    public var seed: UInt64
    /// Chance of a 500, 502 or 503 (picked evenly).
    public var serverErrorRate: Double
    /// Chance of a 429.
    public var rateLimitRate: Double
    /// The `Retry-After` a 429 carries.
    public var retryAfterSeconds: Int
    /// Chance that the PG acts but the answer is lost.
    public var lostAnswerRate: Double
    /// Time each request takes. A request whose timeout is shorter is applied, then times out.
    public var latency: Duration
    /// Chance that a webhook is delivered twice.
    public var webhookDuplicateRate: Double
    /// Whether a batch of webhooks is delivered in shuffled order.
    public var webhookReordering: Bool

    public init(
        seed: UInt64 = 1, serverErrorRate: Double = 0, rateLimitRate: Double = 0, retryAfterSeconds: Int = 1,
        lostAnswerRate: Double = 0, latency: Duration = .zero, webhookDuplicateRate: Double = 0,
        webhookReordering: Bool = false
    ) {
        self.seed = seed
        self.serverErrorRate = serverErrorRate
        self.rateLimitRate = rateLimitRate
        self.retryAfterSeconds = retryAfterSeconds
        self.lostAnswerRate = lostAnswerRate
        self.latency = latency
        self.webhookDuplicateRate = webhookDuplicateRate
        self.webhookReordering = webhookReordering
    }

    /// No faults at all.
    public static let none = PGFaultConfiguration()
}

/// The simulator's fault state: configuration, random generator, scripted faults and counters.
struct FaultPlan {
    struct Scripted {
        var fault: PGFault
        var endpoint: PGEndpoint?
        var remaining: Int
    }

    var configuration: PGFaultConfiguration
    var generator: SplitMix64
    var scripted: [Scripted] = []
    var requestCounts: [PGEndpoint: Int] = [:]

    init(configuration: PGFaultConfiguration) {
        self.configuration = configuration
        generator = SplitMix64(seed: configuration.seed)
    }

    /// Counts a request and decides its fault, scripted first, then random.
    mutating func nextFault(for endpoint: PGEndpoint) -> PGFault? {
        requestCounts[endpoint, default: 0] += 1
        if let index = scripted.firstIndex(where: { $0.endpoint == nil || $0.endpoint == endpoint }) {
            let fault = scripted[index].fault
            scripted[index].remaining -= 1
            if scripted[index].remaining <= 0 { scripted.remove(at: index) }
            return fault
        }
        if generator.chance(configuration.serverErrorRate) {
            return .error([.internalServerError, .pgProvider, .serviceUnavailable].randomElement(using: &generator)!)
        }
        if generator.chance(configuration.rateLimitRate) {
            return .rateLimited(retryAfterSeconds: configuration.retryAfterSeconds)
        }
        if generator.chance(configuration.lostAnswerRate) { return .lostAnswer }
        return nil
    }
}
