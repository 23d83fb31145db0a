/// How much of the document the extension's proxy sees around the cursor: how the host cuts
/// `documentContextBeforeInput` and `documentContextAfterInput`. Each platform cuts differently, and a
/// keyboard that walks the document must cope with the one it ships to; choosing the policy per session
/// lets its author test against each.
///
/// The window before ends at the start of the selection (the cursor, if nothing is selected); the window
/// after starts at its end. No window ever ends inside a Character or a UTF-8 sequence.
///
/// | policy | before the cursor | after the cursor |
/// | --- | --- | --- |
/// | `characters(n)` (Android's `getTextBeforeCursor(n)`) | the last `n` Characters | the first `n` Characters |
/// | `utf8Bytes(n)` (Wayland text-input-v3: 4000) | the most whole Characters whose UTF-8 fits in `n` bytes, and at least one | likewise |
/// | `sentence` (iOS) | back to, not including, the nearest `.` `!` `?` `。` or line break | up to and including the nearest one |
/// | `paragraph` | back to, not including, the nearest line break | up to and including the nearest line break |
/// | `unlimited` | everything | everything |
///
/// Examples, with the cursor at `|` in `"One. Two th|ree! Four"`:
/// - `characters(3)`: before `" th"`, after `"ree"`
/// - `utf8Bytes(4)`: before `"o th"`, after `"ree!"`
/// - `sentence`: before `" Two th"`, after `"ree!"`
/// - `paragraph` and `unlimited`: before `"One. Two th"`, after `"ree! Four"`
///
/// A window before the cursor can be empty although there is text beyond it: `sentence` right after a
/// `.` or a line break, `paragraph` right after a line break. Walkers must then move the cursor by a
/// Character to go on. A window after the cursor is empty only at the end of the document.
///
/// `utf8Bytes(n)` shows a single Character longer than `n` bytes (a family emoji is 25, a cluster of
/// combining marks can be longer still) rather than nothing: a host cannot cut a cluster, and a
/// Character no window ever shows could never be read.
public enum ContextPolicy: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    case characters(Int)
    case utf8Bytes(Int)
    case sentence
    case paragraph
    case unlimited

    /// Wayland's text-input-v3 limit for surrounding text.
    public static let wayland = ContextPolicy.utf8Bytes(4000)

    /// The text form used by `--policy`: `characters:N`, `utf8-bytes:N`, `sentence`, `paragraph`,
    /// `unlimited`, and `wayland` for `utf8-bytes:4000`; `nil` for anything else
    /// (``parse(_:)`` says why).
    public init?(_ text: String) {
        guard let policy = try? Self.parse(text) else { return nil }
        self = policy
    }

    /// Reads the text form, or says in one line what is wrong with it.
    public static func parse(_ text: String) throws(ContextPolicyError) -> ContextPolicy {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("sentence", 1): return .sentence
        case ("paragraph", 1): return .paragraph
        case ("unlimited", 1): return .unlimited
        case ("wayland", 1): return .wayland
        case ("characters", 2): return .characters(try count(parts[1], in: text))
        case ("utf8-bytes", 2), ("utf8Bytes", 2): return .utf8Bytes(try count(parts[1], in: text))
        case ("characters", 1), ("utf8-bytes", 1), ("utf8Bytes", 1): throw .missingCount(text)
        default: throw .unknown(text)
        }
    }

    private static func count(_ text: String, in policy: String) throws(ContextPolicyError) -> Int {
        guard let count = Int(text), count > 0 else { throw .badCount(policy) }
        return count
    }

    public var description: String {
        switch self {
        case .characters(let count): "characters:\(count)"
        case .utf8Bytes(let count): "utf8-bytes:\(count)"
        case .sentence: "sentence"
        case .paragraph: "paragraph"
        case .unlimited: "unlimited"
        }
    }

    /// The forms ``init(_:)`` reads, for help texts.
    public static let forms = "characters:N, utf8-bytes:N, wayland (utf8-bytes:4000), sentence, paragraph or unlimited"

    /// Whether a Character ends a window under the `sentence` or `paragraph` policy.
    func isBoundary(_ character: Character) -> Bool {
        switch self {
        case .sentence: character.isNewline || Self.sentenceTerminators.contains(character)
        case .paragraph: character.isNewline
        default: false
        }
    }

    /// Whether a scalar can be the first of a Character ``isBoundary(_:)`` accepts: a cheap test that
    /// lets the windows be cut by scalars and look at a Character only here. Every such Character
    /// begins with one of these (CR LF with CR; a "." that combines with a mark is not a boundary).
    func mayBeginBoundary(_ scalar: Unicode.Scalar) -> Bool {
        switch self {
        case .sentence: Self.newlineScalars.contains(scalar.value) || Self.sentenceTerminatorScalars.contains(scalar.value)
        case .paragraph: Self.newlineScalars.contains(scalar.value)
        default: false
        }
    }

    private static let sentenceTerminators: Set<Character> = [".", "!", "?", "。"]
    private static let sentenceTerminatorScalars: Set<UInt32> = Set(sentenceTerminators.map { $0.unicodeScalars.first!.value })
    /// The scalars of the Characters for which `Character.isNewline` holds.
    private static let newlineScalars: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
}

/// Why a context policy's text form was not read: one line, with what to write instead.
public enum ContextPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not one of the forms.
    case unknown(String)
    /// `characters` or `utf8-bytes` without `:N`.
    case missingCount(String)
    /// N is not a whole number above 0.
    case badCount(String)

    public var description: String {
        switch self {
        case .unknown(let text):
            "'\(text)' is not a context policy; give \(ContextPolicy.forms)"
        case .missingCount(let text):
            "'\(text)' needs a size: \(text):N, N a whole number above 0 (e.g. \(text):1024)"
        case .badCount(let text):
            "in '\(text)', N must be a whole number above 0 (e.g. \(text.prefix { $0 != ":" }):1024)"
        }
    }
}
