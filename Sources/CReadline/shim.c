#include "CReadline.h"
#include <stdlib.h>
#include <string.h>

const char *kbx_rl_line(void) { return rl_line_buffer ? rl_line_buffer : ""; }
int kbx_rl_point(void) { return rl_point; }
int kbx_rl_end(void) { return rl_end; }
void kbx_rl_set_point(int point) { rl_point = point < 0 ? 0 : (point > rl_end ? rl_end : point); }

void kbx_rl_replace(const char *text, int point) {
    rl_replace_line(text, 0);
    kbx_rl_set_point(point);
}

void kbx_rl_wipe(void) {
    if (rl_line_buffer) memset(rl_line_buffer, 0, (size_t)rl_end);
    rl_replace_line("", 1);  /* 1: clear the undo list too, which holds copies of the text */
}

void kbx_rl_set_redisplay(void (*function)(void)) { rl_redisplay_function = function; }

void kbx_rl_configure(void) {
    rl_catch_signals = 0;   /* the host handles SIGINT, SIGTERM, SIGWINCH on its loop */
    rl_catch_sigwinch = 0;
    rl_readline_name = "kbhost";
    rl_inhibit_completion = 1;
    /* UTF-8 bytes arrive as themselves, not as meta-prefixed keys, whatever the locale. */
    rl_variable_bind("convert-meta", "off");
    rl_variable_bind("input-meta", "on");
    rl_variable_bind("output-meta", "on");
    /* The terminal's erase character (Backspace, ^?) and the like stay bound as kbhost binds them:
       readline otherwise binds them again to its own commands each time it prepares the terminal, so
       Backspace deleted a code point in readline's line instead of tapping the keyboard's delete key. */
    rl_variable_bind("bind-tty-special-chars", "off");
    /* Read the inputrc files now, before kbhost binds its keys: readline reads them once, on its
       first initialization, and Debian's /etc/inputrc binds Home, End and Delete ("\e[1~", "\e[4~",
       "\e[3~"), which would otherwise replace kbhost's bindings of them. */
    rl_initialize();
}

int kbx_rl_key(void) { return rl_executing_key; }

int kbx_rl_bind_key(int key, rl_command_func_t *function) {
    return rl_bind_key_in_map(key, function, emacs_standard_keymap);
}

int kbx_rl_bind_keyseq(const char *sequence, rl_command_func_t *function) {
    return rl_bind_keyseq_in_map(sequence, function, emacs_standard_keymap);
}

#include <signal.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_terminal;
static int terminal_saved = 0;

void kbx_restore_terminal(void) {
    if (terminal_saved) tcsetattr(STDIN_FILENO, TCSANOW, &saved_terminal);
}

static void crashed(int signal_number) {
    /* Only async-signal-safe calls here. */
    kbx_restore_terminal();
    static const char message[] = "\r\n\033[J\033[0mkbhost: crashed (an extension failed); the terminal was restored\r\n";
    ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
    (void)ignored;
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

void kbx_guard_terminal(void) {
    if (tcgetattr(STDIN_FILENO, &saved_terminal) == 0) terminal_saved = 1;
    int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], crashed);
    atexit(kbx_restore_terminal);
}
