// The SDK for keyboard extension authors. `import KeyboardExtension` is all an extension needs:
// the configuration and layout types come along.
@_exported import KeyboardModel
