import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process the bench started and waited for: its exit status, its wall time from just before
/// `posix_spawn` to `wait4`, and what it wrote. (Not its peak memory: Linux carries a parent's
/// resident size over into its child's `ru_maxrss` at exec, so kbhost reports its own.)
struct Spawned {
    var status: Int32
    var wall: Duration
    var standardOutput: String
    var standardError: String
    /// CLOCK_MONOTONIC just before the spawn: `kbhost`'s timing marks (KBHOST_TIMINGS) are on the
    /// same clock.
    var startedAt: UInt64

    /// Runs `executable` with `arguments`, standard input from `input` (a file) or /dev/null.
    static func run(_ executable: String, _ arguments: [String], input: String = "/dev/null", environment extra: [String: String] = [:]) throws -> Spawned {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-bench-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path, err = folder.appendingPathComponent("err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let startedAt = monotonicNanoseconds()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let ended = monotonicNanoseconds()
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Spawned(
            status: exitStatus, wall: .nanoseconds(Int64(ended - startedAt)),
            standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "", startedAt: startedAt
        )
    }
}

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
