/*
 * shim.h — the C surface of ncursesw that Swift 6 can use safely.
 *
 * Swift cannot import function-like macros (COLOR_PAIR, A_* built with NCURSES_BITS, getmaxyx) and,
 * under strict concurrency, must not touch C globals (stdscr, LINES, COLS, ESCDELAY) directly.
 * Every such thing is wrapped here in a `static inline` function. The signal handlers live here too
 * because a handler must only do async-signal-safe work, which is easiest to see in C.
 */
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

/* Wide-character curses (cchar_t, get_wch, setcchar) is only declared with these set. */
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <langinfo.h>
#include <pthread.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/* ---- globals, read through functions ---- */

static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline WINDOW *cn_curscr(void) { return curscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_set_escdelay(int ms) { return set_escdelay(ms); }
static inline FILE *cn_stdout(void) { return stdout; }
static inline FILE *cn_stdin(void) { return stdin; }

static inline void cn_getmaxyx(WINDOW *win, int *rows, int *cols) {
    int y = 0, x = 0;
    getmaxyx(win, y, x);
    *rows = y;
    *cols = x;
}

/* ---- attributes and colour pairs (macros built from NCURSES_BITS) ---- */

static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_color_pair(int pair) { return (attr_t)COLOR_PAIR(pair); }

/* ---- key codes (KEY_F(n) is a function-like macro) ---- */

static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cn_key_f(int n) { return KEY_F(n); }

/* ---- screens ---- */

static inline SCREEN *cn_newterm(const char *type, FILE *out, FILE *in) { return newterm(type, out, in); }
static inline SCREEN *cn_set_term(SCREEN *screen) { return set_term(screen); }
static inline void cn_delscreen(SCREEN *screen) { delscreen(screen); }
/* Whether the current terminal description can move the cursor to any cell (`cup`): without it (TERM=dumb)
   curses would draw a whole frame on one line. tigetstr returns NULL when absent, (char *)-1 when not a string. */
static inline int cn_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/* True when the C library's character type is UTF-8, which ncursesw needs to emit wide characters. */
static inline int cn_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/* The kernel's idea of the window size of `fd`; returns 0 on success. */
static inline int cn_terminal_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/* ---- wide-character output and input ---- */

/* Writes one grapheme (a NUL-terminated wchar_t run: base + combining marks) at (y, x). */
static inline int cn_put_cell(WINDOW *win, int y, int x, const wchar_t *grapheme, attr_t attrs, int pair) {
    cchar_t cell;
    if (setcchar(&cell, grapheme, attrs, (NCURSES_PAIRS_T)pair, NULL) == ERR) return ERR;
    return mvwadd_wch(win, y, x, &cell);
}

/* Reads one input unit: returns OK (a character in *value), KEY_CODE_YES (a key code) or ERR. */
static inline int cn_get_wch(WINDOW *win, unsigned int *value) {
    wint_t wch = 0;
    int status = wget_wch(win, &wch);
    *value = (unsigned int)wch;
    return status;
}

/* ---- raw output: modes curses knows nothing of (mouse reporting, the progress indicator) ---- */

/* Writes `length` bytes to standard output, past curses' buffer, retrying short writes and EINTR.
   Returns 0 when all were written, -1 on an error (the terminal may be gone; nothing to do about it). */
static inline int cn_write_raw(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, bytes, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += written;
        length -= (size_t)written;
    }
    return 0;
}

/* What must be written on the way out to undo those modes (mouse reporting off, progress removed), kept in
   a fixed buffer so the fatal-signal handler can write it with write(2) alone. */
#define CN_EXIT_BYTES_CAPACITY 128
static inline char *cn_exit_bytes(void) {
    static char bytes[CN_EXIT_BYTES_CAPACITY];
    return bytes;
}
static volatile sig_atomic_t cn_exit_length = 0;

/* Sets the bytes the way out writes (cut to the buffer's capacity); an empty string writes nothing. */
static inline void cn_set_exit_bytes(const char *text) {
    size_t length = strlen(text);
    if (length > CN_EXIT_BYTES_CAPACITY) length = CN_EXIT_BYTES_CAPACITY;
    cn_exit_length = 0;
    memcpy(cn_exit_bytes(), text, length);
    cn_exit_length = (sig_atomic_t)length;
}

/* Writes the exit bytes once, async-signal-safely. */
static inline void cn_write_exit_bytes(void) {
    int length = cn_exit_length;
    cn_exit_length = 0;
    if (length > 0) (void)cn_write_raw(cn_exit_bytes(), (size_t)length);
}

/* Stops curses from reading its own mouse code (`kmous`, often ESC [ <), so mouse reports reach the
   application's decoder as the characters the terminal sent. */
static inline int cn_disable_curses_mouse_key(void) { return keyok(KEY_MOUSE, FALSE); }

/* ---- signals: resize wake-up and terminal restore on the way out ---- */

/* Set by the SIGWINCH handler, taken by the run loop. */
static volatile sig_atomic_t cn_resize_flag = 0;
/* Write end of the run loop's wake pipe, so a resize interrupts a blocked wait on any thread. */
static volatile sig_atomic_t cn_wake_fd = -1;
/* Whether the fatal handlers should call endwin (cleared once the terminal is restored). */
static volatile sig_atomic_t cn_curses_active = 0;

/* Wakes the run loop from a signal handler (errno as it was: the handler interrupted some call). */
static void cn_wake_run_loop(void) {
    int saved = errno;
    int fd = cn_wake_fd;
    if (fd >= 0) {
        char byte = 1;
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

static void cn_on_winch(int sig) {
    (void)sig;
    cn_resize_flag = 1;
    cn_wake_run_loop();
}

/* Every catchable signal whose default action ends the process: the terminal is restored before any of
   them takes effect. */
static const int cn_fatal_signals[] = {
    SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
    SIGSYS,
#ifdef __linux__
    SIGIO, SIGPWR, SIGSTKFLT,
#endif
    SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CN_FATAL_SIGNAL_COUNT (sizeof cn_fatal_signals / sizeof cn_fatal_signals[0])
/* What each signal did before curses started (the default action, or the Swift runtime's crash
   backtracer), saved by cn_save_signal_dispositions before newterm installs curses' own handlers. */
/* (Function-local statics: Swift's C importer emits functions used from Swift, not aggregate globals.) */
static inline struct sigaction *cn_previous_actions(void) {
    static struct sigaction saved[CN_FATAL_SIGNAL_COUNT];
    return saved;
}
static inline struct sigaction *cn_previous_winch(void) {
    static struct sigaction saved;
    return &saved;
}

/* Whether SIGTERM, SIGHUP and SIGINT ask the program to stop rather than end it (cn_stop_gracefully), and
   the first of them received while they do (0: none). */
static volatile sig_atomic_t cn_graceful_stops = 0;
static volatile sig_atomic_t cn_stop_signal = 0;

/* Makes SIGTERM, SIGHUP and SIGINT a request to stop (enabled != 0): the first one is recorded and wakes the
   run loop, which ends the program its own way (a copy keeps its partials and journal, and finishes its
   directories); a second one ends the process as before, so a program that does not stop can still be
   ended. Forgets a signal received before. */
static inline void cn_stop_gracefully(int enabled) {
    cn_stop_signal = 0;
    cn_graceful_stops = enabled;
}

/* The first stop signal received while they were asks to stop (0: none). */
static inline int cn_received_stop_signal(void) { return cn_stop_signal; }

/* Restores the terminal, puts the signal's previous action back and raises it again, so the process ends
   exactly as it would have (exit status 143 for SIGTERM, 129 for SIGHUP, a crash report for a crash),
   but with the terminal usable. The first SIGTERM, SIGHUP or SIGINT while they ask to stop is only
   recorded, and wakes the run loop. */
static void cn_on_fatal(int sig) {
    if (cn_graceful_stops && cn_stop_signal == 0 && (sig == SIGTERM || sig == SIGHUP || sig == SIGINT)) {
        cn_stop_signal = sig;
        cn_wake_run_loop();
        return;
    }
    if (cn_curses_active) {
        cn_curses_active = 0;
        cn_write_exit_bytes();
        endwin();
    }
    for (size_t i = 0; i < CN_FATAL_SIGNAL_COUNT; i++) {
        if (cn_fatal_signals[i] == sig) {
            sigaction(sig, &cn_previous_actions()[i], NULL);
            break;
        }
    }
    raise(sig);
}

/* A disposition running `handler` with `flags`, blocking nothing more while it runs. */
static inline struct sigaction cn_action(void (*handler)(int), int flags) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = flags;
    return action;
}

/* Remembers every disposition the handlers below replace; call it before newterm. */
static inline void cn_save_signal_dispositions(void) {
    sigaction(SIGWINCH, NULL, cn_previous_winch());
    for (size_t i = 0; i < CN_FATAL_SIGNAL_COUNT; i++) {
        sigaction(cn_fatal_signals[i], NULL, &cn_previous_actions()[i]);
    }
}

/* Installs the resize and restore handlers; `wake_fd` is the write end of the run loop's pipe.
   The signals are also unblocked on the calling thread: a process started from a thread that blocks them
   (a dispatch or Swift concurrency worker thread spawning it) inherits that mask, and would then never
   see a resize nor die of SIGTERM, leaving the terminal unrestored. */
static inline void cn_install_signal_handlers(int wake_fd) {
    cn_wake_fd = wake_fd;
    cn_curses_active = 1;
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGWINCH);
    for (size_t i = 0; i < CN_FATAL_SIGNAL_COUNT; i++) {
        sigaddset(&handled, cn_fatal_signals[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &handled, NULL);
    struct sigaction winch = cn_action(cn_on_winch, SA_RESTART);
    sigaction(SIGWINCH, &winch, NULL);

    struct sigaction fatal = cn_action(cn_on_fatal, SA_NODEFER | SA_ONSTACK);
    for (size_t i = 0; i < CN_FATAL_SIGNAL_COUNT; i++) {
        /* A signal the parent ignores (nohup's SIGHUP, a shell's SIGPIPE) stays ignored. */
        const struct sigaction *previous = &cn_previous_actions()[i];
        if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler == SIG_IGN) continue;
        sigaction(cn_fatal_signals[i], &fatal, NULL);
    }
}

/* Puts every handler back as it was before curses started, once the terminal is restored. */
static inline void cn_remove_signal_handlers(void) {
    cn_graceful_stops = 0;
    cn_curses_active = 0;
    cn_wake_fd = -1;
    sigaction(SIGWINCH, cn_previous_winch(), NULL);
    for (size_t i = 0; i < CN_FATAL_SIGNAL_COUNT; i++) {
        sigaction(cn_fatal_signals[i], &cn_previous_actions()[i], NULL);
    }
}

/* ---- crashes: a short report instead of the runtime's interactive backtracer ---- */

static const int cn_crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CN_CRASH_SIGNAL_COUNT (sizeof cn_crash_signals / sizeof cn_crash_signals[0])

/* The report's first words (the program's name), kept in a fixed buffer for the handler. */
#define CN_CRASH_PREFIX_CAPACITY 64
static inline char *cn_crash_prefix(void) {
    static char prefix[CN_CRASH_PREFIX_CAPACITY];
    return prefix;
}

static inline void cn_write_stderr(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

/* The terminal first (when curses still holds it), then one line on standard error, then the signal's
   default action: the exit status stays the signal's, and nothing waits for a key. */
static void cn_on_crash(int sig) {
    if (cn_curses_active) {
        cn_curses_active = 0;
        cn_write_exit_bytes();
        endwin();
    }
    const char *name = "a fatal signal";
    switch (sig) {
    case SIGSEGV: name = "SIGSEGV (invalid memory access)"; break;
    case SIGBUS: name = "SIGBUS (bus error)"; break;
    case SIGILL: name = "SIGILL (illegal instruction: a failed check or a fatal error)"; break;
    case SIGFPE: name = "SIGFPE (arithmetic error)"; break;
    case SIGABRT: name = "SIGABRT (aborted)"; break;
    case SIGTRAP: name = "SIGTRAP (a failed check or a fatal error)"; break;
    }
    cn_write_stderr(cn_crash_prefix());
    cn_write_stderr(": crashed with ");
    cn_write_stderr(name);
    cn_write_stderr("; set SWIFT_BACKTRACE=enable=yes,interactive=no for a backtrace\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Handles the crash signals with cn_on_crash (on an alternate stack, so a stack overflow is reported too),
   in place of whatever handled them (the Swift runtime's backtracer). `prefix` starts the report. */
static inline void cn_install_crash_report(const char *prefix) {
    size_t length = strlen(prefix);
    if (length >= CN_CRASH_PREFIX_CAPACITY) length = CN_CRASH_PREFIX_CAPACITY - 1;
    memcpy(cn_crash_prefix(), prefix, length);
    cn_crash_prefix()[length] = 0;
    static char stack[64 * 1024];
    stack_t alternate;
    memset(&alternate, 0, sizeof alternate);
    alternate.ss_sp = stack;
    alternate.ss_size = sizeof stack;
    sigaltstack(&alternate, NULL);
    struct sigaction crash = cn_action(cn_on_crash, SA_NODEFER | SA_ONSTACK);
    for (size_t i = 0; i < CN_CRASH_SIGNAL_COUNT; i++) {
        sigaction(cn_crash_signals[i], &crash, NULL);
    }
}

/* Makes curses take the window size from the terminal (TIOCGWINSZ) before LINES and COLUMNS, which it
   reads only when the terminal cannot tell; call it before newterm. */
static inline void cn_prefer_terminal_size(void) {
    use_env(TRUE);
    use_tioctl(TRUE);
}

/* Whether the terminal has an alternate screen (smcup): without one, the last frame stays on the main
   screen unless it is cleared on the way out. */
static inline int cn_has_alternate_screen(void) {
    const char *enter = tigetstr("smcup");
    return enter != NULL && enter != (char *)-1 && enter[0] != 0;
}

/* The terminal's clear-screen sequence (`clear`), or NULL. */
static inline const char *cn_clear_sequence(void) {
    const char *clear = tigetstr("clear");
    return clear != NULL && clear != (char *)-1 ? clear : NULL;
}

/* Takes (and clears) the pending-resize flag. */
static inline int cn_take_resize(void) {
    int pending = cn_resize_flag;
    cn_resize_flag = 0;
    return pending;
}

/* Stops the process like a shell's Ctrl-Z would, returning once it is continued (SIGCONT).
   The disposition is forced to default for the stop, whatever ncurses installed, then put back. */
static inline void cn_stop_self(void) {
    struct sigaction dfl, previous;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &previous);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
    raise(SIGTSTP);
    sigaction(SIGTSTP, &previous, NULL);
}

#endif /* CNCURSES_SHIM_H */
