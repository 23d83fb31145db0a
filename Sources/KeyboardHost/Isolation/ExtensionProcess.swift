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
    private let stat: ProcFile
    private let statm: ProcFile

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

        // A process group of its own: the host decides what a C-c means, and it never means "kill the
        // keyboard".
        let spawn = FreshSpawnAttributes(ownProcessGroup: true)

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
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, &spawn.attributes, argv, envp)
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
        stat = ProcFile("/proc/\(pid)/stat")
        statm = ProcFile("/proc/\(pid)/statm")
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
        var status: Int32 = 0
        guard kbx_wait_for_exit(pid, Int32(clamping: limit.nanosecondsClamped / 1_000_000), &status) == 1 else { return nil }
        exitStatus.withLock { $0 = status }
        return status
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
        guard let stat = stat.fields(after: UInt8(ascii: ")")) else { return nil }
        // After "pid (name) ": state, ppid, … utime is the 12th field from the state, stime the 13th.
        guard stat.count > 12, let state = stat[0].first,
              let user = Int(stat[11]), let system = Int(stat[12]) else { return nil }
        let ticks = Int(sysconf(Int32(_SC_CLK_TCK)))
        return (state, .milliseconds((user + system) * 1000 / max(ticks, 1)))
    }

    /// The child's resident memory in bytes, from /proc; `nil` once it is gone. Read at every `idle`
    /// under a memory limit — once per keystroke or so — hence the file kept open.
    var residentBytes: Int? {
        guard let fields = statm.fields(), fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A file of /proc about one child, opened once and read again with one `pread`: the host looks at a
/// child's memory at every `idle`, and opening the file by its pid each time cost more than the look.
/// Opened while the child runs, it stays about that child (a later process with its pid is not it);
/// once the child is gone, reading fails.
private final class ProcFile: @unchecked Sendable {
    private let fd: Int32

    init(_ path: String) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The file's fields (split at spaces), after the last `marker` if one is given; `nil` if it
    /// cannot be read.
    func fields(after marker: UInt8? = nil) -> [String]? {
        guard fd >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        var bytes = buffer[..<count]
        if let marker {
            guard let at = bytes.lastIndex(of: marker) else { return nil }
            bytes = bytes[(at + 1)...]
        }
        return bytes.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
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
