/// Draws a ``WalkTimeline`` as SVG: the round trips of each walk over the document, in order, left to
/// right.
///
/// - **The document** (top): a column per snapshot, as tall as the document then was (grey), with the
///   part the extension could read from it (the windows, blue) and where the selection was (a dark
///   mark). A read walks the blue down the document; a narrow policy makes many thin steps.
/// - **The host's clock** (below): when each snapshot was pushed, from the first command's start. Each
///   step splits into the extension's time (from the snapshot before to its post, orange) and the
///   host's (from the post to this snapshot: the latency, grey). A reader that sleeps shows here.
/// - A caption per command: its round trips (the host's count and the extension's), its time, its
///   answer, and the windows' average size.
///
/// Each column is a `<g class="trip">` carrying what it shows (`data-first`, `data-last`: the steps it
/// covers; `data-time-ns`, `data-selection-start`, `-end`, `data-window-start`, `-end`,
/// `data-length`, `data-segment`), so a test reads the walk back from the picture. A timeline of more
/// than ``maximumColumns`` steps draws several steps a column: the parts of the document their windows
/// showed (`data-window-start` and `-end` span them all), the last one's selection and time.
public struct WalkTimelineSVG: Sendable {
    public var width: Double
    /// A title for the picture (the keyboard, the document, the policy).
    public var title: String?

    /// The most columns drawn; more steps share columns.
    public static let maximumColumns = 1000

    public init(width: Double = 960, title: String? = nil) {
        self.width = max(width, 320)
        self.title = title
    }

    // The picture's frame: margins, and the heights of its parts.
    private static let left = 84.0, right = 24.0, lineHeight = 16.0
    private static let documentHeight = 300.0, clockHeight = 130.0, gap = 46.0

    /// A column: the steps `steps` of the timeline drawn as one.
    private struct Column {
        let steps: Range<Int>
        /// Its steps' windows, merged where they overlap or touch, in order.
        let windows: [Range<Int>]
        let selection: Range<Int>
        let length: Int
        let time: Duration
        /// When the extension posted, for the last step of the column (nil: nothing posted).
        let posted: Duration?
        /// When the step before the column's last was pushed.
        let previous: Duration
        let segment: Int?

        /// The span of its windows.
        var window: Range<Int> { windows.first!.lowerBound..<windows.map(\.upperBound).max()! }
    }

    public func svg(_ timeline: WalkTimeline) -> String {
        let steps = timeline.steps
        let origin = timeline.segments.first?.sent ?? steps.first?.time ?? .zero
        let columns = Self.columns(steps)
        let longest = max(steps.map { max($0.length, $0.window.upperBound) }.max() ?? 0, 1)
        let ended = (timeline.segments.compactMap(\.answered) + steps.map(\.time)).max() ?? origin
        let span = max(ended - origin, .zero)
        let captions = captionLines(timeline, origin: origin)

        let plotWidth = width - Self.left - Self.right
        let titleHeight = (title == nil ? 0 : 24.0) + Double(captions.joined().count) * Self.lineHeight + 14
        let documentTop = titleHeight + 18
        let clockTop = documentTop + Self.documentHeight + Self.gap
        let height = clockTop + Self.clockHeight + 56
        let columnWidth = plotWidth / Double(max(columns.count, 1))
        let drawnWidth = columnWidth > 4 ? columnWidth - 1 : columnWidth
        let y = { (position: Int) in documentTop + Self.documentHeight * Double(position) / Double(longest) }
        let seconds = { (duration: Duration) in Double(duration.nanosecondsClamped) / 1e9 }
        let clockScale = seconds(span) > 0 ? Self.clockHeight / seconds(span) : 0
        let clockY = { (time: Duration) in clockTop + Self.clockHeight - clockScale * seconds(max(time - origin, .zero)) }

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" \
            viewBox="0 0 \(n(width)) \(n(height))" font-family="\(SVGText.fontFamily)" font-size="12" shape-rendering="crispEdges">

            """
        out += "  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        var line = 0.0
        if let title {
            out += "  <title>\(SVGText.escaped(title))</title>\n"
            out += "  <text class=\"title\" x=\"12\" y=\"20\" font-size=\"15\" font-weight=\"bold\">\(SVGText.escaped(title))</text>\n"
            line = 24
        }
        for caption in captions {
            // One text per caption, its later lines as tspans: a reader of the text gets the caption
            // whole (each continuation starts with the space it was broken at).
            line += Self.lineHeight
            out += "  <text class=\"caption\" x=\"12\" y=\"\(n(line))\" fill=\"#333\">\(SVGText.escaped(caption[0]))"
            for continuation in caption.dropFirst() {
                line += Self.lineHeight
                out += "<tspan x=\"24\" dy=\"\(n(Self.lineHeight))\">\(SVGText.escaped(continuation))</tspan>"
            }
            out += "</text>\n"
        }

        // Axes and their names.
        out += "  <text x=\"12\" y=\"\(n(documentTop - 6))\" font-weight=\"bold\">document</text>\n"
        out += "  <text x=\"\(n(Self.left - 6))\" y=\"\(n(documentTop + 4))\" text-anchor=\"end\">0</text>\n"
        out += "  <text x=\"\(n(Self.left - 6))\" y=\"\(n(documentTop + Self.documentHeight))\" text-anchor=\"end\">\(longest)</text>\n"
        out += "  <text x=\"\(n(Self.left - 6))\" y=\"\(n(documentTop + Self.documentHeight + 14))\" text-anchor=\"end\" fill=\"#666\">Characters</text>\n"
        out += "  <text x=\"12\" y=\"\(n(clockTop - 6))\" font-weight=\"bold\">host clock</text>\n"
        out += "  <text x=\"\(n(Self.left - 6))\" y=\"\(n(clockTop + 4))\" text-anchor=\"end\">\(DurationText.text(span))</text>\n"
        out += "  <text x=\"\(n(Self.left - 6))\" y=\"\(n(clockTop + Self.clockHeight))\" text-anchor=\"end\">0 s</text>\n"
        out += "  <rect x=\"\(n(Self.left))\" y=\"\(n(clockTop))\" width=\"\(n(plotWidth))\" height=\"\(n(Self.clockHeight))\" fill=\"none\" stroke=\"#ccc\"/>\n"

        // Which command each run of columns belongs to, above the document.
        var start = 0
        while start < columns.count {
            var end = start + 1
            while end < columns.count, columns[end].segment == columns[start].segment { end += 1 }
            if let segment = columns[start].segment {
                let x = Self.left + Double(start) * columnWidth, spanWidth = Double(end - start) * columnWidth
                out += "  <rect class=\"segment\" data-segment=\"\(segment)\" x=\"\(n(x))\" y=\"\(n(documentTop - 4))\" width=\"\(n(spanWidth))\" height=\"3\" fill=\"\(Self.segmentColors[segment % Self.segmentColors.count])\"/>\n"
            }
            start = end
        }

        var clockPoints: [String] = []
        for (index, column) in columns.enumerated() {
            let x = Self.left + Double(index) * columnWidth
            let first = steps[column.steps.lowerBound], last = steps[column.steps.upperBound - 1]
            out += "  <g class=\"trip\" data-first=\"\(column.steps.lowerBound)\" data-last=\"\(column.steps.upperBound - 1)\" "
                + "data-kind=\"\(column.steps.count == 1 && first.kind == .start ? "start" : "snapshot")\" "
                + "data-time-ns=\"\(max(column.time - origin, .zero).nanosecondsClamped)\" "
                + "data-selection-start=\"\(column.selection.lowerBound)\" data-selection-end=\"\(column.selection.upperBound)\" "
                + "data-window-start=\"\(column.window.lowerBound)\" data-window-end=\"\(column.window.upperBound)\" "
                + "data-length=\"\(column.length)\"\(column.segment.map { " data-segment=\"\($0)\"" } ?? "")>\n"
            out += "    <title>\(SVGText.escaped(tooltip(column, last: last, origin: origin)))</title>\n"
            out += rect(.document, x, y(0), drawnWidth, y(column.length) - y(0))
            for window in column.windows {
                // A window too small to see at this scale is drawn 3 points tall about its middle.
                let windowTop = y(window.lowerBound), windowBottom = y(window.upperBound)
                let windowHeight = max(windowBottom - windowTop, 3)
                out += rect(.window, x, (windowTop + windowBottom - windowHeight) / 2, drawnWidth, windowHeight)
            }
            let selectionTop = y(column.selection.lowerBound) - (column.selection.isEmpty ? 0.5 : 0)
            out += rect(.selection, x, selectionTop, drawnWidth, max(y(column.selection.upperBound) - y(column.selection.lowerBound), 1))
            // The step's time: the extension's part, from the snapshot before to its post, then the
            // host's, from the post to this snapshot.
            let posted = column.steps.count == 1 ? column.posted.flatMap { $0 >= column.previous ? $0 : nil } : nil
            if let posted { out += rect(.extensionTime, x, clockY(posted), drawnWidth, clockY(column.previous) - clockY(posted)) }
            let hostFrom = posted ?? column.previous
            out += rect(.hostTime, x, clockY(column.time), drawnWidth, clockY(hostFrom) - clockY(column.time))
            out += "  </g>\n"
            clockPoints.append("\(n(x + drawnWidth / 2)),\(n(clockY(column.time)))")
        }
        if clockPoints.count > 1 {
            out += "  <polyline class=\"clock\" points=\"\(clockPoints.joined(separator: " "))\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n"
        }
        if span == .zero, !columns.isEmpty {
            out += "  <text x=\"\(n(Self.left + 8))\" y=\"\(n(clockTop + Self.clockHeight / 2))\" fill=\"#666\">The host's clock did not move (no latency, no timers): only the round trips count here.</text>\n"
        }
        if columns.isEmpty {
            out += "  <text x=\"\(n(Self.left + 8))\" y=\"\(n(documentTop + 20))\" fill=\"#666\">No snapshots were pushed while the host recorded.</text>\n"
        }

        // The x axis, and a legend.
        let axisY = clockTop + Self.clockHeight + 16
        let perColumn = Self.stepsPerColumn(steps.count)
        out += "  <text x=\"\(n(Self.left))\" y=\"\(n(axisY))\" fill=\"#666\">step 1</text>\n"
        out += "  <text x=\"\(n(width - Self.right))\" y=\"\(n(axisY))\" text-anchor=\"end\" fill=\"#666\">step \(steps.count)"
            + "\(perColumn > 1 ? " (\(perColumn) steps a column)" : "")</text>\n"
        var legendX = Self.left
        let legendY = axisY + 20
        for part in Part.allCases {
            out += rect(part, legendX, legendY - 9, 10, 10, legend: true)
            out += "  <text x=\"\(n(legendX + 14))\" y=\"\(n(legendY))\">\(part.name)</text>\n"
            legendX += 14 + Double(part.name.count) * 6.5 + 16
        }
        return out + "</svg>\n"
    }

    /// The steps grouped into at most ``maximumColumns`` columns, each within one command.
    private static func columns(_ steps: [WalkTimeline.Step]) -> [Column] {
        guard !steps.isEmpty else { return [] }
        let perColumn = stepsPerColumn(steps.count)
        var columns: [Column] = []
        var start = 0
        while start < steps.count {
            var end = min(start + perColumn, steps.count)
            // A column never mixes two commands: it ends where the next begins.
            if let split = steps[start..<end].indices.dropFirst().first(where: { steps[$0].segment != steps[start].segment }) {
                end = split
            }
            let group = steps[start..<end], last = steps[end - 1]
            columns.append(Column(
                steps: start..<end,
                windows: merged(group.map(\.window)),
                selection: last.selection, length: last.length, time: last.time, posted: last.posted,
                previous: start > 0 ? steps[start - 1].time : last.time, segment: last.segment
            ))
            start = end
        }
        return columns
    }

    /// How many steps share a column (fewer where a command begins).
    private static func stepsPerColumn(_ steps: Int) -> Int {
        max((steps + maximumColumns - 1) / maximumColumns, 1)
    }

    /// `windows` as the fewest ranges that cover them, in order; at most 8 (then their span): a column
    /// of a walk that jumps about is drawn as what it touched, not as thousands of slivers.
    private static func merged(_ windows: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for window in windows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, window.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, window.upperBound)
            } else {
                out.append(window)
            }
        }
        return out.count <= 8 ? out : [out.first!.lowerBound..<out.map(\.upperBound).max()!]
    }

    /// A caption per command, in two lines: what it was, its round trips, its time and its answer; then
    /// its windows. (SVG does not wrap text, and one line of a long walk's numbers runs past the
    /// picture's edge.)
    private func captionLines(_ timeline: WalkTimeline, origin: Duration) -> [[String]] {
        var lines = timeline.segments.enumerated().map { index, segment in
            let trips = segment.roundTrips(in: timeline)
            let shown = timeline.steps[segment.firstStep..<(segment.endStep ?? timeline.steps.count)].filter { $0.kind == .snapshot }
            let average = shown.isEmpty ? 0 : shown.reduce(0) { $0 + $1.window.count } / shown.count
            let took = segment.answered.map { DurationText.text($0 - segment.sent) } ?? "unanswered"
            let answer = segment.succeeded.map { $0 ? "succeeded" : "failed" } ?? "no answer while recorded"
            let reported = segment.reportedRoundTrips.map { $0 == trips ? "" : " (the extension counted \($0))" } ?? ""
            return [
                "\(index + 1). \(segment.command): \(trips) round trip\(trips == 1 ? "" : "s")\(reported), \(took) on the host's clock, \(answer);",
                " the windows showed \(average) Characters a trip on average",
            ]
        }
        if timeline.droppedSteps > 0 {
            lines.append(["… and \(timeline.droppedSteps) steps more than the \(WalkTimeline.maximumSteps) a timeline keeps, not drawn"])
        }
        return lines
    }

    private func tooltip(_ column: Column, last: WalkTimeline.Step, origin: Duration) -> String {
        let when = DurationText.text(max(column.time - origin, .zero))
        guard column.steps.count == 1 else {
            return "steps \(column.steps.lowerBound + 1)–\(column.steps.upperBound) at \(when): windows \(column.window.lowerBound)..<\(column.window.upperBound), selection \(column.selection.lowerBound)..<\(column.selection.upperBound) of \(column.length)"
        }
        let edits = last.edits.isEmpty ? "" : ", after \(last.edits.prefix(3).map(\.description).joined(separator: ", "))\(last.editCount > 3 ? " and \(last.editCount - 3) more" : "")"
        let what = last.kind == .start ? "start (snapshot #\(last.sequence))" : "snapshot #\(last.sequence)"
        return "step \(column.steps.lowerBound + 1), \(what) at \(when)\(edits): selection \(last.selection.lowerBound)..<\(last.selection.upperBound), "
            + "windows \(last.before) before and \(last.after) after, document \(last.length)"
    }

    /// What the picture draws in colour, each with its class (for scripts), colour and legend.
    private enum Part: String, CaseIterable {
        case document, window, selection
        case extensionTime = "extension-time"
        case hostTime = "host-time"

        var color: String {
            switch self {
            case .document: "#d3d7de"
            case .window: "#5b9bf0"
            case .selection: "#111"
            case .extensionTime: "#f0a04b"
            case .hostTime: "#9aa0a8"
            }
        }

        var name: String {
            switch self {
            case .document: "document"
            case .window: "what the windows showed"
            case .selection: "selection"
            case .extensionTime: "extension's time"
            case .hostTime: "host's time (latency)"
            }
        }
    }

    /// A rectangle of `part`: in a column, of its class; in the legend, of class `legend`.
    private func rect(_ part: Part, _ x: Double, _ y: Double, _ width: Double, _ height: Double, legend: Bool = false) -> String {
        "\(legend ? "  " : "    ")<rect class=\"\(legend ? "legend" : part.rawValue)\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(part.color)\"/>\n"
    }

    private static let segmentColors = ["#2f6fd0", "#c2410c", "#15803d", "#7e22ce"]

    private func n(_ value: Double) -> String { SVGText.number(value) }
}
