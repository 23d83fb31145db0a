import Foundation

/// Everything one run of the bench measured: printed as tables, written as JSON to compare runs.
struct Report: Codable {
    struct Machine: Codable {
        var cpu: String
        var cores: Int
        var memoryGibibytes: Double
        var kernel: String
        var swift: String
        var commit: String
        var date: String
    }

    struct Walk: Codable {
        var kind: String
        var policy: String
        var bytes: Int
        var roundTrips: Int
        var minMilliseconds: Double
        var medianMilliseconds: Double
        /// Round trips × one round trip (a settled tap in process, this run) + one copy of the text.
        var limitMilliseconds: Double
        var ratioToLimit: Double
    }

    struct Anchor: Codable {
        var policy: String
        var bytes: Int
        var steps: Int
        var hostClockMilliseconds: Double
        var exact: Bool
        var oursMilliseconds: Double
        var ratio: Double
    }

    struct Taps: Codable {
        var isolation: String
        var document: String
        var taps: Int
        var tapsPerSecond: Double
        var p50Microseconds: Double
        var p90Microseconds: Double
        var p99Microseconds: Double
        var maxMicroseconds: Double
    }

    struct Load: Codable {
        var step: String
        var bytes: Int
        var milliseconds: Double
        var megabytesPerSecond: Double
    }

    struct Phase: Codable {
        var phase: String
        /// From just before the bench started kbhost.
        var milliseconds: Double
    }

    struct Startup: Codable {
        var versionMilliseconds: Double
        var runInProcessMilliseconds: Double
        var runIsolatedMilliseconds: Double
        var runToVersion: Double
        var phases: [Phase]
        var firstSnapshotAfterParsingMilliseconds: Double
    }

    struct Memory: Codable {
        var scenario: String
        var bytes: Int
        var peakMebibytes: Double
        var wallMilliseconds: Double
    }

    var machine: Machine
    var roundTripMicroseconds: Double
    var walks: [Walk]
    var linearity: [String: Double]
    var anchors: [Anchor]
    var taps: [Taps]
    var load: [Load]
    var startup: Startup?
    var memory: [Memory]

    /// 4 MiB time over 1 MiB time, per walk and policy: linear is 4.
    static func linearity(_ walks: [Walk]) -> [String: Double] {
        var ratios: [String: Double] = [:]
        for large in walks where large.bytes == 4 << 20 {
            guard let small = walks.first(where: { $0.kind == large.kind && $0.policy == large.policy && $0.bytes == 1 << 20 }) else { continue }
            ratios["\(large.kind) \(large.policy)"] = large.medianMilliseconds / small.medianMilliseconds
        }
        return ratios
    }

    func printTables() {
        print("Machine: \(machine.cpu), \(machine.cores) cores, \(String(format: "%.1f", machine.memoryGibibytes)) GiB, Linux \(machine.kernel); \(machine.swift); commit \(machine.commit); \(machine.date)")
        if roundTripMicroseconds > 0 { print("One round trip (a settled tap in process, empty field): \(String(format: "%.1f", roundTripMicroseconds)) µs") }
        print()
        table(
            "Whole-document walks in process (median of the runs; the limit is round trips × one round trip + one copy of the text)",
            ["walk", "policy", "size", "round trips", "min", "median", "limit", "× limit", "4 MiB / 1 MiB"],
            walks.map { walk in
                [walk.kind, walk.policy, size(walk.bytes), "\(walk.roundTrips)", ms(walk.minMilliseconds), ms(walk.medianMilliseconds),
                 ms(walk.limitMilliseconds), String(format: "%.2f", walk.ratioToLimit),
                 walk.bytes == 4 << 20 ? linearity["\(walk.kind) \(walk.policy)"].map { String(format: "%.2f", $0) } ?? "" : ""]
            }
        )
        table(
            "Beside a fixed-sleep reader (0.02 s a step, as the commercial SDKs; its time is on the host's clock, ours this machine's)",
            ["policy", "size", "its steps", "its time", "exact", "ours", "ours is faster by"],
            anchors.map { [$0.policy, size($0.bytes), "\($0.steps)", ms($0.hostClockMilliseconds), $0.exact ? "yes" : "no", ms($0.oursMilliseconds), String(format: "%.0f×", $0.ratio)] }
        )
        table(
            "Taps (each settled before the next)",
            ["isolation", "document", "taps", "taps/s", "p50", "p90", "p99", "max"],
            taps.map { [$0.isolation, $0.document, "\($0.taps)", String(format: "%.0f", $0.tapsPerSecond), us($0.p50Microseconds), us($0.p90Microseconds), us($0.p99Microseconds), us($0.maxMicroseconds)] }
        )
        table(
            "Loading a document", ["step", "size", "time", "MB/s"],
            load.map { [$0.step, size($0.bytes), ms($0.milliseconds), String(format: "%.0f", $0.megabytesPerSecond)] }
        )
        if let startup { table(
            "Start-up (medians; phases from just before kbhost was started, kbhost run --isolation in-process --type x)",
            ["what", "ms"],
            [["kbhost --version", ms(startup.versionMilliseconds)],
             ["kbhost run, in process", ms(startup.runInProcessMilliseconds)],
             ["kbhost run, isolated", ms(startup.runIsolatedMilliseconds)],
             ["run / --version", String(format: "%.2f", startup.runToVersion)],
             ["first snapshot after parsing", ms(startup.firstSnapshotAfterParsingMilliseconds)]]
                + startup.phases.map { ["  \($0.phase)", ms($0.milliseconds)] }
        ) }
        table(
            "Peak memory of kbhost (everything in its process)", ["scenario", "document", "peak MiB", "wall"],
            memory.map { [$0.scenario, size($0.bytes), String(format: "%.1f", $0.peakMebibytes), ms($0.wallMilliseconds)] }
        )
    }

    private func table(_ title: String, _ header: [String], _ rows: [[String]]) {
        guard !rows.isEmpty else { return }
        print(title)
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == 1 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        print("  " + line(header))
        for row in rows { print("  " + line(row)) }
        print()
    }

    private func size(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB" }
    private func ms(_ value: Double) -> String { value >= 100 ? String(format: "%.0f ms", value) : value >= 1 ? String(format: "%.2f ms", value) : String(format: "%.0f µs", value * 1e3) }
    private func us(_ value: Double) -> String { value >= 1000 ? String(format: "%.1f ms", value / 1e3) : String(format: "%.1f µs", value) }
}
