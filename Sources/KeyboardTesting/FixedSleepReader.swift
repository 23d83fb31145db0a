import KeyboardExtension

/// The anchor: a whole-document reader written as the commercial SDKs write theirs, to measure ours
/// against on the same documents, profiles and latencies.
///
/// It uses only what UIKit gives a keyboard: it reads the window before the caret, moves the caret back
/// over it with `adjustTextPosition(byCharacterOffset:)`, sleeps a fixed time (KeyboardKit Pro's
/// `FullDocumentConfiguration`: 0.04 s standard, 0.02 s fast) and trusts the proxy to have caught up;
/// an empty window (a sentence end under `sentence` windows, or the start) it steps over by one,
/// taking the Character it stepped over from the window after; after `patience` steps in a row that
/// show nothing new — an empty window, or both windows as they were before the step — (10, as
/// KeyboardKit Pro) it takes itself to be at the start. Then it moves back to
/// where it began and reads forward the same way, and moves back again.
///
/// So it goes wrong where the platform counts otherwise than it does (iOS moves by UTF-16 units, it
/// counts Characters), where the proxy is slower than its sleep, and where text repeats so that a step
/// shows nothing new; and it spends its sleep on every step and `patience` steps at each end. Its
/// sleeps are on the host's clock, so in a test they cost no real time, and ``Reading/elapsed`` is the
/// time it would take on a device.
public struct FixedSleepReader: Sendable {
    /// How long it sleeps after each move, on the host's clock.
    public var pause: Duration
    /// How many steps in a row that show nothing new end a direction.
    public var patience: Int

    public init(pause: Duration, patience: Int = 10) {
        self.pause = pause
        self.patience = patience
    }

    /// KeyboardKit Pro's standard configuration: 0.04 s a step.
    public static let standard = FixedSleepReader(pause: .milliseconds(40))
    /// Its fast one: 0.02 s a step.
    public static let fast = FixedSleepReader(pause: .milliseconds(20))

    /// What a read found, and what it cost.
    public struct Reading: Sendable, Equatable {
        /// The text it took to be before the caret, and after it.
        public var before: String
        public var after: String
        /// The caret moves it made, each followed by a sleep.
        public var steps: Int
        /// How long it took on the host's clock.
        public var elapsed: Duration
    }

    /// Reads the document around `keyboard`'s caret (a caret, not a selection) through its proxy.
    /// Throws only if the keyboard's clock stops (the keyboard went away).
    @MainActor
    public func read(_ keyboard: KeyboardViewController) async throws -> Reading {
        let proxy = keyboard.textDocumentProxy
        let clock = keyboard.clock
        let start = clock.now
        var steps = 0
        func move(by offset: Int) async throws {
            proxy.adjustTextPosition(byCharacterOffset: offset)
            try await clock.sleep(for: pause)
            steps += 1
        }

        var before = ""
        var movedBack = 0
        var nothingNew = 0
        var last: (before: String, after: String)?
        while nothingNew < patience {
            let window = proxy.documentContextBeforeInput ?? ""
            let seen = (before: window, after: proxy.documentContextAfterInput ?? "")
            defer { last = seen }
            if !window.isEmpty, let last, last == seen {
                // Both windows as they were: the move did not take the caret anywhere (or the proxy is
                // behind).
                nothingNew += 1
                try await move(by: -window.count)
                continue
            }
            if !window.isEmpty {
                before = window + before
                movedBack += window.count
                try await move(by: -window.count)
                nothingNew = 0
                continue
            }
            let shown = proxy.documentContextAfterInput ?? ""
            try await move(by: -1)
            let now = proxy.documentContextAfterInput ?? ""
            if now != shown, let first = now.first {
                before = String(first) + before
                movedBack += 1
                nothingNew = 0
            } else {
                nothingNew += 1
            }
        }
        try await move(by: movedBack)

        var after = ""
        var movedForward = 0
        nothingNew = 0
        last = nil
        while nothingNew < patience {
            let window = proxy.documentContextAfterInput ?? ""
            let seen = (before: proxy.documentContextBeforeInput ?? "", after: window)
            defer { last = seen }
            if window.isEmpty || last.map({ $0 == seen }) == true {
                nothingNew += 1
                try await move(by: window.isEmpty ? 1 : window.count)
                continue
            }
            after += window
            movedForward += window.count
            try await move(by: window.count)
            nothingNew = 0
        }
        try await move(by: -movedForward)
        return Reading(before: before, after: after, steps: steps, elapsed: start.duration(to: clock.now))
    }
}
