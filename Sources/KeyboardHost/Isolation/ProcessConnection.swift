import Dispatch
import Foundation
import KeyboardExtensionABI
import KeyboardModel

/// An ``ExtensionConnection`` to an extension running in a child process of its own
/// (``ExtensionProcess``, ``ExtensionWorker``): each call of the descriptor travels as a message of the
/// wire (``ToExtension``), and the extension's calls come back the same way (``FromExtension``).
///
/// Only the calls that return something wait for the child's reply — create_instance,
/// create_configuration and key_event — handling the extension's calls as they come meanwhile, as an
/// in-process call would. The rest flow one way; the child says when it has handled them and has
/// nothing left to run (`idle`), which a host on virtual time counts as the extension's work.
///
/// Whatever the child does, the host's text is safe: a crash, an exit, a callback not answered within
/// ``Limits/answer``, more calls or bytes than ``Limits`` allow, a malformed message, memory over
/// ``Limits/memory`` — each ends the child and reaches the session as one ``ExtensionFault``.
@MainActor
final class ProcessConnection: ExtensionConnection {
    typealias Limits = IsolationLimits

    weak var delegate: (any ExtensionConnectionDelegate)?
    let work: ExtensionWork?
    private let loaded: LoadedExtension
    private let scheduler: any HostScheduler
    var limits: Limits
    private var process: ExtensionProcess?
    private var sequence: UInt64 = 0
    /// Messages sent and not yet covered by an `idle`, oldest first: their numbers and callbacks.
    private var outstanding: [(sequence: UInt64, callback: String)] = []
    private var callsSinceIdle = 0
    /// The callback under way in the child, for a fault's report.
    private var inFlight: String?
    private var lastHeard = ContinuousClock.now {
        didSet { silenceWatch = nil }
    }
    /// What the child was doing when it fell silent, for telling stuck from slow.
    private var silenceWatch: SilenceWatch?
    private var watchdog: DispatchSourceTimer?
    /// Timers the child set on the host's clock, by its tokens.
    private var timers: [UInt64: @MainActor () -> Void] = [:]
    private var hasInstance = false
    /// Set once the child is gone for good: every call is then a no-op.
    private(set) var fault: ExtensionFault?

    init(_ loaded: LoadedExtension, scheduler: any HostScheduler, limits: Limits = .standard) {
        self.loaded = loaded
        self.scheduler = scheduler
        self.limits = limits
        // Counted on real time too: a host there still waits for the child to be idle after its edits
        // are applied (``KeyboardSession/settle()``), for the keyboard state the child reports comes
        // with them (an automatic shift), where in process it comes at once.
        work = scheduler.makeExtensionWork() ?? ExtensionWork()
        work?.beforeWaiting = { [weak self] in self?.lookForAnswer() }
    }

    /// Before a wait for the child to go idle suspends (a settle, a walk's next window): reads its
    /// answer if it comes within a moment. The answer to a posted message usually follows at once, and
    /// read here it costs no wake-up, where the doorbell costs two (the dispatch manager's, then the
    /// main queue's). Bounded, so a chatty child cannot hold the main actor.
    private func lookForAnswer() {
        let until = ContinuousClock.now + .milliseconds(1)
        while fault == nil, !outstanding.isEmpty, ContinuousClock.now < until, let process,
              process.channel.pumpWhenReadable() {}
    }

    isolated deinit {
        stopChild()
    }

    /// The child's process id, while it runs.
    var childPID: pid_t? { process?.pid }

    // MARK: Starting

    /// Starts a child for `loaded`'s library, has it load and check the library, and checks it is the
    /// same extension. `nil`, or the fault (reported) if it cannot.
    private func startChild() -> ExtensionFault? {
        let process: ExtensionProcess
        switch ExtensionProcess.launch() {
        case .failure(let kind): return report(ExtensionFault(name: loaded.name, kind: kind))
        case .success(let started): process = started
        }
        self.process = process
        fault = nil
        process.channel.startReading { [weak self] frame in self?.received(frame) }
        startWatchdog()
        let load: ToExtension
        if let library = loaded.library {
            load = .load(library: library, sha256: loaded.sha256 ?? "", wireVersion: Wire.version)
        } else if let className = loaded.className {
            load = .loadClass(mangledName: className, identifier: loaded.identifier, name: loaded.name, wireVersion: Wire.version)
        } else {
            return fail(.couldNotStart("it has no library to load in a child process"))
        }
        let answer = call(load, limit: limits.start)
        guard let (status, payload) = answer else { return fault }
        guard status == 0, let identity = try? JSONDecoder().decode(LoadedIdentity.self, from: Data(payload)) else {
            return fail(.couldNotStart(String(decoding: payload, as: UTF8.self)))
        }
        guard identity.identifier == loaded.identifier, identity.version == loaded.version else {
            return fail(.couldNotStart("its library is now \(identity.identifier) \(identity.version), not the \(loaded.identifier) \(loaded.version) loaded before"))
        }
        return nil
    }

    /// Loads the library at `path` in a child of its own, checks its descriptor there, and returns who
    /// it is; the child then ends. What isolated loading is: nothing of the library runs in the host.
    static func probe(path: String, absolute: String, sha256: String?) throws(LoadError) -> LoadedExtension {
        let placeholder = LoadedExtension(
            source: path, identifier: "", name: path, version: "", abiVersion: 0, takesKeyGestures: false, isolation: .process,
            library: absolute, sha256: sha256, className: nil, descriptor: nil, callbacks: nil
        )
        let connection = ProcessConnection(placeholder, scheduler: MainQueueScheduler())
        let result = connection.probe(path: path)
        connection.stopChild()
        switch result {
        case .failure(let error): throw error
        case .success(let identity):
            return LoadedExtension(
                source: path, identifier: identity.identifier, name: identity.name, version: identity.version,
                abiVersion: identity.abiVersion, takesKeyGestures: identity.keyGestures, isolation: .process,
                library: absolute, sha256: sha256,
                className: nil, descriptor: nil, callbacks: nil
            )
        }
    }

    private func probe(path: String) -> Result<LoadedIdentity, LoadError> {
        switch ExtensionProcess.launch() {
        case .failure(let kind):
            return .failure(.failedInChild(path: path, reason: ExtensionFault(name: "it", kind: kind).description))
        case .success(let started): process = started
        }
        let answer = call(.load(library: loaded.library ?? path, sha256: loaded.sha256 ?? "", wireVersion: Wire.version), limit: limits.start)
        guard let (status, payload) = answer else {
            let reason = (fault.map { "its child process \($0.description.dropFirst(loaded.name.count + 1))" }) ?? "its child process failed"
            return .failure(.failedInChild(path: path, reason: reason))
        }
        let text = String(decoding: payload, as: UTF8.self)
        switch status {
        case 0:
            guard let identity = try? JSONDecoder().decode(LoadedIdentity.self, from: Data(payload)) else {
                return .failure(.failedInChild(path: path, reason: "its child process answered with no identity"))
            }
            return .success(identity)
        case LoadReply.changed: return .failure(.changed(path: path, found: text, expected: loaded.sha256 ?? ""))
        case LoadReply.fileNotFound: return .failure(.fileNotFound(path: path))
        default: return .failure(.failedInChild(path: path, reason: text))  // the child's words: a LoadError's reason
        }
    }

    // MARK: ExtensionConnection

    func createInstance(settingsJSON: String) -> Bool {
        if process == nil || fault != nil {
            if startChild() != nil { return false }  // reported
        }
        guard let (status, _) = call(.createInstance(settingsJSON: settingsJSON)) else { return false }
        hasInstance = status == 0
        return hasInstance
    }

    func createConfiguration() -> (status: kbx_status, json: [UInt8]) {
        guard let (status, json) = call(.createConfiguration) else { return (kbx_status(KBX_STATUS_FAILED), []) }
        return (status, json)
    }

    func lifecycle(_ event: kbx_lifecycle_event) { post(.lifecycle(event)) }
    func textInput(_ event: kbx_text_event) { post(.textInput(event)) }
    func updateSnapshot(_ snapshot: Snapshot) { post(.snapshot(snapshot)) }

    func keyEvent(_ event: KeyEvent) -> kbx_status {
        call(.keyEvent(event))?.status ?? kbx_status(KBX_STATUS_FAILED)
    }

    func hostCommand(_ command: HostCommand, request: UInt64) {
        post(.hostCommand(command: command.code, request: request))
    }

    func cancelCommand(request: UInt64) { post(.cancelCommand(request: request)) }

    func together(_ body: () -> Void) {
        guard let process, fault == nil, !process.channel.isHolding else { return body() }
        process.channel.hold()
        body()
        if !process.channel.release(timeout: limits.answer) { _ = childEnded() }
    }

    func barrier() {
        _ = call(.barrier)
    }

    func destroyInstance() {
        guard hasInstance else { return }
        hasInstance = false
        post(.destroyInstance)
        cancelTimers()
    }

    // MARK: Sending

    /// Sends `message` without waiting for an answer.
    private func post(_ message: ToExtension) {
        // The child rings for what the host does not wait for, and only for that (``ToExtension/isAnswered``).
        precondition(!message.isAnswered, "\(message) is answered: call it")
        _ = send(message)
    }

    /// Sends `message`; its number, or `nil` if the child is gone.
    private func send(_ message: ToExtension) -> UInt64? {
        guard let process, fault == nil else { return nil }
        sequence += 1
        let numbered = NumberedMessage(
            sequence: sequence, nowNanoseconds: UInt64(max(scheduler.now.nanosecondsClamped, 0)), message: message
        )
        if outstanding.isEmpty { lastHeard = .now }
        outstanding.append((sequence, name(of: message)))
        work?.began()
        // Written at once, not held for the end of the turn (as the child does with its answers): the
        // host's main queue may be held up by another session's waited call, and a child that has not
        // been sent its message must not be judged silent.
        guard process.channel.write(WireCodec.encode(numbered), timeout: limits.answer) else {
            _ = childEnded()
            return nil
        }
        return sequence
    }

    /// Sends `message` and waits for its reply, handling what else the child sends meanwhile (the
    /// extension's calls during the callback). `nil` if the child failed instead: then ``fault`` says how.
    private func call(_ message: ToExtension, limit: Duration? = nil) -> (status: Int32, payload: [UInt8])? {
        precondition(message.isAnswered, "\(message) is not answered: post it")
        guard let awaited = send(message), let process else { return nil }
        inFlight = name(of: message)
        defer {
            inFlight = nil
            // What came with the reply (the child's `idle`, its later calls) is in the channel's
            // buffer, where its reading source cannot see it: handed on at the next turn.
            if process.channel.hasBufferedBytes {
                DispatchQueue.main.async { [weak process] in MainActor.assumeIsolated { process?.channel.deliverBuffered() } }
            }
        }
        // The child may take as long as it likes as long as it talks: the limit is on its silence. One
        // that talks too much is a flood (``Limits/callsWithoutPause``).
        let silence = limit ?? limits.answer
        var watch = SilenceWatch(since: .now)
        while fault == nil {
            guard let frame = process.channel.read(until: .now + silence) else {
                if watch.isHung(process, after: silence, limits: limits) {
                    _ = fail(.hung(after: silence))
                    return nil
                }
                continue  // slow, not stuck: starved of CPU on a busy machine
            }
            switch frame {
            case .success(let bytes): if let reply = handle(bytes, awaiting: awaited) { return reply }
            case .failure(.closed): _ = childEnded()
            case .failure(let error): received(.failure(error))
            }
            // From now: the time the host took to handle what the child sent (a snapshot of a large
            // document, on a loaded machine) is the host's, not the child's silence. The child is
            // asleep meanwhile, waiting for the host, and would be taken for stuck.
            watch = SilenceWatch(since: .now)
        }
        return nil
    }

    // MARK: Receiving

    /// A frame that came on its own (the reading source), or `nil` when the child closed the wire.
    private func received(_ frame: Result<[UInt8], WireError>?) {
        switch frame {
        case .success(let bytes)?: _ = handle(bytes, awaiting: nil)
        case .failure(.tooLarge(let bytes))?: _ = fail(.flooded("a message of \(bytes) bytes"))
        case .failure(let error)?: _ = fail(.malformed(error.description))
        case nil: _ = childEnded()
        }
    }

    /// Handles one message from the child; returns the reply to `awaited` if this is it.
    private func handle(_ bytes: [UInt8], awaiting awaited: UInt64?) -> (status: Int32, payload: [UInt8])? {
        guard fault == nil else { return nil }
        lastHeard = .now
        let message: FromExtension
        do {
            message = try WireCodec.decodeFromExtension(bytes)
        } catch {
            _ = fail(.malformed(error.description))
            return nil
        }
        switch message {
        case .reply(let sequence, let status, let payload):
            if sequence == awaited { return (status, payload) }
        case .call(let call):
            callsSinceIdle += 1
            if callsSinceIdle > limits.callsWithoutPause {
                _ = fail(.flooded("more than \(limits.callsWithoutPause) calls without a pause"))
                return nil
            }
            delegate?.extensionCalled(call)
        case .scheduleTimer(let token, let delay, let repeats, let label):
            timers.removeValue(forKey: token)?()
            let after = Duration.nanoseconds(Int64(clamping: delay))
            timers[token] = scheduler.scheduleTimer(after: after, label: label, repeats: repeats) { [weak self] in
                guard let self, timers.removeValue(forKey: token) != nil else { return }
                post(.fireTimer(token: token))
            }
        case .cancelTimer(let token):
            timers.removeValue(forKey: token)?()
        case .idle(let sequence):
            callsSinceIdle = 0
            // Memory is looked at whenever the child has finished something, and by the watchdog.
            if checkMemory() { return nil }
            let covered = outstanding.prefix { $0.sequence <= sequence }.count
            outstanding.removeFirst(covered)
            for _ in 0..<covered { work?.ended() }
        }
        return nil
    }

    // MARK: Faults

    /// The callback the child is in, for a fault's report: the message it last began (it notes that in
    /// memory the host shares), while that is unanswered. Several unwaited messages may be on their way
    /// at once, and the oldest is not always the one a crash happened in. `nil` when the child has
    /// answered everything it began: then it failed in work of its own (a thread, a task).
    private var currentCallback: String? {
        guard let begun = process?.lastBegun else { return inFlight ?? outstanding.first?.callback }
        return outstanding.first { $0.sequence == begun }?.callback
    }

    /// The wire closed or a write failed: how the child ended is the fault.
    private func childEnded() -> ExtensionFault? {
        guard fault == nil, let process else { return fault }
        return report(process.fault(name: loaded.name, during: currentCallback))
    }

    /// The host stops the child for `kind`.
    private func fail(_ kind: ExtensionFault.Kind) -> ExtensionFault? {
        guard fault == nil else { return fault }
        let callback = currentCallback
        let lines = process?.lastLines ?? []
        stopChild()
        return report(ExtensionFault(name: loaded.name, kind: kind, during: callback, standardError: lines))
    }

    private func report(_ fault: ExtensionFault) -> ExtensionFault {
        self.fault = fault
        stopChild()
        hasInstance = false
        delegate?.extensionFailed(fault)
        return fault
    }

    /// Ends the child and everything that waited on it: its timers, and the work counted for it.
    private func stopChild() {
        watchdog?.cancel()
        watchdog = nil
        process?.terminate()
        process = nil
        cancelTimers()
        for _ in outstanding { work?.ended() }
        outstanding.removeAll()
        callsSinceIdle = 0
    }

    private func cancelTimers() {
        for cancel in timers.values { cancel() }
        timers.removeAll()
    }

    /// Real time, whatever the host's clock: a child that owes an answer and has said nothing for
    /// ``Limits/answer`` is hung; one over its memory limit is stopped as iOS stops a keyboard.
    private func startWatchdog() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let period = min(limits.answer / 4, .milliseconds(250))
        timer.schedule(deadline: .now() + period.dispatchInterval, repeating: period.dispatchInterval)
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.watch() }
        }
        watchdog = timer
        timer.resume()
    }

    private func watch() {
        guard fault == nil, let process else { return }
        // What the child said while the host was busy elsewhere counts: read it first.
        process.channel.pump()
        guard fault == nil else { return }
        if outstanding.isEmpty {
            silenceWatch = nil
        } else if ContinuousClock.now - lastHeard > limits.answer {
            var watch = silenceWatch ?? SilenceWatch(since: lastHeard)
            if watch.isHung(process, after: limits.answer, limits: limits) {
                _ = fail(.hung(after: limits.answer))
                return
            }
            silenceWatch = watch
        }
        _ = checkMemory()
    }

    /// Stops a child over its memory limit, as iOS stops a keyboard over its own; whether it did.
    private func checkMemory() -> Bool {
        guard let limit = limits.memory, let process, let resident = process.residentBytes, resident > limit else { return false }
        _ = fail(.memoryLimit(bytes: limit))
        return true
    }

    private func name(of message: ToExtension) -> String {
        switch message {
        case .load, .loadClass: "loading"
        case .createInstance: "create_instance"
        case .createConfiguration: "create_configuration"
        case .lifecycle: "lifecycle"
        case .textInput: "text_input"
        case .snapshot: "update_snapshot"
        case .keyEvent: "key_event"
        case .hostCommand: "host_command"
        case .cancelCommand: "cancel_command"
        case .fireTimer: "a timer"
        case .destroyInstance: "destroy_instance"
        case .barrier: "the messages before"
        }
    }
}

extension HostCommand {
    /// The command a wire code names, if this host knows it.
    init?(code: UInt32) {
        guard let command = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = command
    }
}
