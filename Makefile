# cuzk front door. `make test` and `make demo` are all a newcomer needs;
# both install missing Debian packages first (tools/install-deps.sh).
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
NVCC ?= $(firstword $(wildcard /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc) $(shell command -v nvcc 2>/dev/null))

.PHONY: all build test demo bench asan tsan fuzz cuda-check deps format format-check clean

all: build

deps:
	@tools/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j$(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

demo: build
	$(BUILD)/bin/cuzk demo

bench: build
	$(BUILD)/bin/cuzk bench field

# AddressSanitizer + UndefinedBehaviorSanitizer build and test run, with clang
# (the default build uses the system cc, so CI covers both compilers).
asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCUZK_SANITIZE=ON -DCUZK_CUDA=OFF
	cmake --build build-asan -j$(JOBS)
	CUZK_TEST_ITERS= ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure -j$(JOBS)

# ThreadSanitizer (clang) over the threaded tests: the ledger, the engine,
# the daemon core, the journal, the event log, metrics and HTTP. The gRPC
# tests are left out: Debian's libgrpc and libabsl are not instrumented, so
# TSan reads their internal synchronisation as races (760 reports, every
# one inside or through those libraries).
TSAN_TESTS = test_ledger test_engine test_daemon test_journal test_eventlog test_metrics test_http
tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCUZK_CUDA=OFF \
		-DCMAKE_C_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread
	cmake --build build-tsan -j$(JOBS) --target $(TSAN_TESTS)
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" CUZK_TEST_ITERS= \
		ctest --test-dir build-tsan --output-on-failure -j$(JOBS) -R '^($(subst $(eval) ,|,$(TSAN_TESTS)))$$'

# libFuzzer harnesses over the committed corpora; new inputs go to a scratch
# folder so the checkout is never modified.
fuzz: deps
	cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DCUZK_FUZZ=ON -DCUZK_CUDA=OFF -DBUILD_TESTING=OFF
	cmake --build build-fuzz -j$(JOBS)
	@for f in build-fuzz/bin/fuzz_*; do \
		name=$$(basename $$f); scratch=$$(mktemp -d); \
		echo "== $$name for $(FUZZ_SECONDS) s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$scratch fuzz/corpus/$${name#fuzz_} || exit 1; \
		rm -rf $$scratch; \
	done

# Compile-only check of every CUDA source (CI has nvcc but no GPU), units in
# parallel; nvcc and host-compiler warnings are errors, as in the CMake build.
# Without nvcc it fails: a CI that cannot compile the kernels must say so.
NVCC_CHECK_FLAGS = -std=c++17 -arch=sm_90 -Iinclude -Isrc -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
cuda-check:
	@srcs=$$(find src -name '*.cu' | sort); \
	if [ -z "$(NVCC)" ]; then echo "cuda-check: nvcc not found (CUDA's folder, or NVCC=path)" >&2; exit 1; fi; \
	if [ -z "$$srcs" ]; then echo "cuda-check: no CUDA sources yet"; exit 0; fi; \
	printf '%s\n' $$srcs | xargs -P $(JOBS) -I{} sh -c \
		'echo "nvcc {}"; $(NVCC) $(NVCC_CHECK_FLAGS) -c {} -o /dev/null' || exit 1

# clang-format over every tracked C/CUDA file but generated ones
# (tools/format_check.sh); format-check fails on any difference (CI).
format:
	@tools/format_check.sh --fix

format-check:
	@tools/format_check.sh

clean:
	rm -rf $(BUILD) build-asan build-tsan build-fuzz
