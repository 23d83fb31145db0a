import CHostRuntime
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process that runs one extension (``ExtensionWorker``), as its host sees it: its wire, its
/// output, how it ended.
///
/// The child is this very executable, started again (`/proc/self/exe`) with `KBHOST_EXTENSION_WORKER`
/// set: CHostRuntime's constructor sees it before `main` and runs the worker instead. So every host
/// that links KeyboardHost — `kbhost`, a test binary, an app — carries its worker, and no second
/// executable has to be found or kept in step. Its hygiene: standard input is /dev/null; standard output
/// and error go to a pipe the host keeps the last lines of; the wire is descriptor 3 and no other
/// descriptor is inherited (the child closes the rest before anything runs); it ends when its parent
/// does (it watches for it on a thread of its own, so even a child stuck in an endless loop goes).
final class ExtensionProcess: @unchecked Sendable {
    let pid: pid_t
    let channel: WireChannel
    private let output: OutputTail
    private let exitStatus = Mutex<Int32?>(nil)
    /// The page the child notes the message it is handling in (see CHostRuntime.h).
    private let progressPage: UnsafeMutablePointer<UInt64>?

    /// Starts a worker; `nil` and why if it cannot be.
    static func launch() -> Result<ExtensionProcess, ExtensionFault.Kind> {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            return .failure(.couldNotStart("socketpair: \(String(cString: strerror(errno)))"))
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0, fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            close(sockets[0]); close(sockets[1])
            return .failure(.couldNotStart("pipe: \(String(cString: strerror(errno)))"))
        }
        var pageDescriptor: Int32 = -1
        let page = kbx_progress_create(&pageDescriptor)
        defer {
            close(sockets[1])
            close(pipeEnds[1])
            if page != nil { close(pageDescriptor) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_adddup2(&actions, sockets[1], Worker.wireDescriptor)
        if page != nil { posix_spawn_file_actions_adddup2(&actions, pageDescriptor, Worker.progressDescriptor) }

        // Signals as a new process expects them, whatever the host blocked or ignored; and a process
        // group of its own, so the terminal's signals (C-c, C-\, C-z) reach the host alone — the host
        // decides what a C-c means, and it never means "kill the keyboard".
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environment = ProcessInfo.processInfo.environment
        environment[Worker.environmentKey] = "\(getpid())"
        // A crash is a crash at once: Swift's backtracer would first spend seconds symbolicating,
        // silent on the wire, and the host would take it for a hang. (A fatalError's message is
        // written before the signal either way, and reaches the fault report.)
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let argv = [strdup("kbhost-extension-worker"), nil]
        defer { argv.forEach { free($0) } }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            close(sockets[0]); close(pipeEnds[0])
            if let page { kbx_progress_release(page) }
            return .failure(.couldNotStart("cannot start a child process: \(String(cString: strerror(spawned)))"))
        }
        return .success(ExtensionProcess(pid: pid, wire: sockets[0], output: pipeEnds[0], progressPage: page))
    }

    private init(pid: pid_t, wire: Int32, output: Int32, progressPage: UnsafeMutablePointer<UInt64>?) {
        self.pid = pid
        channel = WireChannel(fd: wire)
        self.output = OutputTail(fd: output)
        self.progressPage = progressPage
    }

    deinit {
        terminate()
        if let progressPage { kbx_progress_release(progressPage) }
    }

    /// The number of the message the child last began to handle (0 before the first); `nil` if the
    /// page could not be shared. It stays readable after the child has died: how the host tells which
    /// callback a crash happened in.
    var lastBegun: UInt64? {
        progressPage.map { kbx_progress_read($0) }
    }

    /// The child's last lines of standard output and error, oldest first.
    var lastLines: [String] { output.lines }

    /// Kills the child (if it still runs) and reaps it.
    func terminate() {
        channel.stop()
        if exitStatus.withLock({ $0 }) == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(within: .seconds(5))
        }
    }

    /// How the child ended, waiting for it at most `within`: `nil` if it still runs.
    @discardableResult
    func waitForExit(within limit: Duration) -> Int32? {
        if let status = exitStatus.withLock({ $0 }) { return status }
        let deadline = ContinuousClock.now + limit
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                exitStatus.withLock { $0 = status }
                return status
            }
            if result < 0, errno != EINTR { return nil }
            if ContinuousClock.now >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// How the child ended, as a fault of `name`'s (it was killed by the host when `killedByHost`).
    func fault(name: String, during: String?) -> ExtensionFault {
        let status = waitForExit(within: .milliseconds(500))
        let kind: ExtensionFault.Kind
        switch status {
        case nil:
            // Alive but its wire closed: it shut the socket itself. Not a way to run; stopped.
            terminate()
            kind = .malformed("it closed its connection")
        case let status? where status & 0x7F == 0:
            kind = .exited(status: (status >> 8) & 0xFF)
        case let status?:
            let signal = status & 0x7F
            kind = signal == SIGKILL || signal == SIGTERM ? .killed(signal: signal) : .crashed(signal: signal)
        }
        return ExtensionFault(name: name, kind: kind, during: during, standardError: lastLines)
    }

    /// What the child is doing, from /proc: its state (R runnable, S sleeping, D waiting on the disk,
    /// …) and the CPU time it has used; `nil` once it is gone.
    var progress: (state: Character, cpu: Duration)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (name) ": state, ppid, … utime is the 12th field from the state, stime the 13th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let state = fields[0].first, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        let ticks = Int(sysconf(Int32(_SC_CLK_TCK)))
        return (state, .milliseconds((user + system) * 1000 / max(ticks, 1)))
    }

    /// The child's resident memory in bytes, from /proc; `nil` once it is gone.
    var residentBytes: Int? {
        guard let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The last lines a child wrote, read as they come on a queue of their own.
private final class OutputTail: @unchecked Sendable {
    private let state = Mutex<(lines: [String], partial: [UInt8])>(([], []))
    private let source: DispatchSourceRead
    private static let keep = 200  // a Swift crash's message comes before a stack trace of 50 lines or more

    init(fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "kbhost.extension-output"))
        source.setEventHandler { [weak self, source] in
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count == 0 || (errno != EAGAIN && errno != EINTR) { source.cancel() }
                return
            }
            self?.take(chunk[0..<count])
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        state.withLock { state in
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                } else if state.partial.count < 4096 {
                    state.partial.append(byte)
                }
            }
            if state.lines.count > Self.keep { state.lines.removeFirst(state.lines.count - Self.keep) }
        }
    }

    var lines: [String] {
        state.withLock { state in
            state.lines + (state.partial.isEmpty ? [] : [String(decoding: state.partial, as: UTF8.self)])
        }
    }
}
