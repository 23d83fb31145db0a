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
        let digest = SHA256Hex.of(Data(text.utf8))
        self = .summary(characters: text.count, utf8Bytes: bytes, sha256: digest)
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
