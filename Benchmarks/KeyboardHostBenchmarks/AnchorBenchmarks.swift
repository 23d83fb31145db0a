import BenchmarkSupport
import Benchmark
import KeyboardExtension
import KeyboardHost
import KeyboardTesting

// Ours beside the anchor (issue 14): the SDK's full-document reader and a fixed-sleep reader as the
// commercial SDKs write one (KeyboardTesting's FixedSleepReader, 0.04 s a step), on the same documents
// (mixed text, its paragraphs numbered),
// under each platform profile, with iOS's IPC latency (30 ms). Wall clock is this machine's time; "Host
// clock" is the time the read takes on the host's clock — what it would take on a device; "Exact" is 1
// when the read gave back the document and left the caret where it was.

let hostClockMilliseconds = BenchmarkMetric.custom("Host clock (ms)", polarity: .prefersSmaller, useScalingFactor: false)
let exact = BenchmarkMetric.custom("Exact", polarity: .prefersLarger, useScalingFactor: false)

func anchorBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, hostClockMilliseconds, exact], warmupIterations: 0, maxDuration: .seconds(5), maxIterations: 3
    )
    for (size, bytes) in [("64 KiB", 64 << 10), ("1 MiB", 1 << 20)] {
        for platform in PlatformProfile.all {
            for reader in ["ours", "anchor"] {
                Benchmark("Beside the anchor: \(reader), \(platform), \(size)", configuration: configuration) { benchmark in
                    nonisolated(unsafe) let benchmark = benchmark
                    let (elapsed, isExact) = await AnchorRun.read(numberedDocument(bytes: bytes), platform, anchor: reader == "anchor", benchmark)
                    benchmark.measurement(hostClockMilliseconds, Int(elapsed / .milliseconds(1)))
                    benchmark.measurement(exact, isExact ? 1 : 0)
                }
            }
        }
    }
}

/// One read on a fresh host, run to its end on the host's clock (`runToCompletion`).
@MainActor
enum AnchorRun {
    static func read(_ text: String, _ platform: PlatformProfile, anchor: Bool, _ benchmark: Benchmark) async -> (Duration, Bool) {
        let cursor = text.count / 2
        let host = try! KeyboardTestHost(
            OneKeyKeyboard.self, document: text, cursor: cursor, latency: .milliseconds(30), platform: platform
        )
        try! host.show()
        let keyboard = host.controller!
        benchmark.startMeasurement()
        let result = await host.runToCompletion { () -> (before: String, after: String, elapsed: Duration)? in
            let start = keyboard.clock.now
            if anchor {
                guard let reading = try? await FixedSleepReader.standard.read(keyboard) else { return nil }
                return (reading.before, reading.after, reading.elapsed)
            }
            guard let context = try? await keyboard.readFullDocumentContext() else { return nil }
            return (context.fullDocumentContextBeforeInput, context.fullDocumentContextAfterInput, start.duration(to: keyboard.clock.now))
        }
        benchmark.stopMeasurement()
        precondition(host.document == text)
        guard let result = result.flatMap({ $0 }) else { return (.zero, false) }
        let isExact = result.before.count == cursor && result.before + result.after == text && host.cursor == cursor
        return (result.elapsed, isExact)
    }
}
