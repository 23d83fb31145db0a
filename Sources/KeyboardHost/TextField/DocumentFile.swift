import Foundation

/// Reads a document to seed a text field: a file of UTF-8 text.
public enum DocumentFile {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case notUTF8(path: String, byteOffset: Int)
        /// Larger than the limit the reader set (`bytes`, `limit`).
        case tooLarge(path: String, bytes: Int, limit: Int)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
            case .notUTF8(let path, let offset): "'\(path)' is not UTF-8 text: invalid byte sequence at byte \(offset)"
            case .tooLarge(let path, let bytes, let limit):
                "'\(path)' is \(ByteCountFormatting.mebibytes(bytes)), more than the \(ByteCountFormatting.mebibytes(limit)) allowed"
            }
        }
    }

    /// The default most bytes a document may have: 16 MiB, well beyond what a text field holds, well
    /// within what the host reads, checks and walks in seconds. A reader may raise it.
    public static let defaultLimit = 16 << 20

    public static func read(_ path: String, limit: Int = defaultLimit) throws(ReadError) -> String {
        // A file too large is refused before a byte of it is read (FileContents asks its size first).
        let data: Data
        switch FileContents.read(path, limit: limit) {
        case .success(let contents): data = contents
        case .failure(.tooLarge(let bytes)): throw .tooLarge(path: path, bytes: bytes, limit: limit)
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        return try text(of: data, path: path)
    }

    /// `data` as text, if it is UTF-8; `path` names it in the error.
    public static func text(of data: Data, path: String) throws(ReadError) -> String {
        // The standard library's check, many bytes at a time; the offset of a fault is looked for
        // only when there is one.
        if let text = String(validating: data, as: UTF8.self) { return text }
        throw .notUTF8(path: path, byteOffset: firstInvalidUTF8Offset(data) ?? 0)
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or `nil`.
    static func firstInvalidUTF8Offset(_ bytes: some Collection<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
