import Foundation

/// Tells a child that is stuck from one that is only slow, once it has been silent for the answer
/// limit: stuck is asleep (blocked on a lock, a pipe, a sleep of its own) or spinning (it used at least
/// 40% of a CPU over a tenth of a second — an endless loop); slow is runnable and starved of CPU, as on
/// a loaded machine, and is waited for, up to ``IsolationLimits/stuck`` in all.
///
/// It reads /proc only once the silence has lasted the limit: a watch is made for every call and every
/// message that answers one, and reading /proc each time cost more than the call.
struct SilenceWatch {
    private let since: ContinuousClock.Instant
    private var checkedAt: ContinuousClock.Instant?
    private var cpuThen: Duration?

    init(since: ContinuousClock.Instant) {
        self.since = since
    }

    mutating func isHung(_ process: ExtensionProcess, after silence: Duration, limits: IsolationLimits) -> Bool {
        let now = ContinuousClock.now
        guard now - since >= silence else { return false }
        if now - since >= limits.stuck { return true }
        guard let progress = process.progress else { return false }  // gone: the wire says how
        if progress.state == "S" || progress.state == "D" { return true }
        // Spinning needs a window to be seen in: the first look only starts one.
        defer {
            if checkedAt == nil || now - checkedAt! >= .milliseconds(100) {
                checkedAt = now
                cpuThen = progress.cpu
            }
        }
        guard let checkedAt, let cpuThen, now - checkedAt >= .milliseconds(100) else { return false }
        return (progress.cpu - cpuThen) * 10 >= (now - checkedAt) * 4
    }
}
