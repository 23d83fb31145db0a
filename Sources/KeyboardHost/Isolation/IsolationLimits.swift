import Foundation

/// What a child process may do before the host stops it (``KeyboardSession/isolationLimits``).
public struct IsolationLimits: Sendable, Equatable {
    /// How long a callback may go unanswered with the child silent (IBus and Android allow 2 s).
    public var answer: Duration = .seconds(2)
    /// How long the child may take to start and load its library.
    public var start: Duration = .seconds(20)
    /// Calls the child may make without once being idle: more is a flood.
    public var callsWithoutPause = 200_000
    /// How long a silent child that is not plainly stuck (runnable, but starved of CPU on a loaded
    /// machine) is waited for before it counts as hung all the same.
    public var stuck: Duration = .seconds(30)
    /// Resident memory the child may use, in bytes (`nil`: no limit), checked as the watchdog runs.
    public var memory: Int?

    public init() {}

    public static let standard = IsolationLimits()
}
