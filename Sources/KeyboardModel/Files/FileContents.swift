import Foundation

/// Reads a whole file, or says in a few words why it cannot — for the one-line errors every file the
/// host or an extension reads (documents, configurations, layouts, keys) gives.
public enum FileContents {
    public static func read(_ path: String) -> Result<Data, FileProblem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .failure(.noSuchFile) }
        if isDirectory.boolValue { return .failure(.isADirectory) }
        guard FileManager.default.isReadableFile(atPath: path) else { return .failure(.permissionDenied) }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(.unreadable) }
        return .success(data)
    }

    public enum FileProblem: Error, Equatable, CustomStringConvertible {
        case noSuchFile, isADirectory, permissionDenied, unreadable

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .isADirectory: "it is a directory"
            case .permissionDenied: "permission denied"
            case .unreadable: "cannot be read"
            }
        }
    }
}
