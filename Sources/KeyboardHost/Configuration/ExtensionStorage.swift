import Foundation

/// Where the host keeps each extension's files: `<root>/extensions/<identifier>/`, made on first use
/// with mode 0700 and handed to the extension as `HostSettings.storage`.
///
/// The root is `--data-dir`, else `$XDG_DATA_HOME/kbhost`, else `~/.local/share/kbhost` (the XDG
/// base-directory defaults).
public enum ExtensionStorage {
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/kbhost" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/kbhost"
    }

    /// The extension's folder under `root`, made (with its parents) if missing, and set to 0700.
    public static func directory(for identifier: String, root: String) throws(ExtensionStorageError) -> String {
        // Identifiers are reverse-DNS (checked at load), so they are safe as one path component.
        let path = URL(fileURLWithPath: root).appendingPathComponent("extensions").appendingPathComponent(identifier).path
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
        } catch {
            throw ExtensionStorageError(path: path, reason: (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        return path
    }
}

public struct ExtensionStorageError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot make the extension's storage '\(path)': \(reason)" }
}
