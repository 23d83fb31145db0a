import KeyboardExtensionABI

/// An extension whose descriptor passed every check: ready to be shown in a ``KeyboardSession``.
///
/// Loaded in one of two ways (``Isolation``): into this process (its image is here, ``isInProcess``),
/// or in a child process that checked it and said who it is — then each session starts a child of its
/// own to run it, and nothing of the extension's runs in the host.
public struct LoadedExtension: Sendable, CustomStringConvertible {
    /// Where it was loaded from, or a label for an extension hosted in process.
    public let source: String
    public let identifier: String
    public let name: String
    public let version: String
    public let abiVersion: UInt32
    /// Whether it takes key gestures (its descriptor's `key_gestures`, ABI revision 5): without them
    /// the host sends it taps alone and refuses its user a gesture (``KeyGesture``).
    public let takesKeyGestures: Bool
    /// Where it runs.
    public let isolation: Isolation
    /// The library's absolute path (for a child to load), and the SHA-256 it was checked with, if any.
    let library: String?
    let sha256: String?
    /// Or, for a keyboard class of this very program (``ExportableKeyboard``) run in a child process:
    /// its mangled name, for the child (this program started again) to find it by.
    let className: String?

    /// In process: the descriptor, static and immutable for the life of the process (the image is never
    /// closed), so sharing the pointer across threads is safe. It is what create_instance is given back.
    nonisolated(unsafe) let descriptor: UnsafePointer<kbx_extension_descriptor>?
    /// In process: a copy of the descriptor at this header's size, read from it: fields of a later
    /// revision than the extension's are zero (NULL). Never freed, as the image is never closed.
    nonisolated(unsafe) let callbacks: UnsafePointer<kbx_extension_descriptor>?

    public var isInProcess: Bool { descriptor != nil }

    public var description: String { "\(name) (\(identifier) \(version))" }
}

/// Where an extension runs.
public enum Isolation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// In a child process of its own, which carries the ABI's calls as messages: a crash, a hang or a
    /// flood ends the child, not the host, and the user's text stays as it was.
    case process
    /// In the host's process: the fastest, and what a debugger sees; a crash takes the host with it.
    case inProcess = "in-process"

    public var description: String { rawValue }
}
