import Foundation
import KeyboardModel

/// One `--set` flag: `typing.autocapitalization=true`, `appearance.theme=light`, `options.language=fr`.
///
/// The part before the first dot is the section (`typing`, `appearance` or `options`); the rest, split
/// at dots, is the field within it. The value is read as JSON if it is JSON (`true`, `12`, `"x"`,
/// `{"a": 1}`), else as a string, so `appearance.theme=light` needs no quotes.
public struct SettingAssignment: Sendable, Equatable {
    public enum Section: String, Sendable, CaseIterable { case typing, appearance, options, environment }

    public let section: Section
    public let path: [String]
    public let value: JSONValue

    public init(_ text: String) throws(SettingAssignmentError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw SettingAssignmentError(text: text, problem: "expected section.field=value")
        }
        let key = text[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = key.first, let section = Section(rawValue: first) else {
            let names = Section.allCases.map(\.rawValue).joined(separator: ", ")
            throw SettingAssignmentError(text: text, problem: "unknown section '\(key.first ?? "")' (expected \(names))")
        }
        let path = Array(key.dropFirst())
        guard !path.isEmpty, !path.contains(where: \.isEmpty) else {
            throw SettingAssignmentError(text: text, problem: "expected a field after '\(first).'")
        }
        let raw = String(text[text.index(after: equals)...])
        self.section = section
        self.path = path
        value = (try? JSONInput.decode(JSONValue.self, from: Data(raw.utf8))) ?? .string(raw)
    }

    /// The value as the nested object it sets: `typing.keyFeedback.sound=true` → `{"keyFeedback": {"sound": true}}`.
    var object: JSONValue {
        path.reversed().reduce(value) { inner, key in .object([key: inner]) }
    }

    /// Settings made of `assignments`, in order (a later one wins), each checked as its section
    /// would be: a typing or appearance field that does not exist, or has a value of the wrong kind, is
    /// an error naming the flag.
    public static func settings(_ assignments: [SettingAssignment]) throws(SettingAssignmentError) -> HostSettings {
        var settings = HostSettings()
        for assignment in assignments {
            let text = "\(assignment.section.rawValue).\(assignment.path.joined(separator: "."))=\(assignment.value)"
            switch assignment.section {
            case .typing:
                settings.typing = (settings.typing ?? .object([:])).merging(assignment.object)
                if let problem = Self.problem(decoding: TypingOptions.self, from: settings.typing!) {
                    throw SettingAssignmentError(text: text, problem: problem)
                }
            case .appearance:
                settings.appearance = (settings.appearance ?? .object([:])).merging(assignment.object)
                if let problem = Self.problem(decoding: Appearance.self, from: settings.appearance!) {
                    throw SettingAssignmentError(text: text, problem: problem)
                }
            case .options:
                let merged = JSONValue.object(settings.options).merging(assignment.object)
                if case .object(let options) = merged { settings.options = options }
            case .environment:
                let current = settings.environment.flatMap { try? JSONValueDecoding.encode($0) } ?? .object([:])
                do {
                    settings.environment = try JSONValueDecoding.decode(KeyboardEnvironment.self, from: current.merging(assignment.object))
                } catch {
                    throw SettingAssignmentError(text: text, problem: DecodingProblem(error).description)
                }
            }
        }
        return settings
    }

    private static func problem<T: Decodable>(decoding type: T.Type, from value: JSONValue) -> String? {
        do {
            _ = try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
            return nil
        } catch {
            return DecodingProblem(error).description
        }
    }
}

/// A `--set` that cannot be used: `--set 'typing.autocaps=true': autocaps: unknown key (expected …)`.
public struct SettingAssignmentError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let problem: String
    public var description: String { "--set '\(text)': \(problem)" }
}
