/// Durations, summarized.
struct Sample {
    private(set) var values: [Duration] = []

    mutating func add(_ value: Duration) { values.append(value) }

    var count: Int { values.count }
    var min: Duration { values.min() ?? .zero }
    var max: Duration { values.max() ?? .zero }
    var median: Duration { percentile(50) }
    var total: Duration { values.reduce(.zero, +) }

    /// The nearest-rank percentile.
    func percentile(_ p: Double) -> Duration {
        guard !values.isEmpty else { return .zero }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15 }
    var microseconds: Double { milliseconds * 1e3 }
}
