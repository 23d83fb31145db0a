import Foundation

/// A file a command writes what it drew to (`render --output`, `run --timeline`): whole or not at all
/// (written beside and moved into place), or a one-line error naming the option and why.
enum OutputFile {
    static func write(_ text: String, to path: String, option: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw fail("\(option) '\(path)': cannot write it: \((error as NSError).localizedDescription)", ExitStatus.badArguments)
        }
    }

    /// Refuses, before any work, a path that names a folder or whose folder is not there: a run
    /// should not walk a document only to find it cannot keep the picture (and print nothing else).
    static func check(_ path: String, option: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw fail("\(option) '\(path)': it is a folder; give a file's path", ExitStatus.badArguments)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw fail("\(option) '\(path)': its folder '\(folder)' does not exist; create it or give another path", ExitStatus.badArguments)
        }
    }
}
