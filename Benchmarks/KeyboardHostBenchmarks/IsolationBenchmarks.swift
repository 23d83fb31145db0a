import BenchmarkSupport
import Benchmark
import KeyboardExtension
import KeyboardTesting

// What process isolation costs (issue 13), each beside the same work in process. Targets: at least
// 50,000 taps/s with the keyboard in a child process; a 1 MiB wayland read asked for by the host
// within 3x of the in-process one. Both modes go through the same path — the host's tap and the host's
// command — so the difference is the wire. The child is this benchmark binary started again, which
// finds OneKeyKeyboard by its name.

func isolationBenchmarks() {
    let taps = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], warmupIterations: 1, scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 50
    )
    let reads = Benchmark.Configuration(metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 15)
    for isolation in Isolation.allCases {
        // Throughput is taps per second (scaled: 1,000 taps an iteration); the host applies what
        // the keyboard typed after every 100.
        Benchmark("Isolation: taps, \(isolation)", configuration: taps) { benchmark in
            nonisolated(unsafe) let benchmark = benchmark
            await IsolationRun.taps(benchmark, isolation)
        }
        if isolation == .process {
            // Under a memory limit the host reads the child's memory at every idle: once a tap.
            Benchmark("Isolation: taps, process, memory limit", configuration: taps) { benchmark in
                nonisolated(unsafe) let benchmark = benchmark
                await IsolationRun.taps(benchmark, isolation, memoryLimit: 512 << 20)
            }
        }
        Benchmark("Isolation: full document read asked by the host, wayland, 1 MiB, \(isolation)", configuration: reads) { benchmark in
            nonisolated(unsafe) let benchmark = benchmark
            await IsolationRun.read(sampleDocument(bytes: 1 << 20), benchmark, isolation)
        }
    }
}

@MainActor
enum IsolationRun {
    static func taps(_ benchmark: Benchmark, _ isolation: Isolation, memoryLimit: Int? = nil) async {
        let host = try! KeyboardTestHost(OneKeyKeyboard.self, isolation: isolation)
        host.session.isolationLimits.memory = memoryLimit
        try! host.show()
        benchmark.startMeasurement()
        var tapped = 0
        for _ in benchmark.scaledIterations {
            try! host.tap("x")
            tapped += 1
            if tapped % 100 == 0 { await host.settle() }
        }
        await host.settle()
        benchmark.stopMeasurement()
        precondition(host.document.count == tapped && host.fault == nil)
    }

    static func read(_ text: String, _ benchmark: Benchmark, _ isolation: Isolation) async {
        let host = try! KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: text.count / 2, policy: .wayland, isolation: isolation)
        try! host.show()
        benchmark.startMeasurement()
        let read = host.send(.readFullDocument)
        await host.settle()
        let answer = await host.result(of: read)
        benchmark.stopMeasurement()
        precondition(answer.succeeded && (answer.before?.count ?? 0) + (answer.after?.count ?? 0) == text.count)
    }
}
