#if canImport(Glibc)
import Glibc
#endif

/// How a child wakes its host for what it sends unasked: a pipe beside the wire (both ends
/// non-blocking), rung once after each batch of such messages, and when a large frame waits for room.
///
/// Why not watch the wire itself: the host reads most answers while it waits for them (a tap's
/// `key_event`), spinning on the wire; a dispatch source on the wire would wake the host's
/// dispatch manager thread at every answer all the same, and on two cores that thread took the CPU from
/// the child or the waiting host about every other tap (perf sched: ~500 wake-ups per 1,000 taps, taps
/// at 31,000/s). So the host's reading source watches this pipe, which the child rings only when the
/// host is not waiting — its idles after posted messages, its timers, a command's answer — and what
/// the host waits for costs no wake-up but its own.
struct Doorbell {
    let fd: Int32
    /// The host's copy of the child's end, kept open so that the doorbell never hangs up: a dispatch
    /// source on a descriptor that hangs up can crash libdispatch's manager thread on Linux (see
    /// docs/Architecture.md, "How the two sides wait"). The child's end is learned of from its output
    /// instead, read on a thread of its own (``ExtensionProcess``).
    var keptOpen: Int32?

    /// Rings (the child's end). A full pipe already rings: nothing is lost by a write that would block.
    func ring() {
        var byte: UInt8 = 1
        while Glibc.write(fd, &byte, 1) < 0, errno == EINTR {}
    }

    /// Takes every ring so far (the host's end).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = Glibc.read(fd, &bytes, bytes.count)
            if count == bytes.count { continue }  // perhaps more
            if count < 0, errno == EINTR { continue }
            return  // fewer: all taken; 0 or EAGAIN: none left
        }
    }
}
