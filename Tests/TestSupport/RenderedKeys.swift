import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The keys of an SVG of `KeyboardSVG`, read back as a browser would: each key's place, code, row span
/// and frame, on the page it is drawn on (with the page's offset), through an XML parser.
public final class RenderedKeys: NSObject, XMLParserDelegate {
    public struct Drawn: Equatable, Sendable {
        public let page, row, column, rowSpan: Int
        public let code: String
        public let x, y, width, height: Double
        public internal(set) var label = ""
    }

    public private(set) var keys: [Drawn] = []
    public private(set) var pageSizes: [Int: (width: Double, height: Double)] = [:]
    public private(set) var svgSize: (width: Double, height: Double) = (0, 0)
    private var page = -1, pageTop = 0.0
    private var pending: (row: Int, column: Int, code: String, span: Int)?
    private var inLabel = false

    public static func read(_ svg: String) throws -> RenderedKeys {
        try parse(svg, into: RenderedKeys())
    }

    public struct ParseFailure: Error, CustomStringConvertible { public let description: String }

    /// Runs an XML parser over `svg` with `reader` as its delegate, as a browser would read the
    /// picture; a picture that is not well-formed XML throws.
    static func parse<Reader: XMLParserDelegate>(_ svg: String, into reader: Reader) throws -> Reader {
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        guard parser.parse() else { throw ParseFailure(description: parser.parserError.map { "\($0)" } ?? "unknown") }
        return reader
    }

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let number = { (key: String) in Double(attributes[key] ?? "") ?? .nan }
        switch (name, attributes["class"]) {
        case ("svg", _): svgSize = (number("width"), number("height"))
        case ("g", "page"):
            page = Int(attributes["data-page"] ?? "") ?? -1
            let translate = attributes["transform"] ?? ""
            pageTop = Double(translate.split(separator: " ").last?.dropLast() ?? "") ?? .nan
            pageSizes[page] = (number("data-width"), number("data-height"))
        case ("g", "key"):
            pending = (Int(attributes["data-row"]!)!, Int(attributes["data-column"]!)!, attributes["data-code"]!, Int(attributes["data-row-span"]!)!)
        case ("rect", nil):
            guard let key = pending else { return }
            keys.append(Drawn(
                page: page, row: key.row, column: key.column, rowSpan: key.span, code: key.code, x: number("x"), y: number("y"),
                width: number("width"), height: number("height")
            ))
            pending = nil
        case ("text", nil): inLabel = !keys.isEmpty && keys.last!.label.isEmpty && page >= 0
        default: break
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inLabel { keys[keys.count - 1].label += string }
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { inLabel = false }
    }
}

