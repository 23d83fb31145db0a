// GNU readline for Swift: its callback interface, and small functions for its C globals, which Swift 6
// rejects as shared mutable state. GNU readline is GPL-3.0-or-later: only the kbhost executable links
// this module (see README.md, Licence).
#ifndef CREADLINE_H
#define CREADLINE_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/// The line being edited (UTF-8 bytes) and the cursor in it, in bytes.
const char *kbx_rl_line(void);
int kbx_rl_point(void);
int kbx_rl_end(void);
void kbx_rl_set_point(int point);

/// Replaces the whole line (UTF-8) and puts the cursor at `point` bytes.
void kbx_rl_replace(const char *text, int point);

/// Overwrites the line buffer with zeros (a secure field's text never stays in readline's memory).
void kbx_rl_wipe(void);

/// readline's display hook, and whether it handles signals and the terminal size itself.
void kbx_rl_set_redisplay(void (*function)(void));
void kbx_rl_configure(void);

/// The key that invoked the current command (for bindings shared by many keys).
int kbx_rl_key(void);

/// Binds `key` in readline's emacs keymap, or a key sequence such as "\\C-xn".
int kbx_rl_bind_key(int key, rl_command_func_t *function);
int kbx_rl_bind_keyseq(const char *sequence, rl_command_func_t *function);


/// Saves the terminal's settings now, and on a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) puts
/// them back and clears the REPL's rows before the process dies: a failing extension never leaves a
/// broken terminal.
void kbx_guard_terminal(void);
/// Puts the saved settings back (every normal exit path calls it too).
void kbx_restore_terminal(void);

#endif
