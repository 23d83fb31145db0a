import Foundation

extension KeyboardLayout {
    /// A layout from a JSON file. Errors name the file, the field (its JSON path) and what was expected;
    /// unknown keys are errors.
    public init(contentsOfFile path: String) throws(LayoutFileError) {
        let data: Data
        switch FileContents.read(path) {
        case .success(let contents): data = contents
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        try self.init(json: data, source: path)
    }

    /// A layout from JSON; `source` names it in errors. `unknownKeys`: ``JSONInput/UnknownKeys/ignored``
    /// for a layout an extension sends (set_layout), refused in a file.
    public init(json: Data, source: String = "layout", unknownKeys: JSONInput.UnknownKeys = .refused) throws(LayoutFileError) {
        do {
            self = try JSONInput.decode(KeyboardLayout.self, from: json, unknownKeys: unknownKeys)
        } catch {
            throw .invalid(path: source, problem: DecodingProblem(error).description)
        }
        if subKeyboards.isEmpty { throw .invalid(path: source, problem: "subKeyboards: expected at least one sub-keyboard") }
    }

    /// The layout as pretty JSON (what ``init(contentsOfFile:)`` reads).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// A layout file that cannot be used.
public enum LayoutFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(path: String, problem: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "layout '\(path)': \(reason)"
        case .invalid(let path, let problem): "layout '\(path)': \(problem)"
        }
    }
}
