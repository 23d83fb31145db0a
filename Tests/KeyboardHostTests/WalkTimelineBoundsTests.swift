@testable import KeyboardHost
import TestSupport
import Testing

/// A timeline's bounds, fed as a session feeds it: it keeps at most `maximumSteps` steps, counts the
/// rest, and still closes its commands; the picture says how many it left out.
@Suite("Walk timeline bounds")
struct WalkTimelineBoundsTests {
    @Test func stepsPastTheMostAreCountedAndSaid() throws {
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
        // SVG does not wrap: each line of a caption, at the largest numbers a timeline holds, fits
        // the picture's width at 12 points a line and a wide 0.6 em a Character (sans-serif averages
        // nearer 0.5), past a continuation's 24-point indent and a 12-point margin on the right.
        let drawn = try RenderedTimeline.read(svg)
        let lines = drawn.captionLines.joined()
        #expect(drawn.captionLines.map(\.count) == [2, 1] && lines.allSatisfy { !$0.isEmpty }, "\(drawn.captionLines)")
        #expect(drawn.captions[0].contains("succeeded; the windows showed"), "one caption, whole, to a reader of its text")
        for line in lines { #expect(Double(line.count) * 0.6 * 12 <= drawn.width - 36, "\(line)") }
    }
}

/// What a step keeps of an edit's text: its first Characters, however large the text (a keyboard
/// that inserts a whole document must not have the timeline keep it).
@Suite("Walk timeline: edits kept")
struct WalkTimelineEditTests {
    @Test func anInsertedTextIsKeptToItsFirstCharacters() {
        let huge = String(repeating: "👨‍👩‍👧e\u{301}", count: 100_000)
        var timeline = WalkTimeline()
        timeline.applied(.insertText(huge))
        timeline.applied(.setMarkedText(huge, selectedRange: 0..<3))
        timeline.applied(.insertText("short"))
        timeline.pushed(sequence: 1, at: .zero, selection: 0..<0, before: "", after: "", length: 0)
        let kept = String(huge.prefix(WalkTimeline.textKept)) + "…"
        #expect(timeline.steps.first?.edits == [.insertText(kept), .setMarkedText(kept, selectedRange: 0..<3), .insertText("short")])
        #expect(kept.count == WalkTimeline.textKept + 1)
    }
}
