import Foundation

/// Tells a child that is stuck from one that is only slow, once it has been silent for the answer
/// limit: stuck is asleep (blocked on a lock, a pipe, a sleep of its own) or spinning (it used at least
/// 40% of a CPU since it fell silent — an endless loop); slow is runnable and starved of CPU, as on a
/// loaded machine, and is waited for, up to ``IsolationLimits/stuck`` in all.
struct SilenceWatch {
    private let since: ContinuousClock.Instant
    private var checkedAt: ContinuousClock.Instant
    private var cpuThen: Duration?

    init(since: ContinuousClock.Instant, process: ExtensionProcess) {
        self.since = since
        checkedAt = .now
        cpuThen = process.progress?.cpu
    }

    mutating func isHung(_ process: ExtensionProcess, after silence: Duration, limits: IsolationLimits) -> Bool {
        let now = ContinuousClock.now
        guard now - since >= silence else { return false }
        if now - since >= limits.stuck { return true }
        guard let progress = process.progress else { return false }  // gone: the wire says how
        defer {
            checkedAt = now
            cpuThen = progress.cpu
        }
        if progress.state == "S" || progress.state == "D" { return true }
        // Spinning needs a window to be seen in: the first look only starts one.
        guard let cpuThen, now - checkedAt >= .milliseconds(100) else { return false }
        return (progress.cpu - cpuThen) * 10 >= (now - checkedAt) * 4
    }
}
