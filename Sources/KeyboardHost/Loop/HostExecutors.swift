@_spi(ExperimentalCustomExecutors) import _Concurrency
import CHostRuntime
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The process's executors, as a host on virtual time needs them: they run every job exactly as
/// Swift's own do, and note which hosted extension each one belongs to (``ExtensionWork``).
///
/// Why: a test host (and `kbhost run`) must know when an extension has nothing left to run — its
/// tasks have all suspended on the host (a snapshot, an acknowledgement, a host-clock sleep) or ended —
/// without guessing from yields or real time. An extension's tasks are ordinary Swift tasks on the main
/// actor, which the host cannot see. So the host owns the executors that run them:
///
/// - The main executor (Swift 6.3's `MainExecutor`, installed with `_createExecutors` before `main` by
///   the constructor in `CHostRuntime`) sends every main-actor job to the main dispatch queue, as
///   Swift's does. A job enqueued while its thread is marked as an extension's is counted from enqueue
///   to end, and runs with the thread so marked, so what it enqueues is counted too.
/// - Nonisolated work such a job starts (an `async` function off the main actor, a task group's child,
///   `Task.detached`) reaches the runtime's global enqueue, whose hook sends a marked job to the main
///   queue too, counted the same way: an extension's work in a virtual-time host runs on the main
///   actor, one job at a time, in a reproducible order. Unmarked jobs take Swift's own paths.
///
/// Alternatives weighed: counting yields or quiet rounds (the first version; not exact, and it hung
/// under load); pointfree's `withMainSerialExecutor` (swift-concurrency-extras) sends every global job
/// to the main actor, but cannot see main-actor jobs, which are most of an extension's, and acts on the
/// whole process; Swift 6.3 no longer calls `swift_task_enqueueMainExecutor_hook`. Only an executor of
/// our own sees both kinds.
enum HostExecutors {
    /// Whether this process runs on these executors (the constructor ran before `main`).
    nonisolated(unsafe) static var areInstalled = false

    static func install() {
        _createExecutors(factory: Factory.self)
        // A runtime without the hook would leave marked global work uncounted: then not installed.
        guard let hook = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else { return }
        hook.assumingMemoryBound(to: GlobalEnqueueHook?.self).pointee = { job, original in
            guard let work = ExtensionWork.current else { return original(job) }
            HostExecutors.runOnMain(job, for: work)
        }
        areInstalled = true
    }

    /// Runs an extension's job on the main queue, counted from now until it has run, with the thread
    /// marked as that extension's meanwhile.
    static func runOnMain(_ job: UnownedJob, for work: ExtensionWork) {
        work.began()
        DispatchQueue.main.async {
            work.run { job.runSynchronously(on: MainActor.sharedUnownedExecutor) }
            work.ended()
        }
    }

    typealias GlobalEnqueueOriginal = @convention(thin) (UnownedJob) -> Void
    typealias GlobalEnqueueHook = @convention(thin) (UnownedJob, GlobalEnqueueOriginal) -> Void

    private struct Factory: ExecutorFactory {
        static let mainExecutor: any MainExecutor = AttributingMainExecutor()
        static let defaultExecutor: any TaskExecutor = PlatformExecutorFactory.defaultExecutor
    }

    /// Swift's main executor, plus the counting.
    private final class AttributingMainExecutor: MainExecutor, @unchecked Sendable {
        private let platform = PlatformExecutorFactory.mainExecutor

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            guard let work = ExtensionWork.current else {
                // Run as this executor, not Swift's: a job must find the main actor's executor current,
                // or every hop to the main actor (and every isolated deinit) would be a switch.
                let executor = asUnownedSerialExecutor()
                DispatchQueue.main.async { job.runSynchronously(on: executor) }
                return
            }
            HostExecutors.runOnMain(job, for: work)
        }

        func run() throws { try platform.run() }
        func stop() { platform.stop() }
        var isMainExecutor: Bool { true }
        func checkIsolated() { platform.checkIsolated() }
    }
}

/// Called by CHostRuntime's constructor, before `main`.
@_cdecl("kbx_install_host_executors")
func installHostExecutors() {
    HostExecutors.install()
}
