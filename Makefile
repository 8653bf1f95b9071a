# gpusvm - plain Makefile.
#   make                the command-line tools in build/
#   make demo           set up what is missing, train and predict on bundled data
#   make check          the fast tier for every edit (about a minute): builds, API, edges, kernels at small
#                       sizes, parity on three small sets, the prediction-only build
#   make test           set up what is missing, run every test (the full suite; CI runs it)
#   make bench          the benchmark table (a9a, w8a, ijcnn1, mnist) on the selected device
#   make mpi            build/gpusvm-train-mpi and gpusvm-grid-mpi: the tools across MPI ranks (mpicc)
#   make kernels        regenerate kernels.cl.h and the kernel block of gpusvm.h
#   make check-kernels  fail if either is out of step with kernels/
#   make fuzz           libFuzzer on the data reader, the model loader and the API (FUZZ_SECONDS each, default 60;
#                       make test runs TEST_FUZZ_RUNS executions each from a fixed seed, default 200000)
#   make docs           regenerate docs/errors.md (the list of errors) from gpusvm.h

CC      ?= cc
CXX     ?= c++
CFLAGS  ?= -O2
WARN    := -Wall -Wextra -pedantic -Werror
LIBS    := -ldl -lm
BUILD   := build
KERNELS := kernels/00_shared.h $(sort $(wildcard kernels/*.cl))

TOOLS := $(BUILD)/gpusvm-train $(BUILD)/gpusvm-predict $(BUILD)/gpusvm-scale $(BUILD)/gpusvm-grid $(BUILD)/gpusvm-export

FUZZ_SECONDS ?= 60
TEST_FUZZ_RUNS ?= 200000
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZERS      := $(BUILD)/fuzz/fuzz_data $(BUILD)/fuzz/fuzz_model $(BUILD)/fuzz/fuzz_api

.PHONY: all demo check setup-check test bench fuzz fuzz-build kernels check-kernels setup setup-test clean mpi docs docs-numbers

all: $(TOOLS)

$(BUILD):
	@mkdir -p $(BUILD)

$(BUILD)/gpusvm-train: tools/gpusvm-train.c tools/cli.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ tools/gpusvm-train.c $(LIBS)

$(BUILD)/gpusvm-predict: tools/gpusvm-predict.c tools/cli.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ tools/gpusvm-predict.c $(LIBS)

$(BUILD)/gpusvm-scale: tools/gpusvm-scale.c tools/cli.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ tools/gpusvm-scale.c $(LIBS)

$(BUILD)/gpusvm-grid: tools/gpusvm-grid.c tools/cli.h tools/png.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ tools/gpusvm-grid.c $(LIBS)

$(BUILD)/gpusvm-export: tools/gpusvm-export.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ tools/gpusvm-export.c -lm

# gpusvm-train and gpusvm-grid across MPI ranks (Open MPI, MPICH: their mpicc); not part of 'all'.
MPICC ?= mpicc
mpi: $(BUILD)/gpusvm-train-mpi $(BUILD)/gpusvm-grid-mpi

$(BUILD)/gpusvm-train-mpi: tools/gpusvm-train.c tools/cli.h tools/cli_mpi.h gpusvm.h | $(BUILD)
	$(MPICC) -std=c99 -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(WARN) -DGPUSVM_TRAIN_MPI -o $@ tools/gpusvm-train.c $(LIBS)

$(BUILD)/gpusvm-grid-mpi: tools/gpusvm-grid.c tools/cli.h tools/cli_mpi.h tools/png.h gpusvm.h | $(BUILD)
	$(MPICC) -std=c99 -D_POSIX_C_SOURCE=200809L $(CFLAGS) $(WARN) -DGPUSVM_GRID_MPI -o $@ tools/gpusvm-grid.c $(LIBS)

$(BUILD)/embed_kernels: tools/embed_kernels.c | $(BUILD)
	$(CC) -std=c99 -O2 -Wall -Wextra -o $@ tools/embed_kernels.c

kernels: $(BUILD)/embed_kernels
	$(BUILD)/embed_kernels gpusvm.h kernels.cl.h $(KERNELS)

check-kernels: $(BUILD)/embed_kernels
	$(BUILD)/embed_kernels --check gpusvm.h kernels.cl.h $(KERNELS)

$(BUILD)/errors_doc: tools/errors_doc.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(WARN) -o $@ tools/errors_doc.c

docs: $(BUILD)/errors_doc
	$(BUILD)/errors_doc > docs/errors.md

# Installs (or names) what the demo needs: an OpenCL runtime (PoCL on a machine with no GPU driver).
setup:
	@sh tools/setup.sh demo

# Installs (or names) what the tests need as well: LIBSVM's tools, OpenCL headers, clang.
setup-test:
	@sh tools/setup.sh test

demo: setup $(TOOLS)
	@sh tools/demo.sh

# the fast tier for every edit (about a minute; tests/check.sh says what it runs)
check: setup-check $(TOOLS) $(BUILD)/embed_kernels
	@sh tests/check.sh

setup-check:
	@sh tools/setup.sh check

# the tools and fuzzers build two at a time (the tests run in two lanes too: tests/run.sh)
test: setup-test
	@$(MAKE) --no-print-directory -j2 $(TOOLS) check-kernels fuzz-build
	@FUZZ_RUNS=$(TEST_FUZZ_RUNS) sh tests/run.sh

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c gpusvm.h
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIBS)

fuzz-build: $(FUZZERS)

# the benchmark table on the selected device (bench/run.sh says what is counted, and times the
# data reader, bench/reader.c), the latency of one gpusvm_predict call for a few points
# (bench/latency.c), each part of the kernels' compile with the drivers' caches out of the way
# (bench/compile.c), then the primitives
# against the device's ceilings (bench/micro.c; GPUs only), and the first hour's numbers (bench/build.sh)
bench: setup $(TOOLS) $(BUILD)/micro $(BUILD)/probe $(BUILD)/latency $(BUILD)/compile $(BUILD)/reader $(BUILD)/gen_sparse $(BUILD)/gen_dense
	@sh bench/run.sh
	@echo
	@sh bench/build.sh
	@echo
	@$(BUILD)/latency
	@echo
	@rm -rf $(BUILD)/bench/pocl-compile
	@POCL_CACHE_DIR=$(BUILD)/bench/pocl-compile CUDA_CACHE_DISABLE=1 $(BUILD)/compile
	@echo
	@$(BUILD)/micro
	@echo
	@$(BUILD)/probe

$(BUILD)/reader: bench/reader.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/reader.c $(LIBS)

$(BUILD)/latency: bench/latency.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/latency.c $(LIBS)

$(BUILD)/compile: bench/compile.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/compile.c $(LIBS)

$(BUILD)/gen_sparse: bench/gen_sparse.c | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/gen_sparse.c -lm

$(BUILD)/gen_dense: bench/gen_dense.c | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/gen_dense.c -lm

$(BUILD)/micro: bench/micro.c bench/bench_cl.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/micro.c $(LIBS)

# what a dependent pair update of the inner solve costs at least, from the GPU's cycle counter (NVIDIA)
$(BUILD)/probe: bench/probe.c bench/bench_cl.h gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/probe.c $(LIBS)

# alpha seeding along C against cold starts, one binary problem (docs/results.md: build/warm_start DATA GAMMA)
$(BUILD)/warm_start: bench/warm_start.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/warm_start.c $(LIBS)

# conjugate SMO against LIBSVM's pair sequence in pair updates, one binary problem solved whole on the
# host (docs/results.md: build/conjugate DATA N C GAMMA)
$(BUILD)/conjugate: bench/conjugate.c gpusvm.h | $(BUILD)
	$(CC) -std=c99 $(CFLAGS) $(WARN) -o $@ bench/conjugate.c $(LIBS)

# the numbers the docs give for a machine without a GPU, each beside the bound they state: the
# implementation's compile, the prediction-only program's size, PoCL's first run (bench/build.sh)
docs-numbers: setup $(TOOLS)
	@sh bench/build.sh

# libFuzzer on the data reader, the model loader and the API, FUZZ_SECONDS each (make test runs
# them too, shorter)
fuzz: setup-test fuzz-build
	@sh tests/fuzz/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD)
