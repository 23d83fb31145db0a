import BenchmarkSupport
import Benchmark
import KeyboardExtension
import KeyboardTesting

// What one keystroke costs the host, at two document sizes a thousand times apart. The target
// (issue 3): an edit in the middle of a 4 MiB document costs within 2x of one in a 4 KiB document.

func textFieldBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2))
    for (name, bytes) in [("4 KiB", 4 << 10), ("4 MiB", 4 << 20)] {
        // The field alone: insert in the middle and cut the windows a snapshot needs, then delete
        // (so the document keeps its size).
        Benchmark("TextField edit in the middle, wayland windows, \(name)", configuration: configuration) { (benchmark: Benchmark, field: TextField) in
            var field = field
            for _ in benchmark.scaledIterations {
                field.insertText("x")
                blackHole(field.contextBefore(.wayland))
                blackHole(field.contextAfter(.wayland))
                field.deleteBackward()
                blackHole(field.contextBefore(.wayland))
                blackHole(field.contextAfter(.wayland))
            }
        } setup: {
            let text = sampleDocument(bytes: bytes)
            return TextField(text: text, cursor: text.count / 2)
        }

        Benchmark("TextField move the cursor and edit, sentence windows, \(name)", configuration: configuration) { (benchmark: Benchmark, field: TextField) in
            var field = field
            let middle = field.count / 2
            for iteration in benchmark.scaledIterations {
                field.moveCursor(to: middle + iteration % 1000)
                field.insertText("x")
                blackHole(field.contextBefore(.sentence))
                blackHole(field.contextAfter(.sentence))
                field.deleteBackward()
            }
        } setup: {
            TextField(text: sampleDocument(bytes: bytes))
        }

        // A whole keystroke as an extension sees it: tap, posted edit, applied, snapshot pushed
        // through the C ABI with will/did notifications.
        Benchmark("Session keystroke round trip in the middle, wayland, \(name)", configuration: configuration) { benchmark in
            // The harness runs the closure on one task, which waits here while the main actor works.
            nonisolated(unsafe) let benchmark = benchmark
            try await Keystrokes.run(sampleDocument(bytes: bytes), benchmark)
        }
    }
}

/// Keystrokes on a fresh host, each settled before the next (host set-up excluded).
@MainActor
enum Keystrokes {
    static func run(_ text: String, _ benchmark: Benchmark) async throws {
        let host = try KeyboardTestHost(OneKeyKeyboard.self, document: text, cursor: text.count / 2, policy: .wayland)
        try host.show()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            try host.tap("x")
            await host.settle()
            try host.tap(.delete)
            await host.settle()
        }
        benchmark.stopMeasurement()
        host.hide()
    }
}
