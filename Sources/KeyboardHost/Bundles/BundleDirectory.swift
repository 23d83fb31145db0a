import Foundation

/// The folders the host looks for bundles in (`--bundles`, the configuration's `bundles`, and
/// `$XDG_DATA_HOME/kbhost/bundles` by default), and what each holds: every `*.kbx` folder, opened and
/// checked, usable or with the reason it is not.
public enum BundleDirectory {
    /// The per-user default: `<data root>/bundles` (see ``ExtensionStorage/defaultRoot(environment:)``).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        ExtensionStorage.defaultRoot(environment: environment) + "/bundles"
    }

    /// One `*.kbx` folder found.
    public struct Entry: Sendable {
        public let path: String
        public let bundle: Result<ExtensionBundle, BundleError>
    }

    /// The bundles in `directories`, in order, each folder's sorted by name. A missing folder holds none.
    public static func scan(_ directories: [String]) -> [Entry] {
        var entries: [Entry] = []
        for directory in directories {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in names.sorted() where name.hasSuffix(".kbx") {
                let path = directory + "/" + name
                entries.append(Entry(path: path, bundle: Result { () throws(BundleError) in try ExtensionBundle.open(path) }))
            }
        }
        return entries
    }

    /// The usable bundle of `identifier` in `directories` (the first, if several).
    public static func find(_ identifier: String, in directories: [String]) -> ExtensionBundle? {
        for directory in directories {
            let path = directory + "/" + ExtensionBundle.folderName(for: identifier)
            if let bundle = try? ExtensionBundle.open(path) { return bundle }
        }
        return nil
    }
}
