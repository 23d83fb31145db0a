// The two things the host's executors need below Swift: a per-thread note of which extension's work
// is running, and a way to install the executors before `main` runs (see HostExecutors.swift).
#ifndef CHOSTRUNTIME_H
#define CHOSTRUNTIME_H

#include <stdint.h>

/// The extension work (an ExtensionWork's number) the current thread is running; 0 for none.
uint64_t kbx_current_work(void);
/// Sets the current thread's work number and returns the previous one.
uint64_t kbx_swap_current_work(uint64_t work);

#endif
