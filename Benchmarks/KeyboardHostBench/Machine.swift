import Foundation

extension Report.Machine {
    /// This machine, as /proc, uname, `swift --version` and git describe it.
    static func current() -> Report.Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown CPU"
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        func firstLine(_ arguments: [String]) -> String {
            guard let run = try? Spawned.run("/usr/bin/env", arguments), run.status == 0 else { return "unknown" }
            return run.standardOutput.split(separator: "\n").first.map(String.init) ?? "unknown"
        }
        return Report.Machine(
            cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGibibytes: Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, kernel: kernel,
            swift: firstLine(["swift", "--version"]), commit: firstLine(["git", "describe", "--always", "--dirty"]),
            date: ISO8601DateFormatter().string(from: Date())
        )
    }
}
