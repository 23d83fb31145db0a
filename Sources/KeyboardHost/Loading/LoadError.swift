/// Why an extension could not be loaded. Each case has its own one-line message (`description`) that
/// names the file and what was wrong; the host reports it and goes on.
public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at the path.
    case fileNotFound(path: String)
    /// The file is not a shared library (not an ELF shared object, or a directory).
    case notASharedLibrary(path: String, reason: String)
    /// The dynamic linker refused it (a missing dependency, another architecture, …).
    case openFailed(path: String, reason: String)
    /// The library does not export the entry symbol.
    case missingEntrySymbol(path: String, symbol: String)
    /// The entry returned NULL instead of a descriptor.
    case entryReturnedNull(path: String)
    /// The descriptor's ABI version is one this host does not support.
    case unsupportedABIVersion(path: String, found: UInt32, supported: ClosedRange<UInt32>)
    /// The descriptor is smaller than its ABI version's descriptor.
    case descriptorTooSmall(path: String, size: UInt32, expected: UInt32)
    /// A field of the descriptor is missing or malformed.
    case invalidDescriptor(path: String, field: String, reason: String)
    /// The library is not the one that was checked (its SHA-256 differs from the expected one).
    case changed(path: String, found: String, expected: String)
    /// The child process that was to load it (isolation) failed: why, in its words or the host's.
    case failedInChild(path: String, reason: String)

    public var path: String {
        switch self {
        case .fileNotFound(let path), .notASharedLibrary(let path, _), .openFailed(let path, _),
             .missingEntrySymbol(let path, _), .entryReturnedNull(let path),
             .unsupportedABIVersion(let path, _, _), .descriptorTooSmall(let path, _, _),
             .invalidDescriptor(let path, _, _), .changed(let path, _, _), .failedInChild(let path, _):
            path
        }
    }

    public var description: String {
        "cannot load extension '\(path)': " + reason
    }

    /// What was wrong, without the path.
    public var reason: String {
        switch self {
        case .fileNotFound:
            "no such file"
        case .notASharedLibrary(_, let reason):
            "not a shared library (\(reason))"
        case .openFailed(_, let reason):
            "the dynamic linker refused it: \(reason)"
        case .missingEntrySymbol(_, let symbol):
            "it does not export '\(symbol)', so it is not a keyboard extension"
        case .entryReturnedNull:
            "its entry function returned NULL instead of a descriptor"
        case .unsupportedABIVersion(_, let found, let supported):
            "it was built for ABI version \(found), and this host supports "
                + (supported.count == 1 ? "version \(supported.lowerBound)" : "versions \(supported.lowerBound)–\(supported.upperBound)")
        case .descriptorTooSmall(_, let size, let expected):
            "its descriptor is \(size) bytes, smaller than the \(expected) bytes its ABI version requires"
        case .invalidDescriptor(_, let field, let reason):
            "its descriptor's \(field) \(reason)"
        case .changed(_, let found, let expected):
            "it has SHA-256 \(found), not the \(expected) it was checked with: it changed"
        case .failedInChild(_, let reason):
            reason
        }
    }
}
