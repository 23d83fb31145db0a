import KeyboardExtensionABI

/// An extension whose descriptor passed every check: ready to be shown in a ``KeyboardSession``.
public struct LoadedExtension: Sendable, CustomStringConvertible {
    /// Where it was loaded from, or a label for an extension hosted in process.
    public let source: String
    public let identifier: String
    public let name: String
    public let version: String
    public let abiVersion: UInt32

    /// The descriptor is static and immutable for the life of the process (the image is never closed),
    /// so sharing the pointer across threads is safe. It is what create_instance is given back.
    nonisolated(unsafe) let descriptor: UnsafePointer<kbx_extension_descriptor>
    /// A copy of the descriptor at this header's size, read from it: fields of a later revision than
    /// the extension's are zero (NULL). Never freed, as the image is never closed.
    nonisolated(unsafe) let callbacks: UnsafePointer<kbx_extension_descriptor>

    public var description: String { "\(name) (\(identifier) \(version))" }
}
