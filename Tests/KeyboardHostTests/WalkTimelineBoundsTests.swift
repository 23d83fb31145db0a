@testable import KeyboardHost
import Testing

/// A timeline's bounds, fed as a session feeds it: it keeps at most `maximumSteps` steps, counts the
/// rest, and still closes its commands; the picture says how many it left out.
@Suite("Walk timeline bounds")
struct WalkTimelineBoundsTests {
    @Test func stepsPastTheMostAreCountedAndSaid() {
        var timeline = WalkTimeline()
        timeline.sent(.readFullDocument, at: .zero, sequence: 1, selection: 0..<0, before: "", after: "ab", length: 2)
        let extra = 5
        for step in 0..<(WalkTimeline.maximumSteps + extra) {
            timeline.posted(at: .milliseconds(step))
            timeline.applied(.adjustTextPosition(byCharacterOffset: 1))
            timeline.pushed(sequence: UInt64(step + 2), at: .milliseconds(step + 1), selection: 1..<1, before: "a", after: "b", length: 2)
        }
        timeline.answered(.readFullDocument, at: .seconds(200), succeeded: true, roundTrips: 7)
        #expect(timeline.steps.count == WalkTimeline.maximumSteps)
        #expect(timeline.droppedSteps == extra + 1)  // + 1: the start took a place
        #expect(timeline.segments[0].answered == .seconds(200) && timeline.segments[0].endStep == WalkTimeline.maximumSteps)
        let svg = WalkTimelineSVG().svg(timeline)
        #expect(svg.contains("… and \(extra + 1) steps more than the \(WalkTimeline.maximumSteps) a timeline keeps, not drawn"))
        #expect(svg.contains("(the extension counted 7)"))
    }
}
