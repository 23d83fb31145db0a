import Foundation

/// Reads a whole file, or says in a few words why it cannot — for the one-line errors every file the
/// host or an extension reads (documents, configurations, layouts, keys) gives.
public enum FileContents {
    /// The file's bytes, read with open(2) and read(2) until the end, or ``FileProblem/tooLarge(bytes:)``
    /// when it has more than `limit` bytes: said before a byte is read when stat(2) knows the size.
    ///
    /// Not `FileManager.contents(atPath:)`: on Linux, swift-foundation leaks its 4 KiB read buffer
    /// for every empty file it reads (LeakSanitizer found it under `scripts/sanitize address`), and
    /// a file that says it is empty is common here (a new document, a truncated key). Reading until
    /// read(2) says the end also takes files whose size stat(2) does not know (`/proc`, a FIFO).
    public static func read(_ path: String, limit: Int = .max) -> Result<Data, FileProblem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileProblem(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable) }
        if status.st_mode & S_IFMT == S_IFDIR { return .failure(.isADirectory) }
        let size = Int(status.st_size)
        if size > limit { return .failure(.tooLarge(bytes: size)) }

        // Read straight into the result, one byte more than the size said: a read that fills it
        // finds a file that grew (or one of /proc), and the buffer doubles.
        var data = Data(count: max(size, 0) + 1)
        var filled = 0
        while true {
            if filled == data.count { data.count *= 2 }
            let count = data.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(errno == EISDIR ? .isADirectory : .unreadable)
            }
            filled += count
            if filled > limit { return .failure(.tooLarge(bytes: filled)) }
        }
        data.count = filled
        return .success(data)
    }

    public enum FileProblem: Error, Equatable, CustomStringConvertible {
        case noSuchFile, isADirectory, permissionDenied, unreadable
        /// More bytes than the reader's limit (at least `bytes`).
        case tooLarge(bytes: Int)

        init(errno: Int32) {
            switch errno {
            case ENOENT, ENOTDIR: self = .noSuchFile
            case EACCES, EPERM: self = .permissionDenied
            case EISDIR: self = .isADirectory
            default: self = .unreadable
            }
        }

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .isADirectory: "it is a directory"
            case .permissionDenied: "permission denied"
            case .unreadable: "cannot be read"
            case .tooLarge(let bytes): "it is \(ByteCountFormatting.mebibytes(bytes))"
            }
        }
    }
}
