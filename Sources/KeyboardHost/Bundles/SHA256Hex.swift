import Crypto
import Foundation

/// SHA-256 as lower-case hex: a bundle's library checksum, a long text's fingerprint in `kbhost run`'s
/// output, an issuer key's identifier (its first 16 digits).
public enum SHA256Hex {
    public static func of(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of a field's text, read out of its rope a piece at a time: a 4 MiB document is
    /// hashed without a second copy of it (kbhost prints a large document as its length and hash).
    public static func of(_ field: TextField) -> String {
        var stream = SHA256Stream()
        field.forEachUTF8Piece { stream.update(UnsafeRawBufferPointer($0)) }
        return stream.finish()
    }
}

/// SHA-256 of data that comes in pieces (a library read from its descriptor), as lower-case hex.
struct SHA256Stream {
    private var hasher = SHA256()

    mutating func update(_ bytes: some DataProtocol) {
        hasher.update(data: bytes)
    }

    consuming func finish() -> String {
        hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}
