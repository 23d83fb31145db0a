#if canImport(Glibc)
import Glibc
#endif

/// `posix_spawn` attributes for a child that starts as a new process should: no signal blocked, none
/// ignored — a signal mask and ignored signals are inherited through exec, and a host's threads (a
/// dispatch worker, a test's pool thread) block most signals — and, if asked, a process group of its
/// own, so that the terminal's signals (C-c, C-\, C-z) reach its parent alone.
///
/// One place for both of the host's children (``ExtensionProcess``) and the programs the tests start
/// (TestSupport's `Command`): a tmux server started with SIGCHLD and SIGHUP blocked outlived the tests.
package final class FreshSpawnAttributes {
    package var attributes = posix_spawnattr_t()

    package init(ownProcessGroup: Bool) {
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
    }

    deinit {
        posix_spawnattr_destroy(&attributes)
    }
}
