# springball - build, test, check, bench, install.
#
#   make            build ./springball
#   make test       unit tests, headless golden runs, error fixtures, tmux tests
#   make check      the same suite built with AddressSanitizer + UBSan
#   make bench      benchmarks (not part of the tests)
#   make fuzz       libFuzzer harnesses (clang), FUZZTIME seconds each (not part of the tests)
#   make readme-shot  the README's screenshot, made again by the program
#   make readme-cast  the README's demo, man/demo.cast, made by the program
#   make install    PREFIX=/usr/local DESTDIR= (binary, man page, scenes)

CC        ?= cc
PKG_CONFIG ?= pkg-config
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share/springball

# -O3: 2-4% more balls a second than -O2 in both engines (alternating runs,
# 10^3 to 10^5 balls), with the same results to the bit (make test).
CFLAGS    ?= -O3 -g
WARN       = -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# -ffp-contract=off: no fused multiply-add, so results do not depend on the
# optimisation level or the machine beyond IEEE rounding. -fno-math-errno:
# sqrt sets no errno (nothing reads errno after libm), so a root is one
# instruction and the spring step's loop of roots vectorises; no result changes.
# assert() states cheap invariants: on in `make check` (DEBUG=1), off in
# the release build.
DEBUG     ?=
ASSERTS    = $(if $(DEBUG),,-DNDEBUG)
SB_CFLAGS  = -std=c11 -ffp-contract=off -fno-math-errno $(WARN) $(ASSERTS)

# POSIX threads: the trajectory writer formats a large frame on every CPU
# (src/record.c); in glibc's libc since 2.34, -pthread for the others.
THREAD_LIBS ?= -pthread

CURSES_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
CURSES_LIBS   ?= $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)

# Object directory and binary; `make check` builds in its own.
O   ?= build
BIN ?= springball

# The layers, lowest first: a folder of src/ each. A file may include the
# headers of its own layer and of the layers beneath it, nothing above: each
# layer is compiled with those include paths alone, so an include across a
# wall stops the compiler (tests/house.sh plants one to prove it). Files are
# found by folder; there is no list to keep.
#   core     the spring engine, broad phase, history, memory (C11 + libm, no stdio)
#   event    the exact event-driven engine
#   io       the formats: read and write (scenes, universes, recordings, exports)
#   session  the timeline and the engines behind one interface; what is shown
#   draw     the screen as cells, panels, plots (pure, no curses)
#   front    the terminal (curses in term.c alone) and its controllers
#   cli      the command line, headless runs, the entry point
LAYERS   = core event io session draw front cli

# Each layer's include paths: its own and those beneath it.
INC_core    = -Isrc/core
INC_event   = $(INC_core) -Isrc/event
INC_io      = $(INC_event) -Isrc/io
INC_session = $(INC_io) -Isrc/session
INC_draw    = $(INC_session) -Isrc/draw
INC_front   = $(INC_draw) -Isrc/front
INC_cli     = $(INC_front) -Isrc/cli
INC_ALL  = $(LAYERS:%=-Isrc/%)

# The only module that includes curses (tests/house.sh checks it); it alone
# is compiled with the curses flags.
TERMINAL = front/term

SRC       = $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
OBJ       = $(SRC:src/%.c=$(O)/%.o) $(O)/builtin.o
# Everything but the entry point, as an archive: the tests and the
# benchmark drivers take only the members they use (no curses for them).
LIB_OBJ   = $(filter-out $(O)/cli/% $(O)/$(TERMINAL).o,$(OBJ))
LIB       = $(O)/libspringball.a

UNIT_SRC  = $(wildcard tests/unit/*.c)
UNIT_OBJ  = $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%.o)

all: $(BIN)

$(BIN): $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(CURSES_LIBS) -lm $(THREAD_LIBS) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# Each file sees its own layer and the layers beneath it; only the terminal
# sees the curses flags.
$(O)/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_$(firstword $(subst /, ,$*))) $(CPPFLAGS) $(if $(filter $(TERMINAL),$*),$(CURSES_CFLAGS)) $(CFLAGS) -MMD -MP -c -o $@ $<

# The built-in scene is scenes/break.scene, compiled in as a string.
$(O)/builtin.c: scenes/break.scene
	@mkdir -p $(@D)
	{ echo '#include "scene.h"'; echo 'const char scene_builtin[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@

$(O)/builtin.o: $(O)/builtin.c
	$(CC) $(SB_CFLAGS) $(INC_io) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) -Itests/unit $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Unit tests link what they use of the layers below cli, with libm alone
# (and the threads of the trajectory writer): no curses.
$(O)/unit: $(UNIT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(THREAD_LIBS) $(LDLIBS)

# The benchmark driver of tests/bench/grid.sh (POSIX clocks, links the core).
$(O)/bench-grid: tests/bench/bench-grid.c $(LIB)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(THREAD_LIBS) $(LDLIBS)

# The fake IMD servers and scripted client of tests/imd.sh.
$(O)/imdfake: tests/imdfake.c $(LIB)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)

test: $(BIN) $(O)/unit $(O)/imdfake
	SPRINGBALL=./$(BIN) UNIT=$(O)/unit IMDFAKE=$(O)/imdfake sh tests/run.sh

# Benchmark drivers link the core like the unit tests.
$(O)/bench-event: tests/bench/event.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(THREAD_LIBS) $(LDLIBS)

# The drawing driver of tests/bench/view.sh links the core and the view.
$(O)/bench-view: tests/bench/view.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(LDLIBS)

# The driver of tests/bench/record.sh: printers and frame writers.
$(O)/bench-record: tests/bench/bench-record.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(THREAD_LIBS) $(LDLIBS)

# The floor of tests/bench/load.sh: plain C with numfmt (and text_double for -r).
$(O)/bench-floor: tests/bench/floor.c $(O)/io/numfmt.o $(O)/io/text.o
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The driver of tests/bench/traj.sh: opening and reading a recorded run.
$(O)/bench-traj: tests/bench/bench-traj.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(INC_ALL) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lm $(THREAD_LIBS) $(LDLIBS)

bench: $(BIN) $(O)/bench-event $(O)/bench-grid $(O)/bench-view $(O)/bench-record $(O)/bench-floor $(O)/bench-traj $(O)/imdfake
	SPRINGBALL=./$(BIN) BENCH_EVENT=$(O)/bench-event BENCH_GRID=$(O)/bench-grid \
	    BENCH_VIEW=$(O)/bench-view BENCH_RECORD=$(O)/bench-record \
	    BENCH_FLOOR=$(O)/bench-floor BENCH_TRAJ=$(O)/bench-traj IMDFAKE=$(O)/imdfake sh tests/bench/run.sh

# float-cast-overflow: a NaN or an out-of-range double converted to an
# integer (gcc leaves it out of "undefined").
SAN = -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
check:
	$(MAKE) O=build/check BIN=build/check/springball DEBUG=1 \
	    CFLAGS="-O1 -g $(SAN)" LDFLAGS="$(SAN)" test

# Fuzzing: each harness in tests/fuzz links the core and pure sources built
# with clang's libFuzzer and ASan+UBSan (build/fuzz/fuzz_NAME).
FUZZ_CC    ?= clang
FUZZTIME   ?= 60
FUZZ_SAN    = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES  = scene universe particles detect view sim command numfmt session script traj lesson imd
FUZZ_BIN    = $(FUZZ_NAMES:%=build/fuzz/fuzz_%)
# The layers up to draw, and the one front-end file a harness drives (the : line).
FUZZ_SRC    = $(foreach l,core event io session draw,$(wildcard src/$(l)/*.c)) src/front/command.c
# A lower ball limit, so that a legitimate huge random or rack line cannot
# make one input take seconds (the limit itself is tested in tests/unit).
FUZZ_DEFS   = -DSCENE_MAX_BALLS=100000ull

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_SRC) $(wildcard src/*/*.h)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=c11 -ffp-contract=off -O1 -g $(FUZZ_SAN) $(FUZZ_DEFS) $(INC_ALL) -Itests/fuzz \
	    -o $@ $< $(FUZZ_SRC) -lm

fuzz-build: $(FUZZ_BIN)

fuzz: $(FUZZ_BIN)
	FUZZTIME=$(FUZZTIME) sh tests/fuzz/run.sh

# The README's screenshot: the program's own --snapshot of the break.
readme-shot: $(BIN)
	SPRINGBALL=./$(BIN) sh tests/readme-shot.sh -u

# The README's demo: an asciicast of the break, made by the program (--cast).
readme-cast: $(BIN)
	SPRINGBALL=./$(BIN) sh tests/readme-cast.sh

install: $(BIN)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(DATADIR)/scenes/lessons
	cp -f $(BIN) $(DESTDIR)$(BINDIR)/springball
	cp -f man/springball.1 $(DESTDIR)$(MANPREFIX)/man1/springball.1
	cp -f scenes/*.scene $(DESTDIR)$(DATADIR)/scenes/
	cp -f $(wildcard scenes/*.txt) $(DESTDIR)$(DATADIR)/scenes/ 2>/dev/null || true
	cp -f scenes/lessons/*.lesson $(DESTDIR)$(DATADIR)/scenes/lessons/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/springball $(DESTDIR)$(MANPREFIX)/man1/springball.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build $(BIN)

.PHONY: all test check bench fuzz fuzz-build readme-shot readme-cast install uninstall clean

-include $(wildcard $(O)/*/*.d $(O)/tests/*.d)
