#include "CHostRuntime.h"

static _Thread_local uint64_t current_work;

uint64_t kbx_current_work(void) { return current_work; }

uint64_t kbx_swap_current_work(uint64_t work) {
    uint64_t previous = current_work;
    current_work = work;
    return previous;
}

// Swift's executors can be replaced only before the first task is made, so the host's are installed
// by the dynamic loader, before `main` (and before an async `main`'s first task). Implemented in
// Swift: KeyboardHost's HostExecutors.swift.
extern void kbx_install_host_executors(void);

__attribute__((constructor)) static void install_host_executors(void) { kbx_install_host_executors(); }
