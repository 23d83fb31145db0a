import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The columns of an SVG of `WalkTimelineSVG`, read back through an XML parser: what each column says
/// its steps were (their range, kind, time, selection, window, document length, command), the
/// captions, and the picture's width.
public final class RenderedTimeline: NSObject, XMLParserDelegate {
    public struct Column: Equatable, Sendable {
        public let first, last: Int
        public let kind: String
        public let timeNanoseconds: Int64
        public let selection: Range<Int>
        public let window: Range<Int>
        public let length: Int
        public let segment: Int?
    }

    public private(set) var columns: [Column] = []
    /// Each caption as drawn, a line at a time: its text's own, then each `<tspan>`'s.
    public private(set) var captionLines: [[String]] = []
    /// Each caption whole, as a reader of its text gets it.
    public var captions: [String] { captionLines.map { $0.joined() } }
    public private(set) var width = 0.0
    private var inCaption = false

    public static func read(_ svg: String) throws -> RenderedTimeline {
        try RenderedKeys.parse(svg, into: RenderedTimeline())
    }

    /// The columns of the command at `segment` (its index, in the order sent).
    public func columns(of segment: Int) -> [Column] { columns.filter { $0.segment == segment } }

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let int = { (key: String) in Int(attributes[key] ?? "") ?? -1 }
        switch (name, attributes["class"]) {
        case ("svg", _): width = Double(attributes["width"] ?? "") ?? .nan
        case ("g", "trip"):
            columns.append(Column(
                first: int("data-first"), last: int("data-last"), kind: attributes["data-kind"] ?? "",
                timeNanoseconds: Int64(attributes["data-time-ns"] ?? "") ?? -1,
                selection: int("data-selection-start")..<max(int("data-selection-end"), int("data-selection-start")),
                window: int("data-window-start")..<max(int("data-window-end"), int("data-window-start")),
                length: int("data-length"), segment: attributes["data-segment"].flatMap { Int($0) }
            ))
        case ("text", "caption"):
            inCaption = true
            captionLines.append([""])
        case ("tspan", _) where inCaption:
            captionLines[captionLines.count - 1].append("")
        default: break
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard inCaption else { return }
        let caption = captionLines.count - 1
        captionLines[caption][captionLines[caption].count - 1] += string
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inCaption = false }
    }
}
