#include "CReadline.h"
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
}

int kbx_rl_key(void) { return rl_executing_key; }

int kbx_rl_bind_key(int key, rl_command_func_t *function) {
    return rl_bind_key_in_map(key, function, emacs_standard_keymap);
}

int kbx_rl_bind_keyseq(const char *sequence, rl_command_func_t *function) {
    return rl_bind_keyseq_in_map(sequence, function, emacs_standard_keymap);
}
