import Foundation
import KeyboardModel

/// The isolation wire's messages: the ABI's calls, both ways, between a host and the child process that
/// runs an extension (``ProcessConnection``, ``ExtensionWorker``). The encoding is ``WireCodec``'s.
///
/// Host to child, each numbered (`sequence`) and carrying the host's clock (`now`), for the child's
/// `now` to read. Of these only `load`, `loadClass`, `createInstance`, `createConfiguration`, `keyEvent`
/// and `barrier` are answered (`reply`, ``ToExtension/isAnswered``): the descriptor's callbacks that
/// return something, and the barrier. The rest flow one way, as the state model already does
/// (snapshots pushed, operations posted), and the child says when it has handled them and has nothing
/// left to run (`idle`).
enum ToExtension: Hashable {
    /// The first message: load the library (checking it against `sha256` if one is given) and check
    /// the wire's version.
    case load(library: String, sha256: String, wireVersion: UInt32)
    /// Or the first message for a keyboard class of the host's own program (the child is that program
    /// started again): find the class by its mangled name and host it as `identifier` and `name`.
    case loadClass(mangledName: String, identifier: String, name: String, wireVersion: UInt32)
    case createInstance(settingsJSON: String)
    case createConfiguration
    case lifecycle(UInt32)
    case textInput(UInt32)
    case snapshot(Snapshot)
    case keyEvent(KeyEvent)
    case hostCommand(command: UInt32, request: UInt64)
    case cancelCommand(request: UInt64)
    /// A timer the child set (`scheduleTimer`) is due.
    case fireTimer(token: UInt64)
    case destroyInstance
    /// Nothing to do but answer: when the answer comes, every message before it has been handled and
    /// what the extension called meanwhile has arrived.
    case barrier

    /// Whether the child answers it (`reply`); the host waits for that answer, reading meanwhile.
    var isAnswered: Bool {
        switch self {
        case .load, .loadClass, .createInstance, .createConfiguration, .keyEvent, .barrier: true
        case .lifecycle, .textInput, .snapshot, .hostCommand, .cancelCommand, .fireTimer, .destroyInstance: false
        }
    }
}

/// Child to host.
enum FromExtension: Hashable {
    /// The answer to message `sequence`: a status and, for `load` and `createConfiguration`, bytes
    /// (the descriptor's identity as JSON; the configuration).
    case reply(sequence: UInt64, status: Int32, payload: [UInt8])
    /// A call the extension made to the host.
    case call(ExtensionCall)
    /// Set a timer on the host's clock; the host answers with `fireTimer` when it is due.
    case scheduleTimer(token: UInt64, delayNanoseconds: UInt64, repeats: Bool, label: String)
    case cancelTimer(token: UInt64)
    /// Every message up to `sequence` is handled, and the extension has nothing left to run.
    case idle(sequence: UInt64)
}

/// A host-to-child message with its number and the host's clock.
struct NumberedMessage: Hashable {
    let sequence: UInt64
    let nowNanoseconds: UInt64
    let message: ToExtension
}

/// The extension's identity, as the child read it from the descriptor it loaded.
struct LoadedIdentity: Codable, Hashable {
    let identifier: String
    let name: String
    let version: String
    let abiVersion: UInt32
    let keyGestures: Bool
}

enum Wire {
    /// Bumped when a message changes; the child refuses a host of another version.
    static let version: UInt32 = 7  // 2: loadClass; 3: a host message's sequence and clock before its kind; 4: the doorbell; 5: the snapshot's platform; 6: playInputClick; 7: key gestures
    /// The most bytes one message may carry: beyond it the sender is flooding.
    static let maximumMessageBytes = 64 << 20
}
