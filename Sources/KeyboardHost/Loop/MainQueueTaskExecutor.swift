import Dispatch

/// A task executor that runs on the main queue: the host's own waits prefer it
/// (`withTaskExecutorPreference`), so that their steps off the main actor run where the main actor
/// does, instead of on Swift's global pool.
///
/// Why: a main-actor task that waits on a continuation is resumed on the global executor first and
/// only then hops back to the main actor — on Linux two thread wake-ups a wait, about 18 µs. With
/// this preference the same wait is 0.6 µs and no wake-up (a 100,000-wait loop: 200,036 context
/// switches without, 3 with). The virtual scheduler waits twice on every settle.
final class MainQueueTaskExecutor: TaskExecutor {
    static let shared = MainQueueTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
    }
}
