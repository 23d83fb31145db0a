import CHostRuntime
import Dispatch
import Foundation

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
/// and error go to a pipe the host keeps the last lines of; the wire is a pipe each way (descriptors 3
/// from the host, 4 to it), its ``Doorbell`` is 5, and no other descriptor is inherited (the child
/// closes the rest before anything runs); it ends when its parent does (it watches for it on a thread
/// of its own, so even a child stuck in an endless loop goes).
final class ExtensionProcess: @unchecked Sendable {
    let pid: pid_t
    let channel: WireChannel
    private let output: OutputTail
    private let exitStatus = Locked<Int32?>(nil)
    /// The page the child notes the message it is handling in (see CHostRuntime.h).
    private let progressPage: UnsafeMutablePointer<UInt64>?
    private let stat: ProcFile
    private let statm: ProcFile

    /// Starts a worker; `nil` and why if it cannot be.
    static func launch() -> Result<ExtensionProcess, ExtensionFault.Kind> {
        _ = ignoreBrokenPipes
        // Four pipes, each end closed on exec: the wire's two ways, the doorbell, and the child's output.
        var pipes: [(read: Int32, write: Int32)] = []
        for _ in 0..<4 {
            guard let ends = closedOnExecPipe() else {
                let reason = String(cString: strerror(errno))
                pipes.forEach { close($0.read); close($0.write) }
                return .failure(.couldNotStart("pipe: \(reason)"))
            }
            pipes.append(ends)
        }
        let (toChild, fromChild, doorbell, output) = (pipes[0], pipes[1], pipes[2], pipes[3])
        // The wire's pipes as large as an unprivileged process may make them (1 MiB by default, against
        // 64 KiB): a large answer (a document read back) then crosses in fewer turns. Best effort.
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's Swift module does not name
        for end in [toChild.write, fromChild.write] { _ = fcntl(end, setPipeSize, 1 << 20) }
        for end in [doorbell.read, doorbell.write] { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        var pageDescriptor: Int32 = -1
        let page = kbx_progress_create(&pageDescriptor)
        defer {
            // The child's ends: the host keeps none, so the child's end is the wire's end.
            [toChild.read, fromChild.write, output.write].forEach { close($0) }
            if page != nil { close(pageDescriptor) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, output.write, 2)
        posix_spawn_file_actions_adddup2(&actions, toChild.read, Worker.fromHostDescriptor)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, Worker.toHostDescriptor)
        posix_spawn_file_actions_adddup2(&actions, doorbell.write, Worker.doorbellDescriptor)
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
            [toChild.write, fromChild.read, doorbell.read, doorbell.write, output.read].forEach { close($0) }
            if let page { kbx_progress_release(page) }
            return .failure(.couldNotStart("cannot start a child process: \(String(cString: strerror(spawned)))"))
        }
        let channel = WireChannel(
            reading: fromChild.read, writing: toChild.write, listening: Doorbell(fd: doorbell.read, keptOpen: doorbell.write)
        )
        return .success(ExtensionProcess(pid: pid, channel: channel, output: output.read, progressPage: page))
    }

    /// A write to a child that has died must fail, not kill the host: a pipe, unlike a socket, has no
    /// MSG_NOSIGNAL. So a host that starts a child ignores SIGPIPE — unless it set a handler of its own.
    private static let ignoreBrokenPipes: Void = {
        var current = sigaction()
        if sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
            signal(SIGPIPE, SIG_IGN)
        }
    }()

    private init(pid: pid_t, channel: WireChannel, output: Int32, progressPage: UnsafeMutablePointer<UInt64>?) {
        self.pid = pid
        self.channel = channel
        // The child's end shows first as the end of its output: then the host reads the wire, whose end
        // says so, at once rather than at the watchdog's next look.
        self.output = OutputTail(fd: output) { [weak channel] in
            DispatchQueue.main.async { MainActor.assumeIsolated { channel?.pump() } }
        }
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
            // Alive but its wire closed: it closed its end itself. Not a way to run; stopped.
            terminate()
            kind = .malformed("it closed its connection")
        case let status? where status & 0x7F == 0:
            kind = .exited(status: (status >> 8) & 0xFF)
        case let status?:
            let signal = status & 0x7F
            kind = signal == SIGKILL || signal == SIGTERM ? .killed(signal: signal) : .crashed(signal: signal)
        }
        // It has ended, so all it wrote is in the pipe: read it now, not when the source comes to it —
        // the host may learn of the end first, and the crash's message is in the last lines.
        if status != nil { output.readRest() }
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

/// A pipe whose ends close on exec (no other child inherits them); `nil` if none can be made (errno says why).
private func closedOnExecPipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
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

/// The last lines a child wrote, read as they come on a thread of its own.
///
/// A thread, not a dispatch source: a pipe whose writer has gone reports a hang-up, and libdispatch on
/// Linux unregisters a source that saw one on the source's own queue, while its manager thread may
/// still be walking the same bookkeeping (the race of swift-corelibs-libdispatch #949). With a source
/// here, `kbhost run` crashed in `_dispatch_event_loop_drain` in 1–3% of runs, as the child's output
/// ended. So the only dispatch source the host keeps on a child watches its ``Doorbell``, which never
/// hangs up.
private final class OutputTail: Sendable {
    private let reader: Reader
    /// The stop pipe's write end: closed, it wakes the thread to end even if the output never does (a
    /// grandchild of the child may hold it open).
    private let stop: Int32

    /// `ended` is called once, from the thread or from ``readRest()``, when the output has ended.
    init(fd: Int32, ended: @escaping @Sendable () -> Void) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let stopPipe = closedOnExecPipe()
        stop = stopPipe?.write ?? -1
        let reader = Reader(fd: fd, ended: ended)
        self.reader = reader
        let stopped = stopPipe?.read ?? -1
        let thread = Thread { reader.run(stop: stopped) }
        thread.name = "kbhost.extension-output"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    deinit {
        if stop >= 0 { close(stop) }
    }

    /// Reads everything written so far (for a child that has ended: all it will ever write).
    func readRest() {
        reader.readAvailable()
    }

    /// The child's last lines, oldest first; a line not yet ended last.
    var lines: [String] { reader.lines }

    /// What the thread and ``readRest()`` share, under one lock: the descriptor and the lines read.
    private final class Reader: Sendable {
        private struct State {
            var fd: Int32
            var lines: [String] = []
            var partial: [UInt8] = []
            var ended = false
        }
        private let state: Locked<State>
        private let ended: @Sendable () -> Void
        private static let keep = 200  // a Swift crash's message comes before a stack trace of 50 lines or more

        init(fd: Int32, ended: @escaping @Sendable () -> Void) {
            state = Locked(State(fd: fd))
            self.ended = ended
        }

        /// The thread: waits for output or for the stop pipe, reads, and closes both at the end.
        func run(stop: Int32) {
            var watched = [pollfd(fd: state.withLock { $0.fd }, events: Int16(POLLIN), revents: 0)]
            if stop >= 0 { watched.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
            while true {
                let ready = poll(&watched, nfds_t(watched.count), -1)
                if ready < 0, errno == EINTR { continue }
                if ready < 0 || (watched.count > 1 && watched[1].revents != 0) { break }
                if !readAvailable() { break }
            }
            if stop >= 0 { close(stop) }
            state.withLock { state in
                close(state.fd)
                state.fd = -1
            }
        }

        /// Reads what is there; whether the output may go on (`false` once it has ended).
        @discardableResult
        func readAvailable() -> Bool {
            let justEnded = state.withLock { state -> Bool? in
                guard state.fd >= 0, !state.ended else { return nil }
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(state.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        Self.take(chunk[0..<count], into: &state)
                    } else if count < 0, errno == EINTR {
                        continue
                    } else if count < 0, errno == EAGAIN {
                        return false
                    } else {
                        state.ended = true
                        return true
                    }
                }
            }
            guard let justEnded else { return false }
            if justEnded { ended() }
            return !justEnded
        }

        private static func take(_ bytes: ArraySlice<UInt8>, into state: inout State) {
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                } else if state.partial.count < 4096 {
                    state.partial.append(byte)
                }
            }
            if state.lines.count > keep { state.lines.removeFirst(state.lines.count - keep) }
        }

        var lines: [String] {
            state.withLock { state in
                state.lines + (state.partial.isEmpty ? [] : [String(decoding: state.partial, as: UTF8.self)])
            }
        }
    }
}
