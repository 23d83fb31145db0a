import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One end of the wire: frames (``WireCodec``) both ways, over a pipe each way.
///
/// Pipes, not a socket pair: on the 2-core VM this was measured on, a spinning ping-pong in C took
/// 3.1 µs a round trip over two pipes and 9.0 µs over a Unix socket pair (the socket allocates a
/// buffer for every message), and a tap is one round trip. A pipe has no MSG_NOSIGNAL, so a host that
/// starts children ignores SIGPIPE (``ExtensionProcess``): a write to a child that died fails instead.
///
/// Writes are whole frames; a write that cannot finish within `timeout` (the other side stopped
/// reading) fails, so a stuck peer cannot stall the writer for ever. Reads come two ways: as they
/// arrive, on the main queue (``startReading(_:)``), or, while the owner waits for an answer, pulled
/// with a deadline (``read(until:)``). Both go through one buffer, so frames stay in order. The host's
/// end learns that something came unasked from a ``Doorbell`` the child's end rings (`listening`,
/// `ringing`), never from a source on the wire itself, which would see the child's end as a hang-up
/// (docs/Architecture.md, "How the two sides wait").
final class WireChannel: @unchecked Sendable {
    // Used on the main queue only (the reading source's queue, and the callers'), so unsynchronised.
    /// Where frames come from (a pipe's read end), and where they go (another pipe's write end).
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// What a read reads into, kept: a fresh 64 KiB for every read was a cost of every message.
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var source: DispatchSourceRead?
    private var handler: (@MainActor (Result<[UInt8], WireError>?) -> Void)?
    private(set) var isClosed = false
    /// Frames written while held (``hold()``), sent together by ``release(timeout:)``: the messages one
    /// turn makes (a snapshot and its notifications; an extension's calls, its `idle` and a reply) go
    /// in one write, so the peer wakes once for them rather than once each.
    private var outbox: [UInt8] = []
    private(set) var isHolding = false
    /// How long a reader spins, looking, before it sleeps: waking a process that sleeps costs about
    /// 60 µs on the 2-core VM this was measured on (a bare ping-pong in C: 60 µs a round trip asleep,
    /// a few spinning), more than a keystroke's whole work. So the host, owed an answer,
    /// and a worker, just done with a batch (the next message usually follows at once), look for a
    /// moment first — spin-then-block, as an adaptive mutex does. Zero: no spin.
    var spin: Duration = .microseconds(50)

    /// The host's end: the doorbell its reading source watches instead of the wire.
    private let listening: Doorbell?
    /// The child's end: the doorbell it rings after sending what the host did not wait for.
    private let ringing: Doorbell?
    /// Whether the peer is reading now, waiting for an answer: what is sent meanwhile needs no ring.
    /// (The child's worker sets it from a message's arrival until its reply is sent.)
    var peerIsWaiting = false

    /// A channel that reads from `input` and writes to `output` (a pipe's ends), and owns them.
    init(reading input: Int32, writing output: Int32, listening: Doorbell? = nil, ringing: Doorbell? = nil) {
        self.input = input
        self.output = output
        self.listening = listening
        self.ringing = ringing
        for fd in [input, output] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Whether the descriptors were handed to the reading source, whose cancellation closes them.
    /// Closed exactly once either way: a second close could hit a descriptor another channel got since.
    private var sourceOwnsDescriptors = false

    deinit {
        if let source {
            source.cancel()
        } else if !sourceOwnsDescriptors {
            Self.close(input, output, listening)
        }
        if let ringing { Glibc.close(ringing.fd) }
    }

    private static func close(_ input: Int32, _ output: Int32, _ listening: Doorbell?) {
        Glibc.close(input)
        Glibc.close(output)
        if let listening {
            Glibc.close(listening.fd)
            if let keptOpen = listening.keptOpen { Glibc.close(keptOpen) }
        }
    }

    // MARK: Writing

    /// Writes one frame; waits at most `timeout` for the peer to take it. Returns whether all of it went.
    @discardableResult
    func write(_ payload: [UInt8], timeout: Duration) -> Bool {
        guard !isClosed else { return false }
        if isHolding {
            WireCodec.appendFrame(payload, to: &outbox)
            // Bounded: a flood is sent on as it grows, for the peer to see and stop.
            return outbox.count < 1 << 16 || release(timeout: timeout, keepHolding: true)
        }
        return sendAll(WireCodec.frame(payload), timeout: timeout)
    }

    /// Holds what is written from now until ``release(timeout:keepHolding:)``.
    func hold() {
        isHolding = true
    }

    /// Sends what was held; whether all of it went. Holding goes on if `keepHolding`.
    @discardableResult
    func release(timeout: Duration, keepHolding: Bool = false) -> Bool {
        isHolding = keepHolding
        guard !outbox.isEmpty else { return !isClosed }
        // Sent from a buffer of its own, then kept for the next: no copy, no fresh allocation.
        var frames: [UInt8] = []
        swap(&frames, &outbox)
        defer {
            frames.removeAll(keepingCapacity: true)
            if outbox.isEmpty { outbox = frames }
        }
        return sendAll(frames, timeout: timeout)
    }

    private func sendAll(_ frame: [UInt8], timeout: Duration) -> Bool {
        guard !isClosed else { return false }
        let deadline = ContinuousClock.now + timeout
        var written = 0
        while written < frame.count {
            let result = frame.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + written, frame.count - written) }
            if result > 0 {
                written += result
                if written == frame.count, !peerIsWaiting { ringing?.ring() }
            } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A host not waiting must come and read, or this frame never fits: ring before waiting.
                if !peerIsWaiting { ringing?.ring() }
                guard wait(on: output, for: Int16(POLLOUT), until: deadline) else { return false }
            } else if result < 0, errno == EINTR {
                continue
            } else {
                isClosed = true
                return false
            }
        }
        return true
    }

    // MARK: Reading

    /// Calls `handle` with each frame as it arrives, on the main queue; with `nil` once the peer has
    /// closed (or a frame is too large: then the channel closes).
    func startReading(_ handle: @escaping @MainActor (Result<[UInt8], WireError>?) -> Void) {
        guard let listening else { preconditionFailure("the host's end reads through its doorbell, not the wire") }
        handler = handle
        let source = DispatchSource.makeReadSource(fileDescriptor: listening.fd, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                // The rings are taken; what they rang for is on the wire. (The doorbell never ends: the
                // host holds a writer. The child's end shows as the wire's end, or first as its output's.)
                listening.drain()
                let open = self.fill() != .closed
                self.deliverBatch()
                if !open, !self.isClosed {
                    self.stop()
                    handle(nil)
                }
            }
        }
        source.setCancelHandler { [input, output, listening] in Self.close(input, output, listening) }
        sourceOwnsDescriptors = true
        self.source = source
        source.resume()
    }

    /// The child's side, on its main thread, for good: hands each frame to `handle` as it arrives, and
    /// between batches runs the main queue (the extension's tasks) and Foundation's run loop (a
    /// `Timer` of its own); returns once the host has closed the wire.
    ///
    /// The thread waits in `poll` on the wire and on the main queue's wake-up descriptor at once, and
    /// drains the main queue itself, rather than through a dispatch source and the run loop: a source
    /// costs two wake-ups a message (the dispatch manager's, then the main thread's) and one more to
    /// re-arm after each batch, on a machine where one costs about 60 µs, and a run loop pass costs
    /// 10–70 µs where a drain costs a few. The run loop is looked at when its next timer is due and at
    /// least every 50 ms (so a `Timer` made meanwhile fires up to 50 ms late the first time: an
    /// extension's timers belong on the host's clock anyway). After a batch the thread spins a moment
    /// for the next message (``spin``), unless the main queue has work.
    @MainActor
    func serve(_ handle: @escaping @MainActor (Result<[UInt8], WireError>?) -> Void) {
        handler = handle
        let mainQueue = MainQueueHandle.shared
        var runLoopDue = ContinuousClock.now
        while !isClosed {
            var read = fill()
            while true {
                deliverBatch()
                guard read != .closed, !isClosed else { break }
                guard spinUntilReadable(unlessReadable: mainQueue?.descriptor) else { break }
                read = fill()
            }
            guard read != .closed, !isClosed else { break }
            mainQueue?.drain()
            if mainQueue == nil || ContinuousClock.now >= runLoopDue {
                let next = RunLoop.main.limitDate(forMode: .default)?.timeIntervalSinceNow ?? 1
                runLoopDue = .now + .milliseconds(Int(min(max(next, 0), 0.050) * 1000))
            }
            var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
            if let mainQueue { watched.append(pollfd(fd: mainQueue.descriptor, events: Int16(POLLIN), revents: 0)) }
            let wait = ContinuousClock.now.duration(to: runLoopDue)
            _ = poll(&watched, nfds_t(watched.count), Int32(clamping: max(wait.nanosecondsClamped, 0) / 1_000_000 + 1))
        }
        if !isClosed { stop() }
        handle(nil)
    }

    /// What CoreFoundation's run loop uses to run the main queue: the descriptor libdispatch makes
    /// readable when the main queue has work, and the call that drains it. `nil` if this libdispatch
    /// does not offer them; then the run loop drains it, looked at every 50 ms and when woken.
    private struct MainQueueHandle {
        let descriptor: Int32
        private let callback: @convention(c) (UnsafeMutableRawPointer?) -> Void

        @MainActor static let shared: MainQueueHandle? = {
            let process = dlopen(nil, RTLD_NOW)
            guard let handle = dlsym(process, "_dispatch_get_main_queue_handle_4CF"),
                  let callback = dlsym(process, "_dispatch_main_queue_callback_4CF") else { return nil }
            let descriptor = unsafeBitCast(handle, to: (@convention(c) () -> Int32).self)()
            guard descriptor >= 0 else { return nil }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            return MainQueueHandle(
                descriptor: descriptor, callback: unsafeBitCast(callback, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
            )
        }()

        /// Runs what the main queue has, if it has something (its eventfd counted a wake-up).
        func drain() {
            var count: UInt64 = 0
            guard Glibc.read(descriptor, &count, 8) == 8 else { return }
            callback(nil)
        }
    }

    /// Hands the frames read to the reading handler as one batch: what handling them writes goes in one
    /// write, after them.
    @MainActor
    private func deliverBatch() {
        let held = isHolding
        hold()
        deliverBuffered()
        if !held { release(timeout: .seconds(2)) }
    }

    /// Reads what has arrived and hands it to the reading handler now: for a watchdog that must not
    /// take a host too busy to read for a child too quiet to write.
    @MainActor
    func pump() {
        guard !isClosed else { return }
        let open = fill() != .closed
        deliverBatch()
        if !open, !isClosed {
            stop()
            handler?(nil)
        }
    }

    /// Looks for something to read for a moment (``spin``) and, if it comes, hands it on as ``pump()``
    /// does: whether it came. For an owner about to wait for an answer that usually follows at once.
    @MainActor
    func pumpWhenReadable() -> Bool {
        guard !isClosed, spinUntilReadable() else { return false }
        pump()
        return true
    }

    /// Hands the frames already read (by ``read(until:)``, past the one it returned) to the reading
    /// handler: the doorbell has nothing new to say about them, so its source would not.
    @MainActor
    func deliverBuffered() {
        guard let handler else { return }
        while !isClosed, let frame = nextFrame() {
            handler(frame)
            if case .failure = frame { stop(); return }
        }
    }

    /// Whether bytes read are waiting to be handed on (a frame, or the start of one).
    var hasBufferedBytes: Bool { buffer.count > start }

    /// The next frame, waiting for it until `deadline`: `nil` if none came in time; `.failure(.closed)`
    /// if the peer closed.
    func read(until deadline: ContinuousClock.Instant) -> Result<[UInt8], WireError>? {
        // What is held goes first: the answer waited for may depend on it.
        if !outbox.isEmpty, !release(timeout: ContinuousClock.now.duration(to: deadline), keepHolding: isHolding) {
            return .failure(.closed)
        }
        while true {
            if let frame = nextFrame() { return frame }
            if isClosed { return .failure(.closed) }
            guard spinUntilReadable() || wait(on: input, for: Int16(POLLIN), until: deadline) else { return nil }
            if fill() == .closed { isClosed = true }
        }
    }

    /// Stops reading and writing; the descriptors close with the reading source, or with the channel.
    func stop() {
        isClosed = true
        if let source {
            self.source = nil
            source.cancel()
        }
    }

    private enum Fill { case read, nothing, closed }

    /// Reads what is there.
    private func fill() -> Fill {
        var result = Fill.nothing
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[0..<count]
                result = .read
                if count < chunk.count { return result }
            } else if count == 0 {
                return .closed
            } else if errno == EINTR {
                continue
            } else {
                return errno == EAGAIN || errno == EWOULDBLOCK ? result : .closed
            }
        }
    }

    /// The next whole frame in the buffer, if one is there.
    private func nextFrame() -> Result<[UInt8], WireError>? {
        let available = buffer.count - start
        guard available >= 8 else { return nil }
        var length: UInt64 = 0
        for index in 0..<8 { length |= UInt64(buffer[start + index]) << (8 * UInt64(index)) }
        guard length <= UInt64(Wire.maximumMessageBytes) else {
            return .failure(.tooLarge(Int(clamping: length)))
        }
        guard available >= 8 + Int(length) else { return nil }
        let frame = Array(buffer[(start + 8)..<(start + 8 + Int(length))])
        start += 8 + Int(length)
        if start > 1 << 16, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return .success(frame)
    }

    /// Looks for something to read (or the peer's end) for at most ``spin``, without sleeping: whether
    /// it came. Each look is a poll, not a read: a read of an empty pipe takes the pipe's lock, which the
    /// writer then waits for. The child's side gives up early once `other` (the main queue's
    /// descriptor) is readable: the extension's own work waits no longer than that.
    private func spinUntilReadable(unlessReadable other: Int32? = nil) -> Bool {
        guard spin > .zero else { return false }
        let deadline = ContinuousClock.now + spin
        var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: other ?? -1, events: Int16(POLLIN), revents: 0)]
        repeat {
            watched[0].revents = 0
            watched[1].revents = 0
            if poll(&watched, 2, 0) > 0 {
                return watched[0].revents != 0  // data, the peer's end, or an error fill() will say
            }
        } while ContinuousClock.now < deadline
        return false
    }

    /// Waits until `fd` is ready for `events` or `deadline` passes.
    private func wait(on fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            var poll = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(clamping: remaining.nanosecondsClamped / 1_000_000 + 1)
            let result = Glibc.poll(&poll, 1, milliseconds)
            if result > 0 { return true }
            if result < 0, errno != EINTR { return false }
        }
    }
}
