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
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var source: DispatchSourceRead?
    private var handler: (@MainActor (Result<[UInt8], WireError>?) -> Void)?
    private(set) var isClosed = false

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
        let frame = WireCodec.frame(payload)
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
                let open = self.fill()
                self.deliverBuffered()
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

    /// The next frame, waiting for it until `deadline`: `nil` if none came in time; `.failure(.closed)`
    /// if the peer closed.
    func read(until deadline: ContinuousClock.Instant) -> Result<[UInt8], WireError>? {
        while true {
            if let frame = nextFrame() { return frame }
            if isClosed { return .failure(.closed) }
            guard wait(for: Int16(POLLIN), until: deadline) else { return nil }
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
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
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
