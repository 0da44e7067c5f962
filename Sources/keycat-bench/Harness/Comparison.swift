import KeyCat
/// One row of the benchmark table: the library and the raw baseline doing the same work.
struct Comparison {
    var name: String
    var operations: Int
    var library: Timing
    var baseline: Timing
    /// What the ratio is held to (architecture §9), and which way.
    var target: Target

    enum Target {
        /// library ÷ baseline time at most this.
        case timeRatioAtMost(Double)
        /// baseline ÷ library time (throughput ratio) at least this.
        case throughputRatioAtLeast(Double)
        case none
    }

    /// library ÷ baseline, by median.
    var ratio: Double { library.median / baseline.median }

    var meetsTarget: Bool {
        switch target {
        case .timeRatioAtMost(let limit): ratio <= limit
        case .throughputRatioAtLeast(let limit): 1 / ratio >= limit
        case .none: true
        }
    }

    var targetText: String {
        switch target {
        case .timeRatioAtMost(let limit): "≤ \(limit)"
        case .throughputRatioAtLeast(let limit): "throughput ≥ \(limit)"
        case .none: "-"
        }
    }
}

/// Per-operation times in seconds.
struct Timing {
    var samples: [Double]

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }

    func percentile(_ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }
}

/// Times `library` and `baseline` alternately, `operations` times each after a warm-up, so both
/// see the same cache and machine state.
///
/// KeyCat's calls are async and the raw baselines synchronous; both are awaited the same way, from
/// a task that prefers the store's own executor, as a server's handler does (``KeyCatAPI``), so
/// neither side pays a hop between threads the other does not.
func compare(
    _ name: String, operations: Int, warmup: Int = 200, target: Comparison.Target = .timeRatioAtMost(1.25),
    library: (Int) async throws -> Void, baseline: (Int) async throws -> Void
) async rethrows -> Comparison {
    for index in 0..<warmup {
        try await library(index)
        try await baseline(index)
    }
    var librarySamples: [Double] = []
    var baselineSamples: [Double] = []
    librarySamples.reserveCapacity(operations)
    baselineSamples.reserveCapacity(operations)
    let clock = ContinuousClock()
    for index in 0..<operations {
        // Alternate which goes first, so neither always runs on the warmer cache.
        if index % 2 == 0 {
            librarySamples.append(try await seconds(clock) { try await library(index) })
            baselineSamples.append(try await seconds(clock) { try await baseline(index) })
        } else {
            baselineSamples.append(try await seconds(clock) { try await baseline(index) })
            librarySamples.append(try await seconds(clock) { try await library(index) })
        }
    }
    return Comparison(name: name, operations: operations, library: Timing(samples: librarySamples),
                      baseline: Timing(samples: baselineSamples), target: target)
}

func seconds(_ clock: ContinuousClock, _ body: () async throws -> Void) async rethrows -> Double {
    let start = clock.now
    try await body()
    let elapsed = clock.now - start
    return elapsed.seconds
}

/// Runs `body` with `keycat`'s storage executor preferred, as a server's handler runs (KeyCatAPI
/// prefers it for every route): KeyCat's calls then wait on its threads without a hop each, and
/// the raw baseline beside them runs on the same threads.
func onStorage<Value>(of keycat: KeyCat, _ body: () async throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(keycat.storageExecutor, operation: body)
}
