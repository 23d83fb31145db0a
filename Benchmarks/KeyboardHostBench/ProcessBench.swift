import BenchmarkSupport
import Foundation

/// What `kbhost` itself costs, as a user runs it (release build): starting, and the memory of a
/// process that holds a large document, walks it, or hosts three keyboards over it.
enum ProcessBench {
    /// The release `kbhost` and the samples, in the folder this executable was built into.
    struct Products {
        let folder: String
        var kbhost: String { folder + "/kbhost" }
        func sample(_ name: String) -> String { folder + "/lib\(name).so" }

        static func beside(_ executable: String) throws -> Products {
            let folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent().path
            let products = Products(folder: folder)
            for path in [products.kbhost, products.sample("HelloKeyboard"), products.sample("QwertyKeyboard"), products.sample("SecurePasscodeKeyboard")]
            where !FileManager.default.fileExists(atPath: path) {
                throw BenchError("\(path) is missing: build it in release first (scripts/bench does)")
            }
            return products
        }
    }

    /// `kbhost --version` beside a trivial `kbhost run` (one key, in process and isolated), and the
    /// phases of the run as kbhost marks them (KBHOST_TIMINGS), medians of `repetitions`.
    static func startup(_ products: Products, repetitions: Int) throws -> Report.Startup {
        func median(_ arguments: [String]) throws -> (Double, [String: Double]) {
            var walls: [Double] = []
            var phases: [String: [Double]] = [:]
            for _ in 0..<repetitions {
                let run = try Spawned.run(products.kbhost, arguments, environment: ["KBHOST_TIMINGS": "1"])
                guard run.status == 0 else { throw BenchError("kbhost \(arguments.joined(separator: " ")) exited \(run.status): \(run.standardError)") }
                walls.append(run.wall.milliseconds)
                for line in run.standardError.split(separator: "\n") where line.hasPrefix("kbhost: timing: ") {
                    let parts = line.split(separator: " ")
                    guard parts.count == 4, let at = UInt64(parts[3]) else { continue }
                    phases[String(parts[2]), default: []].append(Double(Int64(at) - Int64(run.startedAt)) / 1e6)
                }
            }
            return (middle(walls), phases.mapValues(middle))
        }
        let (version, _) = try median(["--version"])
        let hello = products.sample("HelloKeyboard")
        let (inProcess, phases) = try median(["run", hello, "--isolation", "in-process", "--type", "x"])
        let (isolated, _) = try median(["run", hello, "--type", "x"])
        let order = ["main", "parsed", "read", "configured", "loaded", "shown", "typed", "acted", "printed"]
        return Report.Startup(
            versionMilliseconds: version, runInProcessMilliseconds: inProcess, runIsolatedMilliseconds: isolated,
            runToVersion: inProcess / version,
            phases: order.compactMap { name in phases[name].map { Report.Phase(phase: name, milliseconds: $0) } },
            firstSnapshotAfterParsingMilliseconds: (phases["shown"] ?? 0) - (phases["parsed"] ?? 0)
        )
    }

    /// Peak resident memory of `kbhost` (everything in its process: `--isolation in-process`) with a
    /// document of `bytes`: held, walked under each policy, and with three keyboards loaded over it.
    static func memory(_ products: Products, bytes: Int, policies: [String]) throws -> [Report.Memory] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-bench-\(getpid()).txt")
        try Data(numberedDocument(bytes: bytes).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let hello = products.sample("HelloKeyboard")
        let common = ["--isolation", "in-process", "--document", file.path, "--text-limit", "64"]
        var scenarios: [(String, [String], String)] = [("held, one keyboard", ["run", hello] + common + ["--type", "x"], "/dev/null")]
        for policy in policies {
            scenarios.append(("read walk, \(policy)", ["run", hello] + common + ["--policy", policy, "--action", "read-full-document"], "/dev/null"))
            scenarios.append(("delete walk, \(policy)", ["run", hello] + common + ["--policy", policy, "--action", "delete-full-document"], "/dev/null"))
        }
        // The REPL with three keyboards loaded, fed one line (piped mode types it through the first).
        let line = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-bench-\(getpid()).keys")
        try Data("x\n".utf8).write(to: line)
        defer { try? FileManager.default.removeItem(at: line) }
        scenarios.append((
            "REPL, three keyboards",
            ["repl", hello, products.sample("QwertyKeyboard"), products.sample("SecurePasscodeKeyboard"), "--isolation", "in-process", "--document", file.path],
            line.path
        ))
        var results: [Report.Memory] = []
        for (name, arguments, input) in scenarios {
            let run = try Spawned.run(products.kbhost, arguments, input: input, environment: ["KBHOST_TIMINGS": "1"])
            guard run.status == 0 else { throw BenchError("kbhost \(name) exited \(run.status): \(run.standardError.prefix(400))") }
            // kbhost's own report: ru_maxrss would start at this process's size (Spawned says why).
            guard let peak = run.standardError.split(separator: "\n").last(where: { $0.hasPrefix("kbhost: peak-memory ") })
                .flatMap({ Int($0.split(separator: " ").last!) })
            else { throw BenchError("kbhost \(name) did not report its peak memory") }
            results.append(Report.Memory(scenario: name, bytes: bytes, peakMebibytes: Double(peak) / 1_048_576, wallMilliseconds: run.wall.milliseconds))
            progress("memory \(name): \(results.last!.peakMebibytes) MiB")
        }
        return results
    }

    private static func middle(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
    }
}
