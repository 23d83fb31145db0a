/// Whether a session checks the extension's license before showing it.
public enum Licensing: Sendable {
    /// Every extension is shown. For tests and development; `kbhost` says so loudly.
    case notChecked
    /// An extension is shown only with a license this verifier accepts.
    case required(LicenseVerifier)
}
