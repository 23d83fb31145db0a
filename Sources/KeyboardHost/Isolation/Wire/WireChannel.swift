import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One end of the wire: a socket carrying frames (``WireCodec``) both ways.
///
/// Writes are whole frames; a write that cannot finish within `timeout` (the other side stopped
/// reading) fails, so a stuck peer cannot stall the writer for ever. Reads come two ways: as they
/// arrive, on the main queue (``startReading(_:)``), or, while the owner waits for an answer, pulled
/// with a deadline (``read(until:)``). Both go through one buffer, so frames stay in order.
final class WireChannel: @unchecked Sendable {
    // Used on the main queue only (the reading source's queue, and the callers'), so unsynchronised.
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// What recv reads into, kept: a fresh 64 KiB for every read was a cost of every message.
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
    /// 60 µs on the 2-core VM this was measured on (a bare socketpair ping-pong in C: 60 µs a round
    /// trip asleep, 5 µs spinning), more than a keystroke's whole work. So the host, owed an answer,
    /// and a worker, just done with a batch (the next message usually follows at once), look for a
    /// moment first — spin-then-block, as an adaptive mutex does. Zero: no spin.
    var spin: Duration = .microseconds(50)
    /// Whether the reading source spins after each batch for the next (the worker's side).
    var spinsAfterBatch = false

    init(fd: Int32) {
        self.fd = fd
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Whether the descriptor was handed to the reading source, whose cancellation closes it. Closed
    /// exactly once either way: a second close could hit a descriptor another channel got since.
    private var sourceOwnsDescriptor = false

    deinit {
        if let source {
            source.cancel()
        } else if !sourceOwnsDescriptor {
            close(fd)
        }
    }

    // MARK: Writing

    /// Writes one frame; waits at most `timeout` for the peer to take it. Returns whether all of it went.
    @discardableResult
    func write(_ payload: [UInt8], timeout: Duration) -> Bool {
        guard !isClosed else { return false }
        if isHolding {
            outbox += WireCodec.frame(payload)
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
        let frames = outbox
        outbox.removeAll(keepingCapacity: true)
        return sendAll(frames, timeout: timeout)
    }

    private func sendAll(_ frame: [UInt8], timeout: Duration) -> Bool {
        guard !isClosed else { return false }
        let deadline = ContinuousClock.now + timeout
        var written = 0
        while written < frame.count {
            let result = frame.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + written, frame.count - written, Int32(MSG_NOSIGNAL))
            }
            if result > 0 {
                written += result
            } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                guard wait(for: Int16(POLLOUT), until: deadline) else { return false }
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
        handler = handle
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                var open = self.fill()
                while true {
                    // What handling these frames writes goes in one write, after them.
                    let held = self.isHolding
                    self.hold()
                    self.deliverBuffered()
                    if !held { self.release(timeout: .seconds(2)) }
                    guard open, !self.isClosed, self.spinsAfterBatch, self.spinUntilReadable() else { break }
                    open = self.fill()
                }
                if !open, !self.isClosed {
                    self.stop()
                    handle(nil)
                }
            }
        }
        source.setCancelHandler { [fd] in close(fd) }
        sourceOwnsDescriptor = true
        self.source = source
        source.resume()
    }

    /// Reads what has arrived and hands it to the reading handler now: for a watchdog that must not
    /// take a host too busy to read for a child too quiet to write.
    @MainActor
    func pump() {
        guard !isClosed else { return }
        let open = fill()
        deliverBuffered()
        if !open, !isClosed {
            stop()
            handler?(nil)
        }
    }

    /// Hands the frames already read (by ``read(until:)``, past the one it returned) to the reading
    /// handler: the socket has nothing new to say about them, so its source would not.
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
            guard spinUntilReadable() || wait(for: Int16(POLLIN), until: deadline) else { return nil }
            if !fill() { isClosed = true }
        }
    }

    /// Stops reading and closes the socket.
    func stop() {
        isClosed = true
        if let source {
            self.source = nil
            source.cancel()
        } else {
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// Reads what is there; `false` once the peer has closed.
    private func fill() -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer += chunk[0..<count]
                if count < chunk.count { return true }
            } else if count == 0 {
                return false
            } else if errno == EINTR {
                continue
            } else {
                return errno == EAGAIN || errno == EWOULDBLOCK
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

    /// Looks for something to read (or the peer's end) for at most ``spin``, without sleeping.
    private func spinUntilReadable() -> Bool {
        guard spin > .zero else { return false }
        let deadline = ContinuousClock.now + spin
        var byte: UInt8 = 0
        repeat {
            if recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0 { return true }  // data, or closed (0)
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }  // fill() will say
        } while ContinuousClock.now < deadline
        return false
    }

    /// Waits until the socket is ready for `events` or `deadline` passes.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
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
