import Foundation
import KeyboardHost

/// Builds the C fixture extension (`Tests/KeyboardHostTests/Fixtures/c_extension.c`) with the system C
/// compiler, once per set of macros, into a temporary folder.
public enum CFixture {
    public enum Output { case sharedLibrary, object }

    private static let built = Locked<[String: String]>([:])
    private static let folder: URL = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("kbhost-fixtures-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// The path of the fixture built with `defines` (e.g. `["FIXTURE_NULL_ENTRY"]`), against the
    /// header in `headers` (a folder relative to the package: today's by default; an older
    /// revision's, kept in the fixtures, for an extension built before the header grew).
    public static func build(
        _ name: String, defines: [String] = [], output: Output = .sharedLibrary, headers: String = "Sources/KeyboardExtensionABI/include"
    ) throws -> String {
        // Compiles one at a time: tests run in parallel and may ask for the same fixture at once.
        try built.withLock { built in
            if let path = built[name] { return path }
            let source = BuildProducts.packageRoot.appendingPathComponent("Tests/KeyboardHostTests/Fixtures/c_extension.c")
            let include = BuildProducts.packageRoot.appendingPathComponent(headers)
            let path = folder.appendingPathComponent(output == .object ? "\(name).o" : "lib\(name).so").path
            var arguments = ["-std=c11", "-Wall", "-Werror", "-fPIC", "-I", include.path]
            arguments += output == .object ? ["-c"] : ["-shared"]
            arguments += defines.map { "-D\($0)" } + ["-o", path, source.path]
            // Under scripts/sanitize the fixture is instrumented as the host is, by the toolchain's
            // clang, whose sanitizer runtime is the one in the test binary.
            var compiler = ["cc"]
            if let sanitizer = ProcessInfo.processInfo.environment["KBHOST_SANITIZER"], !sanitizer.isEmpty {
                compiler = ["clang", "-fsanitize=\(sanitizer)"]
            }
            let result = try Command.run("/usr/bin/env", compiler + arguments)
            guard result.status == 0 else { throw CompileError(output: result.standardError) }
            built[name] = path
            return path
        }
    }

    public struct CompileError: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "cc failed: \(output)" }
    }
}

/// Runs a program to completion and collects what it printed.
///
/// With posix_spawn and waitpid rather than Foundation's Process: in the test process, Process did not
/// reap a child that leaves a daemon behind (tmux's client), and waited forever.
public enum Command {
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Output goes to temporary files rather than pipes, so a chatty child can never block on a full
    /// pipe while the test waits for it. `executable` is a path, or a name looked up in PATH.
    /// `environment` adds to (or replaces in) this process's environment, for the child only.
    public static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kbhost-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = ["stdin", "stdout", "stderr"].map { folder.appendingPathComponent($0).path }
        try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: paths[0]))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, paths[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        // No signal blocked or ignored: a test runs on a pool thread that blocks most, and a tmux server
        // started with that mask never saw SIGCHLD or SIGHUP, outlived kill-server, and kept every REPL
        // under test running after the tests ended.
        let spawn = FreshSpawnAttributes(ownProcessGroup: false)
        let spawned = posix_spawnp(&pid, executable, &actions, &spawn.attributes, argv, envp)
        guard spawned == 0 else { throw SpawnError(executable: executable, code: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally: its code; killed by a signal: 128 + the signal, as shells report it.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus,
            standardOutput: contents(paths[1]), standardError: contents(paths[2])
        )
    }

    /// A file's text, read with read(2): `String(contentsOfFile:)` leaked its buffer under
    /// LeakSanitizer (FoundationEssentials' readBytesFromFile), once for every screen a tmux test read.
    private static func contents(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let code: Int32
        public var description: String { "cannot run \(executable): \(String(cString: strerror(code)))" }
    }
}
