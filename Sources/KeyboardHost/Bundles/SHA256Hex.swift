import Crypto
import Foundation

/// SHA-256 as lower-case hex: a bundle's library checksum, a long text's fingerprint in `kbhost run`'s
/// output, an issuer key's identifier (its first 16 digits).
public enum SHA256Hex {
    public static func of(_ data: some DataProtocol) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
