// The testing module for extension authors. Its API speaks the host's types (ContextPolicy,
// TextField, SessionEvent, KeyStroke), so they come along with `import KeyboardTesting`.
@_exported import KeyboardHost
