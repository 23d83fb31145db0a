import Benchmark
import BenchmarkSupport
import KeyboardExtension

// Release benchmarks of the host and the SDK. Run:
//   KBHOST_BENCHMARKS=1 swift package benchmark
// or one group: … benchmark --filter "Full document.*"

let benchmarks: @Sendable () -> Void = {
    textFieldBenchmarks()
    fullDocumentBenchmarks()
    isolationBenchmarks()
    anchorBenchmarks()
}
