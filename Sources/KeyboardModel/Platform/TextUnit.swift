// Shared by the host (its platform profiles count in it) and the SDK (its walker moves in it).
/// What a platform counts text in.
public enum TextUnit: String, Hashable, Sendable {
    /// Extended grapheme clusters: what a person sees as one character (Swift's `Character`).
    case characters
    /// UTF-16 code units (UIKit's and Android's `NSString`/`CharSequence` offsets).
    case utf16

    /// How many of these units `text` takes.
    public func count(of text: some StringProtocol) -> Int {
        switch self {
        case .characters: text.count
        case .utf16: text.utf16.count
        }
    }
}
