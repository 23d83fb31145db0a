import Crypto
import CryptoExtras
import Foundation

/// Passcodes kept as salted scrypt hashes, one file per user under the folder the host gives the
/// extension (`<storage>/passcodes/<user>.json`, mode 0600), with the failed-attempt count and the
/// lockout, so both survive a restart of the host.
///
/// Authentication allows ``maximumAttempts`` (5): each failure says how many are left (4 after the
/// first … 1 before the last); the last failure locks the passcode out; a success resets the count.
/// A locked-out passcode stays locked until its file is removed (the issuer's reset, in a real SDK).
struct PasscodeStore {
    static let maximumAttempts = 5

    /// scrypt's r and p; N is 2^``cost``. Stored in each record, so a record keeps the cost it was
    /// made with and a later version can raise it.
    static let blockSize = 8, parallelism = 1
    /// log2 of scrypt's N for new passcodes: 15 (32 MiB) by default.
    static let defaultCost = 15

    let folder: String
    let cost: Int

    init(storage: String, cost: Int = PasscodeStore.defaultCost) {
        folder = storage + "/passcodes"
        self.cost = cost
    }

    /// User identifiers become file names: letters, digits, `.`, `_`, `-`; 1–64 of them.
    static func isValidUser(_ user: String) -> Bool {
        !user.isEmpty && user.count <= 64 && !user.hasPrefix(".")
            && user.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    private func path(for user: String) -> String { folder + "/" + user + ".json" }

    func exists(user: String) -> Bool {
        FileManager.default.fileExists(atPath: path(for: user))
    }

    /// Stores `passcode` for `user` (replacing any), with a fresh salt and no failed attempts.
    func setPasscode(_ passcode: SecretDigits, for user: String) throws(PasscodeStoreError) {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let hash = try Self.hash(passcode, salt: salt, rounds: 1 << cost, blockSize: Self.blockSize, parallelism: Self.parallelism)
        try write(Record(
            algorithm: "scrypt", rounds: 1 << cost, blockSize: Self.blockSize, parallelism: Self.parallelism,
            salt: Data(salt).base64EncodedString(), hash: hash.base64EncodedString(), failedAttempts: 0, lockedOut: false
        ), for: user)
    }

    /// Checks `passcode` against the stored one, counting failures.
    func authenticate(_ passcode: SecretDigits, user: String) throws(PasscodeStoreError) {
        var record = try read(user)
        if record.lockedOut { throw .lockedOut }
        guard let salt = Data(base64Encoded: record.salt), let expected = Data(base64Encoded: record.hash) else {
            throw .unreadable(path: path(for: user), reason: "salt or hash is not base64")
        }
        let actual = try Self.hash(passcode, salt: Array(salt), rounds: record.rounds, blockSize: record.blockSize, parallelism: record.parallelism)
        if Self.constantTimeEqual(actual, expected) {
            if record.failedAttempts != 0 {
                record.failedAttempts = 0
                try write(record, for: user)
            }
            return
        }
        record.failedAttempts += 1
        if record.failedAttempts >= Self.maximumAttempts {
            record.lockedOut = true
            try write(record, for: user)
            throw .lockedOut
        }
        try write(record, for: user)
        throw .authenticationFailed(attemptsRemaining: Self.maximumAttempts - record.failedAttempts)
    }

    /// The stored record's state, for showing (never the hash).
    func status(user: String) throws(PasscodeStoreError) -> (failedAttempts: Int, lockedOut: Bool) {
        let record = try read(user)
        return (record.failedAttempts, record.lockedOut)
    }

    // MARK: Files

    struct Record: Codable {
        var algorithm: String
        var rounds: Int
        var blockSize: Int
        var parallelism: Int
        var salt: String
        var hash: String
        var failedAttempts: Int
        var lockedOut: Bool
    }

    private func read(_ user: String) throws(PasscodeStoreError) -> Record {
        let path = path(for: user)
        guard let data = FileManager.default.contents(atPath: path) else { throw .noPasscode(user: user) }
        do {
            let record = try JSONDecoder().decode(Record.self, from: data)
            guard record.algorithm == "scrypt" else { throw PasscodeStoreError.unreadable(path: path, reason: "unknown algorithm '\(record.algorithm)'") }
            return record
        } catch let error as PasscodeStoreError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "not a passcode record")
        }
    }

    /// Writes through a temporary file made 0600 before anything is in it, then renamed over the old one.
    private func write(_ record: Record, for user: String) throws(PasscodeStoreError) {
        let target = path(for: user)
        let temporary = target + ".tmp"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try JSONEncoder().encode(record)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw PasscodeStoreError.unwritable(path: temporary, reason: String(cString: strerror(errno))) }
            fchmod(descriptor, 0o600)  // whatever the umask
            let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            fsync(descriptor)
            close(descriptor)
            guard written == data.count else { throw PasscodeStoreError.unwritable(path: temporary, reason: "short write") }
            guard rename(temporary, target) == 0 else { throw PasscodeStoreError.unwritable(path: target, reason: String(cString: strerror(errno))) }
        } catch let error as PasscodeStoreError {
            throw error
        } catch {
            throw .unwritable(path: target, reason: error.localizedDescription)
        }
    }

    private static func hash(
        _ passcode: SecretDigits, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int
    ) throws(PasscodeStoreError) -> Data {
        do {
            // The passcode's bytes go to scrypt in place: no copy of them is made here.
            let key = try passcode.withBytes { bytes in
                try KDF.Scrypt.deriveKey(
                    from: bytes, salt: salt, outputByteCount: 32, rounds: rounds, blockSize: blockSize, parallelism: parallelism
                )
            }
            return key.withUnsafeBytes { Data($0) }
        } catch {
            throw .hashFailed("\(error)")
        }
    }

    private static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

enum PasscodeStoreError: Error, Equatable, CustomStringConvertible {
    case noPasscode(user: String)
    case authenticationFailed(attemptsRemaining: Int)
    case lockedOut
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case hashFailed(String)

    var description: String {
        switch self {
        case .noPasscode(let user): "no passcode for '\(user)'"
        case .authenticationFailed(let remaining): "wrong passcode; \(remaining) attempt\(remaining == 1 ? "" : "s") left"
        case .lockedOut: "locked out after \(PasscodeStore.maximumAttempts) failed attempts"
        case .unreadable(let path, let reason): "passcode record '\(path)': \(reason)"
        case .unwritable(let path, let reason): "cannot write the passcode record '\(path)': \(reason)"
        case .hashFailed(let reason): "cannot hash the passcode: \(reason)"
        }
    }
}
