import Foundation
import KeyboardHost

/// A text in kbhost's JSON: the text itself, or — above a size limit, so a 4 MiB document does not
/// flood a terminal or a CI log — its length and SHA-256, which still let a script check it exactly.
enum TextOutput: Encodable, Equatable {
    case text(String)
    case summary(characters: Int, utf8Bytes: Int, sha256: String)

    /// `limit` in UTF-8 bytes; 0 means no limit.
    init(_ text: String, limit: Int) {
        let bytes = text.utf8.count
        guard limit > 0, bytes > limit else {
            self = .text(text)
            return
        }
        // Hashed where the text is (a native String's UTF-8), not from a copy of it.
        var text = text
        let digest = text.withUTF8 { SHA256Hex.of(UnsafeRawBufferPointer($0)) }
        self = .summary(characters: text.count, utf8Bytes: bytes, sha256: digest)
    }

    /// A field's text: its counts are the field's own (no pass over the text), and a large one is
    /// hashed a piece at a time, never copied whole.
    init(_ field: TextField, limit: Int) {
        let bytes = field.utf8Count
        guard limit > 0, bytes > limit else {
            self = .text(field.text)
            return
        }
        self = .summary(characters: field.count, utf8Bytes: bytes, sha256: SHA256Hex.of(field))
    }

    private enum Keys: String, CodingKey { case characters, utf8Bytes, sha256 }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .summary(let characters, let bytes, let sha256):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(characters, forKey: .characters)
            try container.encode(bytes, forKey: .utf8Bytes)
            try container.encode(sha256, forKey: .sha256)
        }
    }
}
