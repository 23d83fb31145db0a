// What the host needs below Swift: a per-thread note of which extension's work is running, and a way
// to install the executors before `main` runs (see HostExecutors.swift); and for a worker process, the
// page it notes its progress in (see ExtensionProcess.swift).
#ifndef CHOSTRUNTIME_H
#define CHOSTRUNTIME_H

#include <stdint.h>

/// The extension work (an ExtensionWork's number) the current thread is running; 0 for none.
uint64_t kbx_current_work(void);
/// Sets the current thread's work number and returns the previous one.
uint64_t kbx_swap_current_work(uint64_t work);

/// A worker's progress, shared with its host: the number of the message the worker last began to handle.
/// It is written before the extension is called, so after a crash the host knows which callback it
/// crashed in, even when several messages were on their way (most are not waited for).
/// Host: a page shared through a new descriptor (`*descriptor`, close-on-exec; the child gets it as 4);
/// NULL if none can be made.
uint64_t *kbx_progress_create(int *descriptor);
uint64_t kbx_progress_read(const uint64_t *page);
void kbx_progress_release(uint64_t *page);
/// Waits at most `timeout_ms` for child `pid` to end and reaps it: 1 and its wait status in `*status`
/// if it ended, 0 if it still runs, -1 if it is not this process's child. Told by the kernel (a
/// pidfd), not by looking again and again.
int kbx_wait_for_exit(int pid, int timeout_ms, int *status);
/// Worker: notes the message it begins.
void kbx_worker_note_progress(uint64_t sequence);

#endif
