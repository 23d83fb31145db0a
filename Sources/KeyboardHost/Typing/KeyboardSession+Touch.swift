import KeyboardModel

// A touch at a point of the keyboard, as a finger lands: resolved to a key by the same geometry the
// pictures are drawn with (KeyboardGeometry), so what `kbhost render` shows is what is tapped.
extension KeyboardSession {
    /// The key of the sub-keyboard shown at (`x`, `y`) points on a keyboard `width` points wide, if
    /// any (a point in a gap or a margin has none).
    public func position(atX x: Double, y: Double, width: Double = KeyboardGeometry.defaultWidth) -> KeyPosition? {
        guard let layout = configuration?.layout else { return nil }
        return KeyboardGeometry(layout: layout, page: keyboardState.subKeyboard, width: width).position(at: x, y)
    }

    /// Taps the key at (`x`, `y`) points; a point on no key throws ``SessionError/noKeyAtPoint(extension:x:y:)``.
    public func tap(atX x: Double, y: Double, width: Double = KeyboardGeometry.defaultWidth) throws(SessionError) {
        guard isShown else { throw .notShown(extension: name) }
        guard let position = position(atX: x, y: y, width: width) else { throw .noKeyAtPoint(extension: name, x: x, y: y) }
        try tap(position)
    }
}
