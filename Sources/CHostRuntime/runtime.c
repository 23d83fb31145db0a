#include "CHostRuntime.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static _Thread_local uint64_t current_work;

uint64_t kbx_current_work(void) { return current_work; }

uint64_t kbx_swap_current_work(uint64_t work) {
    uint64_t previous = current_work;
    current_work = work;
    return previous;
}

// Implemented in Swift, in KeyboardHost: HostExecutors.swift and ExtensionWorker.swift.
extern void kbx_install_host_executors(void);
extern void kbx_run_extension_worker(void);

static pid_t parent_pid;

// Ends the worker once its parent is gone, even with its main thread stuck in an extension's endless
// loop. (Not PR_SET_PDEATHSIG: that follows the parent *thread* that started the child, and a host's
// main queue runs on dispatch worker threads, which come and go.)
static void *watch_parent(void *unused) {
    (void)unused;
    while (getppid() == parent_pid) sleep(1);
    _exit(0);
}

// A child the host started to run an extension: it dies with its parent, and inherits no descriptor but
// 0, 1, 2 and the wire (3).
static void become_worker(const char *parent) {
    parent_pid = (pid_t)atol(parent);
    if (getppid() != parent_pid) _exit(1);  // the parent is gone already
    // No core file: a crash ends the child at once (writing one can take long enough to look like a
    // hang), and an extension's memory is not the host's to keep.
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    pthread_t watcher;
    pthread_create(&watcher, NULL, watch_parent, NULL);
    pthread_detach(watcher);
    DIR *fds = opendir("/proc/self/fd");
    if (fds) {
        int own = dirfd(fds);
        struct dirent *entry;
        while ((entry = readdir(fds)) != NULL) {
            int fd = atoi(entry->d_name);
            if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9' && fd > 3 && fd != own) close(fd);
        }
        closedir(fds);
    }
    unsetenv("KBHOST_EXTENSION_WORKER");
}

// Swift's executors can be replaced only before the first task is made, so the host's are installed
// by the dynamic loader, before `main` (and before an async `main`'s first task). In a child the host
// started (KBHOST_EXTENSION_WORKER set), the worker then runs instead of `main`, and never returns.
__attribute__((constructor)) static void install_host_executors(void) {
    kbx_install_host_executors();
    const char *parent = getenv("KBHOST_EXTENSION_WORKER");
    if (parent) {
        become_worker(parent);
        kbx_run_extension_worker();
    }
}
