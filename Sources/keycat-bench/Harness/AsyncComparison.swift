/// ``compare(_:operations:warmup:target:library:baseline:)`` for async operations.
func compareAsync(
    _ name: String, operations: Int, warmup: Int = 10, target: Comparison.Target = .timeRatioAtMost(1.25),
    library: (Int) async throws -> Void, baseline: (Int) async throws -> Void
) async throws -> Comparison {
    for index in 0..<warmup {
        try await library(index)
        try await baseline(index)
    }
    var librarySamples: [Double] = []
    var baselineSamples: [Double] = []
    let clock = ContinuousClock()
    for index in 0..<operations {
        if index % 2 == 0 {
            librarySamples.append(try await asyncSeconds(clock) { try await library(index) })
            baselineSamples.append(try await asyncSeconds(clock) { try await baseline(index) })
        } else {
            baselineSamples.append(try await asyncSeconds(clock) { try await baseline(index) })
            librarySamples.append(try await asyncSeconds(clock) { try await library(index) })
        }
    }
    return Comparison(name: name, operations: operations, library: Timing(samples: librarySamples),
                      baseline: Timing(samples: baselineSamples), target: target)
}

func asyncSeconds(_ clock: ContinuousClock, _ body: () async throws -> Void) async rethrows -> Double {
    let start = clock.now
    try await body()
    let elapsed = clock.now - start
    return elapsed.seconds
}
