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
        // SVG does not wrap: each line of a caption, at the largest numbers a timeline holds, fits
        // the picture's width at 12 points a line and a wide 0.6 em a Character (sans-serif averages
        // nearer 0.5), past the 12-point indent on either side.
        let lines = svg.split(separator: "\n").filter { $0.contains("class=\"caption\"") }.flatMap { caption in
            // <text …>first<tspan …>second</tspan></text>: the text after each opening tag.
            caption.split(separator: "<tspan").map { $0.drop { $0 != ">" }.dropFirst().replacing(/<\/(tspan|text)>/, with: "") }
        }
        #expect(lines.count == 3 && lines.allSatisfy { !$0.isEmpty }, "\(lines)")
        for line in lines { #expect(Double(line.count) * 0.6 * 12 <= 960 - 24, "\(line)") }
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
