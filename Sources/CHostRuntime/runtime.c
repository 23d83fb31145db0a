#define _GNU_SOURCE  // memfd_create
#include "CHostRuntime.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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

// MARK: Progress: which message a worker is handling, in memory its host shares

uint64_t *kbx_progress_create(int *descriptor) {
    int fd = memfd_create("kbhost-worker-progress", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (ftruncate(fd, sizeof(uint64_t)) != 0) { close(fd); return NULL; }
    void *page = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (page == MAP_FAILED) { close(fd); return NULL; }
    *descriptor = fd;
    return page;
}

uint64_t kbx_progress_read(const uint64_t *page) { return __atomic_load_n(page, __ATOMIC_ACQUIRE); }

void kbx_progress_release(uint64_t *page) { munmap(page, sizeof(uint64_t)); }

// MARK: Waiting for a child's end, told by the kernel

int kbx_wait_for_exit(pid_t pid, int timeout_ms, int *status) {
    pid_t reaped = waitpid(pid, status, WNOHANG);
    if (reaped != 0) return reaped == pid ? 1 : -1;
    // A pidfd becomes readable when the process ends: no polling of waitpid on a timer.
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0) {
        struct pollfd watch = {fd, POLLIN, 0};
        int ready;
        do { ready = poll(&watch, 1, timeout_ms); } while (ready < 0 && errno == EINTR);
        close(fd);
        reaped = waitpid(pid, status, WNOHANG);
        return reaped == pid ? 1 : reaped == 0 ? 0 : -1;
    }
    // A kernel without pidfd_open (before 5.3): look every 2 ms.
    for (int waited = 0; waited < timeout_ms; waited += 2) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
        reaped = waitpid(pid, status, WNOHANG);
        if (reaped != 0) return reaped == pid ? 1 : -1;
    }
    return 0;
}

static uint64_t *worker_progress;

void kbx_worker_note_progress(uint64_t sequence) {
    if (worker_progress) __atomic_store_n(worker_progress, sequence, __ATOMIC_RELEASE);
}

// Ends the worker once its parent is gone, even with its main thread stuck in an extension's endless
// loop. (Not PR_SET_PDEATHSIG: that follows the parent *thread* that started the child, and a host's
// main queue runs on dispatch worker threads, which come and go.)
static void *watch_parent(void *unused) {
    (void)unused;
    while (getppid() == parent_pid) sleep(1);
    _exit(0);
}

// A child the host started to run an extension: it dies with its parent, and inherits no descriptor but
// 0, 1, 2, the wire (3 from the host, 4 to it) and its doorbell (5); the progress page (6) is mapped and
// its descriptor closed. A write to a host that has gone fails rather than killing it (the wire is a
// pipe): it exits when it sees the host gone.
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
    signal(SIGPIPE, SIG_IGN);
    void *page = mmap(NULL, sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, 6, 0);
    if (page != MAP_FAILED) worker_progress = page;
    DIR *fds = opendir("/proc/self/fd");
    if (fds) {
        int own = dirfd(fds);
        struct dirent *entry;
        while ((entry = readdir(fds)) != NULL) {
            int fd = atoi(entry->d_name);
            if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9' && fd > 5 && fd != own) close(fd);
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
