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

    /// The bundles in `directories`, in order, each folder's sorted by name, opened and checked. A
    /// missing folder holds none.
    @MainActor
    public static func scan(_ directories: [String], isolation: Isolation = .process) -> [Entry] {
        folders(in: directories).map { path in
            Entry(path: path, bundle: Result { () throws(BundleError) in try ExtensionBundle.open(path, isolation: isolation) })
        }
    }

    /// The bundle whose manifest says `identifier`, the first in `directories` order, opened and
    /// checked. Only manifests are read to find it: no other bundle's library is loaded.
    @MainActor
    public static func find(
        _ identifier: String, in directories: [String], isolation: Isolation = .process
    ) -> Result<ExtensionBundle, BundleError>? {
        for path in folders(in: directories) where (try? ExtensionBundle.readManifest(path))?.identifier == identifier {
            return Result { () throws(BundleError) in try ExtensionBundle.open(path, isolation: isolation) }
        }
        return nil
    }

    /// The identifiers the bundles in `directories` declare, from their manifests alone (for
    /// suggesting one when a name matches none).
    public static func identifiers(in directories: [String]) -> [String] {
        folders(in: directories).compactMap { try? ExtensionBundle.readManifest($0).identifier }
    }

    /// Every `*.kbx` folder in `directories`.
    private static func folders(in directories: [String]) -> [String] {
        directories.flatMap { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .sorted().filter { $0.hasSuffix(".kbx") }.map { directory + "/" + $0 }
        }
    }
}
