import ArgumentParser
import Foundation
import KeyboardHost

extension Isolation: ExpressibleByArgument {}

// As kbhost's (HostOptions, RunCommand): ArgumentParser is not KeyboardHost's to depend on, so each
// executable says it for itself.
extension ContextPolicy: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// `scripts/bench`'s measuring half: everything issue 16 asks of the host's speed and memory, on a
/// release build, as one table and one JSON file. Walks, taps and loading run in this process
/// (KeyboardTestHost, the SDK's walker); start-up and memory run the release `kbhost` beside it.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kbhost-bench",
        abstract: "Measure the host in release: walks, taps, loading, start-up and memory; print tables and write JSON."
    )

    @Option(help: ArgumentHelp("Where to write the JSON.", valueName: "file"))
    var json = "bench.json"

    @Flag(help: "A smoke run: 1 MiB only, one repetition, fewer taps (its figures are not the targets').")
    var quick = false

    enum Section: String, ExpressibleByArgument, CaseIterable {
        case taps, walks, load, startup, memory
    }

    @Option(help: ArgumentHelp("Measure only these (repeatable): \(Section.allCases.map(\.rawValue).joined(separator: ", ")); walks measure taps too, for the round trip.", valueName: "section"))
    var only: [Section] = []

    @Option(help: ArgumentHelp("Walk under these policies only (repeatable; default: characters:1024, wayland, sentence, paragraph, unlimited).", valueName: "policy"))
    var policy: [ContextPolicy] = []

    @Option(help: ArgumentHelp("Tap only with the keyboard so hosted (repeatable; default: both).", valueName: "isolation"))
    var isolation: [Isolation] = []

    private func wants(_ section: Section) -> Bool { only.isEmpty || only.contains(section) }

    @MainActor
    func run() async throws {
        let products = try ProcessBench.Products.beside("/proc/self/exe")
        let machine = Report.Machine.current()
        let sizes = quick ? [1 << 20] : [1 << 20, 4 << 20]
        let repetitions = quick ? 1 : 3

        let taps = wants(.taps) || wants(.walks)
            ? try await TapBench.run(
                taps: quick ? 2_000 : 20_000, isolatedTaps: quick ? 1_000 : 5_000, documentBytes: 4 << 20,
                isolations: isolation.isEmpty || wants(.walks) ? [.inProcess, .process] : isolation
            ) : []
        // One round trip: the median settled tap in process on an empty field.
        let hop = taps.first { $0.isolation == Isolation.inProcess.rawValue && $0.document == "empty field" }?.p50Microseconds ?? 0
        let walks = wants(.walks) ? try await WalkBench.run(sizes: sizes, policies: policy.isEmpty ? WalkBench.policies : policy, repetitions: repetitions, hop: .nanoseconds(Int64(hop * 1e3))) : []
        let anchors = wants(.walks) ? try await WalkBench.anchor(bytes: 1 << 20, walks: walks) : []
        let load = wants(.load) ? try WalkBench.load(bytes: 4 << 20, repetitions: 5) : []
        let startup = wants(.startup) ? try ProcessBench.startup(products, repetitions: quick ? 3 : 11) : nil
        let memory = wants(.memory)
            ? try ProcessBench.memory(products, bytes: 4 << 20, policies: quick ? ["wayland"] : (policy.isEmpty ? WalkBench.policies : policy).map(\.description)) : []

        let report = Report(
            machine: machine, roundTripMicroseconds: hop, walks: walks, linearity: Report.linearity(walks), anchors: anchors,
            taps: taps, load: load, startup: startup, memory: memory
        )
        report.printTables()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: json))
        print("JSON: \(json)")
    }
}
