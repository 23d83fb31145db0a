import Foundation

/// Reads a document to seed a text field: a file of UTF-8 text.
public enum DocumentFile {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case notUTF8(path: String, byteOffset: Int)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read '\(path)': \(reason)"
            case .notUTF8(let path, let offset): "'\(path)' is not UTF-8 text: invalid byte sequence at byte \(offset)"
            }
        }
    }

    public static func read(_ path: String) throws(ReadError) -> String {
        let data: Data
        switch FileContents.read(path) {
        case .success(let contents): data = contents
        case .failure(let problem): throw .unreadable(path: path, reason: problem.description)
        }
        if let offset = firstInvalidUTF8Offset(data) { throw .notUTF8(path: path, byteOffset: offset) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or `nil`.
    public static func firstInvalidUTF8Offset(_ bytes: some Collection<UInt8>) -> Int? {
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
