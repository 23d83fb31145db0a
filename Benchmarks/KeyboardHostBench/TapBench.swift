import BenchmarkSupport
import KeyboardExtension
import KeyboardHost
import KeyboardTesting

/// Taps, each one whole: the host taps the key, the keyboard inserts, the host applies the edit and
/// sends the new snapshot (settled before the next tap). In process and with the keyboard in a child
/// process, on an empty field and in the middle of large documents of two kinds.
@MainActor
enum TapBench {
    static func run(taps count: Int, isolatedTaps: Int, documentBytes: Int, isolations: [Isolation]) async throws -> [Report.Taps] {
        let documents: [(String, String)] = [
            ("empty field", ""),
            ("mixed \(documentBytes >> 20) MiB", numberedDocument(bytes: documentBytes)),
            ("CJK \(documentBytes >> 20) MiB", cjkDocument(bytes: documentBytes)),
        ]
        var results: [Report.Taps] = []
        for isolation in isolations {
            for (name, text) in documents {
                let taps = isolation == .process ? isolatedTaps : count
                results.append(try await measure(name, text, isolation: isolation, taps: taps))
                progress("taps \(isolation) \(name): \(format(Duration.milliseconds(results.last!.p50Microseconds / 1e3)))")
            }
        }
        return results
    }

    static func measure(_ name: String, _ text: String, isolation: Isolation, taps: Int) async throws -> Report.Taps {
        let host = try KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: text.count / 2, policy: .wayland, isolation: isolation)
        try host.show()
        let clock = ContinuousClock()
        for _ in 0..<min(200, taps) {  // warm up
            try host.tap("x")
            await host.settle()
        }
        var sample = Sample()
        for _ in 0..<taps {
            let start = clock.now
            try host.tap("x")
            await host.settle()
            sample.add(start.duration(to: clock.now))
        }
        guard host.fault == nil else { throw BenchError("the keyboard failed: \(host.fault!)") }
        host.hide()
        await host.settle()
        return Report.Taps(
            isolation: isolation.rawValue, document: name, taps: taps,
            tapsPerSecond: Double(taps) / (sample.total.milliseconds / 1e3),
            p50Microseconds: sample.percentile(50).microseconds, p90Microseconds: sample.percentile(90).microseconds,
            p99Microseconds: sample.percentile(99).microseconds, maxMicroseconds: sample.max.microseconds
        )
    }
}
