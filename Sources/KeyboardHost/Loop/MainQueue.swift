import Dispatch

/// Tells whether code runs on the main dispatch queue, which is where the main actor runs.
///
/// Not `Thread.isMainThread`: on Linux, once the process is in `dispatch_main()` (as Swift's async
/// `main` is), the main thread has exited and a worker thread drains the main queue. The main actor
/// follows the queue, so the queue is what to ask about.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }
}
