// The host library. Its API speaks the model's types (layouts, keys, traits, keyboard state), so they
// come along with `import KeyboardHost`.
@_exported import KeyboardModel
