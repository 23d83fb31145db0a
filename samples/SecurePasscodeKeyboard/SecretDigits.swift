#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The characters of a passcode being typed, kept out of `String` (whose storage Swift may copy and
/// never clears) in one fixed buffer that is zeroed with `explicit_bzero` when cleared and when freed,
/// so a passcode does not outlive its use in the keyboard's memory.
final class SecretDigits {
    static let capacity = 64
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init() {
        storage = .allocate(capacity: Self.capacity)
        storage.initialize(repeating: 0)
    }

    deinit {
        explicit_bzero(storage.baseAddress!, Self.capacity)
        storage.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == Self.capacity }

    /// Appends one ASCII character (a digit or, for alphanumeric passcodes, a letter or symbol).
    func append(_ byte: UInt8) {
        guard !isFull else { return }
        storage[count] = byte
        count += 1
    }

    func removeLast() {
        guard count > 0 else { return }
        count -= 1
        storage[count] = 0
    }

    /// Zeroes everything.
    func clear() {
        explicit_bzero(storage.baseAddress!, Self.capacity)
        count = 0
    }

    /// Whether every byte of the buffer is zero (for tests of ``clear()``).
    var isZeroed: Bool { storage.allSatisfy { $0 == 0 } }

    /// Reads the characters typed so far without copying them out.
    func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: count))
    }

    /// Whether both hold the same characters, in time that does not depend on where they differ.
    func matches(_ other: SecretDigits) -> Bool {
        guard count == other.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<count { difference |= storage[index] ^ other.storage[index] }
        return difference == 0
    }

    /// Moves the characters into `other` (cleared first) and clears this one.
    func move(to other: SecretDigits) {
        other.clear()
        withBytes { bytes in bytes.forEach(other.append) }
        clear()
    }
}
