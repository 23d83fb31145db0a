/// A decoding error in one line that names the field and what was wrong, e.g.
/// `layout.subKeyboards[0].rows[1][2].code: unknown key code 'shiftt' (expected …)`.
public struct DecodingProblem: CustomStringConvertible, Sendable {
    public let description: String

    public init(_ error: any Error) {
        // A key or value from the file may hold a line break or a terminal escape: shown escaped, so
        // the problem stays one line and cannot drive the terminal.
        description = Self.describe(error).unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
    }

    private static func describe(_ error: any Error) -> String {
        let description: String
        guard let error = error as? DecodingError else {
            return "\(error)"
        }
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.reduce(into: "") { text, key in
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the document" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            description = "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context):
            description = "\(path(context.codingPath)): expected \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            description = "\(path(context.codingPath)): expected \(Self.name(of: type)), found null"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { ": \($0.localizedDescriptionLine)" } ?? ""
            description = "\(path(context.codingPath)): \(context.debugDescription)\(underlying)"
        @unknown default:
            description = "\(error)"
        }
        return description
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is UInt32.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        default:
            switch String(describing: type) {
            case let name where name.hasPrefix("Array"): "an array"
            case let name where name.hasPrefix("Dictionary"): "an object"
            case let name: name
            }
        }
    }
}

extension Error {
    fileprivate var localizedDescriptionLine: String {
        "\(self)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(self)"
    }
}
