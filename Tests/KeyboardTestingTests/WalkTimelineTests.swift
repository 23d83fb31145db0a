import KeyboardExtension
import KeyboardHost
import KeyboardTesting
import Testing
import TestSupport

/// A walk's timeline (``WalkTimeline``) as the test host records it, and its picture
/// (``WalkTimelineSVG``): what each round trip cost, and whose time it was.
@Suite("Walk timelines")
@MainActor
struct WalkTimelineTests {
    static let document = String(repeating: "One two. Three 👍🏽 four!\nFive 👨‍👩‍👧‍👦 six. Seven ", count: 3)

    /// Ours spends one latency a trip, all of it the host's; the fixed-sleep reader (the anchor)
    /// spends its 40 ms sleep a trip, of which the latency is the host's and the rest its own wait.
    @Test func theTimelineSaysWhoseTimeEachTripTook() async throws {
        let latency = Duration.milliseconds(15)
        for reader in ["ours", "anchor"] {
            let host = try KeyboardTestHost(WalkerKeyboard.self, document: Self.document, cursor: 30, latency: latency)
            try host.show()
            let keyboard = host.walkerKeyboard
            let timeline = await host.timeline {
                _ = await host.runToCompletion { @MainActor () -> Bool in
                    if reader == "ours" {
                        return (try? await keyboard.readFullDocumentContext()) != nil
                    }
                    return (try? await FixedSleepReader.standard.read(keyboard)) != nil
                }
            }
            let steps = timeline.steps
            #expect(steps.count > 10 && steps.allSatisfy { $0.kind == .snapshot && $0.segment == nil })
            for (previous, step) in zip(steps, steps.dropFirst()) {
                let posted = try #require(step.posted, "every step answers a move")
                #expect(step.time - posted == latency, "the host's part: the latency")
                #expect(posted - previous.time == (reader == "ours" ? .zero : .milliseconds(40) - latency), "\(reader)'s own wait")
                #expect(step.edits.allSatisfy { if case .deleteBackward = $0 { false } else if case .insertText = $0 { false } else { true } }, "a read only moves: \(step.edits)")
            }
        }
    }

    /// A walk of more trips than the picture has columns: the columns cover every step once, in order,
    /// each within one command, and each column's window is the span of its steps' windows.
    @Test func aLongWalkSharesColumns() async throws {
        let document = String(repeating: "ab 👍🏽. ", count: 400)
        let host = try KeyboardTestHost(WalkerKeyboard.self, document: document, cursor: 1000, policy: .characters(1))
        try host.show()
        let timeline = await host.timeline {
            #expect(await host.perform(.readFullDocument).succeeded)
            #expect(await host.perform(.moveToEnd).succeeded)
        }
        #expect(timeline.steps.count > WalkTimelineSVG.maximumColumns)
        #expect(timeline.segments.map(\.command) == [.readFullDocument, .moveToEnd])
        let drawn = try RenderedTimeline.read(WalkTimelineSVG().svg(timeline))
        #expect(drawn.columns.count <= WalkTimelineSVG.maximumColumns + 1)  // + 1: the move's own column
        #expect(drawn.columns.first?.first == 0 && drawn.columns.last?.last == timeline.steps.count - 1)
        for (left, right) in zip(drawn.columns, drawn.columns.dropFirst()) { #expect(right.first == left.last + 1) }
        for column in drawn.columns {
            let steps = timeline.steps[column.first...column.last]
            #expect(Set(steps.map(\.segment)) == [column.segment])
            #expect(column.window == steps.map(\.window.lowerBound).min()!..<steps.map(\.window.upperBound).max()!)
        }
        #expect(drawn.captions.count == 2 && drawn.captions[0].hasPrefix("1. read-full-document: \(timeline.segments[0].roundTrips(in: timeline)) round trips"))
    }

    /// A keyboard that floods the host with edits in one turn: the step counts them all and keeps the
    /// first few, so a recording stays small whatever an extension does.
    @Test func aFloodOfEditsIsCountedNotKept() async throws {
        let host = try KeyboardTestHost(WalkerKeyboard.self)
        try host.show()
        let keyboard = host.walkerKeyboard
        let timeline = await host.timeline {
            _ = host.startTask { @MainActor in
                for _ in 0..<5000 { keyboard.textDocumentProxy.insertText("a") }
            }
            await host.settle()
        }
        let step = try #require(timeline.steps.last)
        #expect(host.document.count == 5000 && step.length == 5000)
        #expect(step.editCount == 5000 && step.edits == Array(repeating: .insertText("a"), count: WalkTimeline.editsKept))
        #expect(timeline.steps.count == 1)
    }

    /// Nothing recorded: a picture that says so, still well-formed.
    @Test func anEmptyTimelineIsAPicture() throws {
        let svg = WalkTimelineSVG(title: "<none> & \u{7}").svg(WalkTimeline())
        let drawn = try RenderedTimeline.read(svg)
        #expect(drawn.columns.isEmpty && svg.contains("No snapshots were pushed"))
    }
}
