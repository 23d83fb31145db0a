import BenchmarkSupport
import Benchmark
import KeyboardExtension
import KeyboardTesting

// Reading and deleting the whole document (issue 4), through the C boundary, no latency.
// Targets: a read's round trips at most the windows the policy cuts the text into, plus 3; reading
// 1 MiB under utf8-bytes:4000 within 20 ms; time linear in size (4 MiB / 1 MiB at most 4.5).

let roundTrips = BenchmarkMetric.custom("Round trips", polarity: .prefersSmaller, useScalingFactor: false)

func fullDocumentBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, roundTrips], warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 15
    )
    for (size, bytes) in [("64 KiB", 64 << 10), ("1 MiB", 1 << 20), ("4 MiB", 4 << 20)] {
        for policy in [ContextPolicy.wayland, .sentence] {
            Benchmark("Full document read, \(policy), \(size)", configuration: configuration) { benchmark in
                nonisolated(unsafe) let benchmark = benchmark
                let trips = await FullDocumentRun.read(sampleDocument(bytes: bytes), policy, benchmark)
                benchmark.measurement(roundTrips, trips)
            }
            Benchmark("Full document delete, \(policy), \(size)", configuration: configuration) { benchmark in
                nonisolated(unsafe) let benchmark = benchmark
                let trips = await FullDocumentRun.delete(sampleDocument(bytes: bytes), policy, benchmark)
                benchmark.measurement(roundTrips, trips)
            }
        }
    }
}

/// One walk on a fresh host, measured from its start to its result (host set-up excluded).
@MainActor
enum FullDocumentRun {
    static func read(_ text: String, _ policy: ContextPolicy, _ benchmark: Benchmark) async -> Int {
        let host = try! KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: text.count / 2, policy: policy)
        try! host.show()
        let keyboard = host.controller!
        benchmark.startMeasurement()
        let walk = host.startTask { try? await keyboard.readFullDocumentContext() }
        await host.settle()
        let context = (await walk.value)!
        benchmark.stopMeasurement()
        precondition(context.fullDocumentContextBeforeInput.count + context.fullDocumentContextAfterInput.count == text.count)
        return context.roundTrips
    }

    static func delete(_ text: String, _ policy: ContextPolicy, _ benchmark: Benchmark) async -> Int {
        let host = try! KeyboardTestHost(OneKeyKeyboard.self, document: text, policy: policy)
        try! host.show()
        let keyboard = host.controller!
        benchmark.startMeasurement()
        let walk = host.startTask { try? await keyboard.deleteFullDocumentContext() }
        await host.settle()
        let deletion = (await walk.value)!
        benchmark.stopMeasurement()
        precondition(host.document.isEmpty)
        return deletion.roundTrips
    }
}
