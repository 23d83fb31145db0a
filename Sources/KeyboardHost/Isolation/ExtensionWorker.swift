import CHostRuntime
import Dispatch
import Foundation
import KeyboardExtensionABI
import KeyboardModel

#if canImport(Glibc)
import Glibc
#endif

/// Where a worker finds its wire, and how it knows it is one.
enum Worker {
    /// The wire in the child: what the host sends comes on 3, what the child sends goes to 4.
    static let fromHostDescriptor: Int32 = 3
    static let toHostDescriptor: Int32 = 4
    /// The ``Doorbell`` the child rings when it sends what the host is not waiting for.
    static let doorbellDescriptor: Int32 = 5
    /// Where the child finds the page it notes its progress in (CHostRuntime maps it before `main`).
    static let progressDescriptor: Int32 = 6
    /// Set (to the parent's pid) in a child's environment: CHostRuntime's constructor then runs the
    /// worker instead of `main`.
    static let environmentKey = "KBHOST_EXTENSION_WORKER"
}

/// How a child answers `load`: 0 and the identity, or one of these and the reason.
enum LoadReply {
    static let failed: Int32 = 1
    /// The payload is the library's SHA-256.
    static let changed: Int32 = 2
    static let fileNotFound: Int32 = 3
}

/// The child's side of the wire: it loads the extension, makes each call the host sends on it through
/// an ``InProcessConnection`` — so an extension runs exactly as it does in process — and sends back
/// what the extension calls, its timers (on the host's clock), and when it has nothing left to run.
@MainActor
final class ExtensionWorker: ExtensionConnectionDelegate {
    private let channel: WireChannel
    private let scheduler = WorkerScheduler()
    private var connection: InProcessConnection?
    /// The last message handled, and the last one said to be idle after.
    private var handled: UInt64 = 0
    private var reportedIdle: UInt64 = 0
    private var waitingForIdle = false

    private init() {
        channel = WireChannel(
            reading: Worker.fromHostDescriptor, writing: Worker.toHostDescriptor, ringing: Doorbell(fd: Worker.doorbellDescriptor)
        )
        scheduler.send = { [weak self] in self?.send($0) }
    }

    /// Runs the worker on this process's main thread, for good: the host ends the process. Called
    /// before `main`, on the main thread, it serves the wire there (``WireChannel/serve(_:)``), which
    /// runs the main queue and Foundation's run loop between messages. (`dispatchMain()` would exit the
    /// thread, which cannot unwind through the dynamic loader's frames.)
    nonisolated static func run() -> Never {
        MainActor.assumeIsolated {
            let worker = ExtensionWorker()
            current = worker
            worker.channel.serve { frame in
                guard case .success(let bytes)? = frame else { exit(0) }  // the host has gone
                worker.received(bytes)
            }
        }
        exit(0)
    }

    private static var current: ExtensionWorker?

    private func received(_ bytes: [UInt8]) {
        let numbered: NumberedMessage
        do {
            numbered = try WireCodec.decodeToExtension(bytes)
        } catch {
            FileHandle.standardError.write(Data("kbhost worker: a malformed message from the host: \(error)\n".utf8))
            exit(70)
        }
        scheduler.hostNow.withLock { $0 = numbered.nowNanoseconds }
        handled = numbered.sequence
        kbx_worker_note_progress(numbered.sequence)
        // The host reads what comes until the answer to a call itself: no ring for that.
        channel.peerIsWaiting = numbered.message.isAnswered
        handle(numbered.message, sequence: numbered.sequence)
        channel.peerIsWaiting = false
        reportIdleWhenIdle()
    }

    private func handle(_ message: ToExtension, sequence: UInt64) {
        switch message {
        case .load(let library, let sha256, let version):
            guard speaks(version, sequence: sequence) else { return }
            do {
                start(try ExtensionLoader.load(path: library, sha256: sha256.isEmpty ? nil : sha256), sequence: sequence)
            } catch .changed(_, let found, _) {
                reply(sequence, LoadReply.changed, Array(found.utf8))
            } catch .fileNotFound {
                reply(sequence, LoadReply.fileNotFound, [])
            } catch {
                reply(sequence, LoadReply.failed, Array(error.reason.utf8))
            }
        case .loadClass(let mangledName, let identifier, let name, let version):
            guard speaks(version, sequence: sequence) else { return }
            guard let type = _typeByName(mangledName) as? any ExportableKeyboard.Type else {
                return reply(sequence, LoadReply.failed, Array("no keyboard class \(name) in this program to run in a child process (a class local to a function cannot be found by name: declare it at the top level, or host it with isolation: .inProcess)".utf8))
            }
            do {
                start(try ExtensionLoader.load(class: type, identifier: identifier, name: name, isolation: .inProcess), sequence: sequence)
            } catch {
                reply(sequence, LoadReply.failed, Array(error.reason.utf8))
            }
        case .createInstance(let settings):
            reply(sequence, connection?.createInstance(settingsJSON: settings) == true ? 0 : 1, [])
        case .createConfiguration:
            let (status, json) = connection?.createConfiguration() ?? (kbx_status(KBX_STATUS_FAILED), [])
            reply(sequence, status, json)
        case .lifecycle(let event): connection?.lifecycle(kbx_lifecycle_event(event))
        case .textInput(let event): connection?.textInput(kbx_text_event(event))
        case .snapshot(let snapshot): connection?.updateSnapshot(snapshot)
        case .keyEvent(let event):
            reply(sequence, connection?.keyEvent(event) ?? kbx_status(KBX_STATUS_FAILED), [])
        case .hostCommand(let command, let request):
            if let command = HostCommand(code: command) { connection?.hostCommand(command, request: request) }
        case .cancelCommand(let request): connection?.cancelCommand(request: request)
        case .fireTimer(let token): scheduler.fire(token)
        case .destroyInstance: connection?.destroyInstance()
        case .barrier: reply(sequence, 0, [])
        }
    }

    /// Whether this worker speaks the host's wire `version`; if not, the load is answered so.
    private func speaks(_ version: UInt32, sequence: UInt64) -> Bool {
        guard version != Wire.version else { return true }
        reply(sequence, LoadReply.failed, Array("the host speaks wire version \(version); this worker \(Wire.version)".utf8))
        return false
    }

    /// Runs `loaded` from now on, and answers the load with who it is.
    private func start(_ loaded: LoadedExtension, sequence: UInt64) {
        let connection = InProcessConnection(loaded, scheduler: scheduler)
        connection.delegate = self
        self.connection = connection
        let identity = LoadedIdentity(
            identifier: loaded.identifier, name: loaded.name, version: loaded.version, abiVersion: loaded.abiVersion,
            keyGestures: loaded.takesKeyGestures
        )
        reply(sequence, 0, Array((try? JSONEncoder().encode(identity)) ?? Data()))
    }

    /// Answers a call. If the extension has nothing left to run, it says so first: then the host, which
    /// waits for the answer, has the `idle` too when it has the answer — as a call in process returns
    /// with its work done.
    private func reply(_ sequence: UInt64, _ status: Int32, _ payload: [UInt8]) {
        if !waitingForIdle, connection?.work?.isIdle ?? true { sendIdle() }
        send(.reply(sequence: sequence, status: status, payload: payload))
        // The host waits for this: it goes now, with what was held before it (the extension's calls
        // during the callback, the idle), in one write — not after the rest of the batch.
        if !channel.release(timeout: .seconds(30), keepHolding: channel.isHolding) { exit(0) }
        channel.peerIsWaiting = false
    }

    private func send(_ message: FromExtension) {
        // A host that stopped reading for this long has given up on this child.
        if !channel.write(WireCodec.encode(message), timeout: .seconds(30)) { exit(0) }
    }

    /// Tells the host once the extension has nothing left to run after the last message — at once if
    /// that is now, else when its work ends (``ExtensionWork/idle()``).
    private func reportIdleWhenIdle() {
        guard let work = connection?.work ?? scheduler.lastWork, !waitingForIdle else {
            if connection == nil { sendIdle() }
            return
        }
        if work.isIdle { return sendIdle() }
        waitingForIdle = true
        _ = ExtensionWork.unattributed {
            Task { @MainActor in
                await work.idle()
                waitingForIdle = false
                sendIdle()
            }
        }
    }

    private func sendIdle() {
        guard handled > reportedIdle else { return }
        reportedIdle = handled
        send(.idle(sequence: handled))
    }

    // MARK: ExtensionConnectionDelegate

    func extensionCalled(_ call: ExtensionCall) {
        send(.call(call))
    }

    func extensionFailed(_ fault: ExtensionFault) {}
}

/// The host's clock, as the child sees it: `now` is the host's time at its latest message (the
/// extension runs only in answer to one), and timers are set on the host's scheduler over the wire.
final class WorkerScheduler: HostScheduler, @unchecked Sendable {
    let hostNow = Locked<UInt64>(0)
    /// Sends a message to the host (set by the worker).
    @MainActor var send: ((FromExtension) -> Void)?
    @MainActor private var timers: [UInt64: @MainActor () -> Void] = [:]
    @MainActor private var nextToken: UInt64 = 1
    /// The extension work the worker's connection counts.
    @MainActor private(set) var lastWork: ExtensionWork?

    nonisolated var now: Duration { .nanoseconds(Int64(clamping: hostNow.withLock { $0 })) }

    func schedule(after delay: Duration, _ work: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated(work) }
    }

    func scheduleTimer(
        after delay: Duration, label: String, repeats: Bool, _ work: @escaping @MainActor () -> Void
    ) -> @MainActor () -> Void {
        let token = nextToken
        nextToken += 1
        timers[token] = work
        send?(.scheduleTimer(token: token, delayNanoseconds: UInt64(max(delay.nanosecondsClamped, 0)), repeats: repeats, label: label))
        return { [weak self] in
            guard let self, timers.removeValue(forKey: token) != nil else { return }
            send?(.cancelTimer(token: token))
        }
    }

    /// The host says timer `token` is due.
    func fire(_ token: UInt64) {
        timers.removeValue(forKey: token)?()
    }

    func makeExtensionWork() -> ExtensionWork? {
        let work = ExtensionWork()
        lastWork = work
        return work
    }
}

/// Called by CHostRuntime's constructor, before `main`, in a child the host started: runs the worker.
@_cdecl("kbx_run_extension_worker")
func runExtensionWorker() {
    ExtensionWorker.run()
}
