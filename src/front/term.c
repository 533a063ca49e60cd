/*
 * term.c - the terminal through curses (see term.h): set-up and restore,
 * signals, colour pairs, the flush of changed cells, the wait for input,
 * and keys and the mouse in the front end's codes.
 *
 * What is shown is drawn by screen.c into a buffer of cells; term_flush
 * writes to curses only the cells that differ from what it wrote last, so
 * a frame of the break costs the terminal a few hundred bytes.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include "term.h"

#include "app_keys.h"
#include "palette.h"
#include "screen.h"

#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>
#include <wchar.h>

/* === Signals === */

/* Set by the handler, acted on in the loop: nothing else is safe there. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

/* Installed before curses starts, so that ncurses, which only catches
 * SIGINT and SIGTERM while they are at their defaults, leaves them to us.
 * No SA_RESTART: a blocking wait returns at once. */
void term_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGQUIT, &sa, NULL);
}

int term_signal(void)
{
    return got_signal;
}

/* === Set-up and restore === */

static SCREEN *term_screen;
static FILE *term_tty; /* /dev/tty when standard input is not a terminal */
static int term_active, term_alt; /* curses on; the terminal has an alternate screen */
static int in_fd = STDIN_FILENO;
static int mouse_on = -1;             /* the mask set last; -1: none yet */
static struct screen_cell *shown;     /* the cells written last */
static int shown_n;

void term_end(void)
{
    if (term_active) {
        term_active = 0;
        mousemask(0, NULL);
        if (!term_alt) { /* no alternate screen: leave a clean one */
            erase();
            refresh();
        }
        curs_set(1);
        endwin();
        delscreen(term_screen);
        term_screen = NULL;
    }
    if (term_tty) {
        fclose(term_tty);
        term_tty = NULL;
    }
    free(shown);
    shown = NULL;
    shown_n = 0;
    mouse_on = -1;
}

static int has_cap(const char *name)
{
    char *s = tigetstr((char *)name);
    return s && s != (char *)-1 && *s;
}

int term_begin(void)
{
    FILE *in = stdin;
    if (!isatty(STDIN_FILENO)) {
        term_tty = fopen("/dev/tty", "r");
        if (!term_tty) {
            fprintf(stderr, "springball: cannot open /dev/tty for keys: %s\n",
                    strerror(errno));
            return 1;
        }
        in = term_tty;
    }
    in_fd = fileno(in);
    const char *term = getenv("TERM");
    if (!term || !*term) {
        fputs("springball: TERM is not set\n", stderr);
        term_end();
        return 2;
    }
    term_screen = newterm(NULL, stdout, in);
    if (!term_screen) {
        fprintf(stderr, "springball: cannot use terminal type '%s'\n", term);
        term_end();
        return 2;
    }
    set_term(term_screen);
    if (!has_cap("cup")) {
        endwin();
        delscreen(term_screen);
        term_screen = NULL;
        fprintf(stderr, "springball: terminal type '%s' cannot move the cursor "
                        "(use -H or --snapshot)\n", term);
        term_end();
        return 2;
    }
    term_alt = has_cap("smcup");
    term_active = 1;
    atexit(term_end);
    cbreak();
    noecho();
    nonl();
    curs_set(0);
    keypad(stdscr, TRUE);
    set_escdelay(25);
    mouseinterval(0);
    return 0;
}

int term_colors(int no_color)
{
    if (no_color || !has_colors() || start_color() != OK)
        return 0;
    use_default_colors();
    return COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
}

void term_size(int *cols, int *rows)
{
    *cols = COLS;
    *rows = LINES;
}

/* The wheel's second button, where curses has it. */
#ifdef BUTTON5_PRESSED
#define MOUSE_WHEEL_DOWN_MASK BUTTON5_PRESSED
#else
#define MOUSE_WHEEL_DOWN_MASK 0
#endif

void term_mouse(int on)
{
    if (!term_active || on == mouse_on)
        return;
    mouse_on = on;
    mousemask(on ? BUTTON1_PRESSED | BUTTON1_RELEASED | REPORT_MOUSE_POSITION |
                       BUTTON4_PRESSED | MOUSE_WHEEL_DOWN_MASK
                 : 0, NULL);
}

/* === Colours and cells === */

static short pairs[256];
static uint32_t pair_keys[256];
static int npairs;

/* Curses colour pairs, made as colours are first met: the terminal colour
 * that shows the cell's 0xrrggbb (palette.h), and bold where that is how
 * 8 colours show a bright one (kept as a negative pair number). */
static short pair_of(uint32_t fg, int ncolors, int *bold)
{
    *bold = 0;
    if (!fg || !ncolors)
        return 0;
    for (int i = 0; i < npairs; i++)
        if (pair_keys[i] == fg) {
            *bold = pairs[i] < 0;
            return (short)(pairs[i] < 0 ? -pairs[i] : pairs[i]);
        }
    if (npairs >= 250 || npairs + 1 >= COLOR_PAIRS)
        return 0;
    struct palette_ink k = palette_ink_of(fg & 0xffffff, ncolors);
    short p = (short)(npairs + 1);
    init_pair(p, k.fg, -1);
    pair_keys[npairs] = fg;
    pairs[npairs] = (short)(k.bold ? -p : p);
    npairs++;
    *bold = k.bold;
    return p;
}

void term_flush(const struct screen *scr, int ncolors, int redraw)
{
    int n = scr->cols * scr->rows;
    if (shown_n != n || redraw) {
        free(shown);
        shown = calloc((size_t)n, sizeof *shown); /* all differ: ch 0 */
        shown_n = shown ? n : 0;
        if (redraw) {
            erase();
            clearok(curscr, TRUE);
        }
    }
    for (int y = 0; y < scr->rows && y < LINES; y++)
        for (int x = 0; x < scr->cols && x < COLS; x++) {
            int i = y * scr->cols + x;
            const struct screen_cell *c = &scr->cell[i];
            if (shown && !memcmp(&shown[i], c, sizeof *c))
                continue;
            if (shown)
                shown[i] = *c;
            if (c->ch == SCREEN_WIDE)
                continue;
            attr_t a = A_NORMAL;
            if (c->attr & SCREEN_BOLD)
                a |= A_BOLD;
            if (c->attr & SCREEN_DIM)
                a |= A_DIM;
            if (c->attr & SCREEN_REVERSE)
                a |= A_REVERSE;
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            int bold;
            short pr = pair_of(c->fg, ncolors, &bold);
            if (bold)
                a |= A_BOLD;
            setcchar(&cc, wc, a, pr, NULL);
            mvadd_wch(y, x, &cc);
            if (screen_cp_width(c->ch) == 2 && shown && x + 1 < scr->cols)
                shown[i + 1].ch = 0; /* the tail is rewritten with the head */
        }
    refresh();
}

/* === Input === */

int term_wait(int ms)
{
    struct pollfd p = {in_fd, POLLIN, 0};
    int rc = poll(&p, 1, ms);
    if (rc < 0)
        return errno == EINTR ? 0 : -1;
    if (rc == 0)
        return 0;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return -1;
    return 1;
}

/* Mouse events decoded but not yet read: one curses event can be a press
 * and a release. */
static struct app_input pending[64];
static int npending, next_pending;

static void push_mouse(int kind, const MEVENT *ev, int mod)
{
    if (npending < (int)(sizeof pending / sizeof *pending))
        pending[npending++] = (struct app_input){APP_KEY_MOUSE, kind, ev->x, ev->y, mod};
}

/* Every mouse event curses holds, into pending, oldest first. Reports that
 * come in one read (a press and a drag on a loaded machine, a paste) are
 * all queued by the one KEY_MOUSE, and getmouse takes the queue's newest
 * first: a press and its drag were read as the drag, then the press. */
static void read_mouse(void)
{
    MEVENT evs[16];
    int n = 0;
    npending = next_pending = 0;
    while (n < (int)(sizeof evs / sizeof *evs) && getmouse(&evs[n]) == OK)
        n++;
    while (n-- > 0 && npending + 6 <= (int)(sizeof pending / sizeof *pending)) {
        const MEVENT *ev = &evs[n];
        int mod = (ev->bstate & (BUTTON_SHIFT | BUTTON_CTRL | BUTTON_ALT)) != 0;
        if (ev->bstate & BUTTON1_PRESSED)
            push_mouse(APP_MOUSE_PRESS, ev, mod);
        if (ev->bstate & REPORT_MOUSE_POSITION)
            push_mouse(APP_MOUSE_MOVE, ev, mod);
        if (ev->bstate & BUTTON1_RELEASED)
            push_mouse(APP_MOUSE_RELEASE, ev, mod);
        if (ev->bstate & BUTTON1_CLICKED) {
            push_mouse(APP_MOUSE_PRESS, ev, mod);
            push_mouse(APP_MOUSE_RELEASE, ev, mod);
        }
        if (ev->bstate & BUTTON4_PRESSED)
            push_mouse(APP_MOUSE_WHEEL_UP, ev, mod);
#ifdef BUTTON5_PRESSED
        if (ev->bstate & BUTTON5_PRESSED)
            push_mouse(APP_MOUSE_WHEEL_DOWN, ev, mod);
#endif
    }
}

/* A key of curses as the front end's. */
static int app_key(int ch)
{
    switch (ch) {
    case KEY_UP: return APP_KEY_UP;
    case KEY_DOWN: return APP_KEY_DOWN;
    case KEY_LEFT: return APP_KEY_LEFT;
    case KEY_RIGHT: return APP_KEY_RIGHT;
    case KEY_BACKSPACE: return APP_KEY_BACKSPACE;
    case KEY_BTAB: return APP_KEY_BTAB;
    case KEY_PPAGE: return APP_KEY_PGUP;
    case KEY_NPAGE: return APP_KEY_PGDN;
    case KEY_F(5): return APP_KEY_F5;
    case KEY_DC: return APP_KEY_DELETE;
    case KEY_HOME: return APP_KEY_HOME;
    case KEY_END: return APP_KEY_END;
    case KEY_RESIZE: return APP_KEY_RESIZE;
    case KEY_ENTER: return '\r';
    default: return ch >= KEY_MIN ? APP_KEY_OTHER : ch;
    }
}

int term_read(struct app_input *in)
{
    if (next_pending < npending) {
        *in = pending[next_pending++];
        return 1;
    }
    /* Also after a timeout or a signal: curses turns SIGWINCH into
     * KEY_RESIZE on the next read. */
    timeout(0);
    int ch = getch();
    if (ch == ERR)
        return 0;
    int next;
    if (ch == 27 && (next = getch()) != ERR) {
        /* Esc alone is a key; Esc and one character at once is that
         * character with Alt (Meta); Esc and more is an escape sequence
         * curses did not know: an unknown key, ignored to its end and no
         * further (the keys after it in the same read were lost): CSI's
         * parameter and intermediate bytes (0x20-0x3f) up to its final
         * byte, SS3's one byte. */
        if (next == '[' || next == 'O') {
            int c = getch();
            if (c != ERR) {
                while (next == '[' && c != ERR && c >= 0x20 && c <= 0x3f)
                    c = getch();
                return 2;
            }
        }
        if (next < ' ' || next > '~')
            return 2;
        memset(in, 0, sizeof *in);
        in->key = APP_KEY_ALT | next;
        return 1;
    }
    if (ch == KEY_MOUSE) {
        read_mouse();
        if (next_pending < npending) {
            *in = pending[next_pending++];
            return 1;
        }
        return 2;
    }
    memset(in, 0, sizeof *in);
    in->key = app_key(ch);
    return 1;
}
