import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where `kbhost`'s time goes as it starts, for `scripts/bench`: with `KBHOST_TIMINGS` set, each
/// phase as it ends is one line on standard error, `kbhost: timing: PHASE NANOSECONDS`, read on
/// CLOCK_MONOTONIC, a clock the bench (another process) shares and reads when it starts `kbhost`.
/// Without it, a mark costs one check.
enum Timings {
    private static let enabled = getenv("KBHOST_TIMINGS") != nil

    /// Marks the start of `main`, and has kbhost report its peak resident memory as it exits
    /// (`kbhost: peak-memory BYTES`, /proc/self/status's VmHWM). From inside because a parent cannot
    /// learn it: a child's `ru_maxrss` starts at its parent's resident size, which exec carries over.
    static func start() {
        guard enabled else { return }
        mark("main")
        atexit {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { return }
            FileHandle.standardError.write(Data("kbhost: peak-memory \(kibibytes * 1024)\n".utf8))
        }
    }

    static func mark(_ phase: StaticString) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        FileHandle.standardError.write(Data("kbhost: timing: \(phase) \(nanoseconds)\n".utf8))
    }
}
