/// What a session's walks did, step by step on the host's clock: each snapshot the host pushed — where
/// the selection was, how much of the document the windows showed, how long the document was — with the
/// edits it answered and when the extension posted the first of them, grouped by the command under way.
///
/// A full-document walk costs round trips: the keyboard moves the caret, waits for the host to apply the
/// move and push a snapshot, reads the new window, and moves again. The timeline is those round trips as
/// the host saw them, so an author sees why a policy (narrow windows: many trips) or a reader (a fixed
/// sleep per trip) costs what it costs. ``WalkTimelineSVG`` draws it; `kbhost run --timeline` writes it.
///
/// Record by setting ``KeyboardSession/timeline`` to an empty timeline; the session appends to it until
/// it is set to `nil`. It keeps at most ``maximumSteps`` steps and counts the rest.
public struct WalkTimeline: Sendable, Equatable {
    /// One state of the field as the extension was shown it.
    public struct Step: Sendable, Equatable {
        /// `start`: the snapshot the extension had when a command was sent (pushed earlier); `snapshot`:
        /// one the host pushed while recording.
        public enum Kind: Sendable, Equatable { case start, snapshot }

        public let kind: Kind
        /// When the host pushed the snapshot (for `start`, when the command was sent), on its clock.
        public let time: Duration
        /// When the extension posted the first of the edits this snapshot answers; `nil` when it
        /// answers none (the command's start, a change the host made).
        public let posted: Duration?
        /// The snapshot's sequence number (the ABI's `sequence`).
        public let sequence: UInt64
        /// The selection, in Characters from the start of the document.
        public let selection: Range<Int>
        /// Characters the windows showed before and after the selection (`contextBefore`,
        /// `contextAfter`).
        public let before: Int
        public let after: Int
        /// The document's length in Characters.
        public let length: Int
        /// The first edits the host applied (or skipped) for this snapshot, in order: at most
        /// ``WalkTimeline/editsKept``, an inserted or marked text cut to its first
        /// ``WalkTimeline/textKept`` Characters and an ellipsis; ``editCount`` counts them all.
        public let edits: [TextOperation]
        public let editCount: Int
        /// The index in ``WalkTimeline/segments`` of the command under way (the latest sent and not yet
        /// answered), if any.
        public let segment: Int?

        /// The part of the document the extension could read from this snapshot: the windows and the
        /// selection between them, placed about the selection. (A platform that keeps its old windows
        /// after quick moves, as iOS does, shows text from before them: then it is their size, not
        /// their place.)
        public var window: Range<Int> {
            max(selection.lowerBound - before, 0)..<min(selection.upperBound + after, max(length, selection.upperBound))
        }
    }

    /// One command, from when the host sent it to its answer.
    public struct Segment: Sendable, Equatable {
        public let command: HostCommand
        /// When the host sent it.
        public let sent: Duration
        /// The index of its first step (its `start`).
        public let firstStep: Int
        /// When it was answered, whether it succeeded, and the round trips the extension counted.
        public internal(set) var answered: Duration?
        public internal(set) var succeeded: Bool?
        public internal(set) var reportedRoundTrips: Int?
        /// The index after its last step, once answered.
        public internal(set) var endStep: Int?

        /// The snapshots the host pushed while it was under way.
        public func roundTrips(in timeline: WalkTimeline) -> Int {
            let end = endStep ?? timeline.steps.count
            return timeline.steps[min(firstStep, end)..<end].count { $0.kind == .snapshot }
        }
    }

    public private(set) var steps: [Step] = []
    public private(set) var segments: [Segment] = []
    /// Steps not kept because ``maximumSteps`` had been reached.
    public private(set) var droppedSteps = 0
    /// The most steps a timeline keeps: a walk of a large document through one-Character windows has
    /// millions of trips, and a picture of the first 131,072 says what the rest would. (A step costs
    /// about 330 bytes, measured: a 4 MiB read under `sentence`, 95,327 trips, took 31 MB more with a
    /// timeline; the most steps are about 43 MB.)
    public static let maximumSteps = 1 << 17
    /// The edits a step keeps: a walk posts one or two a trip; a flood is counted, not kept.
    public static let editsKept = 8
    /// The Characters a kept edit keeps of its text: a timeline says what an edit did, and must not
    /// hold on to every document a keyboard inserted.
    public static let textKept = 40

    /// Edits applied since the last snapshot, and when the first was posted.
    private var pendingEdits: [TextOperation] = []
    private var pendingEditCount = 0
    private var firstPosted: Duration?
    /// Segments sent and not answered, oldest first.
    private var open: [Int] = []

    public init() {}

    /// The extension posted an edit at `time`.
    mutating func posted(at time: Duration) {
        if firstPosted == nil { firstPosted = time }
    }

    /// The host applied (or skipped) `operation`; the next snapshot answers it.
    mutating func applied(_ operation: TextOperation) {
        if pendingEdits.count < Self.editsKept { pendingEdits.append(Self.abridged(operation)) }
        pendingEditCount += 1
    }

    /// The host pushed a snapshot of `field` showing these windows.
    mutating func pushed(sequence: UInt64, at time: Duration, selection: Range<Int>, before: String, after: String, length: Int) {
        append(Step(
            kind: .snapshot, time: time, posted: pendingEdits.isEmpty ? nil : firstPosted, sequence: sequence,
            selection: selection, before: before.count, after: after.count, length: length, edits: pendingEdits,
            editCount: pendingEditCount, segment: open.last
        ))
        pendingEdits.removeAll()
        pendingEditCount = 0
        firstPosted = nil
    }

    /// The host sent `command` at `time`; the extension had the snapshot described.
    mutating func sent(_ command: HostCommand, at time: Duration, sequence: UInt64, selection: Range<Int>, before: String, after: String, length: Int) {
        segments.append(Segment(command: command, sent: time, firstStep: steps.count))
        open.append(segments.count - 1)
        append(Step(
            kind: .start, time: time, posted: nil, sequence: sequence, selection: selection, before: before.count,
            after: after.count, length: length, edits: [], editCount: 0, segment: open.last
        ))
    }

    /// The extension (or the host, for it) answered `command` at `time`.
    mutating func answered(_ command: HostCommand, at time: Duration, succeeded: Bool, roundTrips: Int?) {
        guard let place = open.firstIndex(where: { segments[$0].command == command }) else { return }
        let index = open.remove(at: place)
        segments[index].answered = time
        segments[index].succeeded = succeeded
        segments[index].reportedRoundTrips = roundTrips
        segments[index].endStep = steps.count
    }

    /// `operation` with its text cut to ``textKept`` Characters (walking no further into it).
    static func abridged(_ operation: TextOperation) -> TextOperation {
        func cut(_ text: String) -> String {
            let head = text.prefix(textKept)
            return head.endIndex == text.endIndex ? text : head + "…"
        }
        switch operation {
        case .insertText(let text): return .insertText(cut(text))
        case .setMarkedText(let text, let range): return .setMarkedText(cut(text), selectedRange: range)
        default: return operation
        }
    }

    private mutating func append(_ step: Step) {
        guard steps.count < Self.maximumSteps else {
            droppedSteps += 1
            return
        }
        steps.append(step)
    }
}
