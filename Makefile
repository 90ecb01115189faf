# sweep-report: build, test, render the bundled sample.
#   make            build ./sweep-report (installs missing Debian packages first)
#   make report     render fixtures/v5e-gemma4-sweep (the author's bucket layout) into
#                   reports/ with its published figures audited, the comparison of the
#                   per-model sample fixtures/v5e-gemma4-formats with its rerun
#                   fixtures/v5e-gemma4-rerun into reports/compare/, and the survey of
#                   fixtures/hub-survey into reports/survey/
#   make test       unit tests, the same under ASan+UBSan, golden, bad-input and
#                   command-line cases, the real third-party exports of
#                   ../shared/realdata (tests/real/expected.tsv), and the sample
#                   report under valgrind
#   make lint       clang -Werror over every file, and cppcheck (CI runs it)
#   make install    the program, its man page and bash completion under PREFIX
#                   (default /usr/local), staged under DESTDIR if given; make uninstall
#   make asan | ubsan | leakcheck | fuzz | fuzz-short | bench | format
# BUILD=dir keeps objects apart (parallel checkouts, sanitizer builds).
#   V=1 prints every command in full (the default prints "  CC  src/file.c").

CC ?= cc
BUILD ?= build
# Quiet by default, as kbuild and git: one short line per step ("  CC      src/cli.c"),
# every command in full with V=1, nothing with make -s. make report builds without
# the per-file lines (a newcomer's first screen is the outputs, not the compiler).
V ?= 0
ifeq ($(V),1)
  Q :=
  say := @:
else
  Q := @
  ifneq ($(findstring s,$(firstword -$(MAKEFLAGS)))$(filter report,$(MAKECMDGOALS)),)
    say := @:
  else
    say := @printf '  %-7s %s\n'
  endif
endif
SAMPLE ?= fixtures/v5e-gemma4-sweep
# The same sweep one folder per model in the lm-eval, BFCL and vllm bench formats;
# the rerun is a second run of it, in the same layout.
FORMATS ?= fixtures/v5e-gemma4-formats
RERUN ?= fixtures/v5e-gemma4-rerun
SURVEY_SAMPLE ?= fixtures/hub-survey
REPORT_DIR ?= reports

PKGS := libcjson cairo freetype2 libpng gsl nettle simdjson zlib libisal sqlite3 yajl yaml-0.1 libarchive
# Recursive (=) so pkg-config runs after ensure-deps has installed it.
DEP_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
DEP_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -lhpdf -lunistring -lm -lpthread -lstdc++

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
OPT ?= -O2 -g
SAN ?=
override CFLAGS_ALL = -std=c17 -D_DEFAULT_SOURCE $(WARN) $(OPT) $(SAN) -Isrc $(DEP_CFLAGS) $(CFLAGS)
override LDFLAGS_ALL = $(SAN) $(LDFLAGS)
# Two C++ translation units behind C interfaces: src/ingest/json_line_fast.cpp
# (simdjson for the lm-eval samples lines) and src/util/shortest.cpp
# (std::to_chars: the shortest digits of a double, for the number printer).
CXX ?= g++
CXXWARN := -Wall -Wextra -Wshadow -Wformat=2 -Wvla
override CXXFLAGS_ALL = -std=c++17 $(CXXWARN) $(OPT) $(SAN) -Isrc $(DEP_CFLAGS) $(CXXFLAGS)

SRC := $(sort $(shell find src -name '*.c'))
CXX_SRC := $(sort $(shell find src -name '*.cpp'))
# LIB_SRC and UNIT_SRC may be narrowed on the command line to build one module's tests.
LIB_SRC ?= $(filter-out src/main.c,$(SRC)) $(CXX_SRC)
LIB_OBJ := $(patsubst %.cpp,$(BUILD)/%.o,$(LIB_SRC:%.c=$(BUILD)/%.o))
# The HTML templates are compiled in (the tool runs from any directory); linked
# only when the template engine is built.
TEMPLATES := $(sort $(wildcard templates/*.html))
LIB_OBJ += $(if $(filter src/render/shared/template.c,$(LIB_SRC)),$(BUILD)/gen/templates.o)
MAIN_OBJ := $(BUILD)/src/main.o
UNIT_SRC ?= $(sort $(wildcard tests/unit/*.c))
TEST_OBJ := $(UNIT_SRC:%.c=$(BUILD)/%.o)
# The real third-party files some unit tests read in place, where tests/real/check.py
# looks for them: $SR_REALDATA, else ../shared/realdata, else /work/shared/realdata.
REALDATA_DIR := $(firstword $(wildcard $(SR_REALDATA) $(CURDIR)/../shared/realdata /work/shared/realdata) ../shared/realdata)
# plain `make` builds the program, though rules come before `all:`
.DEFAULT_GOAL := all
$(TEST_OBJ): override CFLAGS_ALL += -DREALDATA_DIR='"$(REALDATA_DIR)"' -DREQUESTS_DIR='"$(abspath $(BUILD))/requests"'
# The per-request benchmark files the latency unit tests read, and the numpy/scipy
# figures they are held to (tests/latency_reference.py; Debian's python3-numpy and
# python3-scipy live under /usr/bin/python3).
NUMPY_PYTHON ?= /usr/bin/python3
$(BUILD)/requests/expected.json: tests/latency_reference.py tests/requests_gen.py | $(BUILD)/.test-deps-ok
	$(say) GEN $@
	$(Q)$(NUMPY_PYTHON) tests/latency_reference.py $(BUILD)/requests
# rewritten only when the place changes, so the tests are rebuilt then
$(TEST_OBJ): $(BUILD)/.realdata-dir
$(BUILD)/.realdata-dir: FORCE
	@mkdir -p $(@D) && echo '$(REALDATA_DIR)' | cmp -s - $@ || echo '$(REALDATA_DIR)' >$@
FORCE:
DEPS_STAMP := $(BUILD)/.deps-ok

.PHONY: FORCE lint layers all report install uninstall test unit golden badinput realdata realdata-if-present cli leakcheck asan ubsan tsan fuzz fuzz-short bench format clean deps test-deps browser-test

all: sweep-report

deps: $(DEPS_STAMP)
$(DEPS_STAMP):
	@sh scripts/ensure-deps.sh build
	@echo "make: building into $(BUILD)/ (the first build takes a minute or two)"
	@mkdir -p $(@D) && touch $@

test-deps: $(BUILD)/.test-deps-ok
$(BUILD)/.test-deps-ok:
	@sh scripts/ensure-deps.sh test
	@mkdir -p $(@D) && touch $@ $(DEPS_STAMP)

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.cpp | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(say) CXX $<
	$(Q)$(CXX) $(CXXFLAGS_ALL) -MMD -MP -c $< -o $@

# templates/NAME.html -> a byte array in sr_template_files (od: coreutils, no xxd needed).
$(BUILD)/gen/templates.c: $(TEMPLATES) Makefile
	@mkdir -p $(@D)
	$(say) GEN $@
	@{ echo '/* generated from templates/ by make; do not edit */'; \
	  echo '#include "render/shared/template.h"'; i=0; \
	  for f in $(TEMPLATES); do echo "static const unsigned char t$$i[] = {"; \
	    od -An -v -tx1 "$$f" | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0x00};'; i=$$((i+1)); done; \
	  echo 'const sr_template_file sr_template_files[] = {'; i=0; \
	  for f in $(TEMPLATES); do echo "    {\"$${f#templates/}\", (const char *)t$$i, sizeof t$$i - 1},"; i=$$((i+1)); done; \
	  echo '    {0, 0, 0}};'; echo "const size_t sr_n_template_files = $$i;"; } > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/templates.o: $(BUILD)/gen/templates.c | $(DEPS_STAMP)
	$(say) CC $<
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/sweep-report: $(MAIN_OBJ) $(LIB_OBJ)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(DEP_LIBS)

# Replace by rename: a running ./sweep-report keeps its old file.
sweep-report: $(BUILD)/sweep-report
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

$(BUILD)/unit-tests: $(TEST_OBJ) $(LIB_OBJ) | $(BUILD)/.test-deps-ok
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(DEP_LIBS) -lcriterion

# The man page and the bash completion, made by the program from the option
# tables its --help prints (src/cli_doc.c), so they cannot drift from it.
$(BUILD)/sweep-report.1: $(BUILD)/sweep-report
	$(say) GEN $@
	$(Q)$< --generate man >$@.tmp && mv -f $@.tmp $@
$(BUILD)/sweep-report.bash: $(BUILD)/sweep-report
	$(say) GEN $@
	$(Q)$< --generate complete-bash >$@.tmp && mv -f $@.tmp $@

# make install [PREFIX=/usr/local] [DESTDIR=staging root], GNU-style: the program,
# its man page and its bash completion (found by bash-completion through
# XDG_DATA_DIRS, which holds /usr/local/share). Nothing else is needed at run
# time: the templates are compiled in, the fonts are Debian's (fonts-dejavu-core).
# PREFIX and DESTDIR are paths taken as written: never expanded by make ($(value),
# and not exported, which would expand them) nor by the shell (every path single-
# quoted by sq), so no character of theirs (a space, $(...), `...`, quotes) runs.
PREFIX ?= /usr/local
unexport PREFIX DESTDIR
prefix ?= $(value PREFIX)
destdir = $(value DESTDIR)
sq = '$(subst ','\'',$(1))'
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
datarootdir ?= $(prefix)/share
mandir ?= $(datarootdir)/man
man1dir ?= $(mandir)/man1
bashcompdir ?= $(datarootdir)/bash-completion/completions
INSTALL ?= install
INSTALL_PROGRAM ?= $(INSTALL)
INSTALL_DATA ?= $(INSTALL) -m 644

install: $(BUILD)/sweep-report $(BUILD)/sweep-report.1 $(BUILD)/sweep-report.bash
	$(INSTALL) -d $(call sq,$(destdir)$(bindir)) $(call sq,$(destdir)$(man1dir)) $(call sq,$(destdir)$(bashcompdir))
	$(INSTALL_PROGRAM) $(BUILD)/sweep-report $(call sq,$(destdir)$(bindir)/sweep-report)
	$(INSTALL_DATA) $(BUILD)/sweep-report.1 $(call sq,$(destdir)$(man1dir)/sweep-report.1)
	$(INSTALL_DATA) $(BUILD)/sweep-report.bash $(call sq,$(destdir)$(bashcompdir)/sweep-report)

# Removes what install wrote, and nothing else.
uninstall:
	rm -f $(call sq,$(destdir)$(bindir)/sweep-report) $(call sq,$(destdir)$(man1dir)/sweep-report.1) \
	    $(call sq,$(destdir)$(bashcompdir)/sweep-report)

# The bundled samples, one subcommand each: the sweep's report with its
# published figures audited (exit 4 if one no longer holds), the rerun
# compared with the per-model copy of the sweep, and the survey that planned it.
# The bucket holds no config.json (the author's never does): --configs gives
# the models' configs, so every logged KV count with a config is recomputed.
SAMPLE_CONFIGS ?= fixtures/configs
report: sweep-report
	./sweep-report audit $(SAMPLE) $(SAMPLE)/claims.md --configs $(SAMPLE_CONFIGS) -o $(REPORT_DIR)
	./sweep-report compare $(FORMATS) $(RERUN) -o $(REPORT_DIR)/compare
	./sweep-report survey $(SURVEY_SAMPLE) -o $(REPORT_DIR)/survey
	@sh scripts/report-done.sh $(REPORT_DIR)

# Criterion runs each test in a child process and does not count a leak the
# sanitizer reports when the child exits: the log is searched for reports.
unit: $(BUILD)/unit-tests $(BUILD)/requests/expected.json
	@$(BUILD)/unit-tests --jobs 2 >$(BUILD)/unit.log 2>&1; rc=$$?; cat $(BUILD)/unit.log; \
	if grep -q 'ERROR: [A-Za-z]*Sanitizer\|runtime error:' $(BUILD)/unit.log; then \
	    echo "unit: a sanitizer reported an error (above)"; exit 1; fi; exit $$rc

golden: $(BUILD)/sweep-report
	sh tests/run-cases.sh $(BUILD)/sweep-report

badinput: $(BUILD)/sweep-report
	sh tests/run-bad-inputs.sh $(BUILD)/sweep-report
	sh tests/run-survey-bad.sh $(BUILD)/sweep-report

# Third-party exports written by the real tools ($$SR_REALDATA, else ../shared/realdata),
# read where they lie, against the figures in tests/real/expected.tsv. ONLY=export runs one.
# The bucket-layout sample is also held against the author's real files (keys, line shapes).
realdata: $(BUILD)/sweep-report
	python3 tests/real/check.py --bin $(BUILD)/sweep-report $(if $(ONLY),--only $(ONLY))
	python3 tests/check_bucket_fixture.py $(SAMPLE)
	python3 tests/check_bucket_fixture.py fixtures/v5e-gemma4-rerun-bucket

# make test runs the real-data suite where the data is (../shared/realdata or
# $SR_REALDATA) and says it skipped it where it is not (a fresh CI image).
realdata-if-present: $(BUILD)/sweep-report
	python3 tests/real/check.py --bin $(BUILD)/sweep-report --if-present
	python3 tests/check_bucket_fixture.py $(SAMPLE)
	python3 tests/check_bucket_fixture.py fixtures/v5e-gemma4-rerun-bucket

# The command line: every subcommand's --help, usage errors, shared wordings;
# the installed program, its man page and completion (tests/run-install.sh);
# every example of README.md, run as written (tests/check_readme.py); README's and
# docs/inputs.md's format tables against the table of input kinds
# (tests/check_input_kinds.py); report.sqlite and --db (tests/run-db.sh),
# scripts/sweep-batch.sh (tests/run-batch.sh); a thousand
# models (run-many.sh) and 160 reshaped ones held to their headline facts
# (run-headline-many.sh).
cli: $(BUILD)/sweep-report
	sh tests/run-cli.sh $(BUILD)/sweep-report
	sh tests/run-install.sh $(BUILD)
	python3 tests/check_readme.py $(BUILD)/sweep-report
	python3 tests/check_input_kinds.py $(BUILD)/sweep-report
	python3 tests/check_speed_definitions.py $(BUILD)/sweep-report
	sh tests/run-outset.sh $(BUILD)/sweep-report
	sh tests/run-db.sh $(BUILD)/sweep-report
	sh tests/run-batch.sh $(BUILD)/sweep-report
	sh tests/run-oom.sh $(BUILD)/sweep-report
	sh tests/run-many.sh $(BUILD)/sweep-report
	sh tests/run-headline-many.sh $(BUILD)/sweep-report

# Sanitizer builds live in their own directories so they never mix objects.
asan:
	$(MAKE) BUILD=build-asan SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" OPT="-O1 -g" unit golden badinput cli

ubsan: asan

# Data races in the parallel loading and bootstraps: the sample under ThreadSanitizer.
tsan:
	$(MAKE) BUILD=build-tsan SAN="-fsanitize=thread" OPT="-O1 -g" build-tsan/sweep-report
	TSAN_OPTIONS=halt_on_error=1 build-tsan/sweep-report report $(FORMATS) -o build-tsan/out --threads 4 >/dev/null
	TSAN_OPTIONS=halt_on_error=1 build-tsan/sweep-report compare $(FORMATS) $(RERUN) -o build-tsan/compare --threads 4 >/dev/null
	@echo "tsan: 2 passed, 0 failed"

leakcheck: $(BUILD)/sweep-report
	RERUN=$(RERUN) sh tests/run-valgrind.sh $(BUILD)/sweep-report $(FORMATS) $(SURVEY_SAMPLE)
	RERUN=fixtures/v5e-gemma4-rerun-bucket sh tests/run-valgrind.sh $(BUILD)/sweep-report $(SAMPLE)

test: test-deps
	$(MAKE) unit golden badinput cli realdata-if-present
	$(MAKE) asan
	$(MAKE) tsan
	$(MAKE) leakcheck
	@echo "make test: all suites passed"

fuzz:
	sh tests/fuzz/run.sh $${FUZZ_SECONDS:-60}

# A short pass for CI: every target for 10 s (FUZZ_SHORT_SECONDS).
fuzz-short:
	sh tests/fuzz/run.sh $${FUZZ_SHORT_SECONDS:-10}

# report.html in headless Chromium: screenshot, DOM, hostile names, printing.
# Slow (a browser start per check), so not part of make test.
browser-test: $(BUILD)/unit-tests $(BUILD)/sweep-report
	sh tests/browser/run.sh $(BUILD)/unit-tests $(BUILD)/sweep-report

# The floor under the load step (bench/simd_floor.cpp): read, SHA-256 and
# simdjson-parse every file of an export, nothing else.
$(BUILD)/simd-floor: bench/simd_floor.cpp | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(say) CXX $@
	$(Q)$(CXX) $(CXXFLAGS_ALL) $< -o $@ $(LDFLAGS_ALL) $(DEP_LIBS)

bench: sweep-report $(BUILD)/simd-floor
	FLOOR=$(BUILD)/simd-floor sh bench/run.sh

# Static checks, run by CI: every C file compiled by clang with warnings as
# errors (gcc's build is the default one; CI builds it with -Werror too), and
# cppcheck's warning checks. invalidPointerCast is off: the option tables and
# the analysis address struct fields by offset (cli.h), which it misreads; the
# two lifetime checks take the error a callback returns (through a function
# pointer) for a pointer to the locals handed to it (ASan and valgrind watch
# lifetimes in make test); in ingest/scores.c "i < 2" guards refs[i - 2].
# The layering rules (docs/architecture.md, scripts/layers.py): no engine
# reaches into a document, no document or parser into another, pipeline.c
# into nothing of render/, and no circle of files calling each other; read
# from cc -MM and from the objects' symbols (nm). tests/check_layers.py
# shows each rule failing on a deliberately bad include. make lint also holds
# docs/architecture.md's map and recipes to files that exist
# (tests/check_architecture.py).
layers: $(MAIN_OBJ) $(LIB_OBJ)
	$(say) LAYERS src
	$(Q)python3 scripts/layers.py --src src --objects $(BUILD)/src --cc '$(CC)' --cflags '$(DEP_CFLAGS)'
	$(Q)python3 tests/check_layers.py '$(DEP_CFLAGS)' >/dev/null || python3 tests/check_layers.py '$(DEP_CFLAGS)'

lint: $(BUILD)/.test-deps-ok layers
	$(Q)python3 tests/check_architecture.py >/dev/null || python3 tests/check_architecture.py
	@for f in $(filter %.c,$(SRC)) $(wildcard tests/unit/*.c); do \
	    clang -std=c17 -D_DEFAULT_SOURCE $(WARN) -Werror -fsyntax-only -Isrc $(DEP_CFLAGS) $$f || exit 1; done
	$(say) CPPCHECK src
	$(Q)cppcheck -q --enable=warning,portability --std=c11 --inline-suppr --error-exitcode=1 \
	    --suppress=invalidPointerCast --suppress=invalidLifetime --suppress=returnDanglingLifetime \
	    --suppress=arrayIndexThenCheck:src/ingest/json.c -Isrc -D__GNUC__ -j2 src
	@echo "lint: layers, clang -Werror and cppcheck clean"

# clang-format with .clang-format; every C file of the project.
format:
	clang-format -i $(SRC) $(shell find src tests bench -name '*.h') $(wildcard tests/unit/*.c tests/fuzz/*.c bench/*.c)

clean:
	rm -rf build build-* sweep-report

-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
