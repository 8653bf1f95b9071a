/* gpusvm.h - v0.1.0 - kernel Support Vector Machines on any OpenCL device, in one header.

   Do this:
      #define GPUSVM_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the implementation.
   Every other file includes it without the define.

   EXAMPLE (examples/quickstart.c is this program, built and run by 'make test')

      #define GPUSVM_IMPLEMENTATION
      #include "gpusvm.h"
      #include <stdio.h>

      int main(void) {
          const float x[8] = { 0,0,  0,1,  4,4,  4,5 };      // 4 points, 2 features
          const double y[4] = { -1, -1, 1, 1 };
          gpusvm_matrix m = {0};
          gpusvm_params params = {0};                          // LIBSVM's defaults
          gpusvm_context *ctx; gpusvm_model *model; double pred[4] = {0, 0, 0, 0};
          m.layout = GPUSVM_LAYOUT_DENSE; m.rows = 4; m.cols = 2; m.values = x;
          if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK) return 1;
          if (gpusvm_train(ctx, &m, y, &params, &model) != GPUSVM_OK) return 1;
          if (gpusvm_predict(ctx, model, &m, pred, NULL) != GPUSVM_OK) return 1;
          printf("device: %s, predictions: %g %g %g %g\n",
                 gpusvm_context_device_name(ctx), pred[0], pred[1], pred[2], pred[3]);
          gpusvm_model_free(model);
          gpusvm_context_destroy(ctx);
          return 0;
      }

   Build: cc app.c -ldl -lm (no OpenCL headers, no -lOpenCL: the library is loaded at run time).
   Keep the implementation in a .c file of its own: it is large, and takes seconds to compile
   with optimization, which the rest of the program then need not pay at every build.

   The device path runs on any OpenCL 1.2 device: dual variables and gradients are double where it
   has cl_khr_fp64, float pairs (about 48 bits) where it has not (most Intel and mobile GPUs,
   Apple's OpenCL); without any OpenCL device the built-in C backend runs.

   WHAT IT DOES
      LIBSVM's tasks with LIBSVM's formulations, stopping rule and answers: C-SVC and nu-SVC (two
      classes, or more one-vs-one as LIBSVM), one-class SVM, epsilon-SVR and nu-SVR; linear,
      polynomial, RBF, sigmoid and precomputed kernels; per-class and per-sample weights;
      probability outputs (Platt scaling with pairwise coupling, the SVR Laplace scale, one-class
      density marks); cross-validation; decision values and predictions; LIBSVM's model files,
      read and written (also from and to memory); LIBSVM's data files, read (from memory too, and
      by every core for large files). Also Crammer and Singer's joint multiclass SVM
      (GPUSVM_CRAMMER_SINGER), stopped on the relative duality gap. The binary problems of one
      call (one-vs-one's pairs, the folds of a cross-validation, a probability fit's folds) are
      solved together on the device, on one uploaded copy of the points.

   BUILD OPTIONS (#define before the implementation)
      GPUSVM_STATIC                 all functions static (private to one translation unit)
      GPUSVM_API                    linkage of the public functions (default: extern)
      GPUSVM_MALLOC(sz) / GPUSVM_FREE(p)
                                    the default allocator, both or neither (an allocator in the
                                    context desc overrides them)
      GPUSVM_NO_RUNTIME_LINKING     link OpenCL directly: include <CL/cl.h> and -lOpenCL; the
                                    library's own declarations are then checked against it
      GPUSVM_NO_OPENCL              leave OpenCL out; only the built-in C backend exists
      GPUSVM_PREDICT_ONLY           leave the trainer out: gpusvm_train, gpusvm_check_params,
                                    gpusvm_cross_validation and gpusvm_grid_search are not
                                    declared, and nothing refers to the solver, so the compiler
                                    drops it. With GPUSVM_STATIC and GPUSVM_NO_OPENCL a program that
                                    loads a model and predicts is under 64 KB stripped (x86-64,
                                    gcc or clang -O2; make test checks it); without GPUSVM_STATIC
                                    add -ffunction-sections -Wl,--gc-sections to drop the
                                    unused public functions too

   DEVICES
      A context picks its backend and device once. Backend: the desc's field, else the
      environment variable GPUSVM_BACKEND (auto | opencl | cpu), else auto: an OpenCL GPU or
      accelerator, else the built-in C backend. Device: the desc's field, else
      GPUSVM_DEVICE: an index in the list of all OpenCL devices (platform order), or a substring
      of the device or platform name, case-insensitive. Automatic selection takes an OpenCL GPU
      or accelerator; where OpenCL offers only CPU devices it uses the C backend, which is
      faster there (ask for GPUSVM_BACKEND=opencl to run the kernels on an OpenCL CPU driver);
      where /etc/OpenCL/vendors lists PoCL alone, without a GPU plugin, auto does not even load
      the driver. Automatic selection prefers, among devices of a kind, one with cl_khr_fp64.
      Dual variables and gradients are double there, float pairs on a device without it, or
      with desc.fp64 OFF (else GPUSVM_FP64=off); gpusvm_context_device_name() says what was chosen
      (with "[no fp64: float pairs]" or "[fp64 off: float pairs]"), and the context's log (INFO)
      its double precision and the sub-group exchanges its reductions use (PTX on NVIDIA,
      cl_khr_subgroup_shuffle, cl_intel_subgroups, else local-memory trees; GPUSVM_SUBGROUPS=
      ptx|khr|intel|off forces one, for tests). The kernels are compiled when the work first
      needs them, in small programs (on PoCL, which compiles a kernel at its first launch, and
      Oclgrind, all in one; GPUSVM_PROGRAMS=each|one forces either, for tests). The C backend is the fallback when no OpenCL
      device exists, and the oracle the OpenCL kernels are tested against.
      Several devices: desc.devices, or a device or GPUSVM_DEVICE of "all" (every GPU and
      accelerator; float pairs on all where one lacks fp64) or a comma-separated list
      ("0,1,2,3"). Each device gets its own copy of the points; the independent problems of a
      training call (one-vs-one pairs, cross-validation folds) are spread across them in
      contiguous shares balanced by size and train at the same time, each problem's model the
      one-device model. One problem larger than its working set, its points kept dense, is split
      by rows instead: each device holds a share of the points, and the working set is merged
      from every device's candidates (the one-device model too). Crammer-Singer and prediction run on the first device.
      Only work that pays for more devices is spread: a call whose kernel-row work (variables
      times points, summed over its problems) is below 5e10 runs on the first device alone,
      and a device past the first is opened (its context, copy of the points and kernels) when
      work first reaches it, so small work costs no more than on one device; GPUSVM_SPREAD=always
      spreads any work (tests, measurements).
      The environment never breaks a program that did not ask for it: an unknown GPUSVM_BACKEND
      is a warning and auto, a GPUSVM_DEVICE that is not there falls back to the C backend (a
      device named in the desc is an error). A shipped program that wants none of this sets
      desc.ignore_environment. Why a creation failed is in desc.error when the program gives one.

   KERNEL CACHE
      The OpenCL kernels are built as the work first needs them, in small programs of one kernel
      or a few (one when the context is created, the rest by the training or prediction that
      first launches them; PoCL builds them all in one program with the context);
      each binary is kept on disk, keyed by device, driver, build options and kernel source, and
      the next context loads it instead of compiling. Folder: desc.kernel_cache_dir ("" none),
      else GPUSVM_CACHE_DIR ("off" none; not on PoCL, which keeps its own cache, and for which
      writing a binary means compiling every kernel natively), else $XDG_CACHE_HOME/gpusvm or
      $HOME/.cache/gpusvm for GPUs and accelerators. A file that does not match, or that the driver rejects, is ignored and
      rewritten; files are written to a temporary name and renamed. A compile from source is
      announced once, before it starts, through the logger (INFO: "compiling the kernel program
      for DEVICE ..."): a first run on a GPU can take seconds there.

   MEMORY
      desc.device_memory_mb (else GPUSVM_DEVICE_MEMORY_MB) bounds what gpusvm allocates on the
      device: training shrinks its working set to fit, and where even the smallest one does not,
      a single dense problem's points stay in host memory and stream through the device in
      tiles, every round (the same model; the time is then bound by the host-to-device copies);
      prediction works in blocks; otherwise GPUSVM_ERROR_DEVICE_MEMORY says what did not fit.
      The OpenCL library, once opened, stays loaded for the life of the process (ICD loaders and
      drivers do not unload cleanly). Every allocation goes through the desc's allocator, or
      GPUSVM_MALLOC/GPUSVM_FREE, or malloc/free; sizes are overflow-checked. Models and datasets remember their allocator, so
      gpusvm_model_free() and gpusvm_dataset_free() need nothing else. On the device, training
      holds the data, the working set's kernel rows (q x n floats per problem, bounded by
      params.cache_size_mb when set) and, for one problem of at least 2q variables, a row cache
      (rows the working set held before, up to 8q rows in all; params.cache_size_mb, else 2 GiB,
      and half of what is left bound them), its q x q block and O(n) vectors. The data is kept dense
      (column-major, padded; with the working set's vectors, q x features, beside it, and while
      uploading the data's CSR arrays for a moment) or sparse (its CSR arrays: 8 bytes a nonzero),
      as desc.storage says: AUTO ($GPUSVM_STORAGE, else sparse where the dense copy would have 16
      or more words per nonzero or would not fit), DENSE or SPARSE.

   FILES
      gpusvm_model_save (and gpusvm_write_file, which the tools use for every output) never leaves
      a file half-written: a regular file is written to a temporary file in its folder and
      renamed over it, keeping its permissions; a symlink is followed and its target replaced; a
      device node, a FIFO or "-" (standard output) is written directly and its errors reported.
      gpusvm_model_save_buffer / gpusvm_model_load_buffer / gpusvm_dataset_parse do the same work
      on memory, for programs that ship a model inside their binary or an asset pack. Data files
      of a few MiB and more are read by desc.threads threads (0: $GPUSVM_THREADS, else every
      core), with the default allocator only. LIBSVM's indices start at 1: a data file with an
      index 0 is refused with file:line (GPUSVM_ERR_DATA_INDEX0) unless gpusvm_dataset_read is
      told what it is: a precomputed kernel's serial numbers (GPUSVM_INDEX0_SERIAL, 0:k) or a
      zero-based file (GPUSVM_INDEX0_FEATURE, index i is column i). A folder given as a file is
      refused as one (GPUSVM_ERR_FILE_IS_FOLDER). Models have any number of classes (LIBSVM's
      format has no limit; memory bounds it, and a file's nr_class must fit the text it has).

   PREDICTION
      gpusvm_predict on a few points (at most about a million multiply-adds against the support
      vectors) is computed on the host, whatever the backend: a device round trip costs more.
      Larger batches run on the device in blocks. A dense point may have more features than the
      model's data: they add nothing to <x,z>, but they count in |x|^2, so an RBF kernel's values
      change as LIBSVM's do (LIBSVM's svm-predict reads every feature of the line).
      gpusvm_model_to_c (build/gpusvm-export) writes a model as C source instead: const arrays
      and a float predictor that allocates nothing and needs neither stdio nor OpenCL nor this
      header, for a microcontroller's flash or a game's code; it reads the model's features only
      (x[j], j < name_N_FEATURES). Its decision values are the library's within float rounding
      (tests/export.sh states the bound and checks it).

   PARAMETERS
      Zero means default in every struct (C 1, gamma 1/features, degree 3, eps 1e-3, nu 0.5, ...);
      a value LIBSVM would refuse (C, gamma, eps or nu negative, NaN or infinite; nu above 1) is
      refused with its field named (GPUSVM_ERR_PARAMS_FIELD, GPUSVM_ERR_DESC_FIELD). The
      command-line tools take the same rule: -c 0, -g 0, -e 0, -n 0, -m 0 and -d 0 mean the
      defaults; -p 0 and -r 0 are values (as in LIBSVM, which takes -g 0 as its default too).
      In C write `gpusvm_params p = {0};`, in C++ `gpusvm_params p = {};` (g++ -Wextra warns
      about the fields `{0}` leaves to value-initialization).

   ERRORS
      Every function that can fail returns a gpusvm_result (0 is success, negative an error), and
      the context keeps what failed: gpusvm_context_error_id() its id in the one list of errors
      (GPUSVM__ERRORS below; docs/errors.md), gpusvm_context_error() its message with the detail.
      Every entry point checks what it is given before it reads it: NULL pointers, matrices (dense
      and CSR: sizes, offsets, column order, NaN and Inf), labels, models (a model whose fields
      disagree is refused, never read past its arrays), buffers and paths.

   LOGGING
      A {fn, user_data} logger in the desc receives messages with a level. With none, the
      library prints nothing. Errors are also described on the context: gpusvm_context_error()
      (the failing OpenCL call with its code and name, or file:line: reason for files) and
      gpusvm_context_build_log().

   THREAD SAFETY
      Contexts are independent: any number may exist, each used by one thread at a time, and any
      thread may create or destroy one at any time. Creating and destroying contexts takes a
      process-wide lock around the backend's opening and closing (OpenCL's device discovery,
      context creation, the first kernels' build, and release, which ICD loaders and drivers do
      not all make safe: PoCL crashed when two threads discovered devices at once), so contexts
      are made one at a time while their training, prediction and files run in parallel (the
      kernels a training builds later, each context under its own lock; PoCL builds all of them
      with the context). The lock is the
      library's one piece of global state; it needs compiler atomics (GCC, Clang, MSVC; elsewhere
      create contexts from one thread), and with GPUSVM_STATIC each translation unit has its own.
      Models and datasets are plain data: read them from any thread. A predictor is used by one
      thread at a time (make one each; they may share a model). Reading a large data file starts
      threads of its own (POSIX threads looked up at run time: no -pthread needed; with
      GPUSVM_NO_OPENCL on POSIX, one thread), which end before the call returns.

   LICENSE: MIT, at the end of this file.
*/
#ifndef GPUSVM_H
#define GPUSVM_H

#include <stddef.h>
#include <stdint.h>

#define GPUSVM_VERSION_MAJOR 0
#define GPUSVM_VERSION_MINOR 1
#define GPUSVM_VERSION_PATCH 0
#define GPUSVM_VERSION_STRING "0.1.0"

#ifndef GPUSVM_API
#ifdef GPUSVM_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define GPUSVM_API static __attribute__((unused)) /* a unit need not call every function */
#else
#define GPUSVM_API static
#endif
#else
#define GPUSVM_API extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Results: 0 is success, every error is negative. Each comment says what to do. */
typedef enum gpusvm_result {
    GPUSVM_OK = 0,
    GPUSVM_ERROR_INVALID_ARGUMENT = -1, /* a NULL pointer or a field out of range: the context's error names it */
    GPUSVM_ERROR_OUT_OF_MEMORY = -2,    /* a host allocation failed: free memory or use smaller data */
    GPUSVM_ERROR_NO_DEVICE = -3,        /* no OpenCL library, platform or device matched: install a driver (Debian: pocl-opencl-icd) or select the cpu backend */
    GPUSVM_ERROR_OPENCL = -4,           /* an OpenCL call failed: the context's error names the call and its code */
    GPUSVM_ERROR_BUILD = -5,            /* the device compiler rejected the kernels: see gpusvm_context_build_log() */
    GPUSVM_ERROR_DEVICE_MEMORY = -6,    /* the data or the working-set rows do not fit the device: lower -m / cache_size_mb or use the cpu backend */
    GPUSVM_ERROR_CANCELLED = -7,        /* the progress callback asked to stop */
    GPUSVM_ERROR_IO = -8,               /* a file could not be opened, read or written: the context's error names it */
    GPUSVM_ERROR_PARSE = -9,            /* a malformed data or model file: the context's error says file:line: reason */
    GPUSVM_ERROR_UNSUPPORTED = -10      /* valid but not in this version */
} gpusvm_result;

/* Every error gpusvm reports, as one list: its id (GPUSVM_ERR_<id> of gpusvm_error), the result a
   call returns with it, and what it means. gpusvm_context_error_id() gives the last failure's id,
   gpusvm_context_error() its message with the detail (the field or file:line, the OpenCL call).
   docs/errors.md is this list (tools/errors_doc.c writes it). */
#define GPUSVM__ERRORS(X)                                                                                        \
    X(NONE, GPUSVM_OK, "no error")                                                                               \
    X(NULL_ARGUMENT, GPUSVM_ERROR_INVALID_ARGUMENT, "a pointer the call needs is NULL (the message names it)")   \
    X(OUT_OF_MEMORY, GPUSVM_ERROR_OUT_OF_MEMORY,                                                                 \
      "a host allocation failed, or a size would overflow: free memory or use smaller data")                     \
    X(DESC_FIELD, GPUSVM_ERROR_INVALID_ARGUMENT, "a field of gpusvm_context_desc is out of range (the message names it)") \
    X(PARAMS_FIELD, GPUSVM_ERROR_INVALID_ARGUMENT,                                                               \
      "a field of gpusvm_params is out of range (the message names it and its range)")                           \
    X(DATA_DESC_FIELD, GPUSVM_ERROR_INVALID_ARGUMENT, "a field of gpusvm_data_desc is out of range")             \
    X(MATRIX_INVALID, GPUSVM_ERROR_INVALID_ARGUMENT,                                                             \
      "a gpusvm_matrix is malformed: its layout, sizes, NULL arrays, CSR offsets or column indices")             \
    X(MATRIX_NOT_FINITE, GPUSVM_ERROR_INVALID_ARGUMENT, "an input value (a matrix's, or a point's) is NaN or infinite") \
    X(MATRIX_NARROW, GPUSVM_ERROR_INVALID_ARGUMENT,                                                              \
      "a dense matrix to predict has fewer columns than the model was trained on (CSR input may have fewer)")    \
    X(NO_ROWS, GPUSVM_ERROR_INVALID_ARGUMENT, "the training data has no rows")                                   \
    X(LABEL_NOT_FINITE, GPUSVM_ERROR_INVALID_ARGUMENT, "a label or target is NaN or infinite")                   \
    X(LABEL_NOT_INTEGER, GPUSVM_ERROR_INVALID_ARGUMENT,                                                          \
      "a classification label is not an integer (regression, -s 3 or -s 4, takes real-valued targets)")        \
    X(WEIGHT_LABEL, GPUSVM_ERROR_INVALID_ARGUMENT, "a class weight names a label that no training row has")     \
    X(SERIAL, GPUSVM_ERROR_INVALID_ARGUMENT,                                                                     \
      "precomputed kernel: a serial number is not an integer naming one of x's columns")                         \
    X(NU_INFEASIBLE, GPUSVM_ERROR_INVALID_ARGUMENT,                                                              \
      "nu-SVC: nu is infeasible for a pair of classes (LIBSVM's 'specified nu is infeasible'): lower nu")        \
    X(NU_DEGENERATE, GPUSVM_ERROR_INVALID_ARGUMENT,                                                              \
      "nu-SVC: a pair of classes has r = 0, so the coefficients alpha / r would be infinite (points the kernel cannot tell apart)") \
    X(NOT_FINITE, GPUSVM_ERROR_INVALID_ARGUMENT,                                                                 \
      "training overflowed to NaN or infinity: a kernel parameter (gamma, coef0, degree) far outside the data's scale") \
    X(NR_FOLD, GPUSVM_ERROR_INVALID_ARGUMENT,                                                                    \
      "cross-validation: nr_fold is below 2, or leaves a fold no row to train on: use fewer folds")              \
    X(GRID_VALUE, GPUSVM_ERROR_INVALID_ARGUMENT,                                                                 \
      "grid search: a C or gamma value is not finite and > 0, or nC or ngamma is negative or their points pass INT_MAX") \
    X(MODEL_INVALID, GPUSVM_ERROR_INVALID_ARGUMENT,                                                              \
      "a gpusvm_model's fields do not agree (its types, class and support-vector counts, or arrays)")           \
    X(NO_PROBABILITY, GPUSVM_ERROR_INVALID_ARGUMENT,                                                             \
      "the model has no per-row probabilities: train with probability = 1 (-b 1); regression models have none")  \
    X(NO_DEVICE, GPUSVM_ERROR_NO_DEVICE,                                                                         \
      "no OpenCL library, platform or device matched: install a driver (Debian: pocl-opencl-icd) or use the C backend") \
    X(OPENCL_CALL, GPUSVM_ERROR_OPENCL, "an OpenCL call failed: the message names the call, its code and the line") \
    X(KERNEL_BUILD, GPUSVM_ERROR_BUILD, "the device's compiler rejected the kernel program: see gpusvm_context_build_log()") \
    X(KERNEL_ARGS, GPUSVM_ERROR_BUILD, "a built kernel's arguments differ from what the host binds (a stale kernel cache?)") \
    X(DEVICE_LIMITS, GPUSVM_ERROR_UNSUPPORTED, "a kernel needs more work-items per group than the device runs")   \
    X(DEVICE_MEMORY, GPUSVM_ERROR_DEVICE_MEMORY,                                                                 \
      "the work does not fit the device's memory or desc.device_memory_mb: lower -m / cache_size_mb, use fewer points or the C backend") \
    X(CANCELLED, GPUSVM_ERROR_CANCELLED, "the progress callback asked to stop")                                  \
    X(SPLIT_ALLGATHER, GPUSVM_ERROR_IO, "desc.split's allgather function reported a failure")                  \
    X(SPLIT_MISMATCH, GPUSVM_ERROR_UNSUPPORTED,                                                                  \
      "the parts of a split context differ (backend, arithmetic, devices or planned batches)")                  \
    X(UNSUPPORTED, GPUSVM_ERROR_UNSUPPORTED, "valid, but not done by this version or on this device")           \
    X(FILE_OPEN, GPUSVM_ERROR_IO, "a file could not be opened (the message names it and the system's reason)")  \
    X(FILE_IS_FOLDER, GPUSVM_ERROR_IO, "a path names a folder where a file is needed")                          \
    X(FILE_READ, GPUSVM_ERROR_IO, "a file could not be read")                                                   \
    X(FILE_WRITE, GPUSVM_ERROR_IO, "a file could not be written; a file that was there is unchanged")           \
    X(BINARY_FILE, GPUSVM_ERROR_PARSE, "a data or model file holds a NUL byte: it is not text")                 \
    X(DATA_EMPTY, GPUSVM_ERROR_PARSE, "a data file has no rows")                                                 \
    X(DATA_SYNTAX, GPUSVM_ERROR_PARSE, "a data file's line is malformed (file:line: what is wrong)")            \
    X(DATA_INDEX0, GPUSVM_ERROR_PARSE,                                                                           \
      "a data file has index 0, and LIBSVM's indices start at 1: a zero-based file (read it with GPUSVM_INDEX0_FEATURE) or a precomputed kernel's serials (GPUSVM_INDEX0_SERIAL)") \
    X(MODEL_SYNTAX, GPUSVM_ERROR_PARSE, "a model file's line is malformed (file:line: what is wrong)")           \
    X(EXPORT, GPUSVM_ERROR_INVALID_ARGUMENT,                                                                     \
      "model export: the name is not a C identifier, the model's kernel is precomputed (nothing to export), or a value is not finite in the export's type")

typedef enum gpusvm_error {
#define GPUSVM__ERROR_ID(id, result, text) GPUSVM_ERR_##id,
    GPUSVM__ERRORS(GPUSVM__ERROR_ID)
#undef GPUSVM__ERROR_ID
    GPUSVM_ERR_COUNT
} gpusvm_error;

typedef enum gpusvm_log_level {
    GPUSVM_LOG_ERROR = 1,
    GPUSVM_LOG_WARN = 2,
    GPUSVM_LOG_INFO = 3,
    GPUSVM_LOG_DEBUG = 4
} gpusvm_log_level;

typedef struct gpusvm_logger {
    void (*fn)(void *user_data, gpusvm_log_level level, const char *message);
    void *user_data;
} gpusvm_logger;

/* Both functions or neither. free receives pointers from alloc only (never NULL). */
typedef struct gpusvm_allocator {
    void *(*alloc)(size_t size, void *user_data);
    void (*free)(void *ptr, void *user_data);
    void *user_data;
} gpusvm_allocator;

typedef enum gpusvm_backend {
    GPUSVM_BACKEND_DEFAULT = 0, /* $GPUSVM_BACKEND, else AUTO */
    GPUSVM_BACKEND_AUTO,        /* an OpenCL GPU or accelerator if one is usable, else the C backend */
    GPUSVM_BACKEND_OPENCL,      /* an OpenCL device, or GPUSVM_ERROR_NO_DEVICE */
    GPUSVM_BACKEND_CPU          /* the built-in plain-C backend */
} gpusvm_backend;

/* Every struct of the API is valid as {0} in C and {} in C++ (none starts with an enum). */
/* How a device keeps the points. AUTO: sparse (their nonzeros in CSR form, device memory
   O(nonzeros)) where that is cheaper than a dense copy or the dense copy would not fit, dense
   (column-major, every feature of every point) elsewhere. */
typedef enum gpusvm_storage {
    GPUSVM_STORAGE_AUTO = 0, /* $GPUSVM_STORAGE (auto, dense, sparse), else the choice above */
    GPUSVM_STORAGE_DENSE,
    GPUSVM_STORAGE_SPARSE
} gpusvm_storage;

/* Dual variables, gradients and their sums on an OpenCL device: double (cl_khr_fp64), or float
   pairs (a double-float: about 48 bits of significand against double's 53, float's exponent
   range; every OpenCL device has it). The C backend always uses double. */
typedef enum gpusvm_fp64 {
    GPUSVM_FP64_DEFAULT = 0, /* $GPUSVM_FP64 (auto, on, off), else AUTO */
    GPUSVM_FP64_AUTO,        /* double where the device has it, else float pairs */
    GPUSVM_FP64_ON,          /* double: a device without cl_khr_fp64 is not used */
    GPUSVM_FP64_OFF          /* float pairs, also where the device has double */
} gpusvm_fp64;

/* One process's part of trainings split across processes (MPI ranks, or any transport the
   caller brings): every part makes the same calls on the same data, holds the kernel rows and
   gradient of its share of each problem's points (part `rank` of `parts`, contiguous), and the
   parts agree on every working set through allgather, so each gets the model one process gives.
   The problems solved whole (at most the working-set size) every part solves alone. Runs on the
   C backend (desc.backend AUTO or CPU), or with desc.backend OPENCL each part on one OpenCL device
   (every part on the same kind of backend, else context creation fails on each, and of device
   memory, else a training whose parts plan different working sets fails on each): there one
   dense problem larger than its working set is split (its share streamed through the device as
   data larger than it is), other batches every part solves whole. parts 0 or 1: no split. */
typedef struct gpusvm_split {
    int parts, rank;
    /* Every part's `bytes` bytes from send into recv, part r's at recv + r * bytes (as
       MPI_Allgather), called by all parts in the same order, from gpusvm_context_create on (the
       parts agree on their backend there); nonzero: it failed, and the call stops with
       GPUSVM_ERROR_IO */
    int (*allgather)(void *user, const void *send, void *recv, size_t bytes);
    void *user;
} gpusvm_split;

typedef struct gpusvm_context_desc {
    const char *device;      /* NULL: $GPUSVM_DEVICE, else automatic (GPU first). An index or a name substring;
                                "all" or a comma-separated list: several devices, as devices */
    gpusvm_backend backend;
    int ignore_environment;  /* nonzero: read no GPUSVM_* variable (GPUSVM_BACKEND, GPUSVM_DEVICE, the kernel
                                cache's folder, threads, storage, ...): only desc decides */
    const char *opencl_library; /* NULL: the system's loader (libOpenCL.so.1, OpenCL.dll, the macOS framework) */
    double device_memory_mb; /* 0: all the device has; else the most gpusvm allocates on it (> 0; negative or NaN:
                                GPUSVM_ERR_DESC_FIELD) */
    gpusvm_allocator allocator;
    gpusvm_logger logger;
    /* Where compiled kernel programs are kept, keyed by device, driver, build options and kernel
       source, so that the next context on that device skips the compiler. NULL: $GPUSVM_CACHE_DIR
       ("off": none; not for PoCL, which keeps its own), else $XDG_CACHE_HOME/gpusvm, else
       $HOME/.cache/gpusvm, those two for GPUs and accelerators only (with ignore_environment:
       none). "": none. A folder named here is used on every device. */
    const char *kernel_cache_dir;
    /* Host threads for the work the host does: reading data files, the C backend's kernel rows
       and gradient updates (the same model bits for any count), the kernels' compiles (up to 4
       at once), and with several GPUs (devices) a thread driving each. 0 = $GPUSVM_THREADS, else
       every core; 1 = the calling thread only.
       Files are read, and several GPUs set up, by several threads only with the default
       allocator (a custom one is never called from more than one thread); the logger is called
       by one thread at a time, not always the calling one. */
    int threads;
    /* Where gpusvm_context_create writes why it failed (NUL-terminated, cut to error_size), for a
       program that has no context to ask and no logger; NULL: nowhere. */
    char *error;
    size_t error_size;
    /* How the OpenCL backend keeps the points on the device (a precomputed kernel matrix is kept
       dense); the C backend always works from the nonzeros. */
    gpusvm_storage storage;
    gpusvm_fp64 fp64; /* double or float pairs on an OpenCL device (see gpusvm_fp64) */
    /* Several OpenCL devices as one context: "all" (every GPU and accelerator) or a
       comma-separated list of indices or name substrings ("0,1,2,3"; a device named twice gets two
       contexts, which its driver may run in turn: NVIDIA's does, where one context's queues run at
       once, the lanes of gpusvm_grid_search). The independent problems of one training call
       (one-vs-one pairs, cross-validation folds) are spread across them, balanced by size, and
       train at the same time, each giving the model it gives on one device; one problem larger
       than its working set whose points are kept dense is split by rows instead (each device a
       share of the points and of every round's rows and gradient update; the working set merged
       from every device's candidates), with the one-device model; Crammer-Singer and prediction
       run on the first. Work too small to pay for more devices runs on the first alone, and the
       others are opened when work first reaches them (see DEVICES). NULL or "": desc.device (which
       takes these forms too) or $GPUSVM_DEVICE. */
    const char *devices;
    gpusvm_split split; /* {0}: one process */
} gpusvm_context_desc;

typedef struct gpusvm_context gpusvm_context;

/* Input matrices are caller-owned and never modified. Dense: rows*cols values, row-major.
   CSR: row_ptr[rows+1] offsets into col_idx/values; column indices 0-based and ascending
   within a row (LIBSVM's feature index i is column i-1). */
typedef enum gpusvm_layout {
    GPUSVM_LAYOUT_DEFAULT = 0, /* dense */
    GPUSVM_LAYOUT_DENSE,
    GPUSVM_LAYOUT_CSR
} gpusvm_layout;

typedef struct gpusvm_matrix {
    size_t rows, cols;
    gpusvm_layout layout;
    const float *values;
    const size_t *row_ptr;
    const int32_t *col_idx;
} gpusvm_matrix;

typedef enum gpusvm_svm_type {
    GPUSVM_SVM_DEFAULT = 0, /* C_SVC */
    GPUSVM_C_SVC,           /* LIBSVM -s 0 */
    GPUSVM_NU_SVC,          /* -s 1 */
    GPUSVM_ONE_CLASS,       /* -s 2 */
    GPUSVM_EPSILON_SVR,     /* -s 3 */
    GPUSVM_NU_SVR,          /* -s 4 */
    GPUSVM_CRAMMER_SINGER   /* -s 5: Crammer and Singer's joint multiclass SVM (no bias); model keyword crammer_singer */
} gpusvm_svm_type;

typedef enum gpusvm_kernel_type {
    GPUSVM_KERNEL_DEFAULT = 0, /* RBF */
    GPUSVM_KERNEL_LINEAR,      /* <x,z>                       (-t 0) */
    GPUSVM_KERNEL_POLY,        /* (gamma <x,z> + coef0)^degree (-t 1) */
    GPUSVM_KERNEL_RBF,         /* exp(-gamma |x-z|^2)           (-t 2) */
    GPUSVM_KERNEL_SIGMOID,     /* tanh(gamma <x,z> + coef0)     (-t 3) */
    GPUSVM_KERNEL_PRECOMPUTED  /* x is the kernel matrix: x[i][k-1] = K(x_i, training point with serial k) (-t 4) */
} gpusvm_kernel_type;

typedef enum gpusvm_gamma_mode {
    GPUSVM_GAMMA_DEFAULT = 0, /* gamma if > 0, else AUTO */
    GPUSVM_GAMMA_VALUE,       /* gamma as given (must be > 0) */
    GPUSVM_GAMMA_AUTO,        /* 1 / number of features (LIBSVM; scikit-learn's 'auto') */
    GPUSVM_GAMMA_SCALE        /* 1 / (number of features * variance of all values) (scikit-learn's 'scale') */
} gpusvm_gamma_mode;

typedef struct gpusvm_progress {
    long long iterations;       /* SMO pair updates so far (LIBSVM's #iter) */
    long long outer_iterations; /* working sets solved so far */
    double gap;                 /* m(alpha) - M(alpha) found by the latest selection, the one training decided on:
                                   it chose the latest working set, or (the last call, made when training ends) it
                                   stopped training, below eps when it converged; with several problems, the
                                   largest among those still running (at the last call, among all).
                                   Crammer-Singer: its relative duality gap */
    double eps;
} gpusvm_progress;

/* Return nonzero to cancel: training then returns GPUSVM_ERROR_CANCELLED. */
typedef int (*gpusvm_progress_fn)(void *user_data, const gpusvm_progress *progress);

/* Zero means default everywhere (LIBSVM's defaults). The model keeps the resolved values. */
typedef struct gpusvm_params {
    double C;                    /* 0: 1 */
    gpusvm_svm_type svm_type;
    gpusvm_kernel_type kernel_type;
    int degree;                  /* 0: 3 */
    double gamma;                /* 0: see gamma_mode */
    gpusvm_gamma_mode gamma_mode;
    double coef0;                /* 0 */
    double eps;                  /* 0: 1e-3, the tolerance of m(alpha) - M(alpha); Crammer-Singer: 0: 0.01, the
                                    relative duality gap 2 (P - D) / (P + D) at which it stops (GTSVM's, Cotter, Srebro and Keshet 2011) */
    double nu;                   /* one-class: 0: 0.5 (LIBSVM's -n), in (0, 1] */
    double p;                    /* epsilon-SVR: 0: 0.1 (LIBSVM's -p), the insensitive zone; for none use a tiny value */
    double cache_size_mb;        /* the budget of each problem's kernel rows in MB (LIBSVM's -m; at least 64 rows
                                    are kept): its working set's and, on a device, the row cache's; 0: the working set
                                    takes its full size (1024 on most GPUs), the fastest choice measured, and the row
                                    cache up to 2048 MB */
    int shrinking;               /* 0 or 1: LIBSVM's shrinking (-h 1) where it applies: the C backend's problems solved
                                    whole (at most the working-set size, or 3072 variables in a batch of several
                                    problems: one-vs-one's pairs, folds, a grid's points); -1: none (-h 0).
                                    Working sets, and devices, never shrink */
    int probability;             /* 1: also fit probability outputs (LIBSVM's -b 1): Platt's sigmoid per pair from an
                                    internal 5-fold cross-validation, the Laplace scale for regression, density
                                    marks for one-class; the folds come from a fixed-seed generator. The pairs'
                                    fits run one after another, on several GPUs a pair a device at once */
    size_t n_weight;             /* per-class weights: C of class weight_label[k] is C * weight[k] */
    const int *weight_label;
    const double *weight;
    const double *sample_weight; /* NULL: 1 for every row; else one finite weight >= 0 per training row,
                                    multiplying C for that row (LIBSVM's instance weights; -W in the CLI) */
    const double *serial;        /* precomputed kernel: each training row's serial number k (LIBSVM's 0:k; column k-1
                                    of x holds the kernel against that row); NULL: row i is serial i+1. The model's
                                    support vectors keep their serials */
    long long max_iter;          /* 0: max(10^7, 100 n), LIBSVM's; counted in SMO pair updates, for each binary
                                    problem on its own (each pair of one-vs-one, each fold) */
    int working_set_size;        /* 0: automatic (up to 1024, a power of two; with OpenCL 512 for problems of
                                    100,000 variables or more; the C backend solves problems of up to 3072 whole
                                    in a batch of several); else 4..1024, rounded down to a
                                    power of two (the selection keeps half of each set, so 2 and 3 are refused) */
    gpusvm_progress_fn progress; /* called after every few working sets; may cancel */
    void *progress_user_data;
} gpusvm_params;

typedef struct gpusvm_train_info {
    long long iterations;        /* SMO pair updates (LIBSVM's #iter) */
    long long outer_iterations;  /* working sets solved */
    int converged;               /* 1: gap < eps; 0: max_iter reached (a warning is logged) */
    double gap;                  /* final m(alpha) - M(alpha) */
    double obj;                  /* dual objective, as LIBSVM prints it */
    double nu;                   /* sum(alpha) / (C n), printed by LIBSVM when Cp == Cn */
    double nu_r;                 /* nu-SVC: the solution is C-SVC's for C = 1/nu_r (LIBSVM prints "C = 1/r");
                                    nu-SVR: the tube it found is epsilon = -nu_r (LIBSVM prints "epsilon = -r") */
    size_t n_sv, n_bsv;          /* support vectors, and those at the upper bound */
    int working_set_size;        /* q used */
    size_t device_bytes;         /* device memory training held (several classes: the largest pair's): the data,
                                    the working set's rows, O(n) vectors; 0 on the C backend */
    size_t device_data_bytes;    /* of which the data and the O(n) vectors (points streamed through the device:
                                    what they would take held there, more than device_bytes) */
    double seconds;              /* wall time of gpusvm_train, the upload included, and the build of any kernel it
                                    is the first to launch (gpusvm_context_build_seconds) */
} gpusvm_train_info;

/* A trained model: plain data. sv_coef is (nr_class-1) rows of total_sv; rho has
   nr_class*(nr_class-1)/2 entries; support vectors are CSR with 0-based columns. */
typedef struct gpusvm_model {
    gpusvm_svm_type svm_type;
    gpusvm_kernel_type kernel_type;
    int degree;
    double gamma, coef0;
    int nr_class;
    size_t total_sv;
    size_t n_features;    /* largest column index used by a support vector, plus one */
    size_t n_columns;     /* the training data's width (a loaded model: n_features); a dense matrix to predict
                             must have at least this many columns */
    int *label;           /* nr_class labels, in LIBSVM's order */
    int *n_sv;            /* support vectors per class */
    double *rho;
    double *sv_coef;
    size_t *sv_row_ptr;   /* total_sv + 1 */
    int32_t *sv_col_idx;
    float *sv_values;
    float *sv_norms;      /* each support vector's squared norm, which the library keeps for prediction (set when
                             it makes or loads a model); NULL: computed at each call. A program that changes
                             the support vectors (sv_row_ptr, sv_col_idx, sv_values) frees this (with the
                             model's allocator) and sets it to NULL: while it is set, a context checks a
                             model's support vectors once, not at every call */
    size_t *sv_indices;   /* each support vector's row in the training data, 0-based (LIBSVM's svm_get_sv_indices
                             gives it plus one); NULL for a loaded model (the file format has no such key) */
    gpusvm_train_info info; /* zero for a loaded model; for several classes, summed over the pairs */
    gpusvm_train_info *pair_info; /* nr_class*(nr_class-1)/2 entries, one per pairwise problem (zero if loaded) */
    /* probability information (params.probability; LIBSVM's model keys), each NULL when absent:
       classification: Platt's sigmoid per pair, P(class i | pair (i,j)) = 1 / (1 + exp(probA dec + probB));
       regression: probA[0] is the scale sigma of the Laplace noise of the targets;
       one-class: 10 density marks on the decision value */
    double *probA, *probB, *prob_density_marks;
    gpusvm_allocator allocator;
} gpusvm_model;

/* A data file in LIBSVM's format: CSR x (0-based columns: LIBSVM's index i is column i-1, or i in
   a zero-based file read with GPUSVM_INDEX0_FEATURE) and labels y. */
typedef struct gpusvm_dataset {
    gpusvm_matrix x;
    double *y;
    double *serial;       /* GPUSVM_INDEX0_SERIAL: per row, the value at index 0 (a precomputed kernel's serial
                             number, 0:i), 0 where a row has none; NULL when no row has index 0 */
    size_t index0_line;   /* GPUSVM_INDEX0_SERIAL: the first line with an index 0 (1-based; 0: none) */
    size_t *row_ptr;
    int32_t *col_idx;
    float *values;
    gpusvm_allocator allocator;
    size_t *line;         /* each row's line in the file (1-based), for messages that name file:line */
} gpusvm_dataset;

/* How a data file's index 0 is read. LIBSVM's indices start at 1; index 0 is a precomputed
   kernel's serial number (0:k, first on each line, LIBSVM's -t 4) or the first feature of a
   zero-based file, and which one a file means cannot be told from the file. */
typedef enum gpusvm_index0 {
    GPUSVM_INDEX0_DEFAULT = 0, /* refused: GPUSVM_ERR_DATA_INDEX0 with file:line (LIBSVM's format) */
    GPUSVM_INDEX0_SERIAL,      /* 0:k first on a line is the row's serial number (dataset->serial), as -t 4 */
    GPUSVM_INDEX0_FEATURE      /* zero-based: index i is column i (scikit-learn's load_svmlight_file(zero_based=True)) */
} gpusvm_index0;

/* What gpusvm_dataset_read reads: a file (path), or text in memory (bytes, size; name stands for
   it in errors, NULL: "data buffer"), and how its index 0 is taken. {0} with a path: LIBSVM's format. */
typedef struct gpusvm_data_desc {
    const char *path;
    const void *bytes;
    size_t size;
    const char *name;
    gpusvm_index0 index0;
} gpusvm_data_desc;

/* Creates a context (NULL desc: all defaults). Thread safety: any thread, at any time; the
   backend's opening runs under the library's process-wide lock (see THREAD SAFETY), so threads
   creating contexts at once wait for each other's device discovery and kernel build. */
GPUSVM_API gpusvm_result gpusvm_context_create(const gpusvm_context_desc *desc, gpusvm_context **out);
/* Releases the context and its device resources (under the same lock). Thread safety: any thread,
   not while another call uses ctx. */
GPUSVM_API void gpusvm_context_destroy(gpusvm_context *ctx);
/* "NAME (platform)" of the chosen device, or the C backend's name. Thread safety: the context's thread. */
GPUSVM_API const char *gpusvm_context_device_name(const gpusvm_context *ctx);
/* GPUSVM_BACKEND_OPENCL or GPUSVM_BACKEND_CPU. Thread safety: the context's thread. */
GPUSVM_API gpusvm_backend gpusvm_context_backend(const gpusvm_context *ctx);
/* What the last failing call on ctx said ("" if none). Thread safety: the context's thread. */
GPUSVM_API const char *gpusvm_context_error(const gpusvm_context *ctx);
/* The id of the last failing call's error on ctx (GPUSVM_ERR_NONE if none): one of the list of
   errors, GPUSVM__ERRORS, which docs/errors.md gives. Thread safety: the context's thread. */
GPUSVM_API gpusvm_error gpusvm_context_error_id(const gpusvm_context *ctx);
/* An error id's name ("GPUSVM_ERR_NULL_ARGUMENT"), what it means, and the result a call returns
   with it; "" and GPUSVM_ERROR_INVALID_ARGUMENT for an id outside the list. Thread safety: any thread. */
GPUSVM_API const char *gpusvm_error_name(gpusvm_error id);
GPUSVM_API const char *gpusvm_error_text(gpusvm_error id);
GPUSVM_API gpusvm_result gpusvm_error_result(gpusvm_error id);
/* The device compiler's log of the kernels built so far, with their options and where each program
   came from ("" if none). */
GPUSVM_API const char *gpusvm_context_build_log(const gpusvm_context *ctx);
/* Seconds the context's kernels took to get ready so far (0 for the C backend); *from_cache (if not
   NULL) is set to 1 when every one was loaded from the kernel cache, 0 when one was compiled. */
GPUSVM_API double gpusvm_context_build_seconds(const gpusvm_context *ctx, int *from_cache);
/* A constant string for a result code. Thread safety: any thread. */
GPUSVM_API const char *gpusvm_result_string(gpusvm_result result);

#ifndef GPUSVM_PREDICT_ONLY /* training: left out of a build that only predicts */
/* Trains a model on x (rows points) and labels y. params NULL: defaults. On success *out is a
   new model (free with gpusvm_model_free). Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_train(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                      const gpusvm_params *params, gpusvm_model **out);
/* Checks params against the data as gpusvm_train would, without training (LIBSVM's
   svm_check_parameter): the data, every field's range, the labels of a classification, and for
   nu-SVC that nu is feasible for every pair of classes, nu (n_i + n_j) / 2 <= min(n_i, n_j) on the
   class counts, as LIBSVM checks it (gpusvm_train also weighs in class and sample weights).
   GPUSVM_OK, or the error gpusvm_train would give, its message on the context; what only the
   solution shows is left to training (nu-SVC's GPUSVM_ERR_NU_DEGENERATE, GPUSVM_ERR_NOT_FINITE,
   the device's memory, a cancelled progress), and with probability = 1 nu-SVC's internal folds,
   each of which may be infeasible (GPUSVM_ERR_NU_INFEASIBLE) where the whole data is not. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_check_params(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                             const gpusvm_params *params);
/* n-fold cross-validation, as LIBSVM's svm_cross_validation: for classification the folds are
   stratified by class, otherwise contiguous after a shuffle; the shuffle is a fixed-seed
   generator, so the folds are the same run to run. target[i] receives the prediction for row i
   made by the model trained without i's fold. nr_fold >= 2 (more folds than rows: one row each).
   Every fold trains at once (one batch on the device; on a context of several GPUs the batch is
   spread across them, Crammer-Singer's folds in shares, a batch a device).
   Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_cross_validation(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                                 const gpusvm_params *params, int nr_fold, double *target);
/* Cross-validation over a grid of (C, gamma), as LIBSVM's grid.py runs it point by point:
   rate[g * nC + c] is the nr_fold cross-validation accuracy in percent (mean squared error for
   epsilon-SVR and nu-SVR) with C = C[c] and gamma = gamma[g], on gpusvm_cross_validation's folds.
   C NULL or nC 0: params' C alone (one column), gamma likewise (one row). On one GPU, where a
   point's problems are large (49,152 variables a point or more: its folds' training rows, times
   k - 1 for k classes), each point trains its folds as one batch on a lane of the device (up to 8
   lanes: command queues side by side on the context, a host thread each, the points taken
   largest C first; GPUSVM_LANES=n sets the count whatever the size, 1 none), so that no point
   waits for the slowest problem of the grid. Otherwise, for C-SVC, every point trains as one
   batch (nC x ngamma x nr_fold problems, or their pairs, on one copy of the points, each problem
   with its own C and gamma); the other types point by point. On a context of several GPUs the
   points are dealt out (in the same order, a share a device), each device's as one batch (a point
   a job for the other types), where the grid's work pays for them (see DEVICES; else it runs as
   on the first device alone, its lanes included). Neither lanes nor devices with a progress callback or a custom
   allocator (then one batch, shared among the devices), nor lanes on a CPU device unless
   GPUSVM_LANES asks. The rates are the same whichever way the points run. A negative nC or ngamma,
   or more than INT_MAX points, is GPUSVM_ERR_GRID_VALUE. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_grid_search(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                            const gpusvm_params *params, int nr_fold, const double *C, int nC,
                                            const double *gamma, int ngamma, double *rate);
#endif /* GPUSVM_PREDICT_ONLY */
/* Decision values and/or predicted labels for x; either output may be NULL. Decision values:
   gpusvm_model_decision_count(model) per row, row-major: nr_class*(nr_class-1)/2 for C-SVC and
   nu-SVC (the pairs in LIBSVM's order), nr_class for Crammer-Singer (each class's response), one
   otherwise. A few points are computed on the host (no device round trip), more on the
   device. Thread safety: the context's thread; the model may be shared read-only. */
GPUSVM_API gpusvm_result gpusvm_predict(gpusvm_context *ctx, const gpusvm_model *model,
                                        const gpusvm_matrix *x, double *labels, double *decision_values);
/* Probability estimates, as LIBSVM's svm_predict_probability, for a model trained with
   params.probability = 1: prob receives nr_class values per row (row-major, in model->label's
   order; one-class: P(normal), P(outlier)) and labels the most probable class (one-class: the
   sign of the decision value). Classification couples the pairwise sigmoids by Wu, Lin and
   Weng's method. Regression models have no per-row probabilities (their Laplace scale is
   model->probA[0]): GPUSVM_ERROR_INVALID_ARGUMENT. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_predict_probability(gpusvm_context *ctx, const gpusvm_model *model,
                                                    const gpusvm_matrix *x, double *labels, double *prob);
/* A model prepared for predicting one point at a time on the host, as a game does each frame:
   gpusvm_predictor_create checks the model and allocates what prediction needs (with the context's
   allocator), and gpusvm_predictor_predict then needs no context and allocates nothing. It writes
   the label (the value for SVR, +1/-1 for one-class), the same as gpusvm_predict's for that point,
   to *label, and to decision_values what gpusvm_predict's would (gpusvm_model_decision_count
   values; either may be NULL: not wanted). x holds n features, dense: those the model has beyond
   n are 0; those past the model's features still count in |x|^2, so they change an RBF kernel's
   values as in LIBSVM (and add nothing to <x,z>); for a precomputed kernel, x[k-1] = K(x, training
   point k). GPUSVM_ERROR_INVALID_ARGUMENT, and nothing written, for a NULL predictor, a NULL x
   with n > 0, or a NaN or infinite x[i] (as gpusvm_predict refuses them); the check costs n
   comparisons. The model must outlive the predictor, unchanged; a predictor is used by one
   thread at a time (make one per thread). */
typedef struct gpusvm_predictor gpusvm_predictor;
GPUSVM_API gpusvm_result gpusvm_predictor_create(gpusvm_context *ctx, const gpusvm_model *model,
                                                 gpusvm_predictor **out);
GPUSVM_API gpusvm_result gpusvm_predictor_predict(gpusvm_predictor *predictor, const float *x, size_t n,
                                                  double *label, double *decision_values);
GPUSVM_API void gpusvm_predictor_free(gpusvm_predictor *predictor);
/* Writes LIBSVM's model format ("C" numbers) to path as gpusvm_write_file does: an existing model
   is never left half-written; "-" is standard output. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_model_save(gpusvm_context *ctx, const gpusvm_model *model, const char *path);
/* The model file's text in memory: *bytes (size bytes, NUL-terminated) is allocated with the
   context's allocator; free it with gpusvm_free. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_model_save_buffer(gpusvm_context *ctx, const gpusvm_model *model, char **bytes,
                                                  size_t *size);
#ifndef GPUSVM_PREDICT_ONLY
/* The model as C source, one header: const arrays (support vectors in float, dense or sparse by
   what is smaller; coefficients, rho, labels, the pairs' probA / probB) and static functions
   name_predict, name_decision and (C-SVC, nu-SVC with -b 1) name_predict_probability that
   allocate nothing and need no stdio, no OpenCL and (use_double 0) no double arithmetic; every
   name starts with name (a C identifier), so several models go in one program. *text (size
   bytes, NUL-terminated) is allocated with the context's allocator; free it with gpusvm_free.
   Not for precomputed-kernel models. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_model_to_c(gpusvm_context *ctx, const gpusvm_model *model, const char *name,
                                           int use_double, char **text, size_t *size);
#endif
/* Reads a LIBSVM model file. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_model_load(gpusvm_context *ctx, const char *path, gpusvm_model **out);
/* Reads a model from memory (a model file's bytes, e.g. embedded in a program); errors name
   "model buffer:line". Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_model_load_buffer(gpusvm_context *ctx, const void *bytes, size_t size,
                                                  gpusvm_model **out);
/* A deep copy of a model (every array, the training information too), made with the context's
   allocator; free it with gpusvm_model_free. Thread safety: the context's thread (the source may
   be read by others meanwhile). */
GPUSVM_API gpusvm_result gpusvm_model_copy(gpusvm_context *ctx, const gpusvm_model *model, gpusvm_model **out);
/* The primal form of a linear model's decision function `decision` (0 .. nr_class*(nr_class-1)/2 - 1
   in LIBSVM's pair order for one-vs-one, the class for Crammer-Singer, 0 otherwise): w[0..n) (the
   features past n are left out) and *bias (NULL: not wanted), so that its decision value is
   w.x + bias, as gpusvm_predict's (up to rounding: w is summed in double). GPUSVM_ERROR_INVALID_ARGUMENT
   for another kernel or a decision function the model lacks. Thread safety: any thread. */
GPUSVM_API gpusvm_result gpusvm_model_linear_weights(const gpusvm_model *model, int decision, double *w, size_t n,
                                                     double *bias);
/* The decision values a row of gpusvm_predict (and gpusvm_predictor_predict) gives for this model:
   nr_class*(nr_class-1)/2 for C-SVC and nu-SVC (0 with one class), nr_class for Crammer-Singer
   (0 with one class), 1 for one-class and regression; 0 for NULL. Thread safety: any thread. */
GPUSVM_API size_t gpusvm_model_decision_count(const gpusvm_model *model);
/* Frees a model (NULL is fine). Thread safety: any thread, once. */
GPUSVM_API void gpusvm_model_free(gpusvm_model *model);
/* Reads a LIBSVM data file ("label index:value ..."); malformed input gives GPUSVM_ERROR_PARSE
   with "file:line: reason" on the context. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_dataset_load(gpusvm_context *ctx, const char *path, gpusvm_dataset **out);
/* Parses LIBSVM data from memory; name (NULL: "data buffer") stands for the file in errors
   ("name:line: reason"). Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_dataset_parse(gpusvm_context *ctx, const void *bytes, size_t size, const char *name,
                                              gpusvm_dataset **out);
/* Reads LIBSVM data as desc says (a file or memory; index 0 refused, a precomputed kernel's
   serial number, or zero-based). gpusvm_dataset_load and gpusvm_dataset_parse are this with
   index0 GPUSVM_INDEX0_DEFAULT: a file with an index 0 is refused with file:line
   (GPUSVM_ERR_DATA_INDEX0), never read with feature 0 lost. Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_dataset_read(gpusvm_context *ctx, const gpusvm_data_desc *desc, gpusvm_dataset **out);
/* Frees a dataset (NULL is fine). Thread safety: any thread, once. */
GPUSVM_API void gpusvm_dataset_free(gpusvm_dataset *dataset);
/* Writes size bytes to path without ever leaving it half-written: a regular file (or a new one)
   is written to a temporary file in its folder and renamed over it (an existing file keeps its
   permissions; a symlink is followed and its target replaced); a device node, a FIFO or "-"
   (standard output) is written directly. Errors: GPUSVM_ERROR_IO naming the path (and, for a
   folder that cannot be written, the folder). Thread safety: the context's thread. */
GPUSVM_API gpusvm_result gpusvm_write_file(gpusvm_context *ctx, const char *path, const void *bytes, size_t size);
/* Frees memory the library allocated for the caller (gpusvm_model_save_buffer's text) with the
   context's allocator (NULL is fine). Thread safety: the context's thread. */
GPUSVM_API void gpusvm_free(gpusvm_context *ctx, void *p);

#ifdef __cplusplus
}
#endif
#endif /* GPUSVM_H */

/* ======================================================================== */
/*                            IMPLEMENTATION                                */
/* ======================================================================== */
#ifdef GPUSVM_IMPLEMENTATION
#ifndef GPUSVM_IMPLEMENTATION_ONCE
#define GPUSVM_IMPLEMENTATION_ONCE
/* A build that only predicts (GPUSVM_PREDICT_ONLY): nothing refers to the trainer's functions, so
   the compiler leaves them out of the object; they are still defined, so their warning is off. */
#ifdef GPUSVM_PREDICT_ONLY
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#elif defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4505)
#endif
#endif

/* >>config ----------------------------------------------------------------- */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <math.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <errno.h>
#include <ctype.h>

#if defined(GPUSVM_MALLOC) && !defined(GPUSVM_FREE)
#error "gpusvm: define both GPUSVM_MALLOC and GPUSVM_FREE, or neither"
#endif
#if defined(GPUSVM_FREE) && !defined(GPUSVM_MALLOC)
#error "gpusvm: define both GPUSVM_MALLOC and GPUSVM_FREE, or neither"
#endif
#ifndef GPUSVM_MALLOC
#define GPUSVM_MALLOC(sz) malloc(sz)
#define GPUSVM_FREE(p) free(p)
#endif

#if defined(_WIN32)
#define GPUSVM__WINDOWS 1
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifndef GPUSVM_NO_OPENCL
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h> /* types only: the functions are looked up at run time */
#include <sched.h>   /* sched_yield, in the C library */
#endif
/* Strict ISO C (-std=c99 with no feature macro, which gpusvm leaves to the program) hides
   POSIX.1-2001's declarations in the system headers, and so does an older POSIX level
   (-pthread defines _REENTRANT, which glibc takes as _POSIX_C_SOURCE 199506L); the functions are
   in the C library all the same, so the few the implementation calls are declared here where the
   headers did not (glibc says which through its __USE_ macros; elsewhere _POSIX_C_SOURCE). */
#if defined(__GLIBC__) && !defined(__cplusplus)
#if !defined(__USE_XOPEN2K) && !defined(__USE_XOPEN_EXTENDED)
#define GPUSVM__DECLARE_POSIX 1
#endif
#elif !defined(__cplusplus) && (!defined(_POSIX_C_SOURCE) || _POSIX_C_SOURCE < 200112L)
#define GPUSVM__DECLARE_POSIX 1
#endif
#ifdef GPUSVM__DECLARE_POSIX
extern int lstat(const char *path, struct stat *buf);
extern ssize_t readlink(const char *path, char *buf, size_t size);
#endif
#if defined(__linux__) && !defined(CLOCK_MONOTONIC) && !defined(__cplusplus)
#define GPUSVM__STRICT_POSIX 1 /* no CLOCK_MONOTONIC declared: clock_gettime's own, below */
struct gpusvm__timespec {
    long tv_sec, tv_nsec;
};
extern int clock_gettime(int clock, struct gpusvm__timespec *ts);
#endif
#endif

/* The constants, tunables and kernel-argument lists the kernels share: the text of
   kernels/00_shared.h, pasted here by tools/embed_kernels.c ('make kernels'). */
// >>shared
/* gpusvm: the definitions the host and the kernels share, valid as C and as
 * OpenCL C. tools/embed_kernels.c pastes this file into the kernel program
 * (before the .cl files) and into gpusvm.h's implementation (the block marked
 * ">>shared"), so each fact below is written once.
 *
 * Tunables are #ifndef defaults: the host passes its own values to the
 * kernel build as -D options from one table (gpusvm__ocl_options), and the
 * values here are what the host uses itself. */
#ifndef GPUSVM__SHARED_H
#define GPUSVM__SHARED_H

/* ---- tunables ---------------------------------------------------------- */
#ifndef GPUSVM__Q
#define GPUSVM__Q 1024 /* working-set capacity: the largest working set (power of two) */
#endif
#ifndef GPUSVM__L
#define GPUSVM__L 256 /* local size of the single-work-group kernels (power of two) */
#endif
#if GPUSVM__L > 256 /* 512 and 1024 built but trained other models (seen on an H100): not supported */
#error "GPUSVM__L is at most 256"
#endif
#ifndef GPUSVM__SMO_L
#define GPUSVM__SMO_L GPUSVM__L /* local size of gpusvm_smo (the host passes its choice: gpusvm__ocl_smo_l) */
#endif
#ifndef GPUSVM__SMO_WIDE
#define GPUSVM__SMO_WIDE 512 /* gpusvm_smo's local size with warp exchanges (at most 1024: 32 warps) */
#endif
#ifndef GPUSVM__CS_L
#define GPUSVM__CS_L 256 /* local size of gpusvm_cs_solve (power of two) */
#endif
#define GPUSVM__CS_RESP_CLASSES 4 /* classes per work-item of gpusvm_cs_resp */
#define GPUSVM__KEYS_WI 4         /* variables per work-item of gpusvm_keys */
/* gpusvm_rows_tiled: a work-group of TILE_WI x TILE_WI work-items computes a TILE x TILE block
 * (rows of the index set x points), each work-item TILE_ACC x TILE_ACC of it (TILE / TILE_WI),
 * staging FEAT_CHUNK features at a time; every feature count is padded to a multiple of it */
#define GPUSVM__TILE_WI 16
#define GPUSVM__TILE 128
#define GPUSVM__TILE_ACC 8
#define GPUSVM__FEAT_CHUNK 16
#define GPUSVM__FEW 8          /* at most this many rows: gpusvm_rows_few */
#define GPUSVM__FEW_L 256      /* gpusvm_rows_few's work-group: one point per work-item */
#define GPUSVM__FEW_FEAT 256   /* gpusvm_rows_few: features staged per chunk */
#define GPUSVM__FEW_AHEAD 32   /* gpusvm_rows_few: features loaded ahead */
#define GPUSVM__NARROW_D 32    /* gpusvm_rows_narrow: at most this many (padded) features */
#ifndef GPUSVM__NARROW_ROWS
#define GPUSVM__NARROW_ROWS 128 /* gpusvm_rows_narrow: rows per work-group (a power of 2, at least 4) */
#endif
#define GPUSVM__NARROW_L 256   /* gpusvm_rows_narrow's work-group: one point per work-item */
/* gpusvm_rows_narrow's local memory with nr rows a work-group: their features and row data; the
 * host halves GPUSVM__NARROW_ROWS to fit the device */
#define GPUSVM__NAR_LOCAL(nr) ((size_t)(nr) * (4 * GPUSVM__NARROW_D + 12))
#define GPUSVM__PITCH 64 /* point pitch of the column-major copies and of kernel rows: a multiple of this */
#define GPUSVM__COPY_L 64 /* work-group of the copy kernels (gpusvm_gather_ws, gpusvm_scatter, gpusvm_fill) */
#define GPUSVM__SPARSE_L 256     /* gpusvm_rows_sparse's work-group */
#define GPUSVM__SPARSE_LANES 8   /* gpusvm_rows_sparse: work-items per point */
#define GPUSVM__SPARSE_ROWS 8    /* gpusvm_rows_sparse: rows per work-group */
#ifndef GPUSVM__SPARSE_BLOCKS
#define GPUSVM__SPARSE_BLOCKS 16 /* gpusvm_rows_sparse: blocks of SPARSE_L / SPARSE_LANES points per work-group */
#endif
#define GPUSVM__SPARSE_AHEAD 4   /* gpusvm_rows_sparse: nonzeros a work-item loads ahead */
#ifndef GPUSVM__SPARSE_HASH_LOG
#define GPUSVM__SPARSE_HASH_LOG 10 /* gpusvm_rows_sparse: 2^this slots in the rows' hash table in local memory */
#endif
#define GPUSVM__SPARSE_HASH (1 << GPUSVM__SPARSE_HASH_LOG)
#define GPUSVM__SPARSE_ENTRIES (GPUSVM__SPARSE_HASH / 2) /* row entries per pass (the table at most half full) */
#define GPUSVM__SPARSE_SUM_ROWS 2 /* without warp exchanges: rows per step of the lanes' sums */
/* gpusvm_rows_sparse's local memory with 2^sh_log slots: the table's keys and values, and (without
 * warp exchanges) GPUSVM__SPARSE_SUM_ROWS rows of the lanes' sums in double; the host lowers
 * GPUSVM__SPARSE_HASH_LOG to fit the device */
#define GPUSVM__SP_LOCAL(sh_log) \
    ((4 + 4 * GPUSVM__SPARSE_ROWS) * ((size_t)1 << (sh_log)) + GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS * 8)
/* gpusvm_smo's local memory: per working-set position (up to GPUSVM__Q) its published alpha,
 * gradient and bound (wide words of 8 bytes), diagonal and i-row value (floats) and label (a
 * char); per work-item of the reductions without warp exchanges four scores of at most 8 bytes
 * and two indices (with them, at most 52 bytes a warp, 1664 in all, within GPUSVM__SMO_SPARE and
 * the work-items' bytes). The host halves GPUSVM__Q until GPUSVM__SMO_LOCAL fits the device;
 * part 3 checks its arrays against these sizes when it compiles. */
#define GPUSVM__SMO_POS_BYTES (3 * 8 + 2 * 4 + 1)
#define GPUSVM__SMO_ITEM_BYTES (4 * 8 + 2 * 4)
#define GPUSVM__SMO_SPARE 1024
#define GPUSVM__SMO_LOCAL(q) \
    ((size_t)(q) * GPUSVM__SMO_POS_BYTES + (size_t)GPUSVM__L * GPUSVM__SMO_ITEM_BYTES + GPUSVM__SMO_SPARE)
/* The selection's radix passes count digits into GPUSVM__SEL_BINS bins; one selection's scratch
 * (gpusvm_sel_scratch, part 2: the bins and seven words) is GPUSVM__SEL_SCRATCH bytes, in local
 * memory, or one per problem in global memory for the selection over the grid. */
#define GPUSVM__SEL_BINS 2048
#define GPUSVM__SEL_SCRATCH ((GPUSVM__SEL_BINS + 7) * 4)
/* gpusvm_cs_solve's local memory for working-set size q and m classes: the q x q block of kernel
 * values (floats, kws); the set's responses (q x m wide words, cws); and scr, wide words:
 * GPUSVM__CS_SCR_ROWS rows of m (D, D - Ub, Ub, alpha, the step, the candidates' theta, the
 * violation's terms), the set's alpha (q x m), its points' bounds, diagonals and classes (q each);
 * beside them its own list of the set's points (GPUSVM__Q ints). */
#define GPUSVM__CS_SCR_ROWS 7
#define GPUSVM__CS_KWS_BYTES(q) ((size_t)(q) * (size_t)(q) * 4)
#define GPUSVM__CS_CWS_BYTES(q, m) ((size_t)(q) * (size_t)(m) * 8)
#define GPUSVM__CS_SCR_BYTES(q, m) (((size_t)(GPUSVM__CS_SCR_ROWS + (q)) * (size_t)(m) + 3 * (size_t)(q)) * 8)
#define GPUSVM__CS_LOCAL(q, m) \
    (GPUSVM__CS_KWS_BYTES(q) + GPUSVM__CS_CWS_BYTES(q, m) + GPUSVM__CS_SCR_BYTES(q, m) + (size_t)GPUSVM__Q * 4)

/* ---- kernel types, as LIBSVM's -t option (the public enum minus one) ---- */
#define GPUSVM__K_LINEAR 0
#define GPUSVM__K_POLY 1
#define GPUSVM__K_RBF 2
#define GPUSVM__K_SIGMOID 3
#define GPUSVM__K_PRECOMPUTED 4

/* ---- the status vector: GPUSVM__ST_COUNT doubles per problem ------------ */
#define GPUSVM__ST_GAP 0   /* m(alpha) - M(alpha) of the last selection */
#define GPUSVM__ST_DONE 1  /* one of GPUSVM__DONE_* */
#define GPUSVM__ST_ITER 2  /* SMO pair updates so far (LIBSVM's #iter) */
#define GPUSVM__ST_OUTER 3 /* outer iterations so far */
#define GPUSVM__ST_MUP 4   /* max of -y*G over I_up */
#define GPUSVM__ST_MLOW 5  /* min of -y*G over I_low */
#define GPUSVM__ST_INNER 6 /* pair updates of the last inner solve */
#define GPUSVM__ST_COUNT 8
/* Crammer-Singer (kernels part 5) keeps GAP (the relative duality gap), DONE, ITER (block steps
 * that moved) and OUTER, and uses the rest for its own: */
#define GPUSVM__ST_CS_P 4     /* the primal objective */
#define GPUSVM__ST_CS_D 5     /* the dual objective */
#define GPUSVM__ST_CS_Q 6     /* points in the current working set */
#define GPUSVM__ST_CS_MOVED 7 /* working-set points whose coefficients the last sweeps changed */

/* ---- Crammer-Singer's problem table: GPUSVM__CI_COUNT ints per problem ---
 * A batch (cross-validation folds) shares the points as the binary batches do (part 0's
 * problem table gives each one's map, rows and row list); per-point arrays (classes, bounds,
 * diagonal, the cache's map) are the problems' concatenated, alpha and c too (n x m each). */
#define GPUSVM__CI_VAR 0 /* its first point in the per-point arrays */
#define GPUSVM__CI_N 1   /* its points */
#define GPUSVM__CI_M 2   /* its classes */
#define GPUSVM__CI_A 3   /* its first coefficient in alpha and c */
#define GPUSVM__CI_COUNT 4

/* GPUSVM__ST_DONE: every kernel skips a problem that is not running */
#define GPUSVM__DONE_RUNNING 0
#define GPUSVM__DONE_CONVERGED 1 /* the gap fell below eps */
#define GPUSVM__DONE_MAX_ITER 2  /* max_iter pair updates reached */
#define GPUSVM__DONE_STALLED 3   /* stopped by the host: no progress */
/* The stopping rule (LIBSVM's, and Crammer-Singer's on its relative gap): converged once the gap
 * is not >= eps (a NaN gap stops too), else out of pair updates once iter >= max_iter, else
 * running. ge(a, b) is a >= b in the caller's arithmetic (GPUSVM__GE: double on the host; the
 * kernels' wide words, double or float pairs). */
#define GPUSVM__STOP_RULE(ge, gap, eps, iter, max_iter)                                              \
    (!ge(gap, eps) ? GPUSVM__DONE_CONVERGED : ge(iter, max_iter) ? GPUSVM__DONE_MAX_ITER : GPUSVM__DONE_RUNNING)
#define GPUSVM__GE(a, b) ((a) >= (b))

/* ---- the problem table of a batch: GPUSVM__PI_COUNT ints per problem -----
 * A batch: binary problems that share one uploaded set of points and are
 * solved together, one work-group (or one slice of the grid) per problem in
 * every launch. Per-variable arrays (alpha, G, y, C, the diagonal, the keys)
 * are the problems' concatenated; problem p's working set sits at p * qmax,
 * its kernel rows in slots p * qmax .., its partials at p * 2 * nparts_max,
 * its status at p * GPUSVM__ST_COUNT. */
#define GPUSVM__PI_VAR 0    /* its first variable in the concatenated arrays */
#define GPUSVM__PI_NVAR 1   /* its variables */
#define GPUSVM__PI_PT 2     /* its first point in the map */
#define GPUSVM__PI_NPTS 3   /* its points: the columns of its kernel rows */
#define GPUSVM__PI_Q 4      /* its working-set size */
#define GPUSVM__PI_WHOLE 5  /* 1: the working set is every variable */
#define GPUSVM__PI_NPARTS 6 /* work-groups of gpusvm_keys over its variables */
#define GPUSVM__PI_SPLIT 7  /* variables from here on are the points again */
#define GPUSVM__PI_LO 8     /* its points [LO, HI) are this device's share: only their variables are */
#define GPUSVM__PI_HI 9     /* candidates (a problem split by rows; else 0 and NPTS) */
#define GPUSVM__PI_GAMMA 10 /* its kernel's gamma, the float's bits (a grid's problems differ in it) */
#define GPUSVM__PI_COUNT 11

/* ---- the sides of a selection (kernels part 2's gpusvm_select) ------------
 * Side s takes, from I_up or I_low (LOW), of one class or any (CLS: +1, -1, 0),
 * the most violating points not yet chosen until UPTO of the fresh ones are:
 * without nu I_up, I_low, I_up again; with nu I_up and I_low of y = +1, then of
 * y = -1, then of either class. (The host's merge of a split problem too.) */
#define GPUSVM__SIDES(nu) ((nu) ? 6 : 3)
#define GPUSVM__SIDE_LOW(s, nu) ((nu) ? ((s) & 1) : ((s) == 1))
#define GPUSVM__SIDE_CLS(s, nu) ((!(nu) || (s) >= 4) ? 0 : ((s) < 2 ? 1 : -1))
#define GPUSVM__SIDE_UPTO(s, nu, fresh) \
    (!(nu) ? ((s) == 0 ? (fresh) / 2 : (fresh)) : ((s) < 4 ? ((s) + 1) * (fresh) / 4 : (fresh)))

/* ---- a split problem's report (kernels part 2's gpusvm_cands) -------------
 * A problem split by rows across devices or processes: each holds the gradient of
 * its share of the points only, so each reports, in 64-bit words, its status row;
 * m and M per class over its share (up 0, up 1, low 0, low 1); the working set's
 * variables, slots and, where its share holds them, gradients (q words each); then
 * GPUSVM__CO_LISTS lists of candidates, each a count and up to q composite keys
 * (key << 32 | variable) with their gradients: I_up and I_low (with nu: of y = +1,
 * then of y = -1), each the q - h smallest of its share, where h is the half kept.
 * The host merges every part's report into the working set one device chooses. */
#define GPUSVM__CO_ENDS GPUSVM__ST_COUNT
#define GPUSVM__CO_IDX (GPUSVM__CO_ENDS + 4)
#define GPUSVM__CO_SLOT(q) (GPUSVM__CO_IDX + (q))
#define GPUSVM__CO_G(q) (GPUSVM__CO_IDX + 2 * (q))
#define GPUSVM__CO_LISTS 4
#define GPUSVM__CO_LIST(q, l) (GPUSVM__CO_IDX + 3 * (q) + (l) * (1 + 2 * (q)))
#define GPUSVM__CO_WORDS(q) GPUSVM__CO_LIST(q, GPUSVM__CO_LISTS)
/* list l of a report: its keys (1: I_low), its class (0: any); how many lists */
#define GPUSVM__CO_NLISTS(nu) ((nu) ? 4 : 2)
#define GPUSVM__CO_LOW(l) ((l) & 1)
#define GPUSVM__CO_CLS(l, nu) ((nu) ? ((l) < 2 ? 1 : -1) : 0)

/* The row cache's state of a problem (kernels part 1c): these words, then each slot's owner,
 * then the round that last used each slot. */
#define GPUSVM__RC_HAND 0     /* the next slot a miss may take */
#define GPUSVM__RC_REUSED 1   /* new working-set rows found held, so far */
#define GPUSVM__RC_COMPUTED 2 /* rows computed, so far */
#define GPUSVM__RC_ROUND 3    /* the last round */
#define GPUSVM__RC_HEAD 4

/* "no candidate" sort key: larger than every real key */
#define GPUSVM__KEY_NONE 0xFFFFFFFFu
/* LIBSVM's tau: the curvature used where the kernel is not positive definite */
#define GPUSVM__TAU 1e-12

/* The point a variable stands for: epsilon-SVR has two variables per point
 * (alpha and alpha*), 0..npts-1 and npts..2*npts-1; every other problem one. */
#ifdef __OPENCL_VERSION__
#define GPUSVM__IDX int
#else
#define GPUSVM__IDX size_t
#endif
#define GPUSVM__PT(v, npts) \
    ((GPUSVM__IDX)(v) >= (GPUSVM__IDX)(npts) ? (GPUSVM__IDX)(v) - (GPUSVM__IDX)(npts) : (GPUSVM__IDX)(v))

/* ---- the kernels and their arguments ------------------------------------
 * GPUSVM__KERNELS: every kernel of the program, the work-group size it needs,
 * its argument list, and its part: the kernels of a part are built together as
 * one program (kernels part 0: GPUSVM_K_<part> guards their definitions), the
 * copies and each step's family, which always run together.
 * GPUSVM__ARGS_*: each kernel's parameters, as
 * X_(kernel, type, name) separated by S_(). The kernels declare their
 * parameters from these lists; the host names each argument slot from the
 * same list (GPUSVM__A_ROWS_K, ...) and checks each kernel's argument count
 * when it builds the program. */
#define GPUSVM__KERNELS(X)                                                                              \
    X(ROWS, "gpusvm_rows_tiled", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS, ROWS)                                      \
    X(ROWS_FEW, "gpusvm_rows_few", GPUSVM__FEW_L, ROWS, ROWS_FEW)                                          \
    X(ROWS_NARROW, "gpusvm_rows_narrow", GPUSVM__NARROW_L, ROWS, ROWS_NARROW)                                    \
    X(ROWS_SPARSE, "gpusvm_rows_sparse", GPUSVM__SPARSE_L, ROWS_SPARSE, ROWS_SPARSE)                             \
    X(ROW_CACHE, "gpusvm_row_cache", GPUSVM__L, ROW_CACHE, ROW_CACHE)                                      \
    X(GATHER_WS, "gpusvm_gather_ws", GPUSVM__COPY_L, GATHER_WS, COPY)                                      \
    X(SCATTER, "gpusvm_scatter", GPUSVM__COPY_L, SCATTER, COPY)                                            \
    X(FILL, "gpusvm_fill", GPUSVM__COPY_L, FILL, COPY)                                                     \
    X(KEYS, "gpusvm_keys", GPUSVM__L, KEYS, KEYS) X(SELECT, "gpusvm_select", GPUSVM__L, SELECT, SELECT)    \
    X(CHECK, "gpusvm_check", GPUSVM__L, SELECT, CHECK)                                                     \
    X(SEL_HIST, "gpusvm_sel_hist", GPUSVM__L, SEL, SEL) X(SEL_TIES, "gpusvm_sel_ties", GPUSVM__L, SEL, SEL) \
    X(SEL_TAKE, "gpusvm_sel_take", GPUSVM__L, SEL, SEL)                                                    \
    X(GATHER, "gpusvm_gather_block", GPUSVM__L, GATHER, COPY) X(SMO, "gpusvm_smo", GPUSVM__L, SMO, SMO)    \
    X(UPDATE, "gpusvm_update", GPUSVM__L, UPDATE, UPDATE)                                                  \
    X(ROWS_UPD, "gpusvm_rows_update", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS_UPD, ROWS_UPD)                         \
    X(CANDS, "gpusvm_cands", GPUSVM__L, CANDS, SPLIT) X(WS_PUT, "gpusvm_ws_put", GPUSVM__L, WS_PUT, SPLIT) \
    X(CS_RESP, "gpusvm_cs_resp", GPUSVM__L, CS_RESP, CS)                                                   \
    X(CS_UPDATE, "gpusvm_cs_update", GPUSVM__L, CS_UPDATE, CS)                                             \
    X(CS_SELECT, "gpusvm_cs_select", GPUSVM__L, CS_SELECT, CS)                                             \
    X(CS_SOLVE, "gpusvm_cs_solve", GPUSVM__CS_L, CS_SOLVE, CS)

/* gpusvm_rows_tiled, gpusvm_rows_few and gpusvm_rows_narrow (kernels part 1) */
#define GPUSVM__ARGS_ROWS(X_, S_)                                                                       \
    X_(ROWS, __global const float *, A) S_() X_(ROWS, int, pitch_a) S_()                                \
    X_(ROWS, __global const int *, idx) S_() X_(ROWS, __global const float *, norm_a) S_()              \
    X_(ROWS, __global const float *, B) S_() X_(ROWS, int, pitch_b) S_()                                \
    X_(ROWS, __global const float *, norm_b) S_() X_(ROWS, __global const int *, pinfo) S_()            \
    X_(ROWS, __global const int *, map) S_() X_(ROWS, int, use_map) S_() X_(ROWS, int, dpad) S_()       \
    X_(ROWS, __global const int *, slot) S_() X_(ROWS, int, row_off) S_() X_(ROWS, int, nrows) S_()     \
    X_(ROWS, int, skip_whole) S_() X_(ROWS, __global float *, K) S_() X_(ROWS, int, ldk) S_()           \
    X_(ROWS, int, qmax) S_() X_(ROWS, int, ktype) S_() X_(ROWS, float, coef0) S_() \
    X_(ROWS, int, degree) S_() X_(ROWS, __global const gpusvm_wbits *, status) S_() X_(ROWS, int, a_pos) S_()   \
    X_(ROWS, int, self) S_() X_(ROWS, int, b_mode) S_() X_(ROWS, int, b_off) S_() X_(ROWS, int, b_end)

/* gpusvm_rows_sparse (kernels part 1b): the rows' points and the columns' points in CSR form
 * (a_*, b_*: 32-bit offsets, column indices, values) and their norms in double; the rest as
 * gpusvm_rows_tiled */
#define GPUSVM__ARGS_ROWS_SPARSE(X_, S_)                                                                \
    X_(ROWS_SPARSE, __global const int *, a_ptr) S_() X_(ROWS_SPARSE, __global const int *, a_col) S_() \
    X_(ROWS_SPARSE, __global const float *, a_val) S_() X_(ROWS_SPARSE, __global const int *, idx) S_() \
    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_a) S_() X_(ROWS_SPARSE, __global const int *, b_ptr) S_() \
    X_(ROWS_SPARSE, __global const int *, b_col) S_() X_(ROWS_SPARSE, __global const float *, b_val) S_() \
    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_b) S_() X_(ROWS_SPARSE, __global const int *, pinfo) S_() \
    X_(ROWS_SPARSE, __global const int *, map) S_() X_(ROWS_SPARSE, int, use_map) S_()               \
    X_(ROWS_SPARSE, __global const int *, slot) S_() X_(ROWS_SPARSE, int, row_off) S_()               \
    X_(ROWS_SPARSE, int, nrows) S_() X_(ROWS_SPARSE, int, skip_whole) S_()                            \
    X_(ROWS_SPARSE, __global float *, K) S_() X_(ROWS_SPARSE, int, ldk) S_() X_(ROWS_SPARSE, int, qmax) S_() \
    X_(ROWS_SPARSE, int, ktype) S_() X_(ROWS_SPARSE, float, coef0) S_() \
    X_(ROWS_SPARSE, int, degree) S_() X_(ROWS_SPARSE, __global const gpusvm_wbits *, status) S_()             \
    X_(ROWS_SPARSE, int, self)

/* gpusvm_row_cache (kernels part 1c) */
#define GPUSVM__ARGS_ROW_CACHE(X_, S_)                                                                  \
    X_(ROW_CACHE, __global const int *, pinfo) S_() X_(ROW_CACHE, __global int *, rinfo) S_()           \
    X_(ROW_CACHE, __global const int *, ws_idx0) S_() X_(ROW_CACHE, __global int *, ws_slot0) S_()      \
    X_(ROW_CACHE, __global int *, row_idx0) S_() X_(ROW_CACHE, __global int *, row_slot0) S_()          \
    X_(ROW_CACHE, __global int *, cmap0) S_() X_(ROW_CACHE, __global int *, cstate0) S_()               \
    X_(ROW_CACHE, int, cslots) S_() X_(ROW_CACHE, int, qmax) S_()                                       \
    X_(ROW_CACHE, __global const gpusvm_wbits *, status) S_() X_(ROW_CACHE, int, first)

#define GPUSVM__ARGS_GATHER_WS(X_, S_)                                                                  \
    X_(GATHER_WS, __global const float *, X) S_() X_(GATHER_WS, int, pitch) S_()                        \
    X_(GATHER_WS, __global const int *, idx) S_() X_(GATHER_WS, __global const int *, pinfo) S_()       \
    X_(GATHER_WS, __global const int *, map) S_() X_(GATHER_WS, int, use_map) S_()                      \
    X_(GATHER_WS, int, dpad) S_() X_(GATHER_WS, int, row_off) S_() X_(GATHER_WS, int, nrows) S_()       \
    X_(GATHER_WS, int, skip_whole) S_() X_(GATHER_WS, __global float *, Aw) S_()                        \
    X_(GATHER_WS, int, qmax) S_() X_(GATHER_WS, __global const gpusvm_wbits *, status)

/* gpusvm_fill (kernels part 1) */
#define GPUSVM__ARGS_FILL(X_, S_) \
    X_(FILL, __global uint *, p) S_() X_(FILL, uint, word) S_() X_(FILL, ulong, off) S_() X_(FILL, ulong, n)
#define GPUSVM__ARGS_SCATTER(X_, S_)                                                                    \
    X_(SCATTER, __global const ulong *, row_ptr) S_() X_(SCATTER, __global const int *, col) S_()       \
    X_(SCATTER, __global const float *, val) S_() X_(SCATTER, ulong, base) S_() X_(SCATTER, int, n) S_() \
    X_(SCATTER, __global float *, X) S_() X_(SCATTER, int, pitch)

/* kernels part 2 */
#define GPUSVM__ARGS_KEYS(X_, S_)                                                                       \
    X_(KEYS, __global const gpusvm_wbits *, G0) S_() X_(KEYS, __global const gpusvm_wbits *, alpha0) S_()           \
    X_(KEYS, __global const char *, y0) S_() X_(KEYS, __global const gpusvm_wbits *, Cv0) S_()                \
    X_(KEYS, __global const int *, pinfo) S_() X_(KEYS, int, nparts_max) S_()                           \
    X_(KEYS, __global uint *, key_up0) S_() X_(KEYS, __global uint *, key_low0) S_()                    \
    X_(KEYS, __global gpusvm_wbits *, part_up0) S_() X_(KEYS, __global gpusvm_wbits *, part_low0) S_()              \
    X_(KEYS, __global const gpusvm_wbits *, status) S_() X_(KEYS, int, nu)

#define GPUSVM__ARGS_SELECT(X_, S_)                                                                     \
    X_(SELECT, __global uint *, key_up0) S_() X_(SELECT, __global uint *, key_low0) S_()                \
    X_(SELECT, __global const int *, pinfo) S_() X_(SELECT, int, nparts_max) S_() X_(SELECT, int, qmax) S_() \
    X_(SELECT, __global const gpusvm_wbits *, part_up0) S_() X_(SELECT, __global const gpusvm_wbits *, part_low0) S_() \
    X_(SELECT, __global int *, ws_idx0) S_() X_(SELECT, __global int *, ws_slot0) S_()                  \
    X_(SELECT, int, mode_in) S_() X_(SELECT, gpusvm_wbits, eps) S_() X_(SELECT, gpusvm_wbits, max_iter) S_()        \
    X_(SELECT, __global gpusvm_wbits *, status0) S_() X_(SELECT, __global const char *, y0) S_() X_(SELECT, int, nu) S_() \
    X_(SELECT, int, split) S_() X_(SELECT, __global uint *, sel_g)

/* the selection over the grid (part 2): gpusvm_sel_hist, _ties, _take (ties0: the keys' partials'
 * buffer, free once gpusvm_select has read them, 4 * nparts_max words a problem); cands: a split
 * problem's lists into its report out instead (G0: their gradients) */
#define GPUSVM__ARGS_SEL(X_, S_)                                                                        \
    X_(SEL, __global uint *, key_up0) S_() X_(SEL, __global uint *, key_low0) S_()                      \
    X_(SEL, __global const char *, y0) S_() X_(SEL, __global const int *, pinfo) S_()                   \
    X_(SEL, int, qmax) S_() X_(SEL, __global const gpusvm_wbits *, status) S_() X_(SEL, __global uint *, sel_g) S_() \
    X_(SEL, __global int *, list0) S_() X_(SEL, __global int *, ws_idx0) S_() X_(SEL, int, side) S_()   \
    X_(SEL, int, pass) S_() X_(SEL, int, mode_in) S_() X_(SEL, int, nu) S_() X_(SEL, __global uint *, ties0) S_() \
    X_(SEL, int, nparts_max) S_() X_(SEL, int, cands) S_() X_(SEL, __global ulong *, out) S_()           \
    X_(SEL, __global const gpusvm_wbits *, G0)

/* a split problem's report and its merged working set's gradients (part 2) */
#define GPUSVM__ARGS_CANDS(X_, S_)                                                                      \
    X_(CANDS, __global uint *, key_up0) S_() X_(CANDS, __global uint *, key_low0) S_()                  \
    X_(CANDS, __global const char *, y0) S_() X_(CANDS, __global const gpusvm_wbits *, G0) S_()               \
    X_(CANDS, __global const int *, pinfo) S_() X_(CANDS, int, nparts_max) S_() X_(CANDS, int, qmax) S_() \
    X_(CANDS, __global const gpusvm_wbits *, part_up0) S_() X_(CANDS, __global const gpusvm_wbits *, part_low0) S_() \
    X_(CANDS, __global const int *, ws_idx0) S_() X_(CANDS, __global const int *, ws_slot0) S_()        \
    X_(CANDS, int, mode_in) S_() X_(CANDS, __global const gpusvm_wbits *, status0) S_() X_(CANDS, int, nu) S_() \
    X_(CANDS, __global ulong *, out) S_() X_(CANDS, int, grid) S_() X_(CANDS, __global uint *, sel_g)

#define GPUSVM__ARGS_WS_PUT(X_, S_)                                                                     \
    X_(WS_PUT, __global gpusvm_wbits *, G0) S_() X_(WS_PUT, __global const int *, ws_idx0) S_()               \
    X_(WS_PUT, __global const gpusvm_wbits *, gws) S_() X_(WS_PUT, __global const int *, pinfo) S_()          \
    X_(WS_PUT, __global const gpusvm_wbits *, status0)

/* kernels part 3 */
#define GPUSVM__ARGS_GATHER(X_, S_)                                                                     \
    X_(GATHER, __global const float *, K0) S_() X_(GATHER, int, ldk) S_() X_(GATHER, __global float *, Kq0) S_() \
    X_(GATHER, __global const int *, pinfo) S_() X_(GATHER, int, qmax) S_()                             \
    X_(GATHER, __global const int *, ws_idx0) S_() X_(GATHER, __global const int *, ws_slot0) S_()      \
    X_(GATHER, __global const gpusvm_wbits *, status)

#define GPUSVM__ARGS_SMO(X_, S_)                                                                        \
    X_(SMO, __global const float *, Kq0) S_() X_(SMO, __global const int *, pinfo) S_() X_(SMO, int, qmax) S_() \
    X_(SMO, __global const int *, ws_idx0) S_()                                                         \
    X_(SMO, __global gpusvm_wbits *, alpha0) S_() X_(SMO, __global const gpusvm_wbits *, G0) S_()                   \
    X_(SMO, __global const char *, y0) S_() X_(SMO, __global const gpusvm_wbits *, Cv0) S_()                  \
    X_(SMO, __global const float *, qd0) S_() X_(SMO, __global gpusvm_wbits *, coef0) S_()                    \
    X_(SMO, gpusvm_wbits, eps) S_() X_(SMO, gpusvm_wbits, ratio_in) S_() X_(SMO, int, max_inner_in) S_()            \
    X_(SMO, int, whole_inner) S_() X_(SMO, gpusvm_wbits, max_iter) S_() X_(SMO, __global gpusvm_wbits *, status0) S_() \
    X_(SMO, int, nu)

/* kernels part 4 */
#define GPUSVM__ARGS_UPDATE(X_, S_)                                                                     \
    X_(UPDATE, __global gpusvm_wbits *, out0) S_() X_(UPDATE, __global const char *, y0) S_()                 \
    X_(UPDATE, int, use_y) S_() X_(UPDATE, __global const int *, pinfo) S_() X_(UPDATE, int, qmax) S_() \
    X_(UPDATE, __global const float *, K0) S_() X_(UPDATE, int, ldk) S_()                               \
    X_(UPDATE, __global const int *, slot0) S_() X_(UPDATE, __global const gpusvm_wbits *, coef0) S_()        \
    X_(UPDATE, int, m_in) S_() X_(UPDATE, __global const gpusvm_wbits *, status) S_()                         \
    X_(UPDATE, int, coef_off) S_() X_(UPDATE, int, out_off) S_() X_(UPDATE, int, var_off) S_()          \
    X_(UPDATE, int, var_end) S_() X_(UPDATE, int, k_off)

/* gpusvm_rows_update (kernels part 4): gpusvm_rows_tiled's arguments, then these */
#define GPUSVM__ARGS_ROWS_UPD(X_, S_)                                                                   \
    X_(ROWS_UPD, __global gpusvm_wbits *, out0) S_() X_(ROWS_UPD, __global const char *, y0) S_()             \
    X_(ROWS_UPD, __global const gpusvm_wbits *, coef)

/* kernels part 5 (Crammer-Singer), every problem of a batch in one launch: alpha and c are
 * n x m per problem (point-major), K the rows (with the cache, problem p's point v has row
 * var + v, else working-set position t row p qmax + t: the rows kernels' slot is that minus
 * p qmax), dA and moved the last sweeps' changes (q positions per problem, mmax classes apart) */
#define GPUSVM__ARGS_CS_RESP(X_, S_)                                                                    \
    X_(CS_RESP, __global gpusvm_wbits *, c) S_() X_(CS_RESP, __global const float *, K) S_()                 \
    X_(CS_RESP, int, ldk) S_() X_(CS_RESP, __global const int *, moved) S_()                            \
    X_(CS_RESP, __global const gpusvm_wide *, dA) S_() X_(CS_RESP, __global const gpusvm_wbits *, status) S_() \
    X_(CS_RESP, __global const int *, cinfo) S_() X_(CS_RESP, int, q) S_() X_(CS_RESP, int, mmax)

#define GPUSVM__ARGS_CS_UPDATE(X_, S_)                                                                  \
    X_(CS_UPDATE, __global const gpusvm_wbits *, c) S_() X_(CS_UPDATE, __global const gpusvm_wbits *, alpha) S_()   \
    X_(CS_UPDATE, __global const int *, cls) S_() X_(CS_UPDATE, __global const gpusvm_wbits *, U) S_()        \
    X_(CS_UPDATE, __global const gpusvm_wbits *, status) S_() X_(CS_UPDATE, __global gpusvm_wbits *, part) S_()     \
    X_(CS_UPDATE, __global uint *, cand_key) S_() X_(CS_UPDATE, __global int *, cand_idx) S_()          \
    X_(CS_UPDATE, __global const int *, cinfo) S_() X_(CS_UPDATE, int, nparts_max) S_()                 \
    X_(CS_UPDATE, int, qc)

#define GPUSVM__ARGS_CS_SELECT(X_, S_)                                                                  \
    X_(CS_SELECT, __global const gpusvm_wbits *, part) S_() X_(CS_SELECT, int, nparts_max) S_()               \
    X_(CS_SELECT, __global uint *, cand_key) S_() X_(CS_SELECT, __global const int *, cand_idx) S_()    \
    X_(CS_SELECT, __global gpusvm_wbits *, status) S_() X_(CS_SELECT, gpusvm_wbits, eps) S_()                       \
    X_(CS_SELECT, gpusvm_wbits, max_iter) S_() X_(CS_SELECT, int, q) S_() X_(CS_SELECT, __global int *, ws) S_() \
    X_(CS_SELECT, __global int *, row_idx) S_() X_(CS_SELECT, __global int *, row_slot) S_()            \
    X_(CS_SELECT, __global int *, pinfo) S_() X_(CS_SELECT, __global int *, have) S_()                  \
    X_(CS_SELECT, int, cache) S_() X_(CS_SELECT, __global const int *, cinfo) S_() X_(CS_SELECT, int, qmax)

#define GPUSVM__ARGS_CS_SOLVE(X_, S_)                                                                   \
    X_(CS_SOLVE, __global const float *, K) S_() X_(CS_SOLVE, int, ldk) S_()                            \
    X_(CS_SOLVE, __global const int *, ws) S_() X_(CS_SOLVE, __global gpusvm_wbits *, status) S_()            \
    X_(CS_SOLVE, __global gpusvm_wbits *, alpha) S_() X_(CS_SOLVE, __global const gpusvm_wbits *, c) S_()           \
    X_(CS_SOLVE, __global const int *, cls) S_() X_(CS_SOLVE, __global const gpusvm_wbits *, U) S_()          \
    X_(CS_SOLVE, __global const gpusvm_wbits *, kd) S_() X_(CS_SOLVE, __global gpusvm_wide *, dA) S_()             \
    X_(CS_SOLVE, __global int *, moved) S_() X_(CS_SOLVE, int, mmax) S_() X_(CS_SOLVE, int, q) S_()     \
    X_(CS_SOLVE, int, cache) S_() X_(CS_SOLVE, gpusvm_wbits, eps) S_() X_(CS_SOLVE, gpusvm_wbits, ratio) S_()       \
    X_(CS_SOLVE, __local float *, kws) S_() X_(CS_SOLVE, __local gpusvm_wide *, cws) S_()                    \
    X_(CS_SOLVE, __local gpusvm_wide *, scr) S_() X_(CS_SOLVE, __global const int *, cinfo) S_()             \
    X_(CS_SOLVE, int, qmax)

/* The host names the slots (enum GPUSVM__A_<KERNEL>_<name>, ..., GPUSVM__A_<KERNEL>_N); the
 * kernels declare the parameters. */
#define GPUSVM__COMMA() ,
#ifdef __OPENCL_VERSION__
#define GPUSVM__PARAM(k, type, name) type name
#else
#define GPUSVM__SLOT(k, type, name) GPUSVM__A_##k##_##name
#endif

#endif /* GPUSVM__SHARED_H */
// <<shared
#define GPUSVM__NR_MARKS 10 /* one-class density marks, as LIBSVM 3.3x */

/* >>util ------------------------------------------------------------------- */

typedef struct gpusvm__cl_api gpusvm__cl_api;
typedef struct gpusvm__backend gpusvm__backend;

/* The kinds of sub-group exchange the OpenCL kernels' reductions can use (gpusvm__ocl_exchanges). */
enum { GPUSVM__XC_NONE, GPUSVM__XC_INTEL, GPUSVM__XC_KHR, GPUSVM__XC_NV, GPUSVM__XC_NV_REDUX };

/* A model's support vectors as a context last checked them: a model the library made (sv_norms
   set) whose arrays and sizes are these is not scanned again (>>validate). */
typedef struct gpusvm__sv_seen {
    const void *row_ptr, *col_idx, *values, *norms;
    size_t rows, cols;
} gpusvm__sv_seen;

struct gpusvm_context {
    gpusvm_allocator alloc;
    gpusvm_logger logger;
    gpusvm_backend kind;        /* OPENCL or CPU */
    char device_name[256];
    char error[2048];           /* detail of the last failure */
    gpusvm_result last_error;   /* its code */
    gpusvm_error last_id;       /* its id in the list of errors */
    char *build_log;            /* allocated; NULL if none */
    const char *cl_call;        /* the failing OpenCL call's text */
    int cl_code;                /* its cl_int */
    int cl_line;                /* the source line that made it */
    gpusvm__cl_api *cl;         /* NULL without OpenCL */
    gpusvm__backend *backend;
    int profile;                /* GPUSVM_PROFILE=1: time each solver step (waits for each) */
    char cache_dir[1024];       /* the kernel cache's folder; "" = none */
    int cache_default;          /* cache_dir is the default one (used for GPUs and accelerators only) */
    int cache_named;            /* cache_dir is desc.kernel_cache_dir (used on every device) */
    double build_seconds;       /* the kernel program's build (or cache load) */
    int build_cached;           /* 1: loaded from the kernel cache */
    int build_cache_used;       /* 1: the kernel cache was consulted (and written after a compile) */
    int threads;                /* host threads for parallel work (1..GPUSVM__MAX_THREADS) */
    int device_from_env;        /* the device came from $GPUSVM_DEVICE: where it is not there, fall back */
    int default_alloc;          /* the allocator is malloc/free (safe to call from several threads) */
    gpusvm_storage storage;     /* desc.storage, $GPUSVM_STORAGE resolved */
    gpusvm_fp64 fp64;           /* desc.fp64, $GPUSVM_FP64 resolved: AUTO, ON or OFF */
    int subgroups;              /* $GPUSVM_SUBGROUPS: -1 any, else the one GPUSVM__XC_* exchange tried (tests) */
    int programs;               /* $GPUSVM_PROGRAMS: -1 by the driver, 0 a program a kernel, 1 one (tests) */
    int lanes;                  /* $GPUSVM_LANES: 0 by the device (gpusvm__jobs_lanes), else at most this many */
    int spread;                 /* $GPUSVM_SPREAD=always: several devices take any work (else what pays) */
    gpusvm_split split;         /* desc.split; parts 1 without one */
    int shared, shared_failed;  /* steps run on several threads; one of them failed (gpusvm__said_lock) */
    volatile long said_next, said_turn;
    volatile long build_next, build_turn; /* the kernels' builds (gpusvm__build_lock) */
    int said_compiling;         /* the first compile of the kernel program was announced (INFO) */
    gpusvm_context *root;       /* a job's own context (gpusvm__jobs_run): what it says, root says */
    gpusvm__sv_seen sv_seen;    /* the support vectors the last model check passed (gpusvm__check_model) */
};

static void *gpusvm__default_alloc(size_t size, void *user)
{
    (void)user;
    return GPUSVM_MALLOC(size);
}
static void gpusvm__default_free(void *p, void *user)
{
    (void)user;
    GPUSVM_FREE(p);
}

static gpusvm_allocator gpusvm__resolve_allocator(const gpusvm_allocator *a)
{
    gpusvm_allocator r;
    if (a && a->alloc && a->free) return *a;
    r.alloc = gpusvm__default_alloc;
    r.free = gpusvm__default_free;
    r.user_data = NULL;
    return r;
}

/* Overflow-checked size arithmetic: return 0 on overflow. */
static int gpusvm__mul(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > (size_t)-1 / a) return 0;
    *out = a * b;
    return 1;
}

static void *gpusvm__alloc(const gpusvm_allocator *a, size_t count, size_t size)
{
    size_t bytes;
    if (!gpusvm__mul(count, size, &bytes)) return NULL;
    if (bytes == 0) bytes = 1;
    return a->alloc(bytes, a->user_data);
}
static void *gpusvm__calloc(const gpusvm_allocator *a, size_t count, size_t size)
{
    size_t bytes;
    void *p;
    if (!gpusvm__mul(count, size, &bytes)) return NULL;
    p = gpusvm__alloc(a, bytes ? bytes : 1, 1);
    if (p) memset(p, 0, bytes ? bytes : 1);
    return p;
}
static void gpusvm__free(const gpusvm_allocator *a, void *p)
{
    if (p) a->free(p, a->user_data);
}

/* Growable array of fixed-size items. */
typedef struct gpusvm__vec {
    void *data;
    size_t len, cap, item;
} gpusvm__vec;

static int gpusvm__vec_reserve(const gpusvm_allocator *a, gpusvm__vec *v, size_t need)
{
    size_t cap, bytes;
    void *p;
    if (need <= v->cap) return 1;
    cap = v->cap ? v->cap : 64;
    while (cap < need) {
        if (cap > (size_t)-1 / 2) return 0;
        cap *= 2;
    }
    if (!gpusvm__mul(cap, v->item, &bytes)) return 0;
    p = gpusvm__alloc(a, bytes, 1);
    if (!p) return 0;
    if (v->len) memcpy(p, v->data, v->len * v->item);
    gpusvm__free(a, v->data);
    v->data = p;
    v->cap = cap;
    return 1;
}
static int gpusvm__vec_push(const gpusvm_allocator *a, gpusvm__vec *v, const void *item)
{
    if (!gpusvm__vec_reserve(a, v, v->len + 1)) return 0;
    memcpy((char *)v->data + v->len * v->item, item, v->item);
    v->len++;
    return 1;
}

/* >>util/threads: host threads, waits and locks: one module, one contract --------------------------
   Every parallel call in the library is fn(arg, t) for t = 0..n-1, t = 0 on the calling thread,
   returning when every t is done; where threads are missing (no POSIX threads in the program, no
   atomic add, GPUSVM_NO_OPENCL on POSIX) the same calls run one after another, with the same
   results. Three ways to run one, by what the calls share:
     gpusvm__parallel(n, fn, arg)           threads started and joined for this call (the file
                                            reader, a prediction, a pool's first call);
     gpusvm__pool_run(pool, threads, n, ..) threads kept for a training (the C backend's steps);
     gpusvm__shared_call(ctx, pool, n, ..)  calls that share a context (the multi section's device
                                            steps, gpusvm__jobs_run's jobs): what they say takes
                                            turns and the context keeps the first failure whole.
   Each fn must touch only its own t's part of what arg points to, or take items through the
   atomic add (gpusvm__take). Every wait spins and then yields its core (gpusvm__wait_for,
   gpusvm__wait_while); every lock is a ticket lock on them (the process-wide open lock, a
   context's said lock); POSIX threads are looked up in one place (gpusvm__pthreads_load). */
#define GPUSVM__MAX_THREADS 64
#define GPUSVM__MAX_PARTS 65536 /* desc.split.parts */
typedef struct gpusvm__task {
    void (*fn)(void *arg, int t);
    void *arg;
    int t;
} gpusvm__task;

#if defined(GPUSVM__WINDOWS)
static DWORD WINAPI gpusvm__task_main(LPVOID p)
{
    gpusvm__task *k = (gpusvm__task *)p;
    k->fn(k->arg, k->t);
    return 0;
}
static void gpusvm__parallel(int n, void (*fn)(void *arg, int t), void *arg)
{
    gpusvm__task task[GPUSVM__MAX_THREADS];
    HANDLE th[GPUSVM__MAX_THREADS];
    int t;
    for (t = 0; t < n; ++t) {
        task[t].fn = fn;
        task[t].arg = arg;
        task[t].t = t;
        th[t] = t ? CreateThread(NULL, 0, gpusvm__task_main, &task[t], 0, NULL) : NULL;
        if (t && !th[t]) fn(arg, t);
    }
    fn(arg, 0);
    for (t = 1; t < n; ++t)
        if (th[t]) {
            WaitForSingleObject(th[t], INFINITE);
            CloseHandle(th[t]);
        }
}
static int gpusvm__cores(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (int)si.dwNumberOfProcessors;
}
#elif !defined(GPUSVM_NO_OPENCL)
/* POSIX threads, looked up at run time here and nowhere else (no program needs -pthread): 1 with
   every entry found, where the program or a library it loaded has the threads. */
typedef struct gpusvm__pthreads {
    int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    int (*join)(pthread_t, void **);
    int (*lock)(pthread_mutex_t *);
    int (*unlock)(pthread_mutex_t *);
    int (*wait)(pthread_cond_t *, pthread_mutex_t *);
    int (*broadcast)(pthread_cond_t *);
} gpusvm__pthreads;
static int gpusvm__pthreads_load(gpusvm__pthreads *api)
{
    static const char *const names[] = {"pthread_create",       "pthread_join",      "pthread_mutex_lock",
                                        "pthread_mutex_unlock", "pthread_cond_wait", "pthread_cond_broadcast"};
    enum { NFN = sizeof names / sizeof names[0] };
    void *self = dlopen(NULL, RTLD_NOW), *sym[NFN];
    int t;
    for (t = 0; t < NFN && self; ++t)
        if (!(sym[t] = dlsym(self, names[t]))) break;
    if (self) dlclose(self); /* the program's own symbols stay */
    if (t < NFN) return 0;
    memcpy(&api->create, &sym[0], sizeof api->create);
    memcpy(&api->join, &sym[1], sizeof api->join);
    memcpy(&api->lock, &sym[2], sizeof api->lock);
    memcpy(&api->unlock, &sym[3], sizeof api->unlock);
    memcpy(&api->wait, &sym[4], sizeof api->wait);
    memcpy(&api->broadcast, &sym[5], sizeof api->broadcast);
    return 1;
}
static void *gpusvm__task_main(void *p)
{
    gpusvm__task *k = (gpusvm__task *)p;
    k->fn(k->arg, k->t);
    return NULL;
}
static void gpusvm__parallel(int n, void (*fn)(void *arg, int t), void *arg)
{
    gpusvm__task task[GPUSVM__MAX_THREADS];
    pthread_t th[GPUSVM__MAX_THREADS];
    char started[GPUSVM__MAX_THREADS];
    gpusvm__pthreads api;
    int threads, t;
    memset(&api, 0, sizeof api);
    threads = n > 1 && gpusvm__pthreads_load(&api);
    for (t = 0; t < n; ++t) {
        task[t].fn = fn;
        task[t].arg = arg;
        task[t].t = t;
        started[t] = t > 0 && threads && api.create(&th[t], NULL, gpusvm__task_main, &task[t]) == 0;
        if (t > 0 && !started[t]) fn(arg, t);
    }
    fn(arg, 0);
    for (t = 1; t < n; ++t)
        if (started[t]) api.join(th[t], NULL);
}
static int gpusvm__cores(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
#else /* GPUSVM_NO_OPENCL on POSIX: no run-time linking, so one thread */
static void gpusvm__parallel(int n, void (*fn)(void *arg, int t), void *arg)
{
    int t;
    for (t = 0; t < n; ++t) fn(arg, t);
}
static int gpusvm__cores(void) { return 1; }
#endif

/* gpusvm__take(&next): next's value before adding 1, atomically, where the compiler has an atomic
   add (GCC, Clang, MSVC; GPUSVM__TAKE_ATOMIC 1), so that threads can take the items of a list in
   turn; elsewhere 0, and the callers split the items statically. With it, gpusvm__load (acquire),
   gpusvm__store (release) and gpusvm__drop (subtract 1, the new value). */
#if defined(__GNUC__) || defined(__clang__)
#define GPUSVM__TAKE_ATOMIC 1
static long gpusvm__take(volatile long *next) { return __atomic_fetch_add(next, 1L, __ATOMIC_RELAXED); }
static long gpusvm__load(volatile long *v) { return __atomic_load_n(v, __ATOMIC_ACQUIRE); }
static void gpusvm__store(volatile long *v, long x) { __atomic_store_n(v, x, __ATOMIC_RELEASE); }
static long gpusvm__drop(volatile long *v) { return __atomic_sub_fetch(v, 1L, __ATOMIC_ACQ_REL); }
#elif defined(_MSC_VER)
#define GPUSVM__TAKE_ATOMIC 1
static long gpusvm__take(volatile long *next) { return InterlockedExchangeAdd(next, 1L); }
static long gpusvm__load(volatile long *v) { return InterlockedCompareExchange(v, 0, 0); }
static void gpusvm__store(volatile long *v, long x) { InterlockedExchange(v, x); }
static long gpusvm__drop(volatile long *v) { return InterlockedDecrement(v); }
#else
#define GPUSVM__TAKE_ATOMIC 0
#endif

/* A pool of threads kept for a while (a training): gpusvm__pool_run(pool, n, fn, arg) is
   gpusvm__parallel's, without starting and joining n - 1 threads each time (on 16 cores 0.4 ms a
   call, and a round of the C backend's solver makes three or more). The workers wait for the next
   call spinning a little, then asleep on a condition variable; the caller waits for them spinning
   (its own part is about as long as theirs). Where threads or atomic operations are missing, the
   pool is never started and gpusvm__pool_run is gpusvm__parallel. */
#if GPUSVM__TAKE_ATOMIC && !defined(GPUSVM__WINDOWS) && !defined(GPUSVM_NO_OPENCL)
#define GPUSVM__POOL 1
#elif GPUSVM__TAKE_ATOMIC && defined(GPUSVM__WINDOWS) && (!defined(_WIN32_WINNT) || _WIN32_WINNT >= 0x0600)
#define GPUSVM__POOL 1 /* condition variables: Windows Vista and later */
#else
#define GPUSVM__POOL 0
#endif
#define GPUSVM__POOL_SPIN 64    /* reads of a count before a wait yields the core, between yields */
#define GPUSVM__POOL_YIELDS 2048 /* yields before a worker sleeps (about a millisecond: a round's serial steps) */
#if defined(__GNUC__) || defined(__clang__)
#define GPUSVM__PREFETCH(p) __builtin_prefetch(p) /* a cache line asked for ahead of its read */
#else
#define GPUSVM__PREFETCH(p) ((void)0)
#endif
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define GPUSVM__PAUSE() __builtin_ia32_pause() /* a spinning read loop that leaves its core's twin room */
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#define GPUSVM__PAUSE() YieldProcessor()
#else
#define GPUSVM__PAUSE() ((void)0)
#endif

/* The calling thread's core given up for a moment (sched_yield is in the C library). */
static void gpusvm__yield(void)
{
#if defined(GPUSVM__WINDOWS)
    SwitchToThread();
#elif !defined(GPUSVM_NO_OPENCL)
    sched_yield();
#endif
}

#if GPUSVM__TAKE_ATOMIC
/* The waits, every one of them: spin reading (GPUSVM__PAUSE), yielding the core every
   GPUSVM__POOL_SPIN reads. wait_for: until *v is want. wait_while (the pool's workers): while *v
   is `was`, at most `yields` yields; *v's last value. */
static void gpusvm__wait_for(volatile long *v, long want)
{
    int spin = 0;
    while (gpusvm__load(v) != want)
        if (GPUSVM__PAUSE(), ++spin == GPUSVM__POOL_SPIN) {
            spin = 0;
            gpusvm__yield();
        }
}
#if GPUSVM__POOL
static long gpusvm__wait_while(volatile long *v, long was, int yields)
{
    long now;
    int spin = 0;
    while ((now = gpusvm__load(v)) == was && yields > 0)
        if (GPUSVM__PAUSE(), ++spin == GPUSVM__POOL_SPIN) {
            spin = 0;
            --yields;
            gpusvm__yield();
        }
    return now;
}
#endif
/* A ticket lock (the locks, every one of them: the process-wide open lock, a context's said lock). */
static void gpusvm__ticket_lock(volatile long *next, volatile long *turn) { gpusvm__wait_for(turn, gpusvm__take(next)); }
static void gpusvm__ticket_unlock(volatile long *turn) { gpusvm__store(turn, gpusvm__load(turn) + 1); }
#endif

typedef struct gpusvm__pool gpusvm__pool;
typedef struct gpusvm__pool_worker {
    gpusvm__pool *pool;
    int t;
} gpusvm__pool_worker;

struct gpusvm__pool {
    int n; /* threads, the caller's included; 0: not started, -2: one call made, -1: could not start */
    volatile long calls, left, quit; /* calls: each run adds one; left: workers yet to finish it */
    volatile long busy;              /* a call runs (one made from inside it runs as gpusvm__parallel) */
    int sleepers;                    /* workers asleep (under the lock) */
    void (*fn)(void *arg, int t);
    void *arg;
    int parts;
    gpusvm__pool_worker worker[GPUSVM__MAX_THREADS];
#if GPUSVM__POOL && defined(GPUSVM__WINDOWS)
    HANDLE th[GPUSVM__MAX_THREADS];
    SRWLOCK lock;
    CONDITION_VARIABLE wake;
#elif GPUSVM__POOL
    pthread_t th[GPUSVM__MAX_THREADS];
    pthread_mutex_t lock;
    pthread_cond_t wake;
    gpusvm__pthreads api;
#endif
};

#if GPUSVM__POOL
#if defined(GPUSVM__WINDOWS)
static void gpusvm__pool_lock(gpusvm__pool *p) { AcquireSRWLockExclusive(&p->lock); }
static void gpusvm__pool_unlock(gpusvm__pool *p) { ReleaseSRWLockExclusive(&p->lock); }
static void gpusvm__pool_sleep(gpusvm__pool *p) { SleepConditionVariableSRW(&p->wake, &p->lock, INFINITE, 0); }
static void gpusvm__pool_wake(gpusvm__pool *p) { WakeAllConditionVariable(&p->wake); }
#else
static void gpusvm__pool_lock(gpusvm__pool *p) { p->api.lock(&p->lock); }
static void gpusvm__pool_unlock(gpusvm__pool *p) { p->api.unlock(&p->lock); }
static void gpusvm__pool_sleep(gpusvm__pool *p) { p->api.wait(&p->wake, &p->lock); }
static void gpusvm__pool_wake(gpusvm__pool *p) { p->api.broadcast(&p->wake); }
#endif

/* A worker: each call's part (if it has one), until the pool stops. */
static void gpusvm__pool_main(gpusvm__pool_worker *w)
{
    gpusvm__pool *p = w->pool;
    long seen = 0, now;
    for (;;) {
        if ((now = gpusvm__wait_while(&p->calls, seen, GPUSVM__POOL_YIELDS)) == seen) {
            gpusvm__pool_lock(p);
            while ((now = gpusvm__load(&p->calls)) == seen) {
                ++p->sleepers;
                gpusvm__pool_sleep(p);
                --p->sleepers;
            }
            gpusvm__pool_unlock(p);
        }
        seen = now;
        if (gpusvm__load(&p->quit)) return;
        if (w->t < p->parts) p->fn(p->arg, w->t);
        gpusvm__drop(&p->left);
    }
}

#if defined(GPUSVM__WINDOWS)
static DWORD WINAPI gpusvm__pool_thread(LPVOID w)
{
    gpusvm__pool_main((gpusvm__pool_worker *)w);
    return 0;
}
#else
static void *gpusvm__pool_thread(void *w)
{
    gpusvm__pool_main((gpusvm__pool_worker *)w);
    return NULL;
}
#endif

/* The next call: its function to every worker, then the caller's part, then every worker done. */
static void gpusvm__pool_call(gpusvm__pool *p, int parts, void (*fn)(void *arg, int t), void *arg)
{
    p->fn = fn;
    p->arg = arg;
    p->parts = parts;
    gpusvm__store(&p->left, p->n - 1);
    gpusvm__pool_lock(p);
    gpusvm__store(&p->calls, p->calls + 1);
    if (p->sleepers) gpusvm__pool_wake(p);
    gpusvm__pool_unlock(p);
    fn(arg, 0);
    gpusvm__wait_for(&p->left, 0);
}

/* n threads (the caller and n - 1 started; fewer if the system gives fewer); 0 if none started. */
static int gpusvm__pool_start(gpusvm__pool *p, int n)
{
    int t;
#if defined(GPUSVM__WINDOWS)
    InitializeSRWLock(&p->lock);
    InitializeConditionVariable(&p->wake);
#else
    const pthread_mutex_t lock0 = PTHREAD_MUTEX_INITIALIZER;
    const pthread_cond_t wake0 = PTHREAD_COND_INITIALIZER;
    if (!gpusvm__pthreads_load(&p->api)) return 0;
    p->lock = lock0;
    p->wake = wake0;
#endif
    if (n > GPUSVM__MAX_THREADS) n = GPUSVM__MAX_THREADS;
    p->calls = p->left = p->quit = p->busy = 0;
    p->sleepers = 0;
    p->parts = 0;
    for (t = 1; t < n; ++t) {
        p->worker[t].pool = p;
        p->worker[t].t = t;
#if defined(GPUSVM__WINDOWS)
        if (!(p->th[t] = CreateThread(NULL, 0, gpusvm__pool_thread, &p->worker[t], 0, NULL))) break;
#else
        if (p->api.create(&p->th[t], NULL, gpusvm__pool_thread, &p->worker[t]) != 0) break;
#endif
    }
    p->n = t;
    return p->n > 1 ? p->n : 0;
}

/* Its workers told to stop, and joined. */
static void gpusvm__pool_stop(gpusvm__pool *p)
{
    int t;
    if (p->n <= 1) {
        p->n = 0;
        return;
    }
    gpusvm__store(&p->quit, 1);
    gpusvm__pool_lock(p);
    gpusvm__store(&p->calls, p->calls + 1);
    gpusvm__pool_wake(p);
    gpusvm__pool_unlock(p);
    for (t = 1; t < p->n; ++t) {
#if defined(GPUSVM__WINDOWS)
        WaitForSingleObject(p->th[t], INFINITE);
        CloseHandle(p->th[t]);
#else
        p->api.join(p->th[t], NULL);
#endif
    }
    p->n = 0;
}
#else
static void gpusvm__pool_stop(gpusvm__pool *p) { p->n = 0; }
#endif

/* fn(arg, t) for t = 0..parts-1: on the pool's threads where it has as many (started with
   `threads` on the second call, unless it could not be: work of one call, a small problem solved
   whole, is not worth a pool), else as gpusvm__parallel. */
static void gpusvm__pool_run(gpusvm__pool *p, int threads, int parts, void (*fn)(void *arg, int t), void *arg)
{
    if (parts <= 1) {
        if (parts == 1) fn(arg, 0);
        return;
    }
#if GPUSVM__POOL
    if (p->n == 0 || threads < 2) { /* the first call (n -2 after it) */
        if (p->n == 0) p->n = -2;
        gpusvm__parallel(parts, fn, arg);
        return;
    }
    if (p->n == -2) p->n = gpusvm__pool_start(p, threads) ? p->n : -1;
    if (p->n >= parts && !gpusvm__load(&p->busy)) {
        gpusvm__store(&p->busy, 1);
        gpusvm__pool_call(p, parts, fn, arg);
        gpusvm__store(&p->busy, 0);
        return;
    }
#else
    (void)p;
    (void)threads;
#endif
    gpusvm__parallel(parts, fn, arg);
}

/* While a context's steps run on several threads (ctx->shared: the multi section's devices, a
   thread each, or gpusvm__jobs_run's jobs, whose contexts say it through their root), what they
   say takes turns: the logger is called by one thread at a time, and a failure is recorded only
   if none was in that call (ctx->shared_failed), so that the context's message, code and OpenCL
   call stay one failure's. */
static void gpusvm__said_lock(gpusvm_context *ctx)
{
#if GPUSVM__TAKE_ATOMIC
    if (ctx->shared) gpusvm__ticket_lock(&ctx->said_next, &ctx->said_turn);
#else
    (void)ctx;
#endif
}

static void gpusvm__said_unlock(gpusvm_context *ctx)
{
#if GPUSVM__TAKE_ATOMIC
    if (ctx->shared) gpusvm__ticket_unlock(&ctx->said_turn);
#else
    (void)ctx;
#endif
}

/* The process-wide lock around a backend's opening and closing (gpusvm_context_create and
   gpusvm_context_destroy): OpenCL's discovery, context and program creation and release run one
   thread at a time, since ICD loaders and drivers are not all safe there (PoCL 3 crashes in
   clGetDeviceInfo when two threads discover devices at once). A ticket lock on the atomic add:
   initialised by the loader (zeros), no pthread symbol at link time; the waiters yield their core,
   since a kernel program can take seconds to build. The one piece of mutable state outside a
   context. Without atomics (GPUSVM__TAKE_ATOMIC 0) there is none, and contexts must be created
   and destroyed one at a time by the program; with GPUSVM_STATIC each translation unit has its
   own. */
#if GPUSVM__TAKE_ATOMIC && !defined(GPUSVM_NO_OPENCL)
static volatile long gpusvm__open_next, gpusvm__open_turn;
static void gpusvm__open_lock(void) { gpusvm__ticket_lock(&gpusvm__open_next, &gpusvm__open_turn); }
static void gpusvm__open_unlock(void) { gpusvm__ticket_unlock(&gpusvm__open_turn); }
#else
static void gpusvm__open_lock(void) {}
static void gpusvm__open_unlock(void) {}
#endif

static void gpusvm__log(gpusvm_context *ctx, gpusvm_log_level level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    if (ctx && ctx->root) ctx = ctx->root;
    if (!ctx || !ctx->logger.fn) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpusvm__said_lock(ctx);
    ctx->logger.fn(ctx->logger.user_data, level, msg);
    gpusvm__said_unlock(ctx);
}

/* The result each error of the list returns (GPUSVM__ERRORS). */
static gpusvm_result gpusvm__error_result(gpusvm_error id)
{
    static const gpusvm_result results[] = {
#define GPUSVM__ERROR_RESULT(id, result, text) result,
        GPUSVM__ERRORS(GPUSVM__ERROR_RESULT)
#undef GPUSVM__ERROR_RESULT
    };
    return (int)id >= 0 && id < GPUSVM_ERR_COUNT ? results[id] : GPUSVM_ERROR_INVALID_ARGUMENT;
}

/* Records a failure on the context: its id, its message (fmt) and the OpenCL call that failed (or
   NULL); logs it, returns its result. */
static gpusvm_result gpusvm__fail_v(gpusvm_context *ctx, gpusvm_error id, const char *call, int cl_code, int line,
                                    const char *fmt, va_list ap)
{
    const gpusvm_result code = gpusvm__error_result(id);
    if (ctx->root) ctx = ctx->root;
    gpusvm__said_lock(ctx);
    if (!ctx->shared_failed) {
        vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
        ctx->last_error = code;
        ctx->last_id = id;
        if (call) {
            ctx->cl_call = call;
            ctx->cl_code = cl_code;
            ctx->cl_line = line;
        }
        ctx->shared_failed = ctx->shared;
        if (ctx->logger.fn) ctx->logger.fn(ctx->logger.user_data, GPUSVM_LOG_ERROR, ctx->error);
    }
    gpusvm__said_unlock(ctx);
    return code;
}

static gpusvm_result gpusvm__fail(gpusvm_context *ctx, gpusvm_error id, const char *fmt, ...)
{
    va_list ap;
    gpusvm_result code;
    if (!ctx) return gpusvm__error_result(id);
    va_start(ap, fmt);
    code = gpusvm__fail_v(ctx, id, NULL, 0, 0, fmt, ap);
    va_end(ap);
    return code;
}

/* fn(arg, t) for t = 0..n-1 on threads (the pool's, where one is given) while what they say takes
   turns (ctx->shared); then the first failure among their results res[0..n): the context's code
   where one was said (gpusvm__fail_v kept that failure whole), else the result's. */
static gpusvm_result gpusvm__shared_call(gpusvm_context *ctx, gpusvm__pool *pool, int n, void (*fn)(void *arg, int t),
                                         void *arg, const gpusvm_result *res)
{
    int said, k;
    ctx->shared = 1;
    ctx->shared_failed = 0;
    if (pool) gpusvm__pool_run(pool, n, n, fn, arg);
    else gpusvm__parallel(n, fn, arg);
    said = ctx->shared_failed;
    ctx->shared = ctx->shared_failed = 0;
    for (k = 0; k < n; ++k)
        if (res[k] != GPUSVM_OK) return said ? ctx->last_error : res[k];
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__oom(gpusvm_context *ctx, const char *what)
{
    return gpusvm__fail(ctx, GPUSVM_ERR_OUT_OF_MEMORY, "out of host memory allocating %s", what);
}

static double gpusvm__now(void)
{
#ifdef GPUSVM__WINDOWS
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#elif defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#elif defined(GPUSVM__STRICT_POSIX) && defined(__linux__)
    struct gpusvm__timespec ts;
    clock_gettime(1 /* CLOCK_MONOTONIC */, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
    return (double)clock() / (double)CLOCKS_PER_SEC;
#endif
}

/* Locale-independent number text: "C" decimal point whatever setlocale() says. */
static char gpusvm__decimal_point(void)
{
    const struct lconv *lc = localeconv();
    return (lc && lc->decimal_point && lc->decimal_point[0]) ? lc->decimal_point[0] : '.';
}

static void gpusvm__fmt_g(char *buf, size_t size, int digits, double v)
{
    char dp = gpusvm__decimal_point();
    char *p;
    snprintf(buf, size, "%.*g", digits, v);
    if (dp != '.')
        for (p = buf; *p; ++p)
            if (*p == dp) *p = '.';
}

/* strtod on [s, end) with '.' as the decimal point; the whole token must be a number of at
   most GPUSVM__NUMBER_MAX characters. Returns 1 and the value, or 0. */
#define GPUSVM__NUMBER_MAX 1023
static int gpusvm__strtod(const char *s, size_t len, double *out)
{
    char tmp[GPUSVM__NUMBER_MAX + 1];
    char *e = NULL;
    char dp = gpusvm__decimal_point();
    size_t i;
    if (len == 0 || len > GPUSVM__NUMBER_MAX) return 0;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    if (dp != '.')
        for (i = 0; i < len; ++i)
            if (tmp[i] == '.') tmp[i] = dp;
    errno = 0;
    *out = strtod(tmp, &e);
    if (e != tmp + len) return 0;
    return 1;
}

/* Powers of ten that a double holds exactly. */
static const double gpusvm__pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                         1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The number a whole token spells, as strtod reads it in the "C" locale. Plain decimals whose
   significant digits fit 2^53 and whose power of ten is exact (|e| <= 22) take Clinger's fast
   path: one correctly rounded multiply or divide of exact operands, which is exactly strtod's
   answer; anything else (more digits, large exponents, inf, nan, hex) goes to strtod itself. */
static int gpusvm__parse_double(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len;
    uint64_t m = 0;
    int neg = 0, sig = 0, exp10 = 0, digits = 0, e = 0, eneg = 0;
    if (len == 0 || len > GPUSVM__NUMBER_MAX) return 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    for (; p < end && *p >= '0' && *p <= '9'; ++p, ++digits) {
        if (sig == 19) goto slow;
        m = m * 10 + (uint64_t)(*p - '0');
        sig += m != 0;
    }
    if (p < end && *p == '.')
        for (++p; p < end && *p >= '0' && *p <= '9'; ++p, ++digits, --exp10) {
            if (sig == 19) goto slow;
            m = m * 10 + (uint64_t)(*p - '0');
            sig += m != 0;
        }
    if (digits == 0) goto slow;
    if (p < end && (*p == 'e' || *p == 'E')) {
        if (++p < end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p == end) goto slow;
        for (; p < end && *p >= '0' && *p <= '9'; ++p) {
            if (e > 10000) goto slow;
            e = e * 10 + (*p - '0');
        }
        exp10 += eneg ? -e : e;
    }
    if (p != end || m > ((uint64_t)1 << 53) || exp10 < -22 || exp10 > 22) goto slow;
    *out = exp10 >= 0 ? (double)m * gpusvm__pow10[exp10] : (double)m / gpusvm__pow10[-exp10];
    if (neg) *out = -*out;
    return 1;
slow:
    return gpusvm__strtod(s, len, out);
}

/* Decimal integer token; 0 on malformed or out of [lo, hi]. */
static int gpusvm__parse_long(const char *s, size_t len, long long lo, long long hi, long long *out)
{
    long long v = 0;
    size_t i = 0;
    int neg = 0;
    if (len == 0) return 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == len) return 0;
    for (; i < len; ++i) {
        if (s[i] < '0' || s[i] > '9') return 0;
        if (v > (LLONG_MAX - (s[i] - '0')) / 10) return 0;
        v = v * 10 + (s[i] - '0');
    }
    if (neg) v = -v;
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int gpusvm__ieq(const char *a, const char *b)
{
    while (*a && *b) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
        ++a;
        ++b;
    }
    return *a == *b;
}
#ifndef GPUSVM_NO_OPENCL /* used by the OpenCL backend only */
static int gpusvm__icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle), i, j;
    if (n == 0) return 1;
    for (i = 0; hay[i]; ++i) {
        for (j = 0; j < n && hay[i + j]; ++j)
            if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)needle[j])) break;
        if (j == n) return 1;
    }
    return 0;
}
#endif

/* k(x, z) in float, operation for operation as gpusvm_kfun in kernels/00_common.cl. */
static float gpusvm__powi_f(float base, int times)
{
    float r = 1.0f, b = base;
    int t;
    for (t = times; t > 0; t /= 2) {
        if (t % 2 == 1) r *= b;
        b = b * b;
    }
    return r;
}
/* The kernel types of the shared block are the public enum's values minus one (DEFAULT is 0). */
typedef char gpusvm__ktype_check[(GPUSVM_KERNEL_LINEAR - 1 == GPUSVM__K_LINEAR &&
                                  GPUSVM_KERNEL_SIGMOID - 1 == GPUSVM__K_SIGMOID &&
                                  GPUSVM_KERNEL_PRECOMPUTED - 1 == GPUSVM__K_PRECOMPUTED) ? 1 : -1];
static int gpusvm__ktype(gpusvm_kernel_type k) { return (int)k - 1; }

static float gpusvm__kfun(int ktype, float dot, float nx, float nz, float gamma, float coef0, int degree)
{
    switch (ktype) {
    case GPUSVM__K_LINEAR: return dot;
    case GPUSVM__K_POLY: return gpusvm__powi_f(gamma * dot + coef0, degree);
    case GPUSVM__K_RBF: { /* below -104 expf is +0 (under half the least subnormal), and a C library that
                             sets errno on underflow takes a slow path there: 30% of a grid on svmguide1 */
        const float d2 = nx + nz - 2.0f * dot, e = -gamma * (d2 > 0.0f ? d2 : 0.0f);
        return e < -104.0f ? 0.0f : expf(e);
    }
    default: return tanhf(gamma * dot + coef0);
    }
}

static uint32_t gpusvm__float_key(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/* Internal CSR view (columns 0-based, ascending). */
typedef struct gpusvm__csr {
    size_t rows, cols;
    const size_t *row_ptr;
    const int32_t *col;
    const float *val;
} gpusvm__csr;

/* Row `row` of x's entries into col and val (all-zero data has no entry arrays: nothing to copy). */
static void gpusvm__csr_copy_row(const gpusvm__csr *x, size_t row, int32_t *col, float *val)
{
    const size_t at = x->row_ptr[row], len = x->row_ptr[row + 1] - at;
    if (!len) return;
    memcpy(col, x->col + at, len * sizeof(int32_t));
    memcpy(val, x->val + at, len * sizeof(float));
}

#ifndef GPUSVM_NO_OPENCL /* used by the OpenCL backend only */
/* |x_i|^2 in double (the sparse kernel rows' norms: float products are exact in double). */
static void gpusvm__norms_d(const gpusvm__csr *m, size_t first, size_t count, double *out)
{
    size_t i, k;
    for (i = 0; i < count; ++i) {
        double s = 0.0;
        for (k = m->row_ptr[first + i]; k < m->row_ptr[first + i + 1]; ++k) s += (double)m->val[k] * m->val[k];
        out[i] = s;
    }
}

/* Column-major copy with padded pitch and feature count: X[f * pitch + i]. */
static float *gpusvm__to_colmajor(const gpusvm_allocator *a, const gpusvm__csr *m, size_t first,
                                  size_t count, size_t pitch, size_t dpad)
{
    size_t total, i, k;
    float *x;
    if (!gpusvm__mul(pitch, dpad, &total)) return NULL;
    x = (float *)gpusvm__calloc(a, total, sizeof(float));
    if (!x) return NULL;
    for (i = 0; i < count; ++i)
        for (k = m->row_ptr[first + i]; k < m->row_ptr[first + i + 1]; ++k)
            x[(size_t)m->col[k] * pitch + i] = m->val[k];
    return x;
}
#endif

/* Squared norms, summed in column order as the kernels' dot products are. */
static void gpusvm__norms(const gpusvm__csr *m, size_t first, size_t count, float *out)
{
    size_t i, k;
    for (i = 0; i < count; ++i) {
        float s = 0.0f;
        for (k = m->row_ptr[first + i]; k < m->row_ptr[first + i + 1]; ++k) s += m->val[k] * m->val[k];
        out[i] = s;
    }
}

/* Entry (row, column) of a CSR matrix (0 where absent), by binary search. */
static float gpusvm__csr_at(const gpusvm__csr *m, size_t row, size_t column)
{
    size_t lo = m->row_ptr[row], hi = m->row_ptr[row + 1];
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((size_t)m->col[mid] < column) lo = mid + 1;
        else hi = mid;
    }
    return (lo < m->row_ptr[row + 1] && (size_t)m->col[lo] == column) ? m->val[lo] : 0.0f;
}

/* k(x_i, x_i) of point i: a precomputed problem's x holds the kernel matrix by columns. */
static float gpusvm__diag(const gpusvm__csr *x, size_t i, float norm, int ktype, float gamma, float coef0, int degree)
{
    if (ktype == GPUSVM__K_PRECOMPUTED) return gpusvm__csr_at(x, i, i);
    return gpusvm__kfun(ktype, norm, norm, norm, gamma, coef0, degree);
}

/* >>cl --------------------------------------------------------------------- */
/* The few OpenCL 1.2 types, constants and entry points gpusvm uses, declared here so that
   users need neither OpenCL headers nor -lOpenCL. The library is opened at run time
   (versioned SONAME first). With GPUSVM_NO_RUNTIME_LINKING the real <CL/cl.h> is included
   and every entry point below is assigned from the real function, so the compiler checks
   these declarations against the real prototypes. */
#ifndef GPUSVM_NO_OPENCL

#ifdef GPUSVM__WINDOWS
#define GPUSVM__CL_CALL __stdcall
#else
#define GPUSVM__CL_CALL
#endif

typedef int32_t gpusvm__cl_int;
typedef uint32_t gpusvm__cl_uint;
typedef uint64_t gpusvm__cl_ulong;
typedef gpusvm__cl_ulong gpusvm__cl_bitfield;

#ifdef GPUSVM_NO_RUNTIME_LINKING
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
typedef cl_platform_id gpusvm__cl_platform;
typedef cl_device_id gpusvm__cl_device;
typedef cl_context gpusvm__cl_context;
typedef cl_command_queue gpusvm__cl_queue;
typedef cl_mem gpusvm__cl_mem;
typedef cl_program gpusvm__cl_program;
typedef cl_kernel gpusvm__cl_kernel;
typedef cl_event gpusvm__cl_event;
typedef cl_context_properties gpusvm__cl_context_properties;
#else
typedef struct gpusvm__cl_platform_t *gpusvm__cl_platform;
typedef struct gpusvm__cl_device_t *gpusvm__cl_device;
typedef struct gpusvm__cl_context_t *gpusvm__cl_context;
typedef struct gpusvm__cl_queue_t *gpusvm__cl_queue;
typedef struct gpusvm__cl_mem_t *gpusvm__cl_mem;
typedef struct gpusvm__cl_program_t *gpusvm__cl_program;
typedef struct gpusvm__cl_kernel_t *gpusvm__cl_kernel;
typedef struct gpusvm__cl_event_t *gpusvm__cl_event;
typedef intptr_t gpusvm__cl_context_properties;
#endif

#define GPUSVM__CL_DEVICE_TYPE_CPU (1u << 1)
#define GPUSVM__CL_DEVICE_TYPE_GPU (1u << 2)
#define GPUSVM__CL_DEVICE_TYPE_ACCELERATOR (1u << 3)
#define GPUSVM__CL_DEVICE_TYPE_ALL 0xFFFFFFFFu
#define GPUSVM__CL_PLATFORM_NAME 0x0902
#define GPUSVM__CL_DEVICE_TYPE 0x1000
#define GPUSVM__CL_DEVICE_MAX_COMPUTE_UNITS 0x1002
#define GPUSVM__CL_DEVICE_MAX_WORK_GROUP_SIZE 0x1004
#define GPUSVM__CL_DEVICE_MAX_MEM_ALLOC_SIZE 0x1010
#define GPUSVM__CL_DEVICE_GLOBAL_MEM_SIZE 0x101F
#define GPUSVM__CL_DEVICE_LOCAL_MEM_SIZE 0x1023
#define GPUSVM__CL_DEVICE_NAME 0x102B
#define GPUSVM__CL_DRIVER_VERSION 0x102D
#define GPUSVM__CL_DEVICE_EXTENSIONS 0x1030
#define GPUSVM__CL_CONTEXT_PLATFORM 0x1084
#define GPUSVM__CL_PROGRAM_BUILD_LOG 0x1183
#define GPUSVM__CL_PROGRAM_BINARY_SIZES 0x1165
#define GPUSVM__CL_PROGRAM_BINARIES 0x1166
#define GPUSVM__CL_DEVICE_VERSION 0x102F
#define GPUSVM__CL_DEVICE_VENDOR 0x102C
#define GPUSVM__CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000 /* cl_nv_device_attribute_query */
#define GPUSVM__CL_KERNEL_WORK_GROUP_SIZE 0x11B0
#define GPUSVM__CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE 0x2033 /* cl_khr_subgroups */
#define GPUSVM__CL_KERNEL_NUM_ARGS 0x1191
#define GPUSVM__CL_MEM_SIZE 0x1102
#define GPUSVM__CL_EVENT_COMMAND_EXECUTION_STATUS 0x11D3
#define GPUSVM__CL_MEM_READ_WRITE (1u << 0)
#define GPUSVM__CL_MEM_ALLOC_HOST_PTR (1u << 4)
#define GPUSVM__CL_MAP_READ (1u << 0)
#define GPUSVM__CL_MAP_WRITE (1u << 1)
#define GPUSVM__CL_TRUE 1u
#define GPUSVM__CL_FALSE 0u

typedef void(GPUSVM__CL_CALL *gpusvm__cl_ctx_notify)(const char *, const void *, size_t, void *);
typedef void(GPUSVM__CL_CALL *gpusvm__cl_build_notify)(gpusvm__cl_program, void *);

struct gpusvm__cl_api {
    void *lib;
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetPlatformIDs)(gpusvm__cl_uint, gpusvm__cl_platform *, gpusvm__cl_uint *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetPlatformInfo)(gpusvm__cl_platform, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetDeviceIDs)(gpusvm__cl_platform, gpusvm__cl_bitfield, gpusvm__cl_uint,
                                                    gpusvm__cl_device *, gpusvm__cl_uint *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetDeviceInfo)(gpusvm__cl_device, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_context(GPUSVM__CL_CALL *clCreateContext)(const gpusvm__cl_context_properties *, gpusvm__cl_uint,
                                                         const gpusvm__cl_device *, gpusvm__cl_ctx_notify, void *,
                                                         gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseContext)(gpusvm__cl_context);
    gpusvm__cl_int(GPUSVM__CL_CALL *clRetainContext)(gpusvm__cl_context);
    gpusvm__cl_queue(GPUSVM__CL_CALL *clCreateCommandQueue)(gpusvm__cl_context, gpusvm__cl_device, gpusvm__cl_bitfield,
                                                            gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseCommandQueue)(gpusvm__cl_queue);
    gpusvm__cl_mem(GPUSVM__CL_CALL *clCreateBuffer)(gpusvm__cl_context, gpusvm__cl_bitfield, size_t, void *,
                                                    gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseMemObject)(gpusvm__cl_mem);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetMemObjectInfo)(gpusvm__cl_mem, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_program(GPUSVM__CL_CALL *clCreateProgramWithSource)(gpusvm__cl_context, gpusvm__cl_uint, const char **,
                                                                   const size_t *, gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clBuildProgram)(gpusvm__cl_program, gpusvm__cl_uint, const gpusvm__cl_device *,
                                                    const char *, gpusvm__cl_build_notify, void *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetProgramBuildInfo)(gpusvm__cl_program, gpusvm__cl_device, gpusvm__cl_uint,
                                                           size_t, void *, size_t *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseProgram)(gpusvm__cl_program);
    gpusvm__cl_int(GPUSVM__CL_CALL *clRetainProgram)(gpusvm__cl_program);
    gpusvm__cl_program(GPUSVM__CL_CALL *clCreateProgramWithBinary)(gpusvm__cl_context, gpusvm__cl_uint,
                                                                   const gpusvm__cl_device *, const size_t *,
                                                                   const unsigned char **, gpusvm__cl_int *,
                                                                   gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetProgramInfo)(gpusvm__cl_program, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_kernel(GPUSVM__CL_CALL *clCreateKernel)(gpusvm__cl_program, const char *, gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseKernel)(gpusvm__cl_kernel);
    gpusvm__cl_int(GPUSVM__CL_CALL *clSetKernelArg)(gpusvm__cl_kernel, gpusvm__cl_uint, size_t, const void *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetKernelInfo)(gpusvm__cl_kernel, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetKernelWorkGroupInfo)(gpusvm__cl_kernel, gpusvm__cl_device, gpusvm__cl_uint,
                                                              size_t, void *, size_t *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueNDRangeKernel)(gpusvm__cl_queue, gpusvm__cl_kernel, gpusvm__cl_uint,
                                                            const size_t *, const size_t *, const size_t *,
                                                            gpusvm__cl_uint, const gpusvm__cl_event *,
                                                            gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueReadBuffer)(gpusvm__cl_queue, gpusvm__cl_mem, gpusvm__cl_uint, size_t,
                                                         size_t, void *, gpusvm__cl_uint, const gpusvm__cl_event *,
                                                         gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueWriteBuffer)(gpusvm__cl_queue, gpusvm__cl_mem, gpusvm__cl_uint, size_t,
                                                          size_t, const void *, gpusvm__cl_uint,
                                                          const gpusvm__cl_event *, gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clFinish)(gpusvm__cl_queue);
    void *(GPUSVM__CL_CALL *clEnqueueMapBuffer)(gpusvm__cl_queue, gpusvm__cl_mem, gpusvm__cl_uint, gpusvm__cl_bitfield,
                                                size_t, size_t, gpusvm__cl_uint, const gpusvm__cl_event *,
                                                gpusvm__cl_event *, gpusvm__cl_int *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueUnmapMemObject)(gpusvm__cl_queue, gpusvm__cl_mem, void *, gpusvm__cl_uint,
                                                             const gpusvm__cl_event *, gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueMarkerWithWaitList)(gpusvm__cl_queue, gpusvm__cl_uint,
                                                                 const gpusvm__cl_event *, gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clEnqueueBarrierWithWaitList)(gpusvm__cl_queue, gpusvm__cl_uint,
                                                                  const gpusvm__cl_event *, gpusvm__cl_event *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clReleaseEvent)(gpusvm__cl_event);
    gpusvm__cl_int(GPUSVM__CL_CALL *clGetEventInfo)(gpusvm__cl_event, gpusvm__cl_uint, size_t, void *, size_t *);
    gpusvm__cl_int(GPUSVM__CL_CALL *clFlush)(gpusvm__cl_queue);
    void *(GPUSVM__CL_CALL *clGetExtensionFunctionAddressForPlatform)(gpusvm__cl_platform, const char *);
};
/* cl_khr_subgroups' clGetKernelSubGroupInfoKHR (through clGetExtensionFunctionAddressForPlatform) */
typedef gpusvm__cl_int(GPUSVM__CL_CALL *gpusvm__cl_sg_info_fn)(gpusvm__cl_kernel, gpusvm__cl_device, gpusvm__cl_uint,
                                                               size_t, const void *, size_t, void *, size_t *);

#define GPUSVM__CL_FUNCS(X)                                                                             \
    X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo) X(clCreateContext)    \
    X(clReleaseContext) X(clRetainContext) X(clCreateCommandQueue) X(clReleaseCommandQueue)             \
    X(clCreateBuffer) X(clReleaseMemObject) X(clGetMemObjectInfo) X(clCreateProgramWithSource)          \
    X(clBuildProgram) X(clGetProgramBuildInfo) X(clReleaseProgram) X(clRetainProgram)                   \
    X(clCreateProgramWithBinary) X(clGetProgramInfo) X(clCreateKernel) X(clReleaseKernel)               \
    X(clSetKernelArg) X(clGetKernelInfo) X(clGetKernelWorkGroupInfo) X(clEnqueueNDRangeKernel)          \
    X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clFinish) X(clEnqueueMapBuffer)                    \
    X(clEnqueueUnmapMemObject) X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList)           \
    X(clGetEventInfo) X(clReleaseEvent) X(clFlush) X(clGetExtensionFunctionAddressForPlatform)

static const char *gpusvm__cl_error_name(gpusvm__cl_int e)
{
    switch (e) {
    case 0: return "CL_SUCCESS";
    case -1: return "CL_DEVICE_NOT_FOUND";
    case -2: return "CL_DEVICE_NOT_AVAILABLE";
    case -3: return "CL_COMPILER_NOT_AVAILABLE";
    case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case -5: return "CL_OUT_OF_RESOURCES";
    case -6: return "CL_OUT_OF_HOST_MEMORY";
    case -7: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case -11: return "CL_BUILD_PROGRAM_FAILURE";
    case -30: return "CL_INVALID_VALUE";
    case -31: return "CL_INVALID_DEVICE_TYPE";
    case -32: return "CL_INVALID_PLATFORM";
    case -33: return "CL_INVALID_DEVICE";
    case -34: return "CL_INVALID_CONTEXT";
    case -36: return "CL_INVALID_COMMAND_QUEUE";
    case -38: return "CL_INVALID_MEM_OBJECT";
    case -44: return "CL_INVALID_PROGRAM";
    case -45: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case -46: return "CL_INVALID_KERNEL_NAME";
    case -48: return "CL_INVALID_KERNEL";
    case -49: return "CL_INVALID_ARG_INDEX";
    case -50: return "CL_INVALID_ARG_VALUE";
    case -51: return "CL_INVALID_ARG_SIZE";
    case -52: return "CL_INVALID_KERNEL_ARGS";
    case -53: return "CL_INVALID_WORK_DIMENSION";
    case -54: return "CL_INVALID_WORK_GROUP_SIZE";
    case -55: return "CL_INVALID_WORK_ITEM_SIZE";
    case -56: return "CL_INVALID_GLOBAL_OFFSET";
    case -61: return "CL_INVALID_BUFFER_SIZE";
    case -63: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
    }
}

/* gpusvm__fail with the OpenCL call that failed. */
static gpusvm_result gpusvm__cl_fail_f(gpusvm_context *ctx, gpusvm_error id, gpusvm__cl_int code, const char *call,
                                       int line, const char *fmt, ...)
{
    gpusvm_result r;
    va_list ap;
    va_start(ap, fmt);
    r = gpusvm__fail_v(ctx, id, call, (int)code, line, fmt, ap);
    va_end(ap);
    return r;
}

/* Records a failed OpenCL call on the context. The call's text is kept as written. */
static gpusvm_result gpusvm__cl_fail(gpusvm_context *ctx, gpusvm__cl_int code, const char *call, int line)
{
    const gpusvm_error id = (code == -4 || code == -61) ? GPUSVM_ERR_DEVICE_MEMORY : GPUSVM_ERR_OPENCL_CALL;
    return gpusvm__cl_fail_f(ctx, id, code, call, line, "OpenCL call failed: %s returned %d (%s) [gpusvm.h:%d]", call,
                             (int)code, gpusvm__cl_error_name(code), line);
}

/* Every OpenCL call goes through this: on failure it records the call and jumps to 'fail'
   with r set; the function's cleanup after 'fail' runs in reverse order of creation. */
#define GPUSVM__CL(ctx, call)                                                     \
    do {                                                                          \
        gpusvm__cl_int gpusvm__e = (call);                                        \
        if (gpusvm__e != 0) {                                                     \
            r = gpusvm__cl_fail((ctx), gpusvm__e, #call, __LINE__);               \
            goto fail;                                                            \
        }                                                                         \
    } while (0)

/* For the create functions that return the object and report through a pointer. */
#define GPUSVM__CL_CREATE(ctx, lhs, call)                                         \
    do {                                                                          \
        gpusvm__cl_int gpusvm__e = 0;                                             \
        lhs = call;                                                               \
        if (gpusvm__e != 0 || !(lhs)) {                                           \
            r = gpusvm__cl_fail((ctx), gpusvm__e ? gpusvm__e : -6, #call, __LINE__); \
            goto fail;                                                            \
        }                                                                         \
    } while (0)

/* The OpenCL library stays loaded once opened: ICD loaders and vendor drivers do not unload
   cleanly (ocl-icd, for one, leaks its platform list on every reload). A second dlopen of the
   same library returns the same handle, so contexts share one load. */
static void gpusvm__cl_unload(gpusvm__cl_api *api)
{
    if (api) api->lib = NULL;
}

/* Fills api; returns 0 when no OpenCL library (or an entry point) is found. */
#ifdef GPUSVM_TEST_HOOKS
/* Test builds only: sees the loaded entry points (and may wrap them) before any is called. */
void gpusvm__test_cl_hook(gpusvm__cl_api *api);
#endif

static int gpusvm__cl_load_lib(gpusvm__cl_api *api, const char *library, char *why, size_t why_size);
static int gpusvm__cl_load(gpusvm__cl_api *api, const char *library, char *why, size_t why_size)
{
    int ok = gpusvm__cl_load_lib(api, library, why, why_size);
#ifdef GPUSVM_TEST_HOOKS
    if (ok) gpusvm__test_cl_hook(api);
#endif
    return ok;
}

static int gpusvm__cl_load_lib(gpusvm__cl_api *api, const char *library, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
#ifdef GPUSVM_NO_RUNTIME_LINKING
#define GPUSVM__X(name) api->name = name;
    GPUSVM__CL_FUNCS(GPUSVM__X)
#undef GPUSVM__X
    (void)library;
    (void)why;
    (void)why_size;
    return 1;
#else
    {
#if defined(GPUSVM__WINDOWS)
        static const char *const names[] = {"OpenCL.dll"};
#elif defined(__APPLE__)
        static const char *const names[] = {"/System/Library/Frameworks/OpenCL.framework/OpenCL"};
#else
        static const char *const names[] = {"libOpenCL.so.1", "libOpenCL.so"};
#endif
        size_t i, count = sizeof names / sizeof names[0];
        for (i = 0; i < (library ? 1 : count) && !api->lib; ++i) {
            const char *name = library ? library : names[i];
#ifdef GPUSVM__WINDOWS
            api->lib = (void *)LoadLibraryA(name);
#else
            api->lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
#endif
        }
        if (!api->lib) {
            snprintf(why, why_size, "no OpenCL library (%s) could be loaded", library ? library : names[0]);
            return 0;
        }
#ifdef GPUSVM__WINDOWS
#define GPUSVM__SYM(name) (void *)GetProcAddress((HMODULE)api->lib, name)
#else
#define GPUSVM__SYM(name) dlsym(api->lib, name)
#endif
#define GPUSVM__X(name)                                                              \
    {                                                                                \
        void *p = GPUSVM__SYM(#name);                                                \
        if (!p) {                                                                    \
            snprintf(why, why_size, "the OpenCL library lacks %s (OpenCL 1.2 needed)", #name); \
            gpusvm__cl_unload(api);                                                  \
            memset(api, 0, sizeof *api);                                             \
            return 0;                                                                \
        }                                                                            \
        memcpy(&api->name, &p, sizeof p);                                            \
    }
        GPUSVM__CL_FUNCS(GPUSVM__X)
#undef GPUSVM__X
#undef GPUSVM__SYM
        return 1;
    }
#endif
}

#endif /* GPUSVM_NO_OPENCL */

/* >>backend ---------------------------------------------------------------- */
/* The solver talks to a device only through this interface. A backend owns the training
   state on its device (data, y, alpha, G, the working set, its kernel rows, the status
   vector); the solver only sequences the steps and reads the status back. Both backends
   implement every step with the same arithmetic in the same order, so the C backend is the
   oracle the OpenCL kernels are tested against. */

/* A binary training problem, rows grouped by class as LIBSVM groups them. The problems of one
   batch (train.begin's array) share x and the kernel: each takes its points through its map. */
typedef struct gpusvm__problem {
    gpusvm__csr x;        /* the points of the batch, d = x.cols features */
    const int32_t *map;   /* point k of this problem is row map[k] of x; NULL: row k */
    size_t npts;          /* its points: x.rows without a map */
    size_t nvar;          /* variables: npts, or 2 npts for epsilon-SVR (variable v is point GPUSVM__PT(v, npts)) */
    const signed char *y; /* +1 / -1, per variable */
    const double *C;      /* the upper bound of each variable: its class's C times its sample's weight */
    int ktype;            /* 0 linear, 1 poly, 2 rbf, 3 sigmoid, 4 precomputed (x is the kernel matrix, by columns) */
    float gamma, coef0;
    int degree;
    int nu;               /* 1: LIBSVM's Solver_NU (one equality constraint per class: selection and stop per class) */
    int cache;            /* Crammer-Singer's row cache: a slot for every variable's row (set on every problem) */
    int own_rows;         /* 1 (Crammer-Singer): the backend holds exactly the rows above, in its own layout;
                             0: it may keep more rows as a cache of its own (the C backend does) */
} gpusvm__problem;

/* The kernel-row work of nprob problems, variables times points summed: what a batch asks of a
   device, for choosing how many devices it pays to use. */
static double gpusvm__work(const gpusvm__problem *p, int nprob)
{
    double w = 0.0;
    int t;
    for (t = 0; t < nprob; ++t) w += (double)p[t].nvar * (double)p[t].npts;
    return w;
}

/* The kernel-row slots a problem holds: its working set's, or with the cache one per variable. */
static size_t gpusvm__krows(const gpusvm__problem *p, int q)
{
    const size_t qt = p->nvar <= (size_t)q ? p->nvar : (size_t)q;
    return p->cache ? p->nvar : qt;
}

/* The row of x a problem's point k is. */
static size_t gpusvm__map_pt(const gpusvm__problem *p, size_t k)
{
    return p->map ? (size_t)p->map[k] : k;
}

/* Pair updates a problem whose working set is every variable may make in one inner solve. */
#define GPUSVM__WHOLE_INNER 100000
/* A round's inner solve (a working set of q positions) stops at max(eps, GPUSVM__INNER_RATIO x
   the round's gap) or after GPUSVM__INNER_UPDATES x q pair updates, whichever comes first. */
#define GPUSVM__INNER_RATIO 0.1
#define GPUSVM__INNER_UPDATES 20

/* Training works on a batch: problems that share one copy of the points on the device and
   advance together, every step one launch for all of them (one work-group or grid slice per
   problem), each with its own working set, rows, state and status. A problem with no more
   variables than the working-set size q is solved whole (its working set is every variable;
   the selection only checks optimality); the others take q/2 new variables per outer
   iteration. Per-variable state is the problems' concatenated, in problem order; the status
   is GPUSVM__ST_COUNT doubles per problem. */
/* Crammer-Singer's problems as the backend takes them (a batch: train.begin's problems, one per
   fold): problem p has n[p] points and m[p] classes; each point's class, bound and k(x_i, x_i),
   the problems' concatenated; cache: every point's row is kept once computed; the sweeps stop at
   ratio times the working set's first violation, or eps. */
typedef struct gpusvm__cs_desc {
    int nprob, cache;
    const size_t *n;
    const int *m, *cls;
    const double *U, *kd;
    double eps, ratio;
} gpusvm__cs_desc;

/* A round's working set for a problem split by rows, merged from every part's report once
   (split.merge) and written to every part (split.apply): moved as gpusvm__split_merge returns it,
   st the status row, ws the set then its slots (q each), g its gradients, xw its points' vectors
   (q x dpad, as gpusvm_gather_ws lays them out; set where moved is 1). */
typedef struct gpusvm__split_out {
    int moved;
    const double *st;
    const int32_t *ws;
    const double *g;
    const float *xw;
} gpusvm__split_out;

#define GPUSVM__MAX_DEVICES 16 /* in one context (desc.devices) */
/* Lanes (gpusvm__lane_steps) a GPU's independent jobs run on at once: a grid's points, a lane a
   point (one H200, a9a 5 x 5 grid of 5 folds: a lane a point against one batch of every point);
   GPUSVM_LANES sets another count up to GPUSVM__MAX_LANES, or lanes on a CPU device (tests). */
#define GPUSVM__LANES 8
#define GPUSVM__MAX_LANES 16

/* A batch's plan, the solver's choices for it (train.bytes and train.begin take it): the working-set
   size q, the bytes all kernel rows may take (params.cache_size_mb; 0: the backend's choice),
   whether problems solved whole may shrink (params.shrinking; the C backend does), and this
   backend's part of a problem split by rows (parts < 2: none; desc.split's processes, or the multi
   section's devices, each told its own). */
typedef struct gpusvm__plan {
    int q;
    size_t rows_budget;
    int shrinking;
    int parts, part;
} gpusvm__plan;

/* The interface in five tables, each a contract: what a backend must do and what it may leave NULL.
   The solver calls only these; which backend runs them is never asked.

   train, the SMO steps (NULL only in a GPUSVM_PREDICT_ONLY build): a backend that trains fills
   every entry but flush. bytes: the device bytes a batch would hold under a plan; mem_left: the
   bytes the device-memory budget has left (the C backend says 0 and SIZE_MAX). begin takes the
   batch (its state: alpha = 0, G = -1, the working sets empty); each outer round is then select
   (first: the first round, whole working sets), rows (first: compute every row), smo (the inner
   solve: stop at max(eps, ratio x the round's gap) or max_inner pair updates), update (the
   gradient); flush submits what the steps enqueued without waiting (NULL: nothing is queued);
   read_status reads GPUSVM__ST_COUNT doubles per problem; read_state alpha and G; end frees the
   batch. write_state / write_ws set every problem's state, and the first m positions of every
   working set, for the solver's set-up. */
typedef struct gpusvm__train_steps {
    size_t (*bytes)(gpusvm__backend *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan);
    size_t (*mem_left)(gpusvm__backend *b);
    gpusvm_result (*begin)(gpusvm__backend *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan);
    gpusvm_result (*select)(gpusvm__backend *b, int first, double eps, double max_iter);
    gpusvm_result (*rows)(gpusvm__backend *b, int first);
    gpusvm_result (*smo)(gpusvm__backend *b, double eps, double ratio, int max_inner, double max_iter);
    gpusvm_result (*update)(gpusvm__backend *b);
    void (*flush)(gpusvm__backend *b);
    gpusvm_result (*read_status)(gpusvm__backend *b, double *st);
    gpusvm_result (*read_state)(gpusvm__backend *b, double *alpha, double *G);
    void (*end)(gpusvm__backend *b);
    gpusvm_result (*write_state)(gpusvm__backend *b, const double *alpha, const double *G, const double *st);
    gpusvm_result (*write_ws)(gpusvm__backend *b, const int *idx, const int *slot, int m);
} gpusvm__train_steps;

/* cs, Crammer-Singer (the solver's cs section; NULL where train is): every entry. After train.begin
   of its problems (the points; every label +1 and bound 1; cache: a row for every point), begin
   takes the classes, bounds and diagonal and the working-set size (lowered to what the backend
   holds); step runs step 0..3 of an outer iteration (0 responses and gap shares, 1 stop check and
   working set, 2 missing rows, 3 sweeps; nothing once the status says done; first: the first
   round); read the status (GPUSVM__ST_*, ST_CS_*) and, with alpha, the n x m dual. */
typedef struct gpusvm__cs_steps {
    gpusvm_result (*begin)(gpusvm__backend *b, const gpusvm__cs_desc *d, int *q);
    gpusvm_result (*step)(gpusvm__backend *b, int step, int first, double eps, double max_iter);
    gpusvm_result (*read)(gpusvm__backend *b, double *st, double *alpha);
} gpusvm__cs_steps;

/* split, one problem split by rows across backends (the multi section drives them; desc.split's
   processes drive themselves); NULL where the backend has no split of its own, else every entry.
   Under a plan with parts > 1 a backend holds the kernel rows and gradient of its share of the
   points (gpusvm__part_lo). splits: whether begin under that plan would split this batch (else every
   part would solve it whole). Each round's select is then post (this share's report enqueued), take
   (it, read), merge on one part (every part's reports side by side, in part order: the working set
   one device chooses, with its points' vectors) and apply on every part (the merged set written,
   from that part's copies); train.read_state's G holds this share's variables only. */
typedef struct gpusvm__split_steps {
    int (*splits)(gpusvm__backend *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan);
    gpusvm_result (*post)(gpusvm__backend *b, int first);
    gpusvm_result (*take)(gpusvm__backend *b, const void **report, size_t *bytes);
    gpusvm_result (*merge)(gpusvm__backend *b, const void *reports, double eps, double max_iter, gpusvm__split_out *out);
    gpusvm_result (*apply)(gpusvm__backend *b, const gpusvm__split_out *merged);
} gpusvm__split_steps;

/* devices, several devices behind one backend (the multi section, at most GPUSVM__MAX_DEVICES;
   NULL where the backend is one device): count, how many; spreads, whether work (the kernel-row
   work of a batch or of independent jobs, gpusvm__work) pays for spreading it over them (a device
   not yet used costs its context, a copy of the points and its kernels); device(b, k), device k's
   own backend, none split (NULL past the last), for independent calls each on a context and
   thread of its own (gpusvm__jobs_run; its ready hook opens it). */
typedef struct gpusvm__device_steps {
    int (*count)(gpusvm__backend *b);
    int (*spreads)(gpusvm__backend *b, double work);
    gpusvm__backend *(*device)(gpusvm__backend *b, int k);
} gpusvm__device_steps;

/* lanes, one device's queues side by side (NULL where the backend has none: the C backend, a CPU
   device; several devices take their first device's, for work that stays on it): open(b, n, k)
   makes lane k of n, a backend of its own on b's device and context (so the device runs the lanes'
   kernels at once, where separate contexts would take turns) with its own queue and kernels, b's
   programs, and 1/n of the device memory b has left; NULL when it cannot. For independent calls,
   each lane's on a thread of its own (gpusvm__jobs_run); the caller destroys the lanes before b. */
typedef struct gpusvm__lane_steps {
    gpusvm__backend *(*open)(gpusvm__backend *b, int n, int k);
} gpusvm__lane_steps;

/* A backend: its tables, two calls every build has, and its limits, set when it is made and read
   only after that. */
struct gpusvm__backend {
    gpusvm_context *ctx;
    const gpusvm__train_steps *train;
    const gpusvm__cs_steps *cs;
    const gpusvm__split_steps *split;
    const gpusvm__device_steps *devices;
    const gpusvm__lane_steps *lanes;
    /* prediction, for nv coefficient vectors: out[t * x->rows + i] = sum_j coef[t * sv->rows + j] k(sv_j, x_i)
       (before rho); zero coefficients cost nothing */
    gpusvm_result (*decision)(gpusvm__backend *b, const gpusvm__csr *sv, const double *coef, int nv,
                              const gpusvm__csr *x, int ktype, float gamma, float coef0, int degree, double *out);
    /* opens the device of a backend made without it (several devices: each but the first, until
       work first reaches it): its context, queue and first kernels; GPUSVM_OK at once where it is
       open. NULL: a backend is ready when made. */
    gpusvm_result (*ready)(gpusvm__backend *b);
    void (*destroy)(gpusvm__backend *b);
    int pairs;        /* its dual variables and gradients are float pairs (an OpenCL device without fp64) */
    int qcap;         /* largest working set the device supports */
    int q_large;      /* the working-set size for problems of GPUSVM__LARGE_NVAR variables or more (0: qcap) */
    int whole_most;   /* a batch of several problems solves problems of up to this many variables whole, past
                         qcap (0: none; the C backend, where each is then one thread's, and a working set's rows
                         and updates would be split across threads that have problems of their own; not
                         decided by the thread count, nor by a split, so that every count and every split
                         gives the same models: a split context's parts each solve those problems alone) */
    size_t max_alloc; /* largest single device buffer */
    size_t cache_budget; /* bytes a row cache may take beside what train.bytes counts (C backend: host memory) */
    int cs_q;            /* Crammer-Singer's working-set size and sweep ratio, chosen by measurement: the */
    double cs_ratio;     /* sweeps' launch-bound steps on a GPU favour 32 and 0.25, the C backend 64 and 0.1 */
    int status_cheap; /* reading the status costs nothing (no queue to drain): read it every round */
    /* with several devices, its calls are worth a host thread of their own (gpusvm__multi_run): a
       GPU's or accelerator's; not a CPU device's, whose driver runs on the host's cores anyway (and
       PoCL 3.1, two contexts on one CPU device launching from two threads, fails an assertion of
       its own: pocl_release_dlhandle_cache) */
    int own_thread;
#ifdef GPUSVM_TEST_HOOKS
    struct { /* the kernel tests' access to problem 0's working set, its rows (read_rows: every slot's), and poisoned outputs */
        gpusvm_result (*read_ws)(gpusvm__backend *b, int *idx, int *slot, double *coef, int m);
        gpusvm_result (*read_rows)(gpusvm__backend *b, float *K);
        gpusvm_result (*write_rows)(gpusvm__backend *b, const float *K);
        gpusvm_result (*poison)(gpusvm__backend *b);
    } test;
#endif
};

/* Part r's first point of npts split in parts (gpusvm_split): contiguous shares, sizes within one. */
static size_t gpusvm__part_lo(size_t npts, int parts, int r)
{
    return (size_t)((uint64_t)npts * (uint64_t)r / (uint64_t)parts);
}

/* The part that holds point pt. */
static int gpusvm__part_of(size_t npts, int parts, size_t pt)
{
    int r = npts ? (int)((uint64_t)pt * (uint64_t)parts / (uint64_t)npts) : 0;
    while (r > 0 && pt < gpusvm__part_lo(npts, parts, r)) --r;
    while (r + 1 < parts && pt >= gpusvm__part_lo(npts, parts, r + 1)) ++r;
    return r;
}


/* >>cpu -------------------------------------------------------------------- */
/* The plain-C backend: the fallback without OpenCL, and the tests' oracle. */

/* One problem of the batch: its table entry and its views into the batch's arrays. */
typedef struct gpusvm__cpu_job {
    gpusvm__problem p;
    size_t n, npts; /* variables, points */
    int q, whole;
    double *alpha, *G, *coef, *st;
    float *K;  /* lines rows of npts: the working set's and the cache's (gpusvm__cpu_assign) */
    float *qd; /* k(x_i, x_i) per variable */
    uint32_t *key_up, *key_low;
    int *ws_idx, *ws_slot;
    /* the row cache: line l holds the row of variable line_var[l] (-1: none), used last in
       round line_used[l]; var_line[v] is v's line or -1; the rows a round computes are those of
       variables miss[0..nmiss) into lines miss[q..q + nmiss) */
    int lines, nmiss, *line_var, *var_line, *miss;
    uint64_t *line_used, round;
    /* lazy (a whole problem): the rows are computed as the inner solve first reads them, have[t]
       for position t, nhave of them, the rest at once past GPUSVM__CPU_LAZY_SHARE (gpusvm__cpu_need) */
    unsigned char *have;
    int lazy, nhave;
    /* the points whose columns its rows hold, [plo, plo + kw) (cmap: their rows of x), and its
       variables, the nr ranges [vlo, vhi): every point and variable, or with split (a context
       split across processes, a problem not solved whole) this part's share: its gradient is
       kept for those variables only, its alpha for all (every part runs the same inner solves) */
    int split, nr;
    size_t plo, kw, vlo[2], vhi[2];
    const int32_t *cmap;
    /* rows shared by problems solved whole on the same points (a grid's C values, each fold's):
       -1, or the earlier job whose rows it reads (computed once, all at once, by that job) */
    int rows_of;
    /* the round's rows left to its inner solve (gpusvm__cpu_smo_overlap): 0 none, 1 the misses,
       2 the working set's (as gpusvm__cpu_rows_list's first); updated: and the round's gradient
       update done there too (the update step passes it by once) */
    int defer, updated;
} gpusvm__cpu_job;

typedef struct gpusvm__cpu {
    gpusvm__backend base;
    gpusvm__csr x; /* the batch's points */
    size_t d, nvar, krows; /* features; variables and kernel-row floats of the batch */
    int nprob, qmax, ktype, degree, nu;
    int shrinking; /* the batch's plan: problems solved whole may shrink */
    float coef0;   /* gamma: each problem's own (a grid's differ) */
    gpusvm__cpu_job *job;
    double *alpha, *G, *coef, *st;
    float *K, *qd;
    float *norm;  /* |x_i|^2 of the batch's points */
    float *dense; /* per thread: 8 rows densified and interleaved (dstride = 8 d), or one (d) */
    size_t dstride;
    size_t kcost; /* a kernel value's operations, about: the points' mean nonzeros, and the kernel's */
    int threads;  /* the context's: kernel rows and gradient updates are split across them */
    uint32_t *key_up, *key_low;
    int *ws_idx, *ws_slot;
    int *line_var, *var_line, *miss; /* the jobs' row caches */
    unsigned char *have;             /* the jobs' lazy rows */
    uint64_t *line_used, *line_keys; /* line_keys: gpusvm__cpu_assign's scratch (the most lines of a job) */
    uint64_t *sel_heaps;             /* gpusvm__cpu_select_k's, q a thread */
    volatile long *tile_left;        /* gpusvm__cpu_smo_overlap's, a tile of the widest job's columns each */
    size_t rows_new, rows_reused;    /* the batch's rows after the first round: computed, found in the cache */
    gpusvm__pool pool;         /* its threads during a training (started by the first step that splits) */
    struct gpusvm__cpu_cs *cs; /* Crammer-Singer's state (cs.begin), one per problem */
    int ncs;
    unsigned char *smo_scratch; /* the inner solves' working sets, one per thread, kept across rounds */
    size_t smo_bytes;
    /* a split context: the split jobs' cmap, the allgather's buffers (send: q words, recv: parts x q),
       and whether an allgather failed (the training stops) */
    int32_t *cmap;
    uint64_t *xsend, *xrecv;
    int xfailed;
    unsigned char *xblock;      /* the working-set blocks' allgather: every part's columns */
    size_t xblock_bytes;
    int *rows_of; /* train.begin's problems: gpusvm__cpu_same_rows of each */
    int *order;   /* and the order the threads take their inner solves in (gpusvm__cpu_order) */
} gpusvm__cpu;

/* The training state's arrays, one table: train.begin allocates each it wants (zeroed where
   marked) and fails on any it cannot have, train.end frees and clears each. count is an expression
   over train.begin's locals (0 gets a byte: gpusvm__alloc); want: whether the batch has it (dense:
   up to GPUSVM__DENSE_MAX features; the allgather's: a split context; 0: grown by the step that
   uses it, smo_scratch and xblock). _FIRST: what the batch's sizes are worked out from. */
#define GPUSVM__CPU_STATE_FIRST(X_) X_(rows_of, int, (size_t)nprob, 0, 1) X_(order, int, (size_t)nprob, 0, 1)
#define GPUSVM__CPU_STATE(X_)                                                                                       \
    X_(job, gpusvm__cpu_job, (size_t)nprob, 1, 1) X_(alpha, double, nvar, 1, 1) X_(G, double, nvar, 0, 1)             \
    X_(coef, double, ws, 1, 1) X_(st, double, (size_t)nprob * GPUSVM__ST_COUNT, 1, 1)                                 \
    X_(K, float, krows, 0, 1) /* zeroed per job */ X_(qd, float, nvar, 0, 1) X_(norm, float, p[0].x.rows, 0, 1)       \
    X_(dense, float, (size_t)b->threads * b->dstride, 1, b->d <= GPUSVM__DENSE_MAX)                                   \
    X_(key_up, uint32_t, nvar, 0, 1) X_(key_low, uint32_t, nvar, 0, 1) X_(ws_idx, int, ws, 1, 1)                      \
    X_(ws_slot, int, ws, 1, 1) X_(line_var, int, lines, 0, 1) X_(var_line, int, nvar, 0, 1) X_(miss, int, 2 * ws, 1, 1) \
    X_(line_used, uint64_t, lines, 1, 1) X_(line_keys, uint64_t, most, 0, 1)                                          \
    X_(sel_heaps, uint64_t, (size_t)b->threads * (size_t)q, 0, 1)                                                     \
    X_(tile_left, volatile long, widest / GPUSVM__CPU_TILE + 1, 0, 1) X_(have, unsigned char, ws, 1, 1)               \
    X_(cmap, int32_t, shared, 0, parts > 1) X_(xsend, uint64_t, (size_t)(q > 4 ? q : 4), 0, parts > 1)                \
    X_(xrecv, uint64_t, (size_t)(q > 4 ? q : 4) * (size_t)parts, 0, parts > 1)                                       \
    X_(smo_scratch, unsigned char, 0, 0, 0) X_(xblock, unsigned char, 0, 0, 0)
#define GPUSVM__CPU_ALLOC(f, T, n, zeroed, want)                                                                     \
    if (want) {                                                                                                      \
        b->f = (T *)(zeroed ? gpusvm__calloc(a, (n), sizeof(T)) : gpusvm__alloc(a, (n), sizeof(T)));                \
        ok = ok && b->f;                                                                                             \
    }

static void gpusvm__cpu_cs_free(const gpusvm_allocator *a, struct gpusvm__cpu_cs *s, int nprob);
static void gpusvm__cpu_settle(gpusvm__cpu *b);
static void gpusvm__cpu_accumulate(double *out, const signed char *y, size_t lo, size_t hi, const float *K, size_t ldk,
                                   size_t col0, const int *slot, const double *coef, int m, size_t npts);

/* fn(arg, t) for t = 0..parts-1 on the context's threads (the backend's pool). */
static void gpusvm__cpu_run(gpusvm__cpu *b, int parts, void (*fn)(void *arg, int t), void *arg)
{
    gpusvm__pool_run(&b->pool, b->threads, parts, fn, arg);
}

/* The threads for `items` items of `cost` each: one below about a million operations in all. */
static int gpusvm__cpu_parts(const gpusvm__cpu *b, size_t items, size_t cost)
{
    const size_t work = items * (cost ? cost : 1);
    int n = b->threads;
    if (work < ((size_t)1 << 20) || items < 2) return 1;
    if ((size_t)n > items) n = (int)items;
    return n;
}

static void gpusvm__cpu_train_end(gpusvm__backend *bb)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    const gpusvm_allocator *a = &bb->ctx->alloc;
    if (b->rows_new + b->rows_reused)
        gpusvm__log(bb->ctx, GPUSVM_LOG_DEBUG, "C backend: %lu kernel rows computed after the first round, %lu found in its row cache",
                    (unsigned long)b->rows_new, (unsigned long)b->rows_reused);
    b->rows_new = b->rows_reused = 0;
    gpusvm__pool_stop(&b->pool);
#define GPUSVM__CPU_FREE(f, T, n, zeroed, want)                                                                      \
    gpusvm__free(a, (void *)b->f);                                                                                   \
    b->f = NULL;
    GPUSVM__CPU_STATE_FIRST(GPUSVM__CPU_FREE)
    GPUSVM__CPU_STATE(GPUSVM__CPU_FREE)
#undef GPUSVM__CPU_FREE
    b->smo_bytes = 0;
    b->xblock_bytes = 0;
    b->xfailed = 0;
    gpusvm__cpu_cs_free(a, b->cs, b->ncs);
    b->cs = NULL;
    b->ncs = 0;
    b->nprob = 0;
}

/* dot(dense w, row i of m) in column order, as the OpenCL tile accumulates it. */
static float gpusvm__dot_dense(const gpusvm__csr *m, size_t i, const float *w)
{
    float s = 0.0f;
    size_t k;
    for (k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k) s += m->val[k] * w[m->col[k]];
    return s;
}

/* dot(dense w, rows map[first..first+count) of m) into out[0..count) (map NULL: the rows
   themselves): each one exactly gpusvm__dot_dense's sum, four rows interleaved so their chains
   of additions overlap (a lone row's sum waits on each addition before the next). */
static void gpusvm__dots_dense(const gpusvm__csr *m, const int32_t *map, size_t first, size_t count, const float *w,
                               float *out)
{
    const size_t *rp = m->row_ptr;
    const int32_t *col = m->col;
    const float *val = m->val;
    size_t i = 0, k;
    for (; i + 4 <= count; i += 4) {
        const size_t r0 = map ? (size_t)map[first + i] : first + i, r1 = map ? (size_t)map[first + i + 1] : r0 + 1,
                     r2 = map ? (size_t)map[first + i + 2] : r0 + 2, r3 = map ? (size_t)map[first + i + 3] : r0 + 3;
        const size_t p0 = rp[r0], p1 = rp[r1], p2 = rp[r2], p3 = rp[r3];
        const size_t n0 = rp[r0 + 1] - p0, n1 = rp[r1 + 1] - p1, n2 = rp[r2 + 1] - p2, n3 = rp[r3 + 1] - p3;
        const size_t m01 = n0 < n1 ? n0 : n1, m23 = n2 < n3 ? n2 : n3, len = m01 < m23 ? m01 : m23;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        if (n0 == len && n1 == len && n2 == len && n3 == len && len && col[p0] == 0 && col[p1] == 0 &&
            col[p2] == 0 && col[p3] == 0 && (size_t)col[p0 + len - 1] == len - 1 &&
            (size_t)col[p1 + len - 1] == len - 1 && (size_t)col[p2 + len - 1] == len - 1 &&
            (size_t)col[p3 + len - 1] == len - 1) { /* four full rows (ascending indices from 0 to len - 1) */
            for (k = 0; k < len; ++k) {
                const float wk = w[k];
                s0 += val[p0 + k] * wk;
                s1 += val[p1 + k] * wk;
                s2 += val[p2 + k] * wk;
                s3 += val[p3 + k] * wk;
            }
        } else {
            for (k = 0; k < len; ++k) {
                s0 += val[p0 + k] * w[col[p0 + k]];
                s1 += val[p1 + k] * w[col[p1 + k]];
                s2 += val[p2 + k] * w[col[p2 + k]];
                s3 += val[p3 + k] * w[col[p3 + k]];
            }
        }
        for (k = len; k < n0; ++k) s0 += val[p0 + k] * w[col[p0 + k]];
        for (k = len; k < n1; ++k) s1 += val[p1 + k] * w[col[p1 + k]];
        for (k = len; k < n2; ++k) s2 += val[p2 + k] * w[col[p2 + k]];
        for (k = len; k < n3; ++k) s3 += val[p3 + k] * w[col[p3 + k]];
        out[i] = s0;
        out[i + 1] = s1;
        out[i + 2] = s2;
        out[i + 3] = s3;
    }
    for (; i < count; ++i) out[i] = gpusvm__dot_dense(m, map ? (size_t)map[first + i] : first + i, w);
}

/* dot(row i of a, row j of b) by merging the sorted index lists: the same products in the same
   order as gpusvm__dot_dense, without a dense vector (for index spaces too large for one). */
static float gpusvm__dot_sparse(const gpusvm__csr *a, size_t i, const gpusvm__csr *b, size_t j)
{
    float s = 0.0f;
    size_t p = a->row_ptr[i], pe = a->row_ptr[i + 1], q = b->row_ptr[j], qe = b->row_ptr[j + 1];
    while (p < pe && q < qe) {
        if (a->col[p] == b->col[q]) s += b->val[q++] * a->val[p++];
        else if (a->col[p] < b->col[q]) ++p;
        else ++q;
    }
    return s;
}

/* Feature counts up to this use a dense scratch vector in the C backend; above it, merging. */
#define GPUSVM__DENSE_MAX ((size_t)1 << 22)
#define GPUSVM__CPU_WIDE 8                  /* kernel rows the C backend computes in one pass over the points */
#define GPUSVM__CPU_WIDE_D ((size_t)1 << 16) /* up to this many features (a thread's scratch: 8 x 4 bytes each) */
#define GPUSVM__CPU_TILE ((size_t)512) /* B's points per tile: their nonzeros stay in cache for every 8 rows */

static void gpusvm__densify(const gpusvm__csr *m, size_t i, float *w, size_t d, int clear)
{
    size_t k;
    if (clear) {
        for (k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k)
            if ((size_t)m->col[k] < d) w[m->col[k]] = 0.0f;
        return;
    }
    for (k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k)
        if ((size_t)m->col[k] < d) w[m->col[k]] = m->val[k];
}

#ifndef GPUSVM__CPU_ROW_CACHE
#define GPUSVM__CPU_ROW_CACHE ((size_t)512 << 20) /* the C backend's row cache beside the working sets: bytes per batch */
#endif

/* >>cpu/plan: a batch's jobs, their shares and rows: train.begin -------------------------------- */

/* The rows a problem keeps in the C backend: its working set's and, where it has twice as many
   variables or more, up to its share of GPUSVM__CPU_ROW_CACHE more. Points come back to the
   working set (a9a: with 4096 lines 28% of the rows a round needs were computed before, w8a with
   2048 59%), and LIBSVM's strength on CPUs is its cache; the lines are touched only when used.
   (A problem barely larger than its working set computes most of its rows in the first round:
   letter's one-vs-one pairs, 1150 variables, gained nothing and lost 7% to the larger memory.) */
static size_t gpusvm__cpu_lines(const gpusvm__problem *p, int q, int nprob)
{
    const size_t rows = gpusvm__krows(p, q), row_bytes = (p->npts ? p->npts : 1) * sizeof(float);
    const size_t more = GPUSVM__CPU_ROW_CACHE / (size_t)(nprob > 0 ? nprob : 1) / row_bytes;
    if (p->cache || p->own_rows || p->nvar < 2 * (size_t)q) return rows;
    return rows + (p->nvar - rows < more ? p->nvar - rows : more);
}

/* Whether a problem is split: the context is, and the problem is not solved whole (nor
   Crammer-Singer's). */
static int gpusvm__cpu_splits(const gpusvm__cpu *b, const gpusvm__problem *p, int q)
{
    return b->base.ctx->split.parts > 1 && p->nvar > (size_t)q && !p->own_rows && !p->cache;
}

/* The columns a problem's rows hold here: this part's share of its points where it is split,
   else every point. */
static size_t gpusvm__cpu_share(const gpusvm__cpu *b, const gpusvm__problem *p, int q, size_t *lo)
{
    const gpusvm_split *s = &b->base.ctx->split;
    *lo = 0;
    if (!gpusvm__cpu_splits(b, p, q)) return p->npts;
    *lo = gpusvm__part_lo(p->npts, s->parts, s->rank);
    return gpusvm__part_lo(p->npts, s->parts, s->rank + 1) - *lo;
}

/* A job's share (gpusvm__cpu_share): its columns, its variables' ranges, cmap from cmap_room. */
static void gpusvm__cpu_job_share(gpusvm__cpu *b, gpusvm__cpu_job *j, int32_t **cmap_room)
{
    size_t k;
    j->kw = gpusvm__cpu_share(b, &j->p, b->qmax, &j->plo);
    j->split = gpusvm__cpu_splits(b, &j->p, b->qmax);
    j->nr = 1;
    j->vlo[0] = 0;
    j->vhi[0] = j->n;
    j->cmap = j->p.map;
    if (!j->split) return;
    j->vlo[0] = j->plo;
    j->vhi[0] = j->plo + j->kw;
    if (j->n == 2 * j->npts) { /* epsilon-SVR: the points' second variables */
        j->nr = 2;
        j->vlo[1] = j->npts + j->plo;
        j->vhi[1] = j->npts + j->plo + j->kw;
    }
    for (k = 0; k < j->kw; ++k) (*cmap_room)[k] = (int32_t)gpusvm__map_pt(&j->p, j->plo + k);
    j->cmap = *cmap_room;
    *cmap_room += j->kw;
}

/* The earlier problem whose kernel rows problem t can read, or -1: both solved whole on the same
   points in the same order (one variable a point) with the same gamma, neither split nor
   Crammer-Singer's, so their rows are the same values (the C values of a grid's fold and gamma,
   the folds of a repeated subset). */
static int gpusvm__cpu_same_rows(const gpusvm__cpu *b, const gpusvm__problem *p, int t, int q)
{
    const gpusvm__problem *a = &p[t];
    int s;
    if (a->nvar > (size_t)q || a->nvar != a->npts || a->own_rows || a->cache || gpusvm__cpu_splits(b, a, q)) return -1;
    for (s = 0; s < t; ++s) {
        const gpusvm__problem *o = &p[s];
        if (o->npts != a->npts || o->nvar != a->nvar || o->gamma != a->gamma || o->own_rows || o->cache ||
            (!o->map) != (!a->map))
            continue;
        if (b->rows_of && b->rows_of[s] >= 0) continue; /* the first of its kind holds the rows */
        if (!a->map || o->map == a->map || memcmp(o->map, a->map, a->npts * sizeof(int32_t)) == 0) return s;
    }
    return -1;
}

/* Job t of the batch: its views into the batch's arrays (nvar variables, krows row floats and
   lines rows before it), its share, its starting state. */
static void gpusvm__cpu_job_init(gpusvm__cpu *b, gpusvm__cpu_job *j, const gpusvm__problem *p, int t, int nprob,
                                 size_t nvar, size_t krows, size_t lines, int32_t **cmap_room)
{
    const int q = b->qmax;
    size_t i;
    j->p = *p;
    j->n = p->nvar;
    j->npts = p->npts;
    j->whole = p->nvar <= (size_t)q;
    j->q = j->whole ? (int)p->nvar : q;
    j->alpha = b->alpha + nvar;
    j->G = b->G + nvar;
    j->qd = b->qd + nvar;
    j->key_up = b->key_up + nvar;
    j->key_low = b->key_low + nvar;
    j->coef = b->coef + (size_t)t * q;
    j->ws_idx = b->ws_idx + (size_t)t * q;
    j->ws_slot = b->ws_slot + (size_t)t * q;
    j->st = b->st + (size_t)t * GPUSVM__ST_COUNT;
    j->K = b->K + krows;
    j->lines = (int)gpusvm__cpu_lines(p, q, nprob);
    /* Crammer-Singer's rows start zeroed (it reads rows it has not computed, with zero
       weights); elsewhere every row is written before it is read (the first round's, a lazy
       row, a cache line), so the pages are first touched by the threads that compute them */
    if (p->own_rows) memset(j->K, 0, gpusvm__krows(p, q) * j->npts * sizeof(float));
    j->line_var = b->line_var + lines;
    j->line_used = b->line_used + lines;
    j->var_line = b->var_line + nvar;
    j->miss = b->miss + (size_t)t * 2 * q;
    j->have = b->have + (size_t)t * q;
    j->rows_of = b->rows_of[t];
    j->defer = j->updated = 0;
    if (j->rows_of >= 0) j->K = b->job[j->rows_of].K;
    j->lazy = j->whole && !p->own_rows && j->rows_of < 0;
    for (i = (size_t)t + 1; i < (size_t)nprob && j->lazy; ++i) j->lazy = b->rows_of[i] != t; /* shared: all at once */
    gpusvm__cpu_job_share(b, j, cmap_room);
    for (i = 0; i < j->n; ++i) {
        const size_t pt = gpusvm__map_pt(p, GPUSVM__PT(i, j->npts));
        j->G[i] = -1.0;
        j->qd[i] = gpusvm__diag(&b->x, pt, b->norm[pt], b->ktype, p->gamma, b->coef0, b->degree);
    }
}

typedef struct gpusvm__cpu_cost {
    double bounds;
    int t;
} gpusvm__cpu_cost;

static int gpusvm__cpu_cost_cmp(const void *a, const void *b)
{
    const gpusvm__cpu_cost *x = (const gpusvm__cpu_cost *)a, *y = (const gpusvm__cpu_cost *)b;
    if (x->bounds != y->bounds) return x->bounds > y->bounds ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* The order the threads take a batch's inner solves in: the costliest first, so that none is
   left to start alone at the end. The cost is guessed from the bounds' sum (its variables times
   its C: a grid's large C values take most of its pair updates, one-vs-one's large pairs most of
   theirs); ties in problem order. 0: no memory. */
static int gpusvm__cpu_order(const gpusvm_allocator *a, const gpusvm__problem *p, int nprob, int *order)
{
    gpusvm__cpu_cost *c = (gpusvm__cpu_cost *)gpusvm__alloc(a, (size_t)nprob, sizeof(gpusvm__cpu_cost));
    size_t i;
    int t;
    if (!c) return 0;
    for (t = 0; t < nprob; ++t) {
        c[t].bounds = 0.0;
        c[t].t = t;
        for (i = 0; p[t].C && i < p[t].nvar; ++i) c[t].bounds += p[t].C[i];
    }
    qsort(c, (size_t)nprob, sizeof *c, gpusvm__cpu_cost_cmp);
    for (t = 0; t < nprob; ++t) order[t] = c[t].t;
    gpusvm__free(a, c);
    return 1;
}

static gpusvm_result gpusvm__cpu_train_begin(gpusvm__backend *bb, const gpusvm__problem *p, int nprob,
                                             const gpusvm__plan *plan)
{
    const int q = plan->q;
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    const gpusvm_allocator *a = &bb->ctx->alloc;
    const int parts = bb->ctx->split.parts;
    size_t i, nvar = 0, krows = 0, kn, ws, lines = 0, most = 1, shared = 0, lo, widest = 0;
    int32_t *cmap_room;
    int t, ok = 1;
    gpusvm__cpu_train_end(bb);
    b->qmax = q;
    b->shrinking = plan->shrinking;
    GPUSVM__CPU_STATE_FIRST(GPUSVM__CPU_ALLOC)
    if (!ok || !gpusvm__cpu_order(a, p, nprob, b->order)) {
        gpusvm__cpu_train_end(bb);
        return gpusvm__oom(bb->ctx, "the training state");
    }
    for (t = 0; t < nprob; ++t) b->rows_of[t] = gpusvm__cpu_same_rows(b, p, t, q);
    for (t = 0; t < nprob; ++t) {
        const size_t qt = gpusvm__cpu_lines(&p[t], q, nprob), width = gpusvm__cpu_share(b, &p[t], q, &lo);
        nvar += p[t].nvar;
        lines += qt;
        most = qt > most ? qt : most;
        widest = width > widest ? width : widest;
        if (parts > 1) shared += width;
        if (!gpusvm__mul(qt, width, &kn) || krows + kn < krows) return gpusvm__oom(bb->ctx, "kernel rows");
        if (b->rows_of[t] < 0) krows += kn; /* a job that reads another's rows holds none */
    }
    b->x = p[0].x;
    b->d = p[0].x.cols;
    b->nvar = nvar;
    b->krows = krows;
    b->nprob = nprob;
    b->ktype = p[0].ktype;
    b->coef0 = p[0].coef0;
    b->degree = p[0].degree;
    b->nu = p[0].nu;
    ws = (size_t)nprob * (size_t)q;
    b->threads = bb->ctx->threads > 0 ? bb->ctx->threads : 1;
    b->dstride = (b->d ? b->d : 1) * (b->d <= GPUSVM__CPU_WIDE_D ? (size_t)GPUSVM__CPU_WIDE : 1);
    b->kcost = (p[0].x.rows ? (p[0].x.row_ptr[p[0].x.rows] - p[0].x.row_ptr[0]) / p[0].x.rows : 0) + 8;
    GPUSVM__CPU_STATE(GPUSVM__CPU_ALLOC)
    if (!ok) {
        gpusvm__cpu_train_end(bb);
        return gpusvm__oom(bb->ctx, "the training state");
    }
    gpusvm__norms(&b->x, 0, b->x.rows, b->norm);
    for (i = 0; i < lines; ++i) b->line_var[i] = -1;
    for (i = 0; i < nvar; ++i) b->var_line[i] = -1;
    for (t = 0, nvar = 0, krows = 0, lines = 0, cmap_room = b->cmap; t < nprob; ++t) {
        gpusvm__cpu_job *j = &b->job[t];
        gpusvm__cpu_job_init(b, j, &p[t], t, nprob, nvar, krows, lines, &cmap_room);
        lines += (size_t)j->lines;
        nvar += j->n;
        if (j->rows_of < 0) krows += (size_t)j->lines * j->kw;
    }
    return GPUSVM_OK;
}

/* >>cpu/select: the working-set selection (gpusvm_select's oracle) ------------------------------ */

/* Keys of the job's variables [lo, hi) and, over them, m and M of class 0 (every variable; nu:
   y = +1) and class 1 (nu: y = -1), as gpusvm_keys and the head of gpusvm_select (the first
   variable holding an extreme gives it). */
static void gpusvm__cpu_keys_range(gpusvm__cpu_job *j, size_t lo, size_t hi, double *mup, double *mlow)
{
    size_t i;
    for (i = lo; i < hi; ++i) {
        const double a = j->alpha[i];
        const int pos = j->p.y[i] > 0;
        const double C = j->p.C[i];
        const double v = pos ? -j->G[i] : j->G[i];
        const int in_up = pos ? (a < C) : (a > 0.0);
        const int in_low = pos ? (a > 0.0) : (a < C);
        const uint32_t k = gpusvm__float_key((float)v);
        const int c = (j->p.nu && !pos) ? 1 : 0;
        j->key_up[i] = in_up ? ~k : GPUSVM__KEY_NONE;
        j->key_low[i] = in_low ? k : GPUSVM__KEY_NONE;
        if (in_up && v > mup[c]) mup[c] = v;
        if (in_low && v < mlow[c]) mlow[c] = v;
    }
}

/* Part t of parts of the job's variables, range r: [lo, hi). */
static void gpusvm__cpu_var_part(const gpusvm__cpu_job *j, int r, int t, int parts, size_t *lo, size_t *hi)
{
    const size_t len = j->vhi[r] - j->vlo[r];
    *lo = j->vlo[r] + len * (size_t)t / (size_t)parts;
    *hi = j->vlo[r] + len * (size_t)(t + 1) / (size_t)parts;
}

/* The keys split across threads: part t's extremes into ext[t] (up 0, up 1, low 0, low 1). */
typedef struct gpusvm__cpu_keys_split {
    gpusvm__cpu_job *j;
    int parts;
    double ext[GPUSVM__MAX_THREADS][4];
} gpusvm__cpu_keys_split;

static void gpusvm__cpu_keys_part(void *arg, int t)
{
    gpusvm__cpu_keys_split *w = (gpusvm__cpu_keys_split *)arg;
    double *e = w->ext[t];
    size_t lo, hi;
    int r;
    e[0] = e[1] = -INFINITY;
    e[2] = e[3] = INFINITY;
    for (r = 0; r < w->j->nr; ++r) {
        gpusvm__cpu_var_part(w->j, r, t, w->parts, &lo, &hi);
        gpusvm__cpu_keys_range(w->j, lo, hi, e, e + 2);
    }
}

/* Keys and the optimality check on the context's threads (parts in order: the first extreme
   wins, as on one thread). */
static void gpusvm__cpu_keys(gpusvm__cpu *b, gpusvm__cpu_job *j, double *mup, double *mlow)
{
    gpusvm__cpu_keys_split w;
    int t, c;
    w.j = j;
    w.parts = gpusvm__cpu_parts(b, j->n, 16);
    gpusvm__cpu_run(b, w.parts, gpusvm__cpu_keys_part, &w);
    mup[0] = mup[1] = -INFINITY;
    mlow[0] = mlow[1] = INFINITY;
    for (t = 0; t < w.parts; ++t)
        for (c = 0; c < 2; ++c) {
            if (w.ext[t][c] > mup[c]) mup[c] = w.ext[t][c];
            if (w.ext[t][2 + c] < mlow[c]) mlow[c] = w.ext[t][2 + c];
        }
}

static int gpusvm__cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int gpusvm__cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A split context's allgather (gpusvm_split) of bytes at send into recv; 0 once one has failed
   (the step then says so: gpusvm__cpu_gathered). */
static int gpusvm__cpu_gather(gpusvm__cpu *b, const void *send, void *recv, size_t bytes)
{
    const gpusvm_split *s = &b->base.ctx->split;
    if (!b->xfailed && s->allgather(s->user, send, recv, bytes) != 0) b->xfailed = 1;
    return !b->xfailed;
}

static gpusvm_result gpusvm__cpu_gathered(gpusvm__cpu *b)
{
    if (!b->xfailed) return GPUSVM_OK;
    return gpusvm__fail(b->base.ctx, GPUSVM_ERR_SPLIT_ALLGATHER, "the split context's allgather failed (part %d of %d)",
                        b->base.ctx->split.rank, b->base.ctx->split.parts);
}

/* A split job's m and M per class over every part (each part's gpusvm__cpu_keys over its share):
   the maximum and minimum, exactly one process's. */
static void gpusvm__cpu_merge_ends(gpusvm__cpu *b, double *mup, double *mlow)
{
    double *send = (double *)(void *)b->xsend, *all = (double *)(void *)b->xrecv;
    int r, c;
    send[0] = mup[0];
    send[1] = mup[1];
    send[2] = mlow[0];
    send[3] = mlow[1];
    if (!gpusvm__cpu_gather(b, send, all, 4 * sizeof(double))) return;
    for (r = 0; r < b->base.ctx->split.parts; ++r)
        for (c = 0; c < 2; ++c) {
            if (all[4 * r + c] > mup[c]) mup[c] = all[4 * r + c];
            if (all[4 * r + 2 + c] < mlow[c]) mlow[c] = all[4 * r + 2 + c];
        }
}

/* A split job's k smallest composite keys over every part, from each part's m smallest in heap
   (the k smallest of its share): the same k one process chooses. Returns how many there are. */
static int gpusvm__cpu_merge_k(gpusvm__cpu *b, uint64_t *heap, int m, int k)
{
    const size_t all_n = (size_t)b->base.ctx->split.parts * (size_t)k;
    uint64_t *all = b->xrecv;
    int t;
    for (t = m; t < k; ++t) heap[t] = UINT64_MAX; /* none: above every key, (NONE, index) never enters */
    if (!gpusvm__cpu_gather(b, heap, all, (size_t)k * sizeof(uint64_t))) return 0;
    qsort(all, all_n, sizeof(uint64_t), gpusvm__cmp_u64);
    for (t = 0; t < k && all[t] != UINT64_MAX; ++t) heap[t] = all[t];
    return t;
}

/* c into the bounded max-heap of the k smallest values seen (m of them so far). */
static void gpusvm__heap_keep(uint64_t *heap, int *m, int k, uint64_t c)
{
    int at;
    if (*m < k) { /* sift up */
        at = (*m)++;
        while (at > 0 && heap[(at - 1) / 2] < c) {
            heap[at] = heap[(at - 1) / 2];
            at = (at - 1) / 2;
        }
        heap[at] = c;
    } else if (c < heap[0]) { /* replace the largest, sift down */
        at = 0;
        for (;;) {
            int l = 2 * at + 1, r = l + 1, big = at;
            uint64_t bv = c;
            if (l < *m && heap[l] > bv) { big = l; bv = heap[l]; }
            if (r < *m && heap[r] > bv) { big = r; }
            if (big == at) break;
            heap[at] = heap[big];
            at = big;
        }
        heap[at] = c;
    }
}

/* The selection split across threads: part t keeps the k smallest of its share in heap[t]
   (m[t] of them). */
typedef struct gpusvm__cpu_select_split {
    gpusvm__cpu_job *j;
    const uint32_t *keys;
    uint64_t *heaps;
    int cls, k, parts, m[GPUSVM__MAX_THREADS];
} gpusvm__cpu_select_split;

static void gpusvm__cpu_select_part(void *arg, int t)
{
    gpusvm__cpu_select_split *w = (gpusvm__cpu_select_split *)arg;
    const gpusvm__cpu_job *j = w->j;
    uint64_t *heap = w->heaps + (size_t)t * (size_t)w->k;
    size_t i, lo, hi;
    int r;
    w->m[t] = 0;
    for (r = 0; r < j->nr; ++r) {
        gpusvm__cpu_var_part(j, r, t, w->parts, &lo, &hi);
        for (i = lo; i < hi; ++i)
            if (w->keys[i] != GPUSVM__KEY_NONE && (!w->cls || j->p.y[i] == w->cls))
                gpusvm__heap_keep(heap, &w->m[t], w->k, ((uint64_t)w->keys[i] << 32) | (uint64_t)i);
    }
}

/* The k smallest (key, index) pairs with key != NONE (and y = cls unless cls is 0) among the
   job's variables (a split job: over every part's), appended to list[count..]; both keys of a
   chosen point become NONE. Same choice as gpusvm_select's radix selection: bounded max-heaps of
   the composite keys, O(n log k), one a thread over its share, then the k smallest of theirs
   (the pairs are distinct, so the same k for any thread count). heap has room for k. */
static int gpusvm__cpu_select_k(gpusvm__cpu *b, gpusvm__cpu_job *j, uint32_t *keys, uint32_t *other, int cls, int k,
                                uint64_t *heap, int *list, int count)
{
    gpusvm__cpu_select_split w;
    int m = 0, t, u;
    if (k <= 0) return 0;
    w.j = j;
    w.keys = keys;
    w.cls = cls;
    w.k = k;
    w.parts = gpusvm__cpu_parts(b, j->n, 32);
    w.heaps = w.parts > 1 ? b->sel_heaps : heap;
    gpusvm__cpu_run(b, w.parts, gpusvm__cpu_select_part, &w);
    if (w.parts == 1) m = w.m[0];
    for (t = 0; t < w.parts && w.parts > 1; ++t)
        for (u = 0; u < w.m[t]; ++u) gpusvm__heap_keep(heap, &m, k, w.heaps[(size_t)t * (size_t)k + (size_t)u]);
    if (j->split) m = gpusvm__cpu_merge_k(b, heap, m, k);
    for (t = 0; t < m; ++t) {
        const size_t idx = (size_t)(heap[t] & 0xFFFFFFFFu);
        list[count + t] = (int)idx;
        keys[idx] = GPUSVM__KEY_NONE;
        other[idx] = GPUSVM__KEY_NONE;
    }
    return m;
}

/* Forgets every row the cache holds, then lines 0..m) hold the rows of idx[0..m). */
static void gpusvm__cpu_cache_reset(gpusvm__cpu_job *j, const int *idx, int m)
{
    int l;
    for (l = 0; l < j->lines; ++l) {
        if (j->line_var[l] >= 0) j->var_line[j->line_var[l]] = -1;
        j->line_var[l] = -1;
        j->line_used[l] = 0;
    }
    for (l = 0; l < m && l < j->lines; ++l) {
        j->line_var[l] = idx[l];
        j->var_line[idx[l]] = l;
    }
    j->nmiss = 0;
}

/* Lines for the new positions [at, at + got) of the working set: a variable whose row a line
   holds takes that line; the others take the lines used longest ago (ties: the lower line) among
   those this round does not use, and their rows are the round's to compute. The same choices for
   any thread count: this runs on the solver's thread. */
static void gpusvm__cpu_assign(gpusvm__cpu_job *j, int at, int got, uint64_t *scratch, size_t *reused)
{
    const uint64_t round = ++j->round;
    int t, l, nc = 0, k = 0;
    for (t = 0; t < at; ++t) j->line_used[j->ws_slot[t]] = round;
    for (t = at; t < at + got; ++t)
        if (j->var_line[j->ws_idx[t]] >= 0) j->line_used[j->var_line[j->ws_idx[t]]] = round;
    for (l = 0; l < j->lines; ++l)
        if (j->line_used[l] != round) scratch[nc++] = j->line_used[l] << 32 | (uint64_t)l;
    qsort(scratch, (size_t)nc, sizeof(uint64_t), gpusvm__cmp_u64);
    j->nmiss = 0;
    for (t = at; t < at + got; ++t) {
        const int v = j->ws_idx[t];
        if (j->var_line[v] < 0) { /* lines >= q + got unused by this round: there is one */
            l = (int)(scratch[k++] & 0xFFFFFFFFu);
            if (j->line_var[l] >= 0) j->var_line[j->line_var[l]] = -1;
            j->line_var[l] = v;
            j->var_line[v] = l;
            j->line_used[l] = round;
            j->miss[j->nmiss] = v;
            j->miss[j->q + j->nmiss++] = l;
        }
        j->ws_slot[t] = j->var_line[v];
    }
    *reused += (size_t)(got - j->nmiss);
}

/* As gpusvm_select for one problem: the check, then (unless the problem is whole) its next set. */
static void gpusvm__cpu_select_one(gpusvm__cpu *b, gpusvm__cpu_job *j, int mode, double eps, double max_iter,
                                   uint64_t *scratch, size_t *reused)
{
    int list[GPUSVM__Q], keep_idx[GPUSVM__Q / 2], keep_slot[GPUSVM__Q / 2];
    uint64_t heap[GPUSVM__Q];
    double up[2], low[2], gap;
    const int q = j->q;
    int done, fresh = q, at = 0, got, t, side, worst;
    if (j->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return;
    gpusvm__cpu_keys(b, j, up, low);
    if (j->split) gpusvm__cpu_merge_ends(b, up, low);
    worst = (j->p.nu && up[1] - low[1] > up[0] - low[0]) ? 1 : 0;
    gap = up[worst] - low[worst];
    done = GPUSVM__STOP_RULE(GPUSVM__GE, gap, eps, j->st[GPUSVM__ST_ITER], max_iter);
    j->st[GPUSVM__ST_GAP] = gap;
    j->st[GPUSVM__ST_MUP] = up[worst];
    j->st[GPUSVM__ST_MLOW] = low[worst];
    j->st[GPUSVM__ST_DONE] = (double)done;
    if (!done) j->st[GPUSVM__ST_OUTER] += 1.0;
    if (done || j->whole) return;
    if (mode == 1) {
        const int h = q / 2;
        for (t = 0; t < h; ++t) {
            keep_idx[t] = j->ws_idx[h + t];
            keep_slot[t] = j->ws_slot[h + t];
            list[t] = j->ws_slot[t];
        }
        for (t = 0; t < h; ++t) {
            j->ws_idx[t] = keep_idx[t];
            j->ws_slot[t] = keep_slot[t];
            j->ws_slot[h + t] = list[t];
            j->key_up[keep_idx[t]] = GPUSVM__KEY_NONE;
            j->key_low[keep_idx[t]] = GPUSVM__KEY_NONE;
        }
        fresh = q - h;
        at = h;
    } else {
        for (t = 0; t < q; ++t) j->ws_slot[t] = t;
    }
    /* the sides of gpusvm_select: which keys, from which class, up to how many in all */
    for (side = 0, got = 0; side < GPUSVM__SIDES(j->p.nu); ++side) {
        const int nu = j->p.nu, low_side = GPUSVM__SIDE_LOW(side, nu), cls = GPUSVM__SIDE_CLS(side, nu);
        const int upto = GPUSVM__SIDE_UPTO(side, nu, fresh);
        got += gpusvm__cpu_select_k(b, j, low_side ? j->key_low : j->key_up, low_side ? j->key_up : j->key_low, cls,
                                    upto - got, heap, list, got);
    }
    qsort(list, (size_t)got, sizeof(int), gpusvm__cmp_int);
    for (t = 0; t < got; ++t) j->ws_idx[at + t] = list[t];
    if (mode == 1) gpusvm__cpu_assign(j, at, got, scratch, reused);
    else gpusvm__cpu_cache_reset(j, j->ws_idx, q);
}

static gpusvm_result gpusvm__cpu_select(gpusvm__backend *bb, int first, double eps, double max_iter)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int t;
    gpusvm__cpu_settle(b);
    for (t = 0; t < b->nprob; ++t) {
        gpusvm__cpu_select_one(b, &b->job[t], first ? 0 : 1, eps, max_iter, b->line_keys, &b->rows_reused);
        if (!first && b->job[t].st[GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING && !b->job[t].whole)
            b->rows_new += (size_t)b->job[t].nmiss;
    }
    return gpusvm__cpu_gathered(b);
}

/* >>cpu/rows: kernel rows, the row cache and the lazy rows -------------------------------------- */

/* Row i of m into lane r of the interleaved scratch W (W[c * 8 + r]: feature c, c < d), or its
   entries back to 0 (clear). */
static inline void gpusvm__wide_put(float *W, size_t d, const gpusvm__csr *m, size_t i, int r, int clear)
{
    size_t k;
    for (k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k)
        if ((size_t)m->col[k] < d) W[(size_t)m->col[k] * GPUSVM__CPU_WIDE + (size_t)r] = clear ? 0.0f : m->val[k];
}

/* s[r] = dot(row i of m, lane r of W) for all 8 lanes, summed over the row's nonzeros in their
   order (gpusvm__dot_dense's value for each lane); a nonzero's 8 products are one vector operation.
   Inline: it is the C backend's innermost loop (left a call by gcc 12 -O2, training was 2.3 times slower). */
static inline void gpusvm__wide_dots(const float *W, const gpusvm__csr *m, size_t i, float *out)
{
    float s[GPUSVM__CPU_WIDE] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}; /* registers: out may alias W */
    size_t k;
    int r;
    for (k = m->row_ptr[i]; k < m->row_ptr[i + 1]; ++k) {
        const float v = m->val[k], *w = W + (size_t)m->col[k] * GPUSVM__CPU_WIDE;
        for (r = 0; r < GPUSVM__CPU_WIDE; ++r) s[r] += v * w[r];
    }
    for (r = 0; r < GPUSVM__CPU_WIDE; ++r) out[r] = s[r];
}

/* What a batch of kernel rows is computed from: rows of A's points idx[off..) into K[slot[off..)]
   (row pitch ldk), against B's points; a problem's point k is row amap[k] of A and bmap[k] of B
   (NULL: k); idx past split are the points again (epsilon-SVR). A and B are one set (training):
   a point against itself takes its norm as the dot, so k(x, x) is exactly the diagonal (kernels
   part 1 says why). dense: the calling thread's scratch (NULL: merging, for index spaces too
   large for one). */
typedef struct gpusvm__cpu_rowsrc {
    float *dense;
    size_t d, split, ldk;
    const gpusvm__csr *A, *B;
    const int32_t *amap, *bmap;
    const int *idx, *slot;
    const float *norm_a, *norm_b;
    float *K;
    int ktype, degree;
    float gamma, coef0;
} gpusvm__cpu_rowsrc;


/* As gpusvm__cpu_rows_of's rows, nr <= 8 of them in one pass over B's points [b0, b1): the rows'
   values interleaved in the scratch W (W[c * 8 + r]: feature c of row r), so each nonzero of a
   point is read once for all of them and its 8 products are one vector operation; each dot
   product is still summed over the point's nonzeros in their order, so the values are
   gpusvm__dot_dense's. */
static void gpusvm__cpu_rows_wide(const gpusvm__cpu_rowsrc *rs, int off, int nr, size_t b0, size_t b1)
{
    size_t ia[GPUSVM__CPU_WIDE], i;
    float na[GPUSVM__CPU_WIDE], *out[GPUSVM__CPU_WIDE], s[GPUSVM__CPU_WIDE];
    int r;
    for (r = 0; r < nr; ++r) {
        const size_t ka = GPUSVM__PT(rs->idx[off + r], rs->split);
        ia[r] = rs->amap ? (size_t)rs->amap[ka] : ka;
        na[r] = rs->norm_a[ia[r]];
        out[r] = rs->K + (size_t)rs->slot[off + r] * rs->ldk;
        gpusvm__wide_put(rs->dense, rs->d, rs->A, ia[r], r, 0);
    }
    for (i = b0; i < b1; ++i) {
        const size_t ib = rs->bmap ? (size_t)rs->bmap[i] : i;
        gpusvm__wide_dots(rs->dense, rs->B, ib, s);
        for (r = 0; r < nr; ++r)
            out[r][i] = gpusvm__kfun(rs->ktype, ia[r] == ib ? na[r] : s[r], na[r], rs->norm_b[ib], rs->gamma,
                                     rs->coef0, rs->degree);
    }
    for (r = 0; r < nr; ++r) gpusvm__wide_put(rs->dense, rs->d, rs->A, ia[r], r, 1);
}

/* One row (position off) against B's points [b0, b1), without the interleaved scratch. */
static void gpusvm__cpu_row_one(const gpusvm__cpu_rowsrc *rs, int off, size_t b0, size_t b1)
{
    const size_t ka = GPUSVM__PT(rs->idx[off], rs->split), ia = rs->amap ? (size_t)rs->amap[ka] : ka;
    float *out = rs->K + (size_t)rs->slot[off] * rs->ldk;
    const float na = rs->norm_a[ia];
    size_t i;
    if (rs->ktype == GPUSVM__K_PRECOMPUTED) { /* precomputed: B holds the kernel matrix by columns, k(a_ia, b_i) = B[i][ia] */
        for (i = b0; i < b1; ++i) out[i] = gpusvm__csr_at(rs->B, rs->bmap ? (size_t)rs->bmap[i] : i, ia);
        return;
    }
    if (!rs->dense) {
        for (i = b0; i < b1; ++i) {
            const size_t ib = rs->bmap ? (size_t)rs->bmap[i] : i;
            out[i] = gpusvm__kfun(rs->ktype, ia == ib ? na : gpusvm__dot_sparse(rs->A, ia, rs->B, ib), na,
                                  rs->norm_b[ib], rs->gamma, rs->coef0, rs->degree);
        }
        return;
    }
    gpusvm__densify(rs->A, ia, rs->dense, rs->d, 0);
    gpusvm__dots_dense(rs->B, rs->bmap, b0, b1 - b0, rs->dense, out + b0);
    for (i = b0; i < b1; ++i) {
        const size_t ib = rs->bmap ? (size_t)rs->bmap[i] : i;
        out[i] = gpusvm__kfun(rs->ktype, ia == ib ? na : out[i], na, rs->norm_b[ib], rs->gamma, rs->coef0, rs->degree);
    }
    gpusvm__densify(rs->A, ia, rs->dense, rs->d, 1);
}

/* Rows off..off+nrows of rs against B's points [b0, b1). Several rows go eight at a time through
   the interleaved scratch, tile by tile of B's points, so that a tile's nonzeros are read from
   cache for every eight rows instead of memory (mnist's 20,000 points are 24 MB of nonzeros). */
static void gpusvm__cpu_rows_of(const gpusvm__cpu_rowsrc *rs, int off, int nrows, size_t b0, size_t b1)
{
    size_t c;
    int r;
    if (rs->dense && rs->d <= GPUSVM__CPU_WIDE_D && rs->ktype != GPUSVM__K_PRECOMPUTED && nrows > 1) {
        for (c = b0; c < b1; c += GPUSVM__CPU_TILE)
            for (r = 0; r < nrows; r += GPUSVM__CPU_WIDE)
                gpusvm__cpu_rows_wide(rs, off + r, nrows - r < GPUSVM__CPU_WIDE ? nrows - r : GPUSVM__CPU_WIDE, c,
                                      b1 - c < GPUSVM__CPU_TILE ? b1 : c + GPUSVM__CPU_TILE);
        return;
    }
    for (r = 0; r < nrows; ++r) gpusvm__cpu_row_one(rs, off + r, b0, b1);
}

/* Work split across the C backend's threads: part t of n takes items [total t / n, total (t+1) / n)
   of a problem's rows or variables. Every item is computed exactly as one thread would, so the
   results are the same bits for any thread count. */
typedef struct gpusvm__cpu_split {
    gpusvm__cpu *b;
    gpusvm__cpu_job *j;
    int off, count, parts;
    int first; /* kernel rows: those of ws_idx into ws_slot, else the cache's misses */
} gpusvm__cpu_split;

/* A job's rows as gpusvm__cpu_rows_of takes them, on thread t's scratch: the working set's
   positions (first), else the round's misses (variables miss[0..), lines miss[q..)); against the
   points of its share. */
static void gpusvm__cpu_rowsrc_of(const gpusvm__cpu *b, const gpusvm__cpu_job *j, int first, int t,
                                  gpusvm__cpu_rowsrc *rs)
{
    rs->dense = b->dense ? b->dense + (size_t)t * b->dstride : NULL;
    rs->d = b->d;
    rs->split = j->npts;
    rs->ldk = j->kw;
    rs->A = rs->B = &b->x;
    rs->amap = j->p.map;
    rs->bmap = j->cmap;
    rs->idx = first ? j->ws_idx : j->miss;
    rs->slot = first ? j->ws_slot : j->miss + j->q;
    rs->norm_a = rs->norm_b = b->norm;
    rs->K = j->K;
    rs->ktype = b->ktype;
    rs->degree = b->degree;
    rs->gamma = j->p.gamma;
    rs->coef0 = b->coef0;
}

/* Rows [lo, hi) of a job's list (gpusvm__cpu_rowsrc_of), every column, on thread t. */
static void gpusvm__cpu_rows_range(const gpusvm__cpu *b, const gpusvm__cpu_job *j, int first, int lo, int hi, int t)
{
    gpusvm__cpu_rowsrc rs;
    gpusvm__cpu_rowsrc_of(b, j, first, t, &rs);
    gpusvm__cpu_rows_of(&rs, lo, hi - lo, 0, j->kw);
}

/* Thread t's share of the columns, for every row of the list: each thread reads only its own
   points' nonzeros (once per tile, gpusvm__cpu_rows_of), so threads do not compete for memory. */
static void gpusvm__cpu_rows_part(void *arg, int t)
{
    const gpusvm__cpu_split *w = (const gpusvm__cpu_split *)arg;
    gpusvm__cpu_rowsrc rs;
    gpusvm__cpu_rowsrc_of(w->b, w->j, w->first, t, &rs);
    gpusvm__cpu_rows_of(&rs, w->off, w->count, w->j->kw * (size_t)t / (size_t)w->parts,
                        w->j->kw * (size_t)(t + 1) / (size_t)w->parts);
}

/* The first `count` rows of a job's list (gpusvm__cpu_rowsrc_of) on the context's threads. */
static void gpusvm__cpu_rows_list(gpusvm__cpu *b, gpusvm__cpu_job *j, int first, int count)
{
    gpusvm__cpu_split w;
    if (count <= 0) return;
    w.b = b;
    w.j = j;
    w.off = 0;
    w.first = first;
    w.count = count;
    w.parts = gpusvm__cpu_parts(b, j->kw, (size_t)count * b->kcost);
    gpusvm__cpu_run(b, w.parts, gpusvm__cpu_rows_part, &w);
}

/* Whether job t's rows are wanted this round: it runs, or a job that reads its rows does. */
static int gpusvm__cpu_rows_wanted(const gpusvm__cpu *b, int t)
{
    int s;
    if (b->job[t].st[GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING) return 1;
    for (s = t + 1; s < b->nprob; ++s)
        if (b->job[s].rows_of == t && b->job[s].st[GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING) return 1;
    return 0;
}

/* Whether job j's `count` rows this round are left to its inner solve, which computes them on
   the other threads while it runs (gpusvm__cpu_smo_overlap): the context has threads, j is the
   batch's only running problem (running: how many run; else the batch's inner solves already run
   side by side), a working set of a larger problem (not whole, not split), and its rows are worth
   splitting. */
static int gpusvm__cpu_defers(const gpusvm__cpu *b, const gpusvm__cpu_job *j, int count, int running)
{
    if (running != 1 || b->threads < 2 || j->whole || j->split || j->rows_of >= 0 || count <= 0) return 0;
    return gpusvm__cpu_parts(b, j->kw, (size_t)count * b->kcost) > 1;
}

static gpusvm_result gpusvm__cpu_rows(gpusvm__backend *bb, int first)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int t, running = 0;
    for (t = 0; t < b->nprob; ++t) running += b->job[t].st[GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING;
    for (t = 0; t < b->nprob; ++t) {
        gpusvm__cpu_job *j = &b->job[t];
        const int count = first ? j->q : j->nmiss;
        if ((!first && j->whole) || j->rows_of >= 0 || !gpusvm__cpu_rows_wanted(b, t)) continue;
        if (j->lazy) { /* the inner solve computes them (gpusvm__cpu_need) */
            memset(j->have, 0, (size_t)j->q);
            j->nhave = 0;
            continue;
        }
        if (gpusvm__cpu_defers(b, j, count, running)) j->defer = first ? 2 : 1;
        else gpusvm__cpu_rows_list(b, j, first, count);
    }
    return GPUSVM_OK;
}

/* Rows left to an inner solve that did not run (a caller reads them, or starts the next round)
   computed now. */
static void gpusvm__cpu_settle(gpusvm__cpu *b)
{
    int t;
    for (t = 0; t < b->nprob; ++t) {
        gpusvm__cpu_job *j = &b->job[t];
        if (!j->defer) continue;
        gpusvm__cpu_rows_list(b, j, j->defer == 2, j->defer == 2 ? j->q : j->nmiss);
        j->defer = 0;
    }
}

/* A whole problem's inner solve touches only some of its rows (breast-cancer: LIBSVM's 83 pair
   updates, at most 166 of 683 rows), so they are computed as it first reads them, one at a time;
   once GPUSVM__CPU_LAZY_SHARE of them have been, the rest at once, eight at a time on every
   thread (a solve that touches most rows, as digits' pairs do, would lose more one at a time than
   laziness saves). Every row is the same bits either way (gpusvm__cpu_rows_of). th: the calling
   thread's scratch, where the batch's inner solves run on several threads (then the rest are
   computed on it alone); -1: the only inner solve running (thread 0's scratch, the rest on every
   thread). */
#define GPUSVM__CPU_LAZY_SHARE 4 /* one row in this many */

static void gpusvm__cpu_need(gpusvm__cpu *b, gpusvm__cpu_job *j, int pos, int th)
{
    int t;
    if (!j->lazy || j->have[pos]) return;
    if (j->nhave < j->q / GPUSVM__CPU_LAZY_SHARE) {
        gpusvm__cpu_rows_range(b, j, 1, pos, pos + 1, th < 0 ? 0 : th);
        j->have[pos] = 1;
        ++j->nhave;
        return;
    }
    for (t = 0, j->nmiss = 0; t < j->q; ++t) /* the rest, as a round's misses */
        if (!j->have[t]) {
            j->miss[j->nmiss] = j->ws_idx[t];
            j->miss[j->q + j->nmiss++] = j->ws_slot[t];
            j->have[t] = 1;
        }
    j->nhave = j->q;
    if (th < 0) gpusvm__cpu_rows_list(b, j, 0, j->nmiss);
    else gpusvm__cpu_rows_range(b, j, 0, 0, j->nmiss, th);
    j->nmiss = 0;
}

/* The inner solve's working set, position by position (gathered once a round, so that the
   pair updates read arrays in order, as the kernel's local memory): alpha, bound, diagonal, label
   and the point whose column of the kernel rows it is; the gradient as LIBSVM's selection reads
   it, lv = -y G (exactly: a sign), with the sets each position is in, lup (I_up: lv a candidate
   for i) and llow (I_low: for j), so the scans are comparisons without the label's branches; and
   the q x q block of the rows the solve has read (kq: by position, then position; kq_have:
   gathered yet), as the kernels' gpusvm_gather_block, so that a pair update sweeps contiguous values
   instead of q scattered words of an n-wide row. */
typedef struct gpusvm__cpu_ws {
    double *la, *lv, *lC;
    float *lqd, *kq;
    signed char *ly;
    unsigned char *kq_have, *lup, *llow, *lcls; /* lcls: nu's class (1: y = -1), else 0 */
    size_t *lpt;
    int *act; /* the positions the scans visit, ascending (all but those shrinking set aside) */
    int *bidx, *bslot; /* gpusvm__cpu_smo_overlap: the block rows it computes (variable, position) */
    int32_t *bcol;     /* and the points of the block's columns */
    int th; /* the thread it belongs to (gpusvm__cpu_need's th) */
} gpusvm__cpu_ws;

/* >>cpu/solve: the inner solve (gpusvm_smo's oracle), a split problem's shared block ------------ */

/* The bytes of its room for q positions (a multiple of 16, so that several lie end to end). */
static size_t gpusvm__cpu_ws_bytes(int q)
{
    const size_t n = (size_t)(q > 0 ? q : 1);
    return (n * (3 * sizeof(double) + sizeof(size_t) + 3 * sizeof(int) + sizeof(int32_t) + (n + 1) * sizeof(float) + 5) +
            15) / 16 * 16;
}

/* Its room for q positions in block (gpusvm__cpu_ws_bytes of it). */
static void gpusvm__cpu_ws_view(unsigned char *block, int q, gpusvm__cpu_ws *w)
{
    const size_t n = (size_t)(q > 0 ? q : 1);
    w->la = (double *)(void *)block;
    w->lv = w->la + n;
    w->lC = w->lv + n;
    w->lpt = (size_t *)(void *)(w->lC + n);
    w->act = (int *)(void *)(w->lpt + n);
    w->bidx = w->act + n;
    w->bslot = w->bidx + n;
    w->bcol = (int32_t *)(void *)(w->bslot + n);
    w->lqd = (float *)(void *)(w->bcol + n);
    w->kq = w->lqd + n;
    w->ly = (signed char *)(void *)(w->kq + n * n);
    w->kq_have = (unsigned char *)(w->ly + n);
    w->lup = w->kq_have + n;
    w->llow = w->lup + n;
    w->lcls = w->llow + n;
    w->th = -1;
}

/* Position t's sets from its alpha (as LIBSVM's is_upper_bound / is_lower_bound). */
static void gpusvm__cpu_ws_sets(const gpusvm__cpu_ws *w, int t)
{
    const int pos = w->ly[t] > 0;
    w->lup[t] = (unsigned char)(pos ? (w->la[t] < w->lC[t]) : (w->la[t] > 0.0));
    w->llow[t] = (unsigned char)(pos ? (w->la[t] > 0.0) : (w->la[t] < w->lC[t]));
}

/* Row pos of the block (see gpusvm__cpu_ws), gathered from its kernel row (computed first where
   the rows are lazy) the first time this solve reads it: the same values, so the same bits. A
   split job's whole block was put together from every part's columns before the solve
   (gpusvm__cpu_share_ws). */
static const float *gpusvm__cpu_kq(gpusvm__cpu *b, gpusvm__cpu_job *j, const gpusvm__cpu_ws *w, int pos)
{
    float *row = w->kq + (size_t)pos * (size_t)j->q;
    if (!j->split && !w->kq_have[pos]) {
        const float *K;
        int t;
        gpusvm__cpu_need(b, j, pos, w->th);
        K = j->K + (size_t)j->ws_slot[pos] * j->npts;
        for (t = 0; t < j->q; ++t) row[t] = K[w->lpt[t]];
        w->kq_have[pos] = 1;
    }
    return row;
}

/* LIBSVM's analytic step on the pair (i, jj) of working-set positions, with its clipping to the
   box; the working set's gradient follows (Ki, Kj: their rows of the block, Kii i's diagonal).
   In lv = -y G the update G_t += q_ti d_i + q_tj d_j (q_ti = y_t y_i k_ti) is
   lv_t += k_ti (-y_i d_i) + k_tj (-y_j d_j): the same products and sums up to their signs, which
   are exact, so the same bits as the kernel's. */
static void gpusvm__cpu_smo_step(gpusvm__cpu_job *j, const gpusvm__cpu_ws *w, int i, int jj, double Kii, const float *Ki,
                                 const float *Kj)
{
    const int m = j->q;
    int t;
    double *la = w->la, *lv = w->lv;
    const int yi = w->ly[i], yj = w->ly[jj];
    const double Ci = w->lC[i], Cj = w->lC[jj], gi = yi > 0 ? -lv[i] : lv[i], gj = yj > 0 ? -lv[jj] : lv[jj];
    const double Kij = (double)Ki[jj];
    const double oi = la[i], oj = la[jj];
    double ai = oi, aj = oj, ci, cj;
    double quad = Kii + (double)w->lqd[jj] - 2.0 * Kij;
    if (quad <= 0.0) quad = GPUSVM__TAU;
    if (yi != yj) {
        const double delta = (-gi - gj) / quad;
        const double diff = ai - aj;
        ai += delta;
        aj += delta;
        if (diff > 0) { if (aj < 0) { aj = 0; ai = diff; } }
        else { if (ai < 0) { ai = 0; aj = -diff; } }
        if (diff > Ci - Cj) { if (ai > Ci) { ai = Ci; aj = Ci - diff; } }
        else { if (aj > Cj) { aj = Cj; ai = Cj + diff; } }
    } else {
        const double delta = (gi - gj) / quad;
        const double sum = ai + aj;
        ai -= delta;
        aj += delta;
        if (sum > Ci) { if (ai > Ci) { ai = Ci; aj = sum - Ci; } }
        else { if (aj < 0) { aj = 0; ai = sum; } }
        if (sum > Cj) { if (aj > Cj) { aj = Cj; ai = sum - Cj; } }
        else { if (ai < 0) { ai = 0; aj = sum; } }
    }
    la[i] = ai;
    la[jj] = aj;
    ci = yi > 0 ? -(ai - oi) : ai - oi;
    cj = yj > 0 ? -(aj - oj) : aj - oj;
    for (t = 0; t + 4 <= m; t += 4) { /* four at a time: compilers pack them into vector operations at -O2 */
        lv[t] += (double)Ki[t] * ci + (double)Kj[t] * cj;
        lv[t + 1] += (double)Ki[t + 1] * ci + (double)Kj[t + 1] * cj;
        lv[t + 2] += (double)Ki[t + 2] * ci + (double)Kj[t + 2] * cj;
        lv[t + 3] += (double)Ki[t + 3] * ci + (double)Kj[t + 3] * cj;
    }
    for (; t < m; ++t) lv[t] += (double)Ki[t] * ci + (double)Kj[t] * cj;
    gpusvm__cpu_ws_sets(w, i);
    gpusvm__cpu_ws_sets(w, jj);
}

/* The working set's state into w (gpusvm__cpu_ws), from the job's. */
static void gpusvm__cpu_smo_gather(const gpusvm__cpu_job *j, const gpusvm__cpu_ws *w)
{
    int t;
    for (t = 0; t < j->q; ++t) {
        const int i = j->ws_idx[t];
        w->la[t] = j->alpha[i];
        w->ly[t] = j->p.y[i];
        w->lv[t] = w->ly[t] > 0 ? -j->G[i] : j->G[i];
        w->lC[t] = j->p.C[i];
        w->lqd[t] = j->qd[i];
        w->lpt[t] = GPUSVM__PT(i, j->npts);
        w->lcls[t] = (unsigned char)(j->p.nu && w->ly[t] < 0);
        w->kq_have[t] = 0;
        gpusvm__cpu_ws_sets(w, t);
    }
}

/* i: per class, the largest lv over I_up (ties: the later position, as LIBSVM's >=; -1 when
   none), and the largest -lv over I_low (for the stop test); over the positions act[0..na). */
static void gpusvm__cpu_smo_pick_i(const gpusvm__cpu_ws *w, int na, int nu, double *bv, int *bi, double *g2)
{
    int k, t;
    bv[0] = bv[1] = g2[0] = g2[1] = -INFINITY;
    bi[0] = bi[1] = -1;
    if (!nu) { /* one class: the extremes in registers */
        double best = -INFINITY, low = -INFINITY;
        int at = -1;
        for (k = 0; k < na; ++k) {
            const double v = w->lv[t = w->act[k]];
            if (w->lup[t] && v >= best) {
                best = v;
                at = t;
            }
            if (w->llow[t] && -v > low) low = -v;
        }
        bv[0] = best;
        bi[0] = at;
        g2[0] = low;
        return;
    }
    for (k = 0; k < na; ++k) {
        const int c = w->lcls[t = w->act[k]];
        const double v = w->lv[t];
        if (w->lup[t] && v >= bv[c]) {
            bv[c] = v;
            bi[c] = t;
        }
        if (w->llow[t] && -v > g2[c]) g2[c] = -v;
    }
}

/* LIBSVM's second-order gain of j (the objective's decrease, negated) for a violation bdiff > 0
   against an i of diagonal Kii, with j's diagonal qd and k(i, j) kij. */
static inline double gpusvm__wss2(double bdiff, double Kii, float qd, float kij)
{
    double quad = Kii + (double)qd - 2.0 * (double)kij;
    if (quad <= 0.0) quad = GPUSVM__TAU;
    return -(bdiff * bdiff) / quad;
}

/* j: LIBSVM's second-order choice over I_low against the i of its class (Kc: their rows of the
   block, Kii their diagonals); ties: the later position; -1 when none; over act[0..na). */
static int gpusvm__cpu_smo_pick_j(const gpusvm__cpu_ws *w, int na, const double *bv, const double *Kii,
                                  const float *const *Kc)
{
    double bo = INFINITY;
    int bj = -1, k;
    for (k = 0; k < na; ++k) {
        const int t = w->act[k], c = w->lcls[t];
        const double bdiff = bv[c] - w->lv[t];
        if (w->llow[t] && bdiff > 0.0) {
            const double o = gpusvm__wss2(bdiff, Kii[c], w->lqd[t], Kc[c][t]);
            if (o <= bo) {
                bo = o;
                bj = t;
            }
        }
    }
    return bj;
}

/* LIBSVM's shrinking (Solver::be_shrunk, per class as Solver_NU's) over the active positions:
   one in I_up alone is set aside while lv is below every -lv of I_low (-g2), one in I_low alone
   while lv is above every lv of I_up (bv); free positions stay. Returns how many stay. The
   gradients of all positions are still updated, so nothing needs rebuilding when they return. */
static int gpusvm__cpu_smo_shrink(const gpusvm__cpu_ws *w, int na, const double *bv, const double *g2)
{
    int k, kept = 0;
    for (k = 0; k < na; ++k) {
        const int t = w->act[k], c = w->lcls[t];
        const double v = w->lv[t];
        if ((w->lup[t] && !w->llow[t] && v < -g2[c]) || (w->llow[t] && !w->lup[t] && v > bv[c])) continue;
        w->act[kept++] = t;
    }
    return kept;
}

/* Every position active again. */
static int gpusvm__cpu_smo_unshrink(const gpusvm__cpu_ws *w, int m)
{
    int t;
    for (t = 0; t < m; ++t) w->act[t] = t;
    return m;
}

#define GPUSVM__CPU_SHRINK_EVERY 1000 /* pair updates between shrinkings (LIBSVM's min(l, 1000)) */

/* LIBSVM's SMO on one problem's working set, as gpusvm_smo (w: room for q positions, gathered by
   gpusvm__cpu_smo_gather). A problem
   solved whole shrinks as LIBSVM does (its scans skip the positions that cannot be chosen soon;
   all return when the gap is below 10 eps and before the solve may stop), so its pair updates
   are LIBSVM's choices over fewer positions; a working set of a larger problem (and the device's
   inner solve) scans every position every time. */
static void gpusvm__cpu_smo_run(gpusvm__cpu *b, gpusvm__cpu_job *j, const gpusvm__cpu_ws *w, double eps, double ratio,
                                int max_inner, double max_iter)
{
    const int m = j->q;
    double eps_in, left;
    const int every = m < GPUSVM__CPU_SHRINK_EVERY ? m : GPUSVM__CPU_SHRINK_EVERY;
    int it = 0, budget, t, na, unshrunk = 0, shrink_in = every;
    if (j->whole) {
        ratio = 0.0;
        max_inner = GPUSVM__WHOLE_INNER;
    }
    na = gpusvm__cpu_smo_unshrink(w, m);
    eps_in = eps > ratio * j->st[GPUSVM__ST_GAP] ? eps : ratio * j->st[GPUSVM__ST_GAP];
    left = max_iter - j->st[GPUSVM__ST_ITER];
    if (left < 0.0) left = 0.0;
    budget = (double)max_inner < left ? max_inner : (int)left;
    while (it < budget) {
        /* class 0: every variable (nu: y = +1); class 1: nu's y = -1 */
        double bv[2], g2[2], Kii[2], gap;
        int bi[2], jj, c;
        const float *Kc[2];
        gpusvm__cpu_smo_pick_i(w, na, j->p.nu, bv, bi, g2);
        gap = j->p.nu ? (bv[0] + g2[0] > bv[1] + g2[1] ? bv[0] + g2[0] : bv[1] + g2[1])
                      : (bi[0] < 0 ? -INFINITY : bv[0] + g2[0]);
        if (j->whole && b->shrinking && --shrink_in == 0) {
            shrink_in = every;
            if (!unshrunk && gap <= 10.0 * eps_in) {
                unshrunk = 1;
                na = gpusvm__cpu_smo_unshrink(w, m);
                continue;
            }
            na = gpusvm__cpu_smo_shrink(w, na, bv, g2);
        }
        if (!(gap >= eps_in)) { /* optimal over the active positions: over all of them, or again */
            if (na == m) break;
            na = gpusvm__cpu_smo_unshrink(w, m);
            continue;
        }
        for (c = 0; c < 2; ++c) { /* a class without an i has no candidate for j: its row is not read */
            Kc[c] = bi[c] >= 0 ? gpusvm__cpu_kq(b, j, w, bi[c]) : w->kq;
            Kii[c] = w->lqd[bi[c] > 0 ? bi[c] : 0];
        }
        if ((jj = gpusvm__cpu_smo_pick_j(w, na, bv, Kii, Kc)) < 0) {
            if (na == m) break;
            na = gpusvm__cpu_smo_unshrink(w, m);
            continue;
        }
        c = w->lcls[jj];
        gpusvm__cpu_smo_step(j, w, bi[c], jj, Kii[c], Kc[c], gpusvm__cpu_kq(b, j, w, jj));
        ++it;
    }
    for (t = 0; t < m; ++t) {
        const size_t i = (size_t)j->ws_idx[t];
        const double d = w->la[t] - j->alpha[i];
        j->coef[t] = j->p.y[i] > 0 ? d : -d;
        j->alpha[i] = w->la[t];
    }
    j->st[GPUSVM__ST_ITER] += (double)it;
    j->st[GPUSVM__ST_INNER] = (double)it;
}

/* A running problem's inner solve: its working set gathered into w, then solved. */
static void gpusvm__cpu_smo_one(gpusvm__cpu *b, gpusvm__cpu_job *j, const gpusvm__cpu_ws *w, double eps, double ratio,
                                int max_inner, double max_iter)
{
    if (j->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return;
    gpusvm__cpu_smo_gather(j, w);
    gpusvm__cpu_smo_run(b, j, w, eps, ratio, max_inner, max_iter);
}

/* The part that holds working-set position t of a split job. */
static int gpusvm__cpu_owner(const gpusvm__cpu *b, const gpusvm__cpu_job *j, int t)
{
    return gpusvm__part_of(j->npts, b->base.ctx->split.parts, GPUSVM__PT((size_t)j->ws_idx[t], j->npts));
}

/* A split job's q x q block into kq (kq[u][t] = k(working-set point u, point t), as gpusvm__cpu_kq
   gathers it): column t is in the rows of the part that holds t, so each part sends its columns
   (as many as the part with the most holds, in position order), row by row of the block, and
   takes everyone's (own[t]: the part that holds position t). */
static gpusvm_result gpusvm__cpu_share_block(gpusvm__cpu *b, gpusvm__cpu_job *j, const int *own, float *kq)
{
    const int parts = b->base.ctx->split.parts, rank = b->base.ctx->split.rank, q = j->q;
    size_t most = 0, bytes, mine = 0, k;
    uint64_t *next = b->xrecv; /* after the counts: each part's next column */
    int at[GPUSVM__Q], t, u, r;
    float *send, *all;
    for (t = 0; t < q; ++t)
        if (own[t] == rank) at[mine++] = t;
    b->xsend[0] = mine;
    if (!gpusvm__cpu_gather(b, b->xsend, b->xrecv, sizeof(uint64_t))) return GPUSVM_OK;
    for (r = 0; r < parts; ++r) most = b->xrecv[r] > most ? (size_t)b->xrecv[r] : most;
    bytes = (size_t)(parts + 1) * most * (size_t)q * sizeof(float);
    if (b->xblock_bytes < bytes) {
        gpusvm__free(&b->base.ctx->alloc, b->xblock);
        b->xblock_bytes = 0;
        if (!(b->xblock = (unsigned char *)gpusvm__alloc(&b->base.ctx->alloc, bytes, 1)))
            return gpusvm__oom(b->base.ctx, "the split's working-set block");
        b->xblock_bytes = bytes;
    }
    send = (float *)(void *)b->xblock; /* send[u][k]: row u at this part's k-th column */
    all = send + most * (size_t)q;
    for (u = 0; u < q; ++u) {
        const float *row = j->K + (size_t)j->ws_slot[u] * j->kw - j->plo;
        for (k = 0; k < mine; ++k) send[(size_t)u * most + k] = row[GPUSVM__PT((size_t)j->ws_idx[at[k]], j->npts)];
        for (; k < most; ++k) send[(size_t)u * most + k] = 0.0f;
    }
    if (!gpusvm__cpu_gather(b, send, all, most * (size_t)q * sizeof(float))) return GPUSVM_OK;
    for (r = 0; r < parts; ++r) next[r] = 0;
    for (t = 0; t < q; ++t) at[t] = (int)next[own[t]]++; /* t is column at[t] of its part's */
    for (u = 0; u < q; ++u)
        for (t = 0; t < q; ++t)
            kq[(size_t)u * (size_t)q + (size_t)t] = all[((size_t)own[t] * (size_t)q + (size_t)u) * most + (size_t)at[t]];
    return GPUSVM_OK;
}

/* A split job's working-set gradients from the parts that hold them (each part keeps its share's)
   and its block into kq, so that every part runs the same inner solve. */
static gpusvm_result gpusvm__cpu_share_ws(gpusvm__cpu *b, gpusvm__cpu_job *j, float *kq)
{
    double *send = (double *)(void *)b->xsend, *all = (double *)(void *)b->xrecv;
    int own[GPUSVM__Q], t;
    for (t = 0; t < j->q; ++t) {
        send[t] = j->G[j->ws_idx[t]];
        own[t] = gpusvm__cpu_owner(b, j, t);
    }
    if (!gpusvm__cpu_gather(b, send, all, (size_t)j->q * sizeof(double))) return GPUSVM_OK;
    for (t = 0; t < j->q; ++t) j->G[j->ws_idx[t]] = all[(size_t)own[t] * (size_t)j->q + (size_t)t];
    return gpusvm__cpu_share_block(b, j, own, kq);
}

/* A batch's inner solves on the context's threads: they take the problems in turn, thread t
   with its own scratch w[t] (allocated by the caller, once a training: a custom allocator is
   called from one thread only), each solved exactly as on one thread, so the same bits for any
   count. Split problems (their blocks gathered first, on the calling thread, in problem order as
   every part does it) go in chunks: thread t solves chunk[t], its block in w[t]. */
typedef struct gpusvm__cpu_smo_split {
    gpusvm__cpu *b;
    gpusvm__cpu_ws *w;
    double eps, ratio, max_iter;
    int max_inner, parts;
    const int *chunk; /* NULL: the problems that are not split */
    int nchunk;
    volatile long next; /* the next problem a thread takes (gpusvm__take) */
} gpusvm__cpu_smo_split;

/* Thread t's inner solves: the problems taken in turn in the batch's order (gpusvm__cpu_order: so
   that a batch of problems of unequal cost, a grid's C values, keeps every thread busy; each is
   solved alone, so any thread gives the same bits), or the order's t-th, t + parts-th, ...
   without an atomic add; with chunk, its t-th. */
static void gpusvm__cpu_smo_part(void *arg, int t)
{
    gpusvm__cpu_smo_split *s = (gpusvm__cpu_smo_split *)arg;
    int k;
    if (s->chunk) {
        if (t < s->nchunk)
            gpusvm__cpu_smo_one(s->b, &s->b->job[s->chunk[t]], &s->w[t], s->eps, s->ratio, s->max_inner, s->max_iter);
        return;
    }
#if GPUSVM__TAKE_ATOMIC
    while ((k = (int)gpusvm__take(&s->next)) < s->b->nprob)
#else
    for (k = t; k < s->b->nprob; k += s->parts)
#endif
    {
        const int p = s->b->order[k];
        if (!s->b->job[p].split)
            gpusvm__cpu_smo_one(s->b, &s->b->job[p], &s->w[t], s->eps, s->ratio, s->max_inner, s->max_iter);
    }
}

/* The split problems' inner solves, up to one a thread at a time. */
static gpusvm_result gpusvm__cpu_smo_split_jobs(gpusvm__cpu_smo_split *s)
{
    int chunk[GPUSVM__MAX_THREADS], t = 0;
    gpusvm_result r;
    while (t < s->b->nprob) {
        int n = 0;
        for (; t < s->b->nprob && n < s->parts; ++t) {
            gpusvm__cpu_job *j = &s->b->job[t];
            if (!j->split || j->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) continue;
            if ((r = gpusvm__cpu_share_ws(s->b, j, s->w[n].kq)) != GPUSVM_OK) return r;
            chunk[n++] = t;
        }
        s->chunk = chunk;
        s->nchunk = n;
        if (n) gpusvm__cpu_run(s->b, n, gpusvm__cpu_smo_part, s);
    }
    s->chunk = NULL;
    return gpusvm__cpu_gathered(s->b);
}

/* A working set's inner solve beside its kernel rows (gpusvm__cpu_defers). The solve reads only
   the q x q block of the rows (gpusvm__cpu_kq), the update every column: so the block's rows of
   the positions whose rows are this round's to compute are computed first, on every thread,
   straight into the block (each entry the row's value: the same dot product, gpusvm__cpu_rows_of,
   with the working set's points as the columns); then thread 0 runs the solve (the other
   positions' block rows gathered from the cache's rows, as always) while the other threads
   compute the round's rows, a tile of columns by a group of rows at a time, taken in turn, and
   thread 0 joins them when its solve ends. The solve runs on one thread; on many it is otherwise
   a large share of a round (mnist 8-vs-rest, 20,000 points, 16 threads: a fifth). */
typedef struct gpusvm__cpu_overlap {
    gpusvm__cpu_smo_split *s;
    gpusvm__cpu_job *j;
    int first, count; /* the rows: gpusvm__cpu_rowsrc_of's list */
    int nb, bparts;   /* the block rows (the ws's bidx, bslot), on bparts threads */
    int parts, rows_per, groups, chunks; /* chunk c: rows [(c % groups) rows_per, +rows_per) by tile c / groups */
    /* with an atomic add, the gradient update too: items chunks + c update tile c's points once its
       chunks are done (tile_left[c] counts them down) and the solve is (solved) */
    int tiles, items;
    volatile long next, solved, *tile_left;
} gpusvm__cpu_overlap;

/* >>cpu/update: the gradient update, overlapped with the inner solves --------------------------- */

/* The positions whose rows are this round's to compute (every one with first; else the misses,
   which gpusvm__cpu_assign listed in position order) into the ws's bidx (variable) and bslot
   (position), and the points of the block's columns into bcol. Returns how many. */
static int gpusvm__cpu_block_list(const gpusvm__cpu_job *j, const gpusvm__cpu_ws *w, int first)
{
    int t, k = 0, nb = 0;
    for (t = 0; t < j->q; ++t) {
        w->bcol[t] = j->cmap ? j->cmap[w->lpt[t]] : (int32_t)w->lpt[t];
        if (first || (k < j->nmiss && j->ws_idx[t] == j->miss[k])) {
            w->bidx[nb] = j->ws_idx[t];
            w->bslot[nb++] = t;
            k += !first;
        }
    }
    return nb;
}

/* Block rows [nb t / bparts, nb (t + 1) / bparts) on thread t. */
static void gpusvm__cpu_block_part(void *arg, int t)
{
    const gpusvm__cpu_overlap *o = (const gpusvm__cpu_overlap *)arg;
    const gpusvm__cpu_ws *w = &o->s->w[0];
    const int lo = o->nb * t / o->bparts, hi = o->nb * (t + 1) / o->bparts;
    gpusvm__cpu_rowsrc rs;
    int k;
    gpusvm__cpu_rowsrc_of(o->s->b, o->j, 1, t, &rs);
    rs.ldk = (size_t)o->j->q;
    rs.bmap = w->bcol;
    rs.idx = w->bidx;
    rs.slot = w->bslot;
    rs.K = w->kq;
    gpusvm__cpu_rows_of(&rs, lo, hi - lo, 0, (size_t)o->j->q);
    for (k = lo; k < hi; ++k) w->kq_have[w->bslot[k]] = 1;
}

#if GPUSVM__TAKE_ATOMIC
/* Tile c's part of the gradient update (gpusvm__cpu_update's, for its points' variables: the same
   sums in the same order), once its rows and the solve are done. */
static void gpusvm__cpu_update_tile(gpusvm__cpu_overlap *o, int c)
{
    const gpusvm__cpu_job *j = o->j;
    const size_t c0 = (size_t)c * GPUSVM__CPU_TILE, c1 = c0 + GPUSVM__CPU_TILE < j->kw ? c0 + GPUSVM__CPU_TILE : j->kw;
    gpusvm__wait_for(&o->tile_left[c], 0);
    gpusvm__wait_for(&o->solved, 1);
    gpusvm__cpu_accumulate(j->G, j->p.y, c0, c1, j->K, j->kw, j->plo, j->ws_slot, j->coef, j->q, j->npts);
    if (j->n == 2 * j->npts) /* epsilon-SVR: the points' second variables */
        gpusvm__cpu_accumulate(j->G, j->p.y, j->npts + c0, j->npts + c1, j->K, j->kw, j->plo, j->ws_slot, j->coef,
                               j->q, j->npts);
}
#endif

/* Chunk c of the rows, on the scratch of rs. */
static void gpusvm__cpu_overlap_chunk(const gpusvm__cpu_overlap *o, const gpusvm__cpu_rowsrc *rs, long c)
{
    const int r0 = (int)(c % o->groups) * o->rows_per;
    const size_t c0 = (size_t)(c / o->groups) * GPUSVM__CPU_TILE, c1 = c0 + GPUSVM__CPU_TILE;
    gpusvm__cpu_rows_of(rs, r0, o->count - r0 < o->rows_per ? o->count - r0 : o->rows_per, c0,
                        c1 < o->j->kw ? c1 : o->j->kw);
}

/* Thread t: (thread 0: the inner solve first) the rows' chunks, taken in turn, then the update's
   tiles (without an atomic add: chunks t, t + parts, ..., so thread 0's wait for its solve, and
   the update is its own step). */
static void gpusvm__cpu_overlap_part(void *arg, int t)
{
    gpusvm__cpu_overlap *o = (gpusvm__cpu_overlap *)arg;
    const gpusvm__cpu_smo_split *s = o->s;
    gpusvm__cpu_rowsrc rs;
    long c;
    if (t == 0) {
        gpusvm__cpu_smo_run(s->b, o->j, &s->w[0], s->eps, s->ratio, s->max_inner, s->max_iter);
#if GPUSVM__TAKE_ATOMIC
        gpusvm__store(&o->solved, 1);
#endif
    }
    gpusvm__cpu_rowsrc_of(s->b, o->j, o->first, t, &rs);
#if GPUSVM__TAKE_ATOMIC
    while ((c = gpusvm__take(&o->next)) < o->items)
        if (c < o->chunks) {
            gpusvm__cpu_overlap_chunk(o, &rs, c);
            gpusvm__drop(&o->tile_left[c / o->groups]);
        } else { /* every chunk was taken before: the wait is for those in hand, and the solve */
            gpusvm__cpu_update_tile(o, (int)(c - o->chunks));
        }
#else
    for (c = t; c < o->chunks; c += o->parts) gpusvm__cpu_overlap_chunk(o, &rs, c);
#endif
}

/* Job j's inner solve (on s's w[0]) and its deferred rows. Chunks of at most 256 rows by a tile,
   fewer rows where that leaves under 8 chunks a thread. */
static void gpusvm__cpu_smo_overlap(gpusvm__cpu_smo_split *s, gpusvm__cpu_job *j)
{
    gpusvm__cpu_overlap o;
    const size_t tiles = (j->kw + GPUSVM__CPU_TILE - 1) / GPUSVM__CPU_TILE;
    o.s = s;
    o.j = j;
    o.first = j->defer == 2;
    o.count = o.first ? j->q : j->nmiss;
    j->defer = 0;
    gpusvm__cpu_smo_gather(j, &s->w[0]);
    o.nb = gpusvm__cpu_block_list(j, &s->w[0], o.first);
    o.bparts = gpusvm__cpu_parts(s->b, (size_t)o.nb, (size_t)j->q * s->b->kcost);
    gpusvm__cpu_run(s->b, o.bparts, gpusvm__cpu_block_part, &o);
    o.parts = s->b->threads;
    for (o.rows_per = 256; o.rows_per > GPUSVM__CPU_WIDE; o.rows_per /= 2)
        if (tiles * (size_t)((o.count + o.rows_per - 1) / o.rows_per) >= 8 * (size_t)o.parts) break;
    o.groups = (o.count + o.rows_per - 1) / o.rows_per;
    o.chunks = (int)tiles * o.groups;
    o.tiles = (int)tiles;
    o.items = o.chunks;
    o.next = 0;
    o.solved = 0;
#if GPUSVM__TAKE_ATOMIC
    {
        int c;
        o.tile_left = s->b->tile_left;
        for (c = 0; c < o.tiles; ++c) o.tile_left[c] = o.groups;
        o.items = o.chunks + o.tiles;
        j->updated = 1;
    }
#endif
    gpusvm__cpu_run(s->b, o.parts, gpusvm__cpu_overlap_part, &o);
}

/* The job whose rows were left to its inner solve, or NULL. */
static gpusvm__cpu_job *gpusvm__cpu_deferred(gpusvm__cpu *b)
{
    int t;
    for (t = 0; t < b->nprob; ++t)
        if (b->job[t].defer) return &b->job[t];
    return NULL;
}

static gpusvm_result gpusvm__cpu_smo(gpusvm__backend *bb, double eps, double ratio, int max_inner, double max_iter)
{
    gpusvm__cpu_ws w[GPUSVM__MAX_THREADS];
    gpusvm__cpu_smo_split s;
    gpusvm__cpu_job *dj;
    size_t bytes;
    int t;
    s.b = (gpusvm__cpu *)bb;
    s.w = w;
    s.eps = eps;
    s.ratio = ratio;
    s.max_iter = max_iter;
    s.max_inner = max_inner;
    s.parts = s.b->nprob < s.b->threads ? s.b->nprob : s.b->threads;
    if (s.parts < 1) s.parts = 1;
    bytes = gpusvm__cpu_ws_bytes(s.b->qmax);
    if (s.b->smo_bytes < (size_t)s.parts * bytes) {
        gpusvm__free(&bb->ctx->alloc, s.b->smo_scratch);
        s.b->smo_bytes = 0;
        if (!(s.b->smo_scratch = (unsigned char *)gpusvm__alloc(&bb->ctx->alloc, (size_t)s.parts, bytes)))
            return gpusvm__oom(bb->ctx, "the inner solve");
        s.b->smo_bytes = (size_t)s.parts * bytes;
    }
    for (t = 0; t < s.parts; ++t) {
        gpusvm__cpu_ws_view(s.b->smo_scratch + (size_t)t * bytes, s.b->qmax, &w[t]);
        w[t].th = s.parts > 1 ? t : -1;
    }
    s.chunk = NULL;
    s.nchunk = 0;
    s.next = 0;
    if ((dj = gpusvm__cpu_deferred(s.b)) != NULL) gpusvm__cpu_smo_overlap(&s, dj);
    else gpusvm__cpu_run(s.b, s.parts, gpusvm__cpu_smo_part, &s);
    return bb->ctx->split.parts > 1 ? gpusvm__cpu_smo_split_jobs(&s) : GPUSVM_OK;
}

#define GPUSVM__UPDATE_BLOCK ((size_t)512) /* points per block of gpusvm__cpu_accumulate */

/* out[i] += s_i * sum_t coef[t] K[slot[t]][i - col0], as gpusvm_update: each sum in t order, for a
   block of consecutive points at a time, so that a row is read along its length (the inner loop
   vectorizes) rather than one word of every row per point. */
static void gpusvm__cpu_accumulate(double *out, const signed char *y, size_t lo, size_t hi, const float *K, size_t ldk,
                                   size_t col0, const int *slot, const double *coef, int m, size_t npts)
{
    double sum[GPUSVM__UPDATE_BLOCK];
    size_t i = lo, n, k;
    int t;
    while (i < hi) {
        const size_t pt = GPUSVM__PT(i, npts);
        n = hi - i < GPUSVM__UPDATE_BLOCK ? hi - i : GPUSVM__UPDATE_BLOCK;
        if (pt + n > npts) n = npts - pt; /* epsilon-SVR: a block stays within one run of the points */
        for (k = 0; k < n; ++k) sum[k] = 0.0;
        for (t = 0; t < m; ++t)
            if (coef[t] != 0.0) {
                const double c = coef[t];
                const float *row = K + (size_t)slot[t] * ldk + (pt - col0);
                for (k = 0; k < n; ++k) sum[k] += c * (double)row[k];
            }
        for (k = 0; k < n; ++k) out[i + k] += (y && y[i + k] < 0) ? -sum[k] : sum[k];
        i += n;
    }
}

/* Part t of every range of the job's variables. */
static void gpusvm__cpu_update_part(void *arg, int t)
{
    const gpusvm__cpu_split *w = (const gpusvm__cpu_split *)arg;
    const gpusvm__cpu_job *j = w->j;
    int r;
    size_t lo, hi;
    for (r = 0; r < j->nr; ++r) {
        gpusvm__cpu_var_part(j, r, t, w->parts, &lo, &hi);
        gpusvm__cpu_accumulate(j->G, j->p.y, lo, hi, j->K, j->kw, j->plo, j->ws_slot, j->coef, j->q, j->npts);
    }
}

static gpusvm_result gpusvm__cpu_update(gpusvm__backend *bb)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int t;
    gpusvm__cpu_settle(b);
    for (t = 0; t < b->nprob; ++t) {
        gpusvm__cpu_split w;
        gpusvm__cpu_job *j = &b->job[t];
        if (j->updated) { /* by its inner solve's threads (gpusvm__cpu_smo_overlap) */
            j->updated = 0;
            continue;
        }
        if (j->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) continue;
        w.b = b;
        w.j = j;
        w.off = 0;
        w.count = (int)(j->vhi[0] - j->vlo[0]) * j->nr;
        w.parts = gpusvm__cpu_parts(b, (size_t)w.count, (size_t)j->q);
        gpusvm__cpu_run(b, w.parts, gpusvm__cpu_update_part, &w);
    }
    return GPUSVM_OK;
}

#define GPUSVM__CS_HOST_CACHE ((size_t)2 << 30) /* the C backend's Crammer-Singer row cache: at most 2 GiB */

/* >>cpu/cs: Crammer-Singer (kernels part 5's oracle) -------------------------------------------- */

/* Crammer-Singer in the C backend: kernels part 5's steps, in the same order (the comments
   there say what each computes), one problem of the batch after another. A problem's state,
   beside its job's (train.begin's problem: the points, the row list, and K: one row per point
   with the cache, else the working set's; its slots are the point, or the position). */
typedef struct gpusvm__cpu_cs {
    gpusvm__cpu_job *j;
    size_t n;
    int m, q, nq, nmiss, cache;
    double eps, ratio, skip, st[GPUSVM__ST_COUNT], sums[3];
    const int *cls;
    const double *U, *kd;
    int *ws, *moved, *have;
    double *alpha, *c, *dA, *cws, *scr, *gi, *acc, *bsum; /* acc: GPUSVM__CS_BLOCK x m per thread; bsum: 3 per block */
    uint64_t *heap;
    float *kws;
} gpusvm__cpu_cs;

static void gpusvm__cpu_cs_free(const gpusvm_allocator *a, struct gpusvm__cpu_cs *s, int nprob)
{
    int p, i;
    if (!s) return;
    for (p = 0; p < nprob; ++p) {
        void *f[13];
        f[0] = s[p].ws; f[1] = s[p].moved; f[2] = s[p].have; f[3] = s[p].alpha; f[4] = s[p].c; f[5] = s[p].dA;
        f[6] = s[p].cws; f[7] = s[p].scr; f[8] = s[p].gi; f[9] = s[p].acc; f[10] = s[p].heap; f[11] = s[p].kws;
        f[12] = s[p].bsum;
        for (i = 0; i < 13; ++i) gpusvm__free(a, f[i]);
    }
    gpusvm__free(a, s);
}

/* Points [i0, i1) (at most GPUSVM__CS_BLOCK): their responses from the last sweeps' moves (each
   summed over the moves first, in order, as gpusvm_cs_resp; the moves' kernel values of a block
   stay in the first cache's lines from point to point), then each one's terms of P and D (sums[0..2]: sum alpha c, the loss, sum alpha_iy) and
   its gap share gi. acc: GPUSVM__CS_BLOCK x m scratch. */
#define GPUSVM__CS_BLOCK 64
static void gpusvm__cpu_cs_points(gpusvm__cpu_cs *s, size_t i0, size_t i1, double *sums, double *acc)
{
    const int m = s->m;
    const float *K = s->j->K;
    const size_t ldk = s->j->npts;
    size_t i;
    int t, r;
    for (i = i0; i < i1; ++i) { /* a point's classes 8 at a time, their sums in registers */
        double *ai = acc + (i - i0) * (size_t)m;
        int r0;
        for (r0 = 0; r0 + 8 <= m; r0 += 8) {
            double v0 = 0.0, v1 = 0.0, v2 = 0.0, v3 = 0.0, v4 = 0.0, v5 = 0.0, v6 = 0.0, v7 = 0.0;
            for (t = 0; t < s->nq; ++t) {
                const double *dt = s->dA + t * m + r0;
                double k;
                if (s->moved[t] < 0) continue;
                k = (double)K[(size_t)s->moved[t] * ldk + i];
                v0 += dt[0] * k;
                v1 += dt[1] * k;
                v2 += dt[2] * k;
                v3 += dt[3] * k;
                v4 += dt[4] * k;
                v5 += dt[5] * k;
                v6 += dt[6] * k;
                v7 += dt[7] * k;
            }
            ai[r0] = v0;
            ai[r0 + 1] = v1;
            ai[r0 + 2] = v2;
            ai[r0 + 3] = v3;
            ai[r0 + 4] = v4;
            ai[r0 + 5] = v5;
            ai[r0 + 6] = v6;
            ai[r0 + 7] = v7;
        }
        for (r = r0; r < m; ++r) ai[r] = 0.0;
        if (r0 < m)
            for (t = 0; t < s->nq; ++t) {
                const double *dt = s->dA + t * m;
                double k;
                if (s->moved[t] < 0) continue;
                k = (double)K[(size_t)s->moved[t] * ldk + i];
                for (r = r0; r < m; ++r) ai[r] += dt[r] * k;
            }
    }
    for (i = i0; i < i1; ++i) {
        const int y = s->cls[i];
        double *ci = s->c + i * (size_t)m, up = -INFINITY, low = INFINITY, worst = 0.0, ag = 0.0, aka = 0.0, cy;
        const double *ai = s->alpha + i * (size_t)m, *di = acc + (i - i0) * (size_t)m;
        for (r = 0; r < m; ++r) ci[r] += di[r];
        cy = ci[y];
        for (r = 0; r < m; ++r) {
            const double cr = ci[r], ar = ai[r], gr = (r == y ? 1.0 : 0.0) - cr;
            if (ar < (r == y ? s->U[i] : 0.0) && gr > up) up = gr;
            if (gr < low) low = gr;
            if (r != y && 1.0 + cr - cy > worst) worst = 1.0 + cr - cy;
            aka += ar * cr;
            ag += ar * gr;
        }
        sums[0] += aka;
        sums[1] += s->U[i] * worst;
        sums[2] += ai[y];
        s->gi[i] = s->U[i] * worst - ag;
    }
}

/* The blocks of GPUSVM__CS_BLOCK points split across the threads; each block's sums of P and D
   stand in bsum (3 per block) and are added in block order, so the totals are the same bits for
   any thread count. */
typedef struct gpusvm__cpu_cs_part {
    gpusvm__cpu_cs *s;
    size_t nblocks;
    int parts;
} gpusvm__cpu_cs_part;

static void gpusvm__cpu_cs_update_part(void *arg, int t)
{
    gpusvm__cpu_cs_part *w = (gpusvm__cpu_cs_part *)arg;
    gpusvm__cpu_cs *s = w->s;
    const size_t lo = w->nblocks * (size_t)t / (size_t)w->parts, hi = w->nblocks * (size_t)(t + 1) / (size_t)w->parts;
    size_t k;
    for (k = lo; k < hi; ++k) {
        const size_t i = k * GPUSVM__CS_BLOCK;
        double *bs = s->bsum + 3 * k;
        bs[0] = bs[1] = bs[2] = 0.0;
        gpusvm__cpu_cs_points(s, i, s->n - i < GPUSVM__CS_BLOCK ? s->n : i + GPUSVM__CS_BLOCK, bs,
                              s->acc + (size_t)t * GPUSVM__CS_BLOCK * (size_t)s->m);
    }
}

/* The q points with the largest gap share (> 0), ties to the lower index, in ascending order. */
static void gpusvm__cpu_cs_choose(gpusvm__cpu_cs *s)
{
    size_t i;
    int hn = 0, t;
    for (i = 0; i < s->n; ++i) { /* a max-heap of the q best (key, index) pairs */
        uint64_t c;
        int at;
        if (!(s->gi[i] > 0.0)) continue;
        c = ((uint64_t)~gpusvm__float_key((float)s->gi[i]) << 32) | (uint64_t)i;
        if (hn < s->q) {
            at = hn++;
            while (at > 0 && s->heap[(at - 1) / 2] < c) {
                s->heap[at] = s->heap[(at - 1) / 2];
                at = (at - 1) / 2;
            }
            s->heap[at] = c;
        } else if (c < s->heap[0]) {
            at = 0;
            for (;;) {
                int l = 2 * at + 1, r = l + 1, big = at;
                uint64_t bv = c;
                if (l < hn && s->heap[l] > bv) { big = l; bv = s->heap[l]; }
                if (r < hn && s->heap[r] > bv) big = r;
                if (big == at) break;
                s->heap[at] = s->heap[big];
                at = big;
            }
            s->heap[at] = c;
        }
    }
    for (t = 0; t < hn; ++t) s->ws[t] = (int)(s->heap[t] & 0xFFFFFFFFu);
    qsort(s->ws, (size_t)hn, sizeof(int), gpusvm__cmp_int);
    s->nq = hn;
}

/* Step 0, as gpusvm_cs_resp and gpusvm_cs_update: the responses, every point's gap share, the
   sums of P and D. */
static void gpusvm__cpu_cs_update(gpusvm__cpu *b, gpusvm__cpu_cs *s)
{
    gpusvm__cpu_cs_part w;
    size_t k;
    w.s = s;
    w.nblocks = (s->n + GPUSVM__CS_BLOCK - 1) / GPUSVM__CS_BLOCK;
    w.parts = gpusvm__cpu_parts(b, w.nblocks, (size_t)GPUSVM__CS_BLOCK * (size_t)s->m * (size_t)(s->nq + 1));
    gpusvm__cpu_run(b, w.parts, gpusvm__cpu_cs_update_part, &w);
    s->sums[0] = s->sums[1] = s->sums[2] = 0.0;
    for (k = 0; k < w.nblocks; ++k) {
        s->sums[0] += s->bsum[3 * k];
        s->sums[1] += s->bsum[3 * k + 1];
        s->sums[2] += s->bsum[3 * k + 2];
    }
}

/* Step 1, as gpusvm_cs_select: the gap and the stop, the working set, the rows to compute. */
static void gpusvm__cpu_cs_select(gpusvm__cpu_cs *s, double eps, double max_iter)
{
    const double P = 0.5 * s->sums[0] + s->sums[1], D = s->sums[2] - 0.5 * s->sums[0];
    int t;
    s->st[GPUSVM__ST_GAP] = (P + D) > 0.0 ? 2.0 * (P - D) / (P + D) : 0.0;
    s->st[GPUSVM__ST_CS_P] = P;
    s->st[GPUSVM__ST_CS_D] = D;
    s->st[GPUSVM__ST_DONE] = GPUSVM__STOP_RULE(GPUSVM__GE, s->st[GPUSVM__ST_GAP], eps, s->st[GPUSVM__ST_ITER], max_iter);
    if (s->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return;
    gpusvm__cpu_cs_choose(s);
    s->st[GPUSVM__ST_CS_Q] = s->nq;
    s->nmiss = 0;
    for (t = 0; t < s->nq; ++t) {
        const int v = s->ws[t];
        if (s->cache && s->have[v]) continue;
        s->j->ws_idx[s->nmiss] = v;
        s->j->ws_slot[s->nmiss++] = s->cache ? v : t;
        if (s->cache) s->have[v] = 1;
    }
}

/* Step 2: the rows the selection listed. */
static void gpusvm__cpu_cs_rows(gpusvm__cpu *b, gpusvm__cpu_cs *s)
{
    gpusvm__cpu_rows_list(b, s->j, 1, s->nmiss); /* its list is in ws_idx / ws_slot */
}

/* Position t's exact block solve (gpusvm_cs_solve's step); returns its violation before it. */
static double gpusvm__cpu_cs_block(gpusvm__cpu_cs *s, int t, double *upd)
{
    const int m = s->m, it = s->ws[t], y = s->cls[it];
    const double kii = s->kd[it] > 0.0 ? s->kd[it] : GPUSVM__TAU;
    double *sd = s->scr, *se = sd + m, *su = se + m, *sa = su + m, *sl = sa + m, *sth = sl + m, *sv = sth + m;
    double *ai = s->alpha + (size_t)it * m, up = -INFINITY, low = INFINITY, theta;
    int r, k, ks, mv = 0, e;
    for (r = 0; r < m; ++r) {
        const double gr = (r == y ? 1.0 : 0.0) - s->cws[t * m + r];
        sa[r] = ai[r];
        su[r] = r == y ? s->U[it] : 0.0;
        sd[r] = ai[r] + gr / kii;
        se[r] = ai[r] + gr / kii - su[r];
        sl[r] = gr;
        if (sa[r] < su[r] && gr > up) up = gr;
        if (gr < low) low = gr;
    }
    if (!(up - low > 1e-12) || up - low < s->skip) return up - low;
    for (r = 0; r < m; ++r) {
        double sum = 0.0, emin = INFINITY, th;
        int s2;
        k = 0;
        for (s2 = 0; s2 < m; ++s2) {
            const int ahead = se[s2] > se[r] || (se[s2] == se[r] && s2 < r);
            sum += ahead ? su[s2] : sd[s2];
            k += ahead;
            if (ahead && se[s2] < emin) emin = se[s2];
        }
        th = sum / (double)(m - k);
        sth[k] = th;
        sv[k] = ((k == 0 || emin >= th) && se[r] < th) ? 1.0 : 0.0;
    }
    for (ks = m - 1, k = m - 1; k >= 0; --k)
        if (sv[k] != 0.0) ks = k;
    theta = sth[ks];
    for (r = 0; r < m; ++r) {
        const double d = sd[r] - theta, beta = d < su[r] ? d : su[r];
        sl[r] = beta - sa[r];
        ai[r] = beta;
        mv |= sl[r] != 0.0;
    }
    *upd += mv;
    if (mv)
        for (e = 0; e < s->nq * m; ++e) {
            const int u = e / m;
            s->cws[e] += sl[e - u * m] * (double)s->kws[t * s->q + u];
        }
    return up - low;
}

/* Step 3, as gpusvm_cs_solve: the block and responses of the working set, the sweeps, the moves. */
static void gpusvm__cpu_cs_solve(gpusvm__cpu_cs *s)
{
    const float *K = s->j->K;
    const size_t ldk = s->j->npts;
    const int m = s->m, nq = s->nq;
    double v0 = -1.0, upd = 0.0;
    int t, u, e, sweep;
    for (t = 0; t < nq; ++t)
        for (u = 0; u < nq; ++u) s->kws[t * s->q + u] = K[(size_t)(s->cache ? s->ws[t] : t) * ldk + (size_t)s->ws[u]];
    for (e = 0; e < nq * m; ++e) { /* dA: alpha before the sweeps, then the change */
        s->cws[e] = s->c[(size_t)s->ws[e / m] * m + (size_t)(e % m)];
        s->dA[e] = s->alpha[(size_t)s->ws[e / m] * m + (size_t)(e % m)];
    }
    s->skip = 0.0;
    for (sweep = 0; sweep < 100; ++sweep) {
        double vin = 0.0, vt;
        for (t = 0; t < nq; ++t)
            if ((vt = gpusvm__cpu_cs_block(s, t, &upd)) > vin) vin = vt;
        if (v0 < 0.0) v0 = vin;
        if (vin < s->ratio * v0 || vin < s->eps) break;
        s->skip = 0.5 * s->ratio * v0;
    }
    for (e = 0; e < nq * m; ++e) s->dA[e] = s->alpha[(size_t)s->ws[e / m] * m + (size_t)(e % m)] - s->dA[e];
    for (t = 0; t < nq; ++t) {
        int mv = 0;
        for (e = 0; e < m; ++e) mv |= s->dA[t * m + e] != 0.0;
        s->moved[t] = mv ? (s->cache ? s->ws[t] : t) : -1;
    }
    s->st[GPUSVM__ST_ITER] += upd;
    s->st[GPUSVM__ST_OUTER] += 1.0;
}

static gpusvm_result gpusvm__cpu_cs_one(gpusvm__cpu *b, const gpusvm__cs_desc *d, gpusvm__cpu_cs *s)
{
    const gpusvm_allocator *a = &b->base.ctx->alloc;
    const size_t n = s->n, m = (size_t)s->m, q = (size_t)s->q;
    s->cache = d->cache;
    s->eps = d->eps;
    s->ratio = d->ratio;
    s->have = (int *)gpusvm__calloc(a, n, sizeof(int));
    s->alpha = (double *)gpusvm__calloc(a, n, m * sizeof(double));
    s->c = (double *)gpusvm__calloc(a, n, m * sizeof(double));
    s->ws = (int *)gpusvm__alloc(a, q, sizeof(int));
    s->moved = (int *)gpusvm__alloc(a, q, sizeof(int));
    s->heap = (uint64_t *)gpusvm__alloc(a, q, sizeof(uint64_t));
    s->dA = (double *)gpusvm__alloc(a, q, m * sizeof(double));
    s->cws = (double *)gpusvm__alloc(a, q, m * sizeof(double));
    s->kws = (float *)gpusvm__alloc(a, q, q * sizeof(float));
    s->scr = (double *)gpusvm__alloc(a, GPUSVM__CS_SCR_ROWS * m, sizeof(double));
    s->gi = (double *)gpusvm__alloc(a, n, sizeof(double));
    s->acc = (double *)gpusvm__alloc(a, (size_t)b->threads * GPUSVM__CS_BLOCK, m * sizeof(double));
    s->bsum = (double *)gpusvm__alloc(a, n / GPUSVM__CS_BLOCK + 1, 3 * sizeof(double));
    if (!s->have || !s->alpha || !s->c || !s->ws || !s->moved || !s->heap || !s->dA || !s->cws || !s->kws || !s->scr ||
        !s->gi || !s->acc || !s->bsum)
        return gpusvm__oom(b->base.ctx, "the Crammer-Singer state");
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_cs_begin(gpusvm__backend *bb, const gpusvm__cs_desc *d, int *q)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    const gpusvm_allocator *a = &bb->ctx->alloc;
    size_t v0 = 0;
    gpusvm_result r = GPUSVM_OK;
    int p;
    gpusvm__cpu_cs_free(a, b->cs, b->ncs);
    b->ncs = d->nprob;
    b->cs = (gpusvm__cpu_cs *)gpusvm__calloc(a, (size_t)d->nprob, sizeof(gpusvm__cpu_cs));
    if (!b->cs) return gpusvm__oom(bb->ctx, "the Crammer-Singer state");
    *q = *q < b->qmax ? *q : b->qmax;
    for (p = 0; p < d->nprob && r == GPUSVM_OK; ++p) {
        gpusvm__cpu_cs *s = &b->cs[p];
        s->j = &b->job[p];
        s->n = d->n[p];
        s->m = d->m[p];
        s->q = *q;
        s->cls = d->cls + v0;
        s->U = d->U + v0;
        s->kd = d->kd + v0;
        v0 += s->n;
        r = gpusvm__cpu_cs_one(b, d, s);
    }
    return r;
}

static gpusvm_result gpusvm__cpu_cs_step(gpusvm__backend *bb, int step, int first, double eps, double max_iter)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int p;
    (void)first;
    for (p = 0; p < b->ncs; ++p) {
        gpusvm__cpu_cs *s = &b->cs[p];
        if (s->st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) continue;
        switch (step) {
        case 0: gpusvm__cpu_cs_update(b, s); break;
        case 1: gpusvm__cpu_cs_select(s, eps, max_iter); break;
        case 2: gpusvm__cpu_cs_rows(b, s); break;
        default: gpusvm__cpu_cs_solve(s); break;
        }
    }
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_cs_read(gpusvm__backend *bb, double *st, double *alpha)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    size_t at = 0;
    int p;
    for (p = 0; p < b->ncs; ++p) {
        const gpusvm__cpu_cs *s = &b->cs[p];
        if (st) memcpy(st + (size_t)p * GPUSVM__ST_COUNT, s->st, sizeof s->st);
        if (alpha) memcpy(alpha + at, s->alpha, s->n * (size_t)s->m * sizeof(double));
        at += s->n * (size_t)s->m;
    }
    return GPUSVM_OK;
}

/* >>cpu/state: status and state access ---------------------------------------------------------- */

static gpusvm_result gpusvm__cpu_read_status(gpusvm__backend *bb, double *st)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    memcpy(st, b->st, (size_t)b->nprob * GPUSVM__ST_COUNT * sizeof(double));
    return GPUSVM_OK;
}

/* A split job's gradient into G, each variable's from the part that holds it. */
static gpusvm_result gpusvm__cpu_gather_G(gpusvm__cpu *b, const gpusvm__cpu_job *j, double *G)
{
    const int parts = b->base.ctx->split.parts;
    double *all = (double *)gpusvm__alloc(&b->base.ctx->alloc, (size_t)parts * (j->n ? j->n : 1), sizeof(double));
    size_t v;
    if (!all) return gpusvm__oom(b->base.ctx, "the split gradient");
    if (gpusvm__cpu_gather(b, j->G, all, j->n * sizeof(double)))
        for (v = 0; v < j->n; ++v) G[v] = all[(size_t)gpusvm__part_of(j->npts, parts, GPUSVM__PT(v, j->npts)) * j->n + v];
    gpusvm__free(&b->base.ctx->alloc, all);
    return gpusvm__cpu_gathered(b);
}

static gpusvm_result gpusvm__cpu_read_state(gpusvm__backend *bb, double *alpha, double *G)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    gpusvm_result r;
    size_t off = 0;
    int t;
    if (alpha) memcpy(alpha, b->alpha, b->nvar * sizeof(double));
    if (!G) return GPUSVM_OK;
    memcpy(G, b->G, b->nvar * sizeof(double));
    for (t = 0; t < b->nprob; off += b->job[t++].n)
        if (b->job[t].split && (r = gpusvm__cpu_gather_G(b, &b->job[t], G + off)) != GPUSVM_OK) return r;
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_write_state(gpusvm__backend *bb, const double *alpha, const double *G,
                                             const double *st)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    if (alpha) memcpy(b->alpha, alpha, b->nvar * sizeof(double));
    if (G) memcpy(b->G, G, b->nvar * sizeof(double));
    if (st) memcpy(b->st, st, (size_t)b->nprob * GPUSVM__ST_COUNT * sizeof(double));
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_write_ws(gpusvm__backend *bb, const int *idx, const int *slot, int m)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int t, k;
    gpusvm__cpu_settle(b);
    for (t = 0; t < b->nprob; ++t) {
        gpusvm__cpu_job *j = &b->job[t];
        memcpy(j->ws_idx, idx, (size_t)m * sizeof(int));
        memcpy(j->ws_slot, slot, (size_t)m * sizeof(int));
        gpusvm__cpu_cache_reset(j, NULL, 0); /* then slot[k] holds idx[k]'s row */
        for (k = 0; k < m; ++k)
            if (slot[k] >= 0 && slot[k] < j->lines && (size_t)idx[k] < j->n) {
                j->line_var[slot[k]] = idx[k];
                j->var_line[idx[k]] = slot[k];
            }
    }
    return GPUSVM_OK;
}

#ifdef GPUSVM_TEST_HOOKS
static gpusvm_result gpusvm__cpu_read_rows(gpusvm__backend *bb, float *K)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    int t;
    gpusvm__cpu_settle(b);
    for (t = 0; t < b->job[0].q; ++t) gpusvm__cpu_need(b, &b->job[0], t, -1); /* lazy rows: all of them */
    memcpy(K, b->job[0].K, (size_t)b->job[0].q * b->job[0].npts * sizeof(float));
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_read_ws(gpusvm__backend *bb, int *idx, int *slot, double *coef, int m)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    if (idx) memcpy(idx, b->job[0].ws_idx, (size_t)m * sizeof(int));
    if (slot) memcpy(slot, b->job[0].ws_slot, (size_t)m * sizeof(int));
    if (coef) memcpy(coef, b->job[0].coef, (size_t)m * sizeof(double));
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__cpu_write_rows(gpusvm__backend *bb, const float *K)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    gpusvm__cpu_settle(b);
    memcpy(b->job[0].K, K, (size_t)b->job[0].q * b->job[0].npts * sizeof(float));
    memset(b->job[0].have, 1, (size_t)b->job[0].q); /* lazy rows: these are they */
    b->job[0].nhave = b->job[0].q;
    return GPUSVM_OK;
}


static gpusvm_result gpusvm__cpu_poison(gpusvm__backend *bb)
{
    gpusvm__cpu *b = (gpusvm__cpu *)bb;
    memset(b->K, 0xFF, b->krows * sizeof(float));
    memset(b->coef, 0xFF, (size_t)b->nprob * b->qmax * sizeof(double));
    memset(b->key_up, 0x5A, b->nvar * sizeof(uint32_t));
    memset(b->key_low, 0x5A, b->nvar * sizeof(uint32_t));
    return GPUSVM_OK;
}
#endif /* GPUSVM_TEST_HOOKS */

/* >>cpu/decision: prediction: decision values on the host --------------------------------------- */

/* The decision functions' nonzero coefficients, row by row (a one-vs-one pair's are its two
   classes' support vectors: 2 of 26 classes' for letter, whose 5,000 test points took 15.5 s on
   the 2-core VM summed over every support vector, 2.7 s in LIBSVM's svm-predict): row t's are
   val[at[t]..at[t + 1]), at the support vectors col[], in j order. */
typedef struct gpusvm__coefs {
    size_t *at, *col;
    double *val;
} gpusvm__coefs;

static void gpusvm__coefs_free(const gpusvm_allocator *a, gpusvm__coefs *c)
{
    gpusvm__free(a, c->at);
    gpusvm__free(a, c->col);
    gpusvm__free(a, c->val);
    memset(c, 0, sizeof *c);
}

/* c from the nv x ns matrix coef (zeros left out, as the sums skip them); 0: out of memory. */
static int gpusvm__coefs_make(const gpusvm_allocator *a, const double *coef, int nv, size_t ns, gpusvm__coefs *c)
{
    size_t j, n = 0, all = (size_t)nv * ns;
    int t;
    for (j = 0; j < all; ++j) n += coef[j] != 0.0;
    c->at = (size_t *)gpusvm__alloc(a, (size_t)nv + 1, sizeof(size_t));
    c->col = (size_t *)gpusvm__alloc(a, n, sizeof(size_t));
    c->val = (double *)gpusvm__alloc(a, n, sizeof(double));
    if (!c->at || !c->col || !c->val) {
        gpusvm__coefs_free(a, c);
        return 0;
    }
    for (t = 0, n = 0; t < nv; ++t) {
        c->at[t] = n;
        for (j = 0; j < ns; ++j)
            if (coef[(size_t)t * ns + j] != 0.0) {
                c->col[n] = j;
                c->val[n++] = coef[(size_t)t * ns + j];
            }
    }
    c->at[nv] = n;
    return 1;
}

/* One point's decision values from its kernel values: out[t * stride] = sum_j coef[t][j] krow[j]
   over the nonzero coefficients, in double, in j order. */
static void gpusvm__krow_sums(const gpusvm__coefs *c, int nv, const float *krow, double *out, size_t stride)
{
    size_t e;
    int t;
    for (t = 0; t < nv; ++t) {
        double sum = 0.0;
        for (e = c->at[t]; e < c->at[t + 1]; ++e) sum += c->val[e] * (double)krow[c->col[e]];
        out[(size_t)t * stride] = sum;
    }
}

/* gpusvm__host_decision's batches of 8 points or more: part t of `parts` takes its share of the
   blocks of 8 points, their values interleaved in W (as gpusvm__cpu_rows_wide's rows), so that each
   support vector's nonzeros are read once for 8 points; every dot product is still summed over
   the support vector's nonzeros in order (gpusvm__dots_dense's values), whatever the part. */
typedef struct gpusvm__dec_job {
    const gpusvm__csr *sv, *x;
    const float *norms;
    const gpusvm__coefs *coef;
    int nv, ktype, degree, parts;
    float gamma, coef0;
    size_t d, stride; /* a part's scratch (floats): 8 d of interleaved points, then 8 ns kernel values */
    float *scratch;
    double *out;
} gpusvm__dec_job;

static void gpusvm__dec_part(void *arg, int t)
{
    const gpusvm__dec_job *w = (const gpusvm__dec_job *)arg;
    const gpusvm__csr *sv = w->sv, *x = w->x;
    const size_t ns = sv->rows, nx = x->rows, blocks = (nx + GPUSVM__CPU_WIDE - 1) / GPUSVM__CPU_WIDE;
    const size_t b1 = blocks * (size_t)(t + 1) / (size_t)w->parts;
    float *W = w->scratch + (size_t)t * w->stride, *krow = W + GPUSVM__CPU_WIDE * w->d;
    size_t b, j;
    int r;
    for (b = blocks * (size_t)t / (size_t)w->parts; b < b1; ++b) {
        const size_t i0 = b * GPUSVM__CPU_WIDE;
        const int nr = nx - i0 < GPUSVM__CPU_WIDE ? (int)(nx - i0) : GPUSVM__CPU_WIDE;
        float nxr[GPUSVM__CPU_WIDE], s[GPUSVM__CPU_WIDE];
        for (r = 0; r < nr; ++r) {
            gpusvm__norms(x, i0 + (size_t)r, 1, &nxr[r]);
            gpusvm__wide_put(W, w->d, x, i0 + (size_t)r, r, 0);
        }
        for (j = 0; j < ns; ++j) {
            gpusvm__wide_dots(W, sv, j, s);
            for (r = 0; r < nr; ++r)
                krow[(size_t)r * ns + j] = gpusvm__kfun(w->ktype, s[r], w->norms[j], nxr[r], w->gamma, w->coef0, w->degree);
        }
        for (r = 0; r < nr; ++r) gpusvm__krow_sums(w->coef, w->nv, krow + (size_t)r * ns, w->out + i0 + (size_t)r, nx);
        for (r = 0; r < nr; ++r) gpusvm__wide_put(W, w->d, x, i0 + (size_t)r, r, 1);
    }
}

/* Batches of 8 points or more with at most GPUSVM__CPU_WIDE_D features: gpusvm__dec_part on the
   context's threads (one below about a million multiply-adds). *done 0: not taken. */
static gpusvm_result gpusvm__host_decision_wide(gpusvm_context *ctx, const gpusvm__csr *sv, const float *norms,
                                                const gpusvm__coefs *coef, int nv, const gpusvm__csr *x, int ktype,
                                                float gamma, float coef0, int degree, double *out, int *done)
{
    gpusvm__dec_job w;
    size_t bytes, blocks = (x->rows + GPUSVM__CPU_WIDE - 1) / GPUSVM__CPU_WIDE;
    const size_t d = sv->cols > x->cols ? sv->cols : x->cols;
    *done = 0;
    if (x->rows < GPUSVM__CPU_WIDE || d > GPUSVM__CPU_WIDE_D) return GPUSVM_OK;
    w.sv = sv;
    w.x = x;
    w.norms = norms;
    w.coef = coef;
    w.nv = nv;
    w.ktype = ktype;
    w.degree = degree;
    w.gamma = gamma;
    w.coef0 = coef0;
    w.d = d ? d : 1;
    w.out = out;
    w.parts = (double)x->rows * (double)sv->row_ptr[sv->rows] < 1048576.0 ? 1 : (ctx->threads > 1 ? ctx->threads : 1);
    if ((size_t)w.parts > blocks) w.parts = (int)blocks;
    if (!gpusvm__mul(sv->rows + w.d, GPUSVM__CPU_WIDE, &w.stride) || !gpusvm__mul(w.stride, (size_t)w.parts, &bytes))
        return gpusvm__oom(ctx, "decision values");
    w.scratch = (float *)gpusvm__calloc(&ctx->alloc, bytes, sizeof(float));
    if (!w.scratch) return gpusvm__oom(ctx, "decision values");
    gpusvm__parallel(w.parts, gpusvm__dec_part, &w);
    gpusvm__free(&ctx->alloc, w.scratch);
    *done = 1;
    return GPUSVM_OK;
}

/* Decision values on the host, in the kernels' operation order (the C backend's, and the small
   batches' of every backend: see gpusvm__predict). */
static gpusvm_result gpusvm__host_decision(gpusvm_context *ctx, const gpusvm__csr *sv, const float *sv_norms,
                                           const double *coef, int nv, const gpusvm__csr *x, int ktype, float gamma,
                                           float coef0, int degree, double *out)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t ns = sv->rows, nx_rows = x->rows;
    size_t d = sv->cols > x->cols ? sv->cols : x->cols, i, j;
    float *nsv = (float *)gpusvm__alloc(a, sv_norms ? 1 : ns, sizeof(float)), *dense = NULL, *krow = NULL;
    float nx;
    gpusvm__coefs c;
    gpusvm_result r;
    int wide = 0;
    memset(&c, 0, sizeof c);
    if (!nsv || !gpusvm__coefs_make(a, coef, nv, ns, &c)) {
        gpusvm__free(a, nsv);
        return gpusvm__oom(ctx, "decision values");
    }
    if (!sv_norms) gpusvm__norms(sv, 0, ns, nsv);
    r = gpusvm__host_decision_wide(ctx, sv, sv_norms ? sv_norms : nsv, &c, nv, x, ktype, gamma, coef0, degree, out,
                                   &wide);
    if (r == GPUSVM_OK && !wide) { /* one point at a time: its own scratch */
        dense = d <= GPUSVM__DENSE_MAX ? (float *)gpusvm__calloc(a, d ? d : 1, sizeof(float)) : NULL;
        krow = (float *)gpusvm__alloc(a, ns, sizeof(float));
        if ((!dense && d <= GPUSVM__DENSE_MAX) || !krow) r = gpusvm__oom(ctx, "decision values");
    }
    for (i = 0; i < nx_rows && r == GPUSVM_OK && !wide; ++i) {
        const float *norms = sv_norms ? sv_norms : nsv;
        gpusvm__norms(x, i, 1, &nx);
        if (dense) gpusvm__densify(x, i, dense, d, 0);
        if (dense) gpusvm__dots_dense(sv, NULL, 0, ns, dense, krow);
        for (j = 0; j < ns; ++j) {
            const float dot = dense ? krow[j] : gpusvm__dot_sparse(x, i, sv, j);
            krow[j] = gpusvm__kfun(ktype, dot, norms[j], nx, gamma, coef0, degree);
        }
        if (dense) gpusvm__densify(x, i, dense, d, 1);
        gpusvm__krow_sums(&c, nv, krow, out + i, nx_rows);
    }
    gpusvm__coefs_free(a, &c);
    gpusvm__free(a, dense);
    gpusvm__free(a, nsv);
    gpusvm__free(a, krow);
    return r;
}

static gpusvm_result gpusvm__cpu_decision(gpusvm__backend *bb, const gpusvm__csr *sv, const double *coef, int nv,
                                          const gpusvm__csr *x, int ktype, float gamma, float coef0, int degree,
                                          double *out)
{
    return gpusvm__host_decision(bb->ctx, sv, NULL, coef, nv, x, ktype, gamma, coef0, degree, out);
}

/* >>cpu/create: the tables and the backend ------------------------------------------------------ */

static size_t gpusvm__cpu_train_bytes(gpusvm__backend *bb, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan)
{
    (void)bb;
    (void)p;
    (void)nprob;
    (void)plan;
    return 0;
}
static size_t gpusvm__cpu_mem_left(gpusvm__backend *bb)
{
    (void)bb;
    return (size_t)-1;
}

static void gpusvm__cpu_destroy(gpusvm__backend *bb)
{
    gpusvm__cpu_train_end(bb);
    gpusvm__free(&bb->ctx->alloc, bb);
}

#ifndef GPUSVM_PREDICT_ONLY
static const gpusvm__train_steps gpusvm__cpu_train_steps = {
    gpusvm__cpu_train_bytes, gpusvm__cpu_mem_left, gpusvm__cpu_train_begin, gpusvm__cpu_select,
    gpusvm__cpu_rows, gpusvm__cpu_smo, gpusvm__cpu_update, NULL /* flush: nothing is queued */,
    gpusvm__cpu_read_status, gpusvm__cpu_read_state, gpusvm__cpu_train_end, gpusvm__cpu_write_state,
    gpusvm__cpu_write_ws};
static const gpusvm__cs_steps gpusvm__cpu_cs_steps = {gpusvm__cpu_cs_begin, gpusvm__cpu_cs_step, gpusvm__cpu_cs_read};
#endif

static gpusvm__backend *gpusvm__cpu_create(gpusvm_context *ctx)
{
    gpusvm__cpu *b = (gpusvm__cpu *)gpusvm__calloc(&ctx->alloc, 1, sizeof(gpusvm__cpu));
    if (!b) return NULL;
    b->base.ctx = ctx;
    b->base.qcap = GPUSVM__Q;
    b->base.whole_most = 3 * GPUSVM__Q;
    b->base.max_alloc = (size_t)-1;
#ifndef GPUSVM_PREDICT_ONLY
    b->base.train = &gpusvm__cpu_train_steps;
    b->base.cs = &gpusvm__cpu_cs_steps;
#ifdef GPUSVM_TEST_HOOKS
    b->base.test.read_ws = gpusvm__cpu_read_ws;
    b->base.test.read_rows = gpusvm__cpu_read_rows;
    b->base.test.write_rows = gpusvm__cpu_write_rows;
    b->base.test.poison = gpusvm__cpu_poison;
#endif
#endif
    b->base.decision = gpusvm__cpu_decision;
    b->base.destroy = gpusvm__cpu_destroy;
    b->base.cache_budget = GPUSVM__CS_HOST_CACHE;
    b->base.cs_q = 64;
    b->base.cs_ratio = 0.1;
    b->base.status_cheap = 1;
    return &b->base;
}

/* >>opencl ----------------------------------------------------------------- */
/* The OpenCL backend: one device, one in-order queue, one program built on first use. The
   outer loop enqueues keys -> select -> rows -> smo -> update with no host round trip; the
   kernels turn into no-ops once the status vector says done, so the host reads the status
   back only every few outer iterations. */
#ifndef GPUSVM_NO_OPENCL

/* The kernel program's source, one line per string (the generated block, >>kernels, at the end). */
static const char *const *gpusvm__kernel_lines(gpusvm__cl_uint *count);

typedef struct gpusvm__ocl gpusvm__ocl;

/* The kernels of the program (GPUSVM__KN_ROWS, ...), each with its name, the work-group size
   it needs and its argument count, from the shared block's list. */
#define GPUSVM__KID(id, name, wg, args, part) GPUSVM__KN_##id,
enum { GPUSVM__KERNELS(GPUSVM__KID) GPUSVM__KN_COUNT };
#undef GPUSVM__KID

/* Every kernel's argument slots by name (GPUSVM__A_KEYS_G0, ...; GPUSVM__A_KEYS_N of them),
   from the lists its parameters are declared from. */
enum { GPUSVM__ARGS_ROWS(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_ROWS_N };
enum { GPUSVM__ARGS_ROWS_SPARSE(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_ROWS_SPARSE_N };
enum { GPUSVM__ARGS_ROW_CACHE(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_ROW_CACHE_N };
enum { GPUSVM__ARGS_GATHER_WS(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_GATHER_WS_N };
enum { GPUSVM__ARGS_SCATTER(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_SCATTER_N };
enum { GPUSVM__ARGS_FILL(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_FILL_N };
enum { GPUSVM__ARGS_KEYS(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_KEYS_N };
enum { GPUSVM__ARGS_SELECT(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_SELECT_N };
enum { GPUSVM__ARGS_SEL(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_SEL_N };
enum { GPUSVM__ARGS_GATHER(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_GATHER_N };
enum { GPUSVM__ARGS_SMO(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_SMO_N };
enum { GPUSVM__ARGS_UPDATE(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_UPDATE_N };
enum { GPUSVM__A_ROWS_UPD_0 = GPUSVM__A_ROWS_N - 1, /* gpusvm_rows_tiled's arguments come first */
       GPUSVM__ARGS_ROWS_UPD(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_ROWS_UPD_N };
enum { GPUSVM__ARGS_CANDS(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_CANDS_N };
enum { GPUSVM__ARGS_WS_PUT(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_WS_PUT_N };
enum { GPUSVM__ARGS_CS_RESP(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_CS_RESP_N };
enum { GPUSVM__ARGS_CS_UPDATE(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_CS_UPDATE_N };
enum { GPUSVM__ARGS_CS_SELECT(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_CS_SELECT_N };
enum { GPUSVM__ARGS_CS_SOLVE(GPUSVM__SLOT, GPUSVM__COMMA), GPUSVM__A_CS_SOLVE_N };

typedef struct gpusvm__kernel_info {
    const char *part; /* GPUSVM_K_<part> builds it, with the rest of its part (kernels part 0) */
    const char *name;
    size_t wg;      /* work-items per group it is launched with */
    unsigned nargs; /* parameters it declares */
} gpusvm__kernel_info;

#define GPUSVM__KINFO(id, name, wg, args, part) {#part, name, wg, GPUSVM__A_##args##_N},
static const gpusvm__kernel_info gpusvm__kernels[GPUSVM__KN_COUNT] = {GPUSVM__KERNELS(GPUSVM__KINFO)};
#undef GPUSVM__KINFO

/* A set of kernels: bit GPUSVM__KN_<id>. GPUSVM__KS_CORE: what every training of the one-vs-one
   kind launches, whatever its data, its rows kernel and its stop (gpusvm_select, or gpusvm_check
   when every problem is solved whole). */
typedef unsigned long gpusvm__kset;
#define GPUSVM__KBIT(id) ((gpusvm__kset)1 << GPUSVM__KN_##id)
#define GPUSVM__KS_ALL (((gpusvm__kset)1 << GPUSVM__KN_COUNT) - 1)
#define GPUSVM__KS_CORE                                                                                 \
    (GPUSVM__KBIT(GATHER_WS) | GPUSVM__KBIT(SCATTER) | GPUSVM__KBIT(FILL) | GPUSVM__KBIT(KEYS) |         \
     GPUSVM__KBIT(GATHER) | GPUSVM__KBIT(SMO) | GPUSVM__KBIT(UPDATE))

/* A kernel argument as the host set it (gpusvm__ocl_set), given to the kernel when it is built;
   GPUSVM__ARG_MAX slots a kernel (checked for every kernel's list below). */
#define GPUSVM__ARG_MAX 40
typedef struct gpusvm__ocl_arg {
    unsigned char v[8]; /* the value: a buffer's handle or a number */
    unsigned size;      /* its bytes; local memory's bytes where local is set (no value) */
    unsigned char set, local;
} gpusvm__ocl_arg;
#define GPUSVM__KFIT(id, name, wg, args, part) \
    typedef char gpusvm__kfit_##id[GPUSVM__A_##args##_N <= GPUSVM__ARG_MAX && GPUSVM__KN_COUNT <= 32 ? 1 : -1];
GPUSVM__KERNELS(GPUSVM__KFIT)
#undef GPUSVM__KFIT
#define GPUSVM__OPT_MAX 400 /* bytes of a kernel's build options */

/* The device buffers of a training batch (see the backend section and kernels part 0), in the
   order they are allocated; the text names each in messages. */
#define GPUSVM__TRAIN_BUFS(X_)                                                                                    \
    X_(X, "the training data (dense, column-major)") X_(X_PTR, "the training data's row offsets")               \
    X_(X_COL, "the training data's column indices") X_(X_VAL, "the training data's values")                     \
    X_(K, "the working sets' kernel rows")                                                                        \
    X_(KQ, "the working sets' q x q blocks") X_(XW, "the working sets' vectors") X_(NORM, "norms")               \
    X_(QD, "the kernel diagonal") X_(Y, "labels") X_(CV, "bounds") X_(ALPHA, "alpha") X_(G, "the gradient")      \
    X_(KEY_UP, "selection keys") X_(KEY_LOW, "selection keys") X_(PART_UP, "partials")                          \
    X_(PART_LOW, "partials") X_(WS_IDX, "the working sets") X_(WS_SLOT, "the working sets")                      \
    X_(COEF, "coefficients") X_(STATUS, "the status vector") X_(PINFO, "the problem table")                     \
    X_(MAP, "the problems' points") X_(SEL, "the selection's scratch") X_(LIST, "the selection's points")      \
    X_(RINFO, "the row cache's problem table") X_(ROW_IDX, "the row cache's list")                              \
    X_(ROW_SLOT, "the row cache's list") X_(CMAP, "the row cache's map") X_(CSTATE, "the row cache's slots")     \
    X_(XT, "a tile of streamed points") X_(S_IDX, "the streamed rows' points")                                   \
    X_(S_SLOT, "the streamed rows' slots") X_(S_COEF, "the streamed rows' coefficients")                         \
    X_(CANDS, "a split problem's report") X_(WS_G, "a split problem's working-set gradients")
#define GPUSVM__BID(id, what) GPUSVM__TB_##id,
enum { GPUSVM__TRAIN_BUFS(GPUSVM__BID) GPUSVM__TB_COUNT };
#undef GPUSVM__BID
#define GPUSVM__BWHAT(id, what) what,
static const char *const gpusvm__train_buf_what[GPUSVM__TB_COUNT] = {GPUSVM__TRAIN_BUFS(GPUSVM__BWHAT)};
#undef GPUSVM__BWHAT

#define GPUSVM__CS_NBUF 13 /* Crammer-Singer's buffers (GPUSVM__CS_BUFS, with the backend's steps) */

/* From this many variables in a problem the selection runs over the grid (kernels part 2's
   gpusvm_sel_*), below it in one work-group per problem. (H200, same models: from 32768 rather
   than 131072, deb-python's 47785 trained in 0.186 s instead of 0.197, w8a 0.078 instead of 0.087,
   ijcnn1 0.095 instead of 0.100.) */
#ifndef GPUSVM__SEL_GRID
#define GPUSVM__SEL_GRID 32768
#endif

/* The row cache (kernels part 1c) of a problem of at least twice its working set's variables:
   up to this many working sets' rows in all, and this many MB of rows unless params.cache_size_mb
   says otherwise. (H100, the same run: w8a 65% of the new rows found held, 0.093 -> 0.081 s;
   mnist 8-vs-rest 63%, 0.196 -> 0.185 s; a9a 34%; dense 200k 21% with 6.1 GiB; dense 1M 7% with
   20 GiB: far apart in time, its points seldom come back.) */
#ifndef GPUSVM__ROW_SLOTS
#define GPUSVM__ROW_SLOTS 8
#endif
#ifndef GPUSVM__ROW_CACHE_MB
#define GPUSVM__ROW_CACHE_MB 2048
#endif

/* How the reductions exchange values across a sub-group (warp): the kind the program is built
   with, tried best first at the build (gpusvm__ocl_exchanges), local-memory trees last. */
typedef struct gpusvm__exchange {
    int kind, width; /* GPUSVM__XC_*, the sub-group width (0: none) */
    int pinned;      /* the width fixed in the build (cl_intel_required_subgroup_size), else checked after it */
    int std;         /* the OpenCL C version to build with (12, 20, 30) */
} gpusvm__exchange;
struct gpusvm__ocl {
    gpusvm__backend base;
    gpusvm__cl_api *cl;
    gpusvm__cl_device dev;
    gpusvm__cl_platform platform;
    gpusvm__cl_context cctx;   /* NULL, and queue too, until the device is opened (gpusvm__ocl_open) */
    gpusvm__cl_queue queue;
    char name[256];            /* the device's (its platform's in brackets) */
    int has_fp64;              /* the device has cl_khr_fp64 (fp64: whether the kernels use it) */
    gpusvm__cl_program prog[GPUSVM__KN_COUNT]; /* each part's, at its first kernel (gpusvm__ocl_unit); NULL: none */
    gpusvm__cl_kernel kern[GPUSVM__KN_COUNT];
    gpusvm__ocl_arg args[GPUSVM__KN_COUNT][GPUSVM__ARG_MAX];
    char options[GPUSVM__OPT_MAX - 40]; /* the kernels' shared build options ("": none built yet) */
    int one_program; /* every kernel in one program, prog[0]: PoCL compiles a kernel at its first launch,
                        Oclgrind interprets; either reads the source once */
    int own_cache;   /* the driver keeps a program cache of its own (PoCL) */
    int cpu;         /* the device is a CPU (CL_DEVICE_TYPE_CPU) */
    long launches[GPUSVM__KN_COUNT]; /* each kernel's launches, said when the backend closes (DEBUG) */
    int qcap;            /* GPUSVM__Q the program was built with */
    int fp64;            /* 1: the kernels' wide numbers are double; 0: float pairs (GPUSVM_NO_FP64) */
    gpusvm__exchange xc;       /* the reductions' sub-group exchanges the program was built with */
    size_t smo_l;        /* GPUSVM__SMO_L: gpusvm_smo's local size (gpusvm__ocl_build) */
    size_t max_alloc, global_mem, local_mem, max_wg, cus; /* cus: compute units */
    size_t mem_budget, mem_used; /* bytes gpusvm may hold on the device, and holds now */
    int poll;            /* a lane (gpusvm__ocl_lane): a read or write waits by polling its event, not blocking
                            (one H200: four threads' blocking reads on queues of one context took four times
                            one's time, NVIDIA's driver running one at a time; polled, the same time) */
    /* training state: one batch */
    /* GPUSVM__TB_XW is NULL when the rows read X directly; X is NULL and X_PTR, X_COL, X_VAL hold
       the points when they are kept sparse */
    gpusvm__cl_mem mem[GPUSVM__TB_COUNT];
    int sparse;                /* the batch's points are kept sparse (gpusvm__ocl_sparse) */
    int sh_log;                /* gpusvm_rows_sparse's table: 2^sh_log slots, as its local memory allows */
    int nar_r;                 /* gpusvm_rows_narrow's rows per work-group (GPUSVM__NARROW_ROWS), as local memory allows */
    int narrow;                /* the bound dense rows take gpusvm_rows_narrow past GPUSVM__FEW rows */
    int no_narrow;             /* the kernel tests: the tiles wherever gpusvm_rows_narrow would run */
    int cslots;                /* the row cache's slots (kernels part 1c; gpusvm__ocl_cache_plan), 0: none */
    int no_cache;              /* the kernel tests: no row cache where one would be kept */
    unsigned rc_reused, rc_computed; /* the last batch's rows found in the cache and computed */
    /* Data larger than the device (gpusvm__ocl_stream_*): the points stay in host memory in tiles
       of `tile` points, X and XT hold two of them; every round computes its q x q block from the
       working set's vectors and its update a tile at a time (gpusvm_rows_update: no rows kept).
       share_rows: a split problem's share that stays on the device with its rows in K (ldk =
       tile; gpusvm__ocl_split_rows). */
    int stream, share_rows;
    size_t tile, ntiles;
    size_t held[2];      /* the tile X and XT hold (SIZE_MAX: none) */
    float *host_tiles;   /* tile t: the problem's points [t tile, (t + 1) tile), column-major, pitch tile */
    gpusvm__cl_mem pin;  /* the page-locked buffer host_tiles maps, where the driver gave one */
    gpusvm__cl_queue copyq;      /* the tiles' copies, beside the kernels on b->queue */
    gpusvm__cl_event copied[2];  /* the last copy into X / XT (NULL once the kernels wait for it) */
    gpusvm__cl_event used[2];    /* the last rows launch that read X / XT */
    float *host_xw;      /* the working set's vectors as gpusvm_gather_ws writes them (q x dpad), then the
                            gather's room (a row a vector, gpusvm__ocl_stream_vector) */
    gpusvm__problem sp;  /* the problem (host_xw's vectors come from its points' rows) */
    int32_t *host_ws;    /* the working set's variables (q), then the update's rows' (q) */
    double *host_coef;   /* the round's coefficients (q), then the update's rows' (q) */
    size_t *host_rows;   /* the working set's points' rows in the problem's points (q; gpusvm__ocl_stream_gather) */
    /* A problem split by rows (gpusvm__ocl_split_*; base.parts): streamed as above over this
       share's points [plo, phi) only (tiles t: [plo + t tile, ...)); rep this share's report
       (GPUSVM__CO_WORDS(q) words), reps every part's (desc.split: gathered here), merge the
       merge's scratch (gpusvm__split_in), ws_new the merged working set's variables, slots and
       gradients (gws). */
    int split, split_mode, split_parts; /* split_mode: the round's gpusvm_cands mode; split_parts: the plan's parts then */
    int part;                           /* this backend's part of the split (the plan's) */
    double split_st[GPUSVM__ST_COUNT];  /* the merged status row */
    size_t plo, phi;
    uint64_t *rep, *reps, *merge;
    int32_t *ws_new;
    double *gws;
    int nprob, q;              /* problems; working-set stride (the largest working set) */
    size_t nvar, npts, d, dpad, pitch; /* variables, shared points, features, padded; point pitch */
    size_t ldk, nparts_max;    /* kernel-row pitch; the most keys work-groups of one problem */
    size_t ngroups_max;        /* the most gpusvm_update work-groups (one variable per work-item) */
    size_t npts0, q0;          /* problem 0's points and working set (read_rows, write_rows) */
    int ktype, degree;
    float coef0; /* gamma: each problem's own, in the problem table */
    int sel_grid; /* the selection runs over the grid (a problem of GPUSVM__SEL_GRID variables or more) */
    int whole;    /* every problem's working set is all its variables: gpusvm_check, not gpusvm_select */
    int nu;       /* the batch's problems are nu's (selection and stop per class) */
    /* Crammer-Singer (cs.begin): its buffers, working-set size, classes, row cache, update groups */
    gpusvm__cl_mem cs_mem[GPUSVM__CS_NBUF];
    int cs_q, cs_m, cs_cache;  /* cs_m: the most classes of a problem */
    size_t cs_parts, cs_coef;  /* the most gpusvm_cs_update groups of a problem; coefficients of all */
    size_t cs_resp;            /* the most gpusvm_cs_resp items of a problem, rounded up to groups */
};

/* >>opencl/buffers: buffers, transfers, launches ------------------------------------------------ */

static size_t gpusvm__round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

/* gpusvm_keys' work-groups (its partials) over nvar variables */
static size_t gpusvm__keys_parts(size_t nvar)
{
    return gpusvm__round_up(nvar ? nvar : 1, (size_t)GPUSVM__L * GPUSVM__KEYS_WI) / ((size_t)GPUSVM__L * GPUSVM__KEYS_WI);
}

static void gpusvm__release_mem(gpusvm__ocl *b, gpusvm__cl_mem *m)
{
    size_t bytes = 0;
    int k, a;
    if (*m) { /* no kernel built later is given the released handle */
        for (k = 0; k < GPUSVM__KN_COUNT; ++k)
            for (a = 0; a < GPUSVM__ARG_MAX; ++a)
                if (b->args[k][a].set && !b->args[k][a].local && b->args[k][a].size == sizeof *m &&
                    memcmp(b->args[k][a].v, m, sizeof *m) == 0)
                    memset(b->args[k][a].v, 0, sizeof *m);
        if (b->cl->clGetMemObjectInfo(*m, GPUSVM__CL_MEM_SIZE, sizeof bytes, &bytes, NULL) == 0 && bytes <= b->mem_used)
            b->mem_used -= bytes;
        b->cl->clReleaseMemObject(*m);
    }
    *m = NULL;
}

/* Releases count buffers, last first. */
static void gpusvm__release_mems(gpusvm__ocl *b, gpusvm__cl_mem *m, int count)
{
    while (count-- > 0) gpusvm__release_mem(b, &m[count]);
}

/* The row cache's counts of the batch that ends, kept for the kernel tests and said in the log. */
static void gpusvm__ocl_cache_end(gpusvm__ocl *b)
{
    int32_t head[GPUSVM__RC_HEAD];
    double all;
    if (!b->cslots || !b->mem[GPUSVM__TB_CSTATE] ||
        b->cl->clEnqueueReadBuffer(b->queue, b->mem[GPUSVM__TB_CSTATE], GPUSVM__CL_TRUE, 0, sizeof head, head, 0, NULL,
                                   NULL) != 0)
        return;
    b->rc_reused = (unsigned)head[GPUSVM__RC_REUSED];
    b->rc_computed = (unsigned)head[GPUSVM__RC_COMPUTED];
    all = (double)b->rc_reused + (double)b->rc_computed;
    gpusvm__log(b->base.ctx, b->base.ctx->profile ? GPUSVM_LOG_INFO : GPUSVM_LOG_DEBUG,
                "row cache: %d slots (%.1f MiB); %u rows computed, %u found held (%.1f%% of the working sets' new rows)",
                b->cslots, (double)b->cslots * (double)b->ldk * 4.0 / 1048576.0, b->rc_computed, b->rc_reused,
                all > 0.0 ? 100.0 * (double)b->rc_reused / all : 0.0);
}

static void gpusvm__ocl_event_drop(gpusvm__ocl *b, gpusvm__cl_event *ev)
{
    if (*ev) b->cl->clReleaseEvent(*ev);
    *ev = NULL;
}

/* The copy queue drained and released, with the tiles' events. */
static void gpusvm__ocl_stream_end(gpusvm__ocl *b)
{
    int h;
    if (b->copyq) {
        b->cl->clFinish(b->copyq);
        b->cl->clReleaseCommandQueue(b->copyq);
        b->copyq = NULL;
    }
    for (h = 0; h < 2; ++h) {
        gpusvm__ocl_event_drop(b, &b->copied[h]);
        gpusvm__ocl_event_drop(b, &b->used[h]);
    }
}

static void gpusvm__ocl_train_end(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    const gpusvm_allocator *a = &bb->ctx->alloc;
    gpusvm__ocl_cache_end(b);
    b->cslots = 0;
    b->stream = b->share_rows = 0;
    gpusvm__ocl_stream_end(b);
    if (b->pin) {
        b->cl->clEnqueueUnmapMemObject(b->queue, b->pin, b->host_tiles, 0, NULL, NULL);
        b->cl->clFinish(b->queue);
        b->cl->clReleaseMemObject(b->pin);
        b->pin = NULL;
    } else {
        gpusvm__free(a, b->host_tiles);
    }
    gpusvm__free(a, b->host_xw);
    gpusvm__free(a, b->host_ws);
    gpusvm__free(a, b->host_coef);
    gpusvm__free(a, b->host_rows);
    gpusvm__free(a, b->rep);
    gpusvm__free(a, b->ws_new);
    b->host_tiles = b->host_xw = NULL;
    b->host_ws = b->ws_new = NULL;
    b->host_coef = b->gws = NULL;
    b->host_rows = NULL;
    b->rep = b->reps = b->merge = NULL;
    b->split = 0;
    gpusvm__release_mems(b, b->cs_mem, GPUSVM__CS_NBUF);
    gpusvm__release_mems(b, b->mem, GPUSVM__TB_COUNT);
}

static gpusvm_result gpusvm__ocl_buffer(gpusvm__ocl *b, gpusvm__cl_mem *out, size_t bytes, const char *what)
{
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int e = 0;
    if (bytes == 0) bytes = 16;
    if (bytes > b->max_alloc)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY,
                            "%s needs %.1f MiB in one buffer; the device allows %.1f MiB (lower -m / cache_size_mb, "
                            "use fewer points, or the cpu backend)",
                            what, (double)bytes / 1048576.0, (double)b->max_alloc / 1048576.0);
    if (bytes > b->mem_budget - b->mem_used)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY,
                            "%s needs %.1f MiB; %.1f MiB of the %.1f MiB device-memory budget are left (lower -m / "
                            "cache_size_mb, raise desc.device_memory_mb, use fewer points, or the cpu backend)",
                            what, (double)bytes / 1048576.0, (double)(b->mem_budget - b->mem_used) / 1048576.0,
                            (double)b->mem_budget / 1048576.0);
    *out = b->cl->clCreateBuffer(b->cctx, GPUSVM__CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (e != 0 || !*out) {
        if (*out) b->cl->clReleaseMemObject(*out);
        r = gpusvm__cl_fail(b->base.ctx, e ? e : -4, "clCreateBuffer", __LINE__);
        *out = NULL;
    } else {
        b->mem_used += bytes;
    }
    return r;
}

/* Allocates m[i] for i in [from, to) with bytes[i] (0: leaves that buffer NULL). */
static gpusvm_result gpusvm__ocl_buffers(gpusvm__ocl *b, gpusvm__cl_mem *m, const size_t *bytes,
                                         const char *const *what, int from, int to)
{
    gpusvm_result r = GPUSVM_OK;
    int i;
    for (i = from; i < to && r == GPUSVM_OK; ++i)
        if (bytes[i]) r = gpusvm__ocl_buffer(b, &m[i], bytes[i], what[i]);
    return r;
}

/* A lane's wait for ev (b->poll): its status read, the core yielded between reads; ev released.
   On a failure the queue is drained first, so that the transfer is over when the caller frees its
   memory. */
static gpusvm_result gpusvm__ocl_poll(gpusvm__ocl *b, gpusvm__cl_event ev)
{
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int st = 1;
    GPUSVM__CL(b->base.ctx, b->cl->clFlush(b->queue));
    for (;;) {
        GPUSVM__CL(b->base.ctx,
                   b->cl->clGetEventInfo(ev, GPUSVM__CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
        if (st <= 0) break;
        gpusvm__yield();
    }
    if (st < 0) r = gpusvm__cl_fail(b->base.ctx, st, "a transfer the queue ran", __LINE__);
fail:
    if (r != GPUSVM_OK) b->cl->clFinish(b->queue); /* the caller's memory is not the queue's once this returns */
    b->cl->clReleaseEvent(ev);
    return r;
}

/* A blocking transfer (read: into dst, else from src), or on a lane a polled one. */
static gpusvm_result gpusvm__ocl_transfer(gpusvm__ocl *b, gpusvm__cl_mem m, size_t offset, size_t bytes, void *dst,
                                          const void *src)
{
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_event ev = NULL;
    const gpusvm__cl_uint block = b->poll ? GPUSVM__CL_FALSE : GPUSVM__CL_TRUE;
    gpusvm__cl_event *evp = b->poll ? &ev : NULL;
    if (dst) GPUSVM__CL(b->base.ctx, b->cl->clEnqueueReadBuffer(b->queue, m, block, offset, bytes, dst, 0, NULL, evp));
    else GPUSVM__CL(b->base.ctx, b->cl->clEnqueueWriteBuffer(b->queue, m, block, offset, bytes, src, 0, NULL, evp));
    if (ev) r = gpusvm__ocl_poll(b, ev);
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_write(gpusvm__ocl *b, gpusvm__cl_mem m, size_t offset, size_t bytes, const void *src)
{
    return gpusvm__ocl_transfer(b, m, offset, bytes, NULL, src);
}

/* Enqueued without waiting: src stays as it is until the queue has run the copy (a later blocking
   call, or a clFinish). */
static gpusvm_result gpusvm__ocl_write_nb(gpusvm__ocl *b, gpusvm__cl_mem m, size_t bytes, const void *src)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__CL(b->base.ctx, b->cl->clEnqueueWriteBuffer(b->queue, m, GPUSVM__CL_FALSE, 0, bytes, src, 0, NULL, NULL));
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_read(gpusvm__ocl *b, gpusvm__cl_mem m, size_t bytes, void *dst)
{
    return gpusvm__ocl_transfer(b, m, 0, bytes, dst, NULL);
}


/* Sets argument SLOT (GPUSVM__A_<KERNEL>_<name>, without the prefix) of kernel KID (without
   GPUSVM__KN_) to var; on failure r is set and control jumps to fail. */
#define GPUSVM__SET(kid, slot, var)                                                                                \
    do {                                                                                                           \
        if ((r = gpusvm__ocl_set(b, GPUSVM__KN_##kid, GPUSVM__A_##slot, sizeof(var), &(var))) != GPUSVM_OK) goto fail; \
    } while (0)
/* gpusvm_rows_tiled, gpusvm_rows_few and gpusvm_rows_narrow take the same arguments */
#define GPUSVM__SET_ROWS(name, var)                                                                                \
    do {                                                                                                           \
        GPUSVM__SET(ROWS, ROWS_##name, var);                                                                       \
        GPUSVM__SET(ROWS_FEW, ROWS_##name, var);                                                                   \
        GPUSVM__SET(ROWS_NARROW, ROWS_##name, var);                                                                \
    } while (0)
/* gpusvm_select and gpusvm_check take the same arguments */
#define GPUSVM__SET_SELECT(name, var)                                                                              \
    do {                                                                                                           \
        GPUSVM__SET(SELECT, SELECT_##name, var);                                                                   \
        GPUSVM__SET(CHECK, SELECT_##name, var);                                                                    \
    } while (0)
/* and gpusvm_rows_update takes them first: bound with them, its per-launch ones by the stream's update */
#define GPUSVM__SET_ROWS_ALL(name, var)                                                                            \
    do {                                                                                                           \
        GPUSVM__SET_ROWS(name, var);                                                                               \
        GPUSVM__SET(ROWS_UPD, ROWS_##name, var);                                                                   \
    } while (0)

static gpusvm_result gpusvm__ocl_need(gpusvm__ocl *b, gpusvm__kset set);

/* Sets argument slot of kernel k to size bytes at value (NULL: local memory of size bytes), now
   where the kernel is built, and kept for its build. */
static gpusvm_result gpusvm__ocl_set(gpusvm__ocl *b, int k, int slot, size_t size, const void *value)
{
    gpusvm__ocl_arg *a = &b->args[k][slot];
    gpusvm_result r = GPUSVM_OK;
    if (value && size > sizeof a->v)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_KERNEL_ARGS, "kernel %s: argument %d takes %u bytes",
                            gpusvm__kernels[k].name, slot, (unsigned)size);
    a->set = 1;
    a->local = value == NULL;
    a->size = (unsigned)size;
    if (value) memcpy(a->v, value, size);
    if (b->kern[k]) GPUSVM__CL(b->base.ctx, b->cl->clSetKernelArg(b->kern[k], (gpusvm__cl_uint)slot, size, value));
fail:
    return r;
}

/* Launches kernel kid (built first where it is not yet). */
static gpusvm_result gpusvm__ocl_launch(gpusvm__ocl *b, int kid, gpusvm__cl_uint dims, const size_t *global,
                                        const size_t *local)
{
    gpusvm_result r = GPUSVM_OK;
    if (!b->kern[kid] && (r = gpusvm__ocl_need(b, (gpusvm__kset)1 << kid)) != GPUSVM_OK) return r;
    GPUSVM__CL(b->base.ctx,
               b->cl->clEnqueueNDRangeKernel(b->queue, b->kern[kid], dims, NULL, global, local, 0, NULL, NULL));
    ++b->launches[kid];
fail:
    return r;
}

/* Each kernel's launches, said at DEBUG (which kernels a run reached: tests/oclgrind.sh's list). */
static void gpusvm__ocl_say_launches(gpusvm__ocl *b)
{
    char line[1536];
    size_t at = 0;
    int k;
    for (k = 0; k < GPUSVM__KN_COUNT && at < sizeof line; ++k)
        if (b->launches[k])
            at += (size_t)snprintf(line + at, sizeof line - at, " %s %ld", gpusvm__kernels[k].name, b->launches[k]);
    if (at) gpusvm__log(b->base.ctx, GPUSVM_LOG_DEBUG, "kernel launches:%s", line);
}

/* bytes [offset, offset + bytes) of m set to byte, by gpusvm_fill (every fill is of whole words:
   the buffers hold 4- and 8-byte values) */
static gpusvm_result gpusvm__ocl_fill_at(gpusvm__ocl *b, gpusvm__cl_mem m, size_t offset, size_t bytes,
                                         unsigned char byte)
{
    const gpusvm__cl_uint word = (gpusvm__cl_uint)byte * 0x01010101u;
    const gpusvm__cl_ulong off = (gpusvm__cl_ulong)(offset / 4), n = (gpusvm__cl_ulong)(bytes / 4);
    size_t g = gpusvm__round_up(n ? (size_t)n : 1, GPUSVM__COPY_L), l = GPUSVM__COPY_L;
    gpusvm_result r = GPUSVM_OK;
    if (offset % 4 || bytes % 4)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_UNSUPPORTED, "a fill of %lu bytes at %lu: not whole words",
                            (unsigned long)bytes, (unsigned long)offset);
    if (!n) return GPUSVM_OK;
    GPUSVM__SET(FILL, FILL_p, m);
    GPUSVM__SET(FILL, FILL_word, word);
    GPUSVM__SET(FILL, FILL_off, off);
    GPUSVM__SET(FILL, FILL_n, n);
    r = gpusvm__ocl_launch(b, GPUSVM__KN_FILL, 1, &g, &l);
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_fill(gpusvm__ocl *b, gpusvm__cl_mem m, size_t bytes, unsigned char byte)
{
    return gpusvm__ocl_fill_at(b, m, 0, bytes, byte);
}

/* >>opencl/build: the program: options, parts compiled on first use, the cache ------------------ */

/* The kernel cache: one file per (device, driver, build options, kernel source) in ctx->cache_dir,
   "KEY binary: SIZE HASH\n" then the driver's program binary. It is written to a temporary name
   and renamed into place; a file whose key or hash does not match, or that the driver rejects, is
   ignored (the program is compiled from source and the file rewritten). Only running out of host
   memory is an error; anything else at worst runs the compiler. */
static uint64_t gpusvm__fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *c = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

/* The cache entry's key text and path; 0 when there is no cache. */
static int gpusvm__kcache_key(gpusvm__ocl *b, const char *options, char *key, size_t key_size, char *path,
                              size_t path_size)
{
    gpusvm_context *ctx = b->base.ctx;
    char driver[128] = "", version[128] = "";
    uint64_t h = 14695981039346656037ULL;
    gpusvm__cl_ulong type = 0;
    gpusvm__cl_uint lines;
    const char *const *src;
    int i, n;
    if (!ctx->cache_dir[0]) return 0;
    /* a folder from the environment is not used for a driver with a program cache of its own
       (PoCL: handing out a binary makes it compile every kernel natively, 36.6 s for heart_scale's
       first run on the 2-core VM against 7.0 s without), the default one for no CPU device;
       desc.kernel_cache_dir is used as given */
    if (!ctx->cache_named && b->own_cache) return 0;
    if (ctx->cache_default && b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_TYPE, sizeof type, &type, NULL) == 0 &&
        (type & GPUSVM__CL_DEVICE_TYPE_CPU))
        return 0;
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    src = gpusvm__kernel_lines(&lines);
    for (i = 0; i < (int)lines; ++i) h = gpusvm__fnv1a(h, src[i], strlen(src[i]));
    n = snprintf(key, key_size, "gpusvm kernel cache 1\ndevice: %s\ndriver: %s\nversion: %s\noptions: %s\nsource: %016llx\n",
                 ctx->device_name, driver, version, options, (unsigned long long)h);
    if (n < 0 || (size_t)n >= key_size) return 0;
    h = gpusvm__fnv1a(14695981039346656037ULL, key, (size_t)n);
    n = snprintf(path, path_size, "%s/%016llx.bin", ctx->cache_dir, (unsigned long long)h);
    if (n > 0 && (size_t)n < path_size) return 1;
    path[0] = 0;
    return 0;
}

/* *out: the cached program, built for the device; NULL when there is none that works. 0, or 1 when
   out of host memory. */
static int gpusvm__kcache_load(gpusvm__ocl *b, const char *options, const char *key, const char *path,
                               gpusvm__cl_program *out)
{
    gpusvm_context *ctx = b->base.ctx;
    FILE *f = fopen(path, "rb");
    const size_t klen = strlen(key);
    char head[80];
    unsigned char *bin = NULL;
    unsigned long long size = 0, hash = 0;
    gpusvm__cl_program prog = NULL;
    gpusvm__cl_int st = 0, e = 0;
    int oom = 0;
    char *got;
    *out = NULL;
    if (!f) return 0;
    got = (char *)gpusvm__alloc(&ctx->alloc, klen + 1, 1);
    oom = !got;
    if (got && fread(got, 1, klen, f) == klen && memcmp(got, key, klen) == 0 && fgets(head, sizeof head, f) &&
        sscanf(head, "binary: %llu %llx", &size, &hash) == 2 && size > 0 && size < ((size_t)1 << 30)) {
        bin = (unsigned char *)gpusvm__alloc(&ctx->alloc, (size_t)size, 1);
        oom = !bin;
        if (bin && fread(bin, 1, (size_t)size, f) == (size_t)size && fgetc(f) == EOF &&
            gpusvm__fnv1a(14695981039346656037ULL, bin, (size_t)size) == (uint64_t)hash) {
            const size_t len = (size_t)size;
            const unsigned char *bp = bin;
            prog = b->cl->clCreateProgramWithBinary(b->cctx, 1, &b->dev, &len, &bp, &st, &e);
            if (prog && (e != 0 || st != 0 || b->cl->clBuildProgram(prog, 1, &b->dev, options, NULL, NULL) != 0)) {
                b->cl->clReleaseProgram(prog);
                prog = NULL;
            }
        }
    }
    fclose(f);
    gpusvm__free(&ctx->alloc, got);
    gpusvm__free(&ctx->alloc, bin);
    *out = prog;
    return oom;
}

/* mkdir -p of path's folder part up to and including dir (0700 for what it makes). */
static int gpusvm__mkdirs(char *dir)
{
    char *c;
    for (c = dir + 1;; ++c) {
        const char keep = *c;
        if (keep != '/' && keep != 0) continue;
        *c = 0;
#ifdef GPUSVM__WINDOWS
        CreateDirectoryA(dir, NULL);
#else
        mkdir(dir, 0700);
#endif
        *c = keep;
        if (!keep) break;
    }
#ifdef GPUSVM__WINDOWS
    return (GetFileAttributesA(dir) & FILE_ATTRIBUTE_DIRECTORY) != 0;
#else
    {
        struct stat sb;
        return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
    }
#endif
}

/* 0, or 1 when out of host memory */
static int gpusvm__kcache_save(gpusvm__ocl *b, gpusvm__cl_program prog, const char *key, const char *path)
{
    gpusvm_context *ctx = b->base.ctx;
    size_t size = 0;
    unsigned char *bin = NULL;
    char tmp[1200];
    FILE *f = NULL;
    int ok = 0, n;
    if (b->cl->clGetProgramInfo(prog, GPUSVM__CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != 0 || size == 0)
        return 0;
    bin = (unsigned char *)gpusvm__alloc(&ctx->alloc, size, 1);
    if (!bin) return 1;
    if (b->cl->clGetProgramInfo(prog, GPUSVM__CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != 0) goto done;
    snprintf(tmp, sizeof tmp, "%s", ctx->cache_dir);
    if (!gpusvm__mkdirs(tmp)) goto done;
#ifdef GPUSVM__WINDOWS
    n = snprintf(tmp, sizeof tmp, "%s.%lu.tmp", path, (unsigned long)GetCurrentProcessId());
#else
    n = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
#endif
    if (n < 0 || (size_t)n >= sizeof tmp || !(f = fopen(tmp, "wb"))) goto done;
    ok = fputs(key, f) >= 0 &&
         fprintf(f, "binary: %llu %016llx\n", (unsigned long long)size,
                 (unsigned long long)gpusvm__fnv1a(14695981039346656037ULL, bin, size)) > 0 &&
         fwrite(bin, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
#ifdef GPUSVM__WINDOWS
    ok = ok && MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING);
#else
    ok = ok && rename(tmp, path) == 0;
#endif
    if (!ok) remove(tmp);
done:
    gpusvm__free(&ctx->alloc, bin);
    return 0;
}

/* Releases the kernels of set and their programs. */
static void gpusvm__ocl_release_kernels(gpusvm__ocl *b, gpusvm__kset set)
{
    int i;
    for (i = GPUSVM__KN_COUNT - 1; i >= 0; --i) {
        if (!(set >> i & 1)) continue;
        if (b->kern[i]) b->cl->clReleaseKernel(b->kern[i]);
        if (b->prog[i]) b->cl->clReleaseProgram(b->prog[i]);
        b->kern[i] = NULL;
        b->prog[i] = NULL;
    }
}

/* How the kernels' reductions exchange registers within a sub-group (kernels part 0), in the
   order a build tries them (the first that builds is kept): NVIDIA's PTX, with redux.sync from
   compute capability 8.0; the shuffles of cl_khr_subgroup_shuffle (OpenCL C 2.0 and later) and
   of cl_intel_subgroups (its width fixed through cl_intel_required_subgroup_size) where the
   device reports them and its sub-group width is known (32 on NVIDIA, the wavefront on AMD, the
   widest Intel's lists up to 32); local-memory trees everywhere. */
static const char *gpusvm__exchange_name(int kind)
{
    switch (kind) {
    case GPUSVM__XC_NV_REDUX: return "PTX shfl.sync and redux.sync";
    case GPUSVM__XC_NV: return "PTX shfl.sync";
    case GPUSVM__XC_KHR: return "cl_khr_subgroup_shuffle";
    case GPUSVM__XC_INTEL: return "cl_intel_subgroups";
    default: return "local-memory trees";
    }
}
#define GPUSVM__CL_DEVICE_OPENCL_C_VERSION 0x103D
#define GPUSVM__CL_DEVICE_WAVEFRONT_WIDTH_AMD 0x4043   /* cl_amd_device_attribute_query */
#define GPUSVM__CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108 /* cl_intel_required_subgroup_size */

/* The sub-group width the kernels that exchange can be built for (cl_intel_subgroups and
   cl_intel_required_subgroup_size): 32 where the device lists it, else its widest (0: none of 16 or
   more, or the width cannot be fixed). */
static int gpusvm__ocl_intel_width(const gpusvm__ocl *b, const char *ext)
{
    size_t sizes[16] = {0}, got = 0, i;
    int w = 0;
    if (!strstr(ext, "cl_intel_subgroups") || !strstr(ext, "cl_intel_required_subgroup_size")) return 0;
    if (b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &got) != 0) return 0;
    for (i = 0; i < got / sizeof(size_t) && i < 16; ++i)
        if (sizes[i] <= 32 && (int)sizes[i] > w) w = (int)sizes[i];
    return w >= 16 ? w : 0;
}

/* The exchanges to try (gpusvm__exchange), best first, into xc[0..4]; their count (the trees last).
   ctx->subgroups (GPUSVM_SUBGROUPS) keeps one kind, for testing a path on a device that has several. */
static int gpusvm__ocl_exchanges(const gpusvm__ocl *b, gpusvm__exchange *xc)
{
    char vendor[128] = "", cver[128] = "", dver[128] = "", ext[8192] = "";
    gpusvm__cl_uint major = 0, wave = 0;
    const int force = b->base.ctx->subgroups;
    int n = 0, nv, w, pinned, std = 12, i, k = 0;
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_OPENCL_C_VERSION, sizeof cver - 1, cver, NULL);
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_VERSION, sizeof dver - 1, dver, NULL);
    if (b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL) != 0) ext[0] = 0;
    if (strncmp(cver, "OpenCL C ", 9) == 0 && cver[9] >= '2' && cver[9] <= '9' && cver[10] == '.')
        std = (cver[9] - '0') * 10 + (cver[11] >= '0' && cver[11] <= '9' ? cver[11] - '0' : 0);
    /* an OpenCL 3.0 device names the 1.2 compiler in CL_DEVICE_OPENCL_C_VERSION and takes 3.0 where asked
       (NVIDIA's): tried, and a failed build takes the next kind */
    if (strncmp(dver, "OpenCL ", 7) == 0 && dver[7] >= '3' && dver[7] <= '9') std = 30;
    nv = gpusvm__icontains(vendor, "NVIDIA");
    if (nv) { /* a vendor's query only where the device lists its extension (else CL_INVALID_VALUE) */
        if (strstr(ext, "cl_nv_device_attribute_query") &&
            b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL) == 0 &&
            major >= 8) {
            xc[n].kind = GPUSVM__XC_NV_REDUX;
            xc[n].pinned = 1;
            xc[n++].width = 32;
        }
        xc[n].kind = GPUSVM__XC_NV;
        xc[n].pinned = 1;
        xc[n++].width = 32;
    }
    /* the width: fixed where cl_intel_required_subgroup_size lets the build fix it, else NVIDIA's
       warps, AMD's wavefront, or 32, each checked once built (gpusvm__ocl_sg_width_ok) */
    pinned = gpusvm__ocl_intel_width(b, ext);
    w = 32;
    if (pinned) w = pinned;
    else if (!nv && strstr(ext, "cl_amd_device_attribute_query") &&
             b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_WAVEFRONT_WIDTH_AMD, sizeof wave, &wave, NULL) == 0 && wave)
        w = (int)wave;
    if (strstr(ext, "cl_khr_subgroup_shuffle") && std >= 20 && w >= 16 && w <= 64) {
        xc[n].kind = GPUSVM__XC_KHR;
        xc[n].pinned = pinned != 0;
        xc[n++].width = w;
    }
    if (pinned) {
        xc[n].kind = GPUSVM__XC_INTEL;
        xc[n].pinned = 1;
        xc[n++].width = pinned;
    }
    xc[n].kind = GPUSVM__XC_NONE;
    xc[n].pinned = 0;
    xc[n++].width = 0;
    for (i = 0; i < n; ++i) { /* the forced kind (ptx: either PTX level) and the trees */
        const int keep = force < 0 || xc[i].kind == GPUSVM__XC_NONE || xc[i].kind == force ||
                         (force == GPUSVM__XC_NV && xc[i].kind == GPUSVM__XC_NV_REDUX);
        if (keep) {
            xc[k] = xc[i];
            xc[k++].std = xc[i].kind == GPUSVM__XC_KHR ? std : 12;
        }
    }
    return k;
}

/* gpusvm_smo's local size: with sub-group exchanges a reduction costs one barrier whatever the
   width, so it takes GPUSVM__SMO_WIDE work-items (two working-set positions each at q = 1024:
   the pair update waits on fewer serial steps per work-item; H200, deb-python: the inner solve
   0.089 s at 256, 0.065 s at 512, 512 ahead of 1024 and 256 in training time), where its
   partials (one a sub-group) fit one sub-group; else GPUSVM__L (local-memory trees, a barrier
   per level). A CPU runs a work-group on one core, where each sub-group's exchange costs per
   work-item: there one sub-group (Intel's CPU runtime, sub-groups of 32, the same models: wine
   -t 0 -c 0.01 inner solve 16.9 s at 512, 8.9 at 256, 1.16 at 32, 1.17 with local-memory trees at
   256; a9a 5,000 -t 0 9.2 s against 1.05; digits 4.3 against 0.32). */
static size_t gpusvm__ocl_smo_l(const gpusvm__ocl *b, const gpusvm__exchange *xc)
{
    if (xc->width && b->cpu) return (size_t)xc->width;
    return xc->width && b->max_wg >= GPUSVM__SMO_WIDE && GPUSVM__SMO_WIDE / xc->width <= xc->width
               ? (size_t)GPUSVM__SMO_WIDE
               : (size_t)GPUSVM__L;
}

/* The build options: the OpenCL C version, the tunables the host chose (the shared block's
   #ifndef defaults are overridden from this one table), the sub-group exchanges and their
   width, and float pairs without fp64. */
static void gpusvm__ocl_options(const gpusvm__ocl *b, const gpusvm__exchange *xc, char *out, size_t size)
{
    static const char *const kind[5] = {"", " -D GPUSVM_SG_INTEL=1", " -D GPUSVM_SG_KHR=1", " -D GPUSVM_NV_SHFL=1",
                                        " -D GPUSVM_NV_SHFL=1 -D GPUSVM_NV_REDUX=1"};
    struct { const char *name; int value; } tun[7] = {
        {"GPUSVM__Q", 0}, {"GPUSVM__L", GPUSVM__L}, {"GPUSVM__SPARSE_BLOCKS", GPUSVM__SPARSE_BLOCKS}, {"GPUSVM__SPARSE_HASH_LOG", 0},
        {"GPUSVM__CS_L", GPUSVM__CS_L}, {"GPUSVM__SMO_L", 0}, {"GPUSVM__NARROW_ROWS", 0}};
    size_t at;
    int i;
    tun[0].value = b->qcap;
    tun[3].value = b->sh_log;
    tun[5].value = (int)gpusvm__ocl_smo_l(b, xc);
    tun[6].value = b->nar_r;
    at = (size_t)snprintf(out, size, "-cl-std=CL%d.%d", xc->std / 10, xc->std % 10);
    for (i = 0; i < 7 && at < size; ++i) at += (size_t)snprintf(out + at, size - at, " -D %s=%d", tun[i].name, tun[i].value);
    if (at < size) at += (size_t)snprintf(out + at, size - at, "%s", kind[xc->kind]);
    if (at < size && xc->width) at += (size_t)snprintf(out + at, size - at, " -D GPUSVM_WARP=%d", xc->width);
    if (at < size && xc->pinned && (xc->kind == GPUSVM__XC_KHR || xc->kind == GPUSVM__XC_INTEL))
        at += (size_t)snprintf(out + at, size - at, " -D GPUSVM_SG_REQD=1");
    if (at < size && !b->fp64) snprintf(out + at, size - at, " -D GPUSVM_NO_FP64=1");
}

/* ---- building the kernels ------------------------------------------------
 * Each part (GPUSVM__KERNELS: a kernel, or the copies, or a step's family) is a program of its
 * own (kernels part 0; PoCL, which compiles a kernel at its first launch anyway, and Oclgrind
 * build every kernel in one: b->one_program), built when the work first needs it: the
 * context builds gpusvm_keys, which decides the reductions' exchanges (a device whose compiler
 * fails can still fall back there), a training batch what its plan launches (gpusvm__ocl_train_set)
 * in one go, and anything else is built at its first launch. A first run on a GPU waits on its
 * compiler (NVIDIA's: 5 to 7 s for every kernel, docs/results.md), so the parts of one call
 * compile on threads of their own (NVIDIA's compiler runs them only partly at once; the core as
 * one program built with the context made an H100's first heart_scale and a9a runs slower). Arguments are kept on the host as they are set
 * (gpusvm__ocl_set) and given to a kernel when it is built. */

/* The first kernel of kernel k's program, which holds it: of its part, or of every kernel. */
static int gpusvm__ocl_unit(const gpusvm__ocl *b, int k)
{
    int u = 0;
    while (!b->one_program && strcmp(gpusvm__kernels[u].part, gpusvm__kernels[k].part) != 0) ++u;
    return u;
}

/* set, with every kernel that shares a program with one of it */
static gpusvm__kset gpusvm__ocl_whole_units(const gpusvm__ocl *b, gpusvm__kset set)
{
    gpusvm__kset out = set;
    int k, i;
    for (k = 0; k < GPUSVM__KN_COUNT; ++k)
        if (set >> k & 1)
            for (i = 0; i < GPUSVM__KN_COUNT; ++i)
                if (gpusvm__ocl_unit(b, i) == gpusvm__ocl_unit(b, k)) out |= (gpusvm__kset)1 << i;
    return out;
}

/* Program u's build options: the shared ones (b->options) and its part. */
static void gpusvm__ocl_kopts(const gpusvm__ocl *b, int u, char *out, size_t size)
{
    snprintf(out, size, "%s -D GPUSVM_K_%s=1", b->options, b->one_program ? "ALL" : gpusvm__kernels[u].part);
}

#define GPUSVM__COMPILE_THREADS 4 /* at most this many compiles at once (H100: 4 ahead of 1, 2, 8, 16) */

/* The compiles of one call: kernel k[i]'s program from source with opt[k[i]], status be[i]. */
typedef struct gpusvm__ocl_compile {
    gpusvm__ocl *b;
    int k[GPUSVM__KN_COUNT], n, threads;
    char opt[GPUSVM__KN_COUNT][GPUSVM__OPT_MAX];
    char path[GPUSVM__KN_COUNT][1100]; /* the kernel cache's file ("": no cache) */
    char from_cache[GPUSVM__KN_COUNT];
    gpusvm__cl_int be[GPUSVM__KN_COUNT];
    volatile long next;
} gpusvm__ocl_compile;

/* A compiling thread: takes the next program until none is left (or, without atomics, every
   threads-th from its own). Only clBuildProgram runs here; the rest stays on the caller's thread. */
static void gpusvm__ocl_compile_some(void *arg, int t)
{
    gpusvm__ocl_compile *c = (gpusvm__ocl_compile *)arg;
    long i;
#if GPUSVM__TAKE_ATOMIC
    while ((i = gpusvm__take(&c->next)) < c->n) {
#else
    for (i = t; i < c->n; i += c->threads) {
#endif
        const int k = c->k[i];
        c->be[i] = c->b->cl->clBuildProgram(c->b->prog[k], 1, &c->b->dev, c->opt[k], NULL, NULL);
    }
    (void)t;
}

/* The first compile says so once, on the context the caller made: a first run waits here. */
static void gpusvm__ocl_say_compiling(gpusvm__ocl *b, int cache)
{
    gpusvm_context *ctx = b->base.ctx, *said = ctx->root ? ctx->root : ctx;
    if (said->said_compiling) return;
    said->said_compiling = 1;
    gpusvm__log(ctx, GPUSVM_LOG_INFO, "compiling the kernel program for %s (once per device and driver; %s%s)",
                ctx->device_name, cache ? "kept for the next runs in " : "not cached by gpusvm",
                cache ? ctx->cache_dir : "");
}

/* ctx->build_log gains each kernel of set: where its program came from and the compiler's log
   (the shared options first). */
static gpusvm_result gpusvm__ocl_log_set(gpusvm__ocl *b, gpusvm__kset set, const gpusvm__ocl_compile *c)
{
    gpusvm_context *ctx = b->base.ctx;
    int k;
    for (k = 0; k < GPUSVM__KN_COUNT; ++k) {
        const size_t old = ctx->build_log ? strlen(ctx->build_log) : 0;
        size_t log_size = 0, head;
        char *log;
        int off = 0;
        if (!(set >> k & 1) || !b->prog[k]) continue;
        if (b->cl->clGetProgramBuildInfo(b->prog[k], b->dev, GPUSVM__CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size) != 0)
            log_size = 0;
        head = strlen(b->options) + strlen(c->path[k]) + 128;
        if (!(log = (char *)gpusvm__alloc(&ctx->alloc, old + head + log_size + 1, 1)))
            return gpusvm__oom(ctx, "the kernel build log");
        if (old) memcpy(log, ctx->build_log, old);
        else off = snprintf(log, head, "build options: %s\n", b->options);
        off += snprintf(log + old + off, head - (size_t)off, "%s%s: %s%s\n", b->one_program ? "every" : "part ",
                        b->one_program ? " kernel" : gpusvm__kernels[k].part,
                        c->from_cache[k] ? "program binary from the kernel cache: " : "compiled from source",
                        c->from_cache[k] ? c->path[k] : "");
        log[old + (size_t)off] = 0;
        if (log_size > 1 && b->cl->clGetProgramBuildInfo(b->prog[k], b->dev, GPUSVM__CL_PROGRAM_BUILD_LOG, log_size,
                                                         log + old + off, NULL) == 0)
            log[old + (size_t)off + log_size - 1] = 0;
        gpusvm__free(&ctx->alloc, ctx->build_log);
        ctx->build_log = log;
    }
    return GPUSVM_OK;
}

/* The programs of set, each from the kernel cache where it holds it, else compiled (on threads)
   and written to it. *be: the first failed compile's status (0: none), *bad: its kernel. */
static gpusvm_result gpusvm__ocl_programs(gpusvm__ocl *b, gpusvm__kset set, gpusvm__cl_int *be, int *bad)
{
    gpusvm_context *ctx = b->base.ctx;
    gpusvm__cl_api *cl = b->cl;
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_uint lines;
    const char *const *src = gpusvm__kernel_lines(&lines);
    char key[1024 + GPUSVM__OPT_MAX];
    gpusvm__ocl_compile *c = (gpusvm__ocl_compile *)gpusvm__alloc(&ctx->alloc, sizeof *c, 1);
    int i, k;
    *be = 0;
    *bad = -1;
    if (!c) return gpusvm__oom(ctx, "building the kernels");
    memset(c, 0, sizeof *c);
    c->b = b;
    for (k = 0; k < GPUSVM__KN_COUNT; ++k) {
        if (!(set >> k & 1) || gpusvm__ocl_unit(b, k) != k) continue;
        gpusvm__ocl_kopts(b, k, c->opt[k], sizeof c->opt[k]);
        if (gpusvm__kcache_key(b, c->opt[k], key, sizeof key, c->path[k], sizeof c->path[k]) &&
            gpusvm__kcache_load(b, c->opt[k], key, c->path[k], &b->prog[k])) {
            r = gpusvm__oom(ctx, "reading the kernel cache");
            goto fail;
        }
        c->from_cache[k] = b->prog[k] != NULL;
        if (b->prog[k]) continue;
        GPUSVM__CL_CREATE(ctx, b->prog[k], cl->clCreateProgramWithSource(b->cctx, lines, (const char **)src, NULL, &gpusvm__e));
        c->k[c->n++] = k;
    }
    if (c->n) {
        gpusvm__ocl_say_compiling(b, c->path[c->k[0]][0] != 0);
        c->threads = c->n < ctx->threads ? c->n : ctx->threads;
        if (c->threads > GPUSVM__COMPILE_THREADS) c->threads = GPUSVM__COMPILE_THREADS;
        if (c->threads < 1) c->threads = 1;
        gpusvm__parallel(c->threads, gpusvm__ocl_compile_some, c);
        ctx->build_cached = 0;
    }
    for (i = 0; i < c->n; ++i) {
        k = c->k[i];
        if (c->be[i] != 0 && !*be) {
            *be = c->be[i];
            *bad = k;
        }
        if (c->be[i] == 0 && c->path[k][0] && gpusvm__kcache_key(b, c->opt[k], key, sizeof key, c->path[k], sizeof c->path[k]) &&
            gpusvm__kcache_save(b, b->prog[k], key, c->path[k])) {
            r = gpusvm__oom(ctx, "writing the kernel cache");
            goto fail;
        }
    }
    for (k = 0; k < GPUSVM__KN_COUNT; ++k) ctx->build_cache_used |= c->path[k][0] != 0;
    r = gpusvm__ocl_log_set(b, set, c);
fail:
    gpusvm__free(&ctx->alloc, c);
    return r;
}

/* The kernels of set from their programs, each checked against the device's work-group limit and
   the argument count its list declares, and given the arguments already set. */
static gpusvm_result gpusvm__ocl_kernels(gpusvm__ocl *b, gpusvm__kset set)
{
    gpusvm_context *ctx = b->base.ctx;
    gpusvm__cl_api *cl = b->cl;
    gpusvm_result r = GPUSVM_OK;
    size_t wg = 0;
    gpusvm__cl_uint nargs = 0, a;
    int i;
    for (i = 0; i < GPUSVM__KN_COUNT; ++i) {
        const gpusvm__kernel_info *k = &gpusvm__kernels[i];
        if (!(set >> i & 1)) continue;
        GPUSVM__CL_CREATE(ctx, b->kern[i], cl->clCreateKernel(b->prog[gpusvm__ocl_unit(b, i)], k->name, &gpusvm__e));
        GPUSVM__CL(ctx, cl->clGetKernelWorkGroupInfo(b->kern[i], b->dev, GPUSVM__CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                                                     &wg, NULL));
        if (wg < k->wg)
            return gpusvm__fail(ctx, GPUSVM_ERR_DEVICE_LIMITS,
                                "kernel %s runs at most %u work-items per group on this device; it needs %u", k->name,
                                (unsigned)wg, (unsigned)k->wg);
        GPUSVM__CL(ctx, cl->clGetKernelInfo(b->kern[i], GPUSVM__CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
        if (nargs != k->nargs)
            return gpusvm__fail(ctx, GPUSVM_ERR_KERNEL_ARGS, "kernel %s declares %u arguments; the host binds %u", k->name,
                                (unsigned)nargs, k->nargs);
        for (a = 0; a < nargs; ++a) {
            const gpusvm__ocl_arg *v = &b->args[i][a];
            if (v->set) GPUSVM__CL(ctx, cl->clSetKernelArg(b->kern[i], a, v->size, v->local ? NULL : v->v));
        }
    }
fail:
    return r;
}

/* Whether the kernels of the set that exchange (gpusvm_keys, gpusvm_smo, gpusvm_rows_sparse) run in
   sub-groups of the width they were built for, or of a multiple of it (the butterflies then stay
   within aligned blocks of the width: PoCL's CPU devices make the work-group one sub-group), as
   cl_khr_subgroups' clGetKernelSubGroupInfoKHR says for their work-groups; any other size counts
   as a failed build. Without the query only a width the build fixed is taken. */
static int gpusvm__ocl_sg_width_ok(gpusvm__ocl *b, const gpusvm__exchange *xc)
{
    const int kn[3] = {GPUSVM__KN_KEYS, GPUSVM__KN_SMO, GPUSVM__KN_ROWS_SPARSE};
    gpusvm__cl_sg_info_fn fn = NULL;
    void *p;
    int k;
    if (xc->kind != GPUSVM__XC_KHR && xc->kind != GPUSVM__XC_INTEL) return 1;
    p = b->cl->clGetExtensionFunctionAddressForPlatform(b->platform, "clGetKernelSubGroupInfoKHR");
    if (!p) return xc->pinned;
    memcpy(&fn, &p, sizeof fn);
    for (k = 0; k < 3; ++k) {
        const size_t local = kn[k] == GPUSVM__KN_SMO ? b->smo_l : gpusvm__kernels[kn[k]].wg;
        size_t sg = 0;
        if (fn(b->kern[kn[k]], b->dev, GPUSVM__CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local, sizeof sg,
               &sg, NULL) != 0)
            return xc->pinned;
        if (sg < (size_t)xc->width || sg % (size_t)xc->width) return 0; /* a multiple holds aligned blocks of it */
    }
    return 1;
}

/* GPUSVM_ERR_KERNEL_BUILD for kernel k's failed compile (status be), with the build log. */
static gpusvm_result gpusvm__ocl_build_failed(gpusvm__ocl *b, gpusvm__cl_int be, int k)
{
    gpusvm_context *ctx = b->base.ctx;
    ctx->cl_call = "clBuildProgram";
    ctx->cl_code = (int)be;
    ctx->cl_line = __LINE__;
    return gpusvm__fail(ctx, GPUSVM_ERR_KERNEL_BUILD, "clBuildProgram returned %d (%s) for %s; build log:\n%s", (int)be,
                        gpusvm__cl_error_name(be), k >= 0 ? gpusvm__kernels[k].name : "a kernel",
                        ctx->build_log ? ctx->build_log : "(none)");
}

/* The context's first build: it chooses the reductions' exchanges, best first (a build that fails,
   or whose sub-groups are not the width it was built for, takes the next). The kernels whose
   sub-groups are checked are built with set where the exchange asks. */
static gpusvm_result gpusvm__ocl_first_build(gpusvm__ocl *b, gpusvm__kset set)
{
    gpusvm_context *ctx = b->base.ctx;
    const gpusvm__kset sg = GPUSVM__KBIT(KEYS) | GPUSVM__KBIT(SMO) | GPUSVM__KBIT(ROWS_SPARSE);
    gpusvm_result r;
    gpusvm__cl_int be = 0;
    int i, nxc, bad = -1;
    gpusvm__exchange xc[5];
    nxc = gpusvm__ocl_exchanges(b, xc);
    for (i = 0;; ++i) {
        const gpusvm__kset now =
            gpusvm__ocl_whole_units(b, set | (xc[i].kind == GPUSVM__XC_KHR || xc[i].kind == GPUSVM__XC_INTEL ? sg : 0));
        gpusvm__ocl_options(b, &xc[i], b->options, sizeof b->options);
        b->smo_l = gpusvm__ocl_smo_l(b, &xc[i]);
        b->xc = xc[i];
        gpusvm__free(&ctx->alloc, ctx->build_log);
        ctx->build_log = NULL;
        if ((r = gpusvm__ocl_programs(b, now, &be, &bad)) != GPUSVM_OK) goto fail;
        if (be == 0) {
            if ((r = gpusvm__ocl_kernels(b, now)) != GPUSVM_OK) goto fail;
            if (gpusvm__ocl_sg_width_ok(b, &xc[i]) || i == nxc - 1) return GPUSVM_OK;
            gpusvm__log(ctx, GPUSVM_LOG_INFO,
                        "the kernels built with %s do not run in sub-groups of (a multiple of) %d; taking %s",
                        gpusvm__exchange_name(xc[i].kind), xc[i].width, gpusvm__exchange_name(xc[i + 1].kind));
        } else if (i == nxc - 1) {
            r = gpusvm__ocl_build_failed(b, be, bad);
            goto fail;
        } else {
            gpusvm__log(ctx, GPUSVM_LOG_INFO, "the kernels did not build with %s (%s); taking %s. %.300s",
                        gpusvm__exchange_name(xc[i].kind), gpusvm__cl_error_name(be), gpusvm__exchange_name(xc[i + 1].kind),
                        ctx->build_log ? ctx->build_log : "");
        }
        gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
    }
fail:
    gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
    b->options[0] = 0;
    return r;
}

/* One build at a time on a context: its devices, each on a thread of its own, share its build
   log and times. Never taken around gpusvm__open_lock. */
static void gpusvm__build_lock(gpusvm_context *ctx)
{
#if GPUSVM__TAKE_ATOMIC
    gpusvm__ticket_lock(&ctx->build_next, &ctx->build_turn);
#else
    (void)ctx;
#endif
}
static void gpusvm__build_unlock(gpusvm_context *ctx)
{
#if GPUSVM__TAKE_ATOMIC
    gpusvm__ticket_unlock(&ctx->build_turn);
#else
    (void)ctx;
#endif
}

/* Builds the kernels of set that are not built yet (each from the kernel cache when it holds it);
   the log, the time and whether everything came from the cache stay on the context. */
static gpusvm_result gpusvm__ocl_need(gpusvm__ocl *b, gpusvm__kset set)
{
    gpusvm_context *ctx = b->base.ctx;
    const double t0 = gpusvm__now();
    gpusvm__kset missing = 0;
    gpusvm__cl_int be = 0;
    gpusvm_result r;
    int k, bad = -1;
    for (k = 0; k < GPUSVM__KN_COUNT; ++k)
        if ((set >> k & 1) && !b->kern[k]) missing |= (gpusvm__kset)1 << k;
    if (!missing) return GPUSVM_OK;
    missing = gpusvm__ocl_whole_units(b, missing);
    gpusvm__build_lock(ctx);
    if (!b->options[0]) {
        ctx->build_cached = 1;
        r = gpusvm__ocl_first_build(b, missing);
    } else {
        r = gpusvm__ocl_programs(b, missing, &be, &bad);
        if (r == GPUSVM_OK && be != 0) r = gpusvm__ocl_build_failed(b, be, bad);
        if (r == GPUSVM_OK) r = gpusvm__ocl_kernels(b, missing);
        if (r != GPUSVM_OK) gpusvm__ocl_release_kernels(b, missing);
    }
    ctx->build_seconds += gpusvm__now() - t0;
    gpusvm__build_unlock(ctx);
    return r;
}

/* Keep `rows` points of d features with nnz nonzeros sparse on the device? desc.storage decides
   where it is set. Else, where the dense copy would not fit (one buffer, or half the budget),
   the smaller of the two (dense points that do not fit are streamed: gpusvm__ocl_stream_shape);
   sparse where the dense copy has more than GPUSVM__SPARSE_GAIN words per nonzero: a sparse kernel row
   costs about that much more per nonzero (hash probes, double sums) than the dense tile per word
   (staged, every word reused 128 times). Measured on an H200: a9a (9 words per nonzero) trains
   5% faster dense, w8a (26) 3% faster sparse, mnist (5) 3x faster dense. A precomputed kernel
   matrix is kept dense; so are more than 2^31-1 nonzeros (the kernels' offsets are 32-bit). */
#define GPUSVM__SPARSE_GAIN 16
/* >>opencl/upload: the points on the device, dense or CSR --------------------------------------- */

static int gpusvm__ocl_sparse(const gpusvm__ocl *b, size_t rows, size_t nnz, size_t d, int ktype)
{
    size_t dense;
    if (ktype == GPUSVM__K_PRECOMPUTED || nnz > (size_t)INT_MAX) return 0;
    if (b->base.ctx->storage != GPUSVM_STORAGE_AUTO) return b->base.ctx->storage == GPUSVM_STORAGE_SPARSE;
    if (!gpusvm__mul(gpusvm__round_up(rows ? rows : 1, GPUSVM__PITCH), gpusvm__round_up(d ? d : 1, GPUSVM__FEAT_CHUNK) * 4,
                     &dense))
        return 1;
    if (dense > b->max_alloc || dense > b->mem_budget / 2) /* the smaller form; dense points that do not fit stream */
        return 2 * nnz + rows < dense / 4;
    return nnz < dense / 4 / GPUSVM__SPARSE_GAIN;
}

/* The points' CSR arrays as the sparse kernels read them: rows [0, n) of x, 32-bit offsets from 0. */
static gpusvm_result gpusvm__ocl_upload_csr(gpusvm__ocl *b, const gpusvm__csr *x, size_t first, size_t n,
                                            gpusvm__cl_mem ptr, gpusvm__cl_mem col, gpusvm__cl_mem val)
{
    const size_t base = x->row_ptr[first], nnz = x->row_ptr[first + n] - base;
    int32_t *rp = (int32_t *)gpusvm__alloc(&b->base.ctx->alloc, n + 1, sizeof(int32_t));
    gpusvm_result r;
    size_t i;
    if (!rp) return gpusvm__oom(b->base.ctx, "the row offsets");
    for (i = 0; i <= n; ++i) rp[i] = (int32_t)(x->row_ptr[first + i] - base);
    r = gpusvm__ocl_write(b, ptr, 0, (n + 1) * sizeof(int32_t), rp);
    gpusvm__free(&b->base.ctx->alloc, rp);
    if (r == GPUSVM_OK && nnz && (r = gpusvm__ocl_write(b, col, 0, nnz * 4, x->col + base)) == GPUSVM_OK)
        r = gpusvm__ocl_write(b, val, 0, nnz * 4, x->val + base);
    return r;
}

/* b->mem[X] (bytes, allocated) := the points x, dense and column-major. Where their CSR arrays
   fit next to it, they are uploaded and scattered on the device (gpusvm_scatter: a fraction of
   the bytes, no host pass over a dense copy); else the host builds the dense copy. */
static gpusvm_result gpusvm__ocl_upload_points(gpusvm__ocl *b, const gpusvm__csr *x, size_t bytes)
{
    gpusvm_context *ctx = b->base.ctx;
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t n = x->rows, base = x->row_ptr[0], nnz = x->row_ptr[n] - base;
    gpusvm__cl_mem csr[3] = {NULL, NULL, NULL}; /* row offsets, column indices, values */
    gpusvm_result r = GPUSVM_OK;
    uint64_t *rp64 = NULL;
    float *host;
    if (b->sparse) return gpusvm__ocl_upload_csr(b, x, 0, n, b->mem[GPUSVM__TB_X_PTR], b->mem[GPUSVM__TB_X_COL],
                                                  b->mem[GPUSVM__TB_X_VAL]);
    if ((n + 1) * 8 + nnz * 8 + 1024 > b->mem_budget - b->mem_used) {
        gpusvm__log(ctx, GPUSVM_LOG_DEBUG, "data: the dense copy built on the host (no room for the CSR arrays)");
        host = gpusvm__to_colmajor(a, x, 0, n, b->pitch, b->dpad);
        if (!host) return gpusvm__oom(ctx, "the column-major copy of the data");
        r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_X], 0, bytes, host);
        gpusvm__free(a, host);
        return r;
    }
    if (sizeof(size_t) != sizeof(uint64_t)) { /* the kernel reads 64-bit offsets */
        size_t i;
        if (!(rp64 = (uint64_t *)gpusvm__alloc(a, n + 1, sizeof(uint64_t))))
            return gpusvm__oom(ctx, "the row offsets");
        for (i = 0; i <= n; ++i) rp64[i] = (uint64_t)x->row_ptr[i];
    }
    gpusvm__log(ctx, GPUSVM_LOG_DEBUG, "data: %lu nonzeros uploaded and scattered on the device", (unsigned long)nnz);
    if ((r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_X], bytes, 0)) != GPUSVM_OK) goto fail;
    if ((r = gpusvm__ocl_buffer(b, &csr[0], (n + 1) * 8, "the data's row offsets")) != GPUSVM_OK) goto fail;
    if ((r = gpusvm__ocl_buffer(b, &csr[1], (nnz ? nnz : 1) * 4, "the data's column indices")) != GPUSVM_OK) goto fail;
    if ((r = gpusvm__ocl_buffer(b, &csr[2], (nnz ? nnz : 1) * 4, "the data's values")) != GPUSVM_OK) goto fail;
    if ((r = gpusvm__ocl_write(b, csr[0], 0, (n + 1) * 8, rp64 ? (const void *)rp64 : (const void *)x->row_ptr)) !=
        GPUSVM_OK)
        goto fail;
    if (nnz && ((r = gpusvm__ocl_write(b, csr[1], 0, nnz * 4, x->col + base)) != GPUSVM_OK ||
                (r = gpusvm__ocl_write(b, csr[2], 0, nnz * 4, x->val + base)) != GPUSVM_OK))
        goto fail;
    {
        const gpusvm__cl_ulong base_ = (gpusvm__cl_ulong)base;
        const gpusvm__cl_int n_ = (gpusvm__cl_int)n, pitch_ = (gpusvm__cl_int)b->pitch;
        size_t g = gpusvm__round_up(n ? n : 1, GPUSVM__COPY_L), l = GPUSVM__COPY_L;
        GPUSVM__SET(SCATTER, SCATTER_row_ptr, csr[0]);
        GPUSVM__SET(SCATTER, SCATTER_col, csr[1]);
        GPUSVM__SET(SCATTER, SCATTER_val, csr[2]);
        GPUSVM__SET(SCATTER, SCATTER_base, base_);
        GPUSVM__SET(SCATTER, SCATTER_n, n_);
        GPUSVM__SET(SCATTER, SCATTER_X, b->mem[GPUSVM__TB_X]);
        GPUSVM__SET(SCATTER, SCATTER_pitch, pitch_);
        r = gpusvm__ocl_launch(b, GPUSVM__KN_SCATTER, 1, &g, &l);
    }
fail:
    /* released at once: OpenCL keeps them until the scatter has run */
    gpusvm__release_mems(b, csr, 3);
    gpusvm__free(a, rp64);
    return r;
}

/* The fewest points a streamed tile holds: below it the launches' fixed costs rule. */
#ifndef GPUSVM__STREAM_MIN
#define GPUSVM__STREAM_MIN 1024
#endif

/* >>opencl/plan: a batch's shape and buffers (train.bytes, train.begin) ------------------------- */

/* Data larger than the device: where a batch's buffers (bytes) do not fit what the budget has
   left, and the batch is one dense problem larger than its working set (not Crammer-Singer's, not
   a precomputed kernel), its points are streamed: they stay on the host in tiles of as many points
   as fit beside the per-variable state, two tiles (X, XT) and the working set's vectors (a split
   problem's share that fits once with its q rows stays: b->share_rows, K); b->stream, tile,
   ntiles, pitch and ldk (the tile) and bytes are set for it. */
static void gpusvm__ocl_stream_shape(gpusvm__ocl *b, const gpusvm__problem *p, int nprob, int q, size_t *bytes)
{
    const size_t left = b->mem_budget - b->mem_used, qs = (size_t)q, per = 2 * b->dpad * sizeof(float);
    const size_t share = b->phi - b->plo, whole = gpusvm__round_up(share, GPUSVM__TILE); /* every point, or a split share */
    /* a tile of several holds a work-group of gpusvm_rows_update (GPUSVM__TILE points with all their
       rows) per compute unit, or a multiple: its launch ends in whole waves (H100, 1M x 64 points under
       64 MB: 25 tiles of 40,704 points, 318 groups, 19.1 s; 30 tiles of 33,792, 264 groups, 13.0 s) */
    const size_t wave = b->cus * GPUSVM__TILE;
    size_t total = 0, rest = 0, tile;
    int i, fits = 1;
    for (i = 0; i < GPUSVM__TB_COUNT; ++i) {
        fits = fits && bytes[i] <= b->max_alloc && total + bytes[i] >= total;
        total += bytes[i];
    }
    if ((fits && total <= left && !b->split) || qs == 0 || b->sparse || b->ktype == GPUSVM__K_PRECOMPUTED ||
        nprob != 1 || p[0].own_rows || p[0].cache || p[0].nvar <= qs)
        return;
    if (fits && !b->split) { /* resident with the solver's smallest working set (64)? then it shrinks q instead */
        const size_t q64 = qs < 64 ? qs : 64;
        const size_t small = total - bytes[GPUSVM__TB_K] - bytes[GPUSVM__TB_KQ] - bytes[GPUSVM__TB_XW] +
                             q64 * b->ldk * sizeof(float) + q64 * q64 * sizeof(float) +
                             (bytes[GPUSVM__TB_XW] ? q64 * b->dpad * sizeof(float) : 0);
        if (small <= left) return;
    }
    for (i = 0; i < GPUSVM__TB_COUNT; ++i)
        if (i != GPUSVM__TB_X && i != GPUSVM__TB_K && i != GPUSVM__TB_XW) rest += bytes[i];
    rest += qs * b->dpad * sizeof(float) + 2 * qs * sizeof(int32_t) + qs * sizeof(double); /* XW, S_* */

    if (rest >= left) return;
    b->share_rows = b->split && whole <= b->max_alloc / (qs * sizeof(float)) &&
                    whole <= b->max_alloc / (b->dpad * sizeof(float)) && (left - rest) / (per + qs * sizeof(float)) >= whole;
    tile = b->share_rows ? whole : (left - rest) / per;
    if (tile > b->max_alloc / (b->dpad * sizeof(float))) tile = b->max_alloc / (b->dpad * sizeof(float));
    if (tile > whole) tile = whole;
    tile = tile / GPUSVM__TILE * GPUSVM__TILE;
    if (wave && tile < whole && tile > wave) tile = tile / wave * wave;
    if (tile < GPUSVM__STREAM_MIN && (!b->split || tile < share)) return;
    b->stream = 1;
    b->tile = tile;
    b->ntiles = (share + tile - 1) / tile;
    b->pitch = b->ldk = tile;
    bytes[GPUSVM__TB_X] = bytes[GPUSVM__TB_XT] = tile * b->dpad * sizeof(float);
    bytes[GPUSVM__TB_K] = b->share_rows ? qs * tile * sizeof(float) : 0;
    bytes[GPUSVM__TB_XW] = qs * b->dpad * sizeof(float);
    bytes[GPUSVM__TB_S_IDX] = bytes[GPUSVM__TB_S_SLOT] = qs * sizeof(int32_t);
    bytes[GPUSVM__TB_S_COEF] = qs * sizeof(double);
}

/* Whether a batch is split by rows here (base.parts > 1; the split section below): one problem
   larger than its working set, neither Crammer-Singer's nor precomputed, whose points the
   storage rule keeps dense (gpusvm__ocl_sparse's density test alone, so that every part, whatever
   its memory, decides alike). */
static int gpusvm__ocl_splits(gpusvm__backend *bb, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan)
{
    const int q = plan->q;
    size_t np, nnz, dense;
    if (plan->parts < 2 || nprob != 1 || q <= 0 || p[0].own_rows || p[0].cache || p[0].nvar <= (size_t)q ||
        p[0].ktype == GPUSVM__K_PRECOMPUTED || p[0].npts < (size_t)plan->parts)
        return 0;
    if (bb->ctx->storage != GPUSVM_STORAGE_AUTO) return bb->ctx->storage == GPUSVM_STORAGE_DENSE;
    np = p[0].x.rows;
    nnz = p[0].x.row_ptr[np] - p[0].x.row_ptr[0];
    if (!gpusvm__mul(gpusvm__round_up(np ? np : 1, GPUSVM__PITCH),
                     gpusvm__round_up(p[0].x.cols ? p[0].x.cols : 1, GPUSVM__FEAT_CHUNK) * 4, &dense))
        return 0;
    return !(nnz < dense / 4 / GPUSVM__SPARSE_GAIN);
}

/* The batch's shape on the backend (b's fields) and the bytes of every training buffer (0: none),
   each size overflow-checked; NULL, or why the batch cannot be held. *npts_all: the problems'
   points, summed (the map's length). The plan and the memory estimate both come from here. */
static const char *gpusvm__ocl_shape(gpusvm__ocl *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan, size_t *bytes,
                                     size_t *npts_all)
{
    const int q = plan->q;
    const size_t np = p[0].x.rows, nnz = p[0].x.row_ptr[np] - p[0].x.row_ptr[0]; /* the batch's points */
    size_t nvar = 0, pts = 0, max_pts = 1, ws, v1, w;
    int t, ok = 1;
    b->nparts_max = 1;
    b->ngroups_max = 1;
    b->stream = b->share_rows = 0;
    for (t = 0; t < nprob; ++t) {
        const size_t parts = gpusvm__keys_parts(p[t].nvar), groups = gpusvm__round_up(p[t].nvar, GPUSVM__L) / GPUSVM__L;
        nvar += p[t].nvar;
        pts += p[t].npts;
        if (p[t].npts > max_pts) max_pts = p[t].npts;
        if (parts > b->nparts_max) b->nparts_max = parts;
        if (groups > b->ngroups_max) b->ngroups_max = groups;
    }
    if (nvar > (size_t)INT_MAX / 2 || np > (size_t)INT_MAX / 2 || pts > (size_t)INT_MAX / 2)
        return "too many points for one device (at most 2^30 variables)";
    *npts_all = pts;
    b->nprob = nprob;
    b->nvar = nvar;
    b->npts = np;
    b->d = p[0].x.cols;
    b->dpad = gpusvm__round_up(b->d ? b->d : 1, GPUSVM__FEAT_CHUNK);
    b->pitch = gpusvm__round_up(np ? np : 1, GPUSVM__PITCH);
    b->ldk = gpusvm__round_up(max_pts, GPUSVM__PITCH);
    b->q = q;
    b->npts0 = p[0].npts;
    b->q0 = p[0].nvar <= (size_t)q ? p[0].nvar : (size_t)q;
    b->ktype = p[0].ktype;
    b->coef0 = p[0].coef0;
    b->degree = p[0].degree;
    ws = (size_t)nprob * (size_t)q;
    v1 = nvar ? nvar : 1;
    b->sparse = gpusvm__ocl_sparse(b, np, nnz, b->d, b->ktype);
    b->split = gpusvm__ocl_splits(&b->base, p, nprob, plan);
    b->part = b->split ? plan->part : 0;
    b->plo = b->split ? gpusvm__part_lo(b->npts0, plan->parts, plan->part) : 0;
    b->phi = b->split ? gpusvm__part_lo(b->npts0, plan->parts, plan->part + 1) : b->npts0;
    if (b->split) b->sparse = 0;
    b->split_parts = b->split ? plan->parts : 1;
    memset(bytes, 0, GPUSVM__TB_COUNT * sizeof(size_t));
    ok = gpusvm__mul((p[0].cache && nvar > ws ? nvar : ws) * sizeof(float), b->ldk, &bytes[GPUSVM__TB_K]) &&
         gpusvm__mul(ws * sizeof(float), (size_t)q, &bytes[GPUSVM__TB_KQ]);
    if (!ok) return "the kernel rows' size overflows";
    if (b->sparse) {
        bytes[GPUSVM__TB_X_PTR] = (np + 1) * sizeof(int32_t);
        bytes[GPUSVM__TB_X_COL] = bytes[GPUSVM__TB_X_VAL] = (nnz ? nnz : 1) * 4;
    } else {
        if (!gpusvm__mul(b->pitch, b->dpad * sizeof(float), &bytes[GPUSVM__TB_X])) return "the dense data's size overflows";
        if (b->ktype != GPUSVM__K_PRECOMPUTED && gpusvm__mul(ws * sizeof(float), b->dpad, &w) && w <= b->max_alloc)
            bytes[GPUSVM__TB_XW] = w;
    }
    bytes[GPUSVM__TB_NORM] = (np ? np : 1) * (b->sparse ? sizeof(double) : sizeof(float));
    bytes[GPUSVM__TB_QD] = bytes[GPUSVM__TB_KEY_UP] = bytes[GPUSVM__TB_KEY_LOW] = v1 * sizeof(float);
    bytes[GPUSVM__TB_Y] = v1;
    bytes[GPUSVM__TB_CV] = bytes[GPUSVM__TB_ALPHA] = bytes[GPUSVM__TB_G] = v1 * sizeof(double);
    bytes[GPUSVM__TB_PART_UP] = bytes[GPUSVM__TB_PART_LOW] = (size_t)nprob * 2 * b->nparts_max * sizeof(double);
    bytes[GPUSVM__TB_WS_IDX] = bytes[GPUSVM__TB_WS_SLOT] = ws * sizeof(int);
    bytes[GPUSVM__TB_COEF] = ws * sizeof(double);
    bytes[GPUSVM__TB_STATUS] = (size_t)nprob * GPUSVM__ST_COUNT * sizeof(double);
    bytes[GPUSVM__TB_PINFO] = (size_t)nprob * GPUSVM__PI_COUNT * sizeof(int32_t);
    bytes[GPUSVM__TB_MAP] = (pts ? pts : 1) * sizeof(int32_t);
    bytes[GPUSVM__TB_SEL] = (size_t)nprob * GPUSVM__SEL_SCRATCH;
    bytes[GPUSVM__TB_LIST] = ws * sizeof(int32_t);
    b->sel_grid = 0;
    b->whole = !b->split;
    b->nu = p[0].nu;
    for (t = 0; t < nprob; ++t) {
        b->sel_grid |= p[t].nvar + 1 > (size_t)GPUSVM__SEL_GRID;
        b->whole &= p[t].nvar <= (size_t)q; /* as gpusvm__ocl_stage_fill's GPUSVM__PI_WHOLE */
    }
    if (b->split) {
        bytes[GPUSVM__TB_CANDS] = GPUSVM__CO_WORDS((size_t)q) * sizeof(uint64_t);
        bytes[GPUSVM__TB_WS_G] = (size_t)q * sizeof(double);
    }
    gpusvm__ocl_stream_shape(b, p, nprob, q, bytes); /* a split share that cannot stream: gpusvm__ocl_plan says so */
    return NULL;
}

/* Plan: the batch's shape and buffer sizes, or the reason it cannot be held, said. */
static gpusvm_result gpusvm__ocl_plan(gpusvm__ocl *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan, size_t *bytes,
                                      size_t *npts_all)
{
    const char *why = gpusvm__ocl_shape(b, p, nprob, plan, bytes, npts_all);
    if (!why && b->split && !b->stream)
        why = "too little device memory for a tile of this device's share of the problem split by rows";
    if (why) return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY, "%s", why);
    if (b->split) {
        gpusvm__log(b->base.ctx, GPUSVM_LOG_INFO,
                    "data: points %lu to %lu of %lu, part %d of %d of a problem split by rows, in %lu tile%s of %lu points "
                    "(%.1f MiB each)",
                    (unsigned long)b->plo, (unsigned long)b->phi - 1, (unsigned long)b->npts0, b->part + 1,
                    b->split_parts, (unsigned long)b->ntiles, b->ntiles == 1 ? "" : "s", (unsigned long)b->tile,
                    (double)bytes[GPUSVM__TB_X] / 1048576.0);
        return GPUSVM_OK;
    }
    if (b->stream) {
        gpusvm__log(b->base.ctx, GPUSVM_LOG_INFO,
                    "data: %.1f MiB, streamed through the device in %lu tiles of %lu points (%.1f MiB each)",
                    (double)b->npts0 * (double)b->dpad * 4.0 / 1048576.0, (unsigned long)b->ntiles,
                    (unsigned long)b->tile, (double)bytes[GPUSVM__TB_X] / 1048576.0);
        return GPUSVM_OK;
    }
    gpusvm__log(b->base.ctx, GPUSVM_LOG_DEBUG, "data: %s on the device (%.1f MiB)", b->sparse ? "sparse" : "dense",
                (double)(b->sparse ? bytes[GPUSVM__TB_X_PTR] + 2 * bytes[GPUSVM__TB_X_COL] : bytes[GPUSVM__TB_X]) /
                    1048576.0);
    return GPUSVM_OK;
}

/* The row cache (kernels part 1c): for one problem of at least 2q variables, C > q slots of
   kernel rows, up to GPUSVM__ROW_SLOTS working sets' worth, within the rows budget (params.
   cache_size_mb, else GPUSVM__ROW_CACHE_MB), one buffer, and half of what the memory budget has
   left beside the batch's other buffers (bytes: their sizes; K's and the cache's own are set
   here). Points come back to the working set; the rows they bring are reused. */
/* Whether the batch keeps a row cache where the device's memory allows (one problem, its rows not
   held whole, at least twice its working set's variables). */
static int gpusvm__ocl_cache_wanted(const gpusvm__ocl *b, const gpusvm__problem *p, int nprob, int q)
{
    return !b->no_cache && !b->stream && nprob == 1 && !p[0].cache && !p[0].own_rows && p[0].nvar >= 2 * (size_t)q;
}

static void gpusvm__ocl_cache_plan(gpusvm__ocl *b, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan,
                                   size_t *bytes)
{
    const int q = plan->q;
    const size_t row = b->ldk * sizeof(float), left = b->mem_budget - b->mem_used;
    size_t rest = 0, lim, slots;
    int i;
    b->cslots = 0;
    if (!gpusvm__ocl_cache_wanted(b, p, nprob, q)) return;
    for (i = GPUSVM__TB_X_VAL + 1; i < GPUSVM__TB_COUNT; ++i) rest += i == GPUSVM__TB_K ? 0 : bytes[i];
    if (left < rest) return;
    lim = plan->rows_budget ? plan->rows_budget : (size_t)GPUSVM__ROW_CACHE_MB << 20;
    if ((left - rest) / 2 < lim) lim = (left - rest) / 2;
    if (b->max_alloc < lim) lim = b->max_alloc;
    slots = lim / row;
    if (slots > p[0].nvar) slots = p[0].nvar;
    if (slots > (size_t)q * GPUSVM__ROW_SLOTS) slots = (size_t)q * GPUSVM__ROW_SLOTS;
    if (slots <= (size_t)q) return;
    b->cslots = (int)slots;
    bytes[GPUSVM__TB_K] = slots * row;
    bytes[GPUSVM__TB_RINFO] = GPUSVM__PI_COUNT * sizeof(int32_t);
    bytes[GPUSVM__TB_ROW_IDX] = bytes[GPUSVM__TB_ROW_SLOT] = (size_t)q * sizeof(int32_t);
    bytes[GPUSVM__TB_CMAP] = p[0].nvar * sizeof(int32_t);
    bytes[GPUSVM__TB_CSTATE] = (GPUSVM__RC_HEAD + 2 * slots) * sizeof(int32_t);
}

/* A float's bits as the problem table holds them (GPUSVM__PI_GAMMA). */
static int32_t gpusvm__float_bits(float v)
{
    int32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* The host's staging copies of a batch's per-variable state, in one block. */
typedef struct gpusvm__ocl_stage {
    void *block;
    double *g0, *cv, *st, *norm_d; /* norm_d: the norms in double (sparse points) */
    float *norm, *qd;
    int32_t *info, *map;
    signed char *y;
} gpusvm__ocl_stage;

static gpusvm_result gpusvm__ocl_stage_alloc(gpusvm__ocl *b, size_t npts_all, gpusvm__ocl_stage *s)
{
    /* doubles first, then 4-byte words, then bytes: every array stays aligned */
    const size_t n[9] = {b->nvar, b->nvar, (size_t)b->nprob * GPUSVM__ST_COUNT, b->sparse ? b->npts : 0, b->npts,
                         b->nvar, (size_t)b->nprob * GPUSVM__PI_COUNT, npts_all, b->nvar};
    const size_t size[9] = {8, 8, 8, 8, 4, 4, 4, 4, 1};
    size_t off[9], total = 0, bytes;
    unsigned char *c;
    int i;
    for (i = 0; i < 9; ++i) {
        off[i] = total;
        if (!gpusvm__mul(n[i], size[i], &bytes) || total + bytes < total) return gpusvm__oom(b->base.ctx, "the training state");
        total += bytes;
    }
    c = (unsigned char *)gpusvm__calloc(&b->base.ctx->alloc, total ? total : 1, 1);
    if (!c) return gpusvm__oom(b->base.ctx, "the training state");
    s->block = c;
    s->g0 = (double *)(void *)(c + off[0]);
    s->cv = (double *)(void *)(c + off[1]);
    s->st = (double *)(void *)(c + off[2]);
    s->norm_d = (double *)(void *)(c + off[3]);
    s->norm = (float *)(void *)(c + off[4]);
    s->qd = (float *)(void *)(c + off[5]);
    s->info = (int32_t *)(void *)(c + off[6]);
    s->map = (int32_t *)(void *)(c + off[7]);
    s->y = (signed char *)(c + off[8]);
    return GPUSVM_OK;
}

/* The staging copies: norms, the problem table, the map, and each variable's diagonal, G = -1,
   bound and label (the status starts zeroed: running). */
static void gpusvm__ocl_stage_fill(const gpusvm__ocl *b, const gpusvm__problem *p, int q, gpusvm__ocl_stage *s)
{
    size_t nvar = 0, pts = 0, i, k;
    int t;
    gpusvm__norms(&p[0].x, 0, b->npts, s->norm);
    if (b->sparse) gpusvm__norms_d(&p[0].x, 0, b->npts, s->norm_d);
    for (t = 0; t < b->nprob; ++t) {
        int32_t *pi = s->info + (size_t)t * GPUSVM__PI_COUNT;
        const int whole = p[t].nvar <= (size_t)q;
        pi[GPUSVM__PI_VAR] = (int32_t)nvar;
        pi[GPUSVM__PI_NVAR] = (int32_t)p[t].nvar;
        pi[GPUSVM__PI_PT] = (int32_t)pts;
        pi[GPUSVM__PI_NPTS] = (int32_t)p[t].npts;
        pi[GPUSVM__PI_Q] = whole ? (int32_t)p[t].nvar : q;
        pi[GPUSVM__PI_WHOLE] = whole;
        pi[GPUSVM__PI_NPARTS] = (int32_t)gpusvm__keys_parts(p[t].nvar);
        pi[GPUSVM__PI_SPLIT] = (int32_t)p[t].npts;
        pi[GPUSVM__PI_LO] = (int32_t)b->plo; /* a split batch has one problem */
        pi[GPUSVM__PI_HI] = (int32_t)(b->split ? b->phi : p[t].npts);
        pi[GPUSVM__PI_GAMMA] = gpusvm__float_bits(p[t].gamma);
        for (k = 0; k < p[t].npts; ++k) s->map[pts + k] = (int32_t)gpusvm__map_pt(&p[t], k);
        for (i = 0; i < p[t].nvar; ++i) {
            const size_t pt = gpusvm__map_pt(&p[t], GPUSVM__PT(i, p[t].npts));
            s->qd[nvar + i] = gpusvm__diag(&p[0].x, pt, s->norm[pt], b->ktype, p[t].gamma, b->coef0, b->degree);
            s->g0[nvar + i] = -1.0;
            s->cv[nvar + i] = p[t].C[i];
            s->y[nvar + i] = p[t].y[i];
        }
        nvar += p[t].nvar;
        pts += p[t].npts;
    }
}

/* Upload: the staging copies to their buffers; alpha, the working sets and coefficients zeroed. */
static gpusvm_result gpusvm__ocl_stage_upload(gpusvm__ocl *b, const gpusvm__ocl_stage *s, size_t npts_all)
{
    const struct { int buf; size_t bytes; const void *src; } up[8] = {
        {GPUSVM__TB_NORM, b->npts * (b->sparse ? sizeof(double) : sizeof(float)),
         b->sparse ? (const void *)s->norm_d : (const void *)s->norm},
        {GPUSVM__TB_QD, b->nvar * sizeof(float), s->qd},
        {GPUSVM__TB_Y, b->nvar, s->y},
        {GPUSVM__TB_CV, b->nvar * sizeof(double), s->cv},
        {GPUSVM__TB_G, b->nvar * sizeof(double), s->g0},
        {GPUSVM__TB_STATUS, (size_t)b->nprob * GPUSVM__ST_COUNT * sizeof(double), s->st},
        {GPUSVM__TB_PINFO, (size_t)b->nprob * GPUSVM__PI_COUNT * sizeof(int32_t), s->info},
        {GPUSVM__TB_MAP, npts_all * sizeof(int32_t), s->map}};
    const size_t ws = (size_t)b->nprob * (size_t)b->q;
    const struct { int buf; size_t bytes; } zero[4] = {{GPUSVM__TB_ALPHA, b->nvar * sizeof(double)},
                                                       {GPUSVM__TB_WS_IDX, ws * sizeof(int)},
                                                       {GPUSVM__TB_WS_SLOT, ws * sizeof(int)},
                                                       {GPUSVM__TB_COEF, ws * sizeof(double)}};
    gpusvm_result r = GPUSVM_OK;
    int i;
    for (i = 0; i < 8 && r == GPUSVM_OK; ++i) r = gpusvm__ocl_write(b, b->mem[up[i].buf], 0, up[i].bytes, up[i].src);
    for (i = 0; i < 4 && r == GPUSVM_OK; ++i) r = gpusvm__ocl_fill(b, b->mem[zero[i].buf], zero[i].bytes, 0);
    if (r == GPUSVM_OK && b->cslots) { /* the rows' problem table; no point held, no slot owned or used */
        const size_t cs = (size_t)b->cslots * sizeof(int32_t), head = GPUSVM__RC_HEAD * sizeof(int32_t);
        if ((r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_RINFO], 0, GPUSVM__PI_COUNT * sizeof(int32_t), s->info)) ==
                GPUSVM_OK &&
            (r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_CMAP], b->nvar * sizeof(int32_t), 0xFF)) == GPUSVM_OK &&
            (r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_CSTATE], head + 2 * cs, 0)) == GPUSVM_OK)
            r = gpusvm__ocl_fill_at(b, b->mem[GPUSVM__TB_CSTATE], head, cs, 0xFF);
    }
    return r;
}

/* >>opencl/bind: the kernels' arguments for a batch --------------------------------------------- */

/* The arguments of gpusvm_rows_tiled and gpusvm_rows_few that training and prediction set apart. */
typedef struct gpusvm__rows_args {
    gpusvm__cl_mem A, idx, norm_a, B, norm_b, pinfo, map, slot, K, status;
    gpusvm__cl_int pitch_a, pitch_b, use_map, dpad, ldk, qmax, ktype, degree, a_pos;
    gpusvm__cl_int self; /* the rows' and the columns' points are one set (training) */
    float coef0;         /* gamma: each problem's, in the problem table */
} gpusvm__rows_args;

/* Set: the rows kernels' columns (kernels part 1's b_mode, b_off, b_end; every point: 0, 0, 0). */
static gpusvm_result gpusvm__ocl_rows_cols(gpusvm__ocl *b, gpusvm__cl_int mode, gpusvm__cl_int off, gpusvm__cl_int end)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET_ROWS(b_mode, mode);
    GPUSVM__SET_ROWS(b_off, off);
    GPUSVM__SET_ROWS(b_end, end);
fail:
    return r;
}

/* Set: the update's window of variables (kernels part 4: var_off, var_end, k_off). */
static gpusvm_result gpusvm__ocl_update_window(gpusvm__ocl *b, gpusvm__cl_int off, gpusvm__cl_int end,
                                               gpusvm__cl_int k_off)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET(UPDATE, UPDATE_var_off, off);
    GPUSVM__SET(UPDATE, UPDATE_var_end, end);
    GPUSVM__SET(UPDATE, UPDATE_k_off, k_off);
fail:
    return r;
}

/* Whether dense rows of dpad (padded) features take gpusvm_rows_narrow past GPUSVM__FEW rows. */
static int gpusvm__ocl_narrow_ok(const gpusvm__ocl *b, int ktype, int dpad)
{
    return !b->no_narrow && ktype != GPUSVM__K_PRECOMPUTED && dpad <= GPUSVM__NARROW_D;
}

/* Bind: every argument of the rows kernels but the per-launch range (row_off, nrows, skip_whole). */
static gpusvm_result gpusvm__ocl_bind_rows(gpusvm__ocl *b, const gpusvm__rows_args *ra)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET_ROWS_ALL(A, ra->A);
    GPUSVM__SET_ROWS_ALL(pitch_a, ra->pitch_a);
    GPUSVM__SET_ROWS_ALL(idx, ra->idx);
    GPUSVM__SET_ROWS_ALL(norm_a, ra->norm_a);
    GPUSVM__SET_ROWS_ALL(B, ra->B);
    GPUSVM__SET_ROWS_ALL(pitch_b, ra->pitch_b);
    GPUSVM__SET_ROWS_ALL(norm_b, ra->norm_b);
    GPUSVM__SET_ROWS_ALL(pinfo, ra->pinfo);
    GPUSVM__SET_ROWS_ALL(map, ra->map);
    GPUSVM__SET_ROWS_ALL(use_map, ra->use_map);
    GPUSVM__SET_ROWS_ALL(dpad, ra->dpad);
    GPUSVM__SET_ROWS_ALL(slot, ra->slot);
    GPUSVM__SET_ROWS_ALL(K, ra->K);
    GPUSVM__SET_ROWS_ALL(ldk, ra->ldk);
    GPUSVM__SET_ROWS_ALL(qmax, ra->qmax);
    GPUSVM__SET_ROWS_ALL(ktype, ra->ktype);
    GPUSVM__SET_ROWS_ALL(coef0, ra->coef0);
    GPUSVM__SET_ROWS_ALL(degree, ra->degree);
    GPUSVM__SET_ROWS_ALL(status, ra->status);
    GPUSVM__SET_ROWS_ALL(a_pos, ra->a_pos);
    GPUSVM__SET_ROWS_ALL(self, ra->self);
    b->narrow = gpusvm__ocl_narrow_ok(b, ra->ktype, ra->dpad);
    r = gpusvm__ocl_rows_cols(b, 0, 0, 0);
fail:
    return r;
}

/* The arguments of gpusvm_rows_sparse but the per-launch range (row_off, nrows, skip_whole): the
   rows' points and the columns' points as CSR arrays (ptr, col, val each). */
typedef struct gpusvm__sparse_args {
    gpusvm__cl_mem a[3], b[3], idx, norm_a, norm_b, pinfo, map, slot, K, status;
    gpusvm__cl_int use_map, ldk, qmax, ktype, degree, self;
    float coef0;
} gpusvm__sparse_args;

static gpusvm_result gpusvm__ocl_bind_sparse(gpusvm__ocl *b, const gpusvm__sparse_args *sa)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_a_ptr, sa->a[0]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_a_col, sa->a[1]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_a_val, sa->a[2]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_idx, sa->idx);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_norm_a, sa->norm_a);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_b_ptr, sa->b[0]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_b_col, sa->b[1]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_b_val, sa->b[2]);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_norm_b, sa->norm_b);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_pinfo, sa->pinfo);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_map, sa->map);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_use_map, sa->use_map);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_slot, sa->slot);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_K, sa->K);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_ldk, sa->ldk);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_qmax, sa->qmax);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_ktype, sa->ktype);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_coef0, sa->coef0);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_degree, sa->degree);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_status, sa->status);
    GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_self, sa->self);
fail:
    return r;
}

/* Bind: the sparse rows kernel for a training batch (rows and columns both the batch's points; list:
   the rows' points, their slots and the problem table that counts them, as gpusvm__ocl_bind_train_rows
   chose). */
static gpusvm_result gpusvm__ocl_bind_train_sparse(gpusvm__ocl *b, gpusvm__cl_int use_map, const gpusvm__cl_mem *list)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm__sparse_args sa;
    sa.a[0] = sa.b[0] = m[GPUSVM__TB_X_PTR];
    sa.a[1] = sa.b[1] = m[GPUSVM__TB_X_COL];
    sa.a[2] = sa.b[2] = m[GPUSVM__TB_X_VAL];
    sa.idx = list[0];
    sa.norm_a = sa.norm_b = m[GPUSVM__TB_NORM];
    sa.pinfo = list[2];
    sa.map = m[GPUSVM__TB_MAP];
    sa.use_map = use_map;
    sa.slot = list[1];
    sa.K = m[GPUSVM__TB_K];
    sa.ldk = (gpusvm__cl_int)b->ldk;
    sa.qmax = b->q;
    sa.ktype = b->ktype;
    sa.coef0 = b->coef0;
    sa.degree = b->degree;
    sa.status = m[GPUSVM__TB_STATUS];
    sa.self = 1;
    return gpusvm__ocl_bind_sparse(b, &sa);
}

/* Bind: the row cache's kernel (kernels part 1c). */
static gpusvm_result gpusvm__ocl_bind_row_cache(gpusvm__ocl *b)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int qmax = b->q, cslots = b->cslots;
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_rinfo, m[GPUSVM__TB_RINFO]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_ws_slot0, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_row_idx0, m[GPUSVM__TB_ROW_IDX]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_row_slot0, m[GPUSVM__TB_ROW_SLOT]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_cmap0, m[GPUSVM__TB_CMAP]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_cstate0, m[GPUSVM__TB_CSTATE]);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_cslots, cslots);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_qmax, qmax);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_status, m[GPUSVM__TB_STATUS]);
fail:
    return r;
}

/* Bind: the rows kernels and the working-set gather for a training batch; with the row cache they
   compute its list of missing rows (through its copy of the problem table), else the working set's. */
static gpusvm_result gpusvm__ocl_bind_train_rows(gpusvm__ocl *b, gpusvm__cl_int use_map)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm__rows_args ra;
    gpusvm_result r;
    const gpusvm__cl_int qmax = b->q, pitch = (gpusvm__cl_int)b->pitch, dpad = (gpusvm__cl_int)b->dpad;
    gpusvm__cl_mem list[3]; /* the rows' points, their slots, the problem table that counts them */
    list[0] = m[b->cslots ? GPUSVM__TB_ROW_IDX : GPUSVM__TB_WS_IDX];
    list[1] = m[b->cslots ? GPUSVM__TB_ROW_SLOT : GPUSVM__TB_WS_SLOT];
    list[2] = m[b->cslots ? GPUSVM__TB_RINFO : GPUSVM__TB_PINFO];
    if (b->cslots && (r = gpusvm__ocl_bind_row_cache(b)) != GPUSVM_OK) return r;
    if (b->sparse) return gpusvm__ocl_bind_train_sparse(b, use_map, list);
    ra.a_pos = m[GPUSVM__TB_XW] != NULL; /* A: the gathered working-set vectors, else the points */
    ra.A = ra.a_pos ? m[GPUSVM__TB_XW] : m[GPUSVM__TB_X];
    ra.pitch_a = ra.a_pos ? qmax : pitch;
    ra.idx = list[0];
    ra.norm_a = ra.norm_b = m[GPUSVM__TB_NORM];
    ra.B = m[GPUSVM__TB_X];
    ra.pitch_b = pitch;
    ra.pinfo = list[2];
    ra.map = m[GPUSVM__TB_MAP];
    ra.use_map = use_map;
    ra.dpad = dpad;
    ra.slot = list[1];
    ra.K = m[GPUSVM__TB_K];
    ra.ldk = (gpusvm__cl_int)b->ldk;
    ra.qmax = qmax;
    ra.ktype = b->ktype;
    ra.coef0 = b->coef0;
    ra.degree = b->degree;
    ra.status = m[GPUSVM__TB_STATUS];
    ra.self = 1;
    if ((r = gpusvm__ocl_bind_rows(b, &ra)) != GPUSVM_OK) return r;
    GPUSVM__SET(GATHER_WS, GATHER_WS_X, m[GPUSVM__TB_X]);
    GPUSVM__SET(GATHER_WS, GATHER_WS_pitch, pitch);
    GPUSVM__SET(GATHER_WS, GATHER_WS_idx, list[0]);
    GPUSVM__SET(GATHER_WS, GATHER_WS_pinfo, list[2]);
    GPUSVM__SET(GATHER_WS, GATHER_WS_map, m[GPUSVM__TB_MAP]);
    GPUSVM__SET(GATHER_WS, GATHER_WS_use_map, use_map);
    GPUSVM__SET(GATHER_WS, GATHER_WS_dpad, dpad);
    GPUSVM__SET(GATHER_WS, GATHER_WS_Aw, m[GPUSVM__TB_XW]);
    GPUSVM__SET(GATHER_WS, GATHER_WS_qmax, qmax);
    GPUSVM__SET(GATHER_WS, GATHER_WS_status, m[GPUSVM__TB_STATUS]);
fail:
    return r;
}

/* Bind: the arguments of the grid selection's kernels that stay fixed for the run. */
static gpusvm_result gpusvm__ocl_bind_sel(gpusvm__ocl *b, gpusvm__cl_int nu)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int qmax = b->q, zero = 0, nparts_max = (gpusvm__cl_int)b->nparts_max, cands = b->split;
    int k;
    for (k = GPUSVM__KN_SEL_HIST; k <= GPUSVM__KN_SEL_TAKE; ++k) {
        const struct { unsigned slot; size_t size; const void *v; } a[18] = {
            {GPUSVM__A_SEL_key_up0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_KEY_UP]},
            {GPUSVM__A_SEL_key_low0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_KEY_LOW]},
            {GPUSVM__A_SEL_y0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_Y]},
            {GPUSVM__A_SEL_pinfo, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_PINFO]},
            {GPUSVM__A_SEL_qmax, sizeof qmax, &qmax},
            {GPUSVM__A_SEL_status, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_STATUS]},
            {GPUSVM__A_SEL_sel_g, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_SEL]},
            {GPUSVM__A_SEL_list0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_LIST]},
            {GPUSVM__A_SEL_ws_idx0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_WS_IDX]},
            {GPUSVM__A_SEL_nu, sizeof nu, &nu},
            {GPUSVM__A_SEL_ties0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_PART_UP]},
            {GPUSVM__A_SEL_nparts_max, sizeof nparts_max, &nparts_max},
            {GPUSVM__A_SEL_cands, sizeof cands, &cands}, /* a split problem's lists (gpusvm__ocl_split_post) */
            {GPUSVM__A_SEL_out, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_CANDS]},
            {GPUSVM__A_SEL_G0, sizeof(gpusvm__cl_mem), &m[GPUSVM__TB_G]},
            {GPUSVM__A_SEL_side, sizeof zero, &zero}, /* the per-launch ones, set as they change */
            {GPUSVM__A_SEL_pass, sizeof zero, &zero},
            {GPUSVM__A_SEL_mode_in, sizeof zero, &zero}};
        int i;
        for (i = 0; i < 18; ++i)
            if ((r = gpusvm__ocl_set(b, k, (int)a[i].slot, a[i].size, a[i].v)) != GPUSVM_OK) goto fail;
    }
fail:
    return r;
}

/* The grid selection (kernels part 2) after gpusvm_select's check: side 0's first counting pass;
   then per side its other two, the ties' index threshold and the take (which counts the next
   side's first pass, or after the last side puts the chosen points in order). A split problem's
   lists run the same way after gpusvm_cands (the kernels' cands, bound for the run). */
static gpusvm_result gpusvm__ocl_sel_grid(gpusvm__ocl *b, gpusvm__cl_int md, int nu)
{
    gpusvm_result r = GPUSVM_OK;
    size_t g[2], l[2] = {GPUSVM__L, 1};
    gpusvm__cl_int side = 0, pass = 0;
    int k;
    g[0] = b->nparts_max * GPUSVM__L;
    g[1] = (size_t)b->nprob;
    for (k = GPUSVM__KN_SEL_HIST; k <= GPUSVM__KN_SEL_TAKE; ++k) {
        if ((r = gpusvm__ocl_set(b, k, GPUSVM__A_SEL_mode_in, sizeof md, &md)) != GPUSVM_OK ||
            (r = gpusvm__ocl_set(b, k, GPUSVM__A_SEL_side, sizeof side, &side)) != GPUSVM_OK)
            goto fail;
    }
    GPUSVM__SET(SEL_HIST, SEL_pass, pass);
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_SEL_HIST, 2, g, l)) != GPUSVM_OK) return r;
    for (side = 0; side < (b->split ? GPUSVM__CO_NLISTS(nu) : GPUSVM__SIDES(nu)); ++side) {
        for (k = GPUSVM__KN_SEL_HIST; k <= GPUSVM__KN_SEL_TAKE && side > 0; ++k)
            if ((r = gpusvm__ocl_set(b, k, GPUSVM__A_SEL_side, sizeof side, &side)) != GPUSVM_OK) goto fail;
        for (pass = 1; pass < 3; ++pass) {
            GPUSVM__SET(SEL_HIST, SEL_pass, pass);
            if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_SEL_HIST, 2, g, l)) != GPUSVM_OK) return r;
        }
        if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_SEL_TIES, 2, g, l)) != GPUSVM_OK ||
            (r = gpusvm__ocl_launch(b, GPUSVM__KN_SEL_TAKE, 2, g, l)) != GPUSVM_OK)
            return r;
    }
fail:
    return r;
}

/* Bind: the arguments of the selection that stay fixed for the whole run. */
static gpusvm_result gpusvm__ocl_bind_train_select(gpusvm__ocl *b, gpusvm__cl_int nu)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int qmax = b->q, nparts_max = (gpusvm__cl_int)b->nparts_max;
    GPUSVM__SET(KEYS, KEYS_G0, m[GPUSVM__TB_G]);
    GPUSVM__SET(KEYS, KEYS_alpha0, m[GPUSVM__TB_ALPHA]);
    GPUSVM__SET(KEYS, KEYS_y0, m[GPUSVM__TB_Y]);
    GPUSVM__SET(KEYS, KEYS_Cv0, m[GPUSVM__TB_CV]);
    GPUSVM__SET(KEYS, KEYS_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(KEYS, KEYS_nparts_max, nparts_max);
    GPUSVM__SET(KEYS, KEYS_key_up0, m[GPUSVM__TB_KEY_UP]);
    GPUSVM__SET(KEYS, KEYS_key_low0, m[GPUSVM__TB_KEY_LOW]);
    GPUSVM__SET(KEYS, KEYS_part_up0, m[GPUSVM__TB_PART_UP]);
    GPUSVM__SET(KEYS, KEYS_part_low0, m[GPUSVM__TB_PART_LOW]);
    GPUSVM__SET(KEYS, KEYS_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(KEYS, KEYS_nu, nu);
    GPUSVM__SET_SELECT(key_up0, m[GPUSVM__TB_KEY_UP]);
    GPUSVM__SET_SELECT(key_low0, m[GPUSVM__TB_KEY_LOW]);
    GPUSVM__SET_SELECT(pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET_SELECT(nparts_max, nparts_max);
    GPUSVM__SET_SELECT(qmax, qmax);
    GPUSVM__SET_SELECT(part_up0, m[GPUSVM__TB_PART_UP]);
    GPUSVM__SET_SELECT(part_low0, m[GPUSVM__TB_PART_LOW]);
    GPUSVM__SET_SELECT(ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET_SELECT(ws_slot0, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET_SELECT(status0, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET_SELECT(y0, m[GPUSVM__TB_Y]);
    GPUSVM__SET_SELECT(nu, nu);
    GPUSVM__SET_SELECT(sel_g, m[GPUSVM__TB_SEL]);
    return gpusvm__ocl_bind_sel(b, nu);
fail:
    return r;
}

/* Bind: the arguments of the inner solve and the gradient update that stay fixed for the run. */
static gpusvm_result gpusvm__ocl_bind_train_solve(gpusvm__ocl *b, gpusvm__cl_int nu)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int qmax = b->q, ldk = (gpusvm__cl_int)b->ldk, whole_inner = GPUSVM__WHOLE_INNER, one = 1,
                         zero = 0;
    GPUSVM__SET(GATHER, GATHER_K0, m[GPUSVM__TB_K]);
    GPUSVM__SET(GATHER, GATHER_ldk, ldk);
    GPUSVM__SET(GATHER, GATHER_Kq0, m[GPUSVM__TB_KQ]);
    GPUSVM__SET(GATHER, GATHER_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(GATHER, GATHER_qmax, qmax);
    GPUSVM__SET(GATHER, GATHER_ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(GATHER, GATHER_ws_slot0, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(GATHER, GATHER_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(SMO, SMO_Kq0, m[GPUSVM__TB_KQ]);
    GPUSVM__SET(SMO, SMO_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(SMO, SMO_qmax, qmax);
    GPUSVM__SET(SMO, SMO_ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(SMO, SMO_alpha0, m[GPUSVM__TB_ALPHA]);
    GPUSVM__SET(SMO, SMO_G0, m[GPUSVM__TB_G]);
    GPUSVM__SET(SMO, SMO_y0, m[GPUSVM__TB_Y]);
    GPUSVM__SET(SMO, SMO_Cv0, m[GPUSVM__TB_CV]);
    GPUSVM__SET(SMO, SMO_qd0, m[GPUSVM__TB_QD]);
    GPUSVM__SET(SMO, SMO_coef0, m[GPUSVM__TB_COEF]);
    GPUSVM__SET(SMO, SMO_whole_inner, whole_inner);
    GPUSVM__SET(SMO, SMO_status0, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(SMO, SMO_nu, nu);
    GPUSVM__SET(UPDATE, UPDATE_out0, m[GPUSVM__TB_G]);
    GPUSVM__SET(UPDATE, UPDATE_y0, m[GPUSVM__TB_Y]);
    GPUSVM__SET(UPDATE, UPDATE_use_y, one);
    GPUSVM__SET(UPDATE, UPDATE_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(UPDATE, UPDATE_qmax, qmax);
    GPUSVM__SET(UPDATE, UPDATE_K0, m[GPUSVM__TB_K]);
    GPUSVM__SET(UPDATE, UPDATE_ldk, ldk);
    GPUSVM__SET(UPDATE, UPDATE_slot0, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(UPDATE, UPDATE_coef0, m[GPUSVM__TB_COEF]);
    GPUSVM__SET(UPDATE, UPDATE_m_in, qmax);
    GPUSVM__SET(UPDATE, UPDATE_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(UPDATE, UPDATE_coef_off, zero);
    GPUSVM__SET(UPDATE, UPDATE_out_off, zero);
    r = gpusvm__ocl_update_window(b, 0, INT_MAX, 0);
fail:
    return r;
}

/* >>opencl/rows: kernel rows: tiled, few, narrow, sparse, the row cache ------------------------- */

/* Kernel rows [off, off + nr) of every problem's working set against `cols` points: sparse points
   gpusvm_rows_sparse (GPUSVM__SPARSE_ROWS rows x GPUSVM__SPARSE_BLOCKS blocks of points per work-group); dense, up to
   GPUSVM__FEW rows (or any number with few: rows expected to be mostly skipped) gpusvm_rows_few (one
   work-item per point, a group of GPUSVM__FEW rows per grid row), more of at most GPUSVM__NARROW_D padded
   features (b->narrow, set when the rows were bound) gpusvm_rows_narrow (one work-item per point, a
   group of b->nar_r rows per grid row), else the tiles of gpusvm_rows_tiled (16 x 16 work-items per
   GPUSVM__TILE x GPUSVM__TILE block). With gather (training, when the gathered
   working-set buffer exists) the rows' vectors are gathered first (gpusvm_gather_ws). The other
   arguments are bound by the caller. */
static gpusvm_result gpusvm__ocl_rows_launch(gpusvm__ocl *b, int sparse, int off, int nr, int skip, size_t cols,
                                             int nprob, int gather, int few)
{
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int off_ = off, nr_ = nr, skip_ = skip;
    size_t g[3], l[3] = {GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1};
    if (nr <= 0) return GPUSVM_OK;
    g[2] = (size_t)nprob;
    if (sparse) {
        GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_row_off, off_);
        GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_nrows, nr_);
        GPUSVM__SET(ROWS_SPARSE, ROWS_SPARSE_skip_whole, skip_);
        const size_t pts = (size_t)GPUSVM__SPARSE_L / GPUSVM__SPARSE_LANES * GPUSVM__SPARSE_BLOCKS; /* points per work-group */
        g[0] = (cols + pts - 1) / pts * GPUSVM__SPARSE_L;
        g[1] = ((size_t)nr + GPUSVM__SPARSE_ROWS - 1) / GPUSVM__SPARSE_ROWS;
        l[0] = GPUSVM__SPARSE_L;
        l[1] = 1;
        return gpusvm__ocl_launch(b, GPUSVM__KN_ROWS_SPARSE, 3, g, l);
    }
    if (gather && b->mem[GPUSVM__TB_XW]) {
        size_t lg[3] = {GPUSVM__COPY_L, 1, 1};
        g[0] = gpusvm__round_up((size_t)nr, GPUSVM__COPY_L);
        g[1] = b->dpad;
        GPUSVM__SET(GATHER_WS, GATHER_WS_row_off, off_);
        GPUSVM__SET(GATHER_WS, GATHER_WS_nrows, nr_);
        GPUSVM__SET(GATHER_WS, GATHER_WS_skip_whole, skip_);
        if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_GATHER_WS, 3, g, lg)) != GPUSVM_OK) return r;
    }
    GPUSVM__SET_ROWS(row_off, off_);
    GPUSVM__SET_ROWS(nrows, nr_);
    GPUSVM__SET_ROWS(skip_whole, skip_);
    if (nr <= GPUSVM__FEW || few) {
        g[0] = gpusvm__round_up(cols, GPUSVM__FEW_L);
        g[1] = ((size_t)nr + GPUSVM__FEW - 1) / GPUSVM__FEW;
        l[0] = GPUSVM__FEW_L;
        l[1] = 1;
        return gpusvm__ocl_launch(b, GPUSVM__KN_ROWS_FEW, 3, g, l);
    }
    if (b->narrow) {
        g[0] = gpusvm__round_up(cols, GPUSVM__NARROW_L);
        g[1] = ((size_t)nr + (size_t)b->nar_r - 1) / (size_t)b->nar_r;
        l[0] = GPUSVM__NARROW_L;
        l[1] = 1;
        return gpusvm__ocl_launch(b, GPUSVM__KN_ROWS_NARROW, 3, g, l);
    }
    g[0] = gpusvm__round_up(cols, GPUSVM__TILE) / GPUSVM__TILE * GPUSVM__TILE_WI;
    g[1] = gpusvm__round_up((size_t)nr, GPUSVM__TILE) / GPUSVM__TILE * GPUSVM__TILE_WI;
    r = gpusvm__ocl_launch(b, GPUSVM__KN_ROWS, 3, g, l);
fail:
    return r;
}

/* >>opencl/stream: points streamed through the device in tiles ----------------------------------
   Data larger than the device: the points stay on the host (b->host_tiles) and pass through the device a tile at a time.
   A round's rows step computes the q x q block from the working set's vectors (gathered on the
   host: kernels part 1's b_mode 2, into KQ, so the inner solve needs no gather); its update step
   computes, tile by tile, the rows of the variables the inner solve moved against the tile's
   points and adds them to its gradients as they are computed (kernels part 4's
   gpusvm_rows_update: no rows are kept, so the budget goes to the tiles). Both are the products
   and sums of the resident path, in the same order, so the model is the resident model. With one
   or two tiles they stay on the device. */

/* Row `row`'s vector into row pos of the gather's room behind host_xw (a row a point: writing
   host_xw's columns directly puts a point's features q floats apart, and with q a power of two
   they share a few cache sets: on the 2-core VM 290 us for 512 points of 64 features, against 32
   us through the room), from the problem's points (their rows: a gather from the tiles would
   read a cache line per feature). */
static void gpusvm__ocl_stream_vector(gpusvm__ocl *b, size_t row, size_t pos)
{
    const gpusvm__csr *x = &b->sp.x;
    float *v = b->host_xw + (size_t)b->q * b->dpad + pos * b->dpad;
    size_t j;
    memset(v, 0, b->dpad * sizeof(float));
    for (j = x->row_ptr[row]; j < x->row_ptr[row + 1]; ++j) v[x->col[j]] = x->val[j];
}

/* bytes of page-locked host memory for the tiles (b->pin, mapped), so that their copies to the
   device run at the bus's speed without a staging copy (H100, 1M x 64 points, 125 tiles a round:
   pageable 51.1 s); NULL where the driver gives none. */
static float *gpusvm__ocl_pinned(gpusvm__ocl *b, size_t bytes)
{
    gpusvm__cl_int e = 0;
    void *host;
    b->pin = b->cl->clCreateBuffer(b->cctx, GPUSVM__CL_MEM_READ_WRITE | GPUSVM__CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
    if (e != 0 || !b->pin) {
        b->pin = NULL;
        return NULL;
    }
    host = b->cl->clEnqueueMapBuffer(b->queue, b->pin, GPUSVM__CL_TRUE, GPUSVM__CL_MAP_READ | GPUSVM__CL_MAP_WRITE, 0,
                                     bytes, 0, NULL, NULL, &e);
    if (e != 0 || !host) {
        b->cl->clReleaseMemObject(b->pin);
        b->pin = NULL;
        return NULL;
    }
    return (float *)host;
}

/* The host's tiles of problem p's points, and its copies of the working set. */
static gpusvm_result gpusvm__ocl_stream_begin(gpusvm__ocl *b, const gpusvm__problem *p)
{
    const gpusvm_allocator *a = &b->base.ctx->alloc;
    const size_t T = b->tile, q = (size_t)b->q, per = T * b->dpad, B = q < 16 ? q : 16;
    gpusvm__cl_int e = 0;
    size_t words, k;
    if (!gpusvm__mul(b->ntiles, per, &words) || words > (size_t)-1 / sizeof(float))
        return gpusvm__oom(b->base.ctx, "the host's tiles of streamed points");
    if (!(b->host_tiles = gpusvm__ocl_pinned(b, words * sizeof(float))))
        gpusvm__log(b->base.ctx, GPUSVM_LOG_DEBUG, "data: no page-locked host memory for the tiles (pageable copies)");
    if ((!b->host_tiles && !(b->host_tiles = (float *)gpusvm__alloc(a, words, sizeof(float)))) ||
        !(b->host_xw = (float *)gpusvm__alloc(a, 2 * q * b->dpad, sizeof(float))) ||
        !(b->host_ws = (int32_t *)gpusvm__alloc(a, 2 * q, sizeof(int32_t))) ||
        !(b->host_coef = (double *)gpusvm__alloc(a, 2 * q, sizeof(double))) ||
        !(b->host_rows = (size_t *)gpusvm__alloc(a, q, sizeof(size_t))))
        return gpusvm__oom(b->base.ctx, "the host's tiles of streamed points");
    b->copyq = b->cl->clCreateCommandQueue(b->cctx, b->dev, 0, &e);
    if (e != 0 || !b->copyq) {
        b->copyq = NULL;
        return gpusvm__cl_fail(b->base.ctx, e ? e : -1, "clCreateCommandQueue (the tiles' copies)", __LINE__);
    }
    memset(b->host_tiles, 0, words * sizeof(float));
    b->sp = *p;
    /* 16 points at a time through the gather's room (gpusvm__ocl_stream_vector), then into the
       tiles' columns a cache line at a time (a point's features straight into the columns are a
       tile apart: a cache miss each) */
    for (k = 0; k < b->phi - b->plo; k += B) {
        const size_t nb = b->phi - b->plo - k < B ? b->phi - b->plo - k : B;
        size_t at[16], i, f;
        for (i = 0; i < nb; ++i) {
            gpusvm__ocl_stream_vector(b, gpusvm__map_pt(p, b->plo + k + i), i);
            at[i] = (k + i) / T * per + (k + i) % T;
        }
        for (f = 0; f < b->dpad; ++f)
            for (i = 0; i < nb; ++i) b->host_tiles[at[i] + f * T] = b->host_xw[q * b->dpad + i * b->dpad + f];
    }
    b->held[0] = b->held[1] = (size_t)-1;
    return GPUSVM_OK;
}

/* The rows' slots: position r's row is row r (the block's, and the update's rows'). */
static gpusvm_result gpusvm__ocl_stream_slots(gpusvm__ocl *b)
{
    int32_t *slot = b->host_ws + b->q;
    int r;
    for (r = 0; r < b->q; ++r) slot[r] = r;
    return gpusvm__ocl_write(b, b->mem[GPUSVM__TB_S_SLOT], 0, (size_t)b->q * sizeof(int32_t), slot);
}

/* Set: the rows kernels' columns, output rows and list for a streamed launch. */
static gpusvm_result gpusvm__ocl_stream_bind(gpusvm__ocl *b, gpusvm__cl_mem B, gpusvm__cl_int pitch_b,
                                             gpusvm__cl_mem K, gpusvm__cl_int ldk, gpusvm__cl_mem idx)
{
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET_ROWS(B, B);
    GPUSVM__SET_ROWS(pitch_b, pitch_b);
    GPUSVM__SET_ROWS(K, K);
    GPUSVM__SET_ROWS(ldk, ldk);
    GPUSVM__SET_ROWS(idx, idx);
    GPUSVM__SET_ROWS(slot, b->mem[GPUSVM__TB_S_SLOT]);
fail:
    return r;
}

/* The working set ws's vectors into host_xw (a variable out of range, once the problem is done:
   point 0's, never read). */
static void gpusvm__ocl_stream_gather(gpusvm__ocl *b, const int32_t *ws)
{
    const size_t q = (size_t)b->q, dp = b->dpad;
    const gpusvm__csr *x = &b->sp.x;
    const float *rows = b->host_xw + q * dp;
    size_t *row = b->host_rows, pos, p0, f, j;
    /* the points' rows are scattered over the data (1M x 64: 512 MB): their lines asked for
       first, every one at once, then read (the memory's latency once, not once a point) */
    for (pos = 0; pos < q; ++pos) {
        const int32_t v = ws[pos];
        row[pos] = gpusvm__map_pt(&b->sp, GPUSVM__PT(v >= 0 && (size_t)v < b->nvar ? (size_t)v : 0, b->npts0));
        GPUSVM__PREFETCH(&x->row_ptr[row[pos]]);
    }
    for (pos = 0; pos < q; ++pos)
        for (j = x->row_ptr[row[pos]]; j < x->row_ptr[row[pos] + 1]; j += 16) {
            GPUSVM__PREFETCH(&x->col[j]);
            GPUSVM__PREFETCH(&x->val[j]);
        }
    for (pos = 0; pos < q; ++pos) gpusvm__ocl_stream_vector(b, row[pos], pos);
    for (p0 = 0; p0 < q; p0 += 16) /* into columns, a cache line of each at a time */
        for (f = 0; f < dp; ++f)
            for (pos = p0; pos < p0 + 16 && pos < q; ++pos) b->host_xw[f * q + pos] = rows[pos * dp + f];
}

/* The rows step: the working set read back and its vectors gathered (a split problem's: both
   merged, gpusvm__ocl_split_merge), the vectors uploaded, its q x q block computed into KQ. */
static gpusvm_result gpusvm__ocl_stream_block(gpusvm__ocl *b)
{
    const size_t q = (size_t)b->q, dp = b->dpad;
    const gpusvm__cl_int qi = b->q;
    gpusvm_result r;
    if (b->split) { /* its vectors gathered with the merge */
        memcpy(b->host_ws, b->ws_new, q * sizeof(int32_t));
    } else {
        if ((r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_WS_IDX], q * sizeof(int32_t), b->host_ws)) != GPUSVM_OK) return r;
        gpusvm__ocl_stream_gather(b, b->host_ws);
    }
    if ((r = gpusvm__ocl_write_nb(b, b->mem[GPUSVM__TB_XW], q * dp * sizeof(float), b->host_xw)) != GPUSVM_OK ||
        (r = gpusvm__ocl_stream_bind(b, b->mem[GPUSVM__TB_XW], qi, b->mem[GPUSVM__TB_KQ], qi,
                                     b->mem[GPUSVM__TB_WS_IDX])) != GPUSVM_OK ||
        (r = gpusvm__ocl_rows_cols(b, 2, 0, 0)) != GPUSVM_OK)
        return r;
    return gpusvm__ocl_rows_launch(b, 0, 0, qi, 0, q, 1, 0, 0);
}

/* The update's rows: the working set's positions whose coefficient is not 0, in order (the
   resident update's sum skips the others), their variables, coefficients and vectors uploaded;
   their count. */
static gpusvm_result gpusvm__ocl_stream_moved(gpusvm__ocl *b, int *cnt)
{
    const size_t q = (size_t)b->q, dp = b->dpad;
    int32_t *idx = b->host_ws + q;
    double *coef = b->host_coef + q;
    gpusvm_result r;
    size_t pos, f, m = 0;
    if ((r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_COEF], q * sizeof(double), b->host_coef)) != GPUSVM_OK) return r;
    for (pos = 0; pos < q; ++pos) {
        if (b->host_coef[pos] == 0.0) continue;
        idx[m] = b->host_ws[pos];
        coef[m] = b->host_coef[pos];
        for (f = 0; f < dp; ++f) b->host_xw[f * q + m] = b->host_xw[f * q + pos];
        ++m;
    }
    *cnt = (int)m;
    if (m == 0) return GPUSVM_OK;
    if ((r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_S_IDX], 0, m * sizeof(int32_t), idx)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_S_COEF], 0, m * sizeof(double), coef)) != GPUSVM_OK)
        return r;
    return gpusvm__ocl_write(b, b->mem[GPUSVM__TB_XW], 0, q * dp * sizeof(float), b->host_xw);
}

/* Tile t on its way to its buffer (X for even t, XT for odd) on the copy queue, once the rows
   that read the buffer's last tile are done; nothing when it is there or on its way. */
static gpusvm_result gpusvm__ocl_stream_fetch(gpusvm__ocl *b, size_t t)
{
    const size_t h = t % 2, words = b->tile * b->dpad;
    gpusvm__cl_event ev = NULL;
    gpusvm_result r = GPUSVM_OK;
    if (t >= b->ntiles || b->held[h] == t) return GPUSVM_OK;
    b->held[h] = (size_t)-1;
    GPUSVM__CL(b->base.ctx, b->cl->clEnqueueWriteBuffer(b->copyq, b->mem[h ? GPUSVM__TB_XT : GPUSVM__TB_X],
                                                        GPUSVM__CL_FALSE, 0, words * sizeof(float),
                                                        b->host_tiles + t * words, b->used[h] ? 1 : 0,
                                                        b->used[h] ? &b->used[h] : NULL, &ev));
    gpusvm__ocl_event_drop(b, &b->copied[h]);
    b->copied[h] = ev;
    b->held[h] = t;
    GPUSVM__CL(b->base.ctx, b->cl->clFlush(b->copyq));
fail:
    return r;
}

/* One tile of the update: once its copy is done (the kernels' queue waits on it), the moved
   variables' rows against its points, added to its points' gradients as they are computed
   (gpusvm_rows_update); the next tile's copy starts behind them. */
static gpusvm_result gpusvm__ocl_stream_tile(gpusvm__ocl *b, size_t t)
{
    const size_t T = b->tile, c0 = b->plo + t * T, c1 = c0 + T < b->phi ? c0 + T : b->phi, h = t % 2;
    size_t g[3], l[3] = {GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1};
    const gpusvm__cl_int off = (gpusvm__cl_int)c0, end = (gpusvm__cl_int)c1;
    gpusvm__cl_event ev = NULL;
    gpusvm_result r = GPUSVM_OK;
    if ((r = gpusvm__ocl_stream_fetch(b, t)) != GPUSVM_OK) return r;
    if (b->copied[h]) {
        GPUSVM__CL(b->base.ctx, b->cl->clEnqueueBarrierWithWaitList(b->queue, 1, &b->copied[h], NULL));
        gpusvm__ocl_event_drop(b, &b->copied[h]);
    }
    GPUSVM__SET(ROWS_UPD, ROWS_B, b->mem[h ? GPUSVM__TB_XT : GPUSVM__TB_X]); /* the rest: gpusvm__ocl_stream_update */
    GPUSVM__SET(ROWS_UPD, ROWS_b_off, off);
    GPUSVM__SET(ROWS_UPD, ROWS_b_end, end);
    g[0] = gpusvm__round_up(c1 - c0, GPUSVM__TILE) / GPUSVM__TILE * GPUSVM__TILE_WI;
    g[1] = GPUSVM__TILE_WI;
    g[2] = 1;
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_ROWS_UPD, 3, g, l)) != GPUSVM_OK) return r;
    GPUSVM__CL(b->base.ctx, b->cl->clEnqueueMarkerWithWaitList(b->queue, 0, NULL, &ev));
    gpusvm__ocl_event_drop(b, &b->used[h]);
    b->used[h] = ev;
    GPUSVM__CL(b->base.ctx, b->cl->clFlush(b->queue));
    r = gpusvm__ocl_stream_fetch(b, t + 1);
fail:
    return r;
}

/* The update step: the moved variables' rows, tile by tile, into every gradient; then the next
   round's first two tiles set off, to arrive while it selects and solves. */
static gpusvm_result gpusvm__ocl_stream_update(gpusvm__ocl *b)
{
    const gpusvm__cl_int T = (gpusvm__cl_int)b->tile, one = 1, zero = 0;
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int cnt = 0;
    size_t t;
    if ((r = gpusvm__ocl_stream_moved(b, &cnt)) != GPUSVM_OK || cnt == 0) return r;
    GPUSVM__SET(ROWS_UPD, ROWS_pitch_b, T);
    GPUSVM__SET(ROWS_UPD, ROWS_idx, b->mem[GPUSVM__TB_S_IDX]);
    GPUSVM__SET(ROWS_UPD, ROWS_b_mode, one);
    GPUSVM__SET(ROWS_UPD, ROWS_row_off, zero);
    GPUSVM__SET(ROWS_UPD, ROWS_nrows, cnt);
    GPUSVM__SET(ROWS_UPD, ROWS_skip_whole, zero);
    GPUSVM__SET(ROWS_UPD, ROWS_UPD_out0, b->mem[GPUSVM__TB_G]);
    GPUSVM__SET(ROWS_UPD, ROWS_UPD_y0, b->mem[GPUSVM__TB_Y]);
    GPUSVM__SET(ROWS_UPD, ROWS_UPD_coef, b->mem[GPUSVM__TB_S_COEF]);
    for (t = 0; t < b->ntiles && r == GPUSVM_OK; ++t) r = gpusvm__ocl_stream_tile(b, t);
    if (r == GPUSVM_OK && (r = gpusvm__ocl_stream_fetch(b, 0)) == GPUSVM_OK) r = gpusvm__ocl_stream_fetch(b, 1);
fail:
    return r;
}

/* >>opencl/split: one problem split by rows (the split table) -----------------------------------
   A problem split by rows (the plan's parts > 1: the multi section's devices, or desc.split's processes)
   runs as a streamed problem over this part's share of the points only: its tiles hold the share,
   its update the share's gradients. Each round every part reports (kernels part 2's gpusvm_cands)
   m and M over its share and its share's most violating candidates with their gradients; every
   part merges all reports alike (gpusvm__split_merge), into the working set one device chooses,
   and sets the working set's gradients from the parts that hold them. The q x q block comes from
   the working set's vectors, so every part runs the same inner solve on the same numbers and
   keeps every alpha; the model is the one-device model. */

/* A problem split by rows, merged (the OpenCL backend's parts, kernels part 0's GPUSVM__CO_*):
   every part's report (GPUSVM__CO_WORDS(q) words, in part order) into the status and working set
   one device gives. m and M are the parts' maximum and minimum; the sides (GPUSVM__SIDE_*) take
   the smallest (key, variable) pairs of the parts' lists, as gpusvm_select takes them from every
   key: a side wants at most q - h, and each part listed its q - h smallest of every list, so the
   pairs a side takes are listed. The chosen go in ascending order after the kept half, with the
   gradients their parts reported. */
typedef struct gpusvm__split_in {
    const uint64_t *reps;
    int parts, q, nu, mode; /* mode: gpusvm_select's (0 first round, 1 keep half) */
    size_t npts;            /* variable v is point GPUSVM__PT(v, npts), of part gpusvm__part_of */
    double eps, max_iter;
    uint64_t *scratch;      /* parts x GPUSVM__CO_LISTS x q x 2 + 6 q words */
} gpusvm__split_in;

typedef struct gpusvm__cand {
    uint64_t key; /* key << 32 | variable */
    double g;
} gpusvm__cand;

static double gpusvm__word_double(uint64_t w)
{
    double d;
    memcpy(&d, &w, sizeof d);
    return d;
}

/* c[0..n) as a heap of the smallest key first, from position i down (gpusvm__cand_heap: all of it);
   gpusvm__cand_pop takes the smallest. The merge takes a few hundred of a list's parts x q
   candidates in order: a heap gives them without sorting the rest (4 parts, q = 512, the 2-core
   VM: 10 us a merge, against 68 us with qsort and its comparison calls). */
static void gpusvm__cand_sift(gpusvm__cand *c, size_t n, size_t i)
{
    const gpusvm__cand x = c[i];
    size_t k;
    while ((k = 2 * i + 1) < n) {
        if (k + 1 < n && c[k + 1].key < c[k].key) ++k;
        if (!(c[k].key < x.key)) break;
        c[i] = c[k];
        i = k;
    }
    c[i] = x;
}

static void gpusvm__cand_heap(gpusvm__cand *c, size_t n)
{
    size_t i = n / 2;
    while (i-- > 0) gpusvm__cand_sift(c, n, i);
}

static gpusvm__cand gpusvm__cand_pop(gpusvm__cand *c, size_t *n)
{
    const gpusvm__cand top = c[0];
    c[0] = c[--*n];
    gpusvm__cand_sift(c, *n, 0);
    return top;
}

/* v into the open-addressing set (mask + 1 words, 0 empty): 1 if it was not there. */
static int gpusvm__set_add(uint64_t *set, size_t mask, uint32_t v)
{
    size_t at = ((size_t)v * 2654435761u) & mask;
    while (set[at] && set[at] != (uint64_t)v + 1) at = (at + 1) & mask;
    if (set[at]) return 0;
    set[at] = (uint64_t)v + 1;
    return 1;
}

/* The stop test over every part's m and M, into st (the status row); 1 while running. */
static int gpusvm__split_ends(const gpusvm__split_in *in, double *st)
{
    const size_t words = GPUSVM__CO_WORDS((size_t)in->q);
    double up[2] = {-INFINITY, -INFINITY}, low[2] = {INFINITY, INFINITY}, gap;
    int r, c, worst, done;
    for (r = 0; r < in->parts; ++r)
        for (c = 0; c < 2; ++c) {
            const uint64_t *e = in->reps + (size_t)r * words + GPUSVM__CO_ENDS;
            const double u = gpusvm__word_double(e[c]), l = gpusvm__word_double(e[2 + c]);
            if (u > up[c]) up[c] = u;
            if (l < low[c]) low[c] = l;
        }
    worst = (in->nu && up[1] - low[1] > up[0] - low[0]) ? 1 : 0;
    gap = up[worst] - low[worst];
    done = GPUSVM__STOP_RULE(GPUSVM__GE, gap, in->eps, st[GPUSVM__ST_ITER], in->max_iter);
    st[GPUSVM__ST_GAP] = gap;
    st[GPUSVM__ST_MUP] = up[worst];
    st[GPUSVM__ST_MLOW] = low[worst];
    st[GPUSVM__ST_DONE] = (double)done;
    if (!done) st[GPUSVM__ST_OUTER] += 1.0;
    return !done;
}

/* List l of every part into out, as a heap (gpusvm__cand_heap); its length. */
static size_t gpusvm__split_list(const gpusvm__split_in *in, int l, gpusvm__cand *out)
{
    const size_t q = (size_t)in->q, words = GPUSVM__CO_WORDS(q);
    size_t n = 0, r, t;
    for (r = 0; r < (size_t)in->parts; ++r) {
        const uint64_t *li = in->reps + r * words + GPUSVM__CO_LIST(q, l);
        const size_t cnt = li[0] < q ? (size_t)li[0] : q;
        for (t = 0; t < cnt; ++t) {
            out[n].key = li[1 + t];
            out[n++].g = gpusvm__word_double(li[1 + q + t]);
        }
    }
    gpusvm__cand_heap(out, n);
    return n;
}

/* Returns -1 when the problem had stopped (nothing to write), 0 when it stops now (st only),
   1 with a new working set in idx, slot and gws (q each). */
static int gpusvm__split_merge(const gpusvm__split_in *in, double *st, int32_t *idx, int32_t *slot, double *gws)
{
    const size_t q = (size_t)in->q, words = GPUSVM__CO_WORDS(q), per = (size_t)in->parts * q;
    const uint64_t *r0 = in->reps;
    const int nl = in->nu ? 4 : 2, h = in->mode == 1 ? in->q / 2 : 0, fresh = in->q - h;
    gpusvm__cand *list = (gpusvm__cand *)(void *)in->scratch, *chosen = list + (size_t)nl * per;
    uint64_t *set = in->scratch + (size_t)GPUSVM__CO_LISTS * per * 2 + 2 * q;
    size_t len[GPUSVM__CO_LISTS], mask = 1, t, n;
    int side, l, got = 0;
    for (t = 0; t < GPUSVM__ST_COUNT; ++t) st[t] = gpusvm__word_double(r0[t]);
    if (st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return -1;
    if (!gpusvm__split_ends(in, st)) return 0;
    for (t = 0; t < q; ++t) { /* the previous set, each gradient from the part that holds it */
        const int r = gpusvm__part_of(in->npts, in->parts, GPUSVM__PT((size_t)(uint32_t)r0[GPUSVM__CO_IDX + t], in->npts));
        idx[t] = (int32_t)r0[GPUSVM__CO_IDX + t];
        slot[t] = (int32_t)r0[GPUSVM__CO_SLOT(q) + t];
        gws[t] = gpusvm__word_double(in->reps[(size_t)r * words + GPUSVM__CO_G(q) + t]);
    }
    for (t = 0; t < (size_t)h; ++t) { /* the newest half to the front, the dropped half's slots behind */
        const int32_t s = slot[t];
        idx[t] = idx[h + t];
        gws[t] = gws[h + t];
        slot[t] = slot[h + t];
        slot[h + t] = s;
    }
    for (l = 0; l < nl; ++l) len[l] = gpusvm__split_list(in, l, list + (size_t)l * per);
    while (mask < 2 * q) mask <<= 1;
    memset(set, 0, mask * sizeof *set);
    --mask;
    for (side = 0; side < GPUSVM__SIDES(in->nu); ++side) {
        const int low = GPUSVM__SIDE_LOW(side, in->nu), cls = GPUSVM__SIDE_CLS(side, in->nu);
        /* the lists of its keys and class (GPUSVM__CO_LOW, GPUSVM__CO_CLS): with nu and either class both */
        const int la = low + (cls < 0 ? 2 : 0), lb = (in->nu && cls == 0) ? la + 2 : -1;
        gpusvm__cand *A = list + (size_t)la * per, *B = lb >= 0 ? list + (size_t)lb * per : NULL;
        int want = GPUSVM__SIDE_UPTO(side, in->nu, fresh) - got;
        /* A and B merged in order; what an earlier side popped from them is in the set already */
        while (want > 0 && (len[la] || (B && len[lb]))) {
            const int from_a = !B || !len[lb] || (len[la] && A[0].key < B[0].key);
            const gpusvm__cand c = from_a ? gpusvm__cand_pop(A, &len[la]) : gpusvm__cand_pop(B, &len[lb]);
            if (!gpusvm__set_add(set, mask, (uint32_t)(c.key & 0xFFFFFFFFu))) continue;
            chosen[got].key = c.key & 0xFFFFFFFFu; /* in ascending variable order below */
            chosen[got++].g = c.g;
            --want;
        }
    }
    gpusvm__cand_heap(chosen, (size_t)got);
    for (t = 0, n = (size_t)got; t < (size_t)got; ++t) {
        const gpusvm__cand c = gpusvm__cand_pop(chosen, &n);
        idx[h + t] = (int32_t)c.key;
        gws[h + t] = c.g;
    }
    return 1;
}

/* The rows step of a split problem whose share stays on the device (one tile): the q x q block
   (gpusvm__ocl_stream_block), then the new half's rows (every row in the first round) against the
   share into the working set's slots, where the next round finds the kept half's, as one device
   keeps them; the update then reads every position's row (gpusvm__ocl_split_update). */
static gpusvm_result gpusvm__ocl_split_rows(gpusvm__ocl *b, int first)
{
    const gpusvm__cl_int T = (gpusvm__cl_int)b->tile, h = first ? 0 : b->q / 2;
    gpusvm_result r;
    if ((r = gpusvm__ocl_stream_block(b)) != GPUSVM_OK || (r = gpusvm__ocl_stream_fetch(b, 0)) != GPUSVM_OK) return r;
    if (b->copied[0]) { /* the share's one copy, before the first rows read it */
        GPUSVM__CL(b->base.ctx, b->cl->clEnqueueBarrierWithWaitList(b->queue, 1, &b->copied[0], NULL));
        gpusvm__ocl_event_drop(b, &b->copied[0]);
    }
    if ((r = gpusvm__ocl_stream_bind(b, b->mem[GPUSVM__TB_X], T, b->mem[GPUSVM__TB_K], T, b->mem[GPUSVM__TB_WS_IDX])) !=
            GPUSVM_OK ||
        (r = gpusvm__ocl_rows_cols(b, 1, (gpusvm__cl_int)b->plo, (gpusvm__cl_int)b->phi)) != GPUSVM_OK)
        return r;
    GPUSVM__SET_ROWS(slot, b->mem[GPUSVM__TB_WS_SLOT]);
    return gpusvm__ocl_rows_launch(b, 0, h, b->q - h, 0, b->phi - b->plo, 1, 0, 0);
fail:
    return r;
}

/* The update of a split problem's share (one tile): every position's row, from its slot. */
static gpusvm_result gpusvm__ocl_split_update(gpusvm__ocl *b)
{
    const size_t n = b->phi - b->plo;
    const gpusvm__cl_int q = b->q, T = (gpusvm__cl_int)b->tile;
    size_t g[2], l[2] = {GPUSVM__L, 1};
    gpusvm_result r = GPUSVM_OK;
    int copy;
    GPUSVM__SET(UPDATE, UPDATE_K0, b->mem[GPUSVM__TB_K]);
    GPUSVM__SET(UPDATE, UPDATE_ldk, T);
    GPUSVM__SET(UPDATE, UPDATE_slot0, b->mem[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(UPDATE, UPDATE_coef0, b->mem[GPUSVM__TB_COEF]);
    GPUSVM__SET(UPDATE, UPDATE_m_in, q);
    g[0] = gpusvm__round_up(n, GPUSVM__L);
    g[1] = 1;
    for (copy = 0; copy < (b->nvar > b->npts0 ? 2 : 1); ++copy) { /* epsilon-SVR: both variables of a point */
        const size_t v0 = (copy ? b->npts0 : 0) + b->plo;
        if ((r = gpusvm__ocl_update_window(b, (gpusvm__cl_int)v0, (gpusvm__cl_int)(v0 + n), (gpusvm__cl_int)b->plo)) !=
                GPUSVM_OK ||
            (r = gpusvm__ocl_launch(b, GPUSVM__KN_UPDATE, 2, g, l)) != GPUSVM_OK)
            return r;
    }
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_split_gather(gpusvm__ocl *b, const void *send, void *recv, size_t bytes);

/* Across processes (desc.split): every part planned the same batch (working-set size, variables,
   points), so that their reports line up; each plans from its own device, so parts on devices of
   different memory may not. */
static gpusvm_result gpusvm__ocl_split_agree(gpusvm__ocl *b)
{
    const uint64_t mine[3] = {(uint64_t)b->q, (uint64_t)b->nvar, (uint64_t)b->npts0};
    uint64_t *all = b->reps; /* room for parts x words >= 3 parts words */
    gpusvm_result r;
    int k;
    if ((r = gpusvm__ocl_split_gather(b, mine, all, sizeof mine)) != GPUSVM_OK) return r;
    for (k = 0; k < b->split_parts; ++k)
        if (memcmp(all + 3 * k, mine, sizeof mine) != 0)
            return gpusvm__fail(b->base.ctx, GPUSVM_ERR_SPLIT_MISMATCH,
                                "the parts of a split context planned different batches (working set %d here, %d on "
                                "part %d): give every part the same kind of device and memory",
                                b->q, (int)all[3 * k], k + 1);
    return GPUSVM_OK;
}

/* The host's room of a split problem: this share's report, with desc.split every part's, the
   merge's lists and chosen set, and the merged working set (variables, slots, gradients). */
static gpusvm_result gpusvm__ocl_split_begin(gpusvm__ocl *b)
{
    const size_t q = (size_t)b->q, words = GPUSVM__CO_WORDS(q), parts = (size_t)b->split_parts;
    const size_t gathered = b->base.ctx->split.parts > 1 ? parts * words : 0;
    size_t all;
    if (!gpusvm__mul(parts, GPUSVM__CO_LISTS * q * 2, &all) || all > (size_t)-1 / 16 - words - gathered - 6 * q ||
        !(b->rep = (uint64_t *)gpusvm__alloc(&b->base.ctx->alloc, words + gathered + all + 6 * q, sizeof(uint64_t))) ||
        !(b->ws_new = (int32_t *)gpusvm__calloc(&b->base.ctx->alloc, 2 * q + 2 * q, sizeof(int32_t))))
        return gpusvm__oom(b->base.ctx, "a split problem's reports");
    b->reps = gathered ? b->rep + words : NULL;
    b->merge = b->rep + words + gathered;
    b->gws = (double *)(void *)(b->ws_new + 2 * q);
    return gathered ? gpusvm__ocl_split_agree(b) : GPUSVM_OK;
}

/* Bind: the report's and the gradients' kernels (their fixed arguments). */
static gpusvm_result gpusvm__ocl_bind_split(gpusvm__ocl *b, gpusvm__cl_int nu)
{
    gpusvm__cl_mem *m = b->mem;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int qmax = b->q, nparts_max = (gpusvm__cl_int)b->nparts_max, grid = b->sel_grid;
    GPUSVM__SET(CANDS, CANDS_key_up0, m[GPUSVM__TB_KEY_UP]);
    GPUSVM__SET(CANDS, CANDS_key_low0, m[GPUSVM__TB_KEY_LOW]);
    GPUSVM__SET(CANDS, CANDS_y0, m[GPUSVM__TB_Y]);
    GPUSVM__SET(CANDS, CANDS_G0, m[GPUSVM__TB_G]);
    GPUSVM__SET(CANDS, CANDS_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(CANDS, CANDS_nparts_max, nparts_max);
    GPUSVM__SET(CANDS, CANDS_qmax, qmax);
    GPUSVM__SET(CANDS, CANDS_part_up0, m[GPUSVM__TB_PART_UP]);
    GPUSVM__SET(CANDS, CANDS_part_low0, m[GPUSVM__TB_PART_LOW]);
    GPUSVM__SET(CANDS, CANDS_ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(CANDS, CANDS_ws_slot0, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(CANDS, CANDS_status0, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(CANDS, CANDS_nu, nu);
    GPUSVM__SET(CANDS, CANDS_out, m[GPUSVM__TB_CANDS]);
    GPUSVM__SET(CANDS, CANDS_grid, grid);
    GPUSVM__SET(CANDS, CANDS_sel_g, m[GPUSVM__TB_SEL]);
    GPUSVM__SET(WS_PUT, WS_PUT_G0, m[GPUSVM__TB_G]);
    GPUSVM__SET(WS_PUT, WS_PUT_ws_idx0, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(WS_PUT, WS_PUT_gws, m[GPUSVM__TB_WS_G]);
    GPUSVM__SET(WS_PUT, WS_PUT_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(WS_PUT, WS_PUT_status0, m[GPUSVM__TB_STATUS]);
fail:
    return r;
}

/* The round's report enqueued: this share's keys and partials, then gpusvm_cands, then its read. */
static gpusvm_result gpusvm__ocl_split_post(gpusvm__backend *bb, int first)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int md = first ? 0 : 1;
    size_t g[2], l[2] = {GPUSVM__L, 1}, g1 = GPUSVM__L;
    g[0] = b->nparts_max * GPUSVM__L;
    g[1] = 1;
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_KEYS, 2, g, l)) != GPUSVM_OK) return r;
    GPUSVM__SET(CANDS, CANDS_mode_in, md);
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_CANDS, 1, &g1, &g1)) != GPUSVM_OK ||
        (b->sel_grid && (r = gpusvm__ocl_sel_grid(b, md, b->nu)) != GPUSVM_OK))
        return r;
    GPUSVM__CL(bb->ctx, b->cl->clFlush(b->queue));
    b->split_mode = md;
fail:
    return r;
}

/* The report read, waited for. Not read in split.post: a read into pageable memory returns only
   once the queue has drained (NVIDIA's), which would keep the next device's post, and with it
   that device, waiting. */
static gpusvm_result gpusvm__ocl_split_take(gpusvm__backend *bb, const void **report, size_t *bytes)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r;
    if ((r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_CANDS], GPUSVM__CO_WORDS((size_t)b->q) * sizeof(uint64_t), b->rep)) !=
        GPUSVM_OK)
        return r;
    *report = b->rep;
    *bytes = GPUSVM__CO_WORDS((size_t)b->q) * sizeof(uint64_t);
    return GPUSVM_OK;
}

static void gpusvm__ocl_flush(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    (void)b->cl->clFlush(b->queue); /* a failure shows at the next call that waits */
}

/* Every part's reports merged (gpusvm__split_merge) into this backend's host copies, and the new
   working set's vectors gathered (every part's rows read them: gathered once, not by each). */
static gpusvm_result gpusvm__ocl_split_merge(gpusvm__backend *bb, const void *reports, double eps, double max_iter,
                                             gpusvm__split_out *out)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    const size_t q = (size_t)b->q;
    gpusvm__split_in in;
    in.reps = (const uint64_t *)reports;
    in.parts = b->split_parts;
    in.q = b->q;
    in.nu = b->nu;
    in.mode = b->split_mode;
    in.npts = b->npts0;
    in.eps = eps;
    in.max_iter = max_iter;
    in.scratch = b->merge;
    out->moved = gpusvm__split_merge(&in, b->split_st, b->ws_new, b->ws_new + q, b->gws);
    out->st = b->split_st;
    out->ws = b->ws_new;
    out->g = b->gws;
    out->xw = b->host_xw;
    if (out->moved > 0) gpusvm__ocl_stream_gather(b, b->ws_new);
    return GPUSVM_OK;
}

/* The merged round written (from this backend's host copies, filled from the merging part's):
   the status row, and unless the problem stopped the working set and its gradients
   (gpusvm_ws_put); its vectors wait in host_xw for the rows step (gpusvm__ocl_stream_block). */
static gpusvm_result gpusvm__ocl_split_apply(gpusvm__backend *bb, const gpusvm__split_out *merged)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    const size_t q = (size_t)b->q;
    size_t g = gpusvm__round_up(q, GPUSVM__L), l = GPUSVM__L;
    gpusvm_result r;
    if (merged->moved < 0) return GPUSVM_OK; /* stopped before: nothing changes */
    if (merged->st != b->split_st) {
        memcpy(b->split_st, merged->st, sizeof b->split_st);
        memcpy(b->ws_new, merged->ws, 2 * q * sizeof(int32_t));
        memcpy(b->gws, merged->g, q * sizeof(double));
        if (merged->moved) memcpy(b->host_xw, merged->xw, q * b->dpad * sizeof(float));
    }
    /* the host's copies stay until the next round's report is read (gpusvm__ocl_split_take) */
    if ((r = gpusvm__ocl_write_nb(b, b->mem[GPUSVM__TB_STATUS], sizeof b->split_st, b->split_st)) != GPUSVM_OK ||
        !merged->moved)
        return r;
    if ((r = gpusvm__ocl_write_nb(b, b->mem[GPUSVM__TB_WS_IDX], q * sizeof(int32_t), b->ws_new)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write_nb(b, b->mem[GPUSVM__TB_WS_SLOT], q * sizeof(int32_t), b->ws_new + q)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write_nb(b, b->mem[GPUSVM__TB_WS_G], q * sizeof(double), b->gws)) != GPUSVM_OK)
        return r;
    return gpusvm__ocl_launch(b, GPUSVM__KN_WS_PUT, 1, &g, &l);
}

/* desc.split's allgather (this backend is one process's part): 0 once it failed. */
static gpusvm_result gpusvm__ocl_split_gather(gpusvm__ocl *b, const void *send, void *recv, size_t bytes)
{
    const gpusvm_split *s = &b->base.ctx->split;
    if (s->allgather(s->user, send, recv, bytes) == 0) return GPUSVM_OK;
    return gpusvm__fail(b->base.ctx, GPUSVM_ERR_SPLIT_ALLGATHER, "the split context's allgather failed (part %d of %d)", s->rank,
                        s->parts);
}

/* A round's selection of a problem split across processes (desc.split): the reports gathered. */
static gpusvm_result gpusvm__ocl_split_select(gpusvm__ocl *b, int first, double eps, double max_iter)
{
    const void *rep = NULL;
    size_t bytes = 0;
    gpusvm__split_out merged;
    gpusvm_result r;
    if ((r = gpusvm__ocl_split_post(&b->base, first)) != GPUSVM_OK ||
        (r = gpusvm__ocl_split_take(&b->base, &rep, &bytes)) != GPUSVM_OK ||
        (r = gpusvm__ocl_split_gather(b, rep, b->reps, bytes)) != GPUSVM_OK ||
        (r = gpusvm__ocl_split_merge(&b->base, b->reps, eps, max_iter, &merged)) != GPUSVM_OK)
        return r;
    return gpusvm__ocl_split_apply(&b->base, &merged);
}

/* A split problem's state: every alpha (each part keeps them all), and the gradient of this
   share's variables; across processes (desc.split) every part's shares gathered into G. */
static gpusvm_result gpusvm__ocl_split_state(gpusvm__ocl *b, double *alpha, double *G)
{
    const size_t npts = b->npts0, nr = b->nvar > npts ? 2 : 1, parts = (size_t)b->split_parts;
    const size_t most = npts / parts + 1, w = b->phi - b->plo;
    gpusvm_result r = GPUSVM_OK;
    double *send, *all;
    size_t c, k;
    if (alpha && (r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_ALPHA], b->nvar * sizeof(double), alpha)) != GPUSVM_OK)
        return r;
    for (c = 0; G && c < nr; ++c)
        GPUSVM__CL(b->base.ctx, b->cl->clEnqueueReadBuffer(b->queue, b->mem[GPUSVM__TB_G], GPUSVM__CL_TRUE,
                                                           (c * npts + b->plo) * sizeof(double), w * sizeof(double),
                                                           G + c * npts + b->plo, 0, NULL, NULL));
    if (!G || b->base.ctx->split.parts < 2) return GPUSVM_OK;
    if (!(send = (double *)gpusvm__alloc(&b->base.ctx->alloc, (parts + 1) * nr * most, sizeof(double))))
        return gpusvm__oom(b->base.ctx, "a split problem's gradients");
    all = send + nr * most;
    for (c = 0; c < nr; ++c) memcpy(send + c * most, G + c * npts + b->plo, w * sizeof(double));
    if ((r = gpusvm__ocl_split_gather(b, send, all, nr * most * sizeof(double))) == GPUSVM_OK)
        for (k = 0; k < parts; ++k) {
            const size_t lo = gpusvm__part_lo(npts, (int)parts, (int)k), n = gpusvm__part_lo(npts, (int)parts, (int)k + 1) - lo;
            for (c = 0; c < nr; ++c) memcpy(G + c * npts + lo, all + (k * nr + c) * most, n * sizeof(double));
        }
    gpusvm__free(&b->base.ctx->alloc, send);
fail:
    return r;
}

/* >>opencl/steps: the train table: begin, select, rows, solve, update, state -------------------- */

/* The kernels a batch's plan launches, built together before its upload (any other is built at its
   first launch): the core ones, its rows kernel, the row cache's where one is wanted, the grid
   selection's, a split's. */
static gpusvm__kset gpusvm__ocl_train_set(const gpusvm__ocl *b, const gpusvm__problem *p, int nprob, int q)
{
    gpusvm__kset s = GPUSVM__KS_CORE | (b->whole ? GPUSVM__KBIT(CHECK) : GPUSVM__KBIT(SELECT));
    if (b->stream) s |= GPUSVM__KBIT(ROWS_UPD);
    else if (b->sparse) s |= GPUSVM__KBIT(ROWS_SPARSE);
    else s |= gpusvm__ocl_narrow_ok(b, b->ktype, (int)b->dpad) ? GPUSVM__KBIT(ROWS_NARROW) : GPUSVM__KBIT(ROWS);
    if (gpusvm__ocl_cache_wanted(b, p, nprob, q)) s |= GPUSVM__KBIT(ROW_CACHE);
    if (b->sel_grid) s |= GPUSVM__KBIT(SEL_HIST) | GPUSVM__KBIT(SEL_TIES) | GPUSVM__KBIT(SEL_TAKE);
    if (b->split) s |= GPUSVM__KBIT(CANDS) | GPUSVM__KBIT(WS_PUT);
    return s;
}

/* A training batch: plan, build, allocate, upload, bind. */
static gpusvm_result gpusvm__ocl_train_begin(gpusvm__backend *bb, const gpusvm__problem *p, int nprob,
                                             const gpusvm__plan *plan)
{
    const int q = plan->q;
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm__ocl_stage s;
    size_t bytes[GPUSVM__TB_COUNT], npts_all = 0;
    gpusvm__cl_int use_map = 0;
    gpusvm_result r;
    int t;
    memset(&s, 0, sizeof s);
    gpusvm__ocl_train_end(bb);
    if ((r = gpusvm__ocl_plan(b, p, nprob, plan, bytes, &npts_all)) != GPUSVM_OK ||
        (r = gpusvm__ocl_need(b, gpusvm__ocl_train_set(b, p, nprob, q))) != GPUSVM_OK)
        return r;
    for (t = 0; t < nprob; ++t) use_map = use_map || p[t].map;
    /* the data first (dense, or its CSR arrays): a dense upload wants room for the CSR arrays beside it */
    if ((r = gpusvm__ocl_buffers(b, b->mem, bytes, gpusvm__train_buf_what, 0, GPUSVM__TB_X_VAL + 1)) != GPUSVM_OK ||
        (r = b->stream ? gpusvm__ocl_stream_begin(b, &p[0]) : gpusvm__ocl_upload_points(b, &p[0].x, bytes[GPUSVM__TB_X])) !=
            GPUSVM_OK ||
        (r = gpusvm__ocl_stage_alloc(b, npts_all, &s)) != GPUSVM_OK)
        goto fail;
    gpusvm__ocl_stage_fill(b, p, q, &s);
    gpusvm__ocl_cache_plan(b, p, nprob, plan, bytes);
    if ((r = gpusvm__ocl_buffers(b, b->mem, bytes, gpusvm__train_buf_what, GPUSVM__TB_X_VAL + 1, GPUSVM__TB_COUNT)) !=
            GPUSVM_OK ||
        (r = gpusvm__ocl_stage_upload(b, &s, npts_all)) != GPUSVM_OK ||
        (r = gpusvm__ocl_bind_train_rows(b, use_map)) != GPUSVM_OK ||
        (r = gpusvm__ocl_bind_train_select(b, p[0].nu)) != GPUSVM_OK ||
        (r = gpusvm__ocl_bind_train_solve(b, p[0].nu)) != GPUSVM_OK ||
        (b->stream && (r = gpusvm__ocl_stream_slots(b)) != GPUSVM_OK) ||
        (b->split && ((r = gpusvm__ocl_split_begin(b)) != GPUSVM_OK ||
                      (r = gpusvm__ocl_bind_split(b, p[0].nu)) != GPUSVM_OK)))
        goto fail;
    gpusvm__free(&bb->ctx->alloc, s.block);
    return GPUSVM_OK;
fail:
    gpusvm__free(&bb->ctx->alloc, s.block);
    gpusvm__ocl_train_end(bb);
    return r;
}

static gpusvm_result gpusvm__ocl_select(gpusvm__backend *bb, int first, double eps, double max_iter)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int md = first ? 0 : 1, split = b->sel_grid;
    size_t g[2], l[2] = {GPUSVM__L, 1}, g1 = (size_t)b->nprob * GPUSVM__L, l1 = GPUSVM__L;
    if (b->split) return gpusvm__ocl_split_select(b, first, eps, max_iter);
    g[0] = b->nparts_max * GPUSVM__L;
    g[1] = (size_t)b->nprob;
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_KEYS, 2, g, l)) != GPUSVM_OK) return r;
    GPUSVM__SET_SELECT(mode_in, md);
    GPUSVM__SET_SELECT(eps, eps);
    GPUSVM__SET_SELECT(max_iter, max_iter);
    GPUSVM__SET_SELECT(split, split);
    if ((r = gpusvm__ocl_launch(b, b->whole ? GPUSVM__KN_CHECK : GPUSVM__KN_SELECT, 1, &g1, &l1)) != GPUSVM_OK || !split)
        return r;
    r = gpusvm__ocl_sel_grid(b, md, b->nu);
fail:
    return r;
}

/* The round's rows: the new half of every working set (all of it in the first round), or with the
   row cache the ones it does not hold (its list, from position 0). */
static gpusvm_result gpusvm__ocl_rows(gpusvm__backend *bb, int first)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    const gpusvm__cl_int first_ = first;
    size_t g = (size_t)b->nprob * GPUSVM__L, l = GPUSVM__L;
    if (b->share_rows) return gpusvm__ocl_split_rows(b, first);
    if (b->stream) return gpusvm__ocl_stream_block(b);
    if (!b->cslots)
        return gpusvm__ocl_rows_launch(b, b->sparse, first ? 0 : b->q / 2, first ? b->q : b->q / 2, !first, b->ldk,
                                       b->nprob, 1, 0);
    GPUSVM__SET(ROW_CACHE, ROW_CACHE_first, first_);
    if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_ROW_CACHE, 1, &g, &l)) != GPUSVM_OK) return r;
    return gpusvm__ocl_rows_launch(b, b->sparse, 0, first ? b->q : b->q / 2, !first, b->ldk, b->nprob, 1, 0);
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_smo(gpusvm__backend *bb, double eps, double ratio, int max_inner, double max_iter)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    gpusvm__cl_int mi = max_inner;
    size_t g = (size_t)b->nprob * b->smo_l, l = b->smo_l, g3[3], l3[3] = {GPUSVM__L, 1, 1};
    g3[0] = gpusvm__round_up((size_t)b->q, GPUSVM__L);
    g3[1] = (size_t)b->q;
    g3[2] = (size_t)b->nprob;
    if (!b->stream && (r = gpusvm__ocl_launch(b, GPUSVM__KN_GATHER, 3, g3, l3)) != GPUSVM_OK) return r;
    GPUSVM__SET(SMO, SMO_eps, eps);
    GPUSVM__SET(SMO, SMO_ratio_in, ratio);
    GPUSVM__SET(SMO, SMO_max_inner_in, mi);
    GPUSVM__SET(SMO, SMO_max_iter, max_iter);
    r = gpusvm__ocl_launch(b, GPUSVM__KN_SMO, 1, &g, &l);
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_update(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    size_t g[2], l[2] = {GPUSVM__L, 1};
    if (b->share_rows) return gpusvm__ocl_split_update(b);
    if (b->stream) return gpusvm__ocl_stream_update(b);
    g[0] = b->ngroups_max * GPUSVM__L;
    g[1] = (size_t)b->nprob;
    return gpusvm__ocl_launch(b, GPUSVM__KN_UPDATE, 2, g, l);
}

static gpusvm_result gpusvm__ocl_read_status(gpusvm__backend *bb, double *st)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    return gpusvm__ocl_read(b, b->mem[GPUSVM__TB_STATUS], sizeof(double) * GPUSVM__ST_COUNT * (size_t)b->nprob, st);
}

static gpusvm_result gpusvm__ocl_read_state(gpusvm__backend *bb, double *alpha, double *G)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    if (b->split) return gpusvm__ocl_split_state(b, alpha, G);
    if (alpha && (r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_ALPHA], b->nvar * sizeof(double), alpha)) != GPUSVM_OK) return r;
    if (G) r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_G], b->nvar * sizeof(double), G);
    return r;
}

static gpusvm_result gpusvm__ocl_write_state(gpusvm__backend *bb, const double *alpha, const double *G,
                                             const double *st)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    if (alpha && (r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_ALPHA], 0, b->nvar * sizeof(double), alpha)) != GPUSVM_OK) return r;
    if (G && (r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_G], 0, b->nvar * sizeof(double), G)) != GPUSVM_OK) return r;
    if (st) r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_STATUS], 0, sizeof(double) * GPUSVM__ST_COUNT * (size_t)b->nprob, st);
    return r;
}

/* Every problem's working set (the same m positions each). A whole one (m = q) goes as one write
   of every problem's (from offset 0: oclgrind 21.10 marks the words of a write at an offset
   wrongly, and one write is fewer calls); else one write a problem. */
static gpusvm_result gpusvm__ocl_write_ws(gpusvm__backend *bb, const int *idx, const int *slot, int m)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    int t;
    if (b->nprob > 1 && m == b->q) {
        const size_t q = (size_t)b->q, all = (size_t)b->nprob * q;
        int *host = (int *)gpusvm__alloc(&bb->ctx->alloc, 2 * all, sizeof(int));
        if (!host) return gpusvm__oom(bb->ctx, "the working sets");
        for (t = 0; t < b->nprob; ++t) {
            memcpy(host + (size_t)t * q, idx, q * sizeof(int));
            memcpy(host + all + (size_t)t * q, slot, q * sizeof(int));
        }
        if ((r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_WS_IDX], 0, all * sizeof(int), host)) == GPUSVM_OK)
            r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_WS_SLOT], 0, all * sizeof(int), host + all);
        gpusvm__free(&bb->ctx->alloc, host);
        return r;
    }
    for (t = 0; t < b->nprob && r == GPUSVM_OK; ++t) {
        const size_t at = (size_t)t * (size_t)b->q * sizeof(int);
        if ((r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_WS_IDX], at, (size_t)m * sizeof(int), idx)) != GPUSVM_OK) return r;
        r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_WS_SLOT], at, (size_t)m * sizeof(int), slot);
    }
    return r;
}

#ifdef GPUSVM_TEST_HOOKS
static gpusvm_result gpusvm__ocl_read_rows(gpusvm__backend *bb, float *K)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_context *ctx = bb->ctx;
    gpusvm_result r = GPUSVM_OK;
    const size_t n0 = b->npts0, q0 = b->q0;
    size_t t;
    if (b->stream) return gpusvm__fail(ctx, GPUSVM_ERR_UNSUPPORTED, "no kernel rows are kept for streamed points");
    for (t = 0; t < q0; ++t)
        GPUSVM__CL(ctx, b->cl->clEnqueueReadBuffer(b->queue, b->mem[GPUSVM__TB_K], GPUSVM__CL_TRUE, t * b->ldk * sizeof(float),
                                                   n0 * sizeof(float), K + t * n0, 0, NULL, NULL));
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_read_ws(gpusvm__backend *bb, int *idx, int *slot, double *coef, int m)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    if (idx && (r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_WS_IDX], (size_t)m * sizeof(int), idx)) != GPUSVM_OK) return r;
    if (slot && (r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_WS_SLOT], (size_t)m * sizeof(int), slot)) != GPUSVM_OK) return r;
    if (coef) r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_COEF], (size_t)m * sizeof(double), coef);
    return r;
}

/* Problem 0's rows: on the host q rows of its points, on the device rows of pitch ldk. */
static gpusvm_result gpusvm__ocl_write_rows(gpusvm__backend *bb, const float *K)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    const size_t n0 = b->npts0, q0 = b->q0;
    size_t t;
    float *host;
    if (b->stream) return gpusvm__fail(bb->ctx, GPUSVM_ERR_UNSUPPORTED, "no kernel rows are kept for streamed points");
    /* one write from offset 0 (oclgrind 21.10 mismarks writes at an offset), the rows' padding
       poisoned as gpusvm__ocl_poison leaves it */
    if (!(host = (float *)gpusvm__alloc(&bb->ctx->alloc, q0 * b->ldk, sizeof(float)))) return gpusvm__oom(bb->ctx, "rows");
    memset(host, 0xFF, q0 * b->ldk * sizeof(float));
    for (t = 0; t < q0; ++t) memcpy(host + t * b->ldk, K + t * n0, n0 * sizeof(float));
    r = gpusvm__ocl_write(b, b->mem[GPUSVM__TB_K], 0, q0 * b->ldk * sizeof(float), host);
    gpusvm__free(&bb->ctx->alloc, host);
    return r;
}


static gpusvm_result gpusvm__ocl_poison(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    const size_t ws = (size_t)b->nprob * (size_t)b->q;
    gpusvm_result r;
    size_t kbytes = 0;
    if (b->mem[GPUSVM__TB_K] &&
        b->cl->clGetMemObjectInfo(b->mem[GPUSVM__TB_K], GPUSVM__CL_MEM_SIZE, sizeof kbytes, &kbytes, NULL) != 0)
        kbytes = ws * b->ldk * sizeof(float);
    if (kbytes && (r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_K], kbytes / 4 * 4, 0xFF)) != GPUSVM_OK) return r;
    if ((r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_COEF], ws * sizeof(double), 0xFF)) != GPUSVM_OK) return r;
    if ((r = gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_KEY_UP], b->nvar * sizeof(uint32_t), 0x5A)) != GPUSVM_OK) return r;
    return gpusvm__ocl_fill(b, b->mem[GPUSVM__TB_KEY_LOW], b->nvar * sizeof(uint32_t), 0x5A);
}
#endif /* GPUSVM_TEST_HOOKS */

/* Decision values: the support vectors play the working set, the test points the data; the
   same rows and update kernels run in blocks of at most 1024 support vectors and a bounded
   number of test points. */

/* The device buffers of a prediction, in the order they are allocated. */
#define GPUSVM__DEC_BUFS(X_)                                                                                      \
    X_(SV, "the support vectors") X_(SV_PTR, "the support vectors' row offsets")                               \
    X_(SV_COL, "the support vectors' column indices") X_(SV_VAL, "the support vectors' values")                 \
    X_(NA, "norms") X_(IDX, "indices") X_(SLOT, "slots") X_(B, "a block of test points")                        \
    X_(B_PTR, "a block's row offsets") X_(B_COL, "a block's column indices") X_(B_VAL, "a block's values")      \
    X_(NB, "norms") X_(K, "a kernel tile") X_(CF, "coefficients")               \
    X_(DEC, "decision values") X_(ST, "status") X_(Y, "labels") X_(TAB, "the problem table")
#define GPUSVM__BID(id, what) GPUSVM__DB_##id,
enum { GPUSVM__DEC_BUFS(GPUSVM__BID) GPUSVM__DB_COUNT };
#undef GPUSVM__BID
#define GPUSVM__BWHAT(id, what) what,
static const char *const gpusvm__dec_buf_what[GPUSVM__DB_COUNT] = {GPUSVM__DEC_BUFS(GPUSVM__BWHAT)};
#undef GPUSVM__BWHAT

/* Crammer-Singer (kernels part 5): its buffers beside the batch's (which holds the points, the
   row lists, the rows K, the status and the problem table), in allocation order. */
#define GPUSVM__CS_BUFS(X_)                                                                                       \
    X_(C, "the responses") X_(ALPHA, "alpha") X_(CLS, "the classes") X_(U, "bounds") X_(KD, "the kernel diagonal") \
    X_(HAVE, "the row cache's map") X_(PART, "partials") X_(CAND_KEY, "candidates") X_(CAND_IDX, "candidates")    \
    X_(WS, "the working sets") X_(DA, "the working sets' steps") X_(MOVED, "the working sets' steps")             \
    X_(CINFO, "the Crammer-Singer problem table")
#define GPUSVM__BID(id, what) GPUSVM__CB_##id,
enum { GPUSVM__CS_BUFS(GPUSVM__BID) GPUSVM__CB_COUNT };
#undef GPUSVM__BID
typedef char gpusvm__cs_nbuf_check[GPUSVM__CB_COUNT == GPUSVM__CS_NBUF ? 1 : -1];
#define GPUSVM__BWHAT(id, what) what,
static const char *const gpusvm__cs_buf_what[GPUSVM__CB_COUNT] = {GPUSVM__CS_BUFS(GPUSVM__BWHAT)};
#undef GPUSVM__BWHAT

/* >>opencl/cs: Crammer-Singer (kernels part 5) -------------------------------------------------- */

/* gpusvm_cs_solve's local memory for working-set size q and m classes: the q x q block, the
   set's responses and alpha, the step's scratch and the set's bounds, diagonals and classes,
   the set's points. */
static size_t gpusvm__cs_local(int q, int m)
{
    return GPUSVM__CS_LOCAL(q, m);
}

static gpusvm_result gpusvm__ocl_cs_bind(gpusvm__ocl *b)
{
    gpusvm__cl_mem *c = b->cs_mem, *m = b->mem;
    const gpusvm__cl_int ldk = (gpusvm__cl_int)b->ldk, mm = b->cs_m, q = b->cs_q, qmax = b->q;
    const gpusvm__cl_int qc = q < GPUSVM__L ? q : GPUSVM__L, np = (gpusvm__cl_int)b->cs_parts, cache = b->cs_cache;
    gpusvm_result r = GPUSVM_OK;
    GPUSVM__SET(CS_RESP, CS_RESP_c, c[GPUSVM__CB_C]);
    GPUSVM__SET(CS_RESP, CS_RESP_K, m[GPUSVM__TB_K]);
    GPUSVM__SET(CS_RESP, CS_RESP_ldk, ldk);
    GPUSVM__SET(CS_RESP, CS_RESP_moved, c[GPUSVM__CB_MOVED]);
    GPUSVM__SET(CS_RESP, CS_RESP_dA, c[GPUSVM__CB_DA]);
    GPUSVM__SET(CS_RESP, CS_RESP_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(CS_RESP, CS_RESP_cinfo, c[GPUSVM__CB_CINFO]);
    GPUSVM__SET(CS_RESP, CS_RESP_q, q);
    GPUSVM__SET(CS_RESP, CS_RESP_mmax, mm);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_c, c[GPUSVM__CB_C]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_alpha, c[GPUSVM__CB_ALPHA]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_cls, c[GPUSVM__CB_CLS]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_U, c[GPUSVM__CB_U]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_part, c[GPUSVM__CB_PART]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_cand_key, c[GPUSVM__CB_CAND_KEY]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_cand_idx, c[GPUSVM__CB_CAND_IDX]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_cinfo, c[GPUSVM__CB_CINFO]);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_nparts_max, np);
    GPUSVM__SET(CS_UPDATE, CS_UPDATE_qc, qc);
    GPUSVM__SET(CS_SELECT, CS_SELECT_part, c[GPUSVM__CB_PART]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_nparts_max, np);
    GPUSVM__SET(CS_SELECT, CS_SELECT_cand_key, c[GPUSVM__CB_CAND_KEY]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_cand_idx, c[GPUSVM__CB_CAND_IDX]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_q, q);
    GPUSVM__SET(CS_SELECT, CS_SELECT_ws, c[GPUSVM__CB_WS]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_row_idx, m[GPUSVM__TB_WS_IDX]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_row_slot, m[GPUSVM__TB_WS_SLOT]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_pinfo, m[GPUSVM__TB_PINFO]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_have, c[GPUSVM__CB_HAVE]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_cache, cache);
    GPUSVM__SET(CS_SELECT, CS_SELECT_cinfo, c[GPUSVM__CB_CINFO]);
    GPUSVM__SET(CS_SELECT, CS_SELECT_qmax, qmax);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_K, m[GPUSVM__TB_K]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_ldk, ldk);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_ws, c[GPUSVM__CB_WS]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_status, m[GPUSVM__TB_STATUS]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_alpha, c[GPUSVM__CB_ALPHA]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_c, c[GPUSVM__CB_C]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_cls, c[GPUSVM__CB_CLS]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_U, c[GPUSVM__CB_U]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_kd, c[GPUSVM__CB_KD]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_dA, c[GPUSVM__CB_DA]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_moved, c[GPUSVM__CB_MOVED]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_mmax, mm);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_q, q);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_cache, cache);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_cinfo, c[GPUSVM__CB_CINFO]);
    GPUSVM__SET(CS_SOLVE, CS_SOLVE_qmax, qmax);
    if ((r = gpusvm__ocl_set(b, GPUSVM__KN_CS_SOLVE, GPUSVM__A_CS_SOLVE_kws, GPUSVM__CS_KWS_BYTES(q), NULL)) != GPUSVM_OK ||
        (r = gpusvm__ocl_set(b, GPUSVM__KN_CS_SOLVE, GPUSVM__A_CS_SOLVE_cws, GPUSVM__CS_CWS_BYTES(q, mm), NULL)) != GPUSVM_OK)
        goto fail;
    r = gpusvm__ocl_set(b, GPUSVM__KN_CS_SOLVE, GPUSVM__A_CS_SOLVE_scr, GPUSVM__CS_SCR_BYTES(q, mm), NULL);
fail:
    return r;
}

/* The buffers' sizes for the batch d (cinfo: its problem table, filled) with working-set size q. */
static int gpusvm__ocl_cs_sizes(gpusvm__ocl *b, const gpusvm__cs_desc *d, int32_t *cinfo, size_t *bytes)
{
    const size_t np = (size_t)d->nprob, q = (size_t)b->cs_q, qc = q < GPUSVM__L ? q : GPUSVM__L;
    size_t nvar = 0, ncoef = 0, parts, items;
    int p;
    b->cs_m = 1;
    b->cs_parts = 1;
    b->cs_resp = GPUSVM__L;
    for (p = 0; p < d->nprob; ++p) {
        cinfo[p * GPUSVM__CI_COUNT + GPUSVM__CI_VAR] = (int32_t)nvar;
        cinfo[p * GPUSVM__CI_COUNT + GPUSVM__CI_N] = (int32_t)d->n[p];
        cinfo[p * GPUSVM__CI_COUNT + GPUSVM__CI_M] = d->m[p];
        cinfo[p * GPUSVM__CI_COUNT + GPUSVM__CI_A] = (int32_t)ncoef;
        parts = gpusvm__round_up(d->n[p] ? d->n[p] : 1, GPUSVM__L) / GPUSVM__L;
        if (parts > b->cs_parts) b->cs_parts = parts;
        if (d->m[p] > b->cs_m) b->cs_m = d->m[p];
        items = d->n[p] * (size_t)((d->m[p] + GPUSVM__CS_RESP_CLASSES - 1) / GPUSVM__CS_RESP_CLASSES);
        if (items > b->cs_resp) b->cs_resp = gpusvm__round_up(items, GPUSVM__L);
        nvar += d->n[p];
        ncoef += d->n[p] * (size_t)d->m[p];
        if (ncoef > (size_t)INT_MAX) return 0;
    }
    b->cs_coef = ncoef;
    bytes[GPUSVM__CB_C] = bytes[GPUSVM__CB_ALPHA] = (ncoef ? ncoef : 1) * sizeof(double);
    bytes[GPUSVM__CB_CLS] = bytes[GPUSVM__CB_HAVE] = (nvar ? nvar : 1) * sizeof(int32_t);
    bytes[GPUSVM__CB_U] = bytes[GPUSVM__CB_KD] = (nvar ? nvar : 1) * sizeof(double);
    bytes[GPUSVM__CB_PART] = np * b->cs_parts * 4 * sizeof(double);
    bytes[GPUSVM__CB_CAND_KEY] = bytes[GPUSVM__CB_CAND_IDX] = np * b->cs_parts * qc * sizeof(int32_t);
    bytes[GPUSVM__CB_WS] = bytes[GPUSVM__CB_MOVED] = np * q * sizeof(int32_t);
    bytes[GPUSVM__CB_DA] = np * q * (size_t)b->cs_m * sizeof(double);
    bytes[GPUSVM__CB_CINFO] = np * GPUSVM__CI_COUNT * sizeof(int32_t);
    return 1;
}

static gpusvm_result gpusvm__ocl_cs_begin(gpusvm__backend *bb, const gpusvm__cs_desc *d, int *q)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    size_t bytes[GPUSVM__CB_COUNT] = {0}, nvar = 0;
    int32_t *cinfo = (int32_t *)gpusvm__alloc(&bb->ctx->alloc, (size_t)d->nprob * GPUSVM__CI_COUNT, sizeof(int32_t));
    gpusvm_result r = GPUSVM_OK;
    int p, mmax = 1;
    if (!cinfo) return gpusvm__oom(bb->ctx, "the Crammer-Singer problem table");
    if ((r = gpusvm__ocl_need(b, GPUSVM__KBIT(CS_RESP) | GPUSVM__KBIT(CS_UPDATE) | GPUSVM__KBIT(CS_SELECT) |
                                     GPUSVM__KBIT(CS_SOLVE))) != GPUSVM_OK) {
        gpusvm__free(&bb->ctx->alloc, cinfo);
        return r;
    }
    for (p = 0; p < d->nprob; ++p) {
        nvar += d->n[p];
        if (d->m[p] > mmax) mmax = d->m[p];
    }
    b->cs_q = *q < b->q ? *q : b->q;
    while (b->cs_q > 2 && gpusvm__cs_local(b->cs_q, mmax) + 2048 > b->local_mem) b->cs_q /= 2;
    if (gpusvm__cs_local(b->cs_q, mmax) + 2048 > b->local_mem)
        r = gpusvm__fail(bb->ctx, GPUSVM_ERR_DEVICE_MEMORY,
                         "Crammer-Singer with %d classes needs more local memory than the device has (%lu bytes)",
                         mmax, (unsigned long)b->local_mem);
    else if (!gpusvm__ocl_cs_sizes(b, d, cinfo, bytes))
        r = gpusvm__fail(bb->ctx, GPUSVM_ERR_DEVICE_MEMORY, "too many Crammer-Singer coefficients for one device (2^31)");
    b->cs_cache = d->cache;
    if (r == GPUSVM_OK &&
        ((r = gpusvm__ocl_buffers(b, b->cs_mem, bytes, gpusvm__cs_buf_what, 0, GPUSVM__CB_COUNT)) != GPUSVM_OK ||
         (r = gpusvm__ocl_write(b, b->cs_mem[GPUSVM__CB_CINFO], 0, bytes[GPUSVM__CB_CINFO], cinfo)) != GPUSVM_OK ||
         (r = gpusvm__ocl_write(b, b->cs_mem[GPUSVM__CB_CLS], 0, nvar * sizeof(int32_t), d->cls)) != GPUSVM_OK ||
         (r = gpusvm__ocl_write(b, b->cs_mem[GPUSVM__CB_U], 0, nvar * sizeof(double), d->U)) != GPUSVM_OK ||
         (r = gpusvm__ocl_write(b, b->cs_mem[GPUSVM__CB_KD], 0, nvar * sizeof(double), d->kd)) != GPUSVM_OK ||
         (r = gpusvm__ocl_fill(b, b->cs_mem[GPUSVM__CB_C], bytes[GPUSVM__CB_C], 0)) != GPUSVM_OK ||
         (r = gpusvm__ocl_fill(b, b->cs_mem[GPUSVM__CB_ALPHA], bytes[GPUSVM__CB_C], 0)) != GPUSVM_OK ||
         (r = gpusvm__ocl_fill(b, b->cs_mem[GPUSVM__CB_HAVE], bytes[GPUSVM__CB_HAVE], 0)) != GPUSVM_OK ||
         (r = gpusvm__ocl_cs_bind(b)) != GPUSVM_OK))
        goto done;
    if (r == GPUSVM_OK) {
        GPUSVM__SET(CS_SOLVE, CS_SOLVE_eps, d->eps);
        GPUSVM__SET(CS_SOLVE, CS_SOLVE_ratio, d->ratio);
        *q = b->cs_q;
    }
fail:
done:
    gpusvm__free(&bb->ctx->alloc, cinfo);
    return r;
}

/* Step 0 responses and candidates, 1 the selection, 2 the missing rows (with the cache after
   the first round, few: gpusvm_rows_few's groups of GPUSVM__FEW, those past the count doing
   nothing), 3 the sweeps; every problem of the batch in each launch. */
static gpusvm_result gpusvm__ocl_cs_step(gpusvm__backend *bb, int step, int first, double eps, double max_iter)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    size_t g[2], gr[2], l[2] = {GPUSVM__L, 1}, g1 = (size_t)b->nprob * GPUSVM__L;
    gpusvm_result r = GPUSVM_OK;
    g[0] = b->cs_parts * GPUSVM__L;
    gr[0] = b->cs_resp;
    gr[1] = g[1] = (size_t)b->nprob;
    switch (step) {
    case 0:
        if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_CS_RESP, 2, gr, l)) != GPUSVM_OK) return r;
        return gpusvm__ocl_launch(b, GPUSVM__KN_CS_UPDATE, 2, g, l);
    case 1:
        GPUSVM__SET(CS_SELECT, CS_SELECT_eps, eps);
        GPUSVM__SET(CS_SELECT, CS_SELECT_max_iter, max_iter);
        return gpusvm__ocl_launch(b, GPUSVM__KN_CS_SELECT, 1, &g1, l);
    case 2:
        return gpusvm__ocl_rows_launch(b, b->sparse, 0, b->cs_q, 0, b->ldk, b->nprob, 1, b->cs_cache && !first);
    default:
        g1 = (size_t)b->nprob * GPUSVM__CS_L;
        l[0] = GPUSVM__CS_L;
        return gpusvm__ocl_launch(b, GPUSVM__KN_CS_SOLVE, 1, &g1, l);
    }
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_cs_read(gpusvm__backend *bb, double *st, double *alpha)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result r = GPUSVM_OK;
    if (st && (r = gpusvm__ocl_read(b, b->mem[GPUSVM__TB_STATUS], sizeof(double) * GPUSVM__ST_COUNT * (size_t)b->nprob,
                                    st)) != GPUSVM_OK)
        return r;
    if (alpha) r = gpusvm__ocl_read(b, b->cs_mem[GPUSVM__CB_ALPHA], b->cs_coef * sizeof(double), alpha);
    return r;
}


/* >>opencl/decision: prediction (kernel tiles of part 1, decision values of part 4) ------------- */

/* A prediction's shape, its device buffers and its host scratch. */
typedef struct gpusvm__ocl_dec {
    size_t nsv, nt, nv, dpad, pa; /* support vectors, test points, decision vectors, padded features, sv pitch */
    size_t R, pb, nblocks;        /* support vectors per tile, test points per block, tiles */
    int sparse;                   /* points kept sparse (gpusvm__ocl_sparse) */
    size_t bnnz;                  /* sparse: the most nonzeros of one block of test points */
    gpusvm__cl_mem mem[GPUSVM__DB_COUNT];
    unsigned char *live; /* per (decision vector, tile of support vectors): any coefficient not 0 */
    float *norms;    /* dense: the norms */
    double *norms_d; /* sparse: the norms in double */
    double *dbuf;
    float gamma;     /* the kernel's, in the problem table */
} gpusvm__ocl_dec;

/* The most nonzeros in one block of pb rows of x. */
static size_t gpusvm__block_nnz(const gpusvm__csr *x, size_t pb)
{
    size_t t0, most = 0;
    for (t0 = 0; t0 < x->rows; t0 += pb) {
        const size_t e = t0 + pb < x->rows ? t0 + pb : x->rows, n = x->row_ptr[e] - x->row_ptr[t0];
        if (n > most) most = n;
    }
    return most;
}

/* Plan: test points per block, each block and its K tile within 256 MiB and max_alloc, and
   within what the budget has left after the support vectors; dense or sparse points. */
static gpusvm_result gpusvm__ocl_dec_plan(gpusvm__ocl *b, const gpusvm__csr *sv, const gpusvm__csr *x, int nv,
                                          int ktype, gpusvm__ocl_dec *dp)
{
    const size_t d = sv->cols > x->cols ? sv->cols : x->cols;
    const size_t sv_nnz = sv->row_ptr[sv->rows] - sv->row_ptr[0], x_nnz = x->row_ptr[x->rows] - x->row_ptr[0];
    size_t chunk = (size_t)64 << 20, fixed, left, per, width;
    dp->nsv = sv->rows;
    dp->nt = x->rows;
    dp->nv = (size_t)nv;
    dp->dpad = gpusvm__round_up(d ? d : 1, GPUSVM__FEAT_CHUNK);
    dp->pa = gpusvm__round_up(dp->nsv, GPUSVM__PITCH);
    dp->R = dp->nsv < 1024 ? dp->nsv : 1024;
    dp->nblocks = (dp->nsv + dp->R - 1) / dp->R;
    dp->sparse = gpusvm__ocl_sparse(b, sv->rows + x->rows, sv_nnz + x_nnz, d, ktype);
    /* words a point takes: its features, or (sparse) twice its share of the nonzeros, at least 1 */
    width = dp->sparse ? 2 * (x_nnz / x->rows) + 2 : dp->dpad;
    if (chunk > b->max_alloc / sizeof(float)) chunk = b->max_alloc / sizeof(float);
    chunk = chunk / (width > dp->R ? width : dp->R);
    if (dp->sparse) {
        fixed = (dp->nsv + 1) * 4 + sv_nnz * 8;
        if (fixed < sv_nnz) return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY, "the support vectors are too large for the device");
    } else if (!gpusvm__mul(dp->pa, dp->dpad * sizeof(float), &fixed)) {
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY, "the support vectors are too large for the device");
    }
    if (fixed + dp->nsv * 3 * sizeof(float) + dp->nv * dp->nsv * sizeof(double) + 1024 < fixed)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY, "the support vectors are too large for the device");
    fixed += dp->nsv * 3 * sizeof(float) + dp->nv * dp->nsv * sizeof(double) + 1024;
    left = b->mem_budget - b->mem_used;
    per = (width + dp->R + 2) * sizeof(float) + dp->nv * sizeof(double);
    if (left <= fixed || (left - fixed) / per < 64)
        return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY,
                            "prediction needs %.1f MiB for %lu support vectors plus blocks of test points; the "
                            "device-memory budget has %.1f MiB left (raise desc.device_memory_mb or use the cpu "
                            "backend)",
                            (double)(fixed + 64 * per) / 1048576.0, (unsigned long)dp->nsv, (double)left / 1048576.0);
    if ((left - fixed) / per < chunk) chunk = (left - fixed) / per;
    chunk = chunk / 64 * 64;
    if (chunk < 64) chunk = 64;
    if (chunk > gpusvm__round_up(dp->nt, 64)) chunk = gpusvm__round_up(dp->nt, 64);
    dp->pb = chunk;
    if (dp->sparse) { /* blocks whose nonzeros pass the estimate: smaller blocks */
        while ((dp->bnnz = gpusvm__block_nnz(x, dp->pb)) * 8 > (left - fixed) - dp->pb * per && dp->pb > 64)
            dp->pb = dp->pb / 2 / 64 * 64 > 64 ? dp->pb / 2 / 64 * 64 : 64;
        if (dp->bnnz * 8 > (left - fixed) - dp->pb * per || dp->bnnz > (size_t)INT_MAX)
            return gpusvm__fail(b->base.ctx, GPUSVM_ERR_DEVICE_MEMORY,
                                "prediction: 64 test points have %lu nonzeros, more than the device-memory budget "
                                "holds (raise desc.device_memory_mb or use the cpu backend)",
                                (unsigned long)dp->bnnz);
    }
    return GPUSVM_OK;
}

/* Allocate and upload what every block shares: the support vectors (column-major) and their
   norms, their indices and tile slots, the coefficients, a zero status; on the host the map of
   live tiles and the blocks' scratch. */
static gpusvm_result gpusvm__ocl_dec_setup(gpusvm__ocl *b, gpusvm__ocl_dec *dp, const gpusvm__csr *sv,
                                           const double *coef)
{
    const gpusvm_allocator *a = &b->base.ctx->alloc;
    const size_t nsv = dp->nsv, pb = dp->pb, nv = dp->nv;
    size_t bytes[GPUSVM__DB_COUNT], i, t, bl;
    double zero_st[GPUSVM__ST_COUNT];
    float *host = NULL;
    int *ids = NULL;
    gpusvm_result r;
    const size_t sv_nnz = sv->row_ptr[nsv] - sv->row_ptr[0];
    memset(bytes, 0, sizeof bytes);
    if (dp->sparse) {
        bytes[GPUSVM__DB_SV_PTR] = (nsv + 1) * sizeof(int32_t);
        bytes[GPUSVM__DB_SV_COL] = bytes[GPUSVM__DB_SV_VAL] = (sv_nnz ? sv_nnz : 1) * 4;
        bytes[GPUSVM__DB_B_PTR] = (pb + 1) * sizeof(int32_t);
        bytes[GPUSVM__DB_B_COL] = bytes[GPUSVM__DB_B_VAL] = (dp->bnnz ? dp->bnnz : 1) * 4;
    } else {
        bytes[GPUSVM__DB_SV] = dp->pa * dp->dpad * sizeof(float);
        bytes[GPUSVM__DB_B] = pb * dp->dpad * sizeof(float);
    }
    bytes[GPUSVM__DB_NA] = nsv * (dp->sparse ? sizeof(double) : sizeof(float));
    bytes[GPUSVM__DB_IDX] = bytes[GPUSVM__DB_SLOT] = nsv * sizeof(int);
    bytes[GPUSVM__DB_NB] = pb * (dp->sparse ? sizeof(double) : sizeof(float));
    bytes[GPUSVM__DB_K] = dp->R * pb * sizeof(float);
    bytes[GPUSVM__DB_CF] = nv * nsv * sizeof(double);
    bytes[GPUSVM__DB_DEC] = nv * pb * sizeof(double);
    bytes[GPUSVM__DB_ST] = sizeof zero_st;
    bytes[GPUSVM__DB_Y] = 16;
    bytes[GPUSVM__DB_TAB] = GPUSVM__PI_COUNT * sizeof(int32_t);
    if ((r = gpusvm__ocl_buffers(b, dp->mem, bytes, gpusvm__dec_buf_what, 0, GPUSVM__DB_COUNT)) != GPUSVM_OK) return r;
    if (!dp->sparse) host = gpusvm__to_colmajor(a, sv, 0, nsv, dp->pa, dp->dpad);
    ids = (int *)gpusvm__alloc(a, nsv * 2, sizeof(int));
    if (dp->sparse) dp->norms_d = (double *)gpusvm__alloc(a, nsv > pb ? nsv : pb, sizeof(double));
    else dp->norms = (float *)gpusvm__alloc(a, nsv > pb ? nsv : pb, sizeof(float));
    dp->live = (unsigned char *)gpusvm__calloc(a, nv * dp->nblocks, 1);
    dp->dbuf = (double *)gpusvm__alloc(a, nv * pb, sizeof(double));
    if ((dp->sparse ? !dp->norms_d : !host || !dp->norms) || !ids || !dp->live || !dp->dbuf) {
        r = gpusvm__oom(b->base.ctx, "decision values");
        goto done;
    }
    if (dp->sparse) gpusvm__norms_d(sv, 0, nsv, dp->norms_d);
    else gpusvm__norms(sv, 0, nsv, dp->norms);
    for (i = 0; i < nsv; ++i) {
        ids[i] = (int)i;
        ids[nsv + i] = (int)(i % dp->R);
    }
    for (t = 0; t < nv; ++t)
        for (bl = 0; bl < dp->nblocks; ++bl)
            for (i = bl * dp->R; i < nsv && i < (bl + 1) * dp->R && !dp->live[t * dp->nblocks + bl]; ++i)
                dp->live[t * dp->nblocks + bl] = coef[t * nsv + i] != 0.0;
    memset(zero_st, 0, sizeof zero_st);
    r = dp->sparse ? gpusvm__ocl_upload_csr(b, sv, 0, nsv, dp->mem[GPUSVM__DB_SV_PTR], dp->mem[GPUSVM__DB_SV_COL],
                                            dp->mem[GPUSVM__DB_SV_VAL])
                   : gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_SV], 0, bytes[GPUSVM__DB_SV], host);
    if (r != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_NA], 0, bytes[GPUSVM__DB_NA],
                               dp->sparse ? (const void *)dp->norms_d : (const void *)dp->norms)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_IDX], 0, nsv * sizeof(int), ids)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_SLOT], 0, nsv * sizeof(int), ids + nsv)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_CF], 0, bytes[GPUSVM__DB_CF], coef)) != GPUSVM_OK)
        goto done;
    r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_ST], 0, sizeof zero_st, zero_st);
done:
    gpusvm__free(a, host);
    gpusvm__free(a, ids);
    return r;
}

/* The rows kernel's arguments for a prediction: the support vectors are the rows, the block of
   test points the columns (one problem, no map). */
static gpusvm_result gpusvm__ocl_dec_bind_sparse(gpusvm__ocl *b, const gpusvm__ocl_dec *dp, int ktype, float coef0,
                                                 int degree)
{
    const gpusvm__cl_mem *m = dp->mem;
    const gpusvm__cl_int pb = (gpusvm__cl_int)dp->pb;
    gpusvm__sparse_args sa;
    sa.a[0] = m[GPUSVM__DB_SV_PTR];
    sa.a[1] = m[GPUSVM__DB_SV_COL];
    sa.a[2] = m[GPUSVM__DB_SV_VAL];
    sa.b[0] = m[GPUSVM__DB_B_PTR];
    sa.b[1] = m[GPUSVM__DB_B_COL];
    sa.b[2] = m[GPUSVM__DB_B_VAL];
    sa.idx = sa.map = m[GPUSVM__DB_IDX]; /* no map (use_map 0): any buffer */
    sa.norm_a = m[GPUSVM__DB_NA];
    sa.norm_b = m[GPUSVM__DB_NB];
    sa.pinfo = m[GPUSVM__DB_TAB];
    sa.use_map = 0;
    sa.slot = m[GPUSVM__DB_SLOT];
    sa.K = m[GPUSVM__DB_K];
    sa.ldk = pb;
    sa.qmax = 0;
    sa.ktype = ktype;
    sa.coef0 = coef0;
    sa.degree = degree;
    sa.status = m[GPUSVM__DB_ST];
    sa.self = 0;
    return gpusvm__ocl_bind_sparse(b, &sa);
}

static gpusvm_result gpusvm__ocl_dec_bind_dense(gpusvm__ocl *b, const gpusvm__ocl_dec *dp, int ktype, float coef0,
                                                int degree)
{
    const gpusvm__cl_mem *m = dp->mem;
    const gpusvm__cl_int pb = (gpusvm__cl_int)dp->pb;
    gpusvm__rows_args ra;
    ra.A = m[GPUSVM__DB_SV];
    ra.pitch_a = (gpusvm__cl_int)dp->pa;
    ra.idx = m[GPUSVM__DB_IDX];
    ra.norm_a = m[GPUSVM__DB_NA];
    ra.B = m[GPUSVM__DB_B];
    ra.pitch_b = pb;
    ra.norm_b = m[GPUSVM__DB_NB];
    ra.pinfo = m[GPUSVM__DB_TAB];
    ra.map = m[GPUSVM__DB_IDX]; /* no map (use_map 0): any buffer */
    ra.use_map = 0;
    ra.dpad = (gpusvm__cl_int)dp->dpad;
    ra.slot = m[GPUSVM__DB_SLOT];
    ra.K = m[GPUSVM__DB_K];
    ra.ldk = pb;
    ra.qmax = 0;
    ra.ktype = ktype;
    ra.coef0 = coef0;
    ra.degree = degree;
    ra.status = m[GPUSVM__DB_ST];
    ra.a_pos = 0;
    ra.self = 0;
    return gpusvm__ocl_bind_rows(b, &ra);
}

/* Bind: the rows and update arguments every block shares. */
static gpusvm_result gpusvm__ocl_dec_bind(gpusvm__ocl *b, const gpusvm__ocl_dec *dp, int ktype, float coef0,
                                          int degree)
{
    const gpusvm__cl_mem *m = dp->mem;
    const gpusvm__cl_int zero = 0, pb = (gpusvm__cl_int)dp->pb;
    gpusvm_result r = dp->sparse ? gpusvm__ocl_dec_bind_sparse(b, dp, ktype, coef0, degree)
                                 : gpusvm__ocl_dec_bind_dense(b, dp, ktype, coef0, degree);
    if (r != GPUSVM_OK) return r;
    GPUSVM__SET(UPDATE, UPDATE_out0, m[GPUSVM__DB_DEC]);
    GPUSVM__SET(UPDATE, UPDATE_y0, m[GPUSVM__DB_Y]);
    GPUSVM__SET(UPDATE, UPDATE_use_y, zero);
    GPUSVM__SET(UPDATE, UPDATE_pinfo, m[GPUSVM__DB_TAB]);
    GPUSVM__SET(UPDATE, UPDATE_qmax, zero);
    GPUSVM__SET(UPDATE, UPDATE_K0, m[GPUSVM__DB_K]);
    GPUSVM__SET(UPDATE, UPDATE_ldk, pb);
    GPUSVM__SET(UPDATE, UPDATE_slot0, m[GPUSVM__DB_SLOT]);
    GPUSVM__SET(UPDATE, UPDATE_coef0, m[GPUSVM__DB_CF]);
    GPUSVM__SET(UPDATE, UPDATE_status, m[GPUSVM__DB_ST]);
    r = gpusvm__ocl_update_window(b, 0, INT_MAX, 0);
fail:
    return r;
}

/* Test points [t0, t0 + cnt): upload the block, one kernel tile per block of support vectors,
   every decision vector that touches the tile, then the values into out. */
static gpusvm_result gpusvm__ocl_dec_block(gpusvm__ocl *b, gpusvm__ocl_dec *dp, const gpusvm__csr *x, size_t t0,
                                           double *out)
{
    const gpusvm_allocator *a = &b->base.ctx->alloc;
    const size_t cnt = dp->nt - t0 < dp->pb ? dp->nt - t0 : dp->pb;
    int32_t info[GPUSVM__PI_COUNT]; /* one problem: the block of test points against every support vector */
    gpusvm_result r = GPUSVM_OK;
    size_t s0, t, g1 = gpusvm__round_up(cnt, GPUSVM__L), l1 = GPUSVM__L;
    if (dp->sparse) {
        r = gpusvm__ocl_upload_csr(b, x, t0, cnt, dp->mem[GPUSVM__DB_B_PTR], dp->mem[GPUSVM__DB_B_COL],
                                   dp->mem[GPUSVM__DB_B_VAL]);
    } else {
        float *host = gpusvm__to_colmajor(a, x, t0, cnt, dp->pb, dp->dpad);
        if (!host) return gpusvm__oom(b->base.ctx, "a block of test points");
        r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_B], 0, dp->pb * dp->dpad * sizeof(float), host);
        gpusvm__free(a, host);
    }
    if (r != GPUSVM_OK) return r;
    if (dp->sparse) gpusvm__norms_d(x, t0, cnt, dp->norms_d);
    else gpusvm__norms(x, t0, cnt, dp->norms);
    memset(info, 0, sizeof info);
    info[GPUSVM__PI_NVAR] = info[GPUSVM__PI_NPTS] = (int32_t)cnt;
    info[GPUSVM__PI_PT] = 0;
    info[GPUSVM__PI_Q] = (int32_t)dp->nsv;
    info[GPUSVM__PI_WHOLE] = 0;
    info[GPUSVM__PI_NPARTS] = (int32_t)gpusvm__keys_parts(cnt);
    info[GPUSVM__PI_SPLIT] = INT_MAX; /* support vectors are points, never second copies */
    info[GPUSVM__PI_GAMMA] = gpusvm__float_bits(dp->gamma);
    if ((r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_NB], 0, cnt * (dp->sparse ? sizeof(double) : sizeof(float)),
                               dp->sparse ? (const void *)dp->norms_d : (const void *)dp->norms)) != GPUSVM_OK ||
        (r = gpusvm__ocl_fill(b, dp->mem[GPUSVM__DB_DEC], dp->nv * dp->pb * sizeof(double), 0)) != GPUSVM_OK ||
        (r = gpusvm__ocl_write(b, dp->mem[GPUSVM__DB_TAB], 0, sizeof info, info)) != GPUSVM_OK)
        return r;
    for (s0 = 0; s0 < dp->nsv; s0 += dp->R) {
        const gpusvm__cl_int nr = (gpusvm__cl_int)(dp->nsv - s0 < dp->R ? dp->nsv - s0 : dp->R);
        if ((r = gpusvm__ocl_rows_launch(b, dp->sparse, (int)s0, nr, 0, dp->pb, 1, 0, 0)) != GPUSVM_OK) return r;
        GPUSVM__SET(UPDATE, UPDATE_m_in, nr);
        for (t = 0; t < dp->nv; ++t) { /* one tile, every decision vector that touches it */
            const gpusvm__cl_int co = (gpusvm__cl_int)(t * dp->nsv + s0), oo = (gpusvm__cl_int)(t * dp->pb);
            if (!dp->live[t * dp->nblocks + s0 / dp->R]) continue;
            GPUSVM__SET(UPDATE, UPDATE_coef_off, co);
            GPUSVM__SET(UPDATE, UPDATE_out_off, oo);
            if ((r = gpusvm__ocl_launch(b, GPUSVM__KN_UPDATE, 1, &g1, &l1)) != GPUSVM_OK) return r;
        }
    }
    if ((r = gpusvm__ocl_read(b, dp->mem[GPUSVM__DB_DEC], dp->nv * dp->pb * sizeof(double), dp->dbuf)) != GPUSVM_OK)
        return r;
    for (t = 0; t < dp->nv; ++t) memcpy(out + t * dp->nt + t0, dp->dbuf + t * dp->pb, cnt * sizeof(double));
fail:
    return r;
}

static gpusvm_result gpusvm__ocl_decision(gpusvm__backend *bb, const gpusvm__csr *sv, const double *coef, int nv,
                                          const gpusvm__csr *x, int ktype, float gamma, float coef0, int degree,
                                          double *out)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    const gpusvm_allocator *a = &bb->ctx->alloc;
    gpusvm__ocl_dec dp;
    gpusvm_result r;
    size_t t0;
    memset(&dp, 0, sizeof dp);
    if (sv->rows == 0 || x->rows == 0) {
        for (t0 = 0; t0 < x->rows * (size_t)nv; ++t0) out[t0] = 0.0;
        return GPUSVM_OK;
    }
    if ((r = gpusvm__ocl_dec_plan(b, sv, x, nv, ktype, &dp)) != GPUSVM_OK) return r;
    dp.gamma = gamma;
    if ((r = gpusvm__ocl_dec_setup(b, &dp, sv, coef)) == GPUSVM_OK &&
        (r = gpusvm__ocl_dec_bind(b, &dp, ktype, coef0, degree)) == GPUSVM_OK)
        for (t0 = 0; t0 < dp.nt && r == GPUSVM_OK; t0 += dp.pb) r = gpusvm__ocl_dec_block(b, &dp, x, t0, out);
    gpusvm__free(a, dp.live);
    gpusvm__free(a, dp.norms);
    gpusvm__free(a, dp.norms_d);
    gpusvm__free(a, dp.dbuf);
    gpusvm__release_mems(b, dp.mem, GPUSVM__DB_COUNT);
    return r;
}

/* >>opencl/create: devices, limits, the tables and the backend ---------------------------------- */

/* The device bytes a batch would hold: its plan's buffers summed; SIZE_MAX where a size
   overflows or one buffer passes the device's limit. */
static size_t gpusvm__ocl_train_bytes(gpusvm__backend *bb, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan)
{
    gpusvm__ocl shape = *(gpusvm__ocl *)bb; /* the plan's fields are set on a copy */
    size_t bytes[GPUSVM__TB_COUNT], npts_all, total = 0;
    int i;
    if (gpusvm__ocl_shape(&shape, p, nprob, plan, bytes, &npts_all)) return (size_t)-1;
    for (i = 0; i < GPUSVM__TB_COUNT; ++i) {
        if (bytes[i] > bb->max_alloc || total + bytes[i] < total) return (size_t)-1;
        total += bytes[i];
    }
    return total;
}
static size_t gpusvm__ocl_mem_left(gpusvm__backend *bb)
{
    const gpusvm__ocl *b = (const gpusvm__ocl *)bb;
    return b->mem_budget - b->mem_used;
}

static void gpusvm__ocl_destroy(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm__ocl_say_launches(b);
    gpusvm__ocl_train_end(bb);
    gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
    if (b->queue) b->cl->clReleaseCommandQueue(b->queue);
    if (b->cctx) b->cl->clReleaseContext(b->cctx);
    gpusvm__free(&bb->ctx->alloc, bb);
}

/* Every device of every platform, in order, for GPUSVM_DEVICE indices. */
typedef struct gpusvm__cl_dev_entry {
    gpusvm__cl_platform platform;
    gpusvm__cl_device device;
    gpusvm__cl_ulong type;
    int fp64;
    char name[256];
} gpusvm__cl_dev_entry;

static int gpusvm__ocl_list(gpusvm__cl_api *cl, gpusvm__cl_dev_entry *out, int max)
{
    gpusvm__cl_platform plats[16];
    gpusvm__cl_uint np = 0, p, nd, k;
    int count = 0;
    if (cl->clGetPlatformIDs(16, plats, &np) != 0) return 0;
    if (np > 16) np = 16;
    for (p = 0; p < np && count < max; ++p) {
        gpusvm__cl_device devs[16];
        char pname[96] = {0};
        nd = 0;
        if (cl->clGetDeviceIDs(plats[p], GPUSVM__CL_DEVICE_TYPE_ALL, 16, devs, &nd) != 0) continue;
        if (nd > 16) nd = 16;
        cl->clGetPlatformInfo(plats[p], GPUSVM__CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
        for (k = 0; k < nd && count < max; ++k) {
            gpusvm__cl_dev_entry *e = &out[count++];
            char dname[128] = {0}, ext[8192] = {0};
            e->platform = plats[p];
            e->device = devs[k];
            e->type = 0;
            cl->clGetDeviceInfo(devs[k], GPUSVM__CL_DEVICE_TYPE, sizeof e->type, &e->type, NULL);
            cl->clGetDeviceInfo(devs[k], GPUSVM__CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
            if (cl->clGetDeviceInfo(devs[k], GPUSVM__CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL) != 0) ext[0] = 0;
            e->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
            snprintf(e->name, sizeof e->name, "%s (%s)", dname, pname);
        }
    }
    return count;
}

/* What a device's name says when its dual variables are float pairs (fp64 off, or none). */
static const char *gpusvm__fp64_note(gpusvm_fp64 fp64, int has)
{
    return fp64 == GPUSVM_FP64_OFF && has ? " [fp64 off: float pairs]" : " [no fp64: float pairs]";
}

/* The device sel names (NULL = automatic: the first GPU, accelerator, then CPU, of each kind one with
   fp64 first; with fp64 ON only those), or -1 with the reason in why. */
static int gpusvm__ocl_pick(const gpusvm__cl_dev_entry *devs, int n, const char *sel, int auto_only_gpu,
                            gpusvm_fp64 fp64, char *why, size_t why_size)
{
    const gpusvm__cl_ulong order[3] = {GPUSVM__CL_DEVICE_TYPE_GPU, GPUSVM__CL_DEVICE_TYPE_ACCELERATOR,
                                       GPUSVM__CL_DEVICE_TYPE_CPU};
    long long want;
    int pick = -1, i, o;
    if (n == 0) {
        snprintf(why, why_size, "no OpenCL platform or device found");
        return -1;
    }
    if (sel && *sel) {
        if (gpusvm__parse_long(sel, strlen(sel), 0, 1000, &want)) {
            if (want >= n) {
                snprintf(why, why_size, "device index %lld given, but only %d OpenCL devices exist", want, n);
                return -1;
            }
            pick = (int)want;
        } else {
            for (i = 0; i < n && pick < 0; ++i)
                if (gpusvm__icontains(devs[i].name, sel)) pick = i;
            if (pick < 0) {
                snprintf(why, why_size, "no OpenCL device name contains '%s'", sel);
                return -1;
            }
        }
        if (!devs[pick].fp64 && fp64 == GPUSVM_FP64_ON) {
            snprintf(why, why_size,
                     "device %s lacks cl_khr_fp64 (double precision), and fp64 is on (GPUSVM_FP64=auto or desc.fp64 "
                     "AUTO runs it with float pairs)",
                     devs[pick].name);
            return -1;
        }
        return pick;
    }
    for (o = 0; o < 6 && pick < 0; ++o) /* of each kind: with fp64, then (fp64 not ON) without */
        for (i = 0; i < n && pick < 0; ++i)
            if ((devs[i].type & order[o / 2]) && (o % 2 ? fp64 != GPUSVM_FP64_ON && !devs[i].fp64 : devs[i].fp64))
                pick = i;
    if (pick < 0) {
        snprintf(why, why_size, "no OpenCL device reports cl_khr_fp64 (double precision), and fp64 is on");
        return -1;
    }
    /* On a CPU the built-in C backend is faster than an OpenCL CPU driver (measured with PoCL);
       automatic selection takes OpenCL only for GPUs and accelerators. */
    if (auto_only_gpu && !(devs[pick].type & (GPUSVM__CL_DEVICE_TYPE_GPU | GPUSVM__CL_DEVICE_TYPE_ACCELERATOR))) {
        snprintf(why, why_size, "OpenCL offers only a CPU device (%s), where the C backend is faster", devs[pick].name);
        return -1;
    }
    return pick;
}

/* The device's limits, the memory budget and the working-set capacity its local memory allows. */
static void gpusvm__ocl_limits(gpusvm__ocl *b, double budget_mb)
{
    gpusvm__cl_ulong lm = 0, ma = 0, gm = 0, type = 0;
    gpusvm__cl_uint cus = 0;
    size_t wg = 0;
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    b->max_wg = wg;
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    b->cus = cus ? (size_t)cus : 1;
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ma, &ma, NULL);
    b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL);
    if (b->cl->clGetDeviceInfo(b->dev, GPUSVM__CL_DEVICE_TYPE, sizeof type, &type, NULL) != 0) type = 0;
    b->cpu = (type & GPUSVM__CL_DEVICE_TYPE_CPU) != 0;
    b->base.own_thread = type && !b->cpu;
    b->local_mem = (size_t)lm;
    b->max_alloc = ma ? (size_t)ma : (size_t)128 << 20;
    b->global_mem = (size_t)gm;
    b->mem_budget = b->global_mem ? b->global_mem : (size_t)-1;
    if (budget_mb > 0.0 && budget_mb * 1048576.0 < (double)b->mem_budget) b->mem_budget = (size_t)(budget_mb * 1048576.0);
    b->qcap = GPUSVM__Q;
    b->sh_log = GPUSVM__SPARSE_HASH_LOG;
    while (b->sh_log > 6 && GPUSVM__SP_LOCAL(b->sh_log) + 1024 > b->local_mem) --b->sh_log;
    b->nar_r = GPUSVM__NARROW_ROWS;
    while (b->nar_r > 4 && GPUSVM__NAR_LOCAL(b->nar_r) + 1024 > b->local_mem) b->nar_r /= 2;
    while (b->qcap > 64 && GPUSVM__SMO_LOCAL(b->qcap) > b->local_mem) b->qcap /= 2; /* gpusvm_smo's local arrays */
    b->base.qcap = b->qcap;
    /* Problems of GPUSVM__LARGE_NVAR variables or more: half the working set. A pair update's cost
       grows with q (H200, warp exchanges: 2.4 us at q = 512, 3.0 us at 1024, with its rows hot in
       cache 2.5 us), and at this size the smaller set needs hardly more pair updates (dense
       200,000 x 32: 140,039 against 137,271; training 0.642 s against 0.673 s), while below it
       the pair updates grow (a9a: +35%) and 1024 wins. */
    b->base.q_large = b->qcap >= 1024 ? b->qcap / 2 : 0;
    b->base.max_alloc = b->max_alloc;
}

#ifndef GPUSVM_PREDICT_ONLY
static const gpusvm__train_steps gpusvm__ocl_train_steps = {
    gpusvm__ocl_train_bytes, gpusvm__ocl_mem_left, gpusvm__ocl_train_begin, gpusvm__ocl_select,
    gpusvm__ocl_rows, gpusvm__ocl_smo, gpusvm__ocl_update, gpusvm__ocl_flush,
    gpusvm__ocl_read_status, gpusvm__ocl_read_state, gpusvm__ocl_train_end, gpusvm__ocl_write_state,
    gpusvm__ocl_write_ws};
static const gpusvm__cs_steps gpusvm__ocl_cs_steps = {gpusvm__ocl_cs_begin, gpusvm__ocl_cs_step, gpusvm__ocl_cs_read};
static const gpusvm__split_steps gpusvm__ocl_split_steps = {gpusvm__ocl_splits, gpusvm__ocl_split_post, gpusvm__ocl_split_take,
                                                      gpusvm__ocl_split_merge, gpusvm__ocl_split_apply};
#endif

#ifndef GPUSVM_PREDICT_ONLY
static gpusvm__backend *gpusvm__ocl_lane(gpusvm__backend *bb, int n, int k);
static const gpusvm__lane_steps gpusvm__ocl_lane_steps = {gpusvm__ocl_lane};
#endif

static gpusvm_result gpusvm__ocl_ready(gpusvm__backend *bb);

static void gpusvm__ocl_vtable(gpusvm__backend *base)
{
#ifndef GPUSVM_PREDICT_ONLY
    base->train = &gpusvm__ocl_train_steps;
    base->lanes = &gpusvm__ocl_lane_steps;
    base->cs = &gpusvm__ocl_cs_steps;
    base->split = &gpusvm__ocl_split_steps;
#ifdef GPUSVM_TEST_HOOKS
    base->test.read_ws = gpusvm__ocl_read_ws;
    base->test.read_rows = gpusvm__ocl_read_rows;
    base->test.write_rows = gpusvm__ocl_write_rows;
    base->test.poison = gpusvm__ocl_poison;
#endif
#endif
    base->decision = gpusvm__ocl_decision;
    base->ready = gpusvm__ocl_ready;
    base->destroy = gpusvm__ocl_destroy;
    base->cache_budget = (size_t)-1; /* the device's memory decides */
    base->cs_q = 32;
    base->cs_ratio = 0.25;
}

/* What a backend on device dev of platform knows before its context: the API, its arithmetic
   (fp64: double, else float pairs), the driver's ways (own_cache: a program cache of its own;
   one_program: every kernel in one program), the device's limits and the tables (gpusvm__ocl_create's
   and a lane's). */
static void gpusvm__ocl_init(gpusvm__ocl *b, gpusvm_context *ctx, gpusvm__cl_api *cl, gpusvm__cl_device dev,
                             gpusvm__cl_platform platform, int fp64, int own_cache, int one_program, double budget_mb)
{
    b->base.ctx = ctx;
    b->cl = cl;
    b->dev = dev;
    b->platform = platform;
    b->fp64 = fp64;
    b->base.pairs = !fp64;
    b->own_cache = own_cache;
    b->one_program = one_program;
    gpusvm__ocl_limits(b, budget_mb);
    gpusvm__ocl_vtable(&b->base);
}

#ifndef GPUSVM_PREDICT_ONLY
/* Lane k of n (gpusvm__lane_steps): b's device, context, exchanges and built programs (retained:
   the lane's kernels come from them, and a part b has not built yet the lane builds for itself,
   under the context's build lock), its own queue and kernels, 1/n of the memory b has left. */
static gpusvm__backend *gpusvm__ocl_lane(gpusvm__backend *bb, int n, int k)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb, *l;
    gpusvm__kset built = 0;
    gpusvm__cl_int e = 0;
    int i, ok;
    (void)k;
    if (n < 1 || !(l = (gpusvm__ocl *)gpusvm__calloc(&bb->ctx->alloc, 1, sizeof(gpusvm__ocl)))) return NULL;
    gpusvm__ocl_init(l, bb->ctx, b->cl, b->dev, b->platform, b->fp64, b->own_cache, b->one_program, 0.0);
    l->base.lanes = NULL;
    l->mem_budget = (b->mem_budget - b->mem_used) / (size_t)n;
    l->poll = 1;
    l->no_narrow = b->no_narrow;
    l->no_cache = b->no_cache;
    memcpy(l->options, b->options, sizeof l->options);
    l->xc = b->xc;
    l->smo_l = b->smo_l;
    memcpy(l->name, b->name, sizeof l->name);
    l->has_fp64 = b->has_fp64;
    ok = b->cl->clRetainContext(b->cctx) == 0;
    l->cctx = ok ? b->cctx : NULL;
    if (ok) l->queue = b->cl->clCreateCommandQueue(b->cctx, b->dev, 0, &e);
    ok = ok && e == 0 && l->queue;
    for (i = 0; ok && i < GPUSVM__KN_COUNT; ++i) {
        if (b->kern[i]) built |= (gpusvm__kset)1 << i;
        if (b->prog[i] && (ok = b->cl->clRetainProgram(b->prog[i]) == 0) != 0) l->prog[i] = b->prog[i];
    }
    if (!ok || (built && gpusvm__ocl_kernels(l, built) != GPUSVM_OK)) {
        if (!ok) gpusvm__log(bb->ctx, GPUSVM_LOG_DEBUG, "a lane of the device could not be opened");
        if (e != 0 || !l->queue) l->queue = NULL;
        gpusvm__ocl_destroy(&l->base);
        return NULL;
    }
    return &l->base;
}
#endif

/* Creates b's context and queue and builds its first kernel (it decides the reductions' exchanges,
   so that a compiler that fails can fall back or fail as asked). 0 with the reason in why, and b
   as it was (closed), on failure; *err as gpusvm__ocl_create's. */
static int gpusvm__ocl_open(gpusvm__ocl *b, char *why, size_t why_size, gpusvm_result *err)
{
    gpusvm_context *ctx = b->base.ctx;
    gpusvm__cl_api *cl = b->cl;
    gpusvm__cl_context_properties props[3];
    gpusvm__cl_int e = 0;
    *err = GPUSVM_OK;
    props[0] = GPUSVM__CL_CONTEXT_PLATFORM;
    props[1] = (gpusvm__cl_context_properties)b->platform;
    props[2] = 0;
    b->cctx = cl->clCreateContext(props, 1, &b->dev, NULL, NULL, &e);
    if (e != 0 || !b->cctx) {
        snprintf(why, why_size, "clCreateContext returned %d (%s) for %s", (int)e, gpusvm__cl_error_name(e), b->name);
        b->cctx = NULL;
        return 0;
    }
    b->queue = cl->clCreateCommandQueue(b->cctx, b->dev, 0, &e);
    if (e != 0 || !b->queue) {
        snprintf(why, why_size, "clCreateCommandQueue returned %d (%s)", (int)e, gpusvm__cl_error_name(e));
        b->queue = NULL;
    } else if ((*err = gpusvm__ocl_need(b, GPUSVM__KBIT(KEYS))) != GPUSVM_OK) {
        snprintf(why, why_size, "%s", ctx->error);
    }
    if (!b->queue || *err != GPUSVM_OK) {
        gpusvm__ocl_release_kernels(b, GPUSVM__KS_ALL);
        if (b->queue) cl->clReleaseCommandQueue(b->queue);
        cl->clReleaseContext(b->cctx);
        b->queue = NULL;
        b->cctx = NULL;
        return 0;
    }
    {
        char width[48] = "";
        if (b->xc.width) snprintf(width, sizeof width, " (sub-groups of %d)", b->xc.width);
        gpusvm__log(ctx, GPUSVM_LOG_INFO, "device %s: double precision %s; reductions through %s%s; OpenCL C %d.%d",
                    b->name, b->fp64 ? "(cl_khr_fp64)" : b->has_fp64 ? "off (float pairs)" : "none (float pairs)",
                    gpusvm__exchange_name(b->xc.kind), width, b->xc.std / 10, b->xc.std % 10);
    }
    return 1;
}

/* The backend's ready hook: a device of several opened when work first reaches it (gpusvm__ocl_make
   made it closed), under the process-wide open lock, since drivers do not all create contexts
   safely from two threads at once. */
static gpusvm_result gpusvm__ocl_ready(gpusvm__backend *bb)
{
    gpusvm__ocl *b = (gpusvm__ocl *)bb;
    gpusvm_result err = GPUSVM_OK;
    char why[512];
    int ok;
    if (b->queue) return GPUSVM_OK;
    gpusvm__open_lock();
    ok = gpusvm__ocl_open(b, why, sizeof why, &err);
    gpusvm__open_unlock();
    if (ok) return GPUSVM_OK;
    if (err != GPUSVM_OK) return err; /* the build's failure, said on the context */
    return gpusvm__fail(bb->ctx, GPUSVM_ERR_OPENCL_CALL, "opening device %s: %s", b->name, why);
}

/* The backend of the device sel names (NULL = automatic, an index, or a name substring), its
   limits and tables, without its context (closed: gpusvm__ocl_open, or the ready hook at its first
   work). NULL with the reason in why; *err is GPUSVM_OK then unless host memory ran out. */
static gpusvm__ocl *gpusvm__ocl_make(gpusvm_context *ctx, gpusvm__cl_api *cl, const char *sel, int auto_only_gpu,
                                     gpusvm_fp64 fp64, double budget_mb, char *why, size_t why_size, gpusvm_result *err)
{
    gpusvm__cl_dev_entry devs[32];
    const int n = gpusvm__ocl_list(cl, devs, 32);
    const int pick = gpusvm__ocl_pick(devs, n, sel, auto_only_gpu, fp64, why, why_size);
    gpusvm__ocl *b;
    *err = GPUSVM_OK;
    if (pick < 0) return NULL;
    b = (gpusvm__ocl *)gpusvm__calloc(&ctx->alloc, 1, sizeof(gpusvm__ocl));
    if (!b) {
        snprintf(why, why_size, "out of host memory");
        *err = gpusvm__oom(ctx, "the OpenCL backend");
        return NULL;
    }
    {
        const int pocl = strstr(devs[pick].name, "(Portable Computing Language)") != NULL;
        const int one = ctx->programs >= 0 ? ctx->programs : pocl || strstr(devs[pick].name, "(Oclgrind)") != NULL;
        gpusvm__ocl_init(b, ctx, cl, devs[pick].device, devs[pick].platform,
                         devs[pick].fp64 && fp64 != GPUSVM_FP64_OFF, pocl, one, budget_mb);
    }
    snprintf(b->name, sizeof b->name, "%s", devs[pick].name);
    b->has_fp64 = devs[pick].fp64;
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s%s", devs[pick].name,
             b->fp64 ? "" : gpusvm__fp64_note(fp64, devs[pick].fp64));
    return b;
}

/* Chooses a device (as gpusvm__ocl_make), creates its context and queue and builds the first
   kernels. Returns NULL with the reason in why; *err is GPUSVM_OK then unless the kernel build
   failed or host memory ran out (its code). */
static gpusvm__backend *gpusvm__ocl_create(gpusvm_context *ctx, gpusvm__cl_api *cl, const char *sel, int auto_only_gpu,
                                           gpusvm_fp64 fp64, double budget_mb, char *why, size_t why_size,
                                           gpusvm_result *err)
{
    gpusvm__ocl *b = gpusvm__ocl_make(ctx, cl, sel, auto_only_gpu, fp64, budget_mb, why, why_size, err);
    if (b && !gpusvm__ocl_open(b, why, why_size, err)) {
        gpusvm__ocl_destroy(&b->base);
        return NULL;
    }
    return b ? &b->base : NULL;
}

/* >>multi ------------------------------------------------------------------ */
/* Several devices as one backend (desc.devices, GPUSVM_DEVICE=all or a list). Each device holds
   its own copy of the points and a contiguous share of the batch's problems, balanced by their
   kernel-row work (nvar x npts), and each step goes to every device, on a host thread each where
   they are GPUs (gpusvm__multi_run; else in turn: the steps only enqueue, so the devices still
   work at the same time, and a status read waits on each in turn). A
   problem's solve does not depend on the problems beside it (the working-set size is the
   batch's, given to every device), so its model is the one-device model. A batch of one problem
   that the devices can split (gpusvm__backend's splits) is split by rows instead: every device
   holds a share of its points, and each round's working set is merged from every device's
   report. Crammer-Singer's problems, prediction and the kernel tests' hooks (problem 0) run on
   the first device. Calls that do not depend on each other (a grid's gamma values) may each take
   a device of their own instead (the device hook, gpusvm__jobs_run). A batch or set of calls
   whose work is below GPUSVM__SPREAD_WORK stays on the first device (gpusvm__multi_spreads); the
   first device is opened with the context, every other when work first reaches it (its ready
   hook: train.begin here, the device hook's caller), so that small work never pays for devices
   it does not use. The limits are every device's from the start (they need no context). */

typedef struct gpusvm__multi {
    gpusvm__backend base;
    int n; /* devices */
    gpusvm__backend *dev[GPUSVM__MAX_DEVICES];
    /* the running batch: device k holds problems first[k] .. first[k + 1] - 1, whose variables
       start at var[k] of the batch's concatenation */
    int first[GPUSVM__MAX_DEVICES + 1];
    size_t var[GPUSVM__MAX_DEVICES + 1];
    /* rows: the batch's one problem is split by rows across every device (first and var all 0);
       reps: the devices' reports of a round, side by side (rep_bytes each) */
    int rows;
    unsigned char *reps;
    size_t rep_bytes;
    gpusvm__pool pool; /* a thread per device for the steps (gpusvm__multi_run), during a training */
} gpusvm__multi;

/* Device k's plan: the batch's, with its part where the devices split the batch by rows. */
static gpusvm__plan gpusvm__multi_plan(const gpusvm__plan *plan, int rows, int n, int k)
{
    gpusvm__plan d = *plan;
    d.parts = rows ? n : 0;
    d.part = rows ? k : 0;
    return d;
}

/* Work from which spreading pays (GPUSVM_SPREAD=always: any). Opening a device costs a context, a copy
   of the points and the kernels from the cache (4 x H100, mnist's 45 one-vs-one pairs, 6.5e9: a
   process 1 s longer on four devices than on one, for 0.07 s less training); a batch below this
   trains in well under a second on one GPU (dense 200,000 x 32, 4e10: 0.63 s), one above it gains
   seconds (a9a's 5 x 5 grid of 5 folds, 8.5e10: 14.2 s on one H100, 7.1 s on four; dense
   1,000,000 x 64, 1e12: 4.2 s of training, 2.2 s). */
#define GPUSVM__SPREAD_WORK 5e10

static int gpusvm__multi_count(gpusvm__backend *bb) { return ((gpusvm__multi *)bb)->n; }

static int gpusvm__multi_spreads(gpusvm__backend *bb, double work)
{
    return ((gpusvm__multi *)bb)->n > 1 && (bb->ctx->spread || work >= GPUSVM__SPREAD_WORK);
}

/* Whether the devices split this batch by rows (the first device asked, as part 1 of n). */
static int gpusvm__multi_by_rows(gpusvm__multi *m, const gpusvm__problem *p, int nprob, const gpusvm__plan *plan)
{
    const gpusvm__plan d = gpusvm__multi_plan(plan, 1, m->n, 0);
    return gpusvm__multi_spreads(&m->base, gpusvm__work(p, nprob)) && m->dev[0]->split &&
           m->dev[0]->split->splits(m->dev[0], p, nprob, &d);
}

/* The shares: problem t goes to the next device once more than half of its work lies past that
   device's cut (k / n of the whole); all to the first where the work does not pay for spreading,
   and Crammer-Singer's (own_rows). */
static void gpusvm__multi_split(gpusvm__multi *m, const gpusvm__problem *p, int nprob, int *first, size_t *var)
{
    const double total = gpusvm__work(p, nprob);
    double before = 0.0;
    int t, k = 1, one = !gpusvm__multi_spreads(&m->base, total);
    for (t = 0; t < nprob; ++t) one = one || p[t].own_rows;
    first[0] = 0;
    for (t = 0; t < nprob && !one; ++t) {
        const double work = (double)p[t].nvar * (double)p[t].npts;
        while (k < m->n && (before + 0.5 * work) * m->n > total * k) first[k++] = t;
        before += work;
    }
    while (k <= m->n) first[k++] = nprob;
    for (var[0] = 0, k = 0; k < m->n; ++k)
        for (var[k + 1] = var[k], t = first[k]; t < first[k + 1]; ++t) var[k + 1] += p[t].nvar;
}

#define GPUSVM__MULTI_EACH(m, k) for (k = 0; k < (m)->n; ++k) if ((m)->rows || (m)->first[k + 1] > (m)->first[k])

/* A step of every device (that holds problems): run by a thread per device where the host has
   threads (gpusvm__multi_run), so that each device's calls, and its waits, do not queue behind
   the others' (4 x H100, dense 1M x 64 split by rows: 5.2-5.7 s with the devices' calls in turn,
   4.5-4.8 s with a thread each, before the set-up ran on them too). */
enum {
    GPUSVM__MS_BEGIN, /* train.begin of the device's problems (it allocates: threads with the default allocator) */
    GPUSVM__MS_SELECT, GPUSVM__MS_ROWS, GPUSVM__MS_SMO, GPUSVM__MS_UPDATE, GPUSVM__MS_STATUS,
    GPUSVM__MS_REPORT, /* split by rows: the device's report enqueued and read (split.post, split.take) */
    GPUSVM__MS_APPLY   /* split by rows: the merged round written (split.apply) */
};

typedef struct gpusvm__multi_call {
    gpusvm__multi *m;
    const gpusvm__problem *p; /* GPUSVM__MS_BEGIN: the batch, nprob problems, its plan */
    const gpusvm__plan *plan;
    int nprob;
    int step, first, max_inner;
    double eps, ratio, max_iter;
    double *st;                       /* GPUSVM__MS_STATUS: the batch's status rows */
    const gpusvm__split_out *merged;  /* GPUSVM__MS_APPLY */
    int copied[GPUSVM__MAX_DEVICES];  /* GPUSVM__MS_REPORT: the report is in m->reps (else: rep, bytes) */
    const void *rep[GPUSVM__MAX_DEVICES];
    size_t bytes[GPUSVM__MAX_DEVICES];
    gpusvm_result res[GPUSVM__MAX_DEVICES];
} gpusvm__multi_call;

/* Device k's part of call c; what it enqueued is submitted (flush) before it returns, so that it
   starts at once. */
static void gpusvm__multi_step(void *arg, int k)
{
    gpusvm__multi_call *c = (gpusvm__multi_call *)arg;
    gpusvm__multi *m = c->m;
    gpusvm__backend *d = m->dev[k];
    gpusvm_result r = GPUSVM_OK;
    c->res[k] = GPUSVM_OK;
    if (!m->rows && m->first[k + 1] == m->first[k]) return;
    switch (c->step) {
    case GPUSVM__MS_BEGIN: {
        const gpusvm__plan pk = gpusvm__multi_plan(c->plan, m->rows, m->n, k);
        r = d->train->begin(d, c->p + m->first[k], m->rows ? c->nprob : m->first[k + 1] - m->first[k], &pk);
        break;
    }
    case GPUSVM__MS_SELECT: r = d->train->select(d, c->first, c->eps, c->max_iter); break;
    case GPUSVM__MS_ROWS: r = d->train->rows(d, c->first); break;
    case GPUSVM__MS_SMO: r = d->train->smo(d, c->eps, c->ratio, c->max_inner, c->max_iter); break;
    case GPUSVM__MS_UPDATE: r = d->train->update(d); break;
    case GPUSVM__MS_STATUS: r = d->train->read_status(d, c->st + (size_t)m->first[k] * GPUSVM__ST_COUNT); break;
    case GPUSVM__MS_REPORT:
        c->copied[k] = 0;
        if ((r = d->split->post(d, c->first)) != GPUSVM_OK ||
            (r = d->split->take(d, &c->rep[k], &c->bytes[k])) != GPUSVM_OK)
            break;
        if (c->bytes[k] == m->rep_bytes) { /* the room is there (from the first round on) */
            memcpy(m->reps + (size_t)k * m->rep_bytes, c->rep[k], m->rep_bytes);
            c->copied[k] = 1;
        }
        break;
    default: r = d->split->apply(d, c->merged); break; /* GPUSVM__MS_APPLY */
    }
    if (r == GPUSVM_OK && c->step != GPUSVM__MS_STATUS && c->step != GPUSVM__MS_REPORT && d->train->flush) d->train->flush(d);
    c->res[k] = r;
}

/* Call c on every device: on a thread each where the host has threads (ctx->threads > 1, a pool:
   each step's calls are short), every device wants one (own_thread) and the allocator is the
   default one (a custom one is called from one thread only: train.begin allocates, and any step
   may build a kernel at its first launch), else in turn, stopping at the first failure. The
   first failure's code (the context says that one). */
static gpusvm_result gpusvm__multi_run(gpusvm__multi *m, gpusvm__multi_call *c)
{
    gpusvm_context *ctx = m->base.ctx;
    int k;
    c->m = m;
#if GPUSVM__POOL
    if (m->base.own_thread && ctx->threads > 1 && ctx->default_alloc)
        return gpusvm__shared_call(ctx, &m->pool, m->n, gpusvm__multi_step, c, c->res);
#endif
    for (k = 0; k < m->n; ++k) {
        gpusvm__multi_step(c, k);
        if (c->res[k] != GPUSVM_OK) return c->res[k];
    }
    (void)ctx;
    return GPUSVM_OK;
}

static size_t gpusvm__multi_train_bytes(gpusvm__backend *bb, const gpusvm__problem *p, int nprob,
                                        const gpusvm__plan *plan)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    int first[GPUSVM__MAX_DEVICES + 1], k;
    const int rows = gpusvm__multi_by_rows(m, p, nprob, plan);
    size_t var[GPUSVM__MAX_DEVICES + 1], most = 0;
    gpusvm__multi_split(m, p, nprob, first, var);
    for (k = 0; k < m->n; ++k) {
        const gpusvm__plan pk = gpusvm__multi_plan(plan, rows, m->n, k);
        size_t bytes;
        if (rows) first[k] = 0, first[k + 1] = nprob; /* each its share of the one problem */
        if (first[k + 1] == first[k]) continue;
        bytes = m->dev[k]->train->bytes(m->dev[k], p + first[k], first[k + 1] - first[k], &pk);
        if (bytes > most) most = bytes;
    }
    return most;
}

static size_t gpusvm__multi_mem_left(gpusvm__backend *bb)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    size_t least = (size_t)-1, left;
    int k;
    for (k = 0; k < m->n; ++k)
        if ((left = m->dev[k]->train->mem_left(m->dev[k])) < least) least = left;
    return least;
}

static gpusvm_result gpusvm__multi_train_begin(gpusvm__backend *bb, const gpusvm__problem *p, int nprob,
                                               const gpusvm__plan *plan)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    gpusvm__multi_call c;
    int k;
    m->rows = gpusvm__multi_by_rows(m, p, nprob, plan);
    gpusvm__multi_split(m, p, nprob, m->first, m->var);
    if (m->rows)
        for (k = 0; k <= m->n; ++k) {
            m->first[k] = 0;
            m->var[k] = 0;
        }
    GPUSVM__MULTI_EACH(m, k) {
        gpusvm__backend *d = m->dev[k];
        gpusvm_result r;
        if (d->ready && (r = d->ready(d)) != GPUSVM_OK) return r; /* opened at its first work */
        if (m->rows)
            gpusvm__log(bb->ctx, GPUSVM_LOG_DEBUG, "device %d of %d: points %lu to %lu of the problem split by rows",
                        k + 1, m->n, (unsigned long)gpusvm__part_lo(p[0].npts, m->n, k),
                        (unsigned long)gpusvm__part_lo(p[0].npts, m->n, k + 1) - 1);
        else
            gpusvm__log(bb->ctx, GPUSVM_LOG_DEBUG, "device %d of %d: problems %d to %d (%lu variables)", k + 1, m->n,
                        m->first[k], m->first[k + 1] - 1, (unsigned long)(m->var[k + 1] - m->var[k]));
    }
    c.step = GPUSVM__MS_BEGIN;
    c.p = p;
    c.nprob = nprob;
    c.plan = plan;
    return gpusvm__multi_run(m, &c);
}

/* A round's selection of the problem split by rows: every device's report enqueued and read,
   side by side, merged once (by the first device) and written to every device. */
static gpusvm_result gpusvm__multi_rows_select(gpusvm__multi *m, int first, double eps, double max_iter)
{
    gpusvm__multi_call c;
    gpusvm__split_out merged;
    gpusvm_result r;
    int k;
    c.step = GPUSVM__MS_REPORT;
    c.first = first;
    if ((r = gpusvm__multi_run(m, &c)) != GPUSVM_OK) return r;
    for (k = 0; k < m->n; ++k) {
        if (c.copied[k]) continue;
        if (c.bytes[k] != m->rep_bytes) {
            gpusvm__free(&m->base.ctx->alloc, m->reps);
            m->rep_bytes = 0;
            if (!(m->reps = (unsigned char *)gpusvm__alloc(&m->base.ctx->alloc, (size_t)m->n, c.bytes[k])))
                return gpusvm__oom(m->base.ctx, "the devices' reports");
            m->rep_bytes = c.bytes[k];
        }
        memcpy(m->reps + (size_t)k * m->rep_bytes, c.rep[k], m->rep_bytes);
    }
    if ((r = m->dev[0]->split->merge(m->dev[0], m->reps, eps, max_iter, &merged)) != GPUSVM_OK) return r;
    c.step = GPUSVM__MS_APPLY;
    c.merged = &merged;
    return gpusvm__multi_run(m, &c);
}

static gpusvm_result gpusvm__multi_select(gpusvm__backend *bb, int first, double eps, double max_iter)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    gpusvm__multi_call c;
    if (m->rows) return gpusvm__multi_rows_select(m, first, eps, max_iter);
    c.step = GPUSVM__MS_SELECT;
    c.first = first;
    c.eps = eps;
    c.max_iter = max_iter;
    return gpusvm__multi_run(m, &c);
}

static gpusvm_result gpusvm__multi_rows(gpusvm__backend *bb, int first)
{
    gpusvm__multi_call c;
    c.step = GPUSVM__MS_ROWS;
    c.first = first;
    return gpusvm__multi_run((gpusvm__multi *)bb, &c);
}

static gpusvm_result gpusvm__multi_smo(gpusvm__backend *bb, double eps, double ratio, int max_inner, double max_iter)
{
    gpusvm__multi_call c;
    c.step = GPUSVM__MS_SMO;
    c.eps = eps;
    c.ratio = ratio;
    c.max_inner = max_inner;
    c.max_iter = max_iter;
    return gpusvm__multi_run((gpusvm__multi *)bb, &c);
}

static gpusvm_result gpusvm__multi_update(gpusvm__backend *bb)
{
    gpusvm__multi_call c;
    c.step = GPUSVM__MS_UPDATE;
    return gpusvm__multi_run((gpusvm__multi *)bb, &c);
}

static gpusvm_result gpusvm__multi_read_status(gpusvm__backend *bb, double *st)
{
    gpusvm__multi_call c;
    c.step = GPUSVM__MS_STATUS;
    c.st = st;
    return gpusvm__multi_run((gpusvm__multi *)bb, &c);
}

static gpusvm_result gpusvm__multi_read_state(gpusvm__backend *bb, double *alpha, double *G)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    gpusvm_result r;
    int k;
    GPUSVM__MULTI_EACH(m, k)
    if ((r = m->dev[k]->train->read_state(m->dev[k], alpha ? alpha + m->var[k] : NULL, G ? G + m->var[k] : NULL)) != GPUSVM_OK)
        return r;
    return GPUSVM_OK;
}

static void gpusvm__multi_train_end(gpusvm__backend *bb)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    int k;
    gpusvm__pool_stop(&m->pool);
    for (k = 0; k < m->n; ++k) m->dev[k]->train->end(m->dev[k]);
    m->rows = 0;
}

static gpusvm_result gpusvm__multi_write_state(gpusvm__backend *bb, const double *alpha, const double *G,
                                               const double *st)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    gpusvm_result r;
    int k;
    GPUSVM__MULTI_EACH(m, k)
    if ((r = m->dev[k]->train->write_state(m->dev[k], alpha ? alpha + m->var[k] : NULL, G ? G + m->var[k] : NULL,
                                    st ? st + (size_t)m->first[k] * GPUSVM__ST_COUNT : NULL)) != GPUSVM_OK)
        return r;
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__multi_write_ws(gpusvm__backend *bb, const int *idx, const int *slot, int mm)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    gpusvm_result r;
    int k;
    GPUSVM__MULTI_EACH(m, k) if ((r = m->dev[k]->train->write_ws(m->dev[k], idx, slot, mm)) != GPUSVM_OK) return r;
    return GPUSVM_OK;
}

/* Crammer-Singer's and prediction's: the first device */
static gpusvm_result gpusvm__multi_decision(gpusvm__backend *bb, const gpusvm__csr *sv, const double *coef, int nv,
                                            const gpusvm__csr *x, int ktype, float gamma, float coef0, int degree,
                                            double *out)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->decision(d, sv, coef, nv, x, ktype, gamma, coef0, degree, out);
}

static gpusvm_result gpusvm__multi_cs_begin(gpusvm__backend *bb, const gpusvm__cs_desc *desc, int *q)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->cs->begin(d, desc, q);
}

static gpusvm_result gpusvm__multi_cs_step(gpusvm__backend *bb, int step, int first, double eps, double max_iter)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->cs->step(d, step, first, eps, max_iter);
}

static gpusvm_result gpusvm__multi_cs_read(gpusvm__backend *bb, double *st, double *alpha)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->cs->read(d, st, alpha);
}

#ifdef GPUSVM_TEST_HOOKS
/* problem 0's: the first device */
static gpusvm_result gpusvm__multi_read_rows(gpusvm__backend *bb, float *K)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->test.read_rows(d, K);
}

static gpusvm_result gpusvm__multi_read_ws(gpusvm__backend *bb, int *idx, int *slot, double *coef, int mm)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->test.read_ws(d, idx, slot, coef, mm);
}

static gpusvm_result gpusvm__multi_write_rows(gpusvm__backend *bb, const float *K)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->test.write_rows(d, K);
}

static gpusvm_result gpusvm__multi_poison(gpusvm__backend *bb)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->test.poison(d);
}
#endif

static void gpusvm__multi_destroy(gpusvm__backend *bb)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    int k;
    gpusvm__pool_stop(&m->pool);
    for (k = 0; k < m->n; ++k) m->dev[k]->destroy(m->dev[k]);
    gpusvm__free(&bb->ctx->alloc, m->reps);
    gpusvm__free(&bb->ctx->alloc, m);
}

static gpusvm__backend *gpusvm__multi_device(gpusvm__backend *bb, int k)
{
    gpusvm__multi *m = (gpusvm__multi *)bb;
    return k < m->n ? m->dev[k] : NULL;
}

/* The limits every device meets: the smallest working set, buffer and cache; the working-set
   size for large problems where all agree; Crammer-Singer's choices are the first device's. */
static void gpusvm__multi_limits(gpusvm__multi *m)
{
    gpusvm__backend *b = &m->base, *d0 = m->dev[0];
    int k;
    b->qcap = d0->qcap;
    b->q_large = d0->q_large;
    b->max_alloc = d0->max_alloc;
    b->cache_budget = d0->cache_budget;
    b->status_cheap = d0->status_cheap;
    b->own_thread = d0->own_thread;
    b->cs_q = d0->cs_q;
    b->cs_ratio = d0->cs_ratio;
    for (k = 1; k < m->n; ++k) {
        const gpusvm__backend *d = m->dev[k];
        if (d->qcap < b->qcap) b->qcap = d->qcap;
        if (d->q_large != b->q_large) b->q_large = 0;
        if (d->max_alloc < b->max_alloc) b->max_alloc = d->max_alloc;
        if (d->cache_budget < b->cache_budget) b->cache_budget = d->cache_budget;
        b->status_cheap = b->status_cheap && d->status_cheap;
        b->own_thread = b->own_thread && d->own_thread;
    }
}

#ifndef GPUSVM_PREDICT_ONLY
static const gpusvm__train_steps gpusvm__multi_train_steps = {
    gpusvm__multi_train_bytes, gpusvm__multi_mem_left, gpusvm__multi_train_begin, gpusvm__multi_select,
    gpusvm__multi_rows, gpusvm__multi_smo, gpusvm__multi_update, NULL /* each step flushes its devices */,
    gpusvm__multi_read_status, gpusvm__multi_read_state, gpusvm__multi_train_end, gpusvm__multi_write_state,
    gpusvm__multi_write_ws};
static const gpusvm__cs_steps gpusvm__multi_cs_steps = {gpusvm__multi_cs_begin, gpusvm__multi_cs_step, gpusvm__multi_cs_read};
#endif
static const gpusvm__device_steps gpusvm__multi_device_steps = {gpusvm__multi_count, gpusvm__multi_spreads,
                                                                gpusvm__multi_device};

#ifndef GPUSVM_PREDICT_ONLY
/* The first device's lanes, for independent calls whose work stays on it (gpusvm__multi_spreads
   said no): as on a context of that device alone. */
static gpusvm__backend *gpusvm__multi_lane(gpusvm__backend *bb, int n, int k)
{
    gpusvm__backend *d = ((gpusvm__multi *)bb)->dev[0];
    return d->lanes ? d->lanes->open(d, n, k) : NULL;
}
static const gpusvm__lane_steps gpusvm__multi_lane_steps = {gpusvm__multi_lane};
#endif

/* One backend over the n devices dev[] (it owns them from now on, also when it fails: NULL). */
static gpusvm__backend *gpusvm__multi_create(gpusvm_context *ctx, gpusvm__backend **dev, int n)
{
    gpusvm__multi *m = (gpusvm__multi *)gpusvm__calloc(&ctx->alloc, 1, sizeof(gpusvm__multi));
    gpusvm__backend *b;
    int k;
    if (!m) {
        for (k = 0; k < n; ++k) dev[k]->destroy(dev[k]);
        return NULL;
    }
    b = &m->base;
    m->n = n;
    for (k = 0; k < n; ++k) m->dev[k] = dev[k];
    b->ctx = ctx;
    b->pairs = dev[0]->pairs; /* every device alike (gpusvm__multi_open) */
    gpusvm__multi_limits(m);
#ifndef GPUSVM_PREDICT_ONLY
    b->train = &gpusvm__multi_train_steps;
    b->cs = &gpusvm__multi_cs_steps;
    b->lanes = dev[0]->lanes ? &gpusvm__multi_lane_steps : NULL;
#endif
    b->devices = &gpusvm__multi_device_steps;
    b->decision = gpusvm__multi_decision;
    b->destroy = gpusvm__multi_destroy;
#ifdef GPUSVM_TEST_HOOKS
    b->test.read_ws = gpusvm__multi_read_ws;
    b->test.read_rows = gpusvm__multi_read_rows;
    b->test.write_rows = gpusvm__multi_write_rows;
    b->test.poison = gpusvm__multi_poison;
#endif
    return b;
}

/* Is sel several devices: "all", or a comma-separated list of indices or name substrings? */
static int gpusvm__device_list(const char *sel)
{
    return sel && (gpusvm__ieq(sel, "all") || strchr(sel, ',') != NULL);
}

/* The devices sel names (see gpusvm__device_list) as OpenCL backends, in order (a device named
   twice is opened twice: two contexts on it), as one backend; one device alone is that device's
   backend. NULL with the reason in why as gpusvm__ocl_create. */
static gpusvm__backend *gpusvm__multi_open(gpusvm_context *ctx, gpusvm__cl_api *cl, const char *sel, double budget_mb,
                                           char *why, size_t why_size, gpusvm_result *err)
{
    gpusvm__cl_dev_entry devs[32];
    gpusvm__backend *dev[GPUSVM__MAX_DEVICES], *b;
    const int n = gpusvm__ocl_list(cl, devs, 32);
    int pick[GPUSVM__MAX_DEVICES], np = 0, i, all64 = 1;
    char name[sizeof ctx->device_name];
    size_t at;
    *err = GPUSVM_OK;
    gpusvm_fp64 fp64 = ctx->fp64;
    if (gpusvm__ieq(sel, "all")) {
        for (i = 0; i < n && np < GPUSVM__MAX_DEVICES; ++i)
            if ((devs[i].fp64 || fp64 != GPUSVM_FP64_ON) &&
                (devs[i].type & (GPUSVM__CL_DEVICE_TYPE_GPU | GPUSVM__CL_DEVICE_TYPE_ACCELERATOR)))
                pick[np++] = i;
        if (!np) {
            snprintf(why, why_size, "devices 'all': no OpenCL GPU or accelerator%s",
                     fp64 == GPUSVM_FP64_ON ? " with cl_khr_fp64 (fp64 is on)" : "");
            return NULL;
        }
    } else {
        const char *s = sel;
        for (;;) {
            const char *end = strchr(s, ',');
            const size_t len = end ? (size_t)(end - s) : strlen(s);
            char item[256];
            if (len == 0 || len >= sizeof item || np == GPUSVM__MAX_DEVICES) {
                snprintf(why, why_size, "devices '%s': %s", sel,
                         len == 0 ? "an empty item" : len >= sizeof item ? "an item too long" : "more than 16 devices");
                return NULL;
            }
            memcpy(item, s, len);
            item[len] = 0;
            if ((pick[np++] = gpusvm__ocl_pick(devs, n, item, 0, fp64, why, why_size)) < 0) return NULL;
            if (!end) break;
            s = end + 1;
        }
    }
    /* every device computes alike (a split merges their reports): float pairs on all where one lacks fp64 */
    for (i = 0; i < np; ++i)
        if (!devs[pick[i]].fp64) all64 = 0;
    if (!all64) fp64 = GPUSVM_FP64_OFF;
    for (i = 0; i < np; ++i) { /* the first opened now, the others at their first work (their ready hook) */
        char idx[16];
        gpusvm__ocl *o;
        snprintf(idx, sizeof idx, "%d", pick[i]);
        o = gpusvm__ocl_make(ctx, cl, idx, 0, fp64, budget_mb, why, why_size, err);
        if (o && i == 0 && !gpusvm__ocl_open(o, why, why_size, err)) {
            gpusvm__ocl_destroy(&o->base);
            o = NULL;
        }
        if ((dev[i] = o ? &o->base : NULL) == NULL) {
            while (i-- > 0) dev[i]->destroy(dev[i]);
            return NULL;
        }
    }
    if (np == 1) return dev[0];
    at = (size_t)snprintf(name, sizeof name, "%d devices:", np);
    for (i = 0; i < np && at < sizeof name; ++i)
        at += (size_t)snprintf(name + at, sizeof name - at, "%s %d %s", i ? ";" : "", pick[i], devs[pick[i]].name);
    if (at < sizeof name && fp64 == GPUSVM_FP64_OFF)
        snprintf(name + at, sizeof name - at, "%s", gpusvm__fp64_note(ctx->fp64, all64));
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s", name);
    if ((b = gpusvm__multi_create(ctx, dev, np)) == NULL) {
        snprintf(why, why_size, "out of host memory");
        *err = gpusvm__oom(ctx, "the several-device backend");
    }
    return b;
}

#endif /* GPUSVM_NO_OPENCL */

/* Opens the OpenCL backend into ctx->backend, or leaves it NULL with the reason in why. An error
   only where falling back is not allowed: host memory ran out, or a kernel build failed on a
   device that was asked for. */
#if !defined(GPUSVM_NO_OPENCL) && !defined(GPUSVM__WINDOWS)
/* Does the ICD loader's folder (/etc/OpenCL/vendors) list PoCL alone, with no GPU device plugin
   of PoCL's beside it? Then OpenCL offers only CPU devices, where the C backend is faster, and
   auto need not pay for loading the driver (on Debian: 0.1 s and 60 MB of LLVM for a model that
   trains in 2 ms). Where a loader variable points elsewhere, or another driver is listed, it does
   not guess. */
static int gpusvm__icd_cpu_only(char *why, size_t why_size)
{
    static const char *const libdirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
                                          "/usr/lib", "/usr/local/lib"};
    static const char *const gpu_plugins[] = {"cuda", "level0", "hsa", "vulkan", "remote", "almaif"};
    char line[512], path[1024];
    struct dirent *e;
    DIR *dir;
    int pocl = 0, other = 0;
    size_t i, k;
    if (getenv("OCL_ICD_VENDORS") || getenv("OCL_ICD_FILENAMES") || getenv("OPENCL_VENDOR_PATH") ||
        getenv("POCL_DEVICES") || !(dir = opendir("/etc/OpenCL/vendors")))
        return 0;
    while ((e = readdir(dir)) != NULL) {
        const size_t n = strlen(e->d_name);
        FILE *f;
        if (n < 5 || strcmp(e->d_name + n - 4, ".icd") != 0) continue;
        snprintf(path, sizeof path, "/etc/OpenCL/vendors/%s", e->d_name);
        line[0] = 0;
        if ((f = fopen(path, "r")) != NULL) {
            if (!fgets(line, sizeof line, f)) line[0] = 0;
            fclose(f);
        }
        if (strstr(line, "libpocl")) ++pocl;
        else ++other;
    }
    closedir(dir);
    if (!pocl || other) return 0;
    for (i = 0; i < sizeof libdirs / sizeof *libdirs; ++i)
        for (k = 0; k < sizeof gpu_plugins / sizeof *gpu_plugins; ++k) {
            FILE *f;
            snprintf(path, sizeof path, "%s/pocl/libpocl-devices-%s.so", libdirs[i], gpu_plugins[k]);
            if ((f = fopen(path, "rb")) != NULL) {
                fclose(f);
                return 0;
            }
        }
    snprintf(why, why_size,
             "the only OpenCL driver installed is PoCL, for CPUs, where the C backend is faster (GPUSVM_BACKEND=opencl "
             "uses it)");
    return 1;
}
#endif

static gpusvm_result gpusvm__opencl_open(gpusvm_context *ctx, const gpusvm_context_desc *d, char *why, size_t why_size)
{
#ifndef GPUSVM_NO_OPENCL
    gpusvm_result r = GPUSVM_OK;
    const char *sel = d->devices && *d->devices ? d->devices : d->device;
    const int asked = d->backend == GPUSVM_BACKEND_OPENCL || (d->devices && *d->devices) ||
                      (d->device && *d->device && !ctx->device_from_env);
#ifndef GPUSVM__WINDOWS
    /* auto, no device or library named: skip a CPU-only OpenCL installation without loading it */
    if (d->backend == GPUSVM_BACKEND_AUTO && !(sel && *sel) && !d->opencl_library && gpusvm__icd_cpu_only(why, why_size))
        return GPUSVM_OK;
#endif
    ctx->cl = (gpusvm__cl_api *)gpusvm__calloc(&ctx->alloc, 1, sizeof(gpusvm__cl_api));
    if (!ctx->cl) return GPUSVM_ERROR_OUT_OF_MEMORY;
    if (gpusvm__cl_load(ctx->cl, d->opencl_library, why, why_size))
        ctx->backend = gpusvm__device_list(sel)
                           ? gpusvm__multi_open(ctx, ctx->cl, sel, d->device_memory_mb, why, why_size, &r)
                           : gpusvm__ocl_create(ctx, ctx->cl, sel, d->backend == GPUSVM_BACKEND_AUTO, ctx->fp64,
                                                d->device_memory_mb, why, why_size, &r);
    if (ctx->backend) {
        ctx->kind = GPUSVM_BACKEND_OPENCL;
        return GPUSVM_OK;
    }
    gpusvm__cl_unload(ctx->cl);
    gpusvm__free(&ctx->alloc, ctx->cl);
    ctx->cl = NULL;
    if (r == GPUSVM_ERROR_OUT_OF_MEMORY || ctx->last_error == GPUSVM_ERROR_OUT_OF_MEMORY) return GPUSVM_ERROR_OUT_OF_MEMORY;
    return asked ? r : GPUSVM_OK;
#else
    (void)ctx;
    (void)d;
    snprintf(why, why_size, "built with GPUSVM_NO_OPENCL");
    return GPUSVM_OK;
#endif
}

static gpusvm_result gpusvm__cpu_open(gpusvm_context *ctx, const gpusvm_context_desc *d, char *why, size_t why_size)
{
    (void)d;
    (void)why;
    (void)why_size;
    ctx->backend = gpusvm__cpu_create(ctx);
    if (!ctx->backend) return GPUSVM_ERROR_OUT_OF_MEMORY;
    ctx->kind = GPUSVM_BACKEND_CPU;
    if (ctx->split.parts > 1)
        snprintf(ctx->device_name, sizeof ctx->device_name, "CPU (gpusvm C backend, part %d of %d of a split context)",
                 ctx->split.rank + 1, ctx->split.parts);
    else snprintf(ctx->device_name, sizeof ctx->device_name, "CPU (gpusvm C backend)");
    return GPUSVM_OK;
}


/* >>validate --------------------------------------------------------------- */
/* What every public entry point checks of what the caller gives, in one place: each starts with
   gpusvm__enter (its context, whose last error is cleared), then its pointers (gpusvm__need), its
   matrices (gpusvm__check_matrix: dense and CSR alike), labels, models (gpusvm__check_model: every
   field a call reads, before any is read), points (the predictor's fast path), buffers and paths.
   Each failure is one of the list of errors (GPUSVM__ERRORS); a caller's data is never read past
   what its sizes say, and nothing is allocated by size before the size is checked. */

/* The entry point's context, its last failure cleared; 0 for NULL. */
static int gpusvm__enter(gpusvm_context *ctx)
{
    if (!ctx) return 0;
    ctx->error[0] = 0;
    ctx->last_error = GPUSVM_OK;
    ctx->last_id = GPUSVM_ERR_NONE;
    return 1;
}

/* A pointer the call needs, named in the error. */
static gpusvm_result gpusvm__need(gpusvm_context *ctx, const void *p, const char *name)
{
    return p ? GPUSVM_OK : gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "%s is NULL", name);
}

static int gpusvm__finite_f(float v) { return fabsf(v) <= FLT_MAX; }
static int gpusvm__finite_d(double v) { return fabs(v) <= DBL_MAX; }

/* A CSR matrix's arrays: offsets from 0 that never decrease, column indices ascending within
   [0, cols) in each row, finite values. what names it in errors; a model's support vectors give
   their own ids (bad: the arrays, nan: a value). */
typedef struct gpusvm__csr_arrays {
    size_t rows, cols;
    const size_t *row_ptr;
    const int32_t *col_idx;
    const float *values;
} gpusvm__csr_arrays;
static gpusvm_result gpusvm__check_csr(gpusvm_context *ctx, const char *what, const gpusvm__csr_arrays *x,
                                       gpusvm_error bad, gpusvm_error nan)
{
    const size_t *rp = x->row_ptr;
    size_t i, k;
    if (!rp) return gpusvm__fail(ctx, bad, "%s: row_ptr is NULL", what);
    if (rp[0] != 0) return gpusvm__fail(ctx, bad, "%s: row_ptr[0] must be 0", what);
    for (i = 0; i < x->rows; ++i)
        if (rp[i + 1] < rp[i]) return gpusvm__fail(ctx, bad, "%s: row_ptr decreases at row %lu", what, (unsigned long)i);
    if (rp[x->rows] && (!x->col_idx || !x->values))
        return gpusvm__fail(ctx, bad, "%s: col_idx or values is NULL", what);
    for (i = 0; i < x->rows; ++i)
        for (k = rp[i]; k < rp[i + 1]; ++k) {
            const int32_t c = x->col_idx[k];
            if (c < 0 || (size_t)c >= x->cols || (k > rp[i] && c <= x->col_idx[k - 1]))
                return gpusvm__fail(ctx, bad, "%s: row %lu: column indices must ascend within [0, %lu)", what,
                                    (unsigned long)i, (unsigned long)x->cols);
            if (!gpusvm__finite_f(x->values[k]))
                return gpusvm__fail(ctx, nan, "%s: row %lu has a NaN or Inf value", what, (unsigned long)i);
        }
    return GPUSVM_OK;
}

/* A caller's matrix, dense or CSR; *nnz (if not NULL): its nonzeros. */
static gpusvm_result gpusvm__check_matrix(gpusvm_context *ctx, const gpusvm_matrix *x, const char *what, size_t *nnz)
{
    size_t i, total, count = 0;
    gpusvm_result r;
    if (!x) return gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "%s is NULL", what);
    if (x->cols > (size_t)INT32_MAX)
        return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_INVALID, "%s has %lu columns; at most 2^31-1 are supported", what,
                            (unsigned long)x->cols);
    if (x->layout == GPUSVM_LAYOUT_CSR) {
        gpusvm__csr_arrays a;
        if (x->rows == (size_t)-1) return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_INVALID, "%s: rows + 1 overflows", what);
        a.rows = x->rows;
        a.cols = x->cols;
        a.row_ptr = x->row_ptr;
        a.col_idx = x->col_idx;
        a.values = x->values;
        r = gpusvm__check_csr(ctx, what, &a, GPUSVM_ERR_MATRIX_INVALID, GPUSVM_ERR_MATRIX_NOT_FINITE);
        if (r == GPUSVM_OK && nnz) *nnz = x->row_ptr[x->rows];
        return r;
    }
    if (x->layout != GPUSVM_LAYOUT_DEFAULT && x->layout != GPUSVM_LAYOUT_DENSE)
        return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_INVALID, "%s: unknown layout %d", what, (int)x->layout);
    if (!gpusvm__mul(x->rows, x->cols, &total) || x->rows == (size_t)-1)
        return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_INVALID, "%s: rows * cols overflows", what);
    if (total && !x->values) return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_INVALID, "%s: values is NULL", what);
    for (i = 0; i < total; ++i) {
        if (!gpusvm__finite_f(x->values[i]))
            return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_NOT_FINITE, "%s: row %lu has a NaN or Inf value", what,
                                (unsigned long)(i / x->cols));
        count += x->values[i] != 0.0f;
    }
    if (nnz) *nnz = count;
    return GPUSVM_OK;
}

/* Labels or targets: rows finite values. */
static gpusvm_result gpusvm__check_labels_finite(gpusvm_context *ctx, const double *y, size_t rows)
{
    size_t i;
    if (!y) return gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "y is NULL");
    for (i = 0; i < rows; ++i)
        if (!gpusvm__finite_d(y[i]))
            return gpusvm__fail(ctx, GPUSVM_ERR_LABEL_NOT_FINITE, "y[%lu] is NaN or Inf", (unsigned long)i);
    return GPUSVM_OK;
}

/* The decision functions of a model: a pair each (one-vs-one), a class each (Crammer-Singer), else
   one; a one-class classifier (nr_class 1) has none. */
static size_t gpusvm__model_ndec(const gpusvm_model *m)
{
    const int k = m->nr_class;
    if (m->svm_type == GPUSVM_CRAMMER_SINGER) return k > 1 ? (size_t)k : 0;
    if (m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC) return (size_t)k * (size_t)(k - 1) / 2;
    return 1;
}

/* s: the support vectors of m as they are now (what gpusvm__sv_seen_before compares). */
static void gpusvm__sv_seen_set(gpusvm__sv_seen *s, const gpusvm_model *m, const gpusvm__csr_arrays *sv)
{
    s->row_ptr = m->sv_row_ptr;
    s->col_idx = m->sv_col_idx;
    s->values = m->sv_values;
    s->norms = m->sv_norms;
    s->rows = sv->rows;
    s->cols = sv->cols;
}

/* The support vectors of a model the library made (sv_norms set: a program that changes them
   clears it, gpusvm_model) that this context checked last with the same arrays and sizes: the
   per-entry scan is not repeated at every gpusvm_predict call (one point's prediction costs
   about as much as that scan). */
static int gpusvm__sv_seen_before(const gpusvm_context *ctx, const gpusvm_model *m, const gpusvm__csr_arrays *sv)
{
    gpusvm__sv_seen now;
    if (!ctx || !m->sv_norms) return 0;
    memset(&now, 0, sizeof now);
    gpusvm__sv_seen_set(&now, m, sv);
    return memcmp(&now, &ctx->sv_seen, sizeof now) == 0;
}

/* What a model's fields say of it, before any is used to size or index: its types and
   parameters, class counts that add up, the support vectors' CSR arrays (columns within
   n_features), finite coefficients and biases; a precomputed kernel's support vectors are its
   serial numbers. Without ctx (gpusvm_model_linear_weights) only the result. */
static gpusvm_result gpusvm__check_model(gpusvm_context *ctx, const gpusvm_model *m)
{
    const int classify = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC ||
                         m->svm_type == GPUSVM_CRAMMER_SINGER;
    const gpusvm_error bad = GPUSVM_ERR_MODEL_INVALID;
    gpusvm__csr_arrays sv;
    size_t ncoef, i, sum = 0;
    int c;
    if ((int)m->svm_type < GPUSVM_C_SVC || m->svm_type > GPUSVM_CRAMMER_SINGER ||
        (int)m->kernel_type < GPUSVM_KERNEL_LINEAR || m->kernel_type > GPUSVM_KERNEL_PRECOMPUTED)
        return gpusvm__fail(ctx, bad, "model: svm_type %d or kernel_type %d is unknown",
                            (int)m->svm_type, (int)m->kernel_type);
    if (m->nr_class < 1 || m->degree < 0 || !gpusvm__finite_d(m->gamma) || !gpusvm__finite_d(m->coef0) ||
        m->n_features > (size_t)INT32_MAX || m->total_sv >= (size_t)INT32_MAX)
        return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID,
                            "model: nr_class %d, degree %d, gamma, coef0, n_features or total_sv out of range",
                            m->nr_class, m->degree);
    if (!m->rho || (classify && (!m->label || !m->n_sv)) || (m->total_sv && !m->sv_coef))
        return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "model: rho, label, n_sv or sv_coef is NULL");
    for (c = 0; classify && c < m->nr_class; ++c) {
        if (m->n_sv[c] < 0) return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "model: n_sv[%d] is negative", c);
        sum += (size_t)m->n_sv[c];
    }
    if (classify && sum != m->total_sv)
        return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "model: n_sv adds up to %lu, total_sv is %lu",
                            (unsigned long)sum, (unsigned long)m->total_sv);
    sv.rows = m->total_sv;
    sv.cols = m->n_features; /* a precomputed kernel's support vectors are their serials, column 0 */
    if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED && sv.cols < 1) sv.cols = 1;
    sv.row_ptr = m->sv_row_ptr;
    sv.col_idx = m->sv_col_idx;
    sv.values = m->sv_values;
    if (!gpusvm__sv_seen_before(ctx, m, &sv)) {
        if (gpusvm__check_csr(ctx, "model: the support vectors", &sv, bad, bad) != GPUSVM_OK)
            return GPUSVM_ERROR_INVALID_ARGUMENT;
        if (ctx && m->sv_norms) gpusvm__sv_seen_set(&ctx->sv_seen, m, &sv);
    }
    for (i = 0; m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED && i < m->total_sv; ++i)
        if (m->sv_row_ptr[i + 1] == m->sv_row_ptr[i] || !(m->sv_values[m->sv_row_ptr[i]] >= 1.0f) ||
            m->sv_values[m->sv_row_ptr[i]] != floorf(m->sv_values[m->sv_row_ptr[i]]))
            return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID,
                                "model: precomputed kernel: support vector %lu has no serial number >= 1",
                                (unsigned long)i);
    ncoef = m->svm_type == GPUSVM_CRAMMER_SINGER ? (size_t)m->nr_class
            : classify && m->nr_class > 1 ? (size_t)(m->nr_class - 1) : 1;
    for (i = 0; i < ncoef * m->total_sv; ++i)
        if (!gpusvm__finite_d(m->sv_coef[i]))
            return gpusvm__fail(ctx, bad, "model: sv_coef[%lu] is not finite", (unsigned long)i);
    for (i = 0; m->svm_type != GPUSVM_CRAMMER_SINGER && i < gpusvm__model_ndec(m); ++i) /* inf: LIBSVM's too */
        if (m->rho[i] != m->rho[i]) return gpusvm__fail(ctx, bad, "model: rho[%lu] is NaN", (unsigned long)i);
    return GPUSVM_OK;
}

/* A model the caller gives (NULL refused), checked. */
static gpusvm_result gpusvm__need_model(gpusvm_context *ctx, const gpusvm_model *m)
{
    return m ? gpusvm__check_model(ctx, m) : gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "model is NULL");
}

/* A point of n floats for the predictor: there (unless n is 0) and finite. */
static gpusvm_result gpusvm__check_point(const float *x, size_t n)
{
    size_t i;
    if (!x && n) return GPUSVM_ERROR_INVALID_ARGUMENT;
    for (i = 0; i < n; ++i)
        if (!gpusvm__finite_f(x[i])) return GPUSVM_ERROR_INVALID_ARGUMENT;
    return GPUSVM_OK;
}

/* A buffer of size bytes (NULL only when empty). */
static gpusvm_result gpusvm__check_bytes(gpusvm_context *ctx, const void *bytes, size_t size, const char *name)
{
    if (!bytes && size)
        return gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "%s is NULL (with size %lu)", name, (unsigned long)size);
    if (size >= (size_t)-1 / 2)
        return gpusvm__fail(ctx, GPUSVM_ERR_OUT_OF_MEMORY, "%s: %lu bytes cannot be copied", name, (unsigned long)size);
    return GPUSVM_OK;
}

/* >>input ------------------------------------------------------------------ */
/* The caller's matrices as internal CSR views, the parameters resolved and checked, the labels
   grouped; for precomputed kernels, the kernel matrix by columns and the serial numbers. */

/* An internal CSR view of any input matrix; dense input is converted (zeros dropped). */
typedef struct gpusvm__input {
    gpusvm__csr m;
    size_t *row_ptr; /* owned when converted */
    int32_t *col;
    float *val;
} gpusvm__input;

static void gpusvm__input_free(gpusvm_context *ctx, gpusvm__input *in)
{
    gpusvm__free(&ctx->alloc, in->row_ptr);
    gpusvm__free(&ctx->alloc, in->col);
    gpusvm__free(&ctx->alloc, in->val);
    memset(in, 0, sizeof *in);
}

/* Points the CSR view of in at its own arrays. */
static void gpusvm__input_view(gpusvm__input *in, size_t rows, size_t cols)
{
    in->m.rows = rows;
    in->m.cols = cols;
    in->m.row_ptr = in->row_ptr;
    in->m.col = in->col;
    in->m.val = in->val;
}

/* A caller's matrix, checked (gpusvm__check_matrix), as a CSR view: CSR input as it is, dense
   input converted (zeros dropped). what names it in errors. */
static gpusvm_result gpusvm__input_make(gpusvm_context *ctx, const gpusvm_matrix *x, const char *what,
                                        gpusvm__input *in)
{
    size_t i, k, nnz = 0;
    gpusvm_result r;
    memset(in, 0, sizeof *in);
    if ((r = gpusvm__check_matrix(ctx, x, what, &nnz)) != GPUSVM_OK) return r;
    if (x->layout == GPUSVM_LAYOUT_CSR) {
        in->m.rows = x->rows;
        in->m.cols = x->cols;
        in->m.row_ptr = x->row_ptr;
        in->m.col = x->col_idx;
        in->m.val = x->values;
        return GPUSVM_OK;
    }
    in->row_ptr = (size_t *)gpusvm__alloc(&ctx->alloc, x->rows + 1, sizeof(size_t));
    in->col = (int32_t *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(int32_t));
    in->val = (float *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(float));
    if (!in->row_ptr || !in->col || !in->val) {
        gpusvm__input_free(ctx, in);
        return gpusvm__oom(ctx, "a sparse copy of the input");
    }
    nnz = 0;
    in->row_ptr[0] = 0;
    for (i = 0; i < x->rows; ++i) {
        for (k = 0; k < x->cols; ++k) {
            const float v = x->values[i * x->cols + k];
            if (v != 0.0f) {
                in->col[nnz] = (int32_t)k;
                in->val[nnz] = v;
                ++nnz;
            }
        }
        in->row_ptr[i + 1] = nnz;
    }
    gpusvm__input_view(in, x->rows, x->cols);
    return GPUSVM_OK;
}

/* Fills in defaults (LIBSVM's) and checks ranges; x gives gamma's auto and scale rules. */
static gpusvm_result gpusvm__resolve_params(gpusvm_context *ctx, const gpusvm_params *in, const gpusvm__csr *x,
                                            gpusvm_params *out)
{
    gpusvm_params p;
    size_t k;
    if (in) p = *in;
    else memset(&p, 0, sizeof p);
    if (p.svm_type == GPUSVM_SVM_DEFAULT) p.svm_type = GPUSVM_C_SVC;
    if ((int)p.svm_type < 0 || p.svm_type > GPUSVM_CRAMMER_SINGER)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.svm_type %d is unknown", (int)p.svm_type);
    if (p.nu == 0.0) p.nu = 0.5;
    if (!(p.nu > 0.0 && p.nu <= 1.0)) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.nu must be in (0, 1]");
    if (p.p == 0.0) p.p = 0.1;
    if (!(p.p > 0.0) || p.p > DBL_MAX) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.p must be > 0");
    if (p.kernel_type == GPUSVM_KERNEL_DEFAULT) p.kernel_type = GPUSVM_KERNEL_RBF;
    if ((int)p.kernel_type < 0 || p.kernel_type > GPUSVM_KERNEL_PRECOMPUTED)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.kernel_type %d is unknown", (int)p.kernel_type);
    if (p.kernel_type == GPUSVM_KERNEL_PRECOMPUTED) {
        size_t i;
        for (i = 0; i < x->rows; ++i) {
            const double k = p.serial ? p.serial[i] : (double)(i + 1);
            if (!(k >= 1.0 && k <= (double)x->cols && k == floor(k)) || k > 16777216.0)
                return gpusvm__fail(ctx, GPUSVM_ERR_SERIAL,
                                    "precomputed kernel: row %lu's serial number %g is not an integer in [1, %lu] (the "
                                    "columns of x)",
                                    (unsigned long)i, k, (unsigned long)x->cols);
        }
    }
    if (p.degree == 0) p.degree = 3;
    if (p.degree < 0) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.degree must be >= 0");
    if (!(p.gamma >= 0.0) || p.gamma > DBL_MAX)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.gamma must be finite and >= 0 (0: automatic)");
    if (p.gamma_mode == GPUSVM_GAMMA_DEFAULT) p.gamma_mode = p.gamma > 0.0 ? GPUSVM_GAMMA_VALUE : GPUSVM_GAMMA_AUTO;
    switch (p.gamma_mode) {
    case GPUSVM_GAMMA_VALUE:
        if (!(p.gamma > 0.0)) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.gamma must be > 0");
        break;
    case GPUSVM_GAMMA_AUTO:
        p.gamma = x->cols > 0 ? 1.0 / (double)x->cols : 0.0;
        break;
    case GPUSVM_GAMMA_SCALE: {
        double s = 0.0, s2 = 0.0, cnt = (double)x->rows * (double)x->cols, mean, var;
        size_t i;
        for (i = 0; i < x->row_ptr[x->rows]; ++i) {
            s += x->val[i];
            s2 += (double)x->val[i] * x->val[i];
        }
        mean = cnt > 0 ? s / cnt : 0.0;
        var = cnt > 0 ? s2 / cnt - mean * mean : 0.0;
        p.gamma = (var > 0.0 && x->cols > 0) ? 1.0 / ((double)x->cols * var) : 1.0;
        break;
    }
    default:
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.gamma_mode %d is unknown", (int)p.gamma_mode);
    }
    p.gamma_mode = GPUSVM_GAMMA_VALUE;
    if (!(fabs(p.coef0) <= DBL_MAX)) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.coef0 must be finite");
    if (p.C == 0.0) p.C = 1.0;
    if (!(p.C > 0.0) || p.C > DBL_MAX) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.C must be > 0");
    if (p.eps == 0.0) p.eps = p.svm_type == GPUSVM_CRAMMER_SINGER ? 1e-2 : 1e-3; /* CS: the paper's relative gap */
    if (!(p.eps > 0.0) || p.eps > DBL_MAX) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.eps must be > 0");
    if (!(p.cache_size_mb >= 0.0) || p.cache_size_mb > 1e9) /* 0: no budget but the device's */
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.cache_size_mb must be >= 0");
    if (p.probability != 0 && p.probability != 1)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.probability must be 0 or 1");
    if (p.n_weight && (!p.weight_label || !p.weight))
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.n_weight > 0 needs weight_label and weight");
    for (k = 0; k < p.n_weight; ++k)
        if (!(p.weight[k] > 0.0) || p.weight[k] > DBL_MAX)
            return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.weight[%lu] must be > 0", (unsigned long)k);
    if (p.max_iter < 0) return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.max_iter must be >= 0");
    if (p.shrinking < -1 || p.shrinking > 1)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.shrinking must be 0 or 1 (shrink) or -1 (none)");
    if (p.shrinking == 0) p.shrinking = 1;
    if (p.max_iter == 0) {
        const double m = 100.0 * (double)x->rows;
        p.max_iter = m > 1e7 ? (long long)m : 10000000LL;
    }
    if (p.working_set_size < 0 || (p.working_set_size > 0 && p.working_set_size < 4) || p.working_set_size > GPUSVM__Q)
        return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD,
                            "params.working_set_size must be 0 (automatic) or 4..%d (rounded down to a power of two)",
                            GPUSVM__Q);
    *out = p;
    return GPUSVM_OK;
}

/* Per-sample weights, when given: one per row, finite and >= 0. */
/* Labels and weights a task cannot use: a classification's labels must be integers (LIBSVM would
   truncate 0.5 to 0), each class weight must name a label some row has, sample weights must be
   finite and >= 0. */
static gpusvm_result gpusvm__check_labels(gpusvm_context *ctx, const gpusvm_params *p, const double *y, size_t rows)
{
    const int classify = p->svm_type == GPUSVM_C_SVC || p->svm_type == GPUSVM_NU_SVC || p->svm_type == GPUSVM_CRAMMER_SINGER;
    size_t i, k;
    for (i = 0; i < rows && classify; ++i)
        if (y[i] != floor(y[i]) || y[i] < (double)INT_MIN || y[i] > (double)INT_MAX)
            return gpusvm__fail(ctx, GPUSVM_ERR_LABEL_NOT_INTEGER,
                                "y[%lu] = %.17g is not an integer class label (classification takes integer labels; "
                                "for real-valued targets use GPUSVM_EPSILON_SVR or GPUSVM_NU_SVR, -s 3 or -s 4)",
                                (unsigned long)i, y[i]);
    for (k = 0; k < p->n_weight && classify; ++k) {
        for (i = 0; i < rows && (int)y[i] != p->weight_label[k]; ++i) {
        }
        if (i == rows)
            return gpusvm__fail(ctx, GPUSVM_ERR_WEIGHT_LABEL,
                                "params.weight_label[%lu] = %d: no training row has this label", (unsigned long)k,
                                p->weight_label[k]);
    }
    for (i = 0; i < rows && p->sample_weight; ++i)
        if (!(p->sample_weight[i] >= 0.0) || p->sample_weight[i] > DBL_MAX)
            return gpusvm__fail(ctx, GPUSVM_ERR_PARAMS_FIELD, "params.sample_weight[%lu] must be finite and >= 0",
                                (unsigned long)i);
    return GPUSVM_OK;
}

/* LIBSVM's class grouping: labels in order of first appearance, except that a two-class
   problem labelled -1 then +1 is swapped so that +1 is the positive class. label and count
   are allocated (nr_class entries each). */
static gpusvm_result gpusvm__group(gpusvm_context *ctx, const double *y, size_t n, int **label_out, size_t **count_out,
                                   int *nr_class)
{
    gpusvm__vec lab, cnt;
    size_t i;
    int c, k = 0;
    memset(&lab, 0, sizeof lab);
    memset(&cnt, 0, sizeof cnt);
    lab.item = sizeof(int);
    cnt.item = sizeof(size_t);
    for (i = 0; i < n; ++i) {
        int v;
        if (!(fabs(y[i]) < 2147483647.0)) {
            gpusvm__free(&ctx->alloc, lab.data);
            gpusvm__free(&ctx->alloc, cnt.data);
            return gpusvm__fail(ctx, GPUSVM_ERR_LABEL_NOT_FINITE, "label of row %lu is not a finite class number",
                                (unsigned long)i);
        }
        v = (int)y[i];
        for (c = k - 1; c >= 0; --c)
            if (((int *)lab.data)[c] == v) break;
        if (c < 0) {
            size_t zero = 0;
            if (!gpusvm__vec_push(&ctx->alloc, &lab, &v) || !gpusvm__vec_push(&ctx->alloc, &cnt, &zero)) {
                gpusvm__free(&ctx->alloc, lab.data);
                gpusvm__free(&ctx->alloc, cnt.data);
                return gpusvm__oom(ctx, "the class list");
            }
            c = k++;
        }
        ((size_t *)cnt.data)[c]++;
    }
    if (k == 2 && ((int *)lab.data)[0] == -1 && ((int *)lab.data)[1] == 1) {
        size_t t = ((size_t *)cnt.data)[0];
        ((int *)lab.data)[0] = 1;
        ((int *)lab.data)[1] = -1;
        ((size_t *)cnt.data)[0] = ((size_t *)cnt.data)[1];
        ((size_t *)cnt.data)[1] = t;
    }
    *label_out = (int *)lab.data;
    *count_out = (size_t *)cnt.data;
    *nr_class = k;
    return GPUSVM_OK;
}

/* The serial number (1-based) of training row i of a precomputed kernel. */
static size_t gpusvm__serial(const gpusvm_params *prm, size_t i)
{
    return prm->serial ? (size_t)prm->serial[i] : i + 1;
}

/* A precomputed kernel's problem on rows idx[0..count): the kernel matrix M[a][b] =
   K(row idx[a], row idx[b]) = x[idx[a]][serial(idx[b]) - 1], stored by columns (row b of the
   result is column b of M), every entry kept, so that the device reads a kernel row as one
   contiguous feature row of its column-major copy. */
static gpusvm_result gpusvm__pre_problem(gpusvm_context *ctx, const gpusvm__csr *x, const gpusvm_params *prm,
                                         const size_t *idx, size_t count, gpusvm__input *out)
{
    size_t a, b, nnz;
    memset(out, 0, sizeof *out);
    if (!gpusvm__mul(count, count, &nnz)) return gpusvm__oom(ctx, "the precomputed kernel matrix");
    out->row_ptr = (size_t *)gpusvm__alloc(&ctx->alloc, count + 1, sizeof(size_t));
    out->col = (int32_t *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(int32_t));
    out->val = (float *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(float));
    if (!out->row_ptr || !out->col || !out->val) {
        gpusvm__input_free(ctx, out);
        return gpusvm__oom(ctx, "the precomputed kernel matrix");
    }
    for (b = 0; b < count; ++b) {
        const size_t column = gpusvm__serial(prm, idx[b]) - 1;
        out->row_ptr[b] = b * count;
        for (a = 0; a < count; ++a) {
            out->col[b * count + a] = (int32_t)a;
            out->val[b * count + a] = gpusvm__csr_at(x, idx[a], column);
        }
    }
    out->row_ptr[count] = nnz;
    gpusvm__input_view(out, count, count);
    return GPUSVM_OK;
}

/* A precomputed kernel's problem on every row of x. */
static gpusvm_result gpusvm__pre_all(gpusvm_context *ctx, const gpusvm__csr *x, const gpusvm_params *prm,
                                     gpusvm__input *out)
{
    size_t *all = (size_t *)gpusvm__alloc(&ctx->alloc, x->rows, sizeof(size_t)), i;
    gpusvm_result r;
    memset(out, 0, sizeof *out);
    if (!all) return gpusvm__oom(ctx, "the precomputed kernel matrix");
    for (i = 0; i < x->rows; ++i) all[i] = i;
    r = gpusvm__pre_problem(ctx, x, prm, all, x->rows, out);
    gpusvm__free(&ctx->alloc, all);
    return r;
}

/* What a precomputed model keeps of each training row: its serial number, as column 0. */
static gpusvm_result gpusvm__serial_rows(gpusvm_context *ctx, const gpusvm_params *prm, size_t rows, gpusvm__input *out)
{
    size_t i;
    memset(out, 0, sizeof *out);
    out->row_ptr = (size_t *)gpusvm__alloc(&ctx->alloc, rows + 1, sizeof(size_t));
    out->col = (int32_t *)gpusvm__calloc(&ctx->alloc, rows, sizeof(int32_t));
    out->val = (float *)gpusvm__alloc(&ctx->alloc, rows, sizeof(float));
    if (!out->row_ptr || !out->col || !out->val) {
        gpusvm__input_free(ctx, out);
        return gpusvm__oom(ctx, "the serial numbers");
    }
    for (i = 0; i <= rows; ++i) out->row_ptr[i] = i;
    for (i = 0; i < rows; ++i) out->val[i] = (float)gpusvm__serial(prm, i);
    gpusvm__input_view(out, rows, 1);
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__csr_rows(gpusvm_context *ctx, const gpusvm__csr *x, const size_t *idx, size_t count,
                                      gpusvm__input *out);

/* >>solver ----------------------------------------------------------------- */
/* Two-level SMO for C-SVC. Outer: the backend checks m(alpha) - M(alpha) < eps over all n
   points and picks a working set of q violators (half kept from the last set, whose kernel
   rows are still in place); computes the kernel rows of the new half against all points;
   solves the q-variable subproblem with LIBSVM's WSS2 SMO to a looser tolerance; and updates
   the gradient of all points. Problems of at most q points are solved whole in one inner
   solve. The host reads the status back every few outer iterations. */

static int gpusvm__pow2_floor(size_t v)
{
    int p = 1;
    while ((size_t)p * 2 <= v && p < (1 << 30)) p *= 2;
    return p;
}

/* A problem this large takes the backend's q_large working set (when it names one) unless the
   user chose the size: at this size a smaller working set's cheaper pair updates win over its
   extra rounds (see gpusvm__ocl_limits). */
#define GPUSVM__LARGE_NVAR 100000

/* The working-set size of a batch: the device's cap (or its size for large problems), the user's
   choice, the row budget (per problem, as LIBSVM's cache is per solve), one buffer; every problem
   whole when all fit. 0 when not even two rows fit one buffer. */
static int gpusvm__batch_q(const gpusvm__backend *b, const gpusvm__problem *p, int nprob, const gpusvm_params *prm)
{
    size_t nvar = 0, max_pts = 1, most = 1, rows_budget, row_bytes;
    int q = b->qcap, any_part = 0, t;
    for (t = 0; t < nprob; ++t) {
        nvar += p[t].nvar;
        if (p[t].npts > max_pts) max_pts = p[t].npts;
        if (p[t].nvar > most) most = p[t].nvar;
    }
    row_bytes = (max_pts + GPUSVM__PITCH - 1) / GPUSVM__PITCH * GPUSVM__PITCH * sizeof(float);
    if (prm->working_set_size && gpusvm__pow2_floor((size_t)prm->working_set_size) < q)
        q = gpusvm__pow2_floor((size_t)prm->working_set_size);
    else if (!prm->working_set_size && b->q_large && b->q_large < q && most >= GPUSVM__LARGE_NVAR)
        q = b->q_large;
    else if (!prm->working_set_size && most <= (size_t)b->whole_most && nprob > 1)
        q = (int)most;
    for (t = 0; t < nprob; ++t) any_part = any_part || p[t].nvar > (size_t)q;
    if (!any_part) q = (int)most; /* every problem whole: the largest is the stride */
    rows_budget = prm->cache_size_mb > 0.0 ? (size_t)(prm->cache_size_mb * 1048576.0) / row_bytes : (size_t)-1;
    if (any_part && rows_budget < (size_t)q) q = gpusvm__pow2_floor(rows_budget < 64 ? 64 : rows_budget);
    if (q < 2 && nvar >= 2) q = 2;
    if (b->max_alloc / row_bytes < (size_t)q) q = gpusvm__pow2_floor(b->max_alloc / row_bytes);
    return q < 2 ? 0 : q;
}

/* The host's side of a running batch: the status read back, each problem's best gap and when it
   was reached, its patience (rounds with no new low of the gap before it counts as stalled: 2000,
   or more when bringing in each of its variables four times takes more, q/2 new a round), its
   rounds without a pair update, the step timings (GPUSVM_PROFILE). */
typedef struct gpusvm__batch_run {
    double *st, *best_gap;
    long long *best_at, *patience, outer;
    int *stalled, *ids;
    double spent[5], upload; /* selection, rows, inner solve, update, status reads; set-up */
    double mark;             /* with GPUSVM_PROFILE: when the last step finished */
} gpusvm__batch_run;

static void gpusvm__batch_run_free(const gpusvm_allocator *a, gpusvm__batch_run *run)
{
    gpusvm__free(a, run->st);
    gpusvm__free(a, run->best_gap);
    gpusvm__free(a, run->best_at);
    gpusvm__free(a, run->patience);
    gpusvm__free(a, run->stalled);
    gpusvm__free(a, run->ids);
}

static gpusvm_result gpusvm__batch_run_alloc(gpusvm_context *ctx, const gpusvm__problem *p, int nprob, int q,
                                             gpusvm__batch_run *run)
{
    const gpusvm_allocator *a = &ctx->alloc;
    int t;
    memset(run, 0, sizeof *run);
    run->st = (double *)gpusvm__alloc(a, (size_t)nprob * GPUSVM__ST_COUNT, sizeof(double));
    run->best_gap = (double *)gpusvm__alloc(a, (size_t)nprob, sizeof(double));
    run->best_at = (long long *)gpusvm__calloc(a, (size_t)nprob, sizeof(long long));
    run->patience = (long long *)gpusvm__alloc(a, (size_t)nprob, sizeof(long long));
    run->stalled = (int *)gpusvm__calloc(a, (size_t)nprob, sizeof(int));
    run->ids = (int *)gpusvm__alloc(a, (size_t)q, sizeof(int));
    if (!run->st || !run->best_gap || !run->best_at || !run->patience || !run->stalled || !run->ids) {
        gpusvm__batch_run_free(a, run);
        return gpusvm__oom(ctx, "the solver's state");
    }
    for (t = 0; t < nprob; ++t) {
        const long long rounds = (long long)(8 * p[t].nvar / (size_t)q);
        run->best_gap[t] = INFINITY;
        run->patience[t] = rounds > 2000 ? rounds : 2000;
    }
    for (t = 0; t < q; ++t) run->ids[t] = t;
    return GPUSVM_OK;
}

/* The plan of a batch under prm with working-set size q: a split context's part is this process's. */
static gpusvm__plan gpusvm__plan_of(const gpusvm_context *ctx, const gpusvm_params *prm, int q)
{
    gpusvm__plan pl;
    pl.q = q;
    pl.rows_budget = prm->cache_size_mb > 0.0 ? (size_t)(prm->cache_size_mb * 1048576.0) : 0;
    pl.shrinking = prm->shrinking > 0;
    pl.parts = ctx->split.parts > 1 ? ctx->split.parts : 0;
    pl.part = ctx->split.parts > 1 ? ctx->split.rank : 0;
    return pl;
}

/* Uploads the batch and its starting state; the working sets take slots 0..q-1 (the first
   selection fills them; a whole problem is its own set). */
static gpusvm_result gpusvm__batch_begin(gpusvm_context *ctx, const gpusvm__problem *p, int nprob,
                                         const gpusvm__plan *plan, const double *alpha0, const double *G0,
                                         gpusvm__batch_run *run, gpusvm_train_info *info)
{
    gpusvm__backend *b = ctx->backend;
    const size_t before = b->train->mem_left(b);
    const double t0 = gpusvm__now();
    const int q = plan->q;
    gpusvm__plan data_only = *plan;
    gpusvm_result r;
    int t;
    data_only.q = 0;
    if ((r = b->train->begin(b, p, nprob, plan)) != GPUSVM_OK) return r;
    if (ctx->profile) { /* waited for: the status read drains the queue */
        if ((r = b->train->read_status(b, run->st)) != GPUSVM_OK) return r;
        run->upload = gpusvm__now() - t0;
    }
    for (t = 0; t < nprob; ++t) {
        info[t].working_set_size = p[t].nvar <= (size_t)q ? (int)p[t].nvar : q;
        info[t].device_bytes = before - b->train->mem_left(b);
        info[t].device_data_bytes = info[t].device_bytes ? b->train->bytes(b, p, nprob, &data_only) : 0;
    }
    if ((r = b->train->write_ws(b, run->ids, run->ids, q)) != GPUSVM_OK) return r;
    if (alpha0 || G0) r = b->train->write_state(b, alpha0, G0, NULL);
    return r;
}

/* One outer round: select -> rows -> inner solve -> update, enqueued; with ctx->profile each
   step is waited for (a status read drains the queue) and timed. */
static gpusvm_result gpusvm__batch_round(gpusvm_context *ctx, int first, int q, const gpusvm_params *prm,
                                         gpusvm__batch_run *run)
{
    gpusvm__backend *b = ctx->backend;
    const double max_iter = (double)prm->max_iter;
    double t0 = ctx->profile ? gpusvm__now() : 0.0, t1;
    gpusvm_result r = GPUSVM_OK;
    int k;
    for (k = 0; k < 4 && r == GPUSVM_OK; ++k) {
        switch (k) {
        case 0: r = b->train->select(b, first, prm->eps, max_iter); break;
        case 1: r = b->train->rows(b, first); break;
        case 2: r = b->train->smo(b, prm->eps, GPUSVM__INNER_RATIO, GPUSVM__INNER_UPDATES * q, max_iter); break;
        default: r = b->train->update(b); break;
        }
        if (r == GPUSVM_OK && ctx->profile && (r = b->train->read_status(b, run->st)) == GPUSVM_OK) {
            t1 = gpusvm__now();
            run->spent[k] += t1 - t0;
            t0 = t1;
        }
    }
    run->mark = t0;
    return r;
}

/* After a status read: marks problems that stalled (inner solves that change nothing, or no
   new low of the gap for long) as done, so the kernels skip them. *running: problems still on. */
static gpusvm_result gpusvm__batch_stalls(gpusvm_context *ctx, int nprob, gpusvm__batch_run *run, int *running)
{
    gpusvm__backend *b = ctx->backend;
    gpusvm_result r;
    int t;
    for (t = 0, *running = 0; t < nprob; ++t) {
        double *s = run->st + (size_t)t * GPUSVM__ST_COUNT;
        if (s[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) continue;
        run->stalled[t] = s[GPUSVM__ST_INNER] == 0.0 ? run->stalled[t] + 1 : 0;
        if (s[GPUSVM__ST_GAP] < run->best_gap[t]) {
            run->best_gap[t] = s[GPUSVM__ST_GAP];
            run->best_at[t] = run->outer;
        }
        if (run->stalled[t] >= 3 || run->outer - run->best_at[t] >= run->patience[t]) {
            gpusvm__log(ctx, GPUSVM_LOG_WARN,
                        "the solver stalled at gap %g (no pair update, or no smaller gap in %lld working sets); "
                        "stopping with converged = 0",
                        s[GPUSVM__ST_GAP], run->outer - run->best_at[t]);
            s[GPUSVM__ST_DONE] = GPUSVM__DONE_STALLED; /* the kernels skip it from now on */
            if ((r = b->train->write_state(b, NULL, NULL, run->st)) != GPUSVM_OK) return r;
            continue;
        }
        ++*running;
    }
    return GPUSVM_OK;
}

/* The progress callback over the batch: pair updates summed, the gap the latest selection decided
   on (the largest among the problems still running; once none is, the largest final one). */
static gpusvm_result gpusvm__batch_progress(gpusvm_context *ctx, const gpusvm_params *prm, int nprob,
                                            const double *st, int running)
{
    gpusvm_progress pr;
    int t;
    memset(&pr, 0, sizeof pr);
    for (t = 0; t < nprob; ++t) {
        const double *s = st + (size_t)t * GPUSVM__ST_COUNT;
        pr.iterations += (long long)s[GPUSVM__ST_ITER];
        if ((long long)s[GPUSVM__ST_OUTER] > pr.outer_iterations) pr.outer_iterations = (long long)s[GPUSVM__ST_OUTER];
        if ((!running || s[GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING) && s[GPUSVM__ST_GAP] > pr.gap)
            pr.gap = s[GPUSVM__ST_GAP];
    }
    pr.eps = prm->eps;
    if (prm->progress(prm->progress_user_data, &pr))
        return gpusvm__fail(ctx, GPUSVM_ERR_CANCELLED, "training cancelled by the progress callback");
    return GPUSVM_OK;
}

/* Each problem's info from its status; a warning where max_iter stopped it. */
static void gpusvm__batch_info(gpusvm_context *ctx, int nprob, const double *st, double eps, gpusvm_train_info *info)
{
    int t;
    for (t = 0; t < nprob; ++t) {
        const double *s = st + (size_t)t * GPUSVM__ST_COUNT;
        info[t].iterations = (long long)s[GPUSVM__ST_ITER];
        info[t].outer_iterations = (long long)s[GPUSVM__ST_OUTER];
        info[t].gap = s[GPUSVM__ST_GAP];
        info[t].converged = s[GPUSVM__ST_DONE] == GPUSVM__DONE_CONVERGED;
        if (s[GPUSVM__ST_DONE] == GPUSVM__DONE_MAX_ITER)
            gpusvm__log(ctx, GPUSVM_LOG_WARN, "reaching max number of iterations (%lld) at gap %g > eps %g",
                        info[t].iterations, info[t].gap, eps);
    }
}

/* The outer loop until every problem is done: rounds enqueued back to back, the status read
   every 4th on a device (a read drains the queue), every one where a progress callback may
   cancel or the status costs nothing; then alpha and G read back. */
static gpusvm_result gpusvm__batch_loop(gpusvm_context *ctx, int nprob, int q, const gpusvm_params *prm,
                                        gpusvm__batch_run *run, double *alpha, double *G)
{
    gpusvm__backend *b = ctx->backend;
    const int check_every = (b->status_cheap || prm->progress) ? 1 : 4;
    gpusvm_result r;
    int first = 1, running = 1;
    while (running) {
        if ((r = gpusvm__batch_round(ctx, first, q, prm, run)) != GPUSVM_OK) return r;
        first = 0;
        if (++run->outer % check_every) continue;
        if ((r = b->train->read_status(b, run->st)) != GPUSVM_OK) return r;
        if (ctx->profile) run->spent[4] += gpusvm__now() - run->mark;
        if ((r = gpusvm__batch_stalls(ctx, nprob, run, &running)) != GPUSVM_OK) return r;
        if (prm->progress && (r = gpusvm__batch_progress(ctx, prm, nprob, run->st, running)) != GPUSVM_OK) return r;
    }
    return b->train->read_state(b, alpha, G);
}

/* Solves problems p[0..nprob) (one batch: they share p[0].x and the kernel) from alpha0 / G0
   (the problems' concatenated, or NULL: alpha = 0, G = -1) into alpha and G, one info each.
   A batch that does not fit the device runs as two halves, one after the other. */
static gpusvm_result gpusvm__solve_batch(gpusvm_context *ctx, const gpusvm__problem *p, int nprob,
                                         const gpusvm_params *prm, const double *alpha0, const double *G0,
                                         double *alpha, double *G, gpusvm_train_info *info)
{
    gpusvm__backend *b = ctx->backend;
    gpusvm__batch_run run;
    gpusvm_result r;
    gpusvm__plan pl = gpusvm__plan_of(ctx, prm, gpusvm__batch_q(b, p, nprob, prm));
    int q, t;
    size_t nvar = 0, need;
    if (pl.q == 0) return gpusvm__fail(ctx, GPUSVM_ERR_DEVICE_MEMORY, "not even two kernel rows fit one device buffer");
    if (b->train->bytes(b, p, nprob, &pl) > b->train->mem_left(b)) {
        if (nprob > 1) { /* two smaller batches */
            const int h = nprob / 2;
            size_t off = 0;
            for (t = 0; t < h; ++t) off += p[t].nvar;
            if ((r = gpusvm__solve_batch(ctx, p, h, prm, alpha0, G0, alpha, G, info)) != GPUSVM_OK) return r;
            return gpusvm__solve_batch(ctx, p + h, nprob - h, prm, alpha0 ? alpha0 + off : NULL, G0 ? G0 + off : NULL,
                                       alpha + off, G + off, info + h);
        }
        while (pl.q > 64 && b->train->bytes(b, p, nprob, &pl) > b->train->mem_left(b)) pl.q /= 2;
    }
    q = pl.q;
    if ((need = b->train->bytes(b, p, nprob, &pl)) == (size_t)-1)
        return gpusvm__fail(ctx, GPUSVM_ERR_DEVICE_MEMORY,
                            "training cannot be held on the device: one of its buffers (the data, or %d kernel rows "
                            "of %lu points) passes the device's largest allocation of %.1f MiB (use fewer points, "
                            "GPUSVM_STORAGE=sparse for sparse data, or the cpu backend)",
                            q, (unsigned long)p[0].x.rows, (double)b->max_alloc / 1048576.0);
    if (need > b->train->mem_left(b))
        return gpusvm__fail(ctx, GPUSVM_ERR_DEVICE_MEMORY,
                            "training needs %.1f MiB on the device (the data and %d kernel rows); the device-memory "
                            "budget has %.1f MiB left (raise desc.device_memory_mb, use fewer points or features, or "
                            "the cpu backend)",
                            (double)need / 1048576.0, q, (double)b->train->mem_left(b) / 1048576.0);
    for (t = 0; t < nprob; ++t) nvar += p[t].nvar;
    gpusvm__log(ctx, GPUSVM_LOG_DEBUG, "solver: %d problem%s, %lu variables, d=%lu q=%d", nprob, nprob > 1 ? "s" : "",
                (unsigned long)nvar, (unsigned long)p[0].x.cols, q);
    if ((r = gpusvm__batch_run_alloc(ctx, p, nprob, q, &run)) != GPUSVM_OK) return r;
    if ((r = gpusvm__batch_begin(ctx, p, nprob, &pl, alpha0, G0, &run, info)) == GPUSVM_OK &&
        (r = gpusvm__batch_loop(ctx, nprob, q, prm, &run, alpha, G)) == GPUSVM_OK) {
        if (ctx->profile)
            gpusvm__log(ctx, GPUSVM_LOG_INFO,
                        "solver steps (each waited for): upload and set-up %.4f s, selection %.4f s, kernel rows "
                        "%.4f s, inner solve %.4f s, gradient update %.4f s, status reads and host checks %.4f s; "
                        "%lld rounds enqueued",
                        run.upload, run.spent[0], run.spent[1], run.spent[2], run.spent[3], run.spent[4], run.outer);
        gpusvm__batch_info(ctx, nprob, run.st, prm->eps, info);
    }
    b->train->end(b);
    gpusvm__batch_run_free(&ctx->alloc, &run);
    return r;
}

/* out[i] = sum_j coef[j] k(x_j, x_i) over a problem's own points (a starting gradient). */
static gpusvm_result gpusvm__problem_decision(gpusvm_context *ctx, const gpusvm__problem *pb, const double *coef,
                                              double *out)
{
    size_t i, k, *idx;
    gpusvm__input sub;
    gpusvm_result r;
    if (pb->ktype == GPUSVM__K_PRECOMPUTED) { /* row i of the stored matrix is column i of K */
        for (i = 0; i < pb->npts; ++i) {
            const size_t ri = gpusvm__map_pt(pb, i);
            double sum = 0.0;
            if (!pb->map)
                for (k = pb->x.row_ptr[ri]; k < pb->x.row_ptr[ri + 1]; ++k)
                    sum += coef[pb->x.col[k]] * (double)pb->x.val[k];
            else
                for (k = 0; k < pb->npts; ++k) sum += coef[k] * (double)gpusvm__csr_at(&pb->x, ri, (size_t)pb->map[k]);
            out[i] = sum;
        }
        return GPUSVM_OK;
    }
    if (!pb->map)
        return ctx->backend->decision(ctx->backend, &pb->x, coef, 1, &pb->x, pb->ktype, pb->gamma, pb->coef0,
                                      pb->degree, out);
    idx = (size_t *)gpusvm__alloc(&ctx->alloc, pb->npts, sizeof(size_t));
    if (!idx) return gpusvm__oom(ctx, "a starting gradient");
    for (i = 0; i < pb->npts; ++i) idx[i] = (size_t)pb->map[i];
    r = gpusvm__csr_rows(ctx, &pb->x, idx, pb->npts, &sub);
    gpusvm__free(&ctx->alloc, idx);
    if (r != GPUSVM_OK) return r;
    r = ctx->backend->decision(ctx->backend, &sub.m, coef, 1, &sub.m, pb->ktype, pb->gamma, pb->coef0, pb->degree, out);
    gpusvm__input_free(ctx, &sub);
    return r;
}

/* rho as LIBSVM's Solver::calculate_rho. */
static double gpusvm__rho(const gpusvm__problem *p, const double *alpha, const double *G)
{
    double ub = INFINITY, lb = -INFINITY, sum_free = 0.0;
    size_t i, nr_free = 0;
    for (i = 0; i < p->nvar; ++i) {
        const int yi = p->y[i];
        const double C = p->C[i], yG = yi * G[i];
        if (alpha[i] >= C) {
            if (yi == -1) ub = ub < yG ? ub : yG;
            else lb = lb > yG ? lb : yG;
        } else if (alpha[i] <= 0.0) {
            if (yi == +1) ub = ub < yG ? ub : yG;
            else lb = lb > yG ? lb : yG;
        } else {
            ++nr_free;
            sum_free += yG;
        }
    }
    return nr_free > 0 ? sum_free / (double)nr_free : (ub + lb) / 2;
}

/* rho of the nu formulations, as LIBSVM's Solver_NU::calculate_rho: r1 and r2 from each
   class's free gradients; *r = (r1 + r2) / 2, rho = (r1 - r2) / 2. */
static double gpusvm__rho_nu(const gpusvm__problem *p, const double *alpha, const double *G, double *r)
{
    double ub[2], lb[2], sum_free[2], rr[2];
    size_t i, nr_free[2];
    int c;
    for (c = 0; c < 2; ++c) {
        ub[c] = INFINITY;
        lb[c] = -INFINITY;
        sum_free[c] = 0.0;
        nr_free[c] = 0;
    }
    for (i = 0; i < p->nvar; ++i) {
        c = p->y[i] > 0 ? 0 : 1;
        if (alpha[i] >= p->C[i]) lb[c] = lb[c] > G[i] ? lb[c] : G[i];
        else if (alpha[i] <= 0.0) ub[c] = ub[c] < G[i] ? ub[c] : G[i];
        else {
            ++nr_free[c];
            sum_free[c] += G[i];
        }
    }
    for (c = 0; c < 2; ++c) rr[c] = nr_free[c] > 0 ? sum_free[c] / (double)nr_free[c] : (ub[c] + lb[c]) / 2;
    *r = (rr[0] + rr[1]) / 2;
    return (rr[0] - rr[1]) / 2;
}

/* >>solver/jobs: independent jobs, a device each on several GPUs, a lane each on one ---------- */

/* Jobs 0..njobs-1 that do not depend on each other, at once on the context's devices (the
   backend's device hook), else, where the caller asks for them, on lanes of its one device (the
   lane hook: queues side by side on one context): a host thread a device or lane takes the jobs in
   turn, each job on a context of its own that drives that device or lane alone (a copy of ctx
   whose logger calls and failures go to ctx, one at a time, so that ctx keeps the first failure
   whole; the jobs not yet taken are then left). In order on ctx itself where it is one device
   and asks for no lanes (or none opens), or has one thread, where its devices do not want a
   thread each (own_thread: CPU devices), where the allocator is the caller's (called from one
   thread only), where the jobs call the caller back (in_turn: a progress callback) or no atomic
   add takes the jobs. The first failure's code. */
#define GPUSVM__JOBS_AT_ONCE (GPUSVM__MAX_DEVICES > GPUSVM__MAX_LANES ? GPUSVM__MAX_DEVICES : GPUSVM__MAX_LANES)
typedef struct gpusvm__jobs {
    gpusvm_context *ctx, *own; /* own: a context a device or lane */
    gpusvm_result (*fn)(gpusvm_context *c, void *arg, int j);
    void *arg;
    int njobs;
    volatile long next, failed;
    gpusvm_result res[GPUSVM__JOBS_AT_ONCE];
} gpusvm__jobs;

static void gpusvm__jobs_device(void *arg, int k)
{
    gpusvm__jobs *jb = (gpusvm__jobs *)arg;
    long j;
    jb->res[k] = GPUSVM_OK;
#if GPUSVM__TAKE_ATOMIC
    while (!gpusvm__load(&jb->failed) && (j = gpusvm__take(&jb->next)) < jb->njobs)
        if ((jb->res[k] = jb->fn(&jb->own[k], jb->arg, (int)j)) != GPUSVM_OK) gpusvm__store(&jb->failed, 1);
#else
    (void)j;
#endif
}

/* Whether jobs may run on threads of their own at all (see gpusvm__jobs_run). */
static int gpusvm__jobs_threads(const gpusvm_context *ctx, int njobs, int in_turn)
{
    return njobs >= 2 && !in_turn && ctx->threads >= 2 && ctx->default_alloc && GPUSVM__TAKE_ATOMIC;
}

/* How many devices gpusvm__jobs_run would run njobs jobs of the given kernel-row work
   (gpusvm__work of all their problems together) on at once (0: none, and none of them opened). */
static int gpusvm__jobs_devices(gpusvm_context *ctx, int njobs, int in_turn, double work)
{
    gpusvm__backend *b = ctx->backend;
    const int n = b->devices ? b->devices->count(b) : 0;
    if (n < 2 || !b->own_thread || !gpusvm__jobs_threads(ctx, njobs, in_turn) || !b->devices->spreads(b, work)) return 0;
    return n < njobs ? n : njobs;
}

/* How many lanes of its one device njobs jobs could take (0: none): GPUSVM_LANES, else
   GPUSVM__LANES on a GPU and none on a CPU device (its driver spreads one queue's work over the
   cores already). */
static int gpusvm__jobs_lanes(gpusvm_context *ctx, int njobs, int in_turn)
{
    const gpusvm__backend *b = ctx->backend;
    int n = ctx->lanes ? ctx->lanes : b->own_thread ? GPUSVM__LANES : 0;
    if (!b->lanes || !gpusvm__jobs_threads(ctx, njobs, in_turn)) return 0;
    if (n > njobs) n = njobs;
    return n >= 2 ? n : 0;
}

/* work: the jobs' kernel-row work, all together (gpusvm__work; on several devices, whether spreading
   pays); lanes: at most this many lanes where the context is one device (gpusvm__jobs_lanes's count
   or fewer; 0: none). */
static gpusvm_result gpusvm__jobs_run(gpusvm_context *ctx, int njobs, int in_turn, double work, int lanes,
                                      gpusvm_result (*fn)(gpusvm_context *, void *, int), void *arg)
{
    gpusvm__backend *b = ctx->backend;
    const int nd = gpusvm__jobs_devices(ctx, njobs, in_turn, work);
    const int most = nd ? 0 : gpusvm__jobs_lanes(ctx, njobs, in_turn);
    int n = nd ? nd : lanes < most ? lanes : most, k, opened = 0;
    gpusvm__jobs jb;
    gpusvm_result r = GPUSVM_OK;
    if (n < 2) n = 0;
    jb.own = n ? (gpusvm_context *)gpusvm__alloc(&ctx->alloc, (size_t)n, sizeof *jb.own) : NULL;
    for (k = 0; jb.own && k < n; ++k) {
        jb.own[k] = *ctx;
        jb.own[k].backend = nd ? b->devices->device(b, k) : b->lanes->open(b, n, k);
        jb.own[k].root = ctx;
        jb.own[k].threads = ctx->threads / n > 1 ? ctx->threads / n : 1;
        if (!jb.own[k].backend) break;
        opened += !nd;
        if (nd && jb.own[k].backend->ready && (r = jb.own[k].backend->ready(jb.own[k].backend)) != GPUSVM_OK) {
            gpusvm__free(&ctx->alloc, jb.own); /* a device that does not open: its failure */
            return r;
        }
    }
    if (!jb.own || k < n) { /* no room, or a lane that did not open: in order on ctx */
        while (opened-- > 0) jb.own[opened].backend->destroy(jb.own[opened].backend);
        gpusvm__free(&ctx->alloc, jb.own);
        for (k = 0; k < njobs && r == GPUSVM_OK; ++k) r = fn(ctx, arg, k);
        return r;
    }
    jb.ctx = ctx;
    jb.fn = fn;
    jb.arg = arg;
    jb.njobs = njobs;
    jb.next = jb.failed = 0;
    r = gpusvm__shared_call(ctx, NULL, n, gpusvm__jobs_device, &jb, jb.res);
    while (opened-- > 0) jb.own[opened].backend->destroy(jb.own[opened].backend);
    gpusvm__free(&ctx->alloc, jb.own);
    return r;
}

/* >>probability ------------------------------------------------------------ */
/* Platt scaling from internal cross-validation folds, the SVR Laplace scale, one-class density
   marks; they train through the tasks below. Here too: the folds' training (gpusvm__folds). */

/* A point of a grid: the bound and the kernel's gamma a subset of a batch trains with. */
typedef struct gpusvm__point {
    double C, gamma;
} gpusvm__point;

/* prm at point s of pt (pt NULL: prm's own C and gamma). */
static gpusvm_params gpusvm__at_point(const gpusvm_params *prm, const gpusvm__point *pt, size_t s)
{
    gpusvm_params p = *prm;
    if (pt) {
        p.C = pt[s].C;
        p.gamma = pt[s].gamma;
    }
    return p;
}

/* The tasks call the fits, and the fits train through the tasks: one side must declare the other,
   and these six entries of >>tasks are what the fits use. */
static gpusvm_result gpusvm__train_any(gpusvm_context *ctx, const gpusvm__csr *x, const double *y,
                                       const gpusvm_params *p, gpusvm_model **out, double t_start);
static gpusvm_result gpusvm__predict(gpusvm_context *ctx, const gpusvm_model *m, const gpusvm__csr *x, double *labels,
                                     double *dec);
static gpusvm_result gpusvm__cross_validation(gpusvm_context *ctx, const gpusvm__csr *x, const double *y,
                                              const gpusvm_params *p, int nr_fold, double *target);
static gpusvm_result gpusvm__train_ovo(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                       const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                       const size_t *sub_n, const gpusvm__point *sub_pt, gpusvm_model **out,
                                       double t_start);
static gpusvm_result gpusvm__train_single_many(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                               const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                               const size_t *sub_n, gpusvm_model **out, double t_start);
static gpusvm_result gpusvm__train_cs_many(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                           const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                           const size_t *sub_n, gpusvm_model **out, double t_start);

/* The fixed-seed generator of the folds (cross-validation and probability fits): the same
   folds every run. */
#define GPUSVM__RAND(state, bound) \
    ((size_t)(((state) = (state) * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (bound))

/* Platt's sigmoid 1 / (1 + exp(A f + B)) fitted to decision values f and labels (> 0 positive)
   by Newton's method with backtracking, as LIBSVM's sigmoid_train (Lin, Lin and Weng 2007). */
static gpusvm_result gpusvm__sigmoid_train(gpusvm_context *ctx, size_t l, const double *dec, const double *lab,
                                           double *A_out, double *B_out)
{
    double prior1 = 0, prior0 = 0, hi, lo, A, B, fval = 0.0, fApB;
    const int max_iter = 100;
    const double min_step = 1e-10, sigma = 1e-12, eps = 1e-5;
    double *t = (double *)gpusvm__alloc(&ctx->alloc, l, sizeof(double));
    size_t i;
    int iter;
    if (!t) return gpusvm__oom(ctx, "the probability fit");
    for (i = 0; i < l; ++i) {
        if (lab[i] > 0) prior1 += 1;
        else prior0 += 1;
    }
    hi = (prior1 + 1.0) / (prior1 + 2.0);
    lo = 1 / (prior0 + 2.0);
    A = 0.0;
    B = log((prior0 + 1.0) / (prior1 + 1.0));
    for (i = 0; i < l; ++i) {
        t[i] = lab[i] > 0 ? hi : lo;
        fApB = dec[i] * A + B;
        fval += fApB >= 0 ? t[i] * fApB + log(1 + exp(-fApB)) : (t[i] - 1) * fApB + log(1 + exp(fApB));
    }
    for (iter = 0; iter < max_iter; ++iter) {
        double h11 = sigma, h22 = sigma, h21 = 0.0, g1 = 0.0, g2 = 0.0, det, dA, dB, gd, step = 1;
        for (i = 0; i < l; ++i) {
            double p, q, d1, d2;
            fApB = dec[i] * A + B;
            if (fApB >= 0) {
                p = exp(-fApB) / (1.0 + exp(-fApB));
                q = 1.0 / (1.0 + exp(-fApB));
            } else {
                p = 1.0 / (1.0 + exp(fApB));
                q = exp(fApB) / (1.0 + exp(fApB));
            }
            d2 = p * q;
            h11 += dec[i] * dec[i] * d2;
            h22 += d2;
            h21 += dec[i] * d2;
            d1 = t[i] - p;
            g1 += dec[i] * d1;
            g2 += d1;
        }
        if (fabs(g1) < eps && fabs(g2) < eps) break;
        det = h11 * h22 - h21 * h21;
        dA = -(h22 * g1 - h21 * g2) / det;
        dB = -(-h21 * g1 + h11 * g2) / det;
        gd = g1 * dA + g2 * dB;
        while (step >= min_step) {
            const double nA = A + step * dA, nB = B + step * dB;
            double nf = 0.0;
            for (i = 0; i < l; ++i) {
                fApB = dec[i] * nA + nB;
                nf += fApB >= 0 ? t[i] * fApB + log(1 + exp(-fApB)) : (t[i] - 1) * fApB + log(1 + exp(fApB));
            }
            if (nf < fval + 0.0001 * step * gd) {
                A = nA;
                B = nB;
                fval = nf;
                break;
            }
            step /= 2.0;
        }
        if (step < min_step) {
            gpusvm__log(ctx, GPUSVM_LOG_INFO, "line search fails in two-class probability estimates");
            break;
        }
    }
    if (iter >= max_iter) gpusvm__log(ctx, GPUSVM_LOG_INFO, "reaching maximal iterations in two-class probability estimates");
    gpusvm__free(&ctx->alloc, t);
    *A_out = A;
    *B_out = B;
    return GPUSVM_OK;
}

static int gpusvm__cmp_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The batch of folds times grid points: nfold x npt subsets of training rows (subset f npt + c:
   fold f at point c), and each subset's point (pts NULL: one, prm's, and subpt NULL). Each fold's
   points side by side, so that a contiguous share of the batch (several devices) holds the small
   and the large C values alike, not the cheap points on one device and the costly on another.
   NULL when out of memory. */
static const size_t **gpusvm__folds_subsets(gpusvm_context *ctx, size_t *const *tr, const size_t *ntr, int nfold,
                                            int npt, const gpusvm__point *pts, size_t **nsub, gpusvm__point **subpt)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t n = (size_t)npt * (size_t)nfold;
    const size_t **sub = (const size_t **)gpusvm__alloc(a, n, sizeof(size_t *));
    size_t k;
    *nsub = (size_t *)gpusvm__alloc(a, n, sizeof(size_t));
    *subpt = pts ? (gpusvm__point *)gpusvm__alloc(a, n, sizeof(gpusvm__point)) : NULL;
    if (!sub || !*nsub || (pts && !*subpt)) {
        gpusvm__free(a, sub);
        gpusvm__free(a, *nsub);
        gpusvm__free(a, *subpt);
        return NULL;
    }
    for (k = 0; k < n; ++k) { /* fold-major: each fold's points side by side */
        sub[k] = tr[k / (size_t)npt];
        (*nsub)[k] = ntr[k / (size_t)npt];
        if (pts) (*subpt)[k] = pts[k % (size_t)npt];
    }
    return sub;
}

/* Crammer-Singer's folds (models[f] of rows sub[f]) as one batch; with several GPUs in shares, a
   batch a device (gpusvm__jobs_run), since the several-device backend runs Crammer-Singer on its
   first device: share k of n holds folds nfold k / n .. nfold (k + 1) / n - 1. */
typedef struct gpusvm__cs_shares {
    const gpusvm__csr *x;
    const double *y;
    const gpusvm_params *p;
    const size_t *const *sub;
    const size_t *nsub;
    gpusvm_model **models;
    int nfold, n;
} gpusvm__cs_shares;

static gpusvm_result gpusvm__cs_share(gpusvm_context *ctx, void *arg, int k)
{
    const gpusvm__cs_shares *s = (const gpusvm__cs_shares *)arg;
    const int lo = s->nfold * k / s->n, hi = s->nfold * (k + 1) / s->n;
    return gpusvm__train_cs_many(ctx, s->x, s->y, s->p, hi - lo, s->sub + lo, s->nsub + lo, s->models + lo,
                                 gpusvm__now());
}

/* Crammer-Singer's folds' kernel-row work (gpusvm__work: a fold's n points times n m variables, m
   classes); 0 when out of memory. */
static double gpusvm__cs_work(gpusvm_context *ctx, const double *y, size_t l, int nfold, const size_t *nsub)
{
    int *label = NULL, m = 0, f;
    size_t *count = NULL;
    double w = 0.0;
    if (gpusvm__group(ctx, y, l, &label, &count, &m) != GPUSVM_OK) return 0.0;
    gpusvm__free(&ctx->alloc, label);
    gpusvm__free(&ctx->alloc, count);
    for (f = 0; f < nfold; ++f) w += (double)nsub[f] * (double)nsub[f] * (double)m;
    return w;
}

static gpusvm_result gpusvm__cs_folds(gpusvm_context *ctx, const gpusvm__csr *x, const double *y, const gpusvm_params *p,
                                      int nfold, const size_t *const *sub, const size_t *nsub, gpusvm_model **models)
{
    gpusvm__cs_shares s;
    s.x = x;
    s.y = y;
    s.p = p;
    s.sub = sub;
    s.nsub = nsub;
    s.models = models;
    s.nfold = nfold;
    s.n = gpusvm__jobs_devices(ctx, nfold, p->progress != NULL, gpusvm__cs_work(ctx, y, x->rows, nfold, nsub));
    if (!s.n) return gpusvm__train_cs_many(ctx, x, y, p, nfold, sub, nsub, models, gpusvm__now());
    return gpusvm__jobs_run(ctx, s.n, 0, HUGE_VAL, 0, gpusvm__cs_share, &s); /* s.n said it pays */
}

/* Several folds: fold f trains on input rows tr[f][0..ntr[f]) and predicts rows te[f][0..nte[f])
   into labels and/or dec (the folds' predictions one after another, in te order); label0[f]
   gets fold f's first label. y, sample weights and serial numbers are by input row. Every
   type trains all folds in one batch (their rows taken in ascending order, so that they read
   the shared points in order; Crammer-Singer's on several GPUs a batch a device). pts (C-SVC,
   nu-SVC only; NULL: prm's C and gamma): npt grid points, every fold at each in the one batch,
   the c-th point's predictions (labels only) after the c earlier points' full runs. */
static gpusvm_result gpusvm__folds(gpusvm_context *ctx, const gpusvm__csr *x, const double *y, const gpusvm_params *prm,
                                   int nfold, size_t *const *tr, const size_t *ntr, const size_t *const *te,
                                   const size_t *nte, int npt, const gpusvm__point *pts, double *labels, double *dec,
                                   int *label0)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t nmod = (size_t)npt * (size_t)nfold;
    gpusvm_model **models = (gpusvm_model **)gpusvm__calloc(a, nmod, sizeof(gpusvm_model *));
    const size_t **sub;
    size_t *nsub = NULL, at = 0, total = 0, k;
    gpusvm__point *subpt = NULL;
    gpusvm_params p = *prm;
    gpusvm_result r = GPUSVM_OK;
    int f, c;
    for (f = 0; f < nfold; ++f) total += nte[f];
    for (f = 0; f < nfold; ++f) /* LIBSVM's stratified folds leave one with every row where each class has one */
        if (ntr[f] == 0) {
            gpusvm__free(a, models);
            return gpusvm__fail(ctx, GPUSVM_ERR_NR_FOLD,
                                "cross-validation: a fold holds every row, leaving none to train on (each class has "
                                "fewer rows than folds: use fewer folds)");
        }
    for (f = 0; f < nfold; ++f) qsort(tr[f], ntr[f], sizeof(size_t), gpusvm__cmp_size);
    sub = models ? gpusvm__folds_subsets(ctx, tr, ntr, nfold, npt, pts, &nsub, &subpt) : NULL;
    if (!sub) {
        gpusvm__free(a, models);
        return gpusvm__oom(ctx, "cross-validation");
    }
    p.probability = 0; /* the folds predict by their decision values */
    if (prm->svm_type == GPUSVM_C_SVC || prm->svm_type == GPUSVM_NU_SVC)
        r = gpusvm__train_ovo(ctx, x, y, &p, (int)nmod, sub, nsub, subpt, models, gpusvm__now());
    else if (prm->svm_type == GPUSVM_CRAMMER_SINGER)
        r = gpusvm__cs_folds(ctx, x, y, &p, nfold, sub, nsub, models);
    else
        r = gpusvm__train_single_many(ctx, x, y, &p, nfold, sub, nsub, models, gpusvm__now());
    for (f = 0; f < nfold && r == GPUSVM_OK; ++f) {
        gpusvm__input xe;
        if ((r = gpusvm__csr_rows(ctx, x, te[f], nte[f], &xe)) != GPUSVM_OK) break;
        for (c = 0; c < npt && r == GPUSVM_OK; ++c)
            r = gpusvm__predict(ctx, models[(size_t)f * (size_t)npt + (size_t)c], &xe.m,
                                labels ? labels + (size_t)c * total + at : NULL, dec ? dec + at : NULL);
        gpusvm__input_free(ctx, &xe);
        if (label0) label0[f] = models[(size_t)f * (size_t)npt]->label[0];
        at += nte[f];
    }
    for (k = 0; k < nmod; ++k) gpusvm_model_free(models[k]);
    gpusvm__free(a, models);
    gpusvm__free(a, (void *)sub);
    gpusvm__free(a, nsub);
    gpusvm__free(a, subpt);
    return r;
}

/* Platt scaling of one pairwise problem, as LIBSVM's svm_binary_svc_probability: decision
   values from a 5-fold cross-validation on the pair's rows idx (yy: +1 / -1), each fold's
   model a two-class problem with bounds Cp / Cn, then the sigmoid fit. */
static gpusvm_result gpusvm__binary_probability(gpusvm_context *ctx, const gpusvm__csr *xin, const gpusvm_params *prm,
                                                const size_t *idx, const signed char *yy, size_t l, double Cp,
                                                double Cn, double *A, double *B)
{
    const gpusvm_allocator *a = &ctx->alloc;
    enum { nr_fold = 5 };
    const int wlab[2] = {1, -1};
    size_t *perm = (size_t *)gpusvm__alloc(a, l, sizeof(size_t));
    size_t *rows = (size_t *)gpusvm__alloc(a, (size_t)nr_fold * (l ? l : 1), sizeof(size_t));
    size_t *te_rows = (size_t *)gpusvm__alloc(a, l, sizeof(size_t));
    double *dec = (double *)gpusvm__alloc(a, l, sizeof(double));
    double *lab = (double *)gpusvm__alloc(a, l, sizeof(double));
    double *yfull = (double *)gpusvm__calloc(a, xin->rows, sizeof(double));
    double *dv = (double *)gpusvm__alloc(a, l, sizeof(double));
    size_t *tr[nr_fold], *te[nr_fold], ntr[nr_fold], nte[nr_fold], fb[nr_fold];
    int label0[nr_fold], nf = 0;
    double wv[2];
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    gpusvm_params sub;
    gpusvm_result r = GPUSVM_OK;
    size_t i, k, at;
    int f;
    if (!perm || !rows || !te_rows || !dec || !lab || !yfull || !dv) {
        r = gpusvm__oom(ctx, "the probability fit");
        goto done;
    }
    for (i = 0; i < l; ++i) perm[i] = i;
    for (i = 0; i < l; ++i) {
        const size_t j = i + GPUSVM__RAND(rng, l - i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (k = 0; k < l; ++k) yfull[idx[k]] = yy[k];
    /* the folds that keep both classes train together; one class left: its sign, as LIBSVM */
    for (f = 0, at = 0; f < nr_fold; ++f) {
        const size_t b = (size_t)f * l / (size_t)nr_fold, e = (size_t)(f + 1) * l / (size_t)nr_fold;
        size_t nt = 0, npos = 0, nneg = 0;
        size_t *fr = rows + (size_t)nf * l;
        for (k = 0; k < l; ++k)
            if (k < b || k >= e) {
                fr[nt++] = idx[perm[k]];
                if (yy[perm[k]] > 0) ++npos;
                else ++nneg;
            }
        if (npos == 0 || nneg == 0) {
            for (k = b; k < e; ++k) dec[perm[k]] = npos ? 1.0 : nneg ? -1.0 : 0.0;
            continue;
        }
        for (k = b; k < e; ++k) te_rows[at + k - b] = idx[perm[k]];
        tr[nf] = fr;
        ntr[nf] = nt;
        te[nf] = te_rows + at;
        nte[nf] = e - b;
        fb[nf] = b;
        at += e - b;
        ++nf;
    }
    wv[0] = Cp;
    wv[1] = Cn;
    sub = *prm;
    sub.C = 1.0;
    sub.n_weight = 2;
    sub.weight_label = wlab;
    sub.weight = wv;
    if (nf && (r = gpusvm__folds(ctx, xin, yfull, &sub, nf, tr, ntr, (const size_t *const *)te, nte, 1, NULL, NULL, dv, label0)) !=
                  GPUSVM_OK)
        goto done;
    for (f = 0, at = 0; f < nf; ++f) { /* the first label of the fold's model is its positive side */
        for (k = 0; k < nte[f]; ++k) dec[perm[fb[f] + k]] = dv[at + k] * label0[f];
        at += nte[f];
    }
    for (i = 0; i < l; ++i) lab[i] = yy[i];
    r = gpusvm__sigmoid_train(ctx, l, dec, lab, A, B);
done:
    gpusvm__free(a, perm);
    gpusvm__free(a, rows);
    gpusvm__free(a, te_rows);
    gpusvm__free(a, dec);
    gpusvm__free(a, lab);
    gpusvm__free(a, yfull);
    gpusvm__free(a, dv);
    return r;
}

/* The Laplace scale of regression residuals, as LIBSVM's svm_svr_probability: mean absolute
   residual of a 5-fold cross-validation, again without residuals beyond 5 standard deviations. */
static gpusvm_result gpusvm__svr_probability(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                             const gpusvm_params *prm, double *sigma)
{
    const size_t l = xin->rows;
    double *ymv = (double *)gpusvm__alloc(&ctx->alloc, l, sizeof(double));
    double mae = 0.0, sd;
    gpusvm_params sub = *prm;
    gpusvm_result r;
    size_t i, count = 0;
    if (!ymv) return gpusvm__oom(ctx, "the probability fit");
    sub.probability = 0;
    r = gpusvm__cross_validation(ctx, xin, z, &sub, 5, ymv);
    if (r == GPUSVM_OK) {
        for (i = 0; i < l; ++i) {
            ymv[i] = z[i] - ymv[i];
            mae += fabs(ymv[i]);
        }
        mae /= (double)l;
        sd = sqrt(2 * mae * mae);
        for (i = 0, mae = 0.0; i < l; ++i) {
            if (fabs(ymv[i]) > 5 * sd) ++count;
            else mae += fabs(ymv[i]);
        }
        mae /= (double)(l - count);
        *sigma = mae;
        gpusvm__log(ctx, GPUSVM_LOG_INFO,
                    "Prob. model for test data: target value = predicted value + z, z: Laplace distribution "
                    "e^(-|z|/sigma)/(2sigma), sigma= %g",
                    mae);
    }
    gpusvm__free(&ctx->alloc, ymv);
    return r;
}

static int gpusvm__cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One-class density marks, as LIBSVM 3.3x's svm_one_class_probability: the sorted training
   decision values, five marks below zero and five above at evenly spaced ranks. Returns 0
   (and logs why) when either side has too few values. */
static int gpusvm__one_class_marks(gpusvm_context *ctx, double *dec, size_t l, double *marks)
{
    const int nr = GPUSVM__NR_MARKS, mid = GPUSVM__NR_MARKS / 2;
    double tmp[GPUSVM__NR_MARKS + 1];
    size_t neg = 0, pos, i;
    int k;
    qsort(dec, l, sizeof(double), gpusvm__cmp_double);
    for (i = 0; i < l; ++i)
        if (dec[i] >= 0) {
            neg = i;
            break;
        }
    pos = l - neg;
    if (neg < (size_t)(mid - 1) || pos < (size_t)(mid - 1) || neg == 0 || pos == 0) {
        gpusvm__log(ctx, GPUSVM_LOG_WARN,
                    "number of positive or negative decision values < %d; too few to do a probability estimation", mid);
        return 0;
    }
    for (k = 0; k < mid; ++k) tmp[k] = dec[(size_t)k * neg / (size_t)mid];
    tmp[mid] = 0;
    for (k = mid + 1; k < nr + 1; ++k) tmp[k] = dec[neg - 1 + (size_t)(k - mid) * pos / (size_t)mid];
    for (k = 0; k < nr; ++k) marks[k] = (tmp[k] + tmp[k + 1]) / 2;
    return 1;
}

/* >>tasks ------------------------------------------------------------------ */
/* Each LIBSVM task built on the solver: one-vs-one C-SVC and nu-SVC, one-class and the SVRs,
   Crammer-Singer, cross-validation; and the models they make. */

static gpusvm_result gpusvm__model_alloc(gpusvm_context *ctx, int nr_class, size_t total_sv, size_t nnz,
                                         gpusvm_model **out)
{
    const gpusvm_allocator *a = &ctx->alloc;
    size_t npairs = (size_t)nr_class * (size_t)(nr_class - 1) / 2, ncoef;
    gpusvm_model *m = (gpusvm_model *)gpusvm__calloc(a, 1, sizeof(gpusvm_model));
    if (!m) return gpusvm__oom(ctx, "the model");
    m->allocator = *a;
    m->nr_class = nr_class;
    m->total_sv = total_sv;
    if (!gpusvm__mul(nr_class > 1 ? (size_t)(nr_class - 1) : 1, total_sv, &ncoef)) ncoef = (size_t)-1;
    m->label = (int *)gpusvm__calloc(a, (size_t)nr_class, sizeof(int));
    m->n_sv = (int *)gpusvm__calloc(a, (size_t)nr_class, sizeof(int));
    m->rho = (double *)gpusvm__calloc(a, npairs ? npairs : 1, sizeof(double));
    m->sv_coef = (double *)gpusvm__calloc(a, ncoef, sizeof(double));
    m->sv_row_ptr = (size_t *)gpusvm__calloc(a, total_sv + 1, sizeof(size_t));
    m->sv_col_idx = (int32_t *)gpusvm__alloc(a, nnz, sizeof(int32_t));
    m->sv_values = (float *)gpusvm__alloc(a, nnz, sizeof(float));
    m->sv_norms = (float *)gpusvm__alloc(a, total_sv ? total_sv : 1, sizeof(float));
    m->pair_info = (gpusvm_train_info *)gpusvm__calloc(a, npairs ? npairs : 1, sizeof(gpusvm_train_info));
    m->sv_indices = (size_t *)gpusvm__alloc(a, total_sv ? total_sv : 1, sizeof(size_t));
    if (!m->label || !m->n_sv || !m->rho || !m->sv_coef || !m->sv_row_ptr || !m->sv_col_idx || !m->sv_values ||
        !m->sv_norms || !m->pair_info || !m->sv_indices) {
        gpusvm_model_free(m);
        return gpusvm__oom(ctx, "the model");
    }
    *out = m;
    return GPUSVM_OK;
}

/* Appends row `row` of x (the training data's row `row`) as support vector *k of m (its entries at
   *at); advances both. */
static void gpusvm__model_push_sv(gpusvm_model *m, const gpusvm__csr *x, size_t row, size_t *k, size_t *at)
{
    const size_t len = x->row_ptr[row + 1] - x->row_ptr[row];
    m->sv_indices[*k] = row;
    gpusvm__csr_copy_row(x, row, m->sv_col_idx + *at, m->sv_values + *at);
    *at += len;
    m->sv_row_ptr[++*k] = *at;
}

/* The support vectors' squared norms (model_alloc made room), kept for prediction. */
static void gpusvm__model_norms(gpusvm_model *m)
{
    gpusvm__csr sv;
    if (!m->sv_norms || !m->total_sv) return;
    sv.rows = m->total_sv;
    sv.cols = m->n_features;
    sv.row_ptr = m->sv_row_ptr;
    sv.col = m->sv_col_idx;
    sv.val = m->sv_values;
    gpusvm__norms(&sv, 0, m->total_sv, m->sv_norms);
}

/* What every trained model keeps: the resolved parameters, its feature count, the info. */
static void gpusvm__model_finish(gpusvm_model *m, const gpusvm_params *prm, gpusvm_train_info *info, double t_start)
{
    size_t i;
    m->svm_type = prm->svm_type;
    m->kernel_type = prm->kernel_type;
    m->degree = prm->degree;
    m->gamma = prm->gamma;
    m->coef0 = prm->coef0;
    m->n_features = 0;
    for (i = 0; i < m->sv_row_ptr[m->total_sv]; ++i)
        if ((size_t)m->sv_col_idx[i] + 1 > m->n_features) m->n_features = (size_t)m->sv_col_idx[i] + 1;
    info->seconds = gpusvm__now() - t_start;
    m->info = *info;
    gpusvm__model_norms(m);
}

/* nu-SVC's start, as LIBSVM's solve_nu_svc: alpha filled in order up to each bound until each
   class holds nu l / 2, and G0 = Q alpha0. */
static gpusvm_result gpusvm__nu_svc_start(gpusvm_context *ctx, const gpusvm__problem *pb, double nu, double *alpha0,
                                          double *G0)
{
    const size_t l = pb->nvar;
    double left[2], *coef;
    size_t k;
    gpusvm_result r;
    left[0] = left[1] = nu * (double)l / 2;
    for (k = 0; k < l; ++k) {
        double *s = &left[pb->y[k] > 0 ? 0 : 1];
        alpha0[k] = pb->C[k] < *s ? pb->C[k] : *s;
        *s -= alpha0[k];
    }
    coef = (double *)gpusvm__alloc(&ctx->alloc, l, sizeof(double));
    if (!coef) return gpusvm__oom(ctx, "the nu-SVC start");
    for (k = 0; k < l; ++k) coef[k] = pb->y[k] * alpha0[k];
    r = gpusvm__problem_decision(ctx, pb, coef, G0);
    for (k = 0; k < l; ++k) G0[k] *= pb->y[k];
    gpusvm__free(&ctx->alloc, coef);
    return r;
}

/* C-SVC and nu-SVC for any number of classes, as LIBSVM's svm_train: rows grouped by class,
   one binary problem per pair of classes (i < j, class i positive), the support vectors the
   union over all pairs, and the coefficients laid out as LIBSVM lays them out (row j-1 holds
   class i's coefficients of pair (i,j), row i class j's). nu-SVC solves LIBSVM's scaled problem
   (bounds 1, or the class and sample weights) and divides by r.

   gpusvm__train_ovo trains several such models at once, one per subset of the input's rows
   (the folds of a cross-validation; one subset, every row, for a plain training): the rows of
   every subset are uploaded once, grouped by class, and every pair of every subset is one
   problem of a single batch. */

/* One subset's model in the making. */
typedef struct gpusvm__ovo {
    size_t n;                 /* its rows */
    int nr_class;
    int *label;
    size_t *count, *start;    /* per class */
    size_t *perm;             /* its rows grouped by class (input row numbers), order kept within a class */
    double *wC;               /* each class's bound */
    size_t npairs, nvar;      /* its pairs and their variables */
    gpusvm__problem *probs;   /* its pairs */
    int32_t *map;             /* the pairs' points: positions in the batch's shared points */
    signed char *yy;
    double *Cv, *alpha0, *G0; /* the pairs' bounds; nu-SVC's starts */
    size_t *var_at;           /* each pair's first variable */
    double *probA, *probB;
} gpusvm__ovo;

static void gpusvm__ovo_free(gpusvm_context *ctx, gpusvm__ovo *o)
{
    const gpusvm_allocator *a = &ctx->alloc;
    gpusvm__free(a, o->label);
    gpusvm__free(a, o->count);
    gpusvm__free(a, o->start);
    gpusvm__free(a, o->perm);
    gpusvm__free(a, o->wC);
    gpusvm__free(a, o->probs);
    gpusvm__free(a, o->map);
    gpusvm__free(a, o->yy);
    gpusvm__free(a, o->Cv);
    gpusvm__free(a, o->alpha0);
    gpusvm__free(a, o->G0);
    gpusvm__free(a, o->var_at);
    gpusvm__free(a, o->probA);
    gpusvm__free(a, o->probB);
    memset(o, 0, sizeof *o);
}

/* LIBSVM's check before any nu-SVC training: nu l / 2 must fit under each class's bounds in
   every pair. */
static gpusvm_result gpusvm__nu_feasible(gpusvm_context *ctx, const gpusvm__ovo *o, const gpusvm_params *prm)
{
    size_t i;
    int ci, cj, side;
    for (ci = 0; ci < o->nr_class; ++ci)
        for (cj = ci + 1; cj < o->nr_class; ++cj) {
            double cap[2] = {0.0, 0.0};
            for (side = 0; side < 2; ++side) {
                const int cc = side ? cj : ci;
                for (i = o->start[cc]; i < o->start[cc + 1]; ++i)
                    cap[side] += o->wC[cc] * (prm->sample_weight ? prm->sample_weight[o->perm[i]] : 1.0);
            }
            if (prm->nu * (double)(o->count[ci] + o->count[cj]) / 2 > (cap[0] < cap[1] ? cap[0] : cap[1]))
                return gpusvm__fail(ctx, GPUSVM_ERR_NU_INFEASIBLE,
                                    "specified nu is infeasible (classes %d and %d: nu * %lu / 2 exceeds the smaller "
                                    "class's total bound %g)",
                                    o->label[ci], o->label[cj], (unsigned long)(o->count[ci] + o->count[cj]),
                                    cap[0] < cap[1] ? cap[0] : cap[1]);
        }
    return GPUSVM_OK;
}

/* The pairs' Platt fits (params.probability), a job each (gpusvm__jobs_run: on several GPUs at
   once, each fit's five folds a batch on its device): pair i's rows of the input in its order,
   class ci's then class cj's. */
typedef struct gpusvm__ovo_fits {
    const gpusvm__csr *xin;
    const gpusvm_params *prm;
    gpusvm__ovo *o;
} gpusvm__ovo_fits;

static gpusvm_result gpusvm__ovo_fit(gpusvm_context *ctx, void *arg, int i)
{
    const gpusvm__ovo_fits *f = (const gpusvm__ovo_fits *)arg;
    gpusvm__ovo *o = f->o;
    size_t k, ni, l, *orig;
    int ci = 0, cj = 1, t;
    gpusvm_result r;
    for (t = 0; t < i; ++t)
        if (++cj == o->nr_class) cj = ++ci + 1;
    ni = o->count[ci];
    l = ni + o->count[cj];
    if (!(orig = (size_t *)gpusvm__alloc(&ctx->alloc, l, sizeof(size_t)))) return gpusvm__oom(ctx, "a probability fit");
    for (k = 0; k < l; ++k) orig[k] = k < ni ? o->perm[o->start[ci] + k] : o->perm[o->start[cj] + (k - ni)];
    r = gpusvm__binary_probability(ctx, f->xin, f->prm, orig, o->probs[i].y, l, o->wC[ci], o->wC[cj], &o->probA[i],
                                   &o->probB[i]);
    gpusvm__free(&ctx->alloc, orig);
    return r;
}

/* Classes, weights, grouping, the infeasible-nu check, the pairs (points through pos: input
   row -> position in xs), their probability fits and nu-SVC starts. */
static gpusvm_result gpusvm__ovo_setup(gpusvm_context *ctx, const gpusvm__csr *xs, const size_t *pos,
                                       const gpusvm__csr *xin, const double *y, const gpusvm_params *prm,
                                       const size_t *rows, size_t nrows, gpusvm__ovo *o)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const int nusvc = prm->svm_type == GPUSVM_NU_SVC;
    double *ty = NULL;
    size_t *fill = NULL, i, k, at;
    int c, ci, cj;
    gpusvm_result r;
    memset(o, 0, sizeof *o);
    o->n = nrows;
    ty = (double *)gpusvm__alloc(a, nrows, sizeof(double));
    if (!ty) return gpusvm__oom(ctx, "the grouped problem");
    for (k = 0; k < nrows; ++k) ty[k] = y[rows ? rows[k] : k];
    r = gpusvm__group(ctx, ty, nrows, &o->label, &o->count, &o->nr_class);
    gpusvm__free(a, ty);
    if (r != GPUSVM_OK) return r;
    o->wC = (double *)gpusvm__alloc(a, (size_t)o->nr_class, sizeof(double));
    if (!o->wC) return gpusvm__oom(ctx, "class weights");
    for (c = 0; c < o->nr_class; ++c) o->wC[c] = nusvc ? 1.0 : prm->C;
    for (k = 0; k < prm->n_weight; ++k) {
        for (c = 0; c < o->nr_class; ++c)
            if (o->label[c] == prm->weight_label[k]) break;
        if (c == o->nr_class)
            gpusvm__log(ctx, GPUSVM_LOG_WARN, "class label %d specified in weight is not found", prm->weight_label[k]);
        else
            o->wC[c] *= prm->weight[k];
    }
    if (o->nr_class == 1) return GPUSVM_OK;
    o->npairs = (size_t)o->nr_class * (size_t)(o->nr_class - 1) / 2;
    o->nvar = (size_t)(o->nr_class - 1) * nrows; /* every row is in nr_class - 1 pairs */

    /* rows grouped by class, order kept within a class */
    o->start = (size_t *)gpusvm__alloc(a, (size_t)o->nr_class + 1, sizeof(size_t));
    o->perm = (size_t *)gpusvm__alloc(a, nrows, sizeof(size_t));
    fill = (size_t *)gpusvm__alloc(a, (size_t)o->nr_class, sizeof(size_t));
    o->probs = (gpusvm__problem *)gpusvm__calloc(a, o->npairs, sizeof(gpusvm__problem));
    o->var_at = (size_t *)gpusvm__alloc(a, o->npairs, sizeof(size_t));
    o->map = (int32_t *)gpusvm__alloc(a, o->nvar, sizeof(int32_t));
    o->yy = (signed char *)gpusvm__alloc(a, o->nvar, 1);
    o->Cv = (double *)gpusvm__alloc(a, o->nvar, sizeof(double));
    if (nusvc) {
        o->alpha0 = (double *)gpusvm__alloc(a, o->nvar, sizeof(double));
        o->G0 = (double *)gpusvm__alloc(a, o->nvar, sizeof(double));
    }
    if (prm->probability) {
        o->probA = (double *)gpusvm__alloc(a, o->npairs, sizeof(double));
        o->probB = (double *)gpusvm__alloc(a, o->npairs, sizeof(double));
    }
    if (!o->start || !o->perm || !fill || !o->probs || !o->var_at || !o->map || !o->yy || !o->Cv ||
        (nusvc && (!o->alpha0 || !o->G0)) || (prm->probability && (!o->probA || !o->probB))) {
        r = gpusvm__oom(ctx, "the pairwise problems");
        goto done;
    }
    o->start[0] = 0;
    for (c = 0; c < o->nr_class; ++c) o->start[c + 1] = o->start[c] + o->count[c];
    for (c = 0; c < o->nr_class; ++c) fill[c] = o->start[c];
    for (k = 0; k < nrows; ++k) {
        const size_t row = rows ? rows[k] : k;
        const int v = (int)y[row];
        for (c = 0; o->label[c] != v; ++c) {
        }
        o->perm[fill[c]++] = row;
    }
    if (nusvc && (r = gpusvm__nu_feasible(ctx, o, prm)) != GPUSVM_OK) goto done;
    for (ci = 0, i = 0, at = 0; ci < o->nr_class; ++ci)
        for (cj = ci + 1; cj < o->nr_class; ++cj, ++i) {
            const size_t si = o->start[ci], sj = o->start[cj], ni = o->count[ci], nj = o->count[cj], l = ni + nj;
            gpusvm__problem *pb = &o->probs[i];
            for (k = 0; k < l; ++k) { /* class C times the row's weight */
                const size_t row = k < ni ? o->perm[si + k] : o->perm[sj + (k - ni)];
                o->map[at + k] = (int32_t)pos[row];
                o->yy[at + k] = (signed char)(k < ni ? 1 : -1);
                o->Cv[at + k] = (k < ni ? o->wC[ci] : o->wC[cj]) * (prm->sample_weight ? prm->sample_weight[row] : 1.0);
            }
            pb->x = *xs;
            pb->map = o->map + at;
            pb->npts = l;
            pb->nvar = l;
            pb->y = o->yy + at;
            pb->C = o->Cv + at;
            pb->ktype = gpusvm__ktype(prm->kernel_type);
            pb->gamma = (float)prm->gamma;
            pb->coef0 = (float)prm->coef0;
            pb->degree = prm->degree;
            pb->nu = nusvc;
            if (nusvc && (r = gpusvm__nu_svc_start(ctx, pb, prm->nu, o->alpha0 + at, o->G0 + at)) != GPUSVM_OK)
                goto done;
            o->var_at[i] = at;
            at += l;
        }
    if (prm->probability) {
        gpusvm__ovo_fits f;
        f.xin = xin;
        f.prm = prm;
        f.o = o;
        /* each fit five folds of 4/5 of its pair's rows: 5 x 0.8^2 the pair's work */
        r = gpusvm__jobs_run(ctx, (int)o->npairs, prm->progress != NULL, 3.2 * gpusvm__work(o->probs, (int)o->npairs),
                             0, gpusvm__ovo_fit, &f);
    } else {
        r = GPUSVM_OK;
    }
done:
    gpusvm__free(a, fill);
    return r;
}

/* A model's info from its pairs': counts summed, the worst gap, the largest working set and
   device use (the batch's; the largest, when it ran in parts). */
static void gpusvm__info_add(gpusvm_train_info *info, const gpusvm_train_info *pi)
{
    info->iterations += pi->iterations;
    info->outer_iterations += pi->outer_iterations;
    info->converged = info->converged && pi->converged;
    info->gap = pi->gap > info->gap ? pi->gap : info->gap;
    info->obj += pi->obj;
    info->n_bsv += pi->n_bsv;
    info->nu = pi->nu;
    if (pi->working_set_size > info->working_set_size) info->working_set_size = pi->working_set_size;
    if (pi->device_bytes > info->device_bytes) {
        info->device_bytes = pi->device_bytes;
        info->device_data_bytes = pi->device_data_bytes;
    }
}

/* The model of one subset from its pairs' solutions (alpha, G, info: its own, in pair order);
   x: the rows the model keeps, by input row. */
static gpusvm_result gpusvm__ovo_finish(gpusvm_context *ctx, gpusvm__ovo *o, const gpusvm__csr *x,
                                        const gpusvm_params *prm, const double *alpha, const double *G,
                                        gpusvm_train_info *pinfo, gpusvm_model **out, double t_start)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const int nusvc = prm->svm_type == GPUSVM_NU_SVC;
    unsigned char *nonzero = NULL; /* per grouped position */
    double *falpha = NULL, *rho = NULL;
    size_t *nz_start = NULL, total_sv = 0, sv_nnz = 0, i, k, at, p;
    gpusvm_train_info info;
    gpusvm_model *m = NULL;
    gpusvm_result r;
    int c, ci, cj;
    memset(&info, 0, sizeof info);
    info.converged = 1;
    if (o->nr_class == 1) {
        gpusvm__log(ctx, GPUSVM_LOG_WARN, "training data in only one class; the model predicts it always");
        if ((r = gpusvm__model_alloc(ctx, 1, 0, 0, &m)) != GPUSVM_OK) return r;
        m->label[0] = o->label[0];
        goto finish;
    }
    nonzero = (unsigned char *)gpusvm__calloc(a, o->n, 1);
    falpha = (double *)gpusvm__alloc(a, o->nvar, sizeof(double));
    rho = (double *)gpusvm__alloc(a, o->npairs, sizeof(double));
    nz_start = (size_t *)gpusvm__alloc(a, (size_t)o->nr_class, sizeof(size_t));
    if (!nonzero || !falpha || !rho || !nz_start) {
        r = gpusvm__oom(ctx, "the model");
        goto fail;
    }
    for (ci = 0, p = 0; ci < o->nr_class; ++ci)
        for (cj = ci + 1; cj < o->nr_class; ++cj, ++p) {
            const size_t si = o->start[ci], sj = o->start[cj], ni = o->count[ci], l = o->probs[p].nvar;
            const size_t v0 = o->var_at[p];
            const double *pa = alpha + v0, *pg = G + v0, *pc = o->Cv + v0;
            gpusvm_train_info *pi = &pinfo[p];
            double v = 0.0, sum_alpha = 0.0, scale = 1.0;
            /* nu-SVC: scaled by 1/r as LIBSVM's solve_nu_svc (the linear term is 0, not -1) */
            if (nusvc) {
                rho[p] = gpusvm__rho_nu(&o->probs[p], pa, pg, &pi->nu_r);
                scale = 1.0 / pi->nu_r;
                if (!gpusvm__finite_d(scale) || !gpusvm__finite_d(rho[p])) {
                    r = gpusvm__fail(ctx, GPUSVM_ERR_NU_DEGENERATE,
                                     "nu-SVC: classes %d and %d gave r = %g (rho %g), and the coefficients are alpha / r "
                                     "(LIBSVM writes infinite ones): the kernel cannot tell their points apart",
                                     o->label[ci], o->label[cj], pi->nu_r, rho[p]);
                    goto fail;
                }
                rho[p] *= scale;
            } else {
                rho[p] = gpusvm__rho(&o->probs[p], pa, pg);
            }
            for (k = 0; k < l; ++k) {
                v += pa[k] * (nusvc ? pg[k] : pg[k] - 1.0);
                sum_alpha += pa[k];
                if (pa[k] > 0.0) {
                    ++pi->n_sv;
                    if (pa[k] >= pc[k]) ++pi->n_bsv;
                    nonzero[k < ni ? si + k : sj + (k - ni)] = 1;
                }
                falpha[v0 + k] = o->probs[p].y[k] * pa[k] * scale;
            }
            pi->obj = v / 2 * scale * scale;
            pi->nu = sum_alpha / (o->wC[ci] * (double)l);
            gpusvm__info_add(&info, pi);
        }

    /* the support vectors: every point with a nonzero alpha in some pair, grouped by class */
    for (i = 0; i < o->n; ++i)
        if (nonzero[i]) {
            ++total_sv;
            sv_nnz += x->row_ptr[o->perm[i] + 1] - x->row_ptr[o->perm[i]];
        }
    if ((r = gpusvm__model_alloc(ctx, o->nr_class, total_sv, sv_nnz, &m)) != GPUSVM_OK) goto fail;
    for (c = 0, k = 0, at = 0; c < o->nr_class; ++c) {
        m->label[c] = o->label[c];
        nz_start[c] = k;
        for (i = o->start[c]; i < o->start[c + 1]; ++i) {
            if (!nonzero[i]) continue;
            m->n_sv[c]++;
            gpusvm__model_push_sv(m, x, o->perm[i], &k, &at);
        }
    }
    for (ci = 0, p = 0; ci < o->nr_class; ++ci)
        for (cj = ci + 1; cj < o->nr_class; ++cj, ++p) {
            const size_t si = o->start[ci], sj = o->start[cj], ni = o->count[ci], nj = o->count[cj];
            const double *f = falpha + o->var_at[p];
            size_t q = nz_start[ci];
            for (k = 0; k < ni; ++k)
                if (nonzero[si + k]) m->sv_coef[(size_t)(cj - 1) * total_sv + q++] = f[k];
            q = nz_start[cj];
            for (k = 0; k < nj; ++k)
                if (nonzero[sj + k]) m->sv_coef[(size_t)ci * total_sv + q++] = f[ni + k];
            m->rho[p] = rho[p];
            m->pair_info[p] = pinfo[p];
        }
    m->probA = o->probA;
    m->probB = o->probB;
    o->probA = o->probB = NULL;
    info.n_sv = total_sv;
finish:
    gpusvm__model_finish(m, prm, &info, t_start);
    if (o->nr_class == 2) {
        m->info.nu = m->pair_info[0].nu;
        m->info.nu_r = m->pair_info[0].nu_r;
    }
    *out = m;
    m = NULL;
    r = GPUSVM_OK;
fail:
    gpusvm_model_free(m);
    gpusvm__free(a, nonzero);
    gpusvm__free(a, falpha);
    gpusvm__free(a, rho);
    gpusvm__free(a, nz_start);
    return r;
}

/* One model per subset sub[s] (nsub[s] input rows; sub NULL: one subset, every row), every pair
   of every subset in one batch on the rows' one shared copy. */
static gpusvm_result gpusvm__train_ovo(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                       const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                       const size_t *sub_n, const gpusvm__point *sub_pt, gpusvm_model **out,
                                       double t_start)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const int pre = prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED;
    const size_t n = xin->rows;
    gpusvm__input ser, xsh;
    gpusvm__ovo *o = NULL;
    gpusvm__problem *probs = NULL;
    gpusvm_train_info *pinfo = NULL;
    size_t *pos = NULL, *order = NULL, nshared = 0, nprob = 0, nvar = 0, i, k;
    double *alpha = NULL, *G = NULL, *alpha0 = NULL, *G0 = NULL;
    int s, *label = NULL, nr_class = 0;
    size_t *count = NULL;
    gpusvm_result r;
    memset(&ser, 0, sizeof ser);
    memset(&xsh, 0, sizeof xsh);
    for (s = 0; s < nsub; ++s) out[s] = NULL;
    o = (gpusvm__ovo *)gpusvm__calloc(a, (size_t)nsub, sizeof(gpusvm__ovo));
    pos = (size_t *)gpusvm__alloc(a, n, sizeof(size_t));
    order = (size_t *)gpusvm__alloc(a, n, sizeof(size_t));
    if (!o || !pos || !order) { r = gpusvm__oom(ctx, "the training sets"); goto done; }

    /* the shared points: every row some subset uses, grouped by class (so each pair's points are
       two contiguous runs), order kept within a class */
    for (i = 0; i < n; ++i) pos[i] = (size_t)-1;
    for (s = 0; s < nsub; ++s)
        for (k = 0; k < (sub ? sub_n[s] : n); ++k) pos[sub ? sub[s][k] : k] = 0;
    if ((r = gpusvm__group(ctx, y, n, &label, &count, &nr_class)) != GPUSVM_OK) goto done;
    {
        int c;
        for (c = 0; c < nr_class; ++c)
            for (i = 0; i < n; ++i)
                if (pos[i] != (size_t)-1 && (int)y[i] == label[c]) order[nshared++] = i;
        for (k = 0; k < nshared; ++k) pos[order[k]] = k;
    }
    if (pre) {
        if ((r = gpusvm__serial_rows(ctx, prm, n, &ser)) != GPUSVM_OK) goto done;
        r = gpusvm__pre_problem(ctx, xin, prm, order, nshared, &xsh);
    } else {
        r = gpusvm__csr_rows(ctx, xin, order, nshared, &xsh);
    }
    if (r != GPUSVM_OK) goto done;

    for (s = 0; s < nsub; ++s) {
        const gpusvm_params ps = gpusvm__at_point(prm, sub_pt, (size_t)s);
        if ((r = gpusvm__ovo_setup(ctx, &xsh.m, pos, xin, y, &ps, sub ? sub[s] : NULL, sub ? sub_n[s] : n, &o[s])) !=
            GPUSVM_OK)
            goto done;
        nprob += o[s].npairs;
        nvar += o[s].nvar;
    }
    probs = (gpusvm__problem *)gpusvm__alloc(a, nprob, sizeof(gpusvm__problem));
    pinfo = (gpusvm_train_info *)gpusvm__calloc(a, nprob, sizeof(gpusvm_train_info));
    alpha = (double *)gpusvm__alloc(a, nvar, sizeof(double));
    G = (double *)gpusvm__alloc(a, nvar, sizeof(double));
    if (prm->svm_type == GPUSVM_NU_SVC) {
        alpha0 = (double *)gpusvm__alloc(a, nvar, sizeof(double));
        G0 = (double *)gpusvm__alloc(a, nvar, sizeof(double));
    }
    if (!probs || !pinfo || !alpha || !G || (prm->svm_type == GPUSVM_NU_SVC && (!alpha0 || !G0))) {
        r = gpusvm__oom(ctx, "the pairwise problems");
        goto done;
    }
    for (s = 0, nprob = 0, nvar = 0; s < nsub; ++s) {
        if (!o[s].npairs) continue; /* one class: no pair */
        memcpy(probs + nprob, o[s].probs, o[s].npairs * sizeof(gpusvm__problem));
        if (alpha0) {
            memcpy(alpha0 + nvar, o[s].alpha0, o[s].nvar * sizeof(double));
            memcpy(G0 + nvar, o[s].G0, o[s].nvar * sizeof(double));
        }
        nprob += o[s].npairs;
        nvar += o[s].nvar;
    }
    if (nprob && (r = gpusvm__solve_batch(ctx, probs, (int)nprob, prm, alpha0, G0, alpha, G, pinfo)) != GPUSVM_OK)
        goto done;
    for (s = 0, nprob = 0, nvar = 0; s < nsub; ++s) {
        const gpusvm_params ps = gpusvm__at_point(prm, sub_pt, (size_t)s);
        if ((r = gpusvm__ovo_finish(ctx, &o[s], pre ? &ser.m : xin, &ps, alpha + nvar, G + nvar, pinfo + nprob, &out[s],
                                    t_start)) != GPUSVM_OK)
            goto done;
        nprob += o[s].npairs;
        nvar += o[s].nvar;
    }
done:
    if (r != GPUSVM_OK)
        for (s = 0; s < nsub; ++s) {
            gpusvm_model_free(out[s]);
            out[s] = NULL;
        }
    if (o)
        for (s = 0; s < nsub; ++s) gpusvm__ovo_free(ctx, &o[s]);
    gpusvm__free(a, o);
    gpusvm__free(a, pos);
    gpusvm__free(a, order);
    gpusvm__free(a, label);
    gpusvm__free(a, count);
    gpusvm__free(a, probs);
    gpusvm__free(a, pinfo);
    gpusvm__free(a, alpha);
    gpusvm__free(a, G);
    gpusvm__free(a, alpha0);
    gpusvm__free(a, G0);
    gpusvm__input_free(ctx, &ser);
    gpusvm__input_free(ctx, &xsh);
    return r;
}

static gpusvm_result gpusvm__train_csvc(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                        const gpusvm_params *prm, gpusvm_model **out, double t_start)
{
    return gpusvm__train_ovo(ctx, xin, y, prm, 1, NULL, NULL, NULL, out, t_start);
}

/* The problems of gpusvm__train_single_many: their concatenated variables (labels, bounds,
   linear terms, starting alpha and G, results) and the map of each one's input rows. */
typedef struct gpusvm__single {
    const gpusvm__csr *x;   /* the rows the models keep (a precomputed kernel's: serial numbers) */
    gpusvm__input ser, kmat; /* precomputed: the serial numbers, the kernel matrix */
    int svr, nusvr;
    double C;
    signed char *yy;
    int32_t *map;
    double *lin, *alpha0, *G0, *alpha, *G, *coef, *Cv;
    gpusvm__problem *pb;
    gpusvm_train_info *info;
} gpusvm__single;

static void gpusvm__single_free(gpusvm_context *ctx, gpusvm__single *st)
{
    const gpusvm_allocator *a = &ctx->alloc;
    gpusvm__free(a, st->yy);
    gpusvm__free(a, st->map);
    gpusvm__free(a, st->lin);
    gpusvm__free(a, st->alpha0);
    gpusvm__free(a, st->G0);
    gpusvm__free(a, st->alpha);
    gpusvm__free(a, st->G);
    gpusvm__free(a, st->coef);
    gpusvm__free(a, st->Cv);
    gpusvm__free(a, st->pb);
    gpusvm__free(a, st->info);
    gpusvm__input_free(ctx, &st->ser);
    gpusvm__input_free(ctx, &st->kmat);
}

static gpusvm_result gpusvm__single_alloc(gpusvm_context *ctx, const gpusvm__csr *xin, const gpusvm_params *prm,
                                          int nsub, size_t npts, gpusvm__single *st)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t nvar = st->svr ? 2 * npts : npts, nv1 = nvar ? nvar : 1;
    gpusvm_result r;
    st->x = xin;
    st->yy = (signed char *)gpusvm__alloc(a, nv1, 1);
    st->map = (int32_t *)gpusvm__alloc(a, npts, sizeof(int32_t));
    st->lin = (double *)gpusvm__calloc(a, nv1, sizeof(double));
    st->alpha0 = (double *)gpusvm__calloc(a, nv1, sizeof(double));
    st->G0 = (double *)gpusvm__alloc(a, nv1, sizeof(double));
    st->alpha = (double *)gpusvm__alloc(a, nv1, sizeof(double));
    st->G = (double *)gpusvm__alloc(a, nv1, sizeof(double));
    st->coef = (double *)gpusvm__alloc(a, xin->rows, sizeof(double));
    st->Cv = (double *)gpusvm__alloc(a, nv1, sizeof(double));
    st->pb = (gpusvm__problem *)gpusvm__calloc(a, (size_t)nsub, sizeof(gpusvm__problem));
    st->info = (gpusvm_train_info *)gpusvm__calloc(a, (size_t)nsub, sizeof(gpusvm_train_info));
    if (!st->yy || !st->map || !st->lin || !st->alpha0 || !st->G0 || !st->alpha || !st->G || !st->coef || !st->Cv ||
        !st->pb || !st->info)
        return gpusvm__oom(ctx, "the problem");
    if (prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) { /* the models keep serial numbers; the problems are the kernel matrix's */
        if ((r = gpusvm__serial_rows(ctx, prm, xin->rows, &st->ser)) != GPUSVM_OK) return r;
        if ((r = gpusvm__pre_all(ctx, xin, prm, &st->kmat)) != GPUSVM_OK) return r;
        st->x = &st->ser.m;
    }
    return GPUSVM_OK;
}

/* Problem s on rows rows[0..l) (NULL: every row), its variables from vo, its map from po:
   labels, bounds, linear terms and the starting point. */
static gpusvm_result gpusvm__single_problem(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                            const gpusvm_params *prm, gpusvm__single *st, int s, const size_t *rows,
                                            size_t l, size_t vo, size_t po)
{
    const size_t nv = st->svr ? 2 * l : l;
    signed char *py = st->yy + vo;
    double *pC = st->Cv + vo, *pl = st->lin + vo, *pa = st->alpha0 + vo, *pg = st->G0 + vo, left;
    gpusvm__problem *p = &st->pb[s];
    size_t i;
    p->x = prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED ? st->kmat.m : *xin;
    p->map = rows ? st->map + po : NULL;
    p->npts = l;
    p->nvar = nv;
    p->y = py;
    p->C = pC;
    p->ktype = gpusvm__ktype(prm->kernel_type);
    p->gamma = (float)prm->gamma;
    p->coef0 = (float)prm->coef0;
    p->degree = prm->degree;
    p->nu = st->nusvr;
    for (i = 0; i < l; ++i) st->map[po + i] = (int32_t)(rows ? rows[i] : i);
    for (i = 0; i < nv; ++i) {
        const size_t row = (size_t)st->map[po + (i < l ? i : i - l)];
        py[i] = (signed char)(i < l ? 1 : -1);
        pC[i] = st->C * (prm->sample_weight ? prm->sample_weight[row] : 1.0);
    }
    if (!st->svr) {
        /* sum(alpha) = nu l, filled in order up to each bound (with unit weights: LIBSVM's 1, 1, ..., frac) */
        left = prm->nu * (double)l;
        for (i = 0; i < l && left > 0.0; ++i) {
            pa[i] = pC[i] < left ? pC[i] : left;
            left -= pa[i];
        }
        /* G0 = Q alpha0 (y = +1, p = 0): the decision primitive with alpha0 as coefficients */
        return gpusvm__problem_decision(ctx, p, pa, pg);
    }
    left = st->C * prm->nu * (double)l / 2;
    for (i = 0; i < l; ++i) {
        const double zi = z[st->map[po + i]];
        pl[i] = (st->nusvr ? 0.0 : prm->p) - zi;
        pl[i + l] = (st->nusvr ? 0.0 : prm->p) + zi;
        if (st->nusvr) {
            pa[i] = pa[i + l] = pC[i] < left ? pC[i] : left;
            left -= pa[i];
        }
    }
    memcpy(pg, pl, nv * sizeof(double));
    return GPUSVM_OK;
}

/* Problem s's model from its solution (variables from vo, map from po). */
static gpusvm_result gpusvm__single_model(gpusvm_context *ctx, const gpusvm_params *prm, gpusvm__single *st, int s,
                                          size_t vo, size_t po, double t_start, gpusvm_model **out)
{
    const size_t l = st->pb[s].npts, nv = st->pb[s].nvar;
    const double *pa = st->alpha + vo, *pg = st->G + vo, *pl = st->lin + vo, *pC = st->Cv + vo;
    gpusvm_train_info *fi = &st->info[s];
    gpusvm_model *m = NULL;
    gpusvm_result r;
    size_t nsv = 0, nbsv = 0, sv_nnz = 0, i, k = 0, at = 0;
    double v = 0.0, sum_alpha = 0.0;
    for (i = 0; i < nv; ++i) v += pa[i] * (pg[i] + pl[i]);
    fi->obj = v / 2;
    for (i = 0; i < l; ++i) {
        const size_t row = (size_t)st->map[po + i];
        st->coef[i] = st->svr ? pa[i] - pa[i + l] : pa[i];
        sum_alpha += fabs(st->coef[i]);
        if (fabs(st->coef[i]) > 0.0) {
            ++nsv;
            sv_nnz += st->x->row_ptr[row + 1] - st->x->row_ptr[row];
            if (fabs(st->coef[i]) >= pC[i]) ++nbsv;
        }
    }
    fi->nu = sum_alpha / (st->C * (double)l);
    fi->n_sv = nsv;
    fi->n_bsv = nbsv;
    if ((r = gpusvm__model_alloc(ctx, 2, nsv, sv_nnz, &m)) != GPUSVM_OK) return r;
    m->rho[0] = st->nusvr ? gpusvm__rho_nu(&st->pb[s], pa, pg, &fi->nu_r) : gpusvm__rho(&st->pb[s], pa, pg);
    for (i = 0; i < l; ++i) {
        if (!(fabs(st->coef[i]) > 0.0)) continue;
        m->sv_coef[k] = st->coef[i];
        gpusvm__model_push_sv(m, st->x, (size_t)st->map[po + i], &k, &at);
    }
    gpusvm__model_finish(m, prm, fi, t_start);
    *out = m;
    return GPUSVM_OK;
}

/* -b 1 on a plain training: the SVR's Laplace scale, or one-class density marks on the training
   decision values. */
static gpusvm_result gpusvm__single_probability(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                                const gpusvm_params *prm, int svr, gpusvm_model *m)
{
    const gpusvm_allocator *a = &ctx->alloc;
    double *dv;
    gpusvm_result r;
    if (svr) {
        m->probA = (double *)gpusvm__alloc(a, 1, sizeof(double));
        if (!m->probA) return gpusvm__oom(ctx, "the model");
        return gpusvm__svr_probability(ctx, xin, z, prm, &m->probA[0]);
    }
    dv = (double *)gpusvm__alloc(a, xin->rows, sizeof(double));
    m->prob_density_marks = (double *)gpusvm__alloc(a, GPUSVM__NR_MARKS, sizeof(double));
    if (!dv || !m->prob_density_marks) {
        gpusvm__free(a, dv);
        return gpusvm__oom(ctx, "the model");
    }
    r = gpusvm__predict(ctx, m, xin, NULL, dv);
    if (r == GPUSVM_OK && !gpusvm__one_class_marks(ctx, dv, xin->rows, m->prob_density_marks)) {
        gpusvm__free(a, m->prob_density_marks);
        m->prob_density_marks = NULL;
    }
    gpusvm__free(a, dv);
    return r;
}

/* epsilon-SVR, nu-SVR and one-class SVM with LIBSVM's formulations (solve_epsilon_svr,
   solve_nu_svr, solve_one_class): the standard solver with a linear term p. The SVRs have 2n
   variables, alpha_i (y = +1) and alpha*_i (y = -1), both on point i: epsilon-SVR with
   p = eps - z_i and eps + z_i from alpha = 0; nu-SVR with p = -z_i and z_i, the per-class
   solver (Solver_NU), from alpha_i = alpha*_i filled in order up to C until each side holds
   C nu n / 2 (Q alpha = 0 there, so G starts at p). The one-class problem starts from
   alpha = 1 on the first floor(nu n) points, nu n - floor(nu n) on the next, so its gradient
   starts at Q alpha.

   One model per subset sub[s] (sub_n[s] input rows; sub NULL: one subset, every row), all of
   them one batch on the input's one copy (a cross-validation's folds); probabilities only for
   a plain training (sub NULL). */
static gpusvm_result gpusvm__train_single_many(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                               const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                               const size_t *sub_n, gpusvm_model **out, double t_start)
{
    gpusvm__single st;
    gpusvm_result r;
    size_t npts = 0, vo, po;
    int s;
    memset(&st, 0, sizeof st);
    st.nusvr = prm->svm_type == GPUSVM_NU_SVR;
    st.svr = prm->svm_type == GPUSVM_EPSILON_SVR || st.nusvr;
    st.C = st.svr ? prm->C : 1.0;
    for (s = 0; s < nsub; ++s) {
        out[s] = NULL;
        npts += sub ? sub_n[s] : xin->rows;
    }
    if ((r = gpusvm__single_alloc(ctx, xin, prm, nsub, npts, &st)) != GPUSVM_OK) goto done;
    for (s = 0, vo = 0, po = 0; s < nsub && r == GPUSVM_OK; ++s) {
        const size_t l = sub ? sub_n[s] : xin->rows;
        r = gpusvm__single_problem(ctx, xin, z, prm, &st, s, sub ? sub[s] : NULL, l, vo, po);
        vo += st.svr ? 2 * l : l;
        po += l;
    }
    if (r != GPUSVM_OK ||
        (r = gpusvm__solve_batch(ctx, st.pb, nsub, prm, st.alpha0, st.G0, st.alpha, st.G, st.info)) != GPUSVM_OK)
        goto done;
    for (s = 0, vo = 0, po = 0; s < nsub && r == GPUSVM_OK; ++s) {
        if ((r = gpusvm__single_model(ctx, prm, &st, s, vo, po, t_start, &out[s])) != GPUSVM_OK) break;
        if (prm->probability && !sub) r = gpusvm__single_probability(ctx, xin, z, prm, st.svr, out[s]);
        out[s]->info.seconds = gpusvm__now() - t_start;
        out[s]->pair_info[0] = out[s]->info;
        vo += st.pb[s].nvar;
        po += st.pb[s].npts;
    }
done:
    if (r != GPUSVM_OK)
        for (s = 0; s < nsub; ++s) {
            gpusvm_model_free(out[s]);
            out[s] = NULL;
        }
    gpusvm__single_free(ctx, &st);
    return r;
}

static gpusvm_result gpusvm__train_single(gpusvm_context *ctx, const gpusvm__csr *xin, const double *z,
                                          const gpusvm_params *prm, gpusvm_model **out, double t_start)
{
    return gpusvm__train_single_many(ctx, xin, z, prm, 1, NULL, NULL, out, t_start);
}

/* Rows idx[0..count) of x as a new CSR matrix (arrays allocated; freed with gpusvm__input_free):
   the row pointers first, then the nonzeros copied, by the context's threads where there are
   a million or more (mnist's 9 million: 33 ms on one thread of the 2-core VM). */
typedef struct gpusvm__rows_copy {
    const gpusvm__csr *x;
    const size_t *idx;
    size_t count;
    gpusvm__input *out;
    int parts;
} gpusvm__rows_copy;

static void gpusvm__csr_rows_part(void *arg, int t)
{
    const gpusvm__rows_copy *c = (const gpusvm__rows_copy *)arg;
    const size_t hi = c->count * (size_t)(t + 1) / (size_t)c->parts;
    size_t i;
    for (i = c->count * (size_t)t / (size_t)c->parts; i < hi; ++i) {
        const size_t at = c->out->row_ptr[i];
        gpusvm__csr_copy_row(c->x, c->idx[i], c->out->col + at, c->out->val + at);
    }
}

static gpusvm_result gpusvm__csr_rows(gpusvm_context *ctx, const gpusvm__csr *x, const size_t *idx, size_t count,
                                      gpusvm__input *out)
{
    gpusvm__rows_copy c;
    size_t i, nnz = 0;
    memset(out, 0, sizeof *out);
    for (i = 0; i < count; ++i) nnz += x->row_ptr[idx[i] + 1] - x->row_ptr[idx[i]];
    out->row_ptr = (size_t *)gpusvm__alloc(&ctx->alloc, count + 1, sizeof(size_t));
    out->col = (int32_t *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(int32_t));
    out->val = (float *)gpusvm__alloc(&ctx->alloc, nnz, sizeof(float));
    if (!out->row_ptr || !out->col || !out->val) {
        gpusvm__input_free(ctx, out);
        return gpusvm__oom(ctx, "a subset of the rows");
    }
    for (out->row_ptr[0] = 0, i = 0; i < count; ++i)
        out->row_ptr[i + 1] = out->row_ptr[i] + (x->row_ptr[idx[i] + 1] - x->row_ptr[idx[i]]);
    c.x = x;
    c.idx = idx;
    c.count = count;
    c.out = out;
    c.parts = nnz >= ((size_t)1 << 20) && ctx->threads > 1 ? ctx->threads : 1;
    gpusvm__parallel(c.parts, gpusvm__csr_rows_part, &c);
    gpusvm__input_view(out, count, x->cols);
    return GPUSVM_OK;
}

/* Crammer and Singer's multiclass SVM (Crammer and Singer 2001; Cotter, Srebro and Keshet's
   GTSVM, eqs. 3-4): one coefficient vector per class, no bias. Per point i and class r,
   alpha_ir <= U_i [r = y_i] with sum_r alpha_ir = 0, U_i = C times the point's and its class's
   weights. The backend runs the whole outer iteration (kernels part 5 says what each step
   does): the responses, the relative duality gap 2 (P - D) / (P + D) (P the primal of eq. 3, D
   the dual of eq. 4) and the stop, the working set of the points with the largest share of the
   gap, their kernel rows (kept for every point when they fit: a point comes back often), and
   sweeps of exact per-point block solves over the set. Cross-validation trains its folds as
   one batch (each fold a problem on its rows of the shared points). The host reads the status
   every few rounds, and the duals once at the end. */

/* The backend's working-set size (it may lower it to what it holds) and the fraction of the set's
   first violation the sweeps stop at (backend->cs_q, cs_ratio), unless set at build time by
   GPUSVM__CS_Q and GPUSVM__CS_RATIO. */
#ifdef GPUSVM__CS_Q
#define GPUSVM__CS_Q_OF(be) GPUSVM__CS_Q
#else
#define GPUSVM__CS_Q_OF(be) ((be)->cs_q)
#endif
#ifdef GPUSVM__CS_RATIO
#define GPUSVM__CS_RATIO_OF(be) GPUSVM__CS_RATIO
#else
#define GPUSVM__CS_RATIO_OF(be) ((be)->cs_ratio)
#endif

typedef struct gpusvm__cs {
    int nprob, q, cache;
    size_t nvar, ncoef;        /* points and coefficients of all problems */
    size_t *n, *var0, *a0;     /* per problem: points, first point, first coefficient */
    int *m, **label;           /* per problem: classes and their labels */
    int *cls, *rows;           /* per point: class within its problem; the row of x it is */
    double *U, *kd, *alpha, *cw, *st, spent[4];
    int32_t *map;
    signed char *yy;
    float *norm;               /* of every row of x (precomputed: of the kernel matrix's) */
    gpusvm__problem *pb;       /* what the backend holds: the points (precomputed: the matrix) */
    gpusvm__input kmat, ser;   /* precomputed: the kernel matrix, the models' serial numbers */
    const gpusvm__csr *xs;     /* the rows the models keep */
    size_t before, device_bytes, row_bytes; /* free device memory before training; what training held; its rows */
} gpusvm__cs;

static void gpusvm__cs_free(gpusvm_context *ctx, gpusvm__cs *s)
{
    const gpusvm_allocator *a = &ctx->alloc;
    void *p[16];
    int i;
    for (i = 0; s->label && i < s->nprob; ++i) gpusvm__free(a, s->label[i]);
    p[0] = s->n; p[1] = s->var0; p[2] = s->a0; p[3] = s->m; p[4] = s->label; p[5] = s->cls; p[6] = s->rows;
    p[7] = s->U; p[8] = s->kd; p[9] = s->alpha; p[10] = s->cw; p[11] = s->st; p[12] = s->map; p[13] = s->yy;
    p[14] = s->norm; p[15] = s->pb;
    for (i = 0; i < 16; ++i) gpusvm__free(a, p[i]);
    gpusvm__input_free(ctx, &s->kmat);
    gpusvm__input_free(ctx, &s->ser);
}

static gpusvm_result gpusvm__cs_alloc(gpusvm_context *ctx, const gpusvm__csr *xin, const gpusvm_params *prm,
                                      gpusvm__cs *s)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t np = (size_t)s->nprob, nv = s->nvar ? s->nvar : 1;
    gpusvm_result r;
    s->n = (size_t *)gpusvm__alloc(a, np, sizeof(size_t));
    s->var0 = (size_t *)gpusvm__alloc(a, np, sizeof(size_t));
    s->a0 = (size_t *)gpusvm__alloc(a, np, sizeof(size_t));
    s->m = (int *)gpusvm__alloc(a, np, sizeof(int));
    s->label = (int **)gpusvm__calloc(a, np, sizeof(int *));
    s->st = (double *)gpusvm__calloc(a, np * GPUSVM__ST_COUNT, sizeof(double));
    s->pb = (gpusvm__problem *)gpusvm__calloc(a, np, sizeof(gpusvm__problem));
    s->cls = (int *)gpusvm__alloc(a, nv, sizeof(int));
    s->rows = (int *)gpusvm__alloc(a, nv, sizeof(int));
    s->map = (int32_t *)gpusvm__alloc(a, nv, sizeof(int32_t));
    s->U = (double *)gpusvm__alloc(a, nv, sizeof(double));
    s->kd = (double *)gpusvm__alloc(a, nv, sizeof(double));
    s->cw = (double *)gpusvm__alloc(a, nv, sizeof(double));
    s->yy = (signed char *)gpusvm__alloc(a, nv, 1);
    s->norm = (float *)gpusvm__alloc(a, xin->rows, sizeof(float));
    if (!s->n || !s->var0 || !s->a0 || !s->m || !s->label || !s->st || !s->pb || !s->cls || !s->rows || !s->map ||
        !s->U || !s->kd || !s->cw || !s->yy || !s->norm)
        return gpusvm__oom(ctx, "the Crammer-Singer problem");
    s->xs = xin;
    if (prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) { /* the models keep serial numbers */
        if ((r = gpusvm__serial_rows(ctx, prm, xin->rows, &s->ser)) != GPUSVM_OK ||
            (r = gpusvm__pre_all(ctx, xin, prm, &s->kmat)) != GPUSVM_OK)
            return r;
        s->xs = &s->ser.m;
    }
    gpusvm__norms(prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED ? &s->kmat.m : xin, 0, xin->rows, s->norm);
    return GPUSVM_OK;
}

/* Problem p on rows[0..l) of x (NULL: every row), its points from s->var0[p]: its classes, each
   point's bound U_i, the backend's problem (every label +1, every bound 1: it only computes rows)
   and the diagonal. */
static gpusvm_result gpusvm__cs_problem(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                        const gpusvm_params *prm, gpusvm__cs *s, int p, const size_t *rows, size_t l)
{
    const size_t v0 = s->var0[p];
    gpusvm__problem *pb = &s->pb[p];
    double *yl = s->U + v0; /* the labels first, then the bounds in their place */
    size_t *count = NULL, i, k;
    gpusvm_result res;
    int r;
    for (i = 0; i < l; ++i) {
        s->rows[v0 + i] = (int)(rows ? rows[i] : i);
        s->map[v0 + i] = (int32_t)s->rows[v0 + i];
        yl[i] = y[s->rows[v0 + i]];
    }
    if ((res = gpusvm__group(ctx, yl, l, &s->label[p], &count, &s->m[p])) != GPUSVM_OK) return res;
    gpusvm__free(&ctx->alloc, count);
    for (i = 0; i < l; ++i) {
        const size_t row = (size_t)s->rows[v0 + i];
        for (r = 0; s->label[p][r] != (int)yl[i]; ++r) {
        }
        s->cls[v0 + i] = r;
        s->U[v0 + i] = prm->C * (prm->sample_weight ? prm->sample_weight[row] : 1.0);
        for (k = 0; k < prm->n_weight; ++k)
            if (prm->weight_label[k] == s->label[p][r]) s->U[v0 + i] *= prm->weight[k];
        s->yy[v0 + i] = 1;
        s->cw[v0 + i] = 1.0;
    }
    pb->x = prm->kernel_type == GPUSVM_KERNEL_PRECOMPUTED ? s->kmat.m : *xin;
    pb->map = rows ? s->map + v0 : NULL;
    pb->nvar = pb->npts = l;
    pb->y = s->yy + v0;
    pb->C = s->cw + v0;
    pb->ktype = gpusvm__ktype(prm->kernel_type);
    pb->gamma = (float)prm->gamma;
    pb->coef0 = (float)prm->coef0;
    pb->degree = prm->degree;
    for (i = 0; i < l; ++i) {
        const size_t row = (size_t)s->rows[v0 + i];
        s->kd[v0 + i] = gpusvm__diag(&pb->x, row, s->norm[row], pb->ktype, pb->gamma, pb->coef0, pb->degree);
    }
    return GPUSVM_OK;
}

/* The problems: rows sub[p][0..sub_n[p]) of x each (sub NULL: one problem on every row). */
static gpusvm_result gpusvm__cs_setup(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                      const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                      const size_t *sub_n, gpusvm__cs *s)
{
    gpusvm_result res;
    int p;
    s->nprob = sub ? nsub : 1;
    for (p = 0; p < s->nprob; ++p) s->nvar += sub ? sub_n[p] : xin->rows;
    if ((res = gpusvm__cs_alloc(ctx, xin, prm, s)) != GPUSVM_OK) return res;
    for (p = 0; p < s->nprob; ++p) {
        s->n[p] = sub ? sub_n[p] : xin->rows;
        s->var0[p] = p ? s->var0[p - 1] + s->n[p - 1] : 0;
        if ((res = gpusvm__cs_problem(ctx, xin, y, prm, s, p, sub ? sub[p] : NULL, s->n[p])) != GPUSVM_OK) return res;
        s->a0[p] = p ? s->a0[p - 1] + s->n[p - 1] * (size_t)s->m[p - 1] : 0;
    }
    s->ncoef = s->a0[s->nprob - 1] + s->n[s->nprob - 1] * (size_t)s->m[s->nprob - 1];
    s->alpha = (double *)gpusvm__calloc(&ctx->alloc, s->ncoef, sizeof(double));
    return s->alpha ? GPUSVM_OK : gpusvm__oom(ctx, "the Crammer-Singer problem");
}

/* The working set and the row cache: every point's row when they fit the row budget (-m), the
   backend's cache budget and the device's memory, else only the working sets'; then the
   backend's state. */
static gpusvm_result gpusvm__cs_begin(gpusvm_context *ctx, const gpusvm_params *prm, gpusvm__cs *s)
{
    gpusvm__backend *be = ctx->backend;
    const double budget = prm->cache_size_mb > 0.0 ? prm->cache_size_mb * 1048576.0 : (double)be->cache_budget;
    double rows = 0.0;
    gpusvm__plan pl;
    gpusvm__cs_desc d;
    gpusvm_result res;
    size_t nmax = 1;
    int p;
    for (p = 0; p < s->nprob; ++p) {
        const double pitch = (double)((s->n[p] + GPUSVM__PITCH - 1) / GPUSVM__PITCH * GPUSVM__PITCH);
        rows += (double)s->n[p] * pitch * sizeof(float);
        if (s->n[p] > nmax) nmax = s->n[p];
    }
    s->q = be->qcap < GPUSVM__CS_Q_OF(be) ? be->qcap : GPUSVM__CS_Q_OF(be);
    if ((size_t)s->q > nmax) s->q = (int)nmax;
    s->cache = rows <= budget && rows <= (double)be->max_alloc;
    for (p = 0; p < s->nprob; ++p) {
        s->pb[p].cache = s->cache;
        s->pb[p].own_rows = 1;
    }
    pl = gpusvm__plan_of(ctx, prm, s->q);
    if (s->cache && be->train->bytes(be, s->pb, s->nprob, &pl) > be->train->mem_left(be))
        for (s->cache = 0, p = 0; p < s->nprob; ++p) s->pb[p].cache = 0;
    while (pl.q > 2 && be->train->bytes(be, s->pb, s->nprob, &pl) > be->train->mem_left(be)) pl.q /= 2;
    s->q = pl.q;
    s->before = be->train->mem_left(be);
    if ((res = be->train->begin(be, s->pb, s->nprob, &pl)) != GPUSVM_OK) return res;
    d.nprob = s->nprob;
    d.cache = s->cache;
    d.n = s->n;
    d.m = s->m;
    d.cls = s->cls;
    d.U = s->U;
    d.kd = s->kd;
    d.eps = prm->eps;
    d.ratio = GPUSVM__CS_RATIO_OF(be);
    gpusvm__log(ctx, GPUSVM_LOG_DEBUG, "Crammer-Singer: %d problem%s, %d classes, working set %d, %s", s->nprob,
                s->nprob > 1 ? "s" : "", s->m[0], s->q, d.cache ? "every row cached" : "rows recomputed");
    if ((res = be->cs->begin(be, &d, &s->q)) != GPUSVM_OK) return res;
    s->device_bytes = s->before - be->train->mem_left(be);
    pl.q = s->q;
    s->row_bytes = be->train->bytes(be, s->pb, s->nprob, &pl);
    for (p = 0; p < s->nprob; ++p) s->pb[p].cache = 0;
    pl.q = 0;
    s->row_bytes -= be->train->bytes(be, s->pb, s->nprob, &pl);
    if (s->row_bytes > s->device_bytes) s->row_bytes = s->device_bytes;
    return GPUSVM_OK;
}

/* 1 while a problem runs. */
static int gpusvm__cs_running(const gpusvm__cs *s)
{
    int p;
    for (p = 0; p < s->nprob; ++p)
        if (s->st[(size_t)p * GPUSVM__ST_COUNT + GPUSVM__ST_DONE] == GPUSVM__DONE_RUNNING) return 1;
    return 0;
}

/* Rounds that move nothing: a kernel that overflowed (a parameter far outside the data's scale,
   K(x,x) = inf: no block ever moves, or the gap is not finite) is an error; an eps below what the
   arithmetic resolves (1e-300) leaves every block within 1e-12 of optimal and the gap above eps.
   max_iter counts moves, so neither would end: after 1000 rounds without a move (rounds pass moves
   only where a round moves nothing) the first is an error and the second stops, as max_iter does,
   once every running problem is there. */
static gpusvm_result gpusvm__cs_stalled(gpusvm_context *ctx, const gpusvm__cs *s, double eps, int *stop)
{
    int p, running = 0, stalled = 0;
    for (p = 0; p < s->nprob; ++p) {
        const double *st = s->st + (size_t)p * GPUSVM__ST_COUNT;
        if (st[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) continue;
        ++running;
        if (!gpusvm__finite_d(st[GPUSVM__ST_GAP]) || (st[GPUSVM__ST_OUTER] >= 1000 && st[GPUSVM__ST_ITER] == 0))
            return gpusvm__fail(ctx, GPUSVM_ERR_NOT_FINITE,
                                "Crammer-Singer: gap %g and no step after %.0f rounds: the kernel's values overflow "
                                "(its parameters are far outside the data's scale)",
                                st[GPUSVM__ST_GAP], st[GPUSVM__ST_OUTER]);
        stalled += st[GPUSVM__ST_OUTER] - st[GPUSVM__ST_ITER] >= 1000;
    }
    *stop = running > 0 && stalled == running;
    if (*stop)
        gpusvm__log(ctx, GPUSVM_LOG_WARN, "Crammer-Singer: no step moves any more (eps %g is below what the arithmetic "
                    "resolves); stopped as at max_iter", eps);
    return GPUSVM_OK;
}

/* Rounds until every problem's status says done (the gap below eps, or max_iter), or a cancel;
   the status is read every few rounds (every round where that costs nothing), then the duals.
   With ctx->profile every step is waited for (a status read) and timed. The progress callback
   sees the first problem's. */
static gpusvm_result gpusvm__cs_loop(gpusvm_context *ctx, const gpusvm_params *prm, gpusvm__cs *s)
{
    gpusvm__backend *be = ctx->backend;
    gpusvm_result res = GPUSVM_OK;
    int first = 1, every = be->status_cheap ? 1 : 4, k, step, stop = 0;
    double t0 = gpusvm__now(), t1;
    for (;;) {
        for (k = 0; k < every; ++k, first = 0)
            for (step = 0; step < 4 && res == GPUSVM_OK; ++step)
                if ((res = be->cs->step(be, step, first, prm->eps, prm->max_iter)) == GPUSVM_OK && ctx->profile &&
                    (res = be->cs->read(be, s->st, NULL)) == GPUSVM_OK) {
                    t1 = gpusvm__now();
                    s->spent[step] += t1 - t0;
                    t0 = t1;
                }
        if (res != GPUSVM_OK || (res = be->cs->read(be, s->st, NULL)) != GPUSVM_OK) return res;
        if (prm->progress) { /* the gap of the latest check: the one that ended training, at the last call */
            gpusvm_progress pr;
            pr.iterations = (long long)s->st[GPUSVM__ST_ITER];
            pr.outer_iterations = (long long)s->st[GPUSVM__ST_OUTER];
            pr.gap = s->st[GPUSVM__ST_GAP];
            pr.eps = prm->eps;
            if (prm->progress(prm->progress_user_data, &pr))
                return gpusvm__fail(ctx, GPUSVM_ERR_CANCELLED, "training cancelled by the progress callback");
        }
        if (!gpusvm__cs_running(s)) break;
        if ((res = gpusvm__cs_stalled(ctx, s, prm->eps, &stop)) != GPUSVM_OK) return res;
        if (stop) break;
    }
    if (ctx->profile)
        gpusvm__log(ctx, GPUSVM_LOG_INFO,
                    "Crammer-Singer steps (each waited for): responses %.4f s, selection %.4f s, kernel rows %.4f s, "
                    "sweeps %.4f s",
                    s->spent[0], s->spent[1], s->spent[2], s->spent[3]);
    return be->cs->read(be, s->st, s->alpha);
}

/* Problem p's model: points with any nonzero coefficient, grouped by class; sv_coef has nr_class
   rows. */
static gpusvm_result gpusvm__cs_model(gpusvm_context *ctx, const gpusvm__cs *s, int p, gpusvm_model **out)
{
    const size_t m = (size_t)s->m[p], n = s->n[p], v0 = s->var0[p];
    const double *alpha = s->alpha + s->a0[p];
    gpusvm_model *mo = NULL;
    gpusvm_result res;
    size_t i, c0, nsv = 0, sv_nnz = 0, k = 0, at = 0;
    int r;
    for (i = 0; i < n; ++i)
        for (c0 = 0; c0 < m; ++c0)
            if (alpha[i * m + c0] != 0.0) {
                const size_t row = (size_t)s->rows[v0 + i];
                ++nsv;
                sv_nnz += s->xs->row_ptr[row + 1] - s->xs->row_ptr[row];
                break;
            }
    if ((res = gpusvm__model_alloc(ctx, s->m[p], nsv, sv_nnz, &mo)) != GPUSVM_OK) return res;
    gpusvm__free(&ctx->alloc, mo->sv_coef);
    mo->sv_coef = (double *)gpusvm__calloc(&ctx->alloc, m, (nsv ? nsv : 1) * sizeof(double));
    if (!mo->sv_coef) {
        gpusvm_model_free(mo);
        return gpusvm__oom(ctx, "the model");
    }
    for (r = 0; r < s->m[p]; ++r) {
        mo->label[r] = s->label[p][r];
        for (i = 0; i < n; ++i) {
            int nz = 0;
            if (s->cls[v0 + i] != r) continue;
            for (c0 = 0; c0 < m; ++c0) nz |= alpha[i * m + c0] != 0.0;
            if (!nz) continue;
            for (c0 = 0; c0 < m; ++c0) mo->sv_coef[c0 * nsv + k] = alpha[i * m + c0];
            gpusvm__model_push_sv(mo, s->xs, (size_t)s->rows[v0 + i], &k, &at);
            mo->n_sv[r]++;
        }
    }
    *out = mo;
    return GPUSVM_OK;
}

/* Problem p's training information and model. */
static gpusvm_result gpusvm__cs_finish(gpusvm_context *ctx, const gpusvm_params *prm, const gpusvm__cs *s, int p,
                                       double t_start, gpusvm_model **out)
{
    const double *st = s->st + (size_t)p * GPUSVM__ST_COUNT;
    gpusvm_train_info info;
    gpusvm_result res;
    memset(&info, 0, sizeof info);
    info.working_set_size = s->q;
    info.iterations = (long long)st[GPUSVM__ST_ITER];
    info.outer_iterations = (long long)st[GPUSVM__ST_OUTER];
    info.gap = st[GPUSVM__ST_GAP];
    info.converged = st[GPUSVM__ST_DONE] == GPUSVM__DONE_CONVERGED;
    info.obj = st[GPUSVM__ST_CS_D];
    info.device_bytes = s->device_bytes; /* the rows (the cache, or the working sets') and the rest */
    info.device_data_bytes = s->device_bytes ? s->device_bytes - s->row_bytes : 0;
    if (!info.converged)
        gpusvm__log(ctx, GPUSVM_LOG_WARN, "reaching max number of iterations (%lld) at relative duality gap %g > eps %g",
                    info.iterations, info.gap, prm->eps);
    if ((res = gpusvm__cs_model(ctx, s, p, out)) != GPUSVM_OK) return res;
    info.n_sv = (*out)->total_sv;
    gpusvm__model_finish(*out, prm, &info, t_start);
    return GPUSVM_OK;
}

/* Problems on rows sub[p] of x (sub NULL: one on every row), trained together; out[p] their
   models. */
static gpusvm_result gpusvm__train_cs_many(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                           const gpusvm_params *prm, int nsub, const size_t *const *sub,
                                           const size_t *sub_n, gpusvm_model **out, double t_start)
{
    gpusvm__backend *be = ctx->backend;
    gpusvm__cs s;
    gpusvm_result res;
    int p;
    memset(&s, 0, sizeof s);
    if ((res = gpusvm__cs_setup(ctx, xin, y, prm, nsub, sub, sub_n, &s)) == GPUSVM_OK &&
        (res = gpusvm__cs_begin(ctx, prm, &s)) == GPUSVM_OK)
        res = gpusvm__cs_loop(ctx, prm, &s);
    be->train->end(be);
    for (p = 0; p < s.nprob && res == GPUSVM_OK; ++p) res = gpusvm__cs_finish(ctx, prm, &s, p, t_start, &out[p]);
    if (res != GPUSVM_OK)
        for (p = 0; p < s.nprob; ++p) {
            gpusvm_model_free(out[p]);
            out[p] = NULL;
        }
    gpusvm__cs_free(ctx, &s);
    return res;
}

static gpusvm_result gpusvm__train_cs(gpusvm_context *ctx, const gpusvm__csr *xin, const double *y,
                                      const gpusvm_params *prm, gpusvm_model **out, double t_start)
{
    return gpusvm__train_cs_many(ctx, xin, y, prm, 1, NULL, NULL, out, t_start);
}

static gpusvm_result gpusvm__train_any(gpusvm_context *ctx, const gpusvm__csr *x, const double *y,
                                       const gpusvm_params *p, gpusvm_model **out, double t_start)
{
    if (p->svm_type == GPUSVM_CRAMMER_SINGER) return gpusvm__train_cs(ctx, x, y, p, out, t_start);
    if (p->svm_type == GPUSVM_C_SVC || p->svm_type == GPUSVM_NU_SVC) return gpusvm__train_csvc(ctx, x, y, p, out, t_start);
    return gpusvm__train_single(ctx, x, y, p, out, t_start);
}

/* LIBSVM's fold layout into perm (l rows) and fold_start (nr_fold + 1): classification folds
   take, from every class, its share of rows in the class's shuffled order; other problems cut
   one shuffled order into nr_fold pieces. */
static gpusvm_result gpusvm__cv_layout(gpusvm_context *ctx, const double *y, size_t l, const gpusvm_params *p,
                                       int nr_fold, size_t *perm, size_t *fold_start)
{
    const gpusvm_allocator *a = &ctx->alloc;
    uint64_t rng = 0x9E3779B97F4A7C15ULL; /* fixed seed: the same folds every run */
    size_t *start, *pos, *fc, *count = NULL, i, k;
    int *label = NULL, f, c, nr_class = 0;
    gpusvm_result r;
    if (p->svm_type != GPUSVM_C_SVC && p->svm_type != GPUSVM_NU_SVC && p->svm_type != GPUSVM_CRAMMER_SINGER) {
        for (i = 0; i < l; ++i) perm[i] = i;
        for (i = 0; i < l; ++i) {
            const size_t j = i + GPUSVM__RAND(rng, l - i), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (f = 0; f <= nr_fold; ++f) fold_start[f] = (size_t)f * l / (size_t)nr_fold;
        return GPUSVM_OK;
    }
    if ((r = gpusvm__group(ctx, y, l, &label, &count, &nr_class)) != GPUSVM_OK) return r;
    start = (size_t *)gpusvm__alloc(a, (size_t)nr_class + 1, sizeof(size_t));
    pos = (size_t *)gpusvm__alloc(a, (size_t)nr_class, sizeof(size_t));
    fc = (size_t *)gpusvm__alloc(a, l, sizeof(size_t));
    if (!start || !pos || !fc) {
        r = gpusvm__oom(ctx, "cross-validation");
    } else {
        start[0] = 0;
        for (c = 0; c < nr_class; ++c) start[c + 1] = start[c] + count[c];
        for (c = 0; c < nr_class; ++c) pos[c] = start[c];
        for (i = 0; i < l; ++i) { /* rows grouped by class */
            for (c = 0; label[c] != (int)y[i]; ++c) {
            }
            fc[pos[c]++] = i;
        }
        for (c = 0; c < nr_class; ++c) /* shuffle within each class */
            for (i = 0; i < count[c]; ++i) {
                const size_t j = i + GPUSVM__RAND(rng, count[c] - i), t = fc[start[c] + i];
                fc[start[c] + i] = fc[start[c] + j];
                fc[start[c] + j] = t;
            }
        fold_start[0] = 0;
        for (f = 0, k = 0; f < nr_fold; ++f) { /* fold f: each class's f-th share */
            for (c = 0; c < nr_class; ++c) {
                const size_t b = (size_t)f * count[c] / (size_t)nr_fold, e = (size_t)(f + 1) * count[c] / (size_t)nr_fold;
                for (i = b; i < e; ++i) perm[k++] = fc[start[c] + i];
            }
            fold_start[f + 1] = k;
        }
    }
    gpusvm__free(a, start);
    gpusvm__free(a, pos);
    gpusvm__free(a, fc);
    gpusvm__free(a, label);
    gpusvm__free(a, count);
    return r;
}

/* Cross-validation at npt grid points (pts NULL: p's one): target[c * l + i] is row i's prediction
   at point c by the model trained without i's fold. C-SVC's points train as one batch. */
static gpusvm_result gpusvm__cross_validation_at(gpusvm_context *ctx, const gpusvm__csr *x, const double *y,
                                                 const gpusvm_params *p, int nr_fold, int npt,
                                                 const gpusvm__point *pts, double *target)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t l = x->rows;
    size_t *perm = (size_t *)gpusvm__alloc(a, l, sizeof(size_t));
    size_t *fold_start = (size_t *)gpusvm__alloc(a, (size_t)nr_fold + 1, sizeof(size_t));
    size_t *train_idx = NULL, **tr = NULL, *ntr = NULL, *nte = NULL;
    const size_t **te = NULL;
    double *pred = (double *)gpusvm__alloc(a, l * (size_t)npt, sizeof(double));
    size_t i, k;
    gpusvm_result r = GPUSVM_OK;
    int f, c;
    if (!perm || !fold_start || !pred) {
        r = gpusvm__oom(ctx, "cross-validation");
        goto done;
    }
    if ((r = gpusvm__cv_layout(ctx, y, l, p, nr_fold, perm, fold_start)) != GPUSVM_OK) goto done;
    /* every fold that has rows to predict, trained together where the type allows */
    tr = (size_t **)gpusvm__alloc(a, (size_t)nr_fold, sizeof(size_t *));
    te = (const size_t **)gpusvm__alloc(a, (size_t)nr_fold, sizeof(size_t *));
    ntr = (size_t *)gpusvm__alloc(a, (size_t)nr_fold, sizeof(size_t));
    nte = (size_t *)gpusvm__alloc(a, (size_t)nr_fold, sizeof(size_t));
    train_idx = (size_t *)gpusvm__alloc(a, (size_t)nr_fold * l, sizeof(size_t));
    if (!tr || !te || !ntr || !nte || !train_idx) {
        r = gpusvm__oom(ctx, "cross-validation");
        goto done;
    }
    for (f = 0, k = 0; f < nr_fold; ++f) {
        const size_t b = fold_start[f], e = fold_start[f + 1];
        if (b == e) continue;
        tr[k] = train_idx + k * l;
        ntr[k] = 0;
        for (i = 0; i < l; ++i)
            if (i < b || i >= e) tr[k][ntr[k]++] = perm[i];
        te[k] = perm + b;
        nte[k] = e - b;
        ++k;
    }
    /* pred follows perm: the non-empty folds are consecutive runs of it */
    if (pts && p->svm_type == GPUSVM_C_SVC) {
        r = gpusvm__folds(ctx, x, y, p, (int)k, tr, ntr, te, nte, npt, pts, pred, NULL, NULL);
    } else {
        for (c = 0; c < npt && r == GPUSVM_OK; ++c) {
            const gpusvm_params pc = gpusvm__at_point(p, pts, (size_t)c);
            r = gpusvm__folds(ctx, x, y, &pc, (int)k, tr, ntr, te, nte, 1, NULL, pred + (size_t)c * l, NULL, NULL);
        }
    }
    if (r != GPUSVM_OK) goto done;
    for (c = 0; c < npt; ++c)
        for (i = 0; i < l; ++i) target[(size_t)c * l + perm[i]] = pred[(size_t)c * l + i];
done:
    gpusvm__free(a, perm);
    gpusvm__free(a, fold_start);
    gpusvm__free(a, train_idx);
    gpusvm__free(a, pred);
    gpusvm__free(a, tr);
    gpusvm__free(a, te);
    gpusvm__free(a, ntr);
    gpusvm__free(a, nte);
    return r;
}

static gpusvm_result gpusvm__cross_validation(gpusvm_context *ctx, const gpusvm__csr *x, const double *y,
                                              const gpusvm_params *p, int nr_fold, double *target)
{
    return gpusvm__cross_validation_at(ctx, x, y, p, nr_fold, 1, NULL, target);
}

/* >>predict ---------------------------------------------------------------- */
/* Prediction, LIBSVM model files (written with "C" numbers through a temporary file and a
   rename; read with file:line errors), and LIBSVM data files. */

static const char *const gpusvm__svm_type_names[] = {"c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr",
                                                     "crammer_singer"};
static const char *const gpusvm__kernel_names[] = {"linear", "polynomial", "rbf", "sigmoid", "precomputed"};

/* Batches of at most this many multiply-adds (test points times the support vectors' entries)
   are computed on the host: a device round trip (buffers, uploads, launches, a read) costs more. */
#define GPUSVM__HOST_WORK 1048576.0

/* One coefficient vector of m->total_sv per decision function (coef: zeroed, npairs of them):
   one-vs-one pair (i,j) takes row j-1 on class i's support vectors and row i on class j's
   (LIBSVM's layout); Crammer-Singer one per class; one-class and SVR row 0. */
static void gpusvm__dec_coef(const gpusvm_model *m, double *coef)
{
    const int k = m->nr_class;
    const size_t ns = m->total_sv;
    size_t from_i = 0, p = 0, s;
    int ci, cj;
    if (m->svm_type == GPUSVM_CRAMMER_SINGER) {
        memcpy(coef, m->sv_coef, (size_t)k * ns * sizeof(double));
    } else if (m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC) {
        for (ci = 0; ci < k; from_i += (size_t)m->n_sv[ci], ++ci) {
            size_t from_j = from_i + (size_t)m->n_sv[ci];
            for (cj = ci + 1; cj < k; from_j += (size_t)m->n_sv[cj], ++cj, ++p) {
                for (s = from_i; s < from_i + (size_t)m->n_sv[ci]; ++s) coef[p * ns + s] = m->sv_coef[(size_t)(cj - 1) * ns + s];
                for (s = from_j; s < from_j + (size_t)m->n_sv[cj]; ++s) coef[p * ns + s] = m->sv_coef[(size_t)ci * ns + s];
            }
        }
    } else {
        memcpy(coef, m->sv_coef, ns * sizeof(double));
    }
}

/* The prediction from one point's decision values d[p * stride] (rho already taken off): the class
   with the largest response (Crammer-Singer), the most votes (one-vs-one; ties to the class that
   comes first, as LIBSVM), the sign (one-class) or the value (SVR). votes: nr_class ints. */
static double gpusvm__dec_label(const gpusvm_model *m, const double *d, size_t stride, int *votes)
{
    const int k = m->nr_class;
    int ci, cj, p;
    if (m->svm_type == GPUSVM_CRAMMER_SINGER) {
        for (ci = 1, cj = 0; ci < k; ++ci)
            if (d[(size_t)ci * stride] > d[(size_t)cj * stride]) cj = ci;
        return m->label[cj];
    }
    if (m->svm_type == GPUSVM_ONE_CLASS) return d[0] > 0 ? 1.0 : -1.0;
    if (m->svm_type != GPUSVM_C_SVC && m->svm_type != GPUSVM_NU_SVC) return d[0];
    for (ci = 0; ci < k; ++ci) votes[ci] = 0;
    for (ci = 0, p = 0; ci < k; ++ci)
        for (cj = ci + 1; cj < k; ++cj, ++p) ++votes[d[(size_t)p * stride] > 0 ? ci : cj];
    for (ci = 1, cj = 0; ci < k; ++ci)
        if (votes[ci] > votes[cj]) cj = ci;
    return m->label[cj];
}

static gpusvm_result gpusvm__predict(gpusvm_context *ctx, const gpusvm_model *m, const gpusvm__csr *x, double *labels,
                                     double *dec)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const int cs = m->svm_type == GPUSVM_CRAMMER_SINGER;
    const int classify = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC || cs;
    const int k = m->nr_class;
    const size_t nx = x->rows, ns = m->total_sv;
    /* decision functions: one per pair (one-vs-one), one per class (Crammer-Singer), else one */
    size_t npairs = cs ? (size_t)k : classify && k > 1 ? (size_t)k * (size_t)(k - 1) / 2 : 1, i, p, s, bytes;
    gpusvm__csr sv;
    double *coef = NULL, *d = NULL;
    int *votes = NULL, ci;
    gpusvm_result r;
    if (m->kernel_type < GPUSVM_KERNEL_LINEAR || m->kernel_type > GPUSVM_KERNEL_PRECOMPUTED)
        return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "model: kernel_type %d is unknown", (int)m->kernel_type);
    if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) /* x[i][k-1] = K(x_i, support vector with serial k) */
        for (s = 0; s < ns; ++s) {
            const float k = m->sv_row_ptr[s + 1] > m->sv_row_ptr[s] ? m->sv_values[m->sv_row_ptr[s]] : 0.0f;
            if (!(k >= 1.0f) || (double)k > (double)x->cols)
                return gpusvm__fail(ctx, GPUSVM_ERR_SERIAL,
                                    "precomputed kernel: a support vector's serial number is %g but x has %lu "
                                    "columns (x[i][k-1] must hold K(x_i, training point k))",
                                    (double)k, (unsigned long)x->cols);
        }
    if (classify && k == 1) {
        for (i = 0; i < nx; ++i) {
            if (labels) labels[i] = m->label[0];
        }
        return GPUSVM_OK;
    }
    if (classify) { /* the per-class support-vector counts must add up */
        size_t sum = 0;
        for (ci = 0; ci < k; ++ci) sum += m->n_sv[ci] > 0 ? (size_t)m->n_sv[ci] : 0;
        if (sum != ns)
            return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "model: n_sv adds up to %lu, total_sv is %lu",
                                (unsigned long)sum, (unsigned long)ns);
    }
    if (!gpusvm__mul(npairs, ns, &bytes) || !gpusvm__mul(npairs, nx, &bytes)) return gpusvm__oom(ctx, "decision values");
    coef = (double *)gpusvm__calloc(a, npairs * (ns ? ns : 1), sizeof(double));
    d = (double *)gpusvm__alloc(a, npairs * (nx ? nx : 1), sizeof(double));
    votes = (int *)gpusvm__alloc(a, (size_t)k, sizeof(int));
    if (!coef || !d || !votes) { r = gpusvm__oom(ctx, "decision values"); goto done; }
    gpusvm__dec_coef(m, coef);
    sv.rows = ns;
    sv.cols = m->n_features;
    sv.row_ptr = m->sv_row_ptr;
    sv.col = m->sv_col_idx;
    sv.val = m->sv_values;
    if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) { /* the kernel values are given: sums on the host */
        for (p = 0; p < npairs; ++p)
            for (i = 0; i < nx; ++i) {
                double sum = 0.0;
                for (s = 0; s < ns; ++s)
                    if (coef[p * ns + s] != 0.0)
                        sum += coef[p * ns + s] *
                               (double)gpusvm__csr_at(x, i, (size_t)m->sv_values[m->sv_row_ptr[s]] - 1);
                d[p * nx + i] = sum;
            }
        r = GPUSVM_OK;
    } else if ((double)nx * (double)(sv.row_ptr[ns] + 8 * ns) <= GPUSVM__HOST_WORK) {
        /* a small batch (a game's point per frame): the host answers before a device could be reached */
        r = gpusvm__host_decision(ctx, &sv, m->sv_norms, coef, (int)npairs, x, gpusvm__ktype(m->kernel_type),
                                  (float)m->gamma, (float)m->coef0, m->degree, d);
        if (r != GPUSVM_OK) goto done;
    } else {
        r = ctx->backend->decision(ctx->backend, &sv, coef, (int)npairs, x, gpusvm__ktype(m->kernel_type), (float)m->gamma,
                                   (float)m->coef0, m->degree, d);
        if (r != GPUSVM_OK) goto done;
    }
    for (i = 0; i < nx; ++i) {
        for (p = 0; p < npairs; ++p) {
            const double v = d[p * nx + i] - (cs ? 0.0 : m->rho[p]);
            d[p * nx + i] = v;
            if (dec) dec[i * npairs + p] = v;
        }
        if (labels) labels[i] = gpusvm__dec_label(m, d + i, nx, votes);
    }
done:
    gpusvm__free(a, coef);
    gpusvm__free(a, d);
    gpusvm__free(a, votes);
    return r;
}

/* P(class i | pair (i,j)) from a decision value, as LIBSVM's sigmoid_predict. */
static double gpusvm__sigmoid_predict(double dec, double A, double B)
{
    const double fApB = dec * A + B;
    return fApB >= 0 ? exp(-fApB) / (1.0 + exp(-fApB)) : 1.0 / (1 + exp(fApB));
}

/* Class probabilities p[0..k) from pairwise ones r (k x k, r[i][j] + r[j][i] = 1): Wu, Lin
   and Weng's second method, as LIBSVM's multiclass_probability. Q is k x k scratch, Qp k. */
static void gpusvm__couple(int k, const double *r, double *p, double *Q, double *Qp)
{
    int t, j, iter;
    const int max_iter = k > 100 ? k : 100;
    const double eps = 0.005 / k;
    double pQp;
    for (t = 0; t < k; ++t) {
        p[t] = 1.0 / k;
        Q[t * k + t] = 0;
        for (j = 0; j < t; ++j) {
            Q[t * k + t] += r[j * k + t] * r[j * k + t];
            Q[t * k + j] = Q[j * k + t];
        }
        for (j = t + 1; j < k; ++j) {
            Q[t * k + t] += r[j * k + t] * r[j * k + t];
            Q[t * k + j] = -r[j * k + t] * r[t * k + j];
        }
    }
    for (iter = 0; iter < max_iter; ++iter) {
        double max_error = 0;
        pQp = 0;
        for (t = 0; t < k; ++t) {
            Qp[t] = 0;
            for (j = 0; j < k; ++j) Qp[t] += Q[t * k + j] * p[j];
            pQp += p[t] * Qp[t];
        }
        for (t = 0; t < k; ++t) {
            const double e = fabs(Qp[t] - pQp);
            if (e > max_error) max_error = e;
        }
        if (max_error < eps) break;
        for (t = 0; t < k; ++t) {
            const double diff = (-Qp[t] + pQp) / Q[t * k + t];
            p[t] += diff;
            pQp = (pQp + diff * (diff * Q[t * k + t] + 2 * Qp[t])) / (1 + diff) / (1 + diff);
            for (j = 0; j < k; ++j) {
                Qp[j] = (Qp[j] + diff * Q[t * k + j]) / (1 + diff);
                p[j] /= (1 + diff);
            }
        }
    }
}

static gpusvm_result gpusvm__predict_probability(gpusvm_context *ctx, const gpusvm_model *m, const gpusvm__csr *x,
                                                 double *labels, double *prob)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t nx = x->rows;
    const int classify = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC, k = m->nr_class;
    const size_t npairs = (size_t)k * (size_t)(k > 1 ? k - 1 : 0) / 2;
    const double min_prob = 1e-7;
    double *dec = NULL, *r2 = NULL, *Q = NULL, *Qp = NULL, *p = NULL;
    gpusvm_result r;
    size_t i, pp;
    int ci, cj;
    if (!classify && m->svm_type != GPUSVM_ONE_CLASS)
        return gpusvm__fail(ctx, GPUSVM_ERR_NO_PROBABILITY,
                            "a regression model has no per-row probabilities (its Laplace scale is model->probA[0])");
    if (classify ? (!m->probA || !m->probB) : !m->prob_density_marks)
        return gpusvm__fail(ctx, GPUSVM_ERR_NO_PROBABILITY,
                            "the model has no probability information (train it with probability = 1, -b 1)");
    if (classify && k == 1) {
        for (i = 0; i < nx; ++i) {
            if (labels) labels[i] = m->label[0];
            if (prob) prob[i] = 1.0;
        }
        return GPUSVM_OK;
    }
    dec = (double *)gpusvm__alloc(a, nx ? nx : 1, (npairs ? npairs : 1) * sizeof(double));
    r2 = (double *)gpusvm__alloc(a, (size_t)k * (size_t)k, sizeof(double));
    Q = (double *)gpusvm__alloc(a, (size_t)k * (size_t)k, sizeof(double));
    Qp = (double *)gpusvm__alloc(a, (size_t)k, sizeof(double));
    p = (double *)gpusvm__alloc(a, (size_t)k, sizeof(double));
    if (!dec || !r2 || !Q || !Qp || !p) { r = gpusvm__oom(ctx, "probability estimates"); goto done; }
    if ((r = gpusvm__predict(ctx, m, x, NULL, dec)) != GPUSVM_OK) goto done;
    for (i = 0; i < nx; ++i) {
        int best = 0;
        if (!classify) { /* one-class: where the decision value falls among the marks */
            const double v = dec[i], *mk = m->prob_density_marks;
            double pe = 0.0;
            if (v < mk[0]) pe = 0.001;
            else if (v > mk[GPUSVM__NR_MARKS - 1]) pe = 0.999;
            else
                for (ci = 1; ci < GPUSVM__NR_MARKS; ++ci)
                    if (v < mk[ci]) {
                        pe = (double)ci / GPUSVM__NR_MARKS;
                        break;
                    }
            p[0] = pe;
            p[1] = 1 - pe;
            if (labels) labels[i] = v > 0 ? 1.0 : -1.0;
        } else {
            for (ci = 0, pp = 0; ci < k; ++ci)
                for (cj = ci + 1; cj < k; ++cj, ++pp) {
                    double q = gpusvm__sigmoid_predict(dec[i * npairs + pp], m->probA[pp], m->probB[pp]);
                    q = q < min_prob ? min_prob : q > 1 - min_prob ? 1 - min_prob : q;
                    r2[ci * k + cj] = q;
                    r2[cj * k + ci] = 1 - q;
                }
            if (k == 2) {
                p[0] = r2[1];
                p[1] = r2[k];
            } else {
                gpusvm__couple(k, r2, p, Q, Qp);
            }
            for (ci = 1; ci < k; ++ci)
                if (p[ci] > p[best]) best = ci;
            if (labels) labels[i] = m->label[best];
        }
        if (prob) memcpy(prob + i * (size_t)k, p, (size_t)k * sizeof(double));
    }
done:
    gpusvm__free(a, dec);
    gpusvm__free(a, r2);
    gpusvm__free(a, Q);
    gpusvm__free(a, Qp);
    gpusvm__free(a, p);
    return r;
}

/* A prepared model (gpusvm_predictor_*): its decision coefficients and the scratch one point
   needs, allocated once. */
struct gpusvm_predictor {
    const gpusvm_model *m;
    gpusvm_allocator alloc;
    gpusvm__csr sv;
    int nv;             /* decision functions */
    gpusvm__coefs coef; /* their nonzero coefficients */
    double *d;          /* nv decision values */
    float *krow, *norms, *w; /* kernel values; the support vectors' norms; a zero-padded copy of x */
    int *votes;
};

GPUSVM_API gpusvm_result gpusvm_predictor_create(gpusvm_context *ctx, const gpusvm_model *m, gpusvm_predictor **out)
{
    const gpusvm_allocator *a;
    gpusvm_predictor *p;
    size_t ns, nv, width, ncoef;
    double *coef;
    gpusvm_result r;
    int ok;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK || (r = gpusvm__need_model(ctx, m)) != GPUSVM_OK) return r;
    *out = NULL;
    a = &ctx->alloc;
    ns = m->total_sv;
    nv = gpusvm__model_ndec(m);
    width = m->n_features ? m->n_features : 1;
    if (!(p = (gpusvm_predictor *)gpusvm__calloc(a, 1, sizeof *p))) return gpusvm__oom(ctx, "the predictor");
    p->m = m;
    p->alloc = *a;
    p->nv = (int)nv;
    p->sv.rows = ns;
    p->sv.cols = m->n_features;
    p->sv.row_ptr = m->sv_row_ptr;
    p->sv.col = m->sv_col_idx;
    p->sv.val = m->sv_values;
    coef = gpusvm__mul(nv, ns, &ncoef) && nv <= INT_MAX ? (double *)gpusvm__calloc(a, ncoef, sizeof(double)) : NULL;
    if (coef && ns) gpusvm__dec_coef(m, coef);
    ok = coef && gpusvm__coefs_make(a, coef, (int)nv, ns, &p->coef);
    gpusvm__free(a, coef);
    p->d = (double *)gpusvm__alloc(a, nv, sizeof(double));
    p->krow = (float *)gpusvm__alloc(a, ns, sizeof(float));
    p->norms = (float *)gpusvm__alloc(a, ns, sizeof(float));
    p->w = (float *)gpusvm__calloc(a, width, sizeof(float));
    p->votes = (int *)gpusvm__alloc(a, (size_t)m->nr_class, sizeof(int));
    if (!ok || !p->d || !p->krow || !p->norms || !p->w || !p->votes) {
        gpusvm_predictor_free(p);
        return gpusvm__oom(ctx, "the predictor");
    }
    if (m->sv_norms) memcpy(p->norms, m->sv_norms, ns * sizeof(float));
    else gpusvm__norms(&p->sv, 0, ns, p->norms);
    *out = p;
    return GPUSVM_OK;
}

GPUSVM_API gpusvm_result gpusvm_predictor_predict(gpusvm_predictor *p, const float *x, size_t n, double *label,
                                                  double *decision_values)
{
    const gpusvm_model *m;
    size_t ns, nf, i, j;
    int cs, ktype, t;
    const float *w = x;
    float nx = 0.0f;
    double lab;
    if (!p || gpusvm__check_point(x, n) != GPUSVM_OK) return GPUSVM_ERROR_INVALID_ARGUMENT;
    m = p->m;
    ns = m->total_sv;
    nf = m->n_features;
    cs = m->svm_type == GPUSVM_CRAMMER_SINGER;
    ktype = gpusvm__ktype(m->kernel_type);
    if (p->nv == 0) { /* one class: its label */
        if (label) *label = m->label[0];
        return GPUSVM_OK;
    }
    if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) { /* the kernel values are given */
        for (j = 0; j < ns; ++j) {
            const size_t k = m->sv_row_ptr[j + 1] > m->sv_row_ptr[j] ? (size_t)m->sv_values[m->sv_row_ptr[j]] : 0;
            p->krow[j] = k >= 1 && k <= n ? x[k - 1] : 0.0f;
        }
    } else {
        if (n < nf) { /* the features x lacks are 0 */
            if (n) memcpy(p->w, x, n * sizeof(float)); /* x may be NULL when n is 0 */
            memset(p->w + n, 0, (nf - n) * sizeof(float));
            w = p->w;
        }
        for (i = 0; i < n; ++i) nx += x[i] * x[i]; /* as gpusvm__norms over x's nonzeros: zeros add nothing */
        gpusvm__dots_dense(&p->sv, NULL, 0, ns, w, p->krow);
        for (j = 0; j < ns; ++j)
            p->krow[j] = gpusvm__kfun(ktype, p->krow[j], p->norms[j], nx, (float)m->gamma, (float)m->coef0, m->degree);
    }
    gpusvm__krow_sums(&p->coef, p->nv, p->krow, p->d, 1);
    for (t = 0; t < p->nv; ++t) {
        p->d[t] -= cs ? 0.0 : m->rho[t];
        if (decision_values) decision_values[t] = p->d[t];
    }
    lab = gpusvm__dec_label(m, p->d, 1, p->votes);
    if (label) *label = lab;
    return GPUSVM_OK;
}

GPUSVM_API void gpusvm_predictor_free(gpusvm_predictor *p)
{
    gpusvm_allocator a;
    if (!p) return;
    a = p->alloc;
    gpusvm__coefs_free(&a, &p->coef);
    gpusvm__free(&a, p->d);
    gpusvm__free(&a, p->krow);
    gpusvm__free(&a, p->norms);
    gpusvm__free(&a, p->w);
    gpusvm__free(&a, p->votes);
    gpusvm__free(&a, p);
}

/* >>io --------------------------------------------------------------------- */
/* LIBSVM's model and data files: writing, reading, parsing. */

/* Text built in memory; out of memory once, it stays failed. */
typedef struct gpusvm__out {
    const gpusvm_allocator *a;
    gpusvm__vec v; /* chars, NUL-terminated */
    int failed;
} gpusvm__out;

/* The writers: a string; prefix and a number in %.*g (gpusvm__fmt_g: LIBSVM's forms); prefix and an
   integer; key and a list of numbers, one line. */
static void gpusvm__out_str(gpusvm__out *o, const char *s)
{
    const size_t n = strlen(s);
    if (o->failed) return;
    if (!gpusvm__vec_reserve(o->a, &o->v, o->v.len + n + 1)) {
        o->failed = 1;
        return;
    }
    memcpy((char *)o->v.data + o->v.len, s, n + 1);
    o->v.len += n;
}
static void gpusvm__out_num(gpusvm__out *o, const char *prefix, int digits, double v)
{
    char b[64];
    gpusvm__out_str(o, prefix);
    gpusvm__fmt_g(b, sizeof b, digits, v);
    gpusvm__out_str(o, b);
}
static void gpusvm__out_int(gpusvm__out *o, const char *prefix, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    gpusvm__out_str(o, prefix);
    gpusvm__out_str(o, b);
}
static void gpusvm__out_list(gpusvm__out *o, const char *key, const double *v, size_t n)
{
    size_t k;
    gpusvm__out_str(o, key);
    for (k = 0; k < n; ++k) gpusvm__out_num(o, " ", 17, v[k]);
    gpusvm__out_str(o, "\n");
}

/* The model's header, in LIBSVM's order and number formats. */
static void gpusvm__model_header(gpusvm__out *o, const gpusvm_model *m)
{
    const size_t npairs = (size_t)m->nr_class * (size_t)(m->nr_class - 1) / 2;
    const int cls = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC || m->svm_type == GPUSVM_CRAMMER_SINGER;
    const int kt = (int)m->kernel_type;
    int c;
    gpusvm__out_str(o, "svm_type ");
    gpusvm__out_str(o, gpusvm__svm_type_names[(int)m->svm_type - 1]);
    gpusvm__out_str(o, "\nkernel_type ");
    gpusvm__out_str(o, gpusvm__kernel_names[kt - 1]);
    gpusvm__out_str(o, "\n");
    if (m->kernel_type == GPUSVM_KERNEL_POLY) {
        gpusvm__out_int(o, "degree ", m->degree);
        gpusvm__out_str(o, "\n");
    }
    if (m->kernel_type == GPUSVM_KERNEL_POLY || m->kernel_type == GPUSVM_KERNEL_RBF ||
        m->kernel_type == GPUSVM_KERNEL_SIGMOID)
        gpusvm__out_list(o, "gamma", &m->gamma, 1);
    if (m->kernel_type == GPUSVM_KERNEL_POLY || m->kernel_type == GPUSVM_KERNEL_SIGMOID)
        gpusvm__out_list(o, "coef0", &m->coef0, 1);
    gpusvm__out_int(o, "nr_class ", m->nr_class);
    gpusvm__out_int(o, "\ntotal_sv ", (long long)m->total_sv);
    gpusvm__out_str(o, "\n");
    if (m->svm_type != GPUSVM_CRAMMER_SINGER) gpusvm__out_list(o, "rho", m->rho, npairs); /* Crammer-Singer has no bias */
    if (cls) {
        gpusvm__out_str(o, "label");
        for (c = 0; c < m->nr_class; ++c) gpusvm__out_int(o, " ", m->label[c]);
        gpusvm__out_str(o, "\n");
    }
    /* LIBSVM 3.3x's order: probA, probB, prob_density_marks, then nr_sv */
    if (m->probA) gpusvm__out_list(o, "probA", m->probA, npairs ? npairs : 1);
    if (m->probB) gpusvm__out_list(o, "probB", m->probB, npairs ? npairs : 1);
    if (m->prob_density_marks) gpusvm__out_list(o, "prob_density_marks", m->prob_density_marks, GPUSVM__NR_MARKS);
    if (cls) {
        gpusvm__out_str(o, "nr_sv");
        for (c = 0; c < m->nr_class; ++c) gpusvm__out_int(o, " ", m->n_sv[c]);
        gpusvm__out_str(o, "\n");
    }
}

/* The SV section: each support vector's coefficients, then its features (a precomputed
   kernel's: 0:serial, as LIBSVM writes it). */
static void gpusvm__model_svs(gpusvm__out *o, const gpusvm_model *m)
{
    const int ncoef = m->svm_type == GPUSVM_CRAMMER_SINGER ? m->nr_class : m->nr_class > 1 ? m->nr_class - 1 : 1;
    size_t i, k;
    int j;
    gpusvm__out_str(o, "SV\n");
    for (i = 0; i < m->total_sv && !o->failed; ++i) {
        for (j = 0; j < ncoef; ++j) {
            gpusvm__out_num(o, "", 17, m->sv_coef[(size_t)j * m->total_sv + i]);
            gpusvm__out_str(o, " ");
        }
        if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) {
            gpusvm__out_int(o, "0:", m->sv_row_ptr[i + 1] > m->sv_row_ptr[i] ? (long long)m->sv_values[m->sv_row_ptr[i]] : 0);
            gpusvm__out_str(o, " ");
        } else {
            for (k = m->sv_row_ptr[i]; k < m->sv_row_ptr[i + 1]; ++k) {
                gpusvm__out_int(o, "", (long long)m->sv_col_idx[k] + 1);
                gpusvm__out_num(o, ":", 8, m->sv_values[k]);
                gpusvm__out_str(o, " ");
            }
        }
        gpusvm__out_str(o, "\n");
    }
}

/* The model as LIBSVM's model text, in memory allocated with ctx's allocator. */
static gpusvm_result gpusvm__model_text(gpusvm_context *ctx, const gpusvm_model *m, char **bytes, size_t *size)
{
    const int kt = (int)m->kernel_type;
    gpusvm__out o;
    if ((int)m->svm_type < 1 || m->svm_type > GPUSVM_CRAMMER_SINGER || kt < 1 || kt > GPUSVM_KERNEL_PRECOMPUTED ||
        m->nr_class < 1)
        return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_INVALID, "the model's type fields are out of range");
    memset(&o, 0, sizeof o);
    o.a = &ctx->alloc;
    o.v.item = 1;
    gpusvm__model_header(&o, m);
    gpusvm__model_svs(&o, m);
    if (o.failed) {
        gpusvm__free(&ctx->alloc, o.v.data);
        return gpusvm__oom(ctx, "the model text");
    }
    *bytes = (char *)o.v.data;
    *size = o.v.len;
    return GPUSVM_OK;
}


/* Safe writes. A regular file (or a new one) is written to a temporary file in its own folder
   and renamed over it once every byte is out, so that a failure leaves what was there; a
   symlink is followed to its target (the target is replaced, the link stays); an existing
   file's permissions are kept. A device node, a FIFO or "-" (standard output) is written
   directly, and its errors reported. */
#ifndef GPUSVM__WINDOWS
/* path with its symlinks followed (at most 40) into out; 0 when that fails (errno set). */
static int gpusvm__follow_links(const char *path, char *out, size_t size)
{
    char cur[4096], link[4096];
    struct stat sb;
    int depth;
    ssize_t n;
    if (strlen(path) >= sizeof cur) return errno = ENAMETOOLONG, 0;
    strcpy(cur, path);
    for (depth = 0; depth < 40; ++depth) {
        const char *slash;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) {
            if (strlen(cur) >= size) return errno = ENAMETOOLONG, 0;
            strcpy(out, cur);
            return 1;
        }
        if ((n = readlink(cur, link, sizeof link - 1)) < 0) return 0;
        link[n] = 0;
        slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash) {
            strcpy(cur, link);
        } else { /* relative to the link's folder */
            const size_t dir = (size_t)(slash - cur) + 1;
            if (dir + (size_t)n >= sizeof cur) return errno = ENAMETOOLONG, 0;
            memcpy(cur + dir, link, (size_t)n + 1);
        }
    }
    errno = ELOOP;
    return 0;
}

/* Every byte to fd; 0 on failure (errno set). */
static int gpusvm__write_all(int fd, const void *bytes, size_t size)
{
    const char *p = (const char *)bytes;
    while (size > 0) {
        const ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        p += w;
        size -= (size_t)w;
    }
    return 1;
}

/* A regular or new file: through a temporary file beside it, renamed over it. */
static gpusvm_result gpusvm__write_replace(gpusvm_context *ctx, const char *shown, const char *path, int exists,
                                           mode_t mode, const void *bytes, size_t size)
{
    char tmp[4200];
    const char *slash = strrchr(path, '/');
    const int dir = slash ? (int)(slash - path) + 1 : 0;
    int fd = -1, k, ok, err;
    for (k = 0; k < 100 && fd < 0; ++k) {
        snprintf(tmp, sizeof tmp, "%.*s.%s.%ld.%d.tmp", dir, path, slash ? slash + 1 : path, (long)getpid(), k);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0)
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: cannot create a temporary file in its folder %.*s (%s); %s is unchanged",
                            shown, dir ? dir : 1, dir ? path : ".", strerror(errno), shown);
    ok = gpusvm__write_all(fd, bytes, size) && (!exists || chmod(tmp, mode & 07777) == 0);
    err = errno;
    ok = (close(fd) == 0) && ok;
    if (ok && rename(tmp, path) != 0) {
        err = errno;
        ok = 0;
    }
    if (!ok) {
        remove(tmp);
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: write failed (%s); it is unchanged", shown, strerror(err));
    }
    return GPUSVM_OK;
}

static gpusvm_result gpusvm__write_file(gpusvm_context *ctx, const char *path, const void *bytes, size_t size)
{
    char final[4096];
    struct stat sb;
    int fd, ok;
    if (strcmp(path, "-") == 0) {
        ok = fwrite(bytes, 1, size, stdout) == size && fflush(stdout) == 0;
        return ok ? GPUSVM_OK : gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "standard output: write failed (%s)", strerror(errno));
    }
    if (!gpusvm__follow_links(path, final, sizeof final))
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: cannot follow its links (%s)", path, strerror(errno));
    if (stat(final, &sb) != 0) return gpusvm__write_replace(ctx, path, final, 0, 0, bytes, size);
    if (S_ISREG(sb.st_mode)) return gpusvm__write_replace(ctx, path, final, 1, sb.st_mode, bytes, size);
    if (S_ISDIR(sb.st_mode)) return gpusvm__fail(ctx, GPUSVM_ERR_FILE_IS_FOLDER, "%s is a folder", path);
    /* a device node, a FIFO, a socket: written in place, as a shell's redirection would */
    if ((fd = open(final, O_WRONLY)) < 0)
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: cannot open for writing (%s)", path, strerror(errno));
    ok = gpusvm__write_all(fd, bytes, size);
    ok = (close(fd) == 0) && ok;
    return ok ? GPUSVM_OK : gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: write failed (%s)", path, strerror(errno));
}
#else
static gpusvm_result gpusvm__write_file(gpusvm_context *ctx, const char *path, const void *bytes, size_t size)
{
    char tmp[4200];
    const DWORD attr = GetFileAttributesA(path);
    FILE *f;
    int ok, direct;
    if (strcmp(path, "-") == 0) {
        ok = fwrite(bytes, 1, size, stdout) == size && fflush(stdout) == 0;
        return ok ? GPUSVM_OK : gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "standard output: write failed");
    }
    if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY))
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_IS_FOLDER, "%s is a folder", path);
    direct = attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DEVICE);
    snprintf(tmp, sizeof tmp, "%s.%lu.tmp", path, (unsigned long)GetCurrentProcessId());
    if (!(f = fopen(direct ? path : tmp, "wb")))
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: cannot create (%s); %s is unchanged", direct ? path : tmp,
                            strerror(errno), path);
    ok = fwrite(bytes, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (!direct) ok = ok && MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING);
    if (!ok) {
        if (!direct) remove(tmp);
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_WRITE, "%s: write failed; it is unchanged", path);
    }
    return GPUSVM_OK;
}
#endif

static gpusvm_result gpusvm__save(gpusvm_context *ctx, const gpusvm_model *m, const char *path)
{
    char *text = NULL;
    size_t size = 0;
    gpusvm_result r = gpusvm__model_text(ctx, m, &text, &size);
    if (r == GPUSVM_OK) r = gpusvm__write_file(ctx, path, text, size);
    gpusvm__free(&ctx->alloc, text);
    return r;
}

/* Reads [at, at + len) of the file into buf on thread t's own stream (the parallel file read). */
typedef struct gpusvm__read_job {
    const char *path;
    char *buf;
    size_t size, parts;
    int failed[GPUSVM__MAX_THREADS];
} gpusvm__read_job;

static void gpusvm__read_part_job(void *arg, int t)
{
    gpusvm__read_job *job = (gpusvm__read_job *)arg;
    const size_t at = job->size / job->parts * (size_t)t,
                 end = (size_t)t + 1 == job->parts ? job->size : job->size / job->parts * ((size_t)t + 1);
    FILE *f = fopen(job->path, "rb");
    job->failed[t] = !f || fseek(f, (long)at, SEEK_SET) != 0 || fread(job->buf + at, 1, end - at, f) != end - at;
    if (f) fclose(f);
}

/* Does path name a folder? (Reading one with stdio "works" on some systems, with a size of
   LONG_MAX.) */
static int gpusvm__is_folder(const char *path)
{
#ifdef GPUSVM__WINDOWS
    const DWORD at = GetFileAttributesA(path);
    return at != INVALID_FILE_ATTRIBUTES && (at & FILE_ATTRIBUTE_DIRECTORY);
#else
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
#endif
}

/* Whole file into memory, NUL-terminated: a regular file of known size in one piece (by several
   threads at once when it is large: each reads its own range on its own stream), anything else
   (a pipe) in growing pieces. */
static gpusvm_result gpusvm__slurp(gpusvm_context *ctx, const char *path, char **out, size_t *len)
{
    FILE *f;
    gpusvm__vec v;
    long size = -1;
    size_t r;
    memset(&v, 0, sizeof v);
    v.item = 1;
    if (gpusvm__is_folder(path)) return gpusvm__fail(ctx, GPUSVM_ERR_FILE_IS_FOLDER, "%s is a folder, not a file", path);
    if (!(f = fopen(path, "rb"))) return gpusvm__fail(ctx, GPUSVM_ERR_FILE_OPEN, "%s: cannot open (%s)", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) != 0) size = -1;
    if (size >= LONG_MAX / 2 || (unsigned long)size >= (size_t)-1 / 2) size = -1; /* not a size: read what comes */
    if (size >= 0) { /* exactly the file and its NUL: no power-of-two slack on a large file */
        if (!(v.data = gpusvm__alloc(&ctx->alloc, (size_t)size + 1, 1))) {
            fclose(f);
            return gpusvm__oom(ctx, path);
        }
        v.cap = (size_t)size + 1;
    }
    if (size >= ((long)8 << 20) && ctx->threads > 1) { /* large: every thread reads its range */
        gpusvm__read_job job;
        int t, n = ctx->threads, bad = 0;
        memset(&job, 0, sizeof job);
        job.path = path;
        job.buf = (char *)v.data;
        job.size = (size_t)size;
        job.parts = (size_t)n;
        gpusvm__parallel(n, gpusvm__read_part_job, &job);
        for (t = 0; t < n; ++t) bad |= job.failed[t];
        /* then on from the end, for what the file may have grown by (a failed part: all again) */
        v.len = bad || fseek(f, size, SEEK_SET) != 0 ? 0 : (size_t)size;
    }
    for (;;) {
        if (v.cap - v.len < 2 && !gpusvm__vec_reserve(&ctx->alloc, &v, v.len + 65536)) {
            fclose(f);
            gpusvm__free(&ctx->alloc, v.data);
            return gpusvm__oom(ctx, path);
        }
        if ((r = fread((char *)v.data + v.len, 1, v.cap - v.len - 1, f)) == 0) break;
        v.len += r;
    }
    if (ferror(f)) {
        fclose(f);
        gpusvm__free(&ctx->alloc, v.data);
        return gpusvm__fail(ctx, GPUSVM_ERR_FILE_READ, "%s: read error", path);
    }
    fclose(f);
    ((char *)v.data)[v.len] = 0;
    *out = (char *)v.data;
    *len = v.len;
    return GPUSVM_OK;
}

/* A line cursor: lines end at \n (a \r before it is dropped); tokens split on blanks. */
typedef struct gpusvm__lines {
    char *p, *end;
    size_t lineno;
    char *line, *line_end;
} gpusvm__lines;

static int gpusvm__next_line(gpusvm__lines *L)
{
    char *nl;
    if (L->p >= L->end) return 0;
    nl = (char *)memchr(L->p, '\n', (size_t)(L->end - L->p));
    L->line = L->p;
    L->line_end = nl ? nl : L->end;
    L->p = nl ? nl + 1 : L->end;
    if (L->line_end > L->line && L->line_end[-1] == '\r') L->line_end--;
    L->lineno++;
    return 1;
}

static int gpusvm__token(char **s, char *end, char **tok, size_t *len)
{
    char *p = *s;
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p >= end) {
        *s = p;
        return 0;
    }
    *tok = p;
    while (p < end && *p != ' ' && *p != '\t') ++p;
    *len = (size_t)(p - *tok);
    *s = p;
    return 1;
}

/* Quoted, shortened token text for messages. */
static const char *gpusvm__quote(char *buf, size_t size, const char *s, size_t len)
{
    size_t i, n = len < 40 ? len : 40;
    for (i = 0; i < n && i + 4 < size; ++i) buf[i] = (s[i] >= 32 && s[i] < 127) ? s[i] : '?';
    if (n < len && i + 4 < size) {
        buf[i++] = '.';
        buf[i++] = '.';
        buf[i++] = '.';
    }
    buf[i] = 0;
    return buf;
}

/* What a line's features give the reader besides its entries: how index 0 is taken (mode), and
   where it was met (has: its value in index0; refused: index 0 met where mode refuses it). */
typedef struct gpusvm__index0_seen {
    gpusvm_index0 mode;
    int has, refused;
    double index0;
} gpusvm__index0_seen;

/* "index:value" features of one line, appended to col/val; returns 0 with a message. Index 0 is
   as z->mode says: refused (DEFAULT), a precomputed kernel's serial number first on the line
   (SERIAL: its value in z->index0), or column 0 of a zero-based file (FEATURE: index i is column
   i); max_col: the columns seen, at least. */
static int gpusvm__parse_features(const gpusvm_allocator *a, char *s, char *end, gpusvm__vec *col, gpusvm__vec *val,
                                  size_t *max_col, gpusvm__index0_seen *z, char *why, size_t why_size)
{
    const long long base = z->mode == GPUSVM_INDEX0_FEATURE ? 0 : 1; /* the index of column 0 */
    char *tok, q[64];
    size_t len;
    long long prev = -1;
    z->has = z->refused = 0;
    while (gpusvm__token(&s, end, &tok, &len)) {
        char *colon = (char *)memchr(tok, ':', len);
        long long idx;
        double v;
        int32_t c;
        float f;
        if (!colon) {
            snprintf(why, why_size, "expected index:value, got '%s'", gpusvm__quote(q, sizeof q, tok, len));
            return 0;
        }
        if (!gpusvm__parse_long(tok, (size_t)(colon - tok), LLONG_MIN / 2, LLONG_MAX / 2, &idx)) {
            snprintf(why, why_size, "feature index '%s' is not an integer",
                     gpusvm__quote(q, sizeof q, tok, (size_t)(colon - tok)));
            return 0;
        }
        if (idx == 0 && z->mode == GPUSVM_INDEX0_DEFAULT) {
            snprintf(why, why_size,
                     "feature index 0: LIBSVM's indices start at 1 (a zero-based file is read with "
                     "GPUSVM_INDEX0_FEATURE; a precomputed kernel's 0:serial with GPUSVM_INDEX0_SERIAL)");
            z->refused = 1;
            return 0;
        }
        if (idx < 0 || (idx == 0 && prev >= 0)) {
            snprintf(why, why_size, "feature index %lld: indices start at %s", idx,
                     base ? "1 (0 only first, as 0:serial)" : "0");
            return 0;
        }
        if (idx > (long long)INT32_MAX) {
            snprintf(why, why_size, "feature index %lld is beyond 2^31-1", idx);
            return 0;
        }
        if (idx <= prev) {
            snprintf(why, why_size, "feature index %lld after %lld: indices must ascend", idx, prev);
            return 0;
        }
        prev = idx;
        if (!gpusvm__parse_double(colon + 1, len - (size_t)(colon + 1 - tok), &v)) {
            snprintf(why, why_size, "value '%s' of feature %lld is not a number",
                     gpusvm__quote(q, sizeof q, colon + 1, len - (size_t)(colon + 1 - tok)), idx);
            return 0;
        }
        if (!(fabs(v) <= FLT_MAX)) {
            snprintf(why, why_size, "value of feature %lld is not a finite float", idx);
            return 0;
        }
        if (idx == 0 && base) {
            z->index0 = v;
            z->has = 1;
            continue;
        }
        c = (int32_t)(idx - base);
        f = (float)v;
        if (!gpusvm__vec_push(a, col, &c) || !gpusvm__vec_push(a, val, &f)) {
            snprintf(why, why_size, "out of memory");
            return 0;
        }
        if ((size_t)c + 1 > *max_col) *max_col = (size_t)c + 1;
    }
    return 1;
}

/* A part of a data file's text, parsed on its own (by one thread): its rows' labels, entry counts,
   entries and index-0 values; its lines; the first error in it, by line within the part. */
typedef struct gpusvm__part {
    char *begin, *end;
    gpusvm_index0 index0;                    /* how index 0 is read */
    gpusvm__vec y, cnt, col, val, ser, line; /* per row: label, entries, index-0 value, line in the part; the entries */
    size_t rows, lines, max_col, index0_line; /* index0_line: within the part, 0 for none */
    size_t err_line;                          /* within the part; 0: no error */
    size_t row0, nnz0;                        /* where its rows and entries go in the dataset */
    int oom, nul, zero_based;                 /* out of memory; a NUL byte in its text; index 0 refused */
    char why[400];
} gpusvm__part;

static void gpusvm__part_free(const gpusvm_allocator *a, gpusvm__part *pt)
{
    gpusvm__free(a, pt->y.data);
    gpusvm__free(a, pt->cnt.data);
    gpusvm__free(a, pt->col.data);
    gpusvm__free(a, pt->val.data);
    gpusvm__free(a, pt->ser.data);
    gpusvm__free(a, pt->line.data);
}

/* Parses one part's lines (the allocator must be safe to call from several threads at once when
   several parts are parsed together). */
static void gpusvm__parse_part(const gpusvm_allocator *a, gpusvm__part *pt)
{
    gpusvm__lines L;
    char q[64];
    pt->y.item = pt->ser.item = sizeof(double);
    pt->cnt.item = pt->line.item = sizeof(size_t);
    pt->col.item = sizeof(int32_t);
    pt->val.item = sizeof(float);
    if (memchr(pt->begin, 0, (size_t)(pt->end - pt->begin))) {
        pt->nul = 1;
        return;
    }
    { /* room for the entries a typical file has in these bytes ("12:0.5 "), so that few grow */
        const size_t guess = (size_t)(pt->end - pt->begin) / 8;
        if (guess > 1024 && (!gpusvm__vec_reserve(a, &pt->col, guess) || !gpusvm__vec_reserve(a, &pt->val, guess))) {
            pt->err_line = 1;
            pt->oom = 1;
            return;
        }
    }
    L.p = pt->begin;
    L.end = pt->end;
    L.lineno = 0;
    while (gpusvm__next_line(&L)) {
        char *s = L.line, *tok;
        size_t tl, before = pt->col.len, nnz;
        double lab;
        gpusvm__index0_seen z;
        z.mode = pt->index0;
        z.index0 = 0.0;
        if (!gpusvm__token(&s, L.line_end, &tok, &tl)) continue; /* blank line */
        if (!gpusvm__parse_double(tok, tl, &lab) || !(fabs(lab) <= DBL_MAX)) {
            snprintf(pt->why, sizeof pt->why, "label '%s' is not a finite number", gpusvm__quote(q, sizeof q, tok, tl));
            pt->err_line = L.lineno;
            break;
        }
        if (!gpusvm__parse_features(a, s, L.line_end, &pt->col, &pt->val, &pt->max_col, &z, pt->why, sizeof pt->why)) {
            pt->err_line = L.lineno;
            pt->oom = strcmp(pt->why, "out of memory") == 0;
            pt->zero_based = z.refused;
            break;
        }
        nnz = pt->col.len - before;
        if (z.has && !pt->index0_line) pt->index0_line = L.lineno;
        if (!gpusvm__vec_push(a, &pt->y, &lab) || !gpusvm__vec_push(a, &pt->cnt, &nnz) ||
            !gpusvm__vec_push(a, &pt->ser, &z.index0) || !gpusvm__vec_push(a, &pt->line, &L.lineno)) {
            pt->err_line = L.lineno;
            pt->oom = 1;
            break;
        }
        ++pt->rows;
    }
    pt->lines = L.lineno;
}

typedef struct gpusvm__parse_job {
    const gpusvm_allocator *a;
    gpusvm__part *parts;
    gpusvm_dataset *ds;                    /* the joined dataset (the copying phase) */
    int stolen;                            /* one part, whose arrays became the dataset's: only the row offsets to write */
    size_t line0[GPUSVM__MAX_THREADS];     /* the lines before each part */
} gpusvm__parse_job;

static void gpusvm__parse_part_job(void *arg, int t)
{
    gpusvm__parse_job *job = (gpusvm__parse_job *)arg;
    gpusvm__parse_part(job->a, &job->parts[t]);
}

/* Part t's rows into their place in the dataset (its row offsets continue the previous part's). */
static void gpusvm__copy_part_job(void *arg, int t)
{
    gpusvm__parse_job *job = (gpusvm__parse_job *)arg;
    const gpusvm__part *pt = &job->parts[t];
    gpusvm_dataset *ds = job->ds;
    const size_t *cnt = (const size_t *)pt->cnt.data;
    size_t k, at = pt->nnz0;
    if (pt->rows && !job->stolen) memcpy(ds->y + pt->row0, pt->y.data, pt->rows * sizeof(double));
    if (pt->rows && ds->serial && !job->stolen) memcpy(ds->serial + pt->row0, pt->ser.data, pt->rows * sizeof(double));
    for (k = 0; k < pt->rows; ++k) ds->line[pt->row0 + k] = job->line0[t] + ((const size_t *)pt->line.data)[k];
    if (pt->col.len && !job->stolen) {
        memcpy(ds->col_idx + pt->nnz0, pt->col.data, pt->col.len * sizeof(int32_t));
        memcpy(ds->values + pt->nnz0, pt->val.data, pt->col.len * sizeof(float));
    }
    for (k = 0; k < pt->rows; ++k) ds->row_ptr[pt->row0 + k + 1] = (at += cnt[k]);
}

/* The dataset the parts make: the first error in file order reported instead, else every part's
   place, the arrays (one part's own arrays become the dataset's), and the rows copied in parallel. */
static gpusvm_result gpusvm__join_parts(gpusvm_context *ctx, const char *path, gpusvm__part *parts, int n,
                                        gpusvm_dataset **out)
{
    const gpusvm_allocator *a = &ctx->alloc;
    size_t rows = 0, nnz = 0, line0 = 0, max_col = 0, index0_line = 0;
    gpusvm__parse_job job;
    gpusvm_dataset *ds;
    int t;
    for (t = 0; t < n; ++t)
        if (parts[t].nul) return gpusvm__fail(ctx, GPUSVM_ERR_BINARY_FILE, "%s:1: binary data (a NUL byte) in a text file", path);
    for (t = 0; t < n; line0 += parts[t].lines, ++t) {
        if (parts[t].oom) return gpusvm__oom(ctx, path);
        if (parts[t].err_line)
            return gpusvm__fail(ctx, parts[t].zero_based ? GPUSVM_ERR_DATA_INDEX0 : GPUSVM_ERR_DATA_SYNTAX, "%s:%lu: %s",
                                path, (unsigned long)(line0 + parts[t].err_line), parts[t].why);
        job.line0[t] = line0;
        if (parts[t].index0_line && !index0_line) index0_line = line0 + parts[t].index0_line;
        parts[t].row0 = rows;
        parts[t].nnz0 = nnz;
        rows += parts[t].rows;
        nnz += parts[t].col.len;
        if (parts[t].max_col > max_col) max_col = parts[t].max_col;
    }
    if (rows == 0) return gpusvm__fail(ctx, GPUSVM_ERR_DATA_EMPTY, "%s:1: no data (the file is empty)", path);
    if (!(ds = (gpusvm_dataset *)gpusvm__calloc(a, 1, sizeof(gpusvm_dataset)))) return gpusvm__oom(ctx, path);
    ds->allocator = *a;
    ds->row_ptr = (size_t *)gpusvm__alloc(a, rows + 1, sizeof(size_t));
    ds->line = (size_t *)gpusvm__alloc(a, rows, sizeof(size_t));
    job.stolen = n == 1 && parts[0].col.data;
    if (job.stolen) { /* one part: its arrays become the dataset's */
        ds->y = (double *)parts[0].y.data;
        ds->col_idx = (int32_t *)parts[0].col.data;
        ds->values = (float *)parts[0].val.data;
        ds->serial = index0_line ? (double *)parts[0].ser.data : NULL;
        parts[0].y.data = parts[0].col.data = parts[0].val.data = NULL;
        if (index0_line) parts[0].ser.data = NULL;
    } else {
        ds->y = (double *)gpusvm__alloc(a, rows, sizeof(double));
        ds->col_idx = (int32_t *)gpusvm__alloc(a, nnz ? nnz : 1, sizeof(int32_t));
        ds->values = (float *)gpusvm__alloc(a, nnz ? nnz : 1, sizeof(float));
        ds->serial = index0_line ? (double *)gpusvm__alloc(a, rows, sizeof(double)) : NULL;
    }
    if (!ds->y || !ds->row_ptr || !ds->line || !ds->col_idx || !ds->values || (index0_line && !ds->serial)) {
        gpusvm_dataset_free(ds);
        return gpusvm__oom(ctx, path);
    }
    ds->row_ptr[0] = 0;
    job.a = a;
    job.parts = parts;
    job.ds = ds;
    gpusvm__parallel(n, gpusvm__copy_part_job, &job);
    ds->index0_line = index0_line;
    ds->x.layout = GPUSVM_LAYOUT_CSR;
    ds->x.rows = rows;
    ds->x.cols = max_col;
    ds->x.row_ptr = ds->row_ptr;
    ds->x.col_idx = ds->col_idx;
    ds->x.values = ds->values;
    *out = ds;
    return GPUSVM_OK;
}

/* Parses LIBSVM data text [text, text+len) (need not end in NUL); path names it in errors. Text of
   a few MiB and more is cut at line ends into one part per thread (ctx->threads) and parsed in
   parallel, where the allocator is the default one (malloc may be called from several threads). */
static gpusvm_result gpusvm__parse_data(gpusvm_context *ctx, const char *path, gpusvm_index0 index0, char *text,
                                        size_t len, gpusvm_dataset **out)
{
    gpusvm__part parts[GPUSVM__MAX_THREADS];
    gpusvm__parse_job job;
    gpusvm_result r;
    int n = ctx->threads, t;
    if (len < ((size_t)4 << 20) || !ctx->default_alloc) n = 1;
    if ((size_t)n > len / ((size_t)1 << 20) + 1) n = (int)(len / ((size_t)1 << 20)) + 1;
    memset(parts, 0, sizeof parts);
    for (t = 0; t < n; ++t) { /* part t starts after the line end at or past t len / n */
        char *b = text + len / (size_t)n * (size_t)t, *nl;
        if (t > 0 && (nl = (char *)memchr(b, '\n', (size_t)(text + len - b))) != NULL) b = nl + 1;
        else if (t > 0) b = text + len;
        if (t > 0 && b < parts[t - 1].begin) b = parts[t - 1].begin;
        parts[t].begin = b;
        parts[t].index0 = index0;
        if (t > 0) parts[t - 1].end = b;
    }
    parts[n - 1].end = text + len;
    job.a = &ctx->alloc;
    job.parts = parts;
    job.ds = NULL;
    gpusvm__parallel(n, gpusvm__parse_part_job, &job);
    r = gpusvm__join_parts(ctx, path, parts, n, out);
    for (t = 0; t < n; ++t) gpusvm__part_free(&ctx->alloc, &parts[t]);
    return r;
}

/* A parse error at path:line, the message formatted as printf does. */
static gpusvm_result gpusvm__bad_line(gpusvm_context *ctx, const char *path, size_t line, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return gpusvm__fail(ctx, GPUSVM_ERR_MODEL_SYNTAX, "%s:%lu: %s", path, (unsigned long)line, why);
}

/* A model file's header, as read. */
typedef struct gpusvm__model_head {
    int svm_type, kernel_type, degree, nr_class, have_sv, have_rho, have_label, have_nsv, have_marks;
    int have_prob[2];
    long long total_sv;
    unsigned seen; /* keys met (duplicates are refused) */
    size_t npairs;
    double gamma, coef0;
    double *rho, *probv[2], marks[GPUSVM__NR_MARKS]; /* npairs each (allocated when nr_class is read) */
    int *label, *nsv;                                /* nr_class each */
} gpusvm__model_head;

static void gpusvm__model_head_free(const gpusvm_allocator *a, gpusvm__model_head *h)
{
    gpusvm__free(a, h->rho);
    gpusvm__free(a, h->probv[0]);
    gpusvm__free(a, h->probv[1]);
    gpusvm__free(a, h->label);
    gpusvm__free(a, h->nsv);
}

#define GPUSVM__BAD(...) return gpusvm__bad_line(ctx, path, L->lineno, __VA_ARGS__)
#define GPUSVM__KEY(name) (tl == sizeof(name) - 1 && memcmp(tok, name, tl) == 0)

/* The rest of the line: count numbers into out (count 0: none or one), finite, or with inf_ok also
   infinite (rho: LIBSVM's one-class with every alpha at its bound writes "rho inf"); *got, how many. */
static gpusvm_result gpusvm__head_numbers(gpusvm_context *ctx, const char *path, const gpusvm__lines *L, char *s,
                                          const char *key, double *out, size_t count, size_t *got, int inf_ok)
{
    char q[64], *tok;
    size_t tl, k;
    double dv;
    for (k = 0; k < (count ? count : 1); ++k) {
        if (!gpusvm__token(&s, L->line_end, &tok, &tl)) {
            if (count == 0 && k == 0) break;
            GPUSVM__BAD("expected %lu values, found %lu", (unsigned long)count, (unsigned long)k);
        }
        if (!gpusvm__parse_double(tok, tl, &dv) || dv != dv || (!inf_ok && !(fabs(dv) <= DBL_MAX)))
            GPUSVM__BAD("'%s' is not a finite number", gpusvm__quote(q, sizeof q, tok, tl));
        out[k] = dv;
    }
    if (gpusvm__token(&s, L->line_end, &tok, &tl)) GPUSVM__BAD("more values than %s allows", key);
    *got = k;
    return GPUSVM_OK;
}

/* svm_type / kernel_type: the name's position + 1. */
static gpusvm_result gpusvm__head_name(gpusvm_context *ctx, const char *path, const gpusvm__lines *L, char *s,
                                       int is_svm, int *out)
{
    const char *const *names = is_svm ? gpusvm__svm_type_names : gpusvm__kernel_names;
    const int count = is_svm ? 6 : 5;
    char q[64], *w;
    size_t wl;
    int c;
    if (!gpusvm__token(&s, L->line_end, &w, &wl)) GPUSVM__BAD("%s needs a value", is_svm ? "svm_type" : "kernel_type");
    for (c = 0; c < count; ++c)
        if (strlen(names[c]) == wl && memcmp(names[c], w, wl) == 0) break;
    if (c == count)
        GPUSVM__BAD("unknown %s '%s'", is_svm ? "svm_type" : "kernel_type", gpusvm__quote(q, sizeof q, w, wl));
    *out = c + 1;
    return GPUSVM_OK;
}

/* label / nr_sv: nr_class integers. */
static gpusvm_result gpusvm__head_ints(gpusvm_context *ctx, const char *path, const gpusvm__lines *L, char *s,
                                       gpusvm__model_head *h, int is_label)
{
    char q[64], *tok;
    size_t tl;
    long long v;
    int c;
    if (!h->nr_class) GPUSVM__BAD("%s before nr_class", is_label ? "label" : "nr_sv");
    for (c = 0; c < h->nr_class; ++c) {
        if (!gpusvm__token(&s, L->line_end, &tok, &tl)) GPUSVM__BAD("expected %d values, found %d", h->nr_class, c);
        if (!gpusvm__parse_long(tok, tl, is_label ? INT_MIN : 0, INT_MAX, &v))
            GPUSVM__BAD("'%s' is not an integer", gpusvm__quote(q, sizeof q, tok, tl));
        if (is_label) h->label[c] = (int)v;
        else h->nsv[c] = (int)v;
    }
    if (gpusvm__token(&s, L->line_end, &tok, &tl)) GPUSVM__BAD("more values than nr_class");
    if (is_label) h->have_label = 1;
    else h->have_nsv = 1;
    return GPUSVM_OK;
}

/* One header line: its key (each at most once) and values. */
static gpusvm_result gpusvm__head_line(gpusvm_context *ctx, const char *path, const gpusvm__lines *L,
                                       gpusvm__model_head *h)
{
    static const char *const keys[] = {"svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class",
                                       "total_sv", "rho", "probA", "probB", "label", "nr_sv",
                                       "prob_density_marks"};
    char q[64], *s = L->line, *tok;
    size_t tl, kk, got = 0;
    long long v;
    if (!gpusvm__token(&s, L->line_end, &tok, &tl)) return GPUSVM_OK;
    for (kk = 0; kk < sizeof keys / sizeof keys[0]; ++kk)
        if (strlen(keys[kk]) == tl && memcmp(keys[kk], tok, tl) == 0) {
            if (h->seen & (1u << kk)) GPUSVM__BAD("duplicate header key '%s'", keys[kk]);
            h->seen |= 1u << kk;
        }
    if (GPUSVM__KEY("svm_type") || GPUSVM__KEY("kernel_type")) {
        const int is_svm = GPUSVM__KEY("svm_type");
        return gpusvm__head_name(ctx, path, L, s, is_svm, is_svm ? &h->svm_type : &h->kernel_type);
    } else if (GPUSVM__KEY("degree")) {
        if (!gpusvm__token(&s, L->line_end, &tok, &tl) || !gpusvm__parse_long(tok, tl, 0, INT_MAX, &v))
            GPUSVM__BAD("degree needs a non-negative integer");
        h->degree = (int)v;
    } else if (GPUSVM__KEY("gamma") || GPUSVM__KEY("coef0")) {
        const int is_gamma = GPUSVM__KEY("gamma");
        double dv;
        if (!gpusvm__token(&s, L->line_end, &tok, &tl) || !gpusvm__parse_double(tok, tl, &dv) || !(fabs(dv) <= DBL_MAX))
            GPUSVM__BAD("%s needs a finite number", is_gamma ? "gamma" : "coef0");
        if (is_gamma) h->gamma = dv;
        else h->coef0 = dv;
    } else if (GPUSVM__KEY("nr_class")) {
        const gpusvm_allocator *a = &ctx->alloc;
        const size_t np1 = 1 + (size_t)(L->end - L->p) / 2; /* the most numbers the rest of the text holds */
        if (!gpusvm__token(&s, L->line_end, &tok, &tl) || !gpusvm__parse_long(tok, tl, 1, INT_MAX, &v))
            GPUSVM__BAD("nr_class needs a positive integer");
        if ((double)v * (double)(v - 1) / 2 > (double)np1)
            GPUSVM__BAD("nr_class %lld needs %lld rho values, more than the rest of the file holds", v, v * (v - 1) / 2);
        h->nr_class = (int)v;
        h->npairs = (size_t)h->nr_class * (size_t)(h->nr_class - 1) / 2;
        h->rho = (double *)gpusvm__calloc(a, h->npairs ? h->npairs : 1, sizeof(double));
        h->probv[0] = (double *)gpusvm__calloc(a, h->npairs ? h->npairs : 1, sizeof(double));
        h->probv[1] = (double *)gpusvm__calloc(a, h->npairs ? h->npairs : 1, sizeof(double));
        h->label = (int *)gpusvm__calloc(a, (size_t)h->nr_class, sizeof(int));
        h->nsv = (int *)gpusvm__calloc(a, (size_t)h->nr_class, sizeof(int));
        if (!h->rho || !h->probv[0] || !h->probv[1] || !h->label || !h->nsv) return gpusvm__oom(ctx, "the model's header");
    } else if (GPUSVM__KEY("total_sv")) {
        if (!gpusvm__token(&s, L->line_end, &tok, &tl) || !gpusvm__parse_long(tok, tl, 0, INT_MAX, &h->total_sv))
            GPUSVM__BAD("total_sv needs a non-negative integer");
    } else if (GPUSVM__KEY("rho") || GPUSVM__KEY("probA") || GPUSVM__KEY("probB")) {
        const int is_rho = GPUSVM__KEY("rho"), is_b = GPUSVM__KEY("probB");
        gpusvm_result r;
        if (!h->nr_class) GPUSVM__BAD("%s before nr_class", is_rho ? "rho" : "probA/probB");
        r = gpusvm__head_numbers(ctx, path, L, s, "nr_class", is_rho ? h->rho : h->probv[is_b], h->npairs, &got, is_rho);
        if (r != GPUSVM_OK) return r;
        if (is_rho) h->have_rho = 1;
        else h->have_prob[is_b] = got > 0;
    } else if (GPUSVM__KEY("label") || GPUSVM__KEY("nr_sv")) {
        return gpusvm__head_ints(ctx, path, L, s, h, GPUSVM__KEY("label"));
    } else if (GPUSVM__KEY("prob_density_marks")) {
        double dv;
        for (kk = 0; kk < GPUSVM__NR_MARKS; ++kk) {
            if (!gpusvm__token(&s, L->line_end, &tok, &tl) || !gpusvm__parse_double(tok, tl, &dv) ||
                !(fabs(dv) <= DBL_MAX))
                GPUSVM__BAD("prob_density_marks needs %d finite numbers", GPUSVM__NR_MARKS);
            h->marks[kk] = dv;
        }
        if (gpusvm__token(&s, L->line_end, &tok, &tl)) GPUSVM__BAD("more than %d prob_density_marks", GPUSVM__NR_MARKS);
        h->have_marks = 1;
    } else if (GPUSVM__KEY("SV")) {
        h->have_sv = 1;
    } else {
        GPUSVM__BAD("unknown header key '%s'", gpusvm__quote(q, sizeof q, tok, tl));
    }
    return GPUSVM_OK;
}

/* The header up to "SV", checked for what the model type needs and for a total_sv the text
   can hold. */
static gpusvm_result gpusvm__parse_header(gpusvm_context *ctx, const char *path, gpusvm__lines *L,
                                          gpusvm__model_head *h)
{
    gpusvm_result r;
    size_t lines = 0;
    const char *c;
    int k;
    while (!h->have_sv && gpusvm__next_line(L))
        if ((r = gpusvm__head_line(ctx, path, L, h)) != GPUSVM_OK) return r;
    if (!h->have_sv) GPUSVM__BAD("no SV section");
    if (!h->svm_type || !h->kernel_type || !h->nr_class || h->total_sv < 0 ||
        (!h->have_rho && h->npairs && h->svm_type != GPUSVM_CRAMMER_SINGER))
        GPUSVM__BAD("the header lacks %s", !h->svm_type ? "svm_type" : !h->kernel_type ? "kernel_type"
                                          : !h->nr_class ? "nr_class" : h->total_sv < 0 ? "total_sv" : "rho");
    if ((h->svm_type == GPUSVM_C_SVC || h->svm_type == GPUSVM_NU_SVC || h->svm_type == GPUSVM_CRAMMER_SINGER) &&
        (!h->have_label || !h->have_nsv))
        GPUSVM__BAD("a classification model needs label and nr_sv");
    if (h->have_nsv) {
        long long sum = 0;
        for (k = 0; k < h->nr_class; ++k) sum += h->nsv[k];
        if (sum != h->total_sv) GPUSVM__BAD("nr_sv adds up to %lld, total_sv is %lld", sum, h->total_sv);
    }
    /* the claim must fit the text before anything is sized by it */
    for (c = L->p; c < L->end; ++c) lines += *c == '\n';
    if (L->end > L->p && L->end[-1] != '\n') ++lines;
    if ((long long)lines < h->total_sv)
        return gpusvm__bad_line(ctx, path, L->lineno + lines + 1, "the SV section has %lu lines, total_sv is %lld",
                                (unsigned long)lines, h->total_sv);
    return GPUSVM_OK;
}

/* A model sized and filled from the header (the support vectors still to come). */
static gpusvm_result gpusvm__model_from_head(gpusvm_context *ctx, const char *path, const gpusvm__model_head *h,
                                             gpusvm_model **out)
{
    const gpusvm_allocator *a = &ctx->alloc;
    const size_t np1 = h->npairs ? h->npairs : 1;
    gpusvm_model *m = NULL;
    gpusvm_result r;
    size_t k;
    int c;
    if ((r = gpusvm__model_alloc(ctx, h->nr_class, (size_t)h->total_sv, 0, &m)) != GPUSVM_OK) return r;
    *out = m;
    gpusvm__free(a, m->sv_indices); /* a model file does not say where its support vectors came from */
    m->sv_indices = NULL;
    if (h->svm_type == GPUSVM_CRAMMER_SINGER) { /* a coefficient per class */
        gpusvm__free(a, m->sv_coef);
        m->sv_coef = (double *)gpusvm__calloc(a, (size_t)h->nr_class, (h->total_sv ? (size_t)h->total_sv : 1) * sizeof(double));
        if (!m->sv_coef) return gpusvm__oom(ctx, path);
    }
    m->svm_type = (gpusvm_svm_type)h->svm_type;
    m->kernel_type = (gpusvm_kernel_type)h->kernel_type;
    m->degree = h->degree;
    m->gamma = h->gamma;
    m->coef0 = h->coef0;
    for (k = 0; k < h->npairs; ++k) m->rho[k] = h->rho[k];
    if (h->npairs == 0) m->rho[0] = h->have_rho ? h->rho[0] : 0.0;
    for (c = 0; c < 2; ++c) {
        double **dst = c ? &m->probB : &m->probA;
        if (!h->have_prob[c]) continue;
        if (!(*dst = (double *)gpusvm__alloc(a, np1, sizeof(double)))) return gpusvm__oom(ctx, path);
        memcpy(*dst, h->probv[c], np1 * sizeof(double));
    }
    if (h->have_marks) {
        m->prob_density_marks = (double *)gpusvm__alloc(a, GPUSVM__NR_MARKS, sizeof(double));
        if (!m->prob_density_marks) return gpusvm__oom(ctx, path);
        memcpy(m->prob_density_marks, h->marks, sizeof h->marks);
    }
    for (c = 0; c < h->nr_class; ++c) {
        m->label[c] = h->have_label ? h->label[c] : 0;
        m->n_sv[c] = h->have_nsv ? h->nsv[c] : 0;
    }
    return GPUSVM_OK;
}

/* Support vector i: its coefficients, then its features into col / val (a precomputed
   kernel's: 0:serial alone, kept as column 0). */
static gpusvm_result gpusvm__parse_sv(gpusvm_context *ctx, const char *path, const gpusvm__lines *L,
                                      gpusvm_model *m, size_t i, size_t ncoef, gpusvm__vec *col, gpusvm__vec *val,
                                      size_t *max_col)
{
    const gpusvm_allocator *a = &ctx->alloc;
    char why[256], q[64], *s = L->line, *tok;
    size_t tl, k;
    double dv;
    gpusvm__index0_seen z;
    for (k = 0; k < ncoef; ++k) {
        if (!gpusvm__token(&s, L->line_end, &tok, &tl) || memchr(tok, ':', tl))
            GPUSVM__BAD("expected %lu coefficients before the features", (unsigned long)ncoef);
        if (!gpusvm__parse_double(tok, tl, &dv) || !(fabs(dv) <= DBL_MAX))
            GPUSVM__BAD("coefficient '%s' is not a finite number", gpusvm__quote(q, sizeof q, tok, tl));
        m->sv_coef[k * m->total_sv + i] = dv;
    }
    z.mode = GPUSVM_INDEX0_SERIAL;
    z.index0 = 0.0;
    if (!gpusvm__parse_features(a, s, L->line_end, col, val, max_col, &z, why, sizeof why)) GPUSVM__BAD("%s", why);
    if (m->kernel_type == GPUSVM_KERNEL_PRECOMPUTED) {
        const int32_t c0 = 0;
        const float f0 = (float)z.index0;
        if (!z.has || col->len != m->sv_row_ptr[i] || !(z.index0 >= 1.0) || z.index0 > 16777216.0 ||
            z.index0 != floor(z.index0))
            GPUSVM__BAD("a precomputed kernel's support vector is 0:serial, one integer >= 1, alone");
        if (!gpusvm__vec_push(a, col, &c0) || !gpusvm__vec_push(a, val, &f0)) return gpusvm__oom(ctx, path);
    } else if (z.has) {
        GPUSVM__BAD("feature index 0 in a support vector (only precomputed kernels have 0:serial)");
    }
    m->sv_row_ptr[i + 1] = col->len;
    return GPUSVM_OK;
}

/* The SV section: total_sv lines, then nothing but blank lines. */
static gpusvm_result gpusvm__parse_svs(gpusvm_context *ctx, const char *path, gpusvm__lines *L,
                                       const gpusvm__model_head *h, gpusvm_model *m, gpusvm__vec *col,
                                       gpusvm__vec *val, size_t *max_col)
{
    const size_t ncoef = (size_t)(h->svm_type == GPUSVM_CRAMMER_SINGER ? h->nr_class : h->nr_class > 1 ? h->nr_class - 1 : 1);
    gpusvm_result r;
    char *s, *tok;
    size_t i, tl;
    for (i = 0; i < (size_t)h->total_sv; ++i) {
        if (!gpusvm__next_line(L))
            return gpusvm__bad_line(ctx, path, L->lineno + 1, "the SV section ends after %lu of %lld support vectors",
                                    (unsigned long)i, h->total_sv);
        if ((r = gpusvm__parse_sv(ctx, path, L, m, i, ncoef, col, val, max_col)) != GPUSVM_OK) return r;
    }
    while (gpusvm__next_line(L)) {
        s = L->line;
        if (gpusvm__token(&s, L->line_end, &tok, &tl)) GPUSVM__BAD("more support vectors than total_sv");
    }
    return GPUSVM_OK;
}
#undef GPUSVM__KEY
#undef GPUSVM__BAD

/* Parses LIBSVM model text [text, text+len); path names it in errors. */
static gpusvm_result gpusvm__parse_model(gpusvm_context *ctx, const char *path, char *text, size_t len,
                                         gpusvm_model **out)
{
    const gpusvm_allocator *a = &ctx->alloc;
    gpusvm__model_head h;
    gpusvm__lines L;
    gpusvm_model *m = NULL;
    gpusvm_result r;
    gpusvm__vec col, val;
    size_t max_col = 0;
    memset(&col, 0, sizeof col);
    memset(&val, 0, sizeof val);
    memset(&h, 0, sizeof h);
    col.item = sizeof(int32_t);
    val.item = sizeof(float);
    h.degree = 3;
    h.total_sv = -1;
    if (memchr(text, 0, len)) return gpusvm__fail(ctx, GPUSVM_ERR_BINARY_FILE, "%s:1: binary data (a NUL byte) in a text file", path);
    L.p = text;
    L.end = text + len;
    L.lineno = 0;
    if ((r = gpusvm__parse_header(ctx, path, &L, &h)) != GPUSVM_OK ||
        (r = gpusvm__model_from_head(ctx, path, &h, &m)) != GPUSVM_OK ||
        (r = gpusvm__parse_svs(ctx, path, &L, &h, m, &col, &val, &max_col)) != GPUSVM_OK)
        goto fail;
    gpusvm__model_head_free(a, &h);
    gpusvm__free(a, m->sv_col_idx);
    gpusvm__free(a, m->sv_values);
    m->sv_col_idx = (int32_t *)col.data;
    m->sv_values = (float *)val.data;
    col.data = val.data = NULL;
    if (!m->sv_col_idx) m->sv_col_idx = (int32_t *)gpusvm__alloc(a, 1, sizeof(int32_t));
    if (!m->sv_values) m->sv_values = (float *)gpusvm__alloc(a, 1, sizeof(float));
    if (!m->sv_col_idx || !m->sv_values) {
        r = gpusvm__oom(ctx, "the model");
        goto fail;
    }
    m->n_features = m->n_columns = max_col;
    gpusvm__model_norms(m);
    *out = m;
    return GPUSVM_OK;
fail:
    gpusvm__model_head_free(a, &h);
    gpusvm__free(a, col.data);
    gpusvm__free(a, val.data);
    gpusvm_model_free(m);
    return r;
}

static gpusvm_result gpusvm__load_model(gpusvm_context *ctx, const char *path, gpusvm_model **out)
{
    char *text = NULL;
    size_t len = 0;
    gpusvm_result r = gpusvm__slurp(ctx, path, &text, &len);
    if (r != GPUSVM_OK) return r;
    r = gpusvm__parse_model(ctx, path, text, len, out);
    gpusvm__free(&ctx->alloc, text);
    return r;
}

#ifndef GPUSVM_PREDICT_ONLY
/* >>io/export: a model as C source (gpusvm_model_to_c) ----------------------------------------- */
/* The model as const arrays and a static predictor for its type that allocates nothing (one
   static scratch of a value per support vector), needs no stdio, no OpenCL and no double
   arithmetic unless asked; every name starts with the caller's. The predictor's text is written
   from templates: '@' is the name, '$' the arithmetic type, '~' its suffix (expf / 1.0f). */

typedef struct gpusvm__cx {
    gpusvm__out *o;
    const char *name;
    int dbl;          /* double arithmetic and arrays */
    int not_finite;   /* a value is not finite in the arithmetic's type (C has no literal for it) */
} gpusvm__cx;

static void gpusvm__cx_put(const gpusvm__cx *c, const char *t)
{
    char one[2] = {0, 0};
    for (; *t; ++t) {
        if (*t == '@') gpusvm__out_str(c->o, c->name);
        else if (*t == '$') gpusvm__out_str(c->o, c->dbl ? "double" : "float");
        else if (*t == '~') gpusvm__out_str(c->o, c->dbl ? "" : "f");
        else {
            one[0] = *t;
            gpusvm__out_str(c->o, one);
        }
    }
}

/* A real constant as C source that reads back to the same value of its type (one that is not
   finite in it is marked, and written as 0). */
static void gpusvm__cx_real(gpusvm__cx *c, double v)
{
    char b[48];
    if (!gpusvm__finite_d(c->dbl ? v : (double)(float)v)) {
        c->not_finite = 1;
        v = 0.0;
    }
    snprintf(b, sizeof b, c->dbl ? "%.17g" : "%.9g", c->dbl ? v : (double)(float)v);
    if (!strpbrk(b, ".eEni")) strcat(b, ".0");
    gpusvm__out_str(c->o, b);
    gpusvm__cx_put(c, "~");
}

/* "static const TYPE @_KEY[n] = {...};" from n values v(i) (at least one element: C has no empty
   arrays), eight a line. */
static void gpusvm__cx_array(gpusvm__cx *c, const char *type, const char *key, size_t n,
                             double (*v)(const gpusvm_model *, size_t), const gpusvm_model *m, int real)
{
    size_t i;
    gpusvm__cx_put(c, "static const ");
    gpusvm__cx_put(c, type);
    gpusvm__cx_put(c, " @_");
    gpusvm__out_str(c->o, key);
    gpusvm__out_int(c->o, "[", (long long)(n ? n : 1));
    gpusvm__out_str(c->o, "] = {");
    for (i = 0; i < (n ? n : 1); ++i) {
        gpusvm__out_str(c->o, i % 8 ? " " : "\n    ");
        if (real) gpusvm__cx_real(c, n ? v(m, i) : 0.0);
        else gpusvm__out_int(c->o, "", n ? (long long)v(m, i) : 0);
        if (i + 1 < (n ? n : 1)) gpusvm__out_str(c->o, ",");
    }
    gpusvm__out_str(c->o, "};\n");
}

static double gpusvm__cx_coef(const gpusvm_model *m, size_t i) { return m->sv_coef[i]; }
static double gpusvm__cx_rho(const gpusvm_model *m, size_t i) { return m->rho[i]; }
static double gpusvm__cx_label(const gpusvm_model *m, size_t i) { return m->label[i]; }
static double gpusvm__cx_probA(const gpusvm_model *m, size_t i) { return m->probA[i]; }
static double gpusvm__cx_probB(const gpusvm_model *m, size_t i) { return m->probB[i]; }
static double gpusvm__cx_start(const gpusvm_model *m, size_t i) { return (double)m->sv_row_ptr[i]; }
static double gpusvm__cx_col(const gpusvm_model *m, size_t i) { return m->sv_col_idx[i]; }
static double gpusvm__cx_val(const gpusvm_model *m, size_t i) { return m->sv_values[i]; }
static double gpusvm__cx_dense(const gpusvm_model *m, size_t i) /* support vector i / d, feature i % d */
{
    const size_t d = m->n_features, s = i / d, f = i % d;
    size_t lo = m->sv_row_ptr[s], hi = m->sv_row_ptr[s + 1];
    while (lo < hi) { /* the first entry of column f or past it (the columns ascend) */
        const size_t mid = lo + (hi - lo) / 2;
        if ((size_t)m->sv_col_idx[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->sv_row_ptr[s + 1] && (size_t)m->sv_col_idx[lo] == f ? m->sv_values[lo] : 0.0;
}
static double gpusvm__cx_norm(const gpusvm_model *m, size_t s)
{
    double v = 0.0;
    size_t k;
    for (k = m->sv_row_ptr[s]; k < m->sv_row_ptr[s + 1]; ++k) v += (double)m->sv_values[k] * m->sv_values[k];
    return v;
}

/* Whether the support vectors are smaller stored sparse (values, column indices, starts, and the
   norms an RBF kernel takes) than as a dense matrix. */
static int gpusvm__cx_sparse(const gpusvm_model *m, int dbl)
{
    const double real = dbl ? 8.0 : 4.0, idx = m->n_features <= 65535 ? 2.0 : 4.0;
    const double nnz = (double)m->sv_row_ptr[m->total_sv], ns = (double)m->total_sv;
    const double sparse = nnz * (real + idx) + (ns + 1.0) * 4.0 + (m->kernel_type == GPUSVM_KERNEL_RBF ? ns * real : 0.0);
    return sparse < ns * (double)m->n_features * real;
}

/* The kernel k(x, support vector s): a dot product (dense or sparse), then the kernel's function. */
static void gpusvm__cx_kernel(const gpusvm__cx *c, const gpusvm_model *m, int sparse)
{
    const int rbf = m->kernel_type == GPUSVM_KERNEL_RBF;
    gpusvm__cx_put(c, "\n/* k(x, support vector s) */\nstatic $ @_kernel(const $ *x, int s)\n{\n    $ sum = 0.0~;\n");
    if (sparse) {
        gpusvm__cx_put(c, "    int k;\n    for (k = @_sv_start[s]; k < @_sv_start[s + 1]; ++k) sum += x[@_sv_col[k]] * @_sv_val[k];\n");
        if (rbf)
            gpusvm__cx_put(c, "    {\n        $ xx = 0.0~, d2;\n        for (k = 0; k < @_N_FEATURES; ++k) xx += x[k] * x[k];\n"
                              "        d2 = xx + @_sv_norm[s] - 2.0~ * sum;\n        sum = d2 > 0.0~ ? d2 : 0.0~;\n    }\n");
    } else {
        /* four partial sums: four chains of additions instead of one (the same on a single-issue FPU) */
        gpusvm__cx_put(c, "    const $ *v = @_sv + (long)s * @_N_FEATURES;\n    $ p[4] = {0.0~, 0.0~, 0.0~, 0.0~};\n    int j, u;\n"
                          "    for (j = 0; j + 4 <= @_N_FEATURES; j += 4)\n        for (u = 0; u < 4; ++u)\n");
        gpusvm__cx_put(c, rbf ? "            p[u] += (x[j + u] - v[j + u]) * (x[j + u] - v[j + u]);\n"
                                "    for (; j < @_N_FEATURES; ++j) p[0] += (x[j] - v[j]) * (x[j] - v[j]);\n"
                              : "            p[u] += x[j + u] * v[j + u];\n    for (; j < @_N_FEATURES; ++j) p[0] += x[j] * v[j];\n");
        gpusvm__cx_put(c, "    sum = (p[0] + p[1]) + (p[2] + p[3]);\n");
    }
    if (rbf) gpusvm__cx_put(c, "    return exp~(-@_GAMMA * sum);\n}\n");
    else if (m->kernel_type == GPUSVM_KERNEL_POLY)
        gpusvm__cx_put(c, "    {\n        const $ b = @_GAMMA * sum + @_COEF0;\n        $ r = 1.0~;\n        int i;\n"
                          "        for (i = 0; i < @_DEGREE; ++i) r *= b;\n        return r;\n    }\n}\n");
    else if (m->kernel_type == GPUSVM_KERNEL_SIGMOID) gpusvm__cx_put(c, "    return tanh~(@_GAMMA * sum + @_COEF0);\n}\n");
    else gpusvm__cx_put(c, "    return sum;\n}\n");
}

static double gpusvm__cx_first(const gpusvm_model *m, size_t c) /* class c's first support vector */
{
    size_t s = 0;
    int k;
    for (k = 0; k < (int)c; ++k) s += (size_t)m->n_sv[k];
    return (double)s;
}

/* The decision values: the kernel against every support vector once, then each function. */
static void gpusvm__cx_decision(const gpusvm__cx *c, const gpusvm_model *m)
{
    const int ovo = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC;
    gpusvm__cx_put(c, "\n/* x's decision values into dec (@_N_DEC of them, LIBSVM's order, rho taken off) */\n"
                      "@_FN void @_decision(const $ *x, $ *dec)\n{\n    static $ kv[@_N_SV];\n    int s;\n"
                      "    for (s = 0; s < @_N_SV; ++s) kv[s] = @_kernel(x, s);\n");
    if (ovo)
        gpusvm__cx_put(c, "    {\n        int i, j, p = 0, k;\n        for (i = 0; i < @_N_CLASS; ++i)\n"
                          "            for (j = i + 1; j < @_N_CLASS; ++j, ++p) {\n"
                          "                const $ *ci = @_coef + (long)(j - 1) * @_N_SV, *cj = @_coef + (long)i * @_N_SV;\n"
                          "                $ sum = 0.0~;\n"
                          "                for (k = @_first[i]; k < @_first[i + 1]; ++k) sum += ci[k] * kv[k];\n"
                          "                for (k = @_first[j]; k < @_first[j + 1]; ++k) sum += cj[k] * kv[k];\n"
                          "                dec[p] = sum - @_rho[p];\n            }\n    }\n}\n");
    else if (m->svm_type == GPUSVM_CRAMMER_SINGER)
        gpusvm__cx_put(c, "    {\n        int i;\n        for (i = 0; i < @_N_CLASS; ++i) {\n            $ sum = 0.0~;\n"
                          "            for (s = 0; s < @_N_SV; ++s) sum += @_coef[(long)i * @_N_SV + s] * kv[s];\n"
                          "            dec[i] = sum;\n        }\n    }\n}\n");
    else
        gpusvm__cx_put(c, "    {\n        $ sum = 0.0~;\n        for (s = 0; s < @_N_SV; ++s) sum += @_coef[s] * kv[s];\n"
                          "        dec[0] = sum - @_rho[0];\n    }\n}\n");
}

/* The prediction from the decision values: the votes of the pairs (ties to the class first in
   @_label, as LIBSVM), the largest response (Crammer-Singer), the sign, or the value. */
static void gpusvm__cx_predict(const gpusvm__cx *c, const gpusvm_model *m)
{
    const int ovo = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC;
    const int regression = m->svm_type == GPUSVM_EPSILON_SVR || m->svm_type == GPUSVM_NU_SVR;
    gpusvm__cx_put(c, regression ? "\n/* the predicted value of x */\n@_FN $ @_predict(const $ *x)\n{\n"
                                 : "\n/* the predicted label of x */\n@_FN int @_predict(const $ *x)\n{\n");
    if ((ovo || m->svm_type == GPUSVM_CRAMMER_SINGER) && m->nr_class == 1)
        gpusvm__cx_put(c, "    (void)x;\n    return @_label[0];\n}\n");
    else if (ovo)
        gpusvm__cx_put(c, "    $ dec[@_N_DEC];\n    int votes[@_N_CLASS], i, j, p = 0, best = 0;\n    @_decision(x, dec);\n"
                          "    for (i = 0; i < @_N_CLASS; ++i) votes[i] = 0;\n    for (i = 0; i < @_N_CLASS; ++i)\n"
                          "        for (j = i + 1; j < @_N_CLASS; ++j, ++p) ++votes[dec[p] > 0.0~ ? i : j];\n"
                          "    for (i = 1; i < @_N_CLASS; ++i)\n        if (votes[i] > votes[best]) best = i;\n"
                          "    return @_label[best];\n}\n");
    else if (m->svm_type == GPUSVM_CRAMMER_SINGER)
        gpusvm__cx_put(c, "    $ dec[@_N_DEC];\n    int i, best = 0;\n    @_decision(x, dec);\n    for (i = 1; i < @_N_CLASS; ++i)\n"
                          "        if (dec[i] > dec[best]) best = i;\n    return @_label[best];\n}\n");
    else if (regression)
        gpusvm__cx_put(c, "    $ dec[1];\n    @_decision(x, dec);\n    return dec[0];\n}\n");
    else
        gpusvm__cx_put(c, "    $ dec[1];\n    @_decision(x, dec);\n    return dec[0] > 0.0~ ? 1 : -1;\n}\n");
}

/* Class probabilities (-b 1): Platt's sigmoid per pair, then Wu, Lin and Weng's coupling, as
   gpusvm_predict_probability (gpusvm__couple). */
static void gpusvm__cx_probability(const gpusvm__cx *c)
{
    gpusvm__cx_put(c,
        "\n/* P(class) of x into prob (@_N_CLASS values, in @_label's order); returns the likeliest label */\n"
        "@_FN int @_predict_probability(const $ *x, $ *prob)\n{\n"
        "    static $ r[@_N_CLASS * @_N_CLASS], Q[@_N_CLASS * @_N_CLASS], Qp[@_N_CLASS];\n"
        "    $ dec[@_N_DEC], pQp;\n    int i, j, t, it, p = 0, best = 0;\n    @_decision(x, dec);\n"
        "    for (i = 0; i < @_N_CLASS; ++i)\n        for (j = i + 1; j < @_N_CLASS; ++j, ++p) {\n"
        "            const $ f = dec[p] * @_probA[p] + @_probB[p];\n"
        "            $ q = f >= 0.0~ ? exp~(-f) / (1.0~ + exp~(-f)) : 1.0~ / (1.0~ + exp~(f));\n"
        "            q = q < 1e-7~ ? 1e-7~ : q > 1.0~ - 1e-7~ ? 1.0~ - 1e-7~ : q;\n"
        "            r[i * @_N_CLASS + j] = q;\n            r[j * @_N_CLASS + i] = 1.0~ - q;\n        }\n"
        "    for (t = 0; t < @_N_CLASS; ++t) {\n        prob[t] = 1.0~ / @_N_CLASS;\n        Q[t * @_N_CLASS + t] = 0.0~;\n"
        "        for (j = 0; j < @_N_CLASS; ++j)\n            if (j != t) {\n"
        "                Q[t * @_N_CLASS + t] += r[j * @_N_CLASS + t] * r[j * @_N_CLASS + t];\n"
        "                Q[t * @_N_CLASS + j] = -r[j * @_N_CLASS + t] * r[t * @_N_CLASS + j];\n            }\n    }\n"
        "    if (@_N_CLASS == 2) {\n        prob[0] = r[1];\n        prob[1] = r[2];\n    }\n"
        "    for (it = 0; @_N_CLASS > 2 && it < (@_N_CLASS > 100 ? @_N_CLASS : 100); ++it) {\n"
        "        $ max_error = 0.0~;\n        pQp = 0.0~;\n        for (t = 0; t < @_N_CLASS; ++t) {\n"
        "            Qp[t] = 0.0~;\n            for (j = 0; j < @_N_CLASS; ++j) Qp[t] += Q[t * @_N_CLASS + j] * prob[j];\n"
        "            pQp += prob[t] * Qp[t];\n        }\n        for (t = 0; t < @_N_CLASS; ++t)\n"
        "            if (fabs~(Qp[t] - pQp) > max_error) max_error = fabs~(Qp[t] - pQp);\n"
        "        if (max_error < 0.005~ / @_N_CLASS) break;\n        for (t = 0; t < @_N_CLASS; ++t) {\n"
        "            const $ diff = (-Qp[t] + pQp) / Q[t * @_N_CLASS + t];\n            prob[t] += diff;\n"
        "            pQp = (pQp + diff * (diff * Q[t * @_N_CLASS + t] + 2.0~ * Qp[t])) / (1.0~ + diff) / (1.0~ + diff);\n"
        "            for (j = 0; j < @_N_CLASS; ++j) {\n"
        "                Qp[j] = (Qp[j] + diff * Q[t * @_N_CLASS + j]) / (1.0~ + diff);\n"
        "                prob[j] /= (1.0~ + diff);\n            }\n        }\n    }\n"
        "    for (i = 1; i < @_N_CLASS; ++i)\n        if (prob[i] > prob[best]) best = i;\n    return @_label[best];\n}\n");
}

/* The header's comment, guard and constants. */
static void gpusvm__cx_head(gpusvm__cx *c, const gpusvm_model *m, int sparse, size_t ndec)
{
    const int kt = (int)m->kernel_type, regression = m->svm_type == GPUSVM_EPSILON_SVR || m->svm_type == GPUSVM_NU_SVR;
    const int prob = !regression && m->svm_type != GPUSVM_ONE_CLASS && m->probA && m->probB && m->nr_class > 1;
    gpusvm__cx_put(c, "/* @: a gpusvm model as C source (gpusvm_model_to_c, gpusvm-export): svm_type ");
    gpusvm__out_str(c->o, gpusvm__svm_type_names[(int)m->svm_type - 1]);
    gpusvm__out_str(c->o, ", kernel ");
    gpusvm__out_str(c->o, gpusvm__kernel_names[kt - 1]);
    gpusvm__out_int(c->o, ",\n   ", m->nr_class);
    gpusvm__out_int(c->o, " class(es), ", (long long)m->total_sv);
    gpusvm__out_int(c->o, " support vectors of ", (long long)m->n_features);
    gpusvm__cx_put(c, sparse ? " features stored sparse; $ arithmetic.\n" : " features stored dense; $ arithmetic.\n");
    gpusvm__cx_put(c, regression ? "   @_predict(x): the predicted value" : "   @_predict(x): the predicted label");
    gpusvm__cx_put(c, ";\n   @_decision(x, dec): the decision values (LIBSVM's order: a pair of classes each, a class each\n"
                      "   for Crammer-Singer, else one)");
    if (prob) gpusvm__cx_put(c, ";\n   @_predict_probability(x, prob): the class probabilities (-b 1)");
    gpusvm__cx_put(c, ".\n   x holds @_N_FEATURES values: x[j] is feature j + 1 of a LIBSVM file (column j of a gpusvm_matrix).\n"
                      "   Allocates nothing, needs no stdio; static scratch (one value a support vector): not reentrant. */\n"
                      "#ifndef @_MODEL_H\n#define @_MODEL_H\n");
    if (kt == GPUSVM_KERNEL_RBF || kt == GPUSVM_KERNEL_SIGMOID || prob) gpusvm__out_str(c->o, "#include <math.h>\n");
    gpusvm__cx_put(c, "#if defined(__GNUC__) || defined(__clang__)\n#define @_FN static __attribute__((unused))\n#else\n"
                      "#define @_FN static\n#endif\n");
    gpusvm__cx_put(c, "#define @_REAL $ /* the arithmetic's and the arrays' type */\n#define @_N_FEATURES ");
    gpusvm__out_int(c->o, "", (long long)m->n_features);
    gpusvm__cx_put(c, "\n#define @_N_SV ");
    gpusvm__out_int(c->o, "", (long long)m->total_sv);
    gpusvm__cx_put(c, "\n#define @_N_CLASS ");
    gpusvm__out_int(c->o, "", m->nr_class);
    gpusvm__cx_put(c, "\n#define @_N_DEC ");
    gpusvm__out_int(c->o, "", (long long)(ndec ? ndec : 1));
    gpusvm__cx_put(c, "\n#define @_GAMMA ");
    gpusvm__cx_real(c, m->gamma);
    gpusvm__cx_put(c, "\n#define @_COEF0 ");
    gpusvm__cx_real(c, m->coef0);
    gpusvm__cx_put(c, "\n#define @_DEGREE ");
    gpusvm__out_int(c->o, "", m->degree);
    gpusvm__out_str(c->o, "\n");
}

/* The arrays: labels and class starts (classification), support vectors, coefficients, rho,
   the pairs' sigmoids. */
static void gpusvm__cx_arrays(gpusvm__cx *c, const gpusvm_model *m, int sparse, size_t ndec)
{
    const char *real = c->dbl ? "double" : "float";
    const size_t ns = m->total_sv, ncoef = m->svm_type == GPUSVM_CRAMMER_SINGER ? (size_t)m->nr_class * ns
                                            : m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC
                                                ? (size_t)(m->nr_class - 1) * ns : ns;
    const int classify = m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC || m->svm_type == GPUSVM_CRAMMER_SINGER;
    if (classify) gpusvm__cx_array(c, "int", "label", (size_t)m->nr_class, gpusvm__cx_label, m, 0);
    if (classify && m->svm_type != GPUSVM_CRAMMER_SINGER) {
        gpusvm__cx_array(c, "int", "first", (size_t)m->nr_class + 1, gpusvm__cx_first, m, 0);
    }
    if (sparse) {
        gpusvm__cx_array(c, "int", "sv_start", ns + 1, gpusvm__cx_start, m, 0);
        gpusvm__cx_array(c, m->n_features <= 65535 ? "unsigned short" : "unsigned int", "sv_col", m->sv_row_ptr[ns],
                         gpusvm__cx_col, m, 0);
        gpusvm__cx_array(c, real, "sv_val", m->sv_row_ptr[ns], gpusvm__cx_val, m, 1);
        if (m->kernel_type == GPUSVM_KERNEL_RBF) gpusvm__cx_array(c, real, "sv_norm", ns, gpusvm__cx_norm, m, 1);
    } else {
        gpusvm__cx_array(c, real, "sv", ns * m->n_features, gpusvm__cx_dense, m, 1);
    }
    gpusvm__cx_array(c, real, "coef", ncoef, gpusvm__cx_coef, m, 1);
    if (m->svm_type != GPUSVM_CRAMMER_SINGER) gpusvm__cx_array(c, real, "rho", ndec, gpusvm__cx_rho, m, 1);
    if (classify && m->svm_type != GPUSVM_CRAMMER_SINGER && m->probA && m->probB && m->nr_class > 1) {
        gpusvm__cx_array(c, real, "probA", ndec, gpusvm__cx_probA, m, 1);
        gpusvm__cx_array(c, real, "probB", ndec, gpusvm__cx_probB, m, 1);
    }
}

/* A C identifier of at most 64 characters. */
static int gpusvm__c_name(const char *s)
{
    size_t i;
    for (i = 0; s[i]; ++i)
        if (!(isalpha((unsigned char)s[i]) || s[i] == '_' || (i > 0 && isdigit((unsigned char)s[i])))) return 0;
    return i > 0 && i <= 64;
}

GPUSVM_API gpusvm_result gpusvm_model_to_c(gpusvm_context *ctx, const gpusvm_model *model, const char *name,
                                           int use_double, char **text, size_t *size)
{
    gpusvm__out o;
    gpusvm__cx c;
    gpusvm_result r;
    size_t ndec;
    int sparse, ovo;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, name, "name")) != GPUSVM_OK || (r = gpusvm__need(ctx, text, "text")) != GPUSVM_OK ||
        (r = gpusvm__need(ctx, size, "size")) != GPUSVM_OK)
        return r;
    *text = NULL;
    *size = 0;
    if ((r = gpusvm__need_model(ctx, model)) != GPUSVM_OK) return r;
    if (!gpusvm__c_name(name))
        return gpusvm__fail(ctx, GPUSVM_ERR_EXPORT, "model export: the name \"%.80s\" is not a C identifier (letters, "
                            "digits and _, not starting with a digit, at most 64)", name);
    if (model->kernel_type == GPUSVM_KERNEL_PRECOMPUTED)
        return gpusvm__fail(ctx, GPUSVM_ERR_EXPORT, "model export: a precomputed-kernel model's kernel values are the "
                            "caller's; it has no support vectors to export");
    ovo = model->svm_type == GPUSVM_C_SVC || model->svm_type == GPUSVM_NU_SVC;
    ndec = model->svm_type == GPUSVM_CRAMMER_SINGER ? (size_t)model->nr_class
           : ovo ? (size_t)model->nr_class * (size_t)(model->nr_class - 1) / 2 : 1;
    sparse = gpusvm__cx_sparse(model, use_double);
    memset(&o, 0, sizeof o);
    o.a = &ctx->alloc;
    o.v.item = 1;
    c.o = &o;
    c.name = name;
    c.dbl = use_double != 0;
    c.not_finite = 0;
    gpusvm__cx_head(&c, model, sparse, ndec);
    gpusvm__cx_arrays(&c, model, sparse, ndec);
    gpusvm__cx_kernel(&c, model, sparse);
    gpusvm__cx_decision(&c, model);
    gpusvm__cx_predict(&c, model);
    if (ovo && model->probA && model->probB && model->nr_class > 1) {
        gpusvm__cx_put(&c, "#define @_PROBABILITY 1 /* @_predict_probability is here */\n");
        gpusvm__cx_probability(&c);
    }
    gpusvm__cx_put(&c, "#endif /* @_MODEL_H */\n");
    if (o.failed || c.not_finite) {
        gpusvm__free(&ctx->alloc, o.v.data);
        if (c.not_finite)
            return gpusvm__fail(ctx, GPUSVM_ERR_EXPORT, "model export: a value (rho, a coefficient, gamma, coef0, "
                                "probA / probB) is not finite in %s, and C has no constant for it%s",
                                c.dbl ? "double" : "float", c.dbl ? "" : " (use_double, -d, keeps doubles)");
        return gpusvm__oom(ctx, "the model's C source");
    }
    *text = (char *)o.v.data;
    *size = o.v.len;
    return GPUSVM_OK;
}
#endif /* GPUSVM_PREDICT_ONLY */

/* >>public ----------------------------------------------------------------- */

GPUSVM_API const char *gpusvm_result_string(gpusvm_result result)
{
    switch (result) {
    case GPUSVM_OK: return "success";
    case GPUSVM_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case GPUSVM_ERROR_OUT_OF_MEMORY: return "out of host memory";
    case GPUSVM_ERROR_NO_DEVICE: return "no usable OpenCL device";
    case GPUSVM_ERROR_OPENCL: return "an OpenCL call failed";
    case GPUSVM_ERROR_BUILD: return "the OpenCL kernels failed to build";
    case GPUSVM_ERROR_DEVICE_MEMORY: return "out of device memory";
    case GPUSVM_ERROR_CANCELLED: return "cancelled";
    case GPUSVM_ERROR_IO: return "file input/output error";
    case GPUSVM_ERROR_PARSE: return "malformed file";
    case GPUSVM_ERROR_UNSUPPORTED: return "not supported in this version";
    default: return "unknown result code";
    }
}

/* Before a context exists, failures can only go to the desc's logger and error text. */
static gpusvm_result gpusvm__early_fail(const gpusvm_context_desc *d, gpusvm_result r, const char *msg)
{
    if (d->logger.fn) d->logger.fn(d->logger.user_data, GPUSVM_LOG_ERROR, msg);
    if (d->error && d->error_size) snprintf(d->error, d->error_size, "%s", msg);
    return r;
}


/* desc.split checked. Every part runs on the C backend (AUTO becomes CPU) unless desc.backend asks
   for OpenCL: then each part holds its share on its own device (gpusvm__split_agree). */
static gpusvm_result gpusvm__resolve_split(gpusvm_context *ctx, gpusvm_context_desc *d)
{
    const gpusvm_split *s = &d->split;
    ctx->split.parts = 1;
    if (s->parts == 0 || s->parts == 1) return s->rank == 0 ? GPUSVM_OK
                                                             : gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD,
                                                                            "desc.split.rank %d without parts", s->rank);
    if (s->parts < 0 || s->parts > GPUSVM__MAX_PARTS || s->rank < 0 || s->rank >= s->parts || !s->allgather)
        return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD,
                            "desc.split: parts %d (2..%d), rank %d (0..parts-1) and an allgather function are needed",
                            s->parts, GPUSVM__MAX_PARTS, s->rank);
    if (d->backend != GPUSVM_BACKEND_OPENCL) d->backend = GPUSVM_BACKEND_CPU;
    ctx->split = *s;
    return GPUSVM_OK;
}

/* What a part's agreement word (gpusvm__split_agree) names. */
static const char *gpusvm__split_kind(int32_t k)
{
    return (k & 0xFF) != GPUSVM_BACKEND_OPENCL ? "the C backend" : (k >> 8) ? "OpenCL with float pairs" : "OpenCL";
}

/* A split context's parts on one kind of backend (the C backend's parts and the OpenCL backend's
   agree on working sets in different ways; OpenCL's with double and with float pairs take
   different steps), each OpenCL part on one device; the device name says which part. */
static gpusvm_result gpusvm__split_agree(gpusvm_context *ctx)
{
    const gpusvm_split *s = &ctx->split;
    /* the backend and, for OpenCL, the arithmetic (double or float pairs: their steps differ) */
    int32_t mine = (int32_t)ctx->kind | (int32_t)(ctx->backend->pairs << 8), *all;
    gpusvm_result r = GPUSVM_OK;
    int k;
    if (ctx->kind == GPUSVM_BACKEND_OPENCL && ctx->backend->devices)
        return gpusvm__fail(ctx, GPUSVM_ERR_SPLIT_MISMATCH, "a part of a split context holds one device, not several");
    if (!(all = (int32_t *)gpusvm__alloc(&ctx->alloc, (size_t)s->parts, sizeof(int32_t))))
        return gpusvm__oom(ctx, "the split context's parts");
    if (s->allgather(s->user, &mine, all, sizeof mine) != 0)
        r = gpusvm__fail(ctx, GPUSVM_ERR_SPLIT_ALLGATHER, "the split context's allgather failed (part %d of %d)", s->rank, s->parts);
    for (k = 0; r == GPUSVM_OK && k < s->parts; ++k)
        if (all[k] != mine)
            r = gpusvm__fail(ctx, GPUSVM_ERR_SPLIT_MISMATCH,
                             "the parts of a split context run on different backends (part %d on %s, part %d on %s; "
                             "GPUSVM_FP64=off puts every OpenCL part on float pairs)",
                             s->rank + 1, gpusvm__split_kind(mine), k + 1, gpusvm__split_kind(all[k]));
    gpusvm__free(&ctx->alloc, all);
    if (r == GPUSVM_OK && ctx->kind == GPUSVM_BACKEND_OPENCL) {
        const size_t n = strlen(ctx->device_name);
        snprintf(ctx->device_name + n, sizeof ctx->device_name - n, " (part %d of %d of a split context)", s->rank + 1,
                 s->parts);
    }
    return r;
}

/* The choices the environment makes for a desc that leaves them open (GPUSVM_BACKEND,
   GPUSVM_DEVICE, GPUSVM_PROFILE, GPUSVM_THREADS, GPUSVM_STORAGE, GPUSVM_FP64, GPUSVM_SUBGROUPS,
   GPUSVM_PROGRAMS, GPUSVM_LANES, GPUSVM_SPREAD, GPUSVM_DEVICE_MEMORY_MB), unless
   desc.ignore_environment. */
/* A GPUSVM_* variable that names one of a few choices (any case). */
typedef struct gpusvm__env_word {
    const char *word;
    int value;
} gpusvm__env_word;

/* The choice $var names among the n words, or fallback where it is unset, empty, "auto" or the
   desc ignores the environment; anything else is said (a warning) and taken as auto, since a
   shipped program must not break on its user's environment. */
static int gpusvm__env_choice(gpusvm_context *ctx, const gpusvm_context_desc *d, const char *var,
                              const gpusvm__env_word *w, int n, int fallback)
{
    const char *env = d->ignore_environment ? NULL : getenv(var);
    char list[128] = "auto";
    size_t at = 4;
    int i;
    if (!env || !*env || gpusvm__ieq(env, "auto")) return fallback;
    for (i = 0; i < n; ++i)
        if (gpusvm__ieq(env, w[i].word)) return w[i].value;
    for (i = 0; i < n && at < sizeof list; ++i)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i == n - 1 ? " or " : ", ", w[i].word);
    gpusvm__log(ctx, GPUSVM_LOG_WARN, "%s='%s' is not %s; using auto", var, env, list);
    return fallback;
}

static const gpusvm__env_word gpusvm__env_backends[] = {{"opencl", GPUSVM_BACKEND_OPENCL}, {"cpu", GPUSVM_BACKEND_CPU}};
static const gpusvm__env_word gpusvm__env_storages[] = {{"dense", GPUSVM_STORAGE_DENSE},
                                                        {"sparse", GPUSVM_STORAGE_SPARSE}};
static const gpusvm__env_word gpusvm__env_fp64[] = {{"on", GPUSVM_FP64_ON}, {"off", GPUSVM_FP64_OFF}};
static const gpusvm__env_word gpusvm__env_subgroups[] = {
    {"ptx", GPUSVM__XC_NV}, {"khr", GPUSVM__XC_KHR}, {"intel", GPUSVM__XC_INTEL}, {"off", GPUSVM__XC_NONE}};
static const gpusvm__env_word gpusvm__env_programs[] = {{"each", 0}, {"one", 1}};
static const gpusvm__env_word gpusvm__env_spread[] = {{"always", 1}};
#define GPUSVM__ENV_CHOICE(ctx, d, var, words, fallback) \
    gpusvm__env_choice(ctx, d, var, words, (int)(sizeof words / sizeof words[0]), fallback)

static gpusvm_result gpusvm__resolve_desc(gpusvm_context *ctx, gpusvm_context_desc *d)
{
    const char *env;
    if (d->backend == GPUSVM_BACKEND_DEFAULT)
        d->backend = (gpusvm_backend)GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_BACKEND", gpusvm__env_backends,
                                                        GPUSVM_BACKEND_AUTO);
    if ((int)d->backend < 0 || d->backend > GPUSVM_BACKEND_CPU)
        return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD, "desc.backend %d is not a gpusvm_backend", (int)d->backend);
    if (!d->device && !d->ignore_environment) {
        env = getenv("GPUSVM_DEVICE");
        if (env && *env) d->device = env;
        ctx->device_from_env = d->device != NULL;
    }
    if (!d->ignore_environment) {
        env = getenv("GPUSVM_PROFILE");
        ctx->profile = env && *env && strcmp(env, "0") != 0;
    }
    if (d->threads < 0) return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD, "desc.threads is negative");
    if (!(d->device_memory_mb >= 0.0 && d->device_memory_mb < 1e12)) /* the environment's is checked below */
        return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD, "desc.device_memory_mb %g: it must be >= 0 (0: all the device has)",
                            d->device_memory_mb);
    ctx->threads = d->threads;
    if (!ctx->threads && !d->ignore_environment && (env = getenv("GPUSVM_THREADS")) != NULL && *env) {
        long long v;
        if (gpusvm__parse_long(env, strlen(env), 0, 1 << 20, &v)) ctx->threads = (int)v;
        else gpusvm__log(ctx, GPUSVM_LOG_WARN, "GPUSVM_THREADS='%s' is not a thread count; using every core", env);
    }
    if (!ctx->threads) ctx->threads = gpusvm__cores();
    if ((int)d->storage < 0 || d->storage > GPUSVM_STORAGE_SPARSE)
        return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD, "desc.storage %d is not a gpusvm_storage", (int)d->storage);
    ctx->storage = d->storage ? d->storage
                              : (gpusvm_storage)GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_STORAGE", gpusvm__env_storages,
                                                                   GPUSVM_STORAGE_AUTO);
    if (ctx->threads > GPUSVM__MAX_THREADS) ctx->threads = GPUSVM__MAX_THREADS;
    if ((int)d->fp64 < 0 || d->fp64 > GPUSVM_FP64_OFF)
        return gpusvm__fail(ctx, GPUSVM_ERR_DESC_FIELD, "desc.fp64 %d is not a gpusvm_fp64", (int)d->fp64);
    ctx->fp64 = d->fp64 ? d->fp64
                        : (gpusvm_fp64)GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_FP64", gpusvm__env_fp64, GPUSVM_FP64_AUTO);
    ctx->subgroups = GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_SUBGROUPS", gpusvm__env_subgroups, -1); /* -1: any */
    ctx->programs = GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_PROGRAMS", gpusvm__env_programs, -1);
    if (!d->ignore_environment && (env = getenv("GPUSVM_LANES")) != NULL && *env) {
        long long v;
        if (gpusvm__parse_long(env, strlen(env), 0, GPUSVM__MAX_LANES, &v) && v >= 1) ctx->lanes = (int)v;
        else gpusvm__log(ctx, GPUSVM_LOG_WARN, "GPUSVM_LANES='%s' is not a count from 1 to %d; using auto", env,
                         GPUSVM__MAX_LANES);
    }
    ctx->spread = GPUSVM__ENV_CHOICE(ctx, d, "GPUSVM_SPREAD", gpusvm__env_spread, 0);
    if (d->device_memory_mb == 0.0 && !d->ignore_environment && (env = getenv("GPUSVM_DEVICE_MEMORY_MB")) != NULL &&
        *env) {
        double v;
        if (gpusvm__parse_double(env, strlen(env), &v) && v >= 0.0 && v < 1e12) d->device_memory_mb = v; /* 0: all */
        else gpusvm__log(ctx, GPUSVM_LOG_WARN, "GPUSVM_DEVICE_MEMORY_MB='%s' is not a size in MB; using all", env);
    }
    ctx->default_alloc = !d->allocator.alloc;
    return gpusvm__resolve_split(ctx, d);
}

/* The kernel cache's folder: desc.kernel_cache_dir, else $GPUSVM_CACHE_DIR ("off": none), else
   the user's cache folder (the default one, used for GPUs and accelerators only). */
static void gpusvm__cache_dir(gpusvm_context *ctx, const gpusvm_context_desc *d)
{
    const char *env, *xdg, *home;
    if (d->kernel_cache_dir) {
        snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", d->kernel_cache_dir);
        ctx->cache_named = 1;
        return;
    }
    if (d->ignore_environment) return;
    env = getenv("GPUSVM_CACHE_DIR");
    xdg = getenv("XDG_CACHE_HOME");
    home = getenv("HOME");
    if (env && *env) {
        if (!gpusvm__ieq(env, "off")) snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", env);
        return;
    }
    ctx->cache_default = 1;
    if (xdg && *xdg) snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s/gpusvm", xdg);
    else if (home && *home) snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s/.cache/gpusvm", home);
#ifdef GPUSVM__WINDOWS
    else if ((env = getenv("LOCALAPPDATA")) && *env) snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s/gpusvm", env);
#endif
    else ctx->cache_default = 0;
}

/* The backends in the order automatic selection tries them. open sets ctx->backend, or leaves it
   NULL with the reason in why; it returns an error only where no fallback may follow. */
typedef gpusvm_result (*gpusvm__backend_open)(gpusvm_context *ctx, const gpusvm_context_desc *d, char *why,
                                              size_t why_size);
typedef struct gpusvm__backend_entry {
    gpusvm_backend kind;
    gpusvm__backend_open open;
} gpusvm__backend_entry;
static const gpusvm__backend_entry gpusvm__backend_order[2] = {{GPUSVM_BACKEND_OPENCL, gpusvm__opencl_open},
                                                               {GPUSVM_BACKEND_CPU, gpusvm__cpu_open}};

/* Tries the backends desc allows, in order, until one opens. */
static gpusvm_result gpusvm__open_backend(gpusvm_context *ctx, const gpusvm_context_desc *d)
{
    char why[sizeof(((gpusvm_context *)0)->error)];
    gpusvm_result r;
    int i;
    for (i = 0; i < 2 && !ctx->backend; ++i) {
        const gpusvm__backend_entry *e = &gpusvm__backend_order[i];
        if (d->backend != GPUSVM_BACKEND_AUTO && d->backend != e->kind) continue;
        why[0] = 0;
        if ((r = e->open(ctx, d, why, sizeof why)) != GPUSVM_OK) return r;
        if (ctx->backend) break;
        if (d->backend == e->kind ||
            (e->kind == GPUSVM_BACKEND_OPENCL &&
             ((d->devices && *d->devices) || (d->device && *d->device && !ctx->device_from_env))))
            return gpusvm__fail(ctx, GPUSVM_ERR_NO_DEVICE, "%s", why);
        gpusvm__log(ctx, GPUSVM_LOG_INFO, "%s; using the built-in C backend", why);
        gpusvm__free(&ctx->alloc, ctx->build_log);
        ctx->build_log = NULL;
    }
    return GPUSVM_OK;
}

GPUSVM_API gpusvm_result gpusvm_context_create(const gpusvm_context_desc *desc, gpusvm_context **out)
{
    gpusvm_context_desc d;
    gpusvm_allocator a;
    gpusvm_context *ctx;
    gpusvm_result r;
    if (!out) return GPUSVM_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    if (d.error && d.error_size) d.error[0] = 0;
    if ((d.allocator.alloc != NULL) != (d.allocator.free != NULL))
        return gpusvm__early_fail(&d, GPUSVM_ERROR_INVALID_ARGUMENT, "desc.allocator: give both alloc and free, or neither");
    a = gpusvm__resolve_allocator(&d.allocator);
    ctx = (gpusvm_context *)gpusvm__calloc(&a, 1, sizeof(gpusvm_context));
    if (!ctx) return gpusvm__early_fail(&d, GPUSVM_ERROR_OUT_OF_MEMORY, "out of host memory creating the context");
    ctx->alloc = a;
    ctx->logger = d.logger;
    if ((r = gpusvm__resolve_desc(ctx, &d)) == GPUSVM_OK) {
        gpusvm__cache_dir(ctx, &d);
        gpusvm__open_lock();
        r = gpusvm__open_backend(ctx, &d);
        gpusvm__open_unlock();
        if (r == GPUSVM_OK && ctx->split.parts > 1) r = gpusvm__split_agree(ctx);
    }
    if (r != GPUSVM_OK) {
        if (d.error && d.error_size)
            snprintf(d.error, d.error_size, "%s", ctx->error[0] ? ctx->error : gpusvm_result_string(r));
        gpusvm_context_destroy(ctx);
        if (r == GPUSVM_ERROR_OUT_OF_MEMORY)
            gpusvm__early_fail(&d, GPUSVM_ERROR_OUT_OF_MEMORY, "out of host memory creating the context");
        return r;
    }
    gpusvm__log(ctx, GPUSVM_LOG_INFO, "device: %s", ctx->device_name);
    if (ctx->kind == GPUSVM_BACKEND_OPENCL)
        gpusvm__log(ctx, GPUSVM_LOG_INFO, "kernel program: %.3f s (%s%s)", ctx->build_seconds,
                    ctx->build_cached ? "from the kernel cache in " : ctx->build_cache_used ? "compiled; cached in " : "compiled",
                    ctx->build_cache_used ? ctx->cache_dir : "");
    *out = ctx;
    return GPUSVM_OK;
}

GPUSVM_API void gpusvm_context_destroy(gpusvm_context *ctx)
{
    gpusvm_allocator a;
    if (!ctx) return;
    a = ctx->alloc;
    gpusvm__open_lock();
    if (ctx->backend) ctx->backend->destroy(ctx->backend);
    gpusvm__open_unlock();
#ifndef GPUSVM_NO_OPENCL
    if (ctx->cl) {
        gpusvm__cl_unload(ctx->cl);
        gpusvm__free(&a, ctx->cl);
    }
#endif
    gpusvm__free(&a, ctx->build_log);
    gpusvm__free(&a, ctx);
}

GPUSVM_API const char *gpusvm_context_device_name(const gpusvm_context *ctx) { return ctx ? ctx->device_name : ""; }
GPUSVM_API gpusvm_backend gpusvm_context_backend(const gpusvm_context *ctx)
{
    return ctx ? ctx->kind : GPUSVM_BACKEND_DEFAULT;
}
GPUSVM_API const char *gpusvm_context_error(const gpusvm_context *ctx) { return ctx ? ctx->error : ""; }
GPUSVM_API gpusvm_error gpusvm_context_error_id(const gpusvm_context *ctx) { return ctx ? ctx->last_id : GPUSVM_ERR_NONE; }
GPUSVM_API gpusvm_result gpusvm_error_result(gpusvm_error id) { return gpusvm__error_result(id); }

GPUSVM_API const char *gpusvm_error_name(gpusvm_error id)
{
    static const char *const names[] = {
#define GPUSVM__ERROR_NAME(id, result, text) "GPUSVM_ERR_" #id,
        GPUSVM__ERRORS(GPUSVM__ERROR_NAME)
#undef GPUSVM__ERROR_NAME
    };
    return (int)id >= 0 && id < GPUSVM_ERR_COUNT ? names[id] : "";
}

GPUSVM_API const char *gpusvm_error_text(gpusvm_error id)
{
    static const char *const texts[] = {
#define GPUSVM__ERROR_TEXT(id, result, text) text,
        GPUSVM__ERRORS(GPUSVM__ERROR_TEXT)
#undef GPUSVM__ERROR_TEXT
    };
    return (int)id >= 0 && id < GPUSVM_ERR_COUNT ? texts[id] : "";
}
GPUSVM_API double gpusvm_context_build_seconds(const gpusvm_context *ctx, int *from_cache)
{
    if (from_cache) *from_cache = ctx ? ctx->build_cached : 0;
    return ctx ? ctx->build_seconds : 0.0;
}
GPUSVM_API const char *gpusvm_context_build_log(const gpusvm_context *ctx)
{
    return (ctx && ctx->build_log) ? ctx->build_log : "";
}

/* What training starts from: the data as CSR (in, freed by the caller whatever the result), y
   checked, the parameters resolved (p) and the labels checked. */
static gpusvm_result gpusvm__train_inputs(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                          const gpusvm_params *params, gpusvm__input *in, gpusvm_params *p)
{
    gpusvm_result r;
    memset(p, 0, sizeof *p);
    memset(in, 0, sizeof *in);
    if ((r = gpusvm__need(ctx, y, "y")) != GPUSVM_OK) return r;
    if ((r = gpusvm__input_make(ctx, x, "the training data", in)) != GPUSVM_OK) return r;
    if (in->m.rows == 0) return gpusvm__fail(ctx, GPUSVM_ERR_NO_ROWS, "the training data has no rows");
    if ((r = gpusvm__check_labels_finite(ctx, y, in->m.rows)) != GPUSVM_OK) return r;
    if ((r = gpusvm__resolve_params(ctx, params, &in->m, p)) != GPUSVM_OK) return r;
    return gpusvm__check_labels(ctx, p, y, in->m.rows);
}

/* A trained model whose numbers overflowed (a kernel parameter far outside the data's scale, as
   gamma 1e308: LIBSVM writes NaN there) is an error, never a model that cannot be saved. */
static int gpusvm__all_finite(const double *v, size_t n)
{
    size_t i;
    for (i = 0; v && i < n; ++i)
        if (!gpusvm__finite_d(v[i])) return 0;
    return 1;
}

static gpusvm_result gpusvm__train_finite(gpusvm_context *ctx, gpusvm_model **out)
{
    char why[256];
    const gpusvm_model *m = *out;
    const double gamma = m->gamma, coef0 = m->coef0;
    const int degree = m->degree;
    const size_t pairs = (size_t)m->nr_class * (size_t)(m->nr_class - 1) / 2, npairs = pairs ? pairs : 1; /* as saved */
    if (gpusvm__check_model(ctx, m) == GPUSVM_OK) {
        if (gpusvm__all_finite(m->probA, npairs) && gpusvm__all_finite(m->probB, npairs) &&
            gpusvm__all_finite(m->prob_density_marks, GPUSVM__NR_MARKS))
            return GPUSVM_OK;
        snprintf(ctx->error, sizeof ctx->error, "probability outputs not finite: targets or a kernel far outside "
                 "the arithmetic's range");
    }
    snprintf(why, sizeof why, "%.200s", ctx->error);
    gpusvm_model_free(*out);
    *out = NULL;
    return gpusvm__fail(ctx, GPUSVM_ERR_NOT_FINITE,
                        "training overflowed (%s): the kernel's parameters (gamma %g, coef0 %g, degree %d) are "
                        "far outside the data's scale",
                        why, gamma, coef0, degree);
}

#ifndef GPUSVM_PREDICT_ONLY
GPUSVM_API gpusvm_result gpusvm_train(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                      const gpusvm_params *params, gpusvm_model **out)
{
    gpusvm__input in;
    gpusvm_params p;
    gpusvm_result r;
    double t0 = gpusvm__now();
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK) return r;
    *out = NULL;
    r = gpusvm__train_inputs(ctx, x, y, params, &in, &p);
    if (r == GPUSVM_OK) r = gpusvm__train_any(ctx, &in.m, y, &p, out, t0);
    if (r == GPUSVM_OK) (*out)->n_columns = in.m.cols;
    if (r == GPUSVM_OK) r = gpusvm__train_finite(ctx, out);
    gpusvm__input_free(ctx, &in);
    return r;
}

GPUSVM_API gpusvm_result gpusvm_check_params(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                             const gpusvm_params *params)
{
    gpusvm__input in;
    gpusvm_params p;
    gpusvm_result r;
    int *label = NULL, k = 0, ci, cj;
    size_t *count = NULL;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    r = gpusvm__train_inputs(ctx, x, y, params, &in, &p);
    if (r == GPUSVM_OK && p.svm_type == GPUSVM_NU_SVC &&
        (r = gpusvm__group(ctx, y, in.m.rows, &label, &count, &k)) == GPUSVM_OK)
        for (ci = 0; ci < k && r == GPUSVM_OK; ++ci)
            for (cj = ci + 1; cj < k && r == GPUSVM_OK; ++cj)
                if (p.nu * (double)(count[ci] + count[cj]) / 2 > (double)(count[ci] < count[cj] ? count[ci] : count[cj]))
                    r = gpusvm__fail(ctx, GPUSVM_ERR_NU_INFEASIBLE,
                                     "specified nu is infeasible (classes %d and %d: nu * %lu / 2 exceeds the smaller "
                                     "class's %lu rows)",
                                     label[ci], label[cj], (unsigned long)(count[ci] + count[cj]),
                                     (unsigned long)(count[ci] < count[cj] ? count[ci] : count[cj]));
    gpusvm__free(&ctx->alloc, label);
    gpusvm__free(&ctx->alloc, count);
    gpusvm__input_free(ctx, &in);
    return r;
}

/* The checks cross-validation's calls share (ctx already checked): outputs given, nr_fold >= 2,
   the data viewed as CSR (in: freed by the caller also on failure), finite labels, some rows;
   *nr_fold lowered to one row a fold, as LIBSVM does. */
static gpusvm_result gpusvm__cv_input(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y, const void *out,
                                      int *nr_fold, gpusvm__input *in)
{
    gpusvm_result r;
    memset(in, 0, sizeof *in);
    if ((r = gpusvm__need(ctx, y, "y")) != GPUSVM_OK || (r = gpusvm__need(ctx, out, "the output")) != GPUSVM_OK) return r;
    if (*nr_fold < 2) return gpusvm__fail(ctx, GPUSVM_ERR_NR_FOLD, "nr_fold %d: it must be >= 2", *nr_fold);
    if ((r = gpusvm__input_make(ctx, x, "the training data", in)) != GPUSVM_OK) return r;
    if ((r = gpusvm__check_labels_finite(ctx, y, in->m.rows)) != GPUSVM_OK) return r;
    if (in->m.rows == 0) return gpusvm__fail(ctx, GPUSVM_ERR_NO_ROWS, "the training data has no rows");
    if ((size_t)*nr_fold > in->m.rows) *nr_fold = (int)in->m.rows; /* LIBSVM: one row per fold */
    return GPUSVM_OK;
}

GPUSVM_API gpusvm_result gpusvm_cross_validation(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                                 const gpusvm_params *params, int nr_fold, double *target)
{
    gpusvm__input in;
    gpusvm_params p;
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    memset(&p, 0, sizeof p);
    r = gpusvm__cv_input(ctx, x, y, target, &nr_fold, &in);
    if (r == GPUSVM_OK) r = gpusvm__resolve_params(ctx, params, &in.m, &p);
    if (r == GPUSVM_OK) r = gpusvm__check_labels(ctx, &p, y, in.m.rows);
    if (r == GPUSVM_OK) r = gpusvm__cross_validation(ctx, &in.m, y, &p, nr_fold, target);
    gpusvm__input_free(ctx, &in);
    return r;
}

/* A point's rate from its folds' predictions t (accuracy in percent; regression: mean squared error). */
static double gpusvm__grid_rate(const gpusvm_params *p, const double *y, size_t l, const double *t)
{
    const int regression = p->svm_type == GPUSVM_EPSILON_SVR || p->svm_type == GPUSVM_NU_SVR;
    double sum = 0.0;
    size_t i;
    for (i = 0; i < l; ++i) sum += regression ? (t[i] - y[i]) * (t[i] - y[i]) : (double)(t[i] == y[i]);
    return regression ? sum / (double)l : 100.0 * sum / (double)l;
}

/* A grid search's jobs (gpusvm__jobs_run): the points in order of falling C (the costly ones
   first, so that the jobs taken last are short), job k taking points k, k + njobs, ... as one
   cross-validation (C-SVC: one batch of every fold at every point of the job; the other types a
   point after another). One job on one device; a job a device on several (C-SVC; the other types
   a point a job); a point a job on a GPU's lanes, where every point's folds train side by side
   with the others' and none waits for the slowest problem of the whole grid. */
typedef struct gpusvm__grid {
    const gpusvm__csr *x;
    const double *y, *C, *gamma;
    gpusvm_params base;
    int nr_fold, nc, ngamma, njobs;
    int *order;        /* the points (gamma index x nc + C index) in the order the jobs take them */
    gpusvm_params *pg; /* each gamma value's parameters, resolved once */
    double *rate;
} gpusvm__grid;

/* The parameters of gamma k, resolved. */
static gpusvm_result gpusvm__grid_params(gpusvm_context *ctx, const gpusvm__grid *g, int k, gpusvm_params *p)
{
    gpusvm_params pk = g->base;
    if (g->gamma) {
        pk.gamma = g->gamma[k];
        pk.gamma_mode = GPUSVM_GAMMA_VALUE;
    }
    return gpusvm__resolve_params(ctx, &pk, g->x, p);
}

/* Job k: the rates of its points from one cross-validation at them. */
static gpusvm_result gpusvm__grid_job(gpusvm_context *ctx, void *arg, int k)
{
    const gpusvm__grid *g = (const gpusvm__grid *)arg;
    const gpusvm_allocator *a = &ctx->alloc;
    const int all = g->ngamma * g->nc, npt = (all - k + g->njobs - 1) / g->njobs;
    const size_t l = g->x->rows;
    gpusvm__point *pts = (gpusvm__point *)gpusvm__alloc(a, (size_t)npt, sizeof(gpusvm__point));
    double *target = (double *)gpusvm__alloc(a, l, (size_t)npt * sizeof(double));
    gpusvm_params p = g->pg[0]; /* the points set C and gamma */
    gpusvm_result r = pts && target ? GPUSVM_OK : gpusvm__oom(ctx, "the grid's predictions");
    int i;
    for (i = 0; i < npt && r == GPUSVM_OK; ++i) {
        const int at = g->order[k + i * g->njobs];
        pts[i].C = g->C ? g->C[at % g->nc] : g->pg[at / g->nc].C;
        pts[i].gamma = g->pg[at / g->nc].gamma;
    }
    if (r == GPUSVM_OK)
        r = gpusvm__cross_validation_at(ctx, g->x, g->y, &p, g->nr_fold, npt, pts, target);
    for (i = 0; i < npt && r == GPUSVM_OK; ++i)
        g->rate[g->order[k + i * g->njobs]] = gpusvm__grid_rate(&p, g->y, l, target + (size_t)i * l);
    gpusvm__free(a, pts);
    gpusvm__free(a, target);
    return r;
}

/* A grid point's variables from which its folds take lanes of their own by default (H200, 5 x 5
   grids of 5 folds, one batch against 8 lanes): below it one batch was as fast or faster
   (svmguide1's 12,360 variables a point 0.61 s against 0.89 s, a9a's first 8,000 rows' 32,000
   1.48-1.58 s against 1.63-1.90 s), above it the lanes (its first 16,000 rows' 64,000 3.37 s
   against 2.82-2.96 s, mnist's first 3,000 rows' 108,000 in ten classes' pairs 0.96 s against
   0.67 s, all of a9a's 130,000 11.1 s against 7.8 s). */
#define GPUSVM__LANE_VARS 49152

/* The lanes a grid's points may take (gpusvm__jobs_lanes), as many as the device's memory holds
   with room to spare (each lane a copy of the points and a working set's rows for every fold); by
   default none where a point's problems are small (GPUSVM__LANE_VARS: the lanes' set-up costs more
   than the one batch waits; GPUSVM_LANES still takes them). */
static int gpusvm__grid_lanes(gpusvm_context *ctx, const gpusvm__grid *g, int npt, int in_turn, double vars)
{
    const gpusvm__backend *b = ctx->backend;
    const size_t l = g->x->rows, nnz = g->x->row_ptr[l], q = (size_t)b->qcap < l ? (size_t)b->qcap : l;
    const double dense = (double)l * (double)g->x->cols * 4.0, sparse = (double)nnz * 8.0 + (double)l * 4.0;
    const double need = 2.0 * ((dense < sparse ? dense : sparse) + (double)g->nr_fold * (double)q * (double)l * 4.0);
    const int most = gpusvm__jobs_lanes(ctx, npt, in_turn);
    const double fit = b->train ? (double)b->train->mem_left((gpusvm__backend *)b) / need : 0.0;
    if (most && !ctx->lanes && vars < GPUSVM__LANE_VARS) return 0;
    return fit < (double)most ? (int)fit : most;
}

/* A grid point's problems: their variables (every fold's training rows, in each of the k - 1 pairs
   a row is in; twice for epsilon-SVR) and kernel-row work (gpusvm__work of its folds' problems), as
   a fold holds (nr_fold - 1) / nr_fold of each class. 0 and 0 when out of memory. */
static void gpusvm__grid_size(gpusvm_context *ctx, const gpusvm__grid *g, double *vars, double *work)
{
    const gpusvm_params *p = &g->pg[0];
    const size_t l = g->x->rows;
    const double f = (double)(l - l / (size_t)g->nr_fold) / (double)l, nf = g->nr_fold;
    int *label = NULL, k = 1, i, j;
    size_t *count = NULL;
    *vars = *work = 0.0;
    if (p->svm_type == GPUSVM_C_SVC || p->svm_type == GPUSVM_NU_SVC) {
        if (gpusvm__group(ctx, g->y, l, &label, &count, &k) != GPUSVM_OK) return;
        for (i = 0; i < k; ++i)
            for (j = i + 1; j < k; ++j) {
                const double rows = f * (double)(count[i] + count[j]);
                *vars += nf * rows;
                *work += nf * rows * rows;
            }
        gpusvm__free(&ctx->alloc, label);
        gpusvm__free(&ctx->alloc, count);
    } else {
        const double rows = f * (double)l, two = p->svm_type == GPUSVM_EPSILON_SVR ? 2.0 : 1.0;
        *vars = nf * two * rows;
        *work = nf * two * rows * rows;
    }
}

/* The points in the order the jobs take them: falling C (ties in the caller's order), each C's
   gamma values in the caller's order. */
static void gpusvm__grid_order(const gpusvm__grid *g, int *order)
{
    int i, j;
    for (i = 0; i < g->nc; ++i) { /* the C indices, by insertion */
        for (j = i; j > 0 && g->C && g->C[order[j - 1]] < g->C[i]; --j) order[j] = order[j - 1];
        order[j] = i;
    }
    for (i = g->nc - 1; i >= 0; --i) { /* spread out from the back: entry i is read before it is written */
        const int c = order[i];
        for (j = g->ngamma - 1; j >= 0; --j) order[i * g->ngamma + j] = j * g->nc + c;
    }
}

GPUSVM_API gpusvm_result gpusvm_grid_search(gpusvm_context *ctx, const gpusvm_matrix *x, const double *y,
                                            const gpusvm_params *params, int nr_fold, const double *C, int nC,
                                            const double *gamma, int ngamma, double *rate)
{
    gpusvm__input in;
    gpusvm__grid g;
    gpusvm_result r;
    int k;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if (nC < 0 || ngamma < 0 || (double)(C && nC > 0 ? nC : 1) * (double)(gamma && ngamma > 0 ? ngamma : 1) > INT_MAX)
        return gpusvm__fail(ctx, GPUSVM_ERR_GRID_VALUE, "nC %d and ngamma %d: each must be >= 0, and their points at most %d",
                            nC, ngamma, INT_MAX);
    for (k = 0; k < (C ? nC : 0); ++k)
        if (!(C[k] > 0.0 && C[k] <= DBL_MAX)) return gpusvm__fail(ctx, GPUSVM_ERR_GRID_VALUE, "C[%d] is not > 0", k);
    for (k = 0; k < (gamma ? ngamma : 0); ++k)
        if (!(gamma[k] > 0.0 && gamma[k] <= DBL_MAX))
            return gpusvm__fail(ctx, GPUSVM_ERR_GRID_VALUE, "gamma[%d] is not > 0", k);
    if ((r = gpusvm__cv_input(ctx, x, y, rate, &nr_fold, &in)) != GPUSVM_OK) {
        gpusvm__input_free(ctx, &in);
        return r;
    }
    memset(&g, 0, sizeof g);
    if (params) g.base = *params;
    g.x = &in.m;
    g.y = y;
    g.nr_fold = nr_fold;
    g.nc = C && nC > 0 ? nC : 1;
    g.C = C && nC > 0 ? C : NULL;
    g.gamma = gamma && ngamma > 0 ? gamma : NULL;
    g.ngamma = g.gamma ? ngamma : 1;
    g.rate = rate;
    g.order = (int *)gpusvm__alloc(&ctx->alloc, (size_t)g.nc * (size_t)g.ngamma, sizeof(int));
    g.pg = (gpusvm_params *)gpusvm__alloc(&ctx->alloc, (size_t)g.ngamma, sizeof(gpusvm_params));
    if (!g.order || !g.pg) r = gpusvm__oom(ctx, "the grid's points");
    for (k = 0; k < g.ngamma && r == GPUSVM_OK; ++k) r = gpusvm__grid_params(ctx, &g, k, &g.pg[k]);
    if (r == GPUSVM_OK && (r = gpusvm__check_labels(ctx, &g.pg[0], y, in.m.rows)) == GPUSVM_OK) {
        const int npt = g.nc * g.ngamma, turn = g.base.progress != NULL;
        double vars, work;
        int ndev, lanes;
        gpusvm__grid_size(ctx, &g, &vars, &work);
        ndev = gpusvm__jobs_devices(ctx, npt, turn, work * npt);
        lanes = ndev ? 0 : gpusvm__grid_lanes(ctx, &g, npt, turn, vars);
        g.njobs = ndev && g.pg[0].svm_type == GPUSVM_C_SVC ? ndev : ndev || lanes >= 2 ? npt : 1;
        gpusvm__grid_order(&g, g.order);
        if (ndev || lanes >= 2)
            gpusvm__log(ctx, GPUSVM_LOG_INFO, "grid: %d points of %d folds, %d job%s on %d %s at once", npt, nr_fold,
                        g.njobs, g.njobs == 1 ? "" : "s", ndev ? ndev : lanes,
                        ndev ? "devices" : "lanes of the device");
        r = gpusvm__jobs_run(ctx, g.njobs, turn, work * npt, lanes, gpusvm__grid_job, &g);
    }
    gpusvm__free(&ctx->alloc, g.order);
    gpusvm__free(&ctx->alloc, g.pg);
    gpusvm__input_free(ctx, &in);
    return r;
}

#endif /* GPUSVM_PREDICT_ONLY */

/* The public predictions: the caller's matrix checked and viewed as CSR, then either output. */
static gpusvm_result gpusvm__predict_checked(gpusvm_context *ctx, const gpusvm_model *model, const gpusvm_matrix *x,
                                             double *labels, double *out, int probability)
{
    gpusvm__input in;
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need_model(ctx, model)) != GPUSVM_OK) return r;
    if (x && x->layout != GPUSVM_LAYOUT_CSR && model->kernel_type != GPUSVM_KERNEL_PRECOMPUTED &&
        x->cols < (model->n_columns > model->n_features ? model->n_columns : model->n_features))
        return gpusvm__fail(ctx, GPUSVM_ERR_MATRIX_NARROW,
                            "the prediction data has %lu columns; the model was trained on %lu (a dense matrix needs at "
                            "least the model's columns; CSR input may have fewer)",
                            (unsigned long)x->cols, (unsigned long)model->n_columns);
    if ((r = gpusvm__input_make(ctx, x, "the prediction data", &in)) != GPUSVM_OK) return r;
    r = probability ? gpusvm__predict_probability(ctx, model, &in.m, labels, out)
                    : gpusvm__predict(ctx, model, &in.m, labels, out);
    gpusvm__input_free(ctx, &in);
    return r;
}

GPUSVM_API gpusvm_result gpusvm_predict(gpusvm_context *ctx, const gpusvm_model *model, const gpusvm_matrix *x,
                                        double *labels, double *decision_values)
{
    return gpusvm__predict_checked(ctx, model, x, labels, decision_values, 0);
}

GPUSVM_API gpusvm_result gpusvm_predict_probability(gpusvm_context *ctx, const gpusvm_model *model,
                                                    const gpusvm_matrix *x, double *labels, double *prob)
{
    return gpusvm__predict_checked(ctx, model, x, labels, prob, 1);
}

GPUSVM_API gpusvm_result gpusvm_model_save(gpusvm_context *ctx, const gpusvm_model *model, const char *path)
{
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, path, "path")) != GPUSVM_OK || (r = gpusvm__need_model(ctx, model)) != GPUSVM_OK) return r;
    return gpusvm__save(ctx, model, path);
}

GPUSVM_API gpusvm_result gpusvm_model_save_buffer(gpusvm_context *ctx, const gpusvm_model *model, char **bytes,
                                                  size_t *size)
{
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, bytes, "bytes")) != GPUSVM_OK || (r = gpusvm__need(ctx, size, "size")) != GPUSVM_OK)
        return r;
    *bytes = NULL;
    *size = 0;
    if ((r = gpusvm__need_model(ctx, model)) != GPUSVM_OK) return r;
    return gpusvm__model_text(ctx, model, bytes, size);
}

GPUSVM_API gpusvm_result gpusvm_write_file(gpusvm_context *ctx, const char *path, const void *bytes, size_t size)
{
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, path, "path")) != GPUSVM_OK || (r = gpusvm__check_bytes(ctx, bytes, size, "bytes")) != GPUSVM_OK)
        return r;
    return gpusvm__write_file(ctx, path, bytes ? bytes : "", size);
}

GPUSVM_API void gpusvm_free(gpusvm_context *ctx, void *p)
{
    if (ctx) gpusvm__free(&ctx->alloc, p);
}

/* A NUL-terminated copy of [bytes, bytes + size), for the parsers. */
static gpusvm_result gpusvm__text_copy(gpusvm_context *ctx, const void *bytes, size_t size, char **out)
{
    gpusvm_result r;
    if ((r = gpusvm__check_bytes(ctx, bytes, size, "bytes")) != GPUSVM_OK) return r;
    if (!(*out = (char *)gpusvm__alloc(&ctx->alloc, size + 1, 1))) return gpusvm__oom(ctx, "a copy of the buffer");
    if (size) memcpy(*out, bytes, size);
    (*out)[size] = 0;
    return GPUSVM_OK;
}

GPUSVM_API gpusvm_result gpusvm_model_load_buffer(gpusvm_context *ctx, const void *bytes, size_t size,
                                                  gpusvm_model **out)
{
    char *text = NULL;
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK) return r;
    *out = NULL;
    if ((r = gpusvm__text_copy(ctx, bytes, size, &text)) != GPUSVM_OK) return r;
    r = gpusvm__parse_model(ctx, "model buffer", text, size, out);
    gpusvm__free(&ctx->alloc, text);
    return r;
}

GPUSVM_API gpusvm_result gpusvm_dataset_read(gpusvm_context *ctx, const gpusvm_data_desc *desc, gpusvm_dataset **out)
{
    char *text = NULL;
    size_t len = 0;
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK) return r;
    *out = NULL;
    if ((r = gpusvm__need(ctx, desc, "desc")) != GPUSVM_OK) return r;
    if ((int)desc->index0 < 0 || desc->index0 > GPUSVM_INDEX0_FEATURE)
        return gpusvm__fail(ctx, GPUSVM_ERR_DATA_DESC_FIELD, "desc.index0 %d is not a gpusvm_index0", (int)desc->index0);
    if (desc->path) r = gpusvm__slurp(ctx, desc->path, &text, &len);
    else if ((r = gpusvm__text_copy(ctx, desc->bytes, desc->size, &text)) == GPUSVM_OK) len = desc->size;
    if (r != GPUSVM_OK) return r;
    r = gpusvm__parse_data(ctx, desc->path ? desc->path : desc->name ? desc->name : "data buffer", desc->index0, text,
                           len, out);
    gpusvm__free(&ctx->alloc, text);
    return r;
}

GPUSVM_API gpusvm_result gpusvm_dataset_parse(gpusvm_context *ctx, const void *bytes, size_t size, const char *name,
                                              gpusvm_dataset **out)
{
    gpusvm_data_desc d;
    memset(&d, 0, sizeof d);
    d.bytes = bytes;
    d.size = size;
    d.name = name;
    return gpusvm_dataset_read(ctx, &d, out);
}

GPUSVM_API gpusvm_result gpusvm_model_load(gpusvm_context *ctx, const char *path, gpusvm_model **out)
{
    gpusvm_result r;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK) return r;
    *out = NULL;
    if ((r = gpusvm__need(ctx, path, "path")) != GPUSVM_OK) return r;
    return gpusvm__load_model(ctx, path, out);
}

/* *dst := a copy of n elements of size bytes at src (NULL stays NULL); 0 when out of memory. */
static int gpusvm__dup(const gpusvm_allocator *a, void **dst, const void *src, size_t n, size_t size)
{
    *dst = NULL;
    if (!src) return 1;
    if (!(*dst = gpusvm__alloc(a, n ? n : 1, size))) return 0;
    memcpy(*dst, src, n * size);
    return 1;
}

GPUSVM_API gpusvm_result gpusvm_model_copy(gpusvm_context *ctx, const gpusvm_model *m, gpusvm_model **out)
{
    const gpusvm_allocator *a;
    size_t npairs, ncoef, nnz, nprob;
    gpusvm_model *c;
    gpusvm_result r;
    int ok;
    if (!gpusvm__enter(ctx)) return GPUSVM_ERROR_INVALID_ARGUMENT;
    if ((r = gpusvm__need(ctx, out, "out")) != GPUSVM_OK) return r;
    *out = NULL;
    if ((r = gpusvm__need_model(ctx, m)) != GPUSVM_OK) return r;
    a = &ctx->alloc;
    npairs = (size_t)m->nr_class * (size_t)(m->nr_class - 1) / 2;
    ncoef = (m->svm_type == GPUSVM_CRAMMER_SINGER ? (size_t)m->nr_class : m->nr_class > 1 ? (size_t)(m->nr_class - 1) : 1) *
            m->total_sv;
    nnz = m->sv_row_ptr[m->total_sv];
    nprob = m->svm_type == GPUSVM_EPSILON_SVR || m->svm_type == GPUSVM_NU_SVR ? 1 : npairs;
    if (!(c = (gpusvm_model *)gpusvm__alloc(a, 1, sizeof *c))) return gpusvm__oom(ctx, "the model copy");
    *c = *m;
    c->allocator = *a;
    ok = gpusvm__dup(a, (void **)&c->label, m->label, (size_t)m->nr_class, sizeof(int)) &
         gpusvm__dup(a, (void **)&c->n_sv, m->n_sv, (size_t)m->nr_class, sizeof(int)) &
         gpusvm__dup(a, (void **)&c->rho, m->rho, npairs ? npairs : 1, sizeof(double)) &
         gpusvm__dup(a, (void **)&c->sv_coef, m->sv_coef, ncoef, sizeof(double)) &
         gpusvm__dup(a, (void **)&c->sv_row_ptr, m->sv_row_ptr, m->total_sv + 1, sizeof(size_t)) &
         gpusvm__dup(a, (void **)&c->sv_col_idx, m->sv_col_idx, nnz, sizeof(int32_t)) &
         gpusvm__dup(a, (void **)&c->sv_values, m->sv_values, nnz, sizeof(float)) &
         gpusvm__dup(a, (void **)&c->sv_norms, m->sv_norms, m->total_sv, sizeof(float)) &
         gpusvm__dup(a, (void **)&c->sv_indices, m->sv_indices, m->total_sv, sizeof(size_t)) &
         gpusvm__dup(a, (void **)&c->pair_info, m->pair_info, npairs ? npairs : 1, sizeof(gpusvm_train_info)) &
         gpusvm__dup(a, (void **)&c->probA, m->probA, nprob, sizeof(double)) &
         gpusvm__dup(a, (void **)&c->probB, m->probB, nprob, sizeof(double)) &
         gpusvm__dup(a, (void **)&c->prob_density_marks, m->prob_density_marks, GPUSVM__NR_MARKS, sizeof(double));
    if (!ok) {
        gpusvm_model_free(c);
        return gpusvm__oom(ctx, "the model copy");
    }
    *out = c;
    return GPUSVM_OK;
}

GPUSVM_API gpusvm_result gpusvm_model_linear_weights(const gpusvm_model *m, int decision, double *w, size_t n,
                                                     double *bias)
{
    const int cs = m && m->svm_type == GPUSVM_CRAMMER_SINGER;
    const int ovo = m && (m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC);
    size_t ns, s, k, from = 0;
    int ci = 0, cj = 1, p, c;
    if (!m || gpusvm__check_model(NULL, m) != GPUSVM_OK || (!w && n) || m->kernel_type != GPUSVM_KERNEL_LINEAR ||
        decision < 0 ||
        decision >= (cs ? m->nr_class : ovo ? m->nr_class * (m->nr_class - 1) / 2 : 1))
        return GPUSVM_ERROR_INVALID_ARGUMENT;
    ns = m->total_sv;
    for (p = 0; ovo && p < decision; ++p) /* pair `decision` is (ci, cj) */
        if (++cj == m->nr_class) cj = ++ci + 1;
    for (k = 0; k < n; ++k) w[k] = 0.0;
    for (s = 0, c = 0; s < ns; ++s) {
        double a;
        while (ovo && c < m->nr_class && s >= from + (size_t)m->n_sv[c]) from += (size_t)m->n_sv[c++]; /* s's class */
        /* its coefficient in this decision function (gpusvm__dec_coef's layout) */
        a = cs ? m->sv_coef[(size_t)decision * ns + s]
            : !ovo ? m->sv_coef[s]
            : c == ci ? m->sv_coef[(size_t)(cj - 1) * ns + s]
            : c == cj ? m->sv_coef[(size_t)ci * ns + s] : 0.0;
        if (a != 0.0)
            for (k = m->sv_row_ptr[s]; k < m->sv_row_ptr[s + 1]; ++k)
                if ((size_t)m->sv_col_idx[k] < n) w[m->sv_col_idx[k]] += a * (double)m->sv_values[k];
    }
    if (bias) *bias = cs ? 0.0 : -m->rho[decision];
    return GPUSVM_OK;
}

GPUSVM_API size_t gpusvm_model_decision_count(const gpusvm_model *model)
{
    return model ? gpusvm__model_ndec(model) : 0;
}

GPUSVM_API void gpusvm_model_free(gpusvm_model *m)
{
    gpusvm_allocator a;
    if (!m) return;
    a = m->allocator;
    gpusvm__free(&a, m->label);
    gpusvm__free(&a, m->n_sv);
    gpusvm__free(&a, m->rho);
    gpusvm__free(&a, m->sv_coef);
    gpusvm__free(&a, m->sv_row_ptr);
    gpusvm__free(&a, m->sv_col_idx);
    gpusvm__free(&a, m->sv_values);
    gpusvm__free(&a, m->sv_norms);
    gpusvm__free(&a, m->sv_indices);
    gpusvm__free(&a, m->pair_info);
    gpusvm__free(&a, m->probA);
    gpusvm__free(&a, m->probB);
    gpusvm__free(&a, m->prob_density_marks);
    gpusvm__free(&a, m);
}

GPUSVM_API gpusvm_result gpusvm_dataset_load(gpusvm_context *ctx, const char *path, gpusvm_dataset **out)
{
    gpusvm_data_desc d;
    memset(&d, 0, sizeof d);
    d.path = path;
    if (!path && out) *out = NULL;
    if (!path && gpusvm__enter(ctx)) return gpusvm__fail(ctx, GPUSVM_ERR_NULL_ARGUMENT, "path is NULL");
    return gpusvm_dataset_read(ctx, &d, out);
}

GPUSVM_API void gpusvm_dataset_free(gpusvm_dataset *ds)
{
    gpusvm_allocator a;
    if (!ds) return;
    a = ds->allocator;
    gpusvm__free(&a, ds->y);
    gpusvm__free(&a, ds->row_ptr);
    gpusvm__free(&a, ds->col_idx);
    gpusvm__free(&a, ds->values);
    gpusvm__free(&a, ds->serial);
    gpusvm__free(&a, ds->line);
    gpusvm__free(&a, ds);
}

/* >>kernels ---------------------------------------------------------------- */
/* Generated from kernels/ by tools/embed_kernels.c ('make kernels'); do not edit. The OpenCL
   backend reaches it through gpusvm__kernel_lines(). */
#ifndef GPUSVM_NO_OPENCL
// >>kernels
static const char *const gpusvm__kernel_source[] = {
    "#line 1 \"kernels/00_shared.h\"\n",
    "/* gpusvm: the definitions the host and the kernels share, valid as C and as\n",
    " * OpenCL C. tools/embed_kernels.c pastes this file into the kernel program\n",
    " * (before the .cl files) and into gpusvm.h's implementation (the block marked\n",
    " * \">>shared\"), so each fact below is written once.\n",
    " *\n",
    " * Tunables are #ifndef defaults: the host passes its own values to the\n",
    " * kernel build as -D options from one table (gpusvm__ocl_options), and the\n",
    " * values here are what the host uses itself. */\n",
    "#ifndef GPUSVM__SHARED_H\n",
    "#define GPUSVM__SHARED_H\n",
    "\n",
    "/* ---- tunables ---------------------------------------------------------- */\n",
    "#ifndef GPUSVM__Q\n",
    "#define GPUSVM__Q 1024 /* working-set capacity: the largest working set (power of two) */\n",
    "#endif\n",
    "#ifndef GPUSVM__L\n",
    "#define GPUSVM__L 256 /* local size of the single-work-group kernels (power of two) */\n",
    "#endif\n",
    "#if GPUSVM__L > 256 /* 512 and 1024 built but trained other models (seen on an H100): not supported */\n",
    "#error \"GPUSVM__L is at most 256\"\n",
    "#endif\n",
    "#ifndef GPUSVM__SMO_L\n",
    "#define GPUSVM__SMO_L GPUSVM__L /* local size of gpusvm_smo (the host passes its choice: gpusvm__ocl_smo_l) */\n",
    "#endif\n",
    "#ifndef GPUSVM__SMO_WIDE\n",
    "#define GPUSVM__SMO_WIDE 512 /* gpusvm_smo's local size with warp exchanges (at most 1024: 32 warps) */\n",
    "#endif\n",
    "#ifndef GPUSVM__CS_L\n",
    "#define GPUSVM__CS_L 256 /* local size of gpusvm_cs_solve (power of two) */\n",
    "#endif\n",
    "#define GPUSVM__CS_RESP_CLASSES 4 /* classes per work-item of gpusvm_cs_resp */\n",
    "#define GPUSVM__KEYS_WI 4         /* variables per work-item of gpusvm_keys */\n",
    "/* gpusvm_rows_tiled: a work-group of TILE_WI x TILE_WI work-items computes a TILE x TILE block\n",
    " * (rows of the index set x points), each work-item TILE_ACC x TILE_ACC of it (TILE / TILE_WI),\n",
    " * staging FEAT_CHUNK features at a time; every feature count is padded to a multiple of it */\n",
    "#define GPUSVM__TILE_WI 16\n",
    "#define GPUSVM__TILE 128\n",
    "#define GPUSVM__TILE_ACC 8\n",
    "#define GPUSVM__FEAT_CHUNK 16\n",
    "#define GPUSVM__FEW 8          /* at most this many rows: gpusvm_rows_few */\n",
    "#define GPUSVM__FEW_L 256      /* gpusvm_rows_few's work-group: one point per work-item */\n",
    "#define GPUSVM__FEW_FEAT 256   /* gpusvm_rows_few: features staged per chunk */\n",
    "#define GPUSVM__FEW_AHEAD 32   /* gpusvm_rows_few: features loaded ahead */\n",
    "#define GPUSVM__NARROW_D 32    /* gpusvm_rows_narrow: at most this many (padded) features */\n",
    "#ifndef GPUSVM__NARROW_ROWS\n",
    "#define GPUSVM__NARROW_ROWS 128 /* gpusvm_rows_narrow: rows per work-group (a power of 2, at least 4) */\n",
    "#endif\n",
    "#define GPUSVM__NARROW_L 256   /* gpusvm_rows_narrow's work-group: one point per work-item */\n",
    "/* gpusvm_rows_narrow's local memory with nr rows a work-group: their features and row data; the\n",
    " * host halves GPUSVM__NARROW_ROWS to fit the device */\n",
    "#define GPUSVM__NAR_LOCAL(nr) ((size_t)(nr) * (4 * GPUSVM__NARROW_D + 12))\n",
    "#define GPUSVM__PITCH 64 /* point pitch of the column-major copies and of kernel rows: a multiple of this */\n",
    "#define GPUSVM__COPY_L 64 /* work-group of the copy kernels (gpusvm_gather_ws, gpusvm_scatter, gpusvm_fill) */\n",
    "#define GPUSVM__SPARSE_L 256     /* gpusvm_rows_sparse's work-group */\n",
    "#define GPUSVM__SPARSE_LANES 8   /* gpusvm_rows_sparse: work-items per point */\n",
    "#define GPUSVM__SPARSE_ROWS 8    /* gpusvm_rows_sparse: rows per work-group */\n",
    "#ifndef GPUSVM__SPARSE_BLOCKS\n",
    "#define GPUSVM__SPARSE_BLOCKS 16 /* gpusvm_rows_sparse: blocks of SPARSE_L / SPARSE_LANES points per work-group */\n",
    "#endif\n",
    "#define GPUSVM__SPARSE_AHEAD 4   /* gpusvm_rows_sparse: nonzeros a work-item loads ahead */\n",
    "#ifndef GPUSVM__SPARSE_HASH_LOG\n",
    "#define GPUSVM__SPARSE_HASH_LOG 10 /* gpusvm_rows_sparse: 2^this slots in the rows' hash table in local memory */\n",
    "#endif\n",
    "#define GPUSVM__SPARSE_HASH (1 << GPUSVM__SPARSE_HASH_LOG)\n",
    "#define GPUSVM__SPARSE_ENTRIES (GPUSVM__SPARSE_HASH / 2) /* row entries per pass (the table at most half full) */\n",
    "#define GPUSVM__SPARSE_SUM_ROWS 2 /* without warp exchanges: rows per step of the lanes' sums */\n",
    "/* gpusvm_rows_sparse's local memory with 2^sh_log slots: the table's keys and values, and (without\n",
    " * warp exchanges) GPUSVM__SPARSE_SUM_ROWS rows of the lanes' sums in double; the host lowers\n",
    " * GPUSVM__SPARSE_HASH_LOG to fit the device */\n",
    "#define GPUSVM__SP_LOCAL(sh_log) \\\n",
    "    ((4 + 4 * GPUSVM__SPARSE_ROWS) * ((size_t)1 << (sh_log)) + GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS * 8)\n",
    "/* gpusvm_smo's local memory: per working-set position (up to GPUSVM__Q) its published alpha,\n",
    " * gradient and bound (wide words of 8 bytes), diagonal and i-row value (floats) and label (a\n",
    " * char); per work-item of the reductions without warp exchanges four scores of at most 8 bytes\n",
    " * and two indices (with them, at most 52 bytes a warp, 1664 in all, within GPUSVM__SMO_SPARE and\n",
    " * the work-items' bytes). The host halves GPUSVM__Q until GPUSVM__SMO_LOCAL fits the device;\n",
    " * part 3 checks its arrays against these sizes when it compiles. */\n",
    "#define GPUSVM__SMO_POS_BYTES (3 * 8 + 2 * 4 + 1)\n",
    "#define GPUSVM__SMO_ITEM_BYTES (4 * 8 + 2 * 4)\n",
    "#define GPUSVM__SMO_SPARE 1024\n",
    "#define GPUSVM__SMO_LOCAL(q) \\\n",
    "    ((size_t)(q) * GPUSVM__SMO_POS_BYTES + (size_t)GPUSVM__L * GPUSVM__SMO_ITEM_BYTES + GPUSVM__SMO_SPARE)\n",
    "/* The selection's radix passes count digits into GPUSVM__SEL_BINS bins; one selection's scratch\n",
    " * (gpusvm_sel_scratch, part 2: the bins and seven words) is GPUSVM__SEL_SCRATCH bytes, in local\n",
    " * memory, or one per problem in global memory for the selection over the grid. */\n",
    "#define GPUSVM__SEL_BINS 2048\n",
    "#define GPUSVM__SEL_SCRATCH ((GPUSVM__SEL_BINS + 7) * 4)\n",
    "/* gpusvm_cs_solve's local memory for working-set size q and m classes: the q x q block of kernel\n",
    " * values (floats, kws); the set's responses (q x m wide words, cws); and scr, wide words:\n",
    " * GPUSVM__CS_SCR_ROWS rows of m (D, D - Ub, Ub, alpha, the step, the candidates' theta, the\n",
    " * violation's terms), the set's alpha (q x m), its points' bounds, diagonals and classes (q each);\n",
    " * beside them its own list of the set's points (GPUSVM__Q ints). */\n",
    "#define GPUSVM__CS_SCR_ROWS 7\n",
    "#define GPUSVM__CS_KWS_BYTES(q) ((size_t)(q) * (size_t)(q) * 4)\n",
    "#define GPUSVM__CS_CWS_BYTES(q, m) ((size_t)(q) * (size_t)(m) * 8)\n",
    "#define GPUSVM__CS_SCR_BYTES(q, m) (((size_t)(GPUSVM__CS_SCR_ROWS + (q)) * (size_t)(m) + 3 * (size_t)(q)) * 8)\n",
    "#define GPUSVM__CS_LOCAL(q, m) \\\n",
    "    (GPUSVM__CS_KWS_BYTES(q) + GPUSVM__CS_CWS_BYTES(q, m) + GPUSVM__CS_SCR_BYTES(q, m) + (size_t)GPUSVM__Q * 4)\n",
    "\n",
    "/* ---- kernel types, as LIBSVM's -t option (the public enum minus one) ---- */\n",
    "#define GPUSVM__K_LINEAR 0\n",
    "#define GPUSVM__K_POLY 1\n",
    "#define GPUSVM__K_RBF 2\n",
    "#define GPUSVM__K_SIGMOID 3\n",
    "#define GPUSVM__K_PRECOMPUTED 4\n",
    "\n",
    "/* ---- the status vector: GPUSVM__ST_COUNT doubles per problem ------------ */\n",
    "#define GPUSVM__ST_GAP 0   /* m(alpha) - M(alpha) of the last selection */\n",
    "#define GPUSVM__ST_DONE 1  /* one of GPUSVM__DONE_* */\n",
    "#define GPUSVM__ST_ITER 2  /* SMO pair updates so far (LIBSVM's #iter) */\n",
    "#define GPUSVM__ST_OUTER 3 /* outer iterations so far */\n",
    "#define GPUSVM__ST_MUP 4   /* max of -y*G over I_up */\n",
    "#define GPUSVM__ST_MLOW 5  /* min of -y*G over I_low */\n",
    "#define GPUSVM__ST_INNER 6 /* pair updates of the last inner solve */\n",
    "#define GPUSVM__ST_COUNT 8\n",
    "/* Crammer-Singer (kernels part 5) keeps GAP (the relative duality gap), DONE, ITER (block steps\n",
    " * that moved) and OUTER, and uses the rest for its own: */\n",
    "#define GPUSVM__ST_CS_P 4     /* the primal objective */\n",
    "#define GPUSVM__ST_CS_D 5     /* the dual objective */\n",
    "#define GPUSVM__ST_CS_Q 6     /* points in the current working set */\n",
    "#define GPUSVM__ST_CS_MOVED 7 /* working-set points whose coefficients the last sweeps changed */\n",
    "\n",
    "/* ---- Crammer-Singer's problem table: GPUSVM__CI_COUNT ints per problem ---\n",
    " * A batch (cross-validation folds) shares the points as the binary batches do (part 0's\n",
    " * problem table gives each one's map, rows and row list); per-point arrays (classes, bounds,\n",
    " * diagonal, the cache's map) are the problems' concatenated, alpha and c too (n x m each). */\n",
    "#define GPUSVM__CI_VAR 0 /* its first point in the per-point arrays */\n",
    "#define GPUSVM__CI_N 1   /* its points */\n",
    "#define GPUSVM__CI_M 2   /* its classes */\n",
    "#define GPUSVM__CI_A 3   /* its first coefficient in alpha and c */\n",
    "#define GPUSVM__CI_COUNT 4\n",
    "\n",
    "/* GPUSVM__ST_DONE: every kernel skips a problem that is not running */\n",
    "#define GPUSVM__DONE_RUNNING 0\n",
    "#define GPUSVM__DONE_CONVERGED 1 /* the gap fell below eps */\n",
    "#define GPUSVM__DONE_MAX_ITER 2  /* max_iter pair updates reached */\n",
    "#define GPUSVM__DONE_STALLED 3   /* stopped by the host: no progress */\n",
    "/* The stopping rule (LIBSVM's, and Crammer-Singer's on its relative gap): converged once the gap\n",
    " * is not >= eps (a NaN gap stops too), else out of pair updates once iter >= max_iter, else\n",
    " * running. ge(a, b) is a >= b in the caller's arithmetic (GPUSVM__GE: double on the host; the\n",
    " * kernels' wide words, double or float pairs). */\n",
    "#define GPUSVM__STOP_RULE(ge, gap, eps, iter, max_iter)                                              \\\n",
    "    (!ge(gap, eps) ? GPUSVM__DONE_CONVERGED : ge(iter, max_iter) ? GPUSVM__DONE_MAX_ITER : GPUSVM__DONE_RUNNING)\n",
    "#define GPUSVM__GE(a, b) ((a) >= (b))\n",
    "\n",
    "/* ---- the problem table of a batch: GPUSVM__PI_COUNT ints per problem -----\n",
    " * A batch: binary problems that share one uploaded set of points and are\n",
    " * solved together, one work-group (or one slice of the grid) per problem in\n",
    " * every launch. Per-variable arrays (alpha, G, y, C, the diagonal, the keys)\n",
    " * are the problems' concatenated; problem p's working set sits at p * qmax,\n",
    " * its kernel rows in slots p * qmax .., its partials at p * 2 * nparts_max,\n",
    " * its status at p * GPUSVM__ST_COUNT. */\n",
    "#define GPUSVM__PI_VAR 0    /* its first variable in the concatenated arrays */\n",
    "#define GPUSVM__PI_NVAR 1   /* its variables */\n",
    "#define GPUSVM__PI_PT 2     /* its first point in the map */\n",
    "#define GPUSVM__PI_NPTS 3   /* its points: the columns of its kernel rows */\n",
    "#define GPUSVM__PI_Q 4      /* its working-set size */\n",
    "#define GPUSVM__PI_WHOLE 5  /* 1: the working set is every variable */\n",
    "#define GPUSVM__PI_NPARTS 6 /* work-groups of gpusvm_keys over its variables */\n",
    "#define GPUSVM__PI_SPLIT 7  /* variables from here on are the points again */\n",
    "#define GPUSVM__PI_LO 8     /* its points [LO, HI) are this device's share: only their variables are */\n",
    "#define GPUSVM__PI_HI 9     /* candidates (a problem split by rows; else 0 and NPTS) */\n",
    "#define GPUSVM__PI_GAMMA 10 /* its kernel's gamma, the float's bits (a grid's problems differ in it) */\n",
    "#define GPUSVM__PI_COUNT 11\n",
    "\n",
    "/* ---- the sides of a selection (kernels part 2's gpusvm_select) ------------\n",
    " * Side s takes, from I_up or I_low (LOW), of one class or any (CLS: +1, -1, 0),\n",
    " * the most violating points not yet chosen until UPTO of the fresh ones are:\n",
    " * without nu I_up, I_low, I_up again; with nu I_up and I_low of y = +1, then of\n",
    " * y = -1, then of either class. (The host's merge of a split problem too.) */\n",
    "#define GPUSVM__SIDES(nu) ((nu) ? 6 : 3)\n",
    "#define GPUSVM__SIDE_LOW(s, nu) ((nu) ? ((s) & 1) : ((s) == 1))\n",
    "#define GPUSVM__SIDE_CLS(s, nu) ((!(nu) || (s) >= 4) ? 0 : ((s) < 2 ? 1 : -1))\n",
    "#define GPUSVM__SIDE_UPTO(s, nu, fresh) \\\n",
    "    (!(nu) ? ((s) == 0 ? (fresh) / 2 : (fresh)) : ((s) < 4 ? ((s) + 1) * (fresh) / 4 : (fresh)))\n",
    "\n",
    "/* ---- a split problem's report (kernels part 2's gpusvm_cands) -------------\n",
    " * A problem split by rows across devices or processes: each holds the gradient of\n",
    " * its share of the points only, so each reports, in 64-bit words, its status row;\n",
    " * m and M per class over its share (up 0, up 1, low 0, low 1); the working set's\n",
    " * variables, slots and, where its share holds them, gradients (q words each); then\n",
    " * GPUSVM__CO_LISTS lists of candidates, each a count and up to q composite keys\n",
    " * (key << 32 | variable) with their gradients: I_up and I_low (with nu: of y = +1,\n",
    " * then of y = -1), each the q - h smallest of its share, where h is the half kept.\n",
    " * The host merges every part's report into the working set one device chooses. */\n",
    "#define GPUSVM__CO_ENDS GPUSVM__ST_COUNT\n",
    "#define GPUSVM__CO_IDX (GPUSVM__CO_ENDS + 4)\n",
    "#define GPUSVM__CO_SLOT(q) (GPUSVM__CO_IDX + (q))\n",
    "#define GPUSVM__CO_G(q) (GPUSVM__CO_IDX + 2 * (q))\n",
    "#define GPUSVM__CO_LISTS 4\n",
    "#define GPUSVM__CO_LIST(q, l) (GPUSVM__CO_IDX + 3 * (q) + (l) * (1 + 2 * (q)))\n",
    "#define GPUSVM__CO_WORDS(q) GPUSVM__CO_LIST(q, GPUSVM__CO_LISTS)\n",
    "/* list l of a report: its keys (1: I_low), its class (0: any); how many lists */\n",
    "#define GPUSVM__CO_NLISTS(nu) ((nu) ? 4 : 2)\n",
    "#define GPUSVM__CO_LOW(l) ((l) & 1)\n",
    "#define GPUSVM__CO_CLS(l, nu) ((nu) ? ((l) < 2 ? 1 : -1) : 0)\n",
    "\n",
    "/* The row cache's state of a problem (kernels part 1c): these words, then each slot's owner,\n",
    " * then the round that last used each slot. */\n",
    "#define GPUSVM__RC_HAND 0     /* the next slot a miss may take */\n",
    "#define GPUSVM__RC_REUSED 1   /* new working-set rows found held, so far */\n",
    "#define GPUSVM__RC_COMPUTED 2 /* rows computed, so far */\n",
    "#define GPUSVM__RC_ROUND 3    /* the last round */\n",
    "#define GPUSVM__RC_HEAD 4\n",
    "\n",
    "/* \"no candidate\" sort key: larger than every real key */\n",
    "#define GPUSVM__KEY_NONE 0xFFFFFFFFu\n",
    "/* LIBSVM's tau: the curvature used where the kernel is not positive definite */\n",
    "#define GPUSVM__TAU 1e-12\n",
    "\n",
    "/* The point a variable stands for: epsilon-SVR has two variables per point\n",
    " * (alpha and alpha*), 0..npts-1 and npts..2*npts-1; every other problem one. */\n",
    "#ifdef __OPENCL_VERSION__\n",
    "#define GPUSVM__IDX int\n",
    "#else\n",
    "#define GPUSVM__IDX size_t\n",
    "#endif\n",
    "#define GPUSVM__PT(v, npts) \\\n",
    "    ((GPUSVM__IDX)(v) >= (GPUSVM__IDX)(npts) ? (GPUSVM__IDX)(v) - (GPUSVM__IDX)(npts) : (GPUSVM__IDX)(v))\n",
    "\n",
    "/* ---- the kernels and their arguments ------------------------------------\n",
    " * GPUSVM__KERNELS: every kernel of the program, the work-group size it needs,\n",
    " * its argument list, and its part: the kernels of a part are built together as\n",
    " * one program (kernels part 0: GPUSVM_K_<part> guards their definitions), the\n",
    " * copies and each step's family, which always run together.\n",
    " * GPUSVM__ARGS_*: each kernel's parameters, as\n",
    " * X_(kernel, type, name) separated by S_(). The kernels declare their\n",
    " * parameters from these lists; the host names each argument slot from the\n",
    " * same list (GPUSVM__A_ROWS_K, ...) and checks each kernel's argument count\n",
    " * when it builds the program. */\n",
    "#define GPUSVM__KERNELS(X)                                                                              \\\n",
    "    X(ROWS, \"gpusvm_rows_tiled\", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS, ROWS)                                      \\\n",
    "    X(ROWS_FEW, \"gpusvm_rows_few\", GPUSVM__FEW_L, ROWS, ROWS_FEW)                                          \\\n",
    "    X(ROWS_NARROW, \"gpusvm_rows_narrow\", GPUSVM__NARROW_L, ROWS, ROWS_NARROW)                                    \\\n",
    "    X(ROWS_SPARSE, \"gpusvm_rows_sparse\", GPUSVM__SPARSE_L, ROWS_SPARSE, ROWS_SPARSE)                             \\\n",
    "    X(ROW_CACHE, \"gpusvm_row_cache\", GPUSVM__L, ROW_CACHE, ROW_CACHE)                                      \\\n",
    "    X(GATHER_WS, \"gpusvm_gather_ws\", GPUSVM__COPY_L, GATHER_WS, COPY)                                      \\\n",
    "    X(SCATTER, \"gpusvm_scatter\", GPUSVM__COPY_L, SCATTER, COPY)                                            \\\n",
    "    X(FILL, \"gpusvm_fill\", GPUSVM__COPY_L, FILL, COPY)                                                     \\\n",
    "    X(KEYS, \"gpusvm_keys\", GPUSVM__L, KEYS, KEYS) X(SELECT, \"gpusvm_select\", GPUSVM__L, SELECT, SELECT)    \\\n",
    "    X(CHECK, \"gpusvm_check\", GPUSVM__L, SELECT, CHECK)                                                     \\\n",
    "    X(SEL_HIST, \"gpusvm_sel_hist\", GPUSVM__L, SEL, SEL) X(SEL_TIES, \"gpusvm_sel_ties\", GPUSVM__L, SEL, SEL) \\\n",
    "    X(SEL_TAKE, \"gpusvm_sel_take\", GPUSVM__L, SEL, SEL)                                                    \\\n",
    "    X(GATHER, \"gpusvm_gather_block\", GPUSVM__L, GATHER, COPY) X(SMO, \"gpusvm_smo\", GPUSVM__L, SMO, SMO)    \\\n",
    "    X(UPDATE, \"gpusvm_update\", GPUSVM__L, UPDATE, UPDATE)                                                  \\\n",
    "    X(ROWS_UPD, \"gpusvm_rows_update\", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS_UPD, ROWS_UPD)                         \\\n",
    "    X(CANDS, \"gpusvm_cands\", GPUSVM__L, CANDS, SPLIT) X(WS_PUT, \"gpusvm_ws_put\", GPUSVM__L, WS_PUT, SPLIT) \\\n",
    "    X(CS_RESP, \"gpusvm_cs_resp\", GPUSVM__L, CS_RESP, CS)                                                   \\\n",
    "    X(CS_UPDATE, \"gpusvm_cs_update\", GPUSVM__L, CS_UPDATE, CS)                                             \\\n",
    "    X(CS_SELECT, \"gpusvm_cs_select\", GPUSVM__L, CS_SELECT, CS)                                             \\\n",
    "    X(CS_SOLVE, \"gpusvm_cs_solve\", GPUSVM__CS_L, CS_SOLVE, CS)\n",
    "\n",
    "/* gpusvm_rows_tiled, gpusvm_rows_few and gpusvm_rows_narrow (kernels part 1) */\n",
    "#define GPUSVM__ARGS_ROWS(X_, S_)                                                                       \\\n",
    "    X_(ROWS, __global const float *, A) S_() X_(ROWS, int, pitch_a) S_()                                \\\n",
    "    X_(ROWS, __global const int *, idx) S_() X_(ROWS, __global const float *, norm_a) S_()              \\\n",
    "    X_(ROWS, __global const float *, B) S_() X_(ROWS, int, pitch_b) S_()                                \\\n",
    "    X_(ROWS, __global const float *, norm_b) S_() X_(ROWS, __global const int *, pinfo) S_()            \\\n",
    "    X_(ROWS, __global const int *, map) S_() X_(ROWS, int, use_map) S_() X_(ROWS, int, dpad) S_()       \\\n",
    "    X_(ROWS, __global const int *, slot) S_() X_(ROWS, int, row_off) S_() X_(ROWS, int, nrows) S_()     \\\n",
    "    X_(ROWS, int, skip_whole) S_() X_(ROWS, __global float *, K) S_() X_(ROWS, int, ldk) S_()           \\\n",
    "    X_(ROWS, int, qmax) S_() X_(ROWS, int, ktype) S_() X_(ROWS, float, coef0) S_() \\\n",
    "    X_(ROWS, int, degree) S_() X_(ROWS, __global const gpusvm_wbits *, status) S_() X_(ROWS, int, a_pos) S_()   \\\n",
    "    X_(ROWS, int, self) S_() X_(ROWS, int, b_mode) S_() X_(ROWS, int, b_off) S_() X_(ROWS, int, b_end)\n",
    "\n",
    "/* gpusvm_rows_sparse (kernels part 1b): the rows' points and the columns' points in CSR form\n",
    " * (a_*, b_*: 32-bit offsets, column indices, values) and their norms in double; the rest as\n",
    " * gpusvm_rows_tiled */\n",
    "#define GPUSVM__ARGS_ROWS_SPARSE(X_, S_)                                                                \\\n",
    "    X_(ROWS_SPARSE, __global const int *, a_ptr) S_() X_(ROWS_SPARSE, __global const int *, a_col) S_() \\\n",
    "    X_(ROWS_SPARSE, __global const float *, a_val) S_() X_(ROWS_SPARSE, __global const int *, idx) S_() \\\n",
    "    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_a) S_() X_(ROWS_SPARSE, __global const int *, b_ptr) S_() \\\n",
    "    X_(ROWS_SPARSE, __global const int *, b_col) S_() X_(ROWS_SPARSE, __global const float *, b_val) S_() \\\n",
    "    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_b) S_() X_(ROWS_SPARSE, __global const int *, pinfo) S_() \\\n",
    "    X_(ROWS_SPARSE, __global const int *, map) S_() X_(ROWS_SPARSE, int, use_map) S_()               \\\n",
    "    X_(ROWS_SPARSE, __global const int *, slot) S_() X_(ROWS_SPARSE, int, row_off) S_()               \\\n",
    "    X_(ROWS_SPARSE, int, nrows) S_() X_(ROWS_SPARSE, int, skip_whole) S_()                            \\\n",
    "    X_(ROWS_SPARSE, __global float *, K) S_() X_(ROWS_SPARSE, int, ldk) S_() X_(ROWS_SPARSE, int, qmax) S_() \\\n",
    "    X_(ROWS_SPARSE, int, ktype) S_() X_(ROWS_SPARSE, float, coef0) S_() \\\n",
    "    X_(ROWS_SPARSE, int, degree) S_() X_(ROWS_SPARSE, __global const gpusvm_wbits *, status) S_()             \\\n",
    "    X_(ROWS_SPARSE, int, self)\n",
    "\n",
    "/* gpusvm_row_cache (kernels part 1c) */\n",
    "#define GPUSVM__ARGS_ROW_CACHE(X_, S_)                                                                  \\\n",
    "    X_(ROW_CACHE, __global const int *, pinfo) S_() X_(ROW_CACHE, __global int *, rinfo) S_()           \\\n",
    "    X_(ROW_CACHE, __global const int *, ws_idx0) S_() X_(ROW_CACHE, __global int *, ws_slot0) S_()      \\\n",
    "    X_(ROW_CACHE, __global int *, row_idx0) S_() X_(ROW_CACHE, __global int *, row_slot0) S_()          \\\n",
    "    X_(ROW_CACHE, __global int *, cmap0) S_() X_(ROW_CACHE, __global int *, cstate0) S_()               \\\n",
    "    X_(ROW_CACHE, int, cslots) S_() X_(ROW_CACHE, int, qmax) S_()                                       \\\n",
    "    X_(ROW_CACHE, __global const gpusvm_wbits *, status) S_() X_(ROW_CACHE, int, first)\n",
    "\n",
    "#define GPUSVM__ARGS_GATHER_WS(X_, S_)                                                                  \\\n",
    "    X_(GATHER_WS, __global const float *, X) S_() X_(GATHER_WS, int, pitch) S_()                        \\\n",
    "    X_(GATHER_WS, __global const int *, idx) S_() X_(GATHER_WS, __global const int *, pinfo) S_()       \\\n",
    "    X_(GATHER_WS, __global const int *, map) S_() X_(GATHER_WS, int, use_map) S_()                      \\\n",
    "    X_(GATHER_WS, int, dpad) S_() X_(GATHER_WS, int, row_off) S_() X_(GATHER_WS, int, nrows) S_()       \\\n",
    "    X_(GATHER_WS, int, skip_whole) S_() X_(GATHER_WS, __global float *, Aw) S_()                        \\\n",
    "    X_(GATHER_WS, int, qmax) S_() X_(GATHER_WS, __global const gpusvm_wbits *, status)\n",
    "\n",
    "/* gpusvm_fill (kernels part 1) */\n",
    "#define GPUSVM__ARGS_FILL(X_, S_) \\\n",
    "    X_(FILL, __global uint *, p) S_() X_(FILL, uint, word) S_() X_(FILL, ulong, off) S_() X_(FILL, ulong, n)\n",
    "#define GPUSVM__ARGS_SCATTER(X_, S_)                                                                    \\\n",
    "    X_(SCATTER, __global const ulong *, row_ptr) S_() X_(SCATTER, __global const int *, col) S_()       \\\n",
    "    X_(SCATTER, __global const float *, val) S_() X_(SCATTER, ulong, base) S_() X_(SCATTER, int, n) S_() \\\n",
    "    X_(SCATTER, __global float *, X) S_() X_(SCATTER, int, pitch)\n",
    "\n",
    "/* kernels part 2 */\n",
    "#define GPUSVM__ARGS_KEYS(X_, S_)                                                                       \\\n",
    "    X_(KEYS, __global const gpusvm_wbits *, G0) S_() X_(KEYS, __global const gpusvm_wbits *, alpha0) S_()           \\\n",
    "    X_(KEYS, __global const char *, y0) S_() X_(KEYS, __global const gpusvm_wbits *, Cv0) S_()                \\\n",
    "    X_(KEYS, __global const int *, pinfo) S_() X_(KEYS, int, nparts_max) S_()                           \\\n",
    "    X_(KEYS, __global uint *, key_up0) S_() X_(KEYS, __global uint *, key_low0) S_()                    \\\n",
    "    X_(KEYS, __global gpusvm_wbits *, part_up0) S_() X_(KEYS, __global gpusvm_wbits *, part_low0) S_()              \\\n",
    "    X_(KEYS, __global const gpusvm_wbits *, status) S_() X_(KEYS, int, nu)\n",
    "\n",
    "#define GPUSVM__ARGS_SELECT(X_, S_)                                                                     \\\n",
    "    X_(SELECT, __global uint *, key_up0) S_() X_(SELECT, __global uint *, key_low0) S_()                \\\n",
    "    X_(SELECT, __global const int *, pinfo) S_() X_(SELECT, int, nparts_max) S_() X_(SELECT, int, qmax) S_() \\\n",
    "    X_(SELECT, __global const gpusvm_wbits *, part_up0) S_() X_(SELECT, __global const gpusvm_wbits *, part_low0) S_() \\\n",
    "    X_(SELECT, __global int *, ws_idx0) S_() X_(SELECT, __global int *, ws_slot0) S_()                  \\\n",
    "    X_(SELECT, int, mode_in) S_() X_(SELECT, gpusvm_wbits, eps) S_() X_(SELECT, gpusvm_wbits, max_iter) S_()        \\\n",
    "    X_(SELECT, __global gpusvm_wbits *, status0) S_() X_(SELECT, __global const char *, y0) S_() X_(SELECT, int, nu) S_() \\\n",
    "    X_(SELECT, int, split) S_() X_(SELECT, __global uint *, sel_g)\n",
    "\n",
    "/* the selection over the grid (part 2): gpusvm_sel_hist, _ties, _take (ties0: the keys' partials'\n",
    " * buffer, free once gpusvm_select has read them, 4 * nparts_max words a problem); cands: a split\n",
    " * problem's lists into its report out instead (G0: their gradients) */\n",
    "#define GPUSVM__ARGS_SEL(X_, S_)                                                                        \\\n",
    "    X_(SEL, __global uint *, key_up0) S_() X_(SEL, __global uint *, key_low0) S_()                      \\\n",
    "    X_(SEL, __global const char *, y0) S_() X_(SEL, __global const int *, pinfo) S_()                   \\\n",
    "    X_(SEL, int, qmax) S_() X_(SEL, __global const gpusvm_wbits *, status) S_() X_(SEL, __global uint *, sel_g) S_() \\\n",
    "    X_(SEL, __global int *, list0) S_() X_(SEL, __global int *, ws_idx0) S_() X_(SEL, int, side) S_()   \\\n",
    "    X_(SEL, int, pass) S_() X_(SEL, int, mode_in) S_() X_(SEL, int, nu) S_() X_(SEL, __global uint *, ties0) S_() \\\n",
    "    X_(SEL, int, nparts_max) S_() X_(SEL, int, cands) S_() X_(SEL, __global ulong *, out) S_()           \\\n",
    "    X_(SEL, __global const gpusvm_wbits *, G0)\n",
    "\n",
    "/* a split problem's report and its merged working set's gradients (part 2) */\n",
    "#define GPUSVM__ARGS_CANDS(X_, S_)                                                                      \\\n",
    "    X_(CANDS, __global uint *, key_up0) S_() X_(CANDS, __global uint *, key_low0) S_()                  \\\n",
    "    X_(CANDS, __global const char *, y0) S_() X_(CANDS, __global const gpusvm_wbits *, G0) S_()               \\\n",
    "    X_(CANDS, __global const int *, pinfo) S_() X_(CANDS, int, nparts_max) S_() X_(CANDS, int, qmax) S_() \\\n",
    "    X_(CANDS, __global const gpusvm_wbits *, part_up0) S_() X_(CANDS, __global const gpusvm_wbits *, part_low0) S_() \\\n",
    "    X_(CANDS, __global const int *, ws_idx0) S_() X_(CANDS, __global const int *, ws_slot0) S_()        \\\n",
    "    X_(CANDS, int, mode_in) S_() X_(CANDS, __global const gpusvm_wbits *, status0) S_() X_(CANDS, int, nu) S_() \\\n",
    "    X_(CANDS, __global ulong *, out) S_() X_(CANDS, int, grid) S_() X_(CANDS, __global uint *, sel_g)\n",
    "\n",
    "#define GPUSVM__ARGS_WS_PUT(X_, S_)                                                                     \\\n",
    "    X_(WS_PUT, __global gpusvm_wbits *, G0) S_() X_(WS_PUT, __global const int *, ws_idx0) S_()               \\\n",
    "    X_(WS_PUT, __global const gpusvm_wbits *, gws) S_() X_(WS_PUT, __global const int *, pinfo) S_()          \\\n",
    "    X_(WS_PUT, __global const gpusvm_wbits *, status0)\n",
    "\n",
    "/* kernels part 3 */\n",
    "#define GPUSVM__ARGS_GATHER(X_, S_)                                                                     \\\n",
    "    X_(GATHER, __global const float *, K0) S_() X_(GATHER, int, ldk) S_() X_(GATHER, __global float *, Kq0) S_() \\\n",
    "    X_(GATHER, __global const int *, pinfo) S_() X_(GATHER, int, qmax) S_()                             \\\n",
    "    X_(GATHER, __global const int *, ws_idx0) S_() X_(GATHER, __global const int *, ws_slot0) S_()      \\\n",
    "    X_(GATHER, __global const gpusvm_wbits *, status)\n",
    "\n",
    "#define GPUSVM__ARGS_SMO(X_, S_)                                                                        \\\n",
    "    X_(SMO, __global const float *, Kq0) S_() X_(SMO, __global const int *, pinfo) S_() X_(SMO, int, qmax) S_() \\\n",
    "    X_(SMO, __global const int *, ws_idx0) S_()                                                         \\\n",
    "    X_(SMO, __global gpusvm_wbits *, alpha0) S_() X_(SMO, __global const gpusvm_wbits *, G0) S_()                   \\\n",
    "    X_(SMO, __global const char *, y0) S_() X_(SMO, __global const gpusvm_wbits *, Cv0) S_()                  \\\n",
    "    X_(SMO, __global const float *, qd0) S_() X_(SMO, __global gpusvm_wbits *, coef0) S_()                    \\\n",
    "    X_(SMO, gpusvm_wbits, eps) S_() X_(SMO, gpusvm_wbits, ratio_in) S_() X_(SMO, int, max_inner_in) S_()            \\\n",
    "    X_(SMO, int, whole_inner) S_() X_(SMO, gpusvm_wbits, max_iter) S_() X_(SMO, __global gpusvm_wbits *, status0) S_() \\\n",
    "    X_(SMO, int, nu)\n",
    "\n",
    "/* kernels part 4 */\n",
    "#define GPUSVM__ARGS_UPDATE(X_, S_)                                                                     \\\n",
    "    X_(UPDATE, __global gpusvm_wbits *, out0) S_() X_(UPDATE, __global const char *, y0) S_()                 \\\n",
    "    X_(UPDATE, int, use_y) S_() X_(UPDATE, __global const int *, pinfo) S_() X_(UPDATE, int, qmax) S_() \\\n",
    "    X_(UPDATE, __global const float *, K0) S_() X_(UPDATE, int, ldk) S_()                               \\\n",
    "    X_(UPDATE, __global const int *, slot0) S_() X_(UPDATE, __global const gpusvm_wbits *, coef0) S_()        \\\n",
    "    X_(UPDATE, int, m_in) S_() X_(UPDATE, __global const gpusvm_wbits *, status) S_()                         \\\n",
    "    X_(UPDATE, int, coef_off) S_() X_(UPDATE, int, out_off) S_() X_(UPDATE, int, var_off) S_()          \\\n",
    "    X_(UPDATE, int, var_end) S_() X_(UPDATE, int, k_off)\n",
    "\n",
    "/* gpusvm_rows_update (kernels part 4): gpusvm_rows_tiled's arguments, then these */\n",
    "#define GPUSVM__ARGS_ROWS_UPD(X_, S_)                                                                   \\\n",
    "    X_(ROWS_UPD, __global gpusvm_wbits *, out0) S_() X_(ROWS_UPD, __global const char *, y0) S_()             \\\n",
    "    X_(ROWS_UPD, __global const gpusvm_wbits *, coef)\n",
    "\n",
    "/* kernels part 5 (Crammer-Singer), every problem of a batch in one launch: alpha and c are\n",
    " * n x m per problem (point-major), K the rows (with the cache, problem p's point v has row\n",
    " * var + v, else working-set position t row p qmax + t: the rows kernels' slot is that minus\n",
    " * p qmax), dA and moved the last sweeps' changes (q positions per problem, mmax classes apart) */\n",
    "#define GPUSVM__ARGS_CS_RESP(X_, S_)                                                                    \\\n",
    "    X_(CS_RESP, __global gpusvm_wbits *, c) S_() X_(CS_RESP, __global const float *, K) S_()                 \\\n",
    "    X_(CS_RESP, int, ldk) S_() X_(CS_RESP, __global const int *, moved) S_()                            \\\n",
    "    X_(CS_RESP, __global const gpusvm_wide *, dA) S_() X_(CS_RESP, __global const gpusvm_wbits *, status) S_() \\\n",
    "    X_(CS_RESP, __global const int *, cinfo) S_() X_(CS_RESP, int, q) S_() X_(CS_RESP, int, mmax)\n",
    "\n",
    "#define GPUSVM__ARGS_CS_UPDATE(X_, S_)                                                                  \\\n",
    "    X_(CS_UPDATE, __global const gpusvm_wbits *, c) S_() X_(CS_UPDATE, __global const gpusvm_wbits *, alpha) S_()   \\\n",
    "    X_(CS_UPDATE, __global const int *, cls) S_() X_(CS_UPDATE, __global const gpusvm_wbits *, U) S_()        \\\n",
    "    X_(CS_UPDATE, __global const gpusvm_wbits *, status) S_() X_(CS_UPDATE, __global gpusvm_wbits *, part) S_()     \\\n",
    "    X_(CS_UPDATE, __global uint *, cand_key) S_() X_(CS_UPDATE, __global int *, cand_idx) S_()          \\\n",
    "    X_(CS_UPDATE, __global const int *, cinfo) S_() X_(CS_UPDATE, int, nparts_max) S_()                 \\\n",
    "    X_(CS_UPDATE, int, qc)\n",
    "\n",
    "#define GPUSVM__ARGS_CS_SELECT(X_, S_)                                                                  \\\n",
    "    X_(CS_SELECT, __global const gpusvm_wbits *, part) S_() X_(CS_SELECT, int, nparts_max) S_()               \\\n",
    "    X_(CS_SELECT, __global uint *, cand_key) S_() X_(CS_SELECT, __global const int *, cand_idx) S_()    \\\n",
    "    X_(CS_SELECT, __global gpusvm_wbits *, status) S_() X_(CS_SELECT, gpusvm_wbits, eps) S_()                       \\\n",
    "    X_(CS_SELECT, gpusvm_wbits, max_iter) S_() X_(CS_SELECT, int, q) S_() X_(CS_SELECT, __global int *, ws) S_() \\\n",
    "    X_(CS_SELECT, __global int *, row_idx) S_() X_(CS_SELECT, __global int *, row_slot) S_()            \\\n",
    "    X_(CS_SELECT, __global int *, pinfo) S_() X_(CS_SELECT, __global int *, have) S_()                  \\\n",
    "    X_(CS_SELECT, int, cache) S_() X_(CS_SELECT, __global const int *, cinfo) S_() X_(CS_SELECT, int, qmax)\n",
    "\n",
    "#define GPUSVM__ARGS_CS_SOLVE(X_, S_)                                                                   \\\n",
    "    X_(CS_SOLVE, __global const float *, K) S_() X_(CS_SOLVE, int, ldk) S_()                            \\\n",
    "    X_(CS_SOLVE, __global const int *, ws) S_() X_(CS_SOLVE, __global gpusvm_wbits *, status) S_()            \\\n",
    "    X_(CS_SOLVE, __global gpusvm_wbits *, alpha) S_() X_(CS_SOLVE, __global const gpusvm_wbits *, c) S_()           \\\n",
    "    X_(CS_SOLVE, __global const int *, cls) S_() X_(CS_SOLVE, __global const gpusvm_wbits *, U) S_()          \\\n",
    "    X_(CS_SOLVE, __global const gpusvm_wbits *, kd) S_() X_(CS_SOLVE, __global gpusvm_wide *, dA) S_()             \\\n",
    "    X_(CS_SOLVE, __global int *, moved) S_() X_(CS_SOLVE, int, mmax) S_() X_(CS_SOLVE, int, q) S_()     \\\n",
    "    X_(CS_SOLVE, int, cache) S_() X_(CS_SOLVE, gpusvm_wbits, eps) S_() X_(CS_SOLVE, gpusvm_wbits, ratio) S_()       \\\n",
    "    X_(CS_SOLVE, __local float *, kws) S_() X_(CS_SOLVE, __local gpusvm_wide *, cws) S_()                    \\\n",
    "    X_(CS_SOLVE, __local gpusvm_wide *, scr) S_() X_(CS_SOLVE, __global const int *, cinfo) S_()             \\\n",
    "    X_(CS_SOLVE, int, qmax)\n",
    "\n",
    "/* The host names the slots (enum GPUSVM__A_<KERNEL>_<name>, ..., GPUSVM__A_<KERNEL>_N); the\n",
    " * kernels declare the parameters. */\n",
    "#define GPUSVM__COMMA() ,\n",
    "#ifdef __OPENCL_VERSION__\n",
    "#define GPUSVM__PARAM(k, type, name) type name\n",
    "#else\n",
    "#define GPUSVM__SLOT(k, type, name) GPUSVM__A_##k##_##name\n",
    "#endif\n",
    "\n",
    "#endif /* GPUSVM__SHARED_H */\n",
    "#line 1 \"kernels/00_common.cl\"\n",
    "/* gpusvm kernels, part 0: definitions shared by every kernel.\n",
    " *\n",
    " * The files in kernels/ are concatenated in name order into one OpenCL C 1.2\n",
    " * program, after kernels/00_shared.h: the constants, tunables and argument\n",
    " * lists the host shares (the host passes GPUSVM__Q, the working-set capacity,\n",
    " * and GPUSVM__L, the local size of the single-work-group kernels, as build\n",
    " * options).\n",
    " *\n",
    " * Each kernel's definition stands between #if defined(GPUSVM_K_ALL) ||\n",
    " * defined(GPUSVM_K_<part>) and #endif (GPUSVM__KERNELS names the parts): the\n",
    " * host builds each part as a program of its own (GPUSVM_K_<part>), when the\n",
    " * work first needs it, so that a GPU's compiler generates code for what runs;\n",
    " * or, for a driver that compiles each kernel at its first launch anyway\n",
    " * (PoCL), every kernel in one program (GPUSVM_K_ALL), its source read once.\n",
    " *\n",
    " * Precision: kernel values are float; dual variables, gradients and every sum\n",
    " * that feeds them are wide (below): double, or float pairs on a device without\n",
    " * cl_khr_fp64. Contraction is off so that the plain-C backend reproduces these\n",
    " * kernels operation for operation (with double); only gpusvm_rows_tiled's dot\n",
    " * products use fma(), on purpose (part 1 says why).\n",
    " */\n",
    "#pragma OPENCL FP_CONTRACT OFF\n",
    "\n",
    "/* ---- wide numbers: double, or float pairs where the device has no fp64 ----\n",
    " * gpusvm_wide is the type of dual variables, gradients and their sums. With\n",
    " * cl_khr_fp64 it is double and the GPUSVM_W_* operations below are plain\n",
    " * operators. The host defines GPUSVM_NO_FP64 for devices without it (or when\n",
    " * asked: desc.fp64, GPUSVM_FP64=off); gpusvm_wide is then a double-float, the\n",
    " * unevaluated sum hi + lo of two floats with hi the float nearest the sum,\n",
    " * kept so by every operation (Dekker 1971; Hida, Li and Bailey's QD library):\n",
    " * about 48 bits of significand against double's 53, float's exponent range.\n",
    " * Comparisons are lexicographic on (hi, lo), which that form makes exact\n",
    " * (and false with a NaN, as double's).\n",
    " * Buffers and scalar arguments keep IEEE doubles either way (8 bytes: the\n",
    " * host reads and writes doubles, fp64 or not); without fp64 they are words\n",
    " * (gpusvm_wbits), converted by GPUSVM_W_LD / GPUSVM_W_ST with integer\n",
    " * arithmetic, so the host code is the same for both. Scratch the host never\n",
    " * reads (Crammer-Singer's steps) is gpusvm_wide as it is. A struct, not a\n",
    " * vector type: an operator left on a wide value does not compile. */\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "typedef struct {\n",
    "    float hi, lo;\n",
    "} gpusvm_wide;\n",
    "typedef struct {\n",
    "    uint lo, hi; /* a double's low and high 32 bits (little-endian, as every OpenCL device) */\n",
    "} gpusvm_wbits;\n",
    "\n",
    "inline gpusvm_wide gpusvm_w_make(float hi, float lo)\n",
    "{\n",
    "    gpusvm_wide r;\n",
    "    r.hi = hi;\n",
    "    r.lo = lo;\n",
    "    return r;\n",
    "}\n",
    "/* s + e = a + b exactly, s = fl(a + b); |a| >= |b| or a = 0 */\n",
    "inline gpusvm_wide gpusvm_w_fast2(float a, float b)\n",
    "{\n",
    "    const float s = a + b;\n",
    "    return gpusvm_w_make(s, b - (s - a));\n",
    "}\n",
    "/* s + e = a + b exactly, s = fl(a + b) (Knuth) */\n",
    "inline gpusvm_wide gpusvm_w_two(float a, float b)\n",
    "{\n",
    "    const float s = a + b, bb = s - a;\n",
    "    return gpusvm_w_make(s, (a - (s - bb)) + (b - bb));\n",
    "}\n",
    "inline gpusvm_wide gpusvm_w_add(gpusvm_wide a, gpusvm_wide b)\n",
    "{\n",
    "    gpusvm_wide s = gpusvm_w_two(a.hi, b.hi);\n",
    "    const gpusvm_wide t = gpusvm_w_two(a.lo, b.lo);\n",
    "    if (!isfinite(s.hi)) return gpusvm_w_make(s.hi, 0.0f); /* infinities stay what double's are */\n",
    "    s = gpusvm_w_fast2(s.hi, s.lo + t.hi);\n",
    "    return gpusvm_w_fast2(s.hi, s.lo + t.lo);\n",
    "}\n",
    "/* a + b with the low parts added, not summed apart: the error bound relative to |a| + |b| (double's\n",
    " * own for a sum of terms), in half gpusvm_w_add's dependent steps; for sums, not for differences\n",
    " * whose digits matter (Crammer-Singer's sweeps: 1.6 times double's time with gpusvm_w_add) */\n",
    "inline gpusvm_wide gpusvm_w_addf(gpusvm_wide a, gpusvm_wide b)\n",
    "{\n",
    "    const gpusvm_wide s = gpusvm_w_two(a.hi, b.hi);\n",
    "    return gpusvm_w_fast2(s.hi, s.lo + (a.lo + b.lo));\n",
    "}\n",
    "inline gpusvm_wide gpusvm_w_neg(gpusvm_wide a) { return gpusvm_w_make(-a.hi, -a.lo); }\n",
    "inline gpusvm_wide gpusvm_w_sub(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_add(a, gpusvm_w_neg(b)); }\n",
    "/* a * f (f a float: the products of a kernel value) */\n",
    "inline gpusvm_wide gpusvm_w_mulf(gpusvm_wide a, float f)\n",
    "{\n",
    "    const float p = a.hi * f;\n",
    "    if (!isfinite(p)) return gpusvm_w_make(p, 0.0f);\n",
    "    return gpusvm_w_fast2(p, fma(a.hi, f, -p) + a.lo * f);\n",
    "}\n",
    "inline gpusvm_wide gpusvm_w_mul(gpusvm_wide a, gpusvm_wide b)\n",
    "{\n",
    "    const float p = a.hi * b.hi;\n",
    "    if (!isfinite(p)) return gpusvm_w_make(p, 0.0f);\n",
    "    return gpusvm_w_fast2(p, fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));\n",
    "}\n",
    "/* s + a * f for the long sums (the gradient update, decision values): the product's and the\n",
    " * sum's rounding errors gathered in lo, as the sums of Ogita, Rump and Oishi (2005) do: an error\n",
    " * bound relative to the sum of the terms' magnitudes, as double's own summation has, in half the\n",
    " * operations of gpusvm_w_add (H200, a9a: the update took 1.8 times double's with gpusvm_w_add) */\n",
    "inline gpusvm_wide gpusvm_w_acc(gpusvm_wide s, gpusvm_wide a, float f)\n",
    "{\n",
    "    const float p = a.hi * f;\n",
    "    const gpusvm_wide t = gpusvm_w_two(s.hi, p);\n",
    "    return gpusvm_w_fast2(t.hi, t.lo + (s.lo + (fma(a.hi, f, -p) + a.lo * f)));\n",
    "}\n",
    "/* gpusvm_w_acc without its last step: s.hi the running float sum, s.lo every rounding error\n",
    " * gathered (Ogita, Rump and Oishi's Sum2), renormalized once after the last term by\n",
    " * GPUSVM_W_NORM; for short sums kept in registers (Crammer-Singer's responses: the sum's\n",
    " * dependent steps 4 instead of 6) */\n",
    "inline gpusvm_wide gpusvm_w_acc_raw(gpusvm_wide s, gpusvm_wide a, float f)\n",
    "{\n",
    "    const float p = a.hi * f;\n",
    "    const gpusvm_wide t = gpusvm_w_two(s.hi, p);\n",
    "    return gpusvm_w_make(t.hi, s.lo + (t.lo + (fma(a.hi, f, -p) + a.lo * f)));\n",
    "}\n",
    "/* gpusvm_w_addf without its last step, as gpusvm_w_acc_raw: s.hi the running float sum, s.lo\n",
    " * every rounding error and every term's lo gathered; GPUSVM_W_NORM after the last term */\n",
    "inline gpusvm_wide gpusvm_w_addf_raw(gpusvm_wide s, gpusvm_wide a)\n",
    "{\n",
    "    const gpusvm_wide t = gpusvm_w_two(s.hi, a.hi);\n",
    "    return gpusvm_w_make(t.hi, s.lo + (t.lo + a.lo));\n",
    "}\n",
    "inline gpusvm_wide gpusvm_w_div(gpusvm_wide a, gpusvm_wide b)\n",
    "{\n",
    "    const float q1 = a.hi / b.hi;\n",
    "    if (!isfinite(q1) || b.hi == 0.0f) return gpusvm_w_make(q1, 0.0f);\n",
    "    const gpusvm_wide r = gpusvm_w_sub(a, gpusvm_w_mulf(b, q1)); /* the remainder, nearly exact */\n",
    "    return gpusvm_w_fast2(q1, r.hi / b.hi);\n",
    "}\n",
    "/* the product of two floats, exactly */\n",
    "inline gpusvm_wide gpusvm_w_prod(float a, float b)\n",
    "{\n",
    "    const float p = a * b;\n",
    "    return gpusvm_w_make(p, fma(a, b, -p));\n",
    "}\n",
    "inline int gpusvm_w_lt(gpusvm_wide a, gpusvm_wide b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }\n",
    "inline int gpusvm_w_le(gpusvm_wide a, gpusvm_wide b) { return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo); }\n",
    "inline int gpusvm_w_eq(gpusvm_wide a, gpusvm_wide b) { return a.hi == b.hi && a.lo == b.lo; }\n",
    "inline gpusvm_wide gpusvm_w_max(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_lt(a, b) ? b : a; }\n",
    "inline gpusvm_wide gpusvm_w_min(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_lt(b, a) ? b : a; }\n",
    "/* an int, exactly */\n",
    "inline gpusvm_wide gpusvm_w_int(int i)\n",
    "{\n",
    "    const float h = (float)i;\n",
    "    return gpusvm_w_make(h, (float)(i - (int)h));\n",
    "}\n",
    "/* an integral value as an int */\n",
    "inline int gpusvm_w_toi(gpusvm_wide a) { return (int)((long)a.hi + (long)a.lo); }\n",
    "\n",
    "/* A double's bits as a pair: hi its first 24 significant bits, lo the rest (rounded to 24),\n",
    " * then rounded to the nearest form; outside float's range infinity or zero. */\n",
    "inline gpusvm_wide gpusvm_w_ld(gpusvm_wbits b)\n",
    "{\n",
    "    const uint s = b.hi & 0x80000000u, e = (b.hi >> 20) & 0x7FFu;\n",
    "    const int ex = (int)e - 1023;\n",
    "    if (e == 0x7FFu) /* infinity, NaN */\n",
    "        return gpusvm_w_make(as_float(s | 0x7F800000u | (((b.hi & 0xFFFFFu) | b.lo) ? 0x400000u : 0u)), 0.0f);\n",
    "    if (ex > 127) return gpusvm_w_make(as_float(s | 0x7F800000u), 0.0f);\n",
    "    if (ex < -126) return gpusvm_w_make(as_float(s), 0.0f);\n",
    "    const float hi = as_float(s | ((uint)(ex + 127) << 23) | ((b.hi & 0xFFFFFu) << 3) | (b.lo >> 29));\n",
    "    const float lo = ldexp((float)(b.lo & 0x1FFFFFFFu), ex - 52);\n",
    "    return gpusvm_w_fast2(hi, s ? -lo : lo);\n",
    "}\n",
    "/* A pair as a double's bits, to the nearest double (hi's exponent, hi's significand widened, lo\n",
    " * added in units of the double's last place). */\n",
    "inline gpusvm_wbits gpusvm_w_st(gpusvm_wide a)\n",
    "{\n",
    "    const uint hb = as_uint(a.hi), s = hb & 0x80000000u, e = (hb >> 23) & 0xFFu;\n",
    "    gpusvm_wbits r;\n",
    "    r.lo = 0u;\n",
    "    if (e == 0xFFu) { /* infinity, NaN */\n",
    "        r.hi = s | 0x7FF00000u | ((hb & 0x7FFFFFu) ? 0x80000u : 0u);\n",
    "        return r;\n",
    "    }\n",
    "    if (e == 0u) { /* zero (a float below the normal range counts as zero) */\n",
    "        r.hi = s;\n",
    "        return r;\n",
    "    }\n",
    "    int ex = (int)e - 127;\n",
    "    long m = (long)(0x800000u | (hb & 0x7FFFFFu)) << 29; /* 53 bits */\n",
    "    const long d = (long)rint(ldexp(a.lo, 52 - ex));   /* |d| <= 2^28 */\n",
    "    m += s ? -d : d;\n",
    "    if (m >= (1L << 53)) {\n",
    "        m >>= 1;\n",
    "        ++ex;\n",
    "    } else if (m < (1L << 52)) {\n",
    "        m <<= 1;\n",
    "        --ex;\n",
    "    }\n",
    "    r.hi = s | ((uint)(ex + 1023) << 20) | ((uint)(m >> 32) & 0xFFFFFu);\n",
    "    r.lo = (uint)m;\n",
    "    return r;\n",
    "}\n",
    "#define GPUSVM_W_LD(b) gpusvm_w_ld(b)\n",
    "#define GPUSVM_W_ST(a) gpusvm_w_st(a)\n",
    "#define GPUSVM_W_BITS(b) (((ulong)(b).hi << 32) | (ulong)(b).lo) /* as_ulong of a stored double */\n",
    "#define GPUSVM_W_F(f) gpusvm_w_make((f), 0.0f)                    /* from a float (or a constant float holds) */\n",
    "#define GPUSVM_W_I(i) gpusvm_w_int(i)\n",
    "#define GPUSVM_W_TOF(a) ((a).hi)\n",
    "#define GPUSVM_W_TOI(a) gpusvm_w_toi(a)\n",
    "#define GPUSVM_W_ADD(a, b) gpusvm_w_add((a), (b))\n",
    "#define GPUSVM_W_ADDF(a, b) gpusvm_w_addf((a), (b)) /* a sum's step */\n",
    "#define GPUSVM_W_SUB(a, b) gpusvm_w_sub((a), (b))\n",
    "#define GPUSVM_W_MUL(a, b) gpusvm_w_mul((a), (b))\n",
    "#define GPUSVM_W_MULF(a, f) gpusvm_w_mulf((a), (f))\n",
    "#define GPUSVM_W_ACC(s, a, f) gpusvm_w_acc((s), (a), (f)) /* s + a * f, f a float: the long sums */\n",
    "#define GPUSVM_W_ACC_RAW(s, a, f) gpusvm_w_acc_raw((s), (a), (f)) /* the same, renormalized at the end: */\n",
    "#define GPUSVM_W_NORM(s) gpusvm_w_fast2((s).hi, (s).lo)             /* the sum of GPUSVM_W_ACC_RAW steps */\n",
    "#define GPUSVM_W_ADDF_RAW(s, a) gpusvm_w_addf_raw((s), (a)) /* a sum's step, renormalized at the end */\n",
    "#define GPUSVM_W_DIV(a, b) gpusvm_w_div((a), (b))\n",
    "#define GPUSVM_W_NEG(a) gpusvm_w_neg(a)\n",
    "#define GPUSVM_W_FMAF(a, b, c) gpusvm_w_add((c), gpusvm_w_prod((a), (b))) /* a * b + c, a and b floats */\n",
    "#define GPUSVM_W_LT(a, b) gpusvm_w_lt((a), (b))\n",
    "#define GPUSVM_W_GT(a, b) gpusvm_w_lt((b), (a))\n",
    "#define GPUSVM_W_LE(a, b) gpusvm_w_le((a), (b))\n",
    "#define GPUSVM_W_GE(a, b) gpusvm_w_le((b), (a))\n",
    "#define GPUSVM_W_EQ(a, b) gpusvm_w_eq((a), (b))\n",
    "#define GPUSVM_W_MAX(a, b) gpusvm_w_max((a), (b))\n",
    "#define GPUSVM_W_MIN(a, b) gpusvm_w_min((a), (b))\n",
    "#define GPUSVM_W_TAU gpusvm_w_make(1e-12f, 3.9958026e-21f) /* part 0's tau, 1e-12 as a pair */\n",
    "/* v stored, but as b0's bits where v is w0 (b0 loaded), else b1's where it is w1: a pair holds 48\n",
    " * of a double's 53 bits, so a value the kernel left as it was, or put at a bound it loaded (alpha\n",
    " * = C), goes back as the very double the host wrote, which the host tests with == */\n",
    "#define GPUSVM_W_ST_EXACT(v, w0, b0, w1, b1) \\\n",
    "    (GPUSVM_W_EQ((v), (w0)) ? (b0) : GPUSVM_W_EQ((v), (w1)) ? (b1) : GPUSVM_W_ST(v))\n",
    "#else\n",
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
    "typedef double gpusvm_wide;\n",
    "typedef double gpusvm_wbits;\n",
    "#define GPUSVM_W_LD(b) (b)\n",
    "#define GPUSVM_W_ST(a) (a)\n",
    "#define GPUSVM_W_BITS(b) as_ulong(b)\n",
    "#define GPUSVM_W_F(f) ((double)(f))\n",
    "#define GPUSVM_W_I(i) ((double)(i))\n",
    "#define GPUSVM_W_TOF(a) ((float)(a))\n",
    "#define GPUSVM_W_TOI(a) ((int)(a))\n",
    "#define GPUSVM_W_ADD(a, b) ((a) + (b))\n",
    "#define GPUSVM_W_ADDF(a, b) ((a) + (b))\n",
    "#define GPUSVM_W_SUB(a, b) ((a) - (b))\n",
    "#define GPUSVM_W_MUL(a, b) ((a) * (b))\n",
    "#define GPUSVM_W_MULF(a, f) ((a) * (double)(f))\n",
    "#define GPUSVM_W_ACC(s, a, f) ((s) + (a) * (double)(f))\n",
    "#define GPUSVM_W_ACC_RAW(s, a, f) ((s) + (a) * (double)(f))\n",
    "#define GPUSVM_W_NORM(s) (s)\n",
    "#define GPUSVM_W_ADDF_RAW(s, a) ((s) + (a))\n",
    "#define GPUSVM_W_DIV(a, b) ((a) / (b))\n",
    "#define GPUSVM_W_NEG(a) (-(a))\n",
    "#define GPUSVM_W_FMAF(a, b, c) fma((double)(a), (double)(b), (c))\n",
    "#define GPUSVM_W_LT(a, b) ((a) < (b))\n",
    "#define GPUSVM_W_GT(a, b) ((a) > (b))\n",
    "#define GPUSVM_W_LE(a, b) ((a) <= (b))\n",
    "#define GPUSVM_W_GE(a, b) ((a) >= (b))\n",
    "#define GPUSVM_W_EQ(a, b) ((a) == (b))\n",
    "#define GPUSVM_W_MAX(a, b) fmax((a), (b))\n",
    "#define GPUSVM_W_MIN(a, b) fmin((a), (b))\n",
    "#define GPUSVM_W_TAU GPUSVM__TAU\n",
    "#define GPUSVM_W_ST_EXACT(v, w0, b0, w1, b1) (v)\n",
    "#endif\n",
    "/* a problem's status word (part 0's shared header) as an int, and whether it still runs */\n",
    "#define GPUSVM_W_STI(st, w) GPUSVM_W_TOI(GPUSVM_W_LD((st)[w]))\n",
    "#define GPUSVM_RUNNING(st) (GPUSVM_W_STI(st, GPUSVM__ST_DONE) == GPUSVM__DONE_RUNNING)\n",
    "\n",
    "/* Sub-group (\"warp\") exchanges where the device has them. The host defines one of\n",
    " *   GPUSVM_NV_SHFL   NVIDIA: PTX's shfl.sync butterfly, within a warp of 32 consecutive work-items;\n",
    " *   GPUSVM_SG_KHR    cl_khr_subgroup_shuffle's sub_group_shuffle_xor (OpenCL C 2.0 and later);\n",
    " *   GPUSVM_SG_INTEL  cl_intel_subgroups' intel_sub_group_shuffle_xor;\n",
    " * the kernels that exchange built for one width where cl_intel_required_subgroup_size can fix it\n",
    " * (GPUSVM_SG_REQD, GPUSVM_SG_ATTR), else built for the width the host expects and checked once\n",
    " * built;\n",
    " * with GPUSVM_WARP the sub-group's width (the host's: 32 on NVIDIA, the wavefront on AMD, the\n",
    " * width Intel's kernels are built for), the 1-D work-groups cut into sub-groups of consecutive\n",
    " * work-items. Then GPUSVM_SHFL is defined, and a work-group reduction becomes log2(GPUSVM_WARP)\n",
    " * exchanges per sub-group and one fold of the partials in local memory (one barrier) instead of\n",
    " * log2(GPUSVM__L) rounds through local memory with a barrier each. Every work-item of a\n",
    " * sub-group must make the call. Without any, the kernels use plain local-memory trees (any\n",
    " * OpenCL 1.2 device). */\n",
    "#if defined(GPUSVM_NV_SHFL) || defined(GPUSVM_SG_KHR) || defined(GPUSVM_SG_INTEL)\n",
    "#define GPUSVM_SHFL 1\n",
    "#ifndef GPUSVM_WARP\n",
    "#define GPUSVM_WARP 32\n",
    "#endif\n",
    "#endif\n",
    "#if defined(GPUSVM_SG_INTEL)\n",
    "#pragma OPENCL EXTENSION cl_intel_subgroups : enable\n",
    "#endif\n",
    "#if defined(GPUSVM_SG_REQD) /* the width fixed (cl_intel_required_subgroup_size), else the host checks it */\n",
    "#define GPUSVM_SG_ATTR __attribute__((intel_reqd_sub_group_size(GPUSVM_WARP)))\n",
    "#else\n",
    "#define GPUSVM_SG_ATTR\n",
    "#endif\n",
    "#if defined(GPUSVM_NV_SHFL)\n",
    "inline int gpusvm_xor_i(int v, int m)\n",
    "{\n",
    "    int r;\n",
    "    asm volatile(\"shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), \"r\"(m));\n",
    "    return r;\n",
    "}\n",
    "#elif defined(GPUSVM_SG_KHR)\n",
    "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n",
    "#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable\n",
    "inline int gpusvm_xor_i(int v, int m) { return sub_group_shuffle_xor(v, (uint)m); }\n",
    "#elif defined(GPUSVM_SG_INTEL)\n",
    "inline int gpusvm_xor_i(int v, int m) { return intel_sub_group_shuffle_xor(v, (uint)m); }\n",
    "#endif\n",
    "#ifdef GPUSVM_SHFL\n",
    "inline float gpusvm_xor_f(float v, int m) { return as_float(gpusvm_xor_i(as_int(v), m)); }\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "inline gpusvm_wide gpusvm_xor_w(gpusvm_wide v, int m)\n",
    "{\n",
    "    return gpusvm_w_make(gpusvm_xor_f(v.hi, m), gpusvm_xor_f(v.lo, m));\n",
    "}\n",
    "#else\n",
    "inline double gpusvm_xor_w(double v, int m)\n",
    "{\n",
    "    int2 w = as_int2(v);\n",
    "    w.x = gpusvm_xor_i(w.x, m);\n",
    "    w.y = gpusvm_xor_i(w.y, m);\n",
    "    return as_double(w);\n",
    "}\n",
    "#endif\n",
    "#endif\n",
    "\n",
    "/* Warp reductions in one instruction where the device has them: the host defines\n",
    " * GPUSVM_NV_REDUX (with GPUSVM_NV_SHFL) for NVIDIA devices of compute capability 8.0 and\n",
    " * later, whose PTX redux.sync takes the maximum of a 32-bit word over the warp at once. An\n",
    " * arg-max of (wide, position) pairs then takes three of them instead of five rounds of\n",
    " * three exchanges: the value's order key's high word, its low word among the lanes that hold\n",
    " * that high word, the position among the lanes that hold both. */\n",
    "#ifdef GPUSVM_NV_REDUX\n",
    "inline uint gpusvm_redux_max(uint v)\n",
    "{\n",
    "    uint r;\n",
    "    asm volatile(\"redux.sync.max.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(v));\n",
    "    return r;\n",
    "}\n",
    "/* Order-preserving map wide -> ulong through the double's bits (a < b <=> key(a) < key(b); -0\n",
    " * as +0, as == has them equal) and back (the zero comes back +0). */\n",
    "inline ulong gpusvm_wide_key(gpusvm_wide v)\n",
    "{\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "    ulong b = GPUSVM_W_BITS(gpusvm_w_st(v));\n",
    "    b = (b << 1) ? b : 0UL;\n",
    "#else\n",
    "    const ulong b = as_ulong(v + 0.0);\n",
    "#endif\n",
    "    return (b >> 63) ? ~b : (b | 0x8000000000000000UL);\n",
    "}\n",
    "inline gpusvm_wide gpusvm_key_wide(ulong k)\n",
    "{\n",
    "    const ulong b = (k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFUL) : ~k;\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "    gpusvm_wbits w;\n",
    "    w.lo = (uint)b;\n",
    "    w.hi = (uint)(b >> 32);\n",
    "    return gpusvm_w_ld(w);\n",
    "#else\n",
    "    return as_double(b);\n",
    "#endif\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The kernels' helper functions are always inlined: they take pointers to the caller's\n",
    " * registers and local arrays, which must stay registers and plain local arrays. (On an H100,\n",
    " * the inner solve's working set as one local struct cost 3%, and the selection's extrema,\n",
    " * kept half and final sort as functions cost it 10%; those stay in the kernels.) */\n",
    "#ifndef GPUSVM_INLINE /* tests/oclgrind.sh's simulator builds them as plain inline functions */\n",
    "#define GPUSVM_INLINE inline __attribute__((always_inline))\n",
    "#endif\n",
    "\n",
    "/* sc[0..GPUSVM__L) := its inclusive prefix sums in work-item order (Hillis and Steele), once every\n",
    " * work-item has written its own word; every work-item calls it (the row cache, the selection's\n",
    " * threshold, the update's nonzero coefficients). */\n",
    "GPUSVM_INLINE void gpusvm_scan_local(__local int *sc)\n",
    "{\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int off = 1; off < GPUSVM__L; off *= 2) {\n",
    "        const int v = (int)get_local_id(0) >= off ? sc[(int)get_local_id(0) - off] : 0;\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        sc[get_local_id(0)] += v;\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "}\n",
    "\n",
    "/* This work-item's global writes and atomics before it are seen by every work-group before\n",
    " * those after it (OpenCL 1.2's mem_fence names no scope; on NVIDIA, PTX's device-wide membar.gl).\n",
    " * A grid kernel's last work-group to arrive reads what the others wrote (part 2). */\n",
    "#ifdef GPUSVM_NV_SHFL\n",
    "#define GPUSVM_FENCE_DEVICE()                     \\\n",
    "    do {                                          \\\n",
    "        mem_fence(CLK_GLOBAL_MEM_FENCE);          \\\n",
    "        asm volatile(\"membar.gl;\" ::: \"memory\"); \\\n",
    "    } while (0)\n",
    "#else\n",
    "#define GPUSVM_FENCE_DEVICE() mem_fence(CLK_GLOBAL_MEM_FENCE)\n",
    "#endif\n",
    "\n",
    "/* The shared column of point k of a problem: through the map (one-vs-one\n",
    " * pairs: two runs of class-grouped points; folds: the rows they keep), or\n",
    " * the identity when the batch has no map. */\n",
    "#define GPUSVM_COL(map, use_map, pt, k) ((use_map) ? (map)[(pt) + (k)] : (pt) + (k))\n",
    "\n",
    "/* base^times by squaring, as the host's gpusvm__powi_f: the same bits on every device (pown's\n",
    " * accuracy is the implementation's, and Intel's CPU runtime 2026.22 cannot link its 32-wide\n",
    " * vector form in kernels of sub-groups of 32). */\n",
    "inline float gpusvm_powi(float base, int times)\n",
    "{\n",
    "    float r = 1.0f, b = base;\n",
    "    for (int t = times; t > 0; t /= 2) {\n",
    "        if (t % 2 == 1) r *= b;\n",
    "        b = b * b;\n",
    "    }\n",
    "    return r;\n",
    "}\n",
    "\n",
    "/* k(x, z) from <x,z>, |x|^2 and |z|^2. */\n",
    "inline float gpusvm_kfun(int type, float dot, float nx, float nz,\n",
    "                         float gamma, float coef0, int degree)\n",
    "{\n",
    "    switch (type) {\n",
    "    case GPUSVM__K_LINEAR:\n",
    "        return dot;\n",
    "    case GPUSVM__K_POLY:\n",
    "        return gpusvm_powi(gamma * dot + coef0, degree);\n",
    "    case GPUSVM__K_RBF: {\n",
    "        float d2 = nx + nz - 2.0f * dot;\n",
    "        return exp(-gamma * fmax(d2, 0.0f));\n",
    "    }\n",
    "    default:\n",
    "        return tanh(gamma * dot + coef0);\n",
    "    }\n",
    "}\n",
    "\n",
    "/* Order-preserving map float -> uint: a < b  <=>  key(a) < key(b), and back. */\n",
    "inline uint gpusvm_float_key(float v)\n",
    "{\n",
    "    uint b = as_uint(v);\n",
    "    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);\n",
    "}\n",
    "inline float gpusvm_key_float(uint k) { return as_float((k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k); }\n",
    "#line 1 \"kernels/10_rows.cl\"\n",
    "/* gpusvm kernels, part 1: kernel rows for an index set, for every problem of\n",
    " * a batch at once (grid dimension 2 is the problem).\n",
    " *\n",
    " *   K[p qmax + slot[r]][i] = k(A[:, col(idx[r])], B[:, col(i)])\n",
    " *\n",
    " * for positions r of problem p's working set in [row_off, row_off + nrows)\n",
    " * (clipped to its working-set size) and its points i < npts. With skip_whole\n",
    " * a problem whose working set is every variable (its rows never change) does\n",
    " * nothing.\n",
    " *\n",
    " * Data is column-major with a padded pitch (Catanzaro's OpenCL SVM case study, listings 3-7): feature f\n",
    " * of point i is X[f * pitch + i], pitch a multiple of 64, so adjacent\n",
    " * work-items read adjacent words. Feature count is padded to a multiple of\n",
    " * GPUSVM__FEAT_CHUNK with zero rows, so the inner loops need no bounds checks. The\n",
    " * problems share one copy of the points: a problem's point k is column\n",
    " * GPUSVM_COL(k); one-vs-one pairs map onto two contiguous runs of\n",
    " * class-grouped points, so the reads stay coalesced.\n",
    " *\n",
    " * idx holds variables; GPUSVM__PT maps them to points (epsilon-SVR).\n",
    " *\n",
    " * With a_pos, A is not the points but the working sets' own vectors, which\n",
    " * gpusvm_gather_ws copied out first: problem p's position r, feature f at\n",
    " * A[(p dpad + f) pitch_a + r]. Read through idx, row vectors are one word per\n",
    " * 32-byte sector (the points are column-major), and every 128-point tile\n",
    " * would read them again; gathered once per launch, the tiles read them\n",
    " * coalesced. (Prediction passes the support vectors, already contiguous.)\n",
    " *\n",
    " * With self (training: the rows' points and the columns' points are one\n",
    " * set), a point against itself takes its norm as the dot product, so k(x, x)\n",
    " * is exactly the diagonal the host computed from that norm (for RBF, 1), as\n",
    " * LIBSVM's is; summed in another order the dot could differ from the norm by\n",
    " * rounding, which on large feature values is a visible error in k(x, x).\n",
    " *\n",
    " * A precomputed kernel (ktype 4) has the kernel matrix itself as B, by\n",
    " * columns: k(a, b_i) for the point a of row r is feature a of point i,\n",
    " * B[a * pitch_b + i], so the row is one coalesced copy.\n",
    " *\n",
    " * Tiling: a 16x16 work-group computes a 128 (rows of the index set) x 128\n",
    " * (points) block; each work-item holds an 8x8 accumulator: rows 4 ly .. 4 ly + 3\n",
    " * and 64 + 4 ly .. of the block against points 4 lx .. and 64 + 4 lx .., so\n",
    " * that it reads its 8 + 8 staged words as four float4 (a warp's reads of one\n",
    " * float4 are 16 consecutive ones, no bank conflict) and each float4 it reads\n",
    " * feeds 16 fmas: the loop is bound by the fmas, not by local-memory reads.\n",
    " * The working-set vectors and\n",
    " * the point vectors are staged in local memory GPUSVM__FEAT_CHUNK features at a time\n",
    " * (Catanzaro's case study, listing 7; Cotter, Srebro and Keshet's GTSVM, algorithm 1), so every global read is\n",
    " * coalesced and each staged word is reused 128 times; the next chunk is\n",
    " * loaded into registers while the current one is computed. The products are\n",
    " * fused (fma: one instruction, one rounding), so these rows may differ from\n",
    " * the C backend's in the last bits, as exp() already makes them differ; the\n",
    " * tests compare rows with a tolerance and everything downstream of the rows\n",
    " * exactly.\n",
    " */\n",
    "/* The columns of a launch (b_mode, b_off, b_end):\n",
    " *   0: the problem's points i < nb, B holding every point (GPUSVM_COL);\n",
    " *   1: a tile of them, points [b_off, b_end), B holding just those, in order\n",
    " *      (column i - b_off), each row written from its word 0: the points\n",
    " *      streamed through the device (host section, stream);\n",
    " *   2: the working set's positions i < its size, B holding their vectors as\n",
    " *      gpusvm_gather_ws writes them (problem p's at (p dpad + f) pitch_b + i):\n",
    " *      the q x q block of a streamed problem, with the bits its rows have.\n",
    " * GPUSVM_B_COL(i): B's column for i; GPUSVM_B_PT(i): the point i stands for\n",
    " * (its norm, and the diagonal with self). Uses map, use_map, pt, idx, ws, split. */\n",
    "#define GPUSVM_B_LO (b_mode == 1 ? b_off : 0)\n",
    "#define GPUSVM_B_HI(nb, q) (b_mode == 1 ? min((nb), b_end) : b_mode == 2 ? (q) : (nb))\n",
    "#define GPUSVM_B_COL(i) (b_mode == 0 ? GPUSVM_COL(map, use_map, pt, i) : (i) - GPUSVM_B_LO)\n",
    "#define GPUSVM_B_PT(i) \\\n",
    "    (b_mode == 2 ? GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + (i)], split)) : GPUSVM_COL(map, use_map, pt, i))\n",
    "\n",
    "/* the block offset of a work-item's row (or point) a of 8: 4 l + a, then 64 + 4 l + a - 4 */\n",
    "#define GPUSVM_TOFF(l, a) (((a) < 4 ? 0 : 60) + 4 * (l) + (a))\n",
    "\n",
    "/* The tile's products (gpusvm_rows_tiled, gpusvm_rows_update): acc, a work-item's 8 x 8 of the\n",
    " * block, each the fma of the row's and the point's feature in feature order from 0; the\n",
    " * next chunk's words are loaded into registers while this one is computed. Uses A, B,\n",
    " * pitch_a, pitch_b, col_a, col_b (the column this work-item stages), dpad, and As, Bs in\n",
    " * local memory; lx, ly the local id, lr, lf the staged column and first feature. */\n",
    "#define GPUSVM_TILE_DOTS(acc, lx, ly, lr, lf)                                                                    \\\n",
    "    float acc[GPUSVM__TILE_ACC][GPUSVM__TILE_ACC];                                                              \\\n",
    "    for (int a = 0; a < GPUSVM__TILE_ACC; ++a)                                                            \\\n",
    "        for (int b = 0; b < GPUSVM__TILE_ACC; ++b) acc[a][b] = 0.0f;                                      \\\n",
    "    float na_[GPUSVM__FEAT_CHUNK / 2], nb_[GPUSVM__FEAT_CHUNK / 2];                                                 \\\n",
    "    for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                                      \\\n",
    "        na_[t] = A[(size_t)(lf + 2 * t) * pitch_a + col_a];                                         \\\n",
    "        nb_[t] = B[(size_t)(lf + 2 * t) * pitch_b + col_b];                                         \\\n",
    "    }                                                                                               \\\n",
    "    for (int f0 = 0; f0 < dpad; f0 += GPUSVM__FEAT_CHUNK) {                                                 \\\n",
    "        for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                                  \\\n",
    "            ((__local float *)As[lf + 2 * t])[lr] = na_[t];                                         \\\n",
    "            ((__local float *)Bs[lf + 2 * t])[lr] = nb_[t];                                         \\\n",
    "        }                                                                                           \\\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                               \\\n",
    "        if (f0 + GPUSVM__FEAT_CHUNK < dpad)                                                                 \\\n",
    "            for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                              \\\n",
    "                na_[t] = A[(size_t)(f0 + GPUSVM__FEAT_CHUNK + lf + 2 * t) * pitch_a + col_a];               \\\n",
    "                nb_[t] = B[(size_t)(f0 + GPUSVM__FEAT_CHUNK + lf + 2 * t) * pitch_b + col_b];               \\\n",
    "            }                                                                                       \\\n",
    "        for (int f = 0; f < GPUSVM__FEAT_CHUNK; ++f) {                                                      \\\n",
    "            const float4 a0 = As[f][ly], a1 = As[f][16 + ly], b0 = Bs[f][lx], b1 = Bs[f][16 + lx];  \\\n",
    "            const float av[GPUSVM__TILE_ACC] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};          \\\n",
    "            const float bv[GPUSVM__TILE_ACC] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};          \\\n",
    "            for (int a = 0; a < GPUSVM__TILE_ACC; ++a)                                                    \\\n",
    "                for (int b = 0; b < GPUSVM__TILE_ACC; ++b) acc[a][b] = fma(av[a], bv[b], acc[a][b]);      \\\n",
    "        }                                                                                           \\\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                               \\\n",
    "    }\n",
    "\n",
    "/* The arguments of gpusvm_rows_tiled and gpusvm_rows_few: one list (part 0's shared header). */\n",
    "#define GPUSVM_ROWS_PARAMS GPUSVM__ARGS_ROWS(GPUSVM__PARAM, GPUSVM__COMMA)\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1)))\n",
    "void gpusvm_rows_tiled(GPUSVM_ROWS_PARAMS)\n",
    "{\n",
    "    __local float4 As[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];\n",
    "    __local float4 Bs[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];\n",
    "    const int lx = get_local_id(0), ly = get_local_id(1);\n",
    "    const int tid = ly * GPUSVM__TILE_WI + lx;\n",
    "    const int i0 = GPUSVM_B_LO + (int)get_group_id(0) * GPUSVM__TILE;\n",
    "    const int r0 = get_group_id(1) * GPUSVM__TILE;\n",
    "    const int p = get_group_id(2);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]); /* the problem's own (a grid's differ) */\n",
    "    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];\n",
    "    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_B_HI(nb, pi[GPUSVM__PI_Q]);\n",
    "    const int ws = p * qmax;\n",
    "    /* uniform per work-group: no barrier is skipped by part of the group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;\n",
    "    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || r0 >= nr || i0 >= hi) return;\n",
    "    if (ktype == GPUSVM__K_PRECOMPUTED) {\n",
    "        for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {\n",
    "            const int r = r0 + GPUSVM_TOFF(ly, a);\n",
    "            if (r >= nr) break;\n",
    "            const int pos = ws + row_off + r;\n",
    "            const int pa = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));\n",
    "            __global float *out = K + (size_t)(ws + slot[pos]) * ldk;\n",
    "            for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {\n",
    "                const int i = i0 + GPUSVM_TOFF(lx, b);\n",
    "                if (i < hi) out[i - GPUSVM_B_LO] = B[(size_t)pa * pitch_b + GPUSVM_B_COL(i)];\n",
    "            }\n",
    "        }\n",
    "        return;\n",
    "    }\n",
    "\n",
    "    /* Each work-item loads column (tid % 128) of both tiles: one index lookup each. */\n",
    "    const int lr = tid % GPUSVM__TILE;\n",
    "    const int lf = tid / GPUSVM__TILE; /* 0..1: features lf, lf+2, ..., lf+14 */\n",
    "    const int ra = min(r0 + lr, nr - 1);\n",
    "    const int col_a = a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));\n",
    "    if (a_pos) A += (size_t)p * dpad * pitch_a;\n",
    "    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;\n",
    "    const int col_b = GPUSVM_B_COL(min(i0 + lr, hi - 1));\n",
    "\n",
    "    GPUSVM_TILE_DOTS(acc, lx, ly, lr, lf)\n",
    "\n",
    "    for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {\n",
    "        const int r = r0 + GPUSVM_TOFF(ly, a);\n",
    "        if (r >= nr) continue;\n",
    "        const int pos = ws + row_off + r;\n",
    "        const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));\n",
    "        const float na = norm_a[ca];\n",
    "        __global float *out = K + (size_t)(ws + slot[pos]) * ldk;\n",
    "        for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {\n",
    "            const int i = i0 + GPUSVM_TOFF(lx, b), cb = GPUSVM_B_PT(min(i, hi - 1));\n",
    "            if (i < hi)\n",
    "                out[i - GPUSVM_B_LO] = gpusvm_kfun(ktype, self && ca == cb ? na : acc[a][b], na, norm_b[cb], gamma, coef0, degree);\n",
    "        }\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* Many rows of few features (dpad at most GPUSVM__NARROW_D): with one or two\n",
    " * feature chunks the tile above is held to one work-group per multiprocessor\n",
    " * by its 64 accumulators, and its fixed costs (set-up, the kernel function,\n",
    " * the results' writing) are not hidden. Here each work-item keeps one point's\n",
    " * features in registers, read once, coalesced (the column-major copy: seed\n",
    " * 001's transposed X, one work-item per point), and the work-group's\n",
    " * GPUSVM__NARROW_ROWS rows are staged in local memory feature-major, so one vector\n",
    " * read gives a feature of four rows (a broadcast: every work-item reads the\n",
    " * same word) and feeds four fmas. Each result is written by its own point's\n",
    " * work-item: a row's values leave as whole coalesced lines. The accumulation\n",
    " * is the tile's (fma of the row's and the point's feature, in feature order,\n",
    " * from 0), so both kernels give the same bits. Grid: points x groups of\n",
    " * GPUSVM__NARROW_ROWS rows x problems, work-groups of GPUSVM__NARROW_L.\n",
    " * The four rows' slots, points and norms come as one vector read each.\n",
    " * (H100, 512 RBF rows of 1M points of 32 features, bench/micro.c: the tiles\n",
    " * 4.5 ms, this kernel 2.0 ms, 1.83 ms with the rows' slots, points and norms\n",
    " * read as vectors; with room for 64 features 3.7 ms, the registers costing\n",
    " * occupancy; eight rows a step 2.35 ms; 256 rows a work-group 2.03 ms; two\n",
    " * points a work-item, sharing each staged read, 3.2 ms.)\n",
    " */\n",
    "#define GPUSVM_NAR_LX ((int)get_local_id(0))\n",
    "#define GPUSVM_NAR_I (GPUSVM_B_LO + (int)get_global_id(0))\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_NARROW)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__NARROW_L, 1, 1)))\n",
    "void gpusvm_rows_narrow(GPUSVM_ROWS_PARAMS)\n",
    "{\n",
    "    __local float4 As[GPUSVM__NARROW_D * GPUSVM__NARROW_ROWS / 4]; /* feature f of row r at f * GPUSVM__NARROW_ROWS + r */\n",
    "    __local int row_k[GPUSVM__NARROW_ROWS], row_c[GPUSVM__NARROW_ROWS];\n",
    "    __local float row_n[GPUSVM__NARROW_ROWS];\n",
    "    const int p = get_group_id(2), r0 = get_group_id(1) * GPUSVM__NARROW_ROWS;\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]); /* the problem's own (a grid's differ) */\n",
    "    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];\n",
    "    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_B_HI(nb, pi[GPUSVM__PI_Q]);\n",
    "    const int ws = p * qmax;\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;\n",
    "    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || r0 >= nr || GPUSVM_B_LO + (int)get_group_id(0) * GPUSVM__NARROW_L >= hi)\n",
    "        return;\n",
    "    const int cnt = min(GPUSVM__NARROW_ROWS, nr - r0);\n",
    "    if (a_pos) A += (size_t)p * dpad * pitch_a;\n",
    "    for (int e = GPUSVM_NAR_LX; e < GPUSVM__NARROW_ROWS * dpad; e += GPUSVM__NARROW_L) { /* consecutive rows, one feature */\n",
    "        const int r = e % GPUSVM__NARROW_ROWS, ra = r0 + min(r, cnt - 1);\n",
    "        const int col_a =\n",
    "            a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));\n",
    "        ((__local float *)As)[e] = A[(size_t)(e / GPUSVM__NARROW_ROWS) * pitch_a + col_a];\n",
    "    }\n",
    "    if (GPUSVM_NAR_LX < GPUSVM__NARROW_ROWS) {\n",
    "        const int ra = r0 + min(GPUSVM_NAR_LX, cnt - 1), pos = ws + row_off + ra;\n",
    "        const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));\n",
    "        row_k[GPUSVM_NAR_LX] = ws + slot[pos];\n",
    "        row_c[GPUSVM_NAR_LX] = ca;\n",
    "        row_n[GPUSVM_NAR_LX] = norm_a[ca];\n",
    "    }\n",
    "    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;\n",
    "    const int cb = GPUSVM_B_PT(min(GPUSVM_NAR_I, hi - 1)), rb = GPUSVM_B_COL(min(GPUSVM_NAR_I, hi - 1));\n",
    "    const float nbi = norm_b[cb];\n",
    "    float x[GPUSVM__NARROW_D];\n",
    "    for (int f = 0; f < GPUSVM__NARROW_D; ++f) x[f] = f < dpad ? B[(size_t)f * pitch_b + rb] : 0.0f;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int r = 0; r < cnt; r += 4) {\n",
    "        float4 acc = (float4)(0.0f);\n",
    "        for (int f = 0; f < GPUSVM__NARROW_D; ++f)\n",
    "            if (f < dpad) acc = fma(As[(f * GPUSVM__NARROW_ROWS + r) / 4], (float4)(x[f]), acc);\n",
    "        const float av[4] = {acc.x, acc.y, acc.z, acc.w};\n",
    "        const int4 k4 = vload4(0, row_k + r), c4 = vload4(0, row_c + r);\n",
    "        const float4 n4 = vload4(0, row_n + r);\n",
    "        const int kk[4] = {k4.x, k4.y, k4.z, k4.w}, cc[4] = {c4.x, c4.y, c4.z, c4.w};\n",
    "        const float nn[4] = {n4.x, n4.y, n4.z, n4.w};\n",
    "        __global float *out = K + (GPUSVM_NAR_I - GPUSVM_B_LO);\n",
    "        for (int u = 0; u < 4 && r + u < cnt; ++u) {\n",
    "            if (GPUSVM_NAR_I < hi)\n",
    "                out[(size_t)kk[u] * ldk] =\n",
    "                    gpusvm_kfun(ktype, self && cc[u] == cb ? nn[u] : av[u], nn[u], nbi, gamma, coef0, degree);\n",
    "        }\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* A few rows (at most GPUSVM__FEW), Catanzaro's listing 7: where the tile\n",
    " * above would waste most of its arithmetic (two rows of a 128-row tile), each\n",
    " * work-item streams one point's features once, coalesced, and folds each\n",
    " * feature into every row's accumulator; the rows' vectors are staged in local\n",
    " * memory GPUSVM__FEW_FEAT features at a time and read back as one vector per\n",
    " * feature. The accumulation is the tile's (fma, in feature order), so both\n",
    " * kernels give the same bits. Same arguments as gpusvm_rows_tiled; grid: points x 1\n",
    " * x problems, work-groups of 256. The pass is bound by reading the points. */\n",
    "\n",
    "/* the local id and the point, read afresh wherever used (PoCL 3.1 loses such variables across\n",
    " * barriers; see part 3) */\n",
    "#define GPUSVM_FEW_LX ((int)get_local_id(0))\n",
    "#define GPUSVM_FEW_I (GPUSVM_B_LO + (int)get_global_id(0))\n",
    "\n",
    "/* FB features of the point loaded ahead, then folded into the NR rows */\n",
    "#define GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, FB)                                            \\\n",
    "    {                                                                                   \\\n",
    "        float x[FB];                                                                    \\\n",
    "        for (int u = 0; u < FB; ++u) x[u] = B[(size_t)(f0 + f + u) * pitch_b + col_b];  \\\n",
    "        for (int u = 0; u < FB; ++u) {                                                  \\\n",
    "            const VTYPE a = VLOAD(f + u, As);                                           \\\n",
    "            for (int r = 0; r < NR; ++r) acc[r] = fma(((const float *)&a)[r], x[u], acc[r]); \\\n",
    "        }                                                                               \\\n",
    "    }\n",
    "\n",
    "/* dpad is a multiple of GPUSVM__FEAT_CHUNK (16): GPUSVM__FEW_AHEAD at a time, then 16 at a time */\n",
    "#define GPUSVM_FEW_PASS(NR, VLOAD, VTYPE)                                                \\\n",
    "    for (int f0 = 0; f0 < dpad; f0 += GPUSVM__FEW_FEAT) {                                      \\\n",
    "        const int nf = min(GPUSVM__FEW_FEAT, dpad - f0);                                       \\\n",
    "        int f = 0;                                                                      \\\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                   \\\n",
    "        if (GPUSVM_FEW_LX < nf)                                                         \\\n",
    "            for (int r = 0; r < NR; ++r)                                                \\\n",
    "                As[GPUSVM_FEW_LX * NR + r] = A[(size_t)(f0 + GPUSVM_FEW_LX) * pitch_a + \\\n",
    "                                    (a_pos ? roff + min(r, nr - 1) : col_a[r])];     \\\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);                                                   \\\n",
    "        for (; f + GPUSVM__FEW_AHEAD <= nf; f += GPUSVM__FEW_AHEAD) GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, GPUSVM__FEW_AHEAD) \\\n",
    "        for (; f < nf; f += GPUSVM__FEAT_CHUNK) GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, GPUSVM__FEAT_CHUNK)     \\\n",
    "    }\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_FEW)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__FEW_L, 1, 1)))\n",
    "void gpusvm_rows_few(GPUSVM_ROWS_PARAMS)\n",
    "{\n",
    "    __local float As[GPUSVM__FEW_FEAT * GPUSVM__FEW];\n",
    "    const int p = get_group_id(2);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]); /* the problem's own (a grid's differ) */\n",
    "    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];\n",
    "    /* grid dimension 1: groups of GPUSVM__FEW rows from row_off on */\n",
    "    const int roff = row_off + (int)get_group_id(1) * GPUSVM__FEW;\n",
    "    const int nr = min(min(row_off + nrows - roff, pi[GPUSVM__PI_Q] - roff), GPUSVM__FEW);\n",
    "    const int ws = p * qmax, hi = GPUSVM_B_HI(nb, pi[GPUSVM__PI_Q]);\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;\n",
    "    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || nr <= 0 || GPUSVM_B_LO + (int)get_group_id(0) * GPUSVM__FEW_L >= hi)\n",
    "        return;\n",
    "    int col_a[GPUSVM__FEW]; /* the rows' points */\n",
    "    for (int r = 0; r < GPUSVM__FEW; ++r)\n",
    "        col_a[r] = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + roff + min(r, nr - 1)], split));\n",
    "    if (a_pos) A += (size_t)p * dpad * pitch_a;\n",
    "    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;\n",
    "    /* B's column for this work-item's point, and the point */\n",
    "    const int col_b = GPUSVM_B_COL(min(GPUSVM_FEW_I, hi - 1)), pt_b = GPUSVM_B_PT(min(GPUSVM_FEW_I, hi - 1));\n",
    "    if (ktype == GPUSVM__K_PRECOMPUTED) {\n",
    "        if (GPUSVM_FEW_I < hi)\n",
    "            for (int r = 0; r < nr; ++r)\n",
    "                K[(size_t)(ws + slot[ws + roff + r]) * ldk + (GPUSVM_FEW_I - GPUSVM_B_LO)] =\n",
    "                    B[(size_t)col_a[r] * pitch_b + col_b];\n",
    "        return;\n",
    "    }\n",
    "    float acc[GPUSVM__FEW];\n",
    "    for (int r = 0; r < GPUSVM__FEW; ++r) acc[r] = 0.0f;\n",
    "    if (nr <= 2) {\n",
    "        GPUSVM_FEW_PASS(2, vload2, float2)\n",
    "    } else if (nr <= 4) {\n",
    "        GPUSVM_FEW_PASS(4, vload4, float4)\n",
    "    } else {\n",
    "        GPUSVM_FEW_PASS(8, vload8, float8)\n",
    "    }\n",
    "    if (GPUSVM_FEW_I < hi) {\n",
    "        const float nbi = norm_b[pt_b];\n",
    "        for (int r = 0; r < nr; ++r)\n",
    "            K[(size_t)(ws + slot[ws + roff + r]) * ldk + (GPUSVM_FEW_I - GPUSVM_B_LO)] = gpusvm_kfun(\n",
    "                ktype, self && col_a[r] == pt_b ? norm_a[col_a[r]] : acc[r], norm_a[col_a[r]], nbi, gamma, coef0, degree);\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The working sets' vectors for gpusvm_rows_tiled's a_pos: positions [row_off,\n",
    " * row_off + nrows) of every problem (clipped to its working set; none for a\n",
    " * whole problem with skip_whole, as gpusvm_rows_tiled), each feature of each\n",
    " * position one work-item: Aw[(p dpad + f) qmax + r] = X[f pitch + point].\n",
    " * Grid: positions x features x problems. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)\n",
    "__kernel void gpusvm_gather_ws(GPUSVM__ARGS_GATHER_WS(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const int r = row_off + (int)get_global_id(0), f = get_global_id(1), p = get_global_id(2);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off);\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || (skip_whole && pi[GPUSVM__PI_WHOLE]) ||\n",
    "        (int)get_global_id(0) >= nr)\n",
    "        return;\n",
    "    Aw[((size_t)p * dpad + f) * qmax + r] =\n",
    "        X[(size_t)f * pitch + GPUSVM_COL(map, use_map, pi[GPUSVM__PI_PT], GPUSVM__PT(idx[p * qmax + r], pi[GPUSVM__PI_SPLIT]))];\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* Words [off, off + n) of p set to word: every fill of a device buffer (zeros, the -1s of empty\n",
    " * slots, the tests' poison), one work-item a word. A kernel rather than clEnqueueFillBuffer, so\n",
    " * that a memory checker sees the words written (oclgrind 21.10 takes filled memory for\n",
    " * uninitialised). */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)\n",
    "__kernel void gpusvm_fill(GPUSVM__ARGS_FILL(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const size_t i = get_global_id(0);\n",
    "    if (i < n) p[off + i] = word;\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The points, dense and column-major (X[f pitch + i], zeroed first), from\n",
    " * the CSR arrays as they were given (entries from base on): one work-item per\n",
    " * point, so a feature's words of adjacent points are written side by side.\n",
    " * The host uploads the nonzeros instead of a dense copy it would first have\n",
    " * to build. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)\n",
    "__kernel void gpusvm_scatter(GPUSVM__ARGS_SCATTER(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const int i = get_global_id(0);\n",
    "    if (i >= n) return;\n",
    "    for (ulong k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)\n",
    "        X[(size_t)col[k] * pitch + i] = val[k];\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/12_sparse.cl\"\n",
    "/* gpusvm kernels, part 1b: kernel rows of sparse points.\n",
    " *\n",
    " *   K[p qmax + slot[r]][i] = k(a_r, b_i)\n",
    " *\n",
    " * as gpusvm_rows_tiled (part 1), for points kept in CSR form: a_ptr/a_col/a_val\n",
    " * hold the rows' side (the training points, or the support vectors), and\n",
    " * b_ptr/b_col/b_val the columns' side (the training points again, or a block\n",
    " * of test points). Device memory is the nonzeros, whatever the feature count.\n",
    " *\n",
    " * A work-group takes GPUSVM__SPARSE_ROWS rows and GPUSVM__SPARSE_BLOCKS blocks of points. The\n",
    " * rows are the heavily reused side (every point meets them; Catanzaro's case\n",
    " * study keeps such a vector in fast memory): their nonzeros go into a hash\n",
    " * table in local memory, feature -> the GPUSVM__SPARSE_ROWS rows' values (zero where a\n",
    " * row lacks the feature), GPUSVM__SPARSE_HASH slots with linear probing, filled by\n",
    " * every work-item at once (atomic_cmpxchg on the key) and built once for all\n",
    " * the work-group's points. The points stream past it: GPUSVM__SPARSE_LANES work-items\n",
    " * per point (CSR-vector: they read a point's nonzeros side by side, so each\n",
    " * 32-byte sector is used whole and a long point holds up only its own lanes,\n",
    " * not a warp), each loading GPUSVM__SPARSE_AHEAD nonzeros ahead (the loads are the\n",
    " * latency; several in flight hide it), looking each feature up and on a hit\n",
    " * folding the value into its GPUSVM__SPARSE_ROWS partial sums with one vector read\n",
    " * from the table. A miss ends at the first empty slot; the table is at most\n",
    " * half full, so a miss costs about two probes. The lanes' partial sums are\n",
    " * then added, one row to each lane: by warp exchanges where the device has\n",
    " * them (part 0), else through local memory. Memory traffic is the points'\n",
    " * nonzeros once per GPUSVM__SPARSE_ROWS rows, not the n x d dense words of part 1.\n",
    " * (Measured on an H100 against one slot per nonzero, which holds four times\n",
    " * the nonzeros in the same memory: slower on text, whose rows fit one table.\n",
    " * On an H200, loading 1, 2 or 4 nonzeros ahead, vector or scalar reads of\n",
    " * the table, and a register cap, were within 3% of each other on deb-python;\n",
    " * the kernel takes 60 registers and 36 KiB of local memory there.)\n",
    " *\n",
    " * Rows with more nonzeros than one table holds (GPUSVM__SPARSE_ENTRIES entries) are taken\n",
    " * in passes over the rows' entries in order. A pass ends at the last row start\n",
    " * or chunk boundary that fits (gpusvm_sp_pass_end): a row of at most\n",
    " * GPUSVM__SPARSE_ENTRIES nonzeros is never split, and a longer one is cut every\n",
    " * GPUSVM__SPARSE_ENTRIES entries from its own first, so where a row's sums are rounded\n",
    " * does not depend on the rows beside it (a row's values are the same bits in\n",
    " * any working set, in any group of rows). A row's pass after its first adds\n",
    " * the dot product kept in K by the one before (each work-item reads back only\n",
    " * what it wrote), and its last applies the kernel function.\n",
    " *\n",
    " * Precision: the products and their sums are wide (part 0: a float product\n",
    " * is exact in double and in a float pair), and so are the norms, so |x|^2 + |z|^2 - 2 x.z keeps its\n",
    " * digits where large feature values cancel (unscaled data: in float, a dot of\n",
    " * 10^6 is good to 0.06, a visible error in exp(-gamma d^2) for close points);\n",
    " * the kernel value is then rounded to float. Part 1 sums in float in feature\n",
    " * order, as the host sums the norms, so its rounding errors largely cancel\n",
    " * in d^2; here the lanes sum in another order and would not. (A pass after\n",
    " * the first reads the dot product back as float.) Sparse and dense rows agree\n",
    " * to rounding, as the C backend's do; each layout is deterministic. With\n",
    " * self a point against itself is exact, as in part 1.\n",
    " */\n",
    "#if GPUSVM__SPARSE_LANES != GPUSVM__SPARSE_ROWS || GPUSVM__SPARSE_ROWS != 8\n",
    "#error \"gpusvm_rows_sparse: one row per lane in the sums' reduction and eight rows in a vector read\"\n",
    "#endif\n",
    "/* the local id, read afresh wherever used (PoCL 3.1; see part 3) */\n",
    "#define GPUSVM_SP_LID ((int)get_local_id(0))\n",
    "/* points per block and per work-group */\n",
    "#define GPUSVM_SP_BLOCK (GPUSVM__SPARSE_L / GPUSVM__SPARSE_LANES)\n",
    "#define GPUSVM_SP_PTS (GPUSVM_SP_BLOCK * GPUSVM__SPARSE_BLOCKS)\n",
    "/* Fibonacci hashing: the top GPUSVM__SPARSE_HASH_LOG bits of c times 2^32 / phi */\n",
    "#define GPUSVM_SP_HASH(c) ((((uint)(c)) * 2654435761u) >> (32 - GPUSVM__SPARSE_HASH_LOG))\n",
    "/* the point (CSR row) of position r of problem p's working set */\n",
    "#define GPUSVM_SP_ROW(r) GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[p * qmax + row_off + r0 + (r)], split))\n",
    "\n",
    "/* The table := entries [e0, e1) of the rows' concatenated nonzeros (row by row). */\n",
    "GPUSVM_INLINE void gpusvm_sp_fill(__local int *hkey, __local float *hval, int e0, int e1, __global const int *a_ptr,\n",
    "                                  __global const int *a_col, __global const float *a_val, __global const int *idx,\n",
    "                                  __global const int *map, int use_map, int pt, int split, int p, int qmax, int row_off,\n",
    "                                  int r0)\n",
    "{\n",
    "    barrier(CLK_LOCAL_MEM_FENCE); /* the last pass's readers are done */\n",
    "    for (int s = GPUSVM_SP_LID; s < GPUSVM__SPARSE_HASH; s += GPUSVM__SPARSE_L) hkey[s] = -1;\n",
    "    for (int s = GPUSVM_SP_LID; s < GPUSVM__SPARSE_HASH * GPUSVM__SPARSE_ROWS; s += GPUSVM__SPARSE_L) hval[s] = 0.0f;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int e = e0 + GPUSVM_SP_LID; e < e1; e += GPUSVM__SPARSE_L) {\n",
    "        int r = 0, k = e, ca = GPUSVM_SP_ROW(0), len = a_ptr[ca + 1] - a_ptr[ca];\n",
    "        while (k >= len) { /* the row that holds entry e */\n",
    "            k -= len;\n",
    "            ++r;\n",
    "            ca = GPUSVM_SP_ROW(r);\n",
    "            len = a_ptr[ca + 1] - a_ptr[ca];\n",
    "        }\n",
    "        const int c = a_col[a_ptr[ca] + k];\n",
    "        uint s = GPUSVM_SP_HASH(c);\n",
    "        for (;;) {\n",
    "            const int old = atomic_cmpxchg(&hkey[s], -1, c);\n",
    "            if (old == -1 || old == c) break;\n",
    "            s = (s + 1) & (GPUSVM__SPARSE_HASH - 1);\n",
    "        }\n",
    "        hval[s * GPUSVM__SPARSE_ROWS + r] = a_val[a_ptr[ca] + k];\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "}\n",
    "\n",
    "/* The end of the pass that starts at entry e0 of the rows' concatenated nonzeros (row r's are\n",
    "   [beg[r], beg[r + 1])): the largest row start or point GPUSVM__SPARSE_ENTRIES entries into a row past e0 and at\n",
    "   most GPUSVM__SPARSE_ENTRIES entries after it, or the last entry. */\n",
    "GPUSVM_INLINE int gpusvm_sp_pass_end(const int *beg, int nr, int e0)\n",
    "{\n",
    "    const int lim = min(e0 + GPUSVM__SPARSE_ENTRIES, beg[nr]);\n",
    "    int e1 = lim == beg[nr] ? lim : e0;\n",
    "    for (int r = 0; r < nr; ++r) {\n",
    "        if (beg[r + 1] <= lim) e1 = max(e1, beg[r + 1]);\n",
    "        else if (beg[r] <= lim) e1 = max(e1, beg[r] + (lim - beg[r]) / GPUSVM__SPARSE_ENTRIES * GPUSVM__SPARSE_ENTRIES);\n",
    "    }\n",
    "    return e1;\n",
    "}\n",
    "\n",
    "/* k(x, z) from <x,z>, |x|^2 and |z|^2, wide (gpusvm_kfun's cases) */\n",
    "inline float gpusvm_kfun_w(int type, gpusvm_wide dot, gpusvm_wide nx, gpusvm_wide nz, float gamma, float coef0,\n",
    "                           int degree)\n",
    "{\n",
    "    if (type == GPUSVM__K_RBF)\n",
    "        return exp(-gamma * GPUSVM_W_TOF(GPUSVM_W_MAX(GPUSVM_W_SUB(GPUSVM_W_ADD(nx, nz), GPUSVM_W_MULF(dot, 2.0f)),\n",
    "                                                      GPUSVM_W_F(0.0f))));\n",
    "    return gpusvm_kfun(type, GPUSVM_W_TOF(dot), GPUSVM_W_TOF(nx), GPUSVM_W_TOF(nz), gamma, coef0, degree);\n",
    "}\n",
    "\n",
    "/* acc += the products of this lane's nonzeros of a point, [k, kb1) in steps of GPUSVM__SPARSE_LANES */\n",
    "GPUSVM_INLINE void gpusvm_sp_scan(gpusvm_wide *acc, int k, int kb1, __global const int *b_col, __global const float *b_val,\n",
    "                                  __local const int *hkey, __local const float *hval)\n",
    "{\n",
    "    for (; k < kb1; k += GPUSVM__SPARSE_LANES * GPUSVM__SPARSE_AHEAD) {\n",
    "        int c[GPUSVM__SPARSE_AHEAD];\n",
    "        float v[GPUSVM__SPARSE_AHEAD];\n",
    "        for (int u = 0; u < GPUSVM__SPARSE_AHEAD; ++u) {\n",
    "            const int kk = min(k + u * GPUSVM__SPARSE_LANES, kb1 - 1);\n",
    "            c[u] = b_col[kk];\n",
    "            v[u] = b_val[kk];\n",
    "        }\n",
    "        for (int u = 0; u < GPUSVM__SPARSE_AHEAD && k + u * GPUSVM__SPARSE_LANES < kb1; ++u) {\n",
    "            uint s = GPUSVM_SP_HASH(c[u]);\n",
    "            int h;\n",
    "            while ((h = hkey[s]) != -1 && h != c[u]) s = (s + 1) & (GPUSVM__SPARSE_HASH - 1);\n",
    "            if (h == c[u]) {\n",
    "                const float8 w = vload8(s, hval);\n",
    "                const float wv[GPUSVM__SPARSE_ROWS] = {w.s0, w.s1, w.s2, w.s3, w.s4, w.s5, w.s6, w.s7};\n",
    "                for (int r = 0; r < GPUSVM__SPARSE_ROWS; ++r) acc[r] = GPUSVM_W_FMAF(v[u], wv[r], acc[r]);\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "}\n",
    "\n",
    "#ifdef GPUSVM_SHFL\n",
    "/* The sum over a point's 8 lanes of acc[lane]: a butterfly that halves the values each step (lane\n",
    "   bit 2: rows 0-3 or 4-7 kept, then bit 1, then bit 0); lanes are 8 consecutive work-items of a warp. */\n",
    "GPUSVM_INLINE gpusvm_wide gpusvm_sp_lanes_sum(gpusvm_wide *acc)\n",
    "{\n",
    "    const int lane = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES;\n",
    "    for (int h = 4; h >= 1; h /= 2) {\n",
    "        const int up = (lane & h) != 0;\n",
    "        for (int r = 0; r < h; ++r) {\n",
    "            const gpusvm_wide mine = up ? acc[r + h] : acc[r], other = up ? acc[r] : acc[r + h];\n",
    "            acc[r] = GPUSVM_W_ADD(mine, gpusvm_xor_w(other, h));\n",
    "        }\n",
    "    }\n",
    "    return acc[0];\n",
    "}\n",
    "#else\n",
    "/* The same sums through local memory, GPUSVM__SPARSE_SUM_ROWS rows at a time (red: GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS\n",
    "   wide words): lane r of a point takes row r, adding the lanes in order. */\n",
    "GPUSVM_INLINE gpusvm_wide gpusvm_sp_lanes_sum(gpusvm_wide *acc, __local gpusvm_wide *red)\n",
    "{\n",
    "    const int lane = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES, base = GPUSVM_SP_LID / GPUSVM__SPARSE_LANES * GPUSVM__SPARSE_LANES;\n",
    "    gpusvm_wide dot = GPUSVM_W_F(0.0f);\n",
    "    for (int part = 0; part < GPUSVM__SPARSE_ROWS / GPUSVM__SPARSE_SUM_ROWS; ++part) {\n",
    "        for (int r = 0; r < GPUSVM__SPARSE_SUM_ROWS; ++r) red[GPUSVM_SP_LID * GPUSVM__SPARSE_SUM_ROWS + r] = acc[part * GPUSVM__SPARSE_SUM_ROWS + r];\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        if (lane / GPUSVM__SPARSE_SUM_ROWS == part)\n",
    "            for (int l = 0; l < GPUSVM__SPARSE_LANES; ++l) dot = GPUSVM_W_ADD(dot, red[(base + l) * GPUSVM__SPARSE_SUM_ROWS + lane % GPUSVM__SPARSE_SUM_ROWS]);\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    return dot;\n",
    "}\n",
    "#endif\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_SPARSE)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__SPARSE_L, 1, 1))) GPUSVM_SG_ATTR\n",
    "void gpusvm_rows_sparse(GPUSVM__ARGS_ROWS_SPARSE(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int hkey[GPUSVM__SPARSE_HASH];\n",
    "    __local float hval[GPUSVM__SPARSE_HASH * GPUSVM__SPARSE_ROWS];\n",
    "#ifndef GPUSVM_SHFL\n",
    "    __local gpusvm_wide red[GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS];\n",
    "#endif\n",
    "    const int p = get_group_id(2), r0 = get_group_id(1) * GPUSVM__SPARSE_ROWS, first = get_group_id(0) * GPUSVM_SP_PTS;\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];\n",
    "    const int nr = min(min(nrows, pi[GPUSVM__PI_Q] - row_off) - r0, GPUSVM__SPARSE_ROWS);\n",
    "    /* uniform per work-group: no barrier is skipped by part of the group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;\n",
    "    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || nr <= 0 || first >= nb) return;\n",
    "\n",
    "    int beg[GPUSVM__SPARSE_ROWS + 1]; /* row r's entries in the concatenation: [beg[r], beg[r + 1]) */\n",
    "    beg[0] = 0;\n",
    "    for (int r = 0; r < nr; ++r) {\n",
    "        const int ca = GPUSVM_SP_ROW(r);\n",
    "        beg[r + 1] = beg[r] + a_ptr[ca + 1] - a_ptr[ca];\n",
    "    }\n",
    "    /* the problem's own (a grid's differ); read after the rows' set-up: read at the kernel's start,\n",
    "       it crashed Intel's CPU compiler (2026.2, in instruction selection) */\n",
    "    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]);\n",
    "    for (int e0 = 0, e1 = 0, ps = 0; ps == 0 || e0 < beg[nr]; e0 = e1, ++ps) {\n",
    "        e1 = gpusvm_sp_pass_end(beg, nr, e0);\n",
    "        gpusvm_sp_fill(hkey, hval, e0, e1, a_ptr, a_col, a_val, idx, map, use_map, pt, split, p, qmax, row_off, r0);\n",
    "        for (int blk = 0; blk < GPUSVM__SPARSE_BLOCKS; ++blk) {\n",
    "            const int i = first + blk * GPUSVM_SP_BLOCK + GPUSVM_SP_LID / GPUSVM__SPARSE_LANES;\n",
    "            gpusvm_wide acc[GPUSVM__SPARSE_ROWS], dot;\n",
    "            for (int r = 0; r < GPUSVM__SPARSE_ROWS; ++r) acc[r] = GPUSVM_W_F(0.0f);\n",
    "            if (i < nb) {\n",
    "                const int cb = GPUSVM_COL(map, use_map, pt, i);\n",
    "                gpusvm_sp_scan(acc, b_ptr[cb] + GPUSVM_SP_LID % GPUSVM__SPARSE_LANES, b_ptr[cb + 1], b_col, b_val, hkey, hval);\n",
    "            }\n",
    "#ifdef GPUSVM_SHFL\n",
    "            dot = gpusvm_sp_lanes_sum(acc);\n",
    "#else\n",
    "            dot = gpusvm_sp_lanes_sum(acc, red);\n",
    "#endif\n",
    "            { /* lane r of the point writes row r, in the passes that hold its entries (an empty row: the\n",
    "                 pass that ends past its start, or the last) */\n",
    "                const int r = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES;\n",
    "                const int mine = r < nr && (beg[r] < e1 || (beg[r] == e1 && e1 == beg[nr])) &&\n",
    "                                 (beg[r + 1] > e0 || beg[r] >= e0);\n",
    "                if (i < nb && mine) {\n",
    "                    __global float *out = K + (size_t)(p * qmax + slot[p * qmax + row_off + r0 + r]) * ldk + i;\n",
    "                    const int ca = GPUSVM_SP_ROW(r), cb = GPUSVM_COL(map, use_map, pt, i);\n",
    "                    if (beg[r] < e0) dot = GPUSVM_W_ADD(dot, GPUSVM_W_F(*out));\n",
    "                    if (beg[r + 1] > e1) *out = GPUSVM_W_TOF(dot);\n",
    "                    else /* self: as part 1 */\n",
    "                        *out = gpusvm_kfun_w(ktype, self && ca == cb ? GPUSVM_W_LD(norm_a[ca]) : dot,\n",
    "                                             GPUSVM_W_LD(norm_a[ca]), GPUSVM_W_LD(norm_b[cb]), gamma, coef0, degree);\n",
    "                }\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/14_cache.cl\"\n",
    "/* gpusvm kernels, part 1c: the row cache of a large problem.\n",
    " *\n",
    " * A problem with many more variables than its working set keeps C > q kernel\n",
    " * rows (the host's choice, from the device's memory): points come back to the\n",
    " * working set round after round, and a row still held is not computed again.\n",
    " * Before the rows kernels, gpusvm_row_cache (one work-group per problem) gives\n",
    " * each of the round's new working-set positions its slot: the one that holds\n",
    " * its row already (a hit: nothing to compute), else a victim, taken in ring\n",
    " * order from the clock hand among the slots this round does not use (the kept\n",
    " * half's and the hits'). The misses, in position order, go to the rows\n",
    " * kernels' list (row_idx, row_slot; their count in the rows' copy of the\n",
    " * problem table, rinfo's Q), so the rows kernels compute exactly those. A row\n",
    " * is the same bits wherever and beside whatever rows it is computed (part 1),\n",
    " * so the cache changes no model, only the time.\n",
    " *\n",
    " * State: cmap, per variable, the slot that holds its row or -1; per problem\n",
    " * GPUSVM__RC_HEAD words (the hand, the rows reused and computed, the round),\n",
    " * then each slot's owner (a variable or -1), then the round that last used it.\n",
    " * The owner and the map always agree. With first, the working set takes the\n",
    " * slots the host gave it (every row computed; whatever those slots and points\n",
    " * held before is forgotten).\n",
    " */\n",
    "/* Every value that differs between work-items and outlives a barrier lives in local memory\n",
    " * (lm, sc, indexed by the local id, read afresh): PoCL 3.1 lost such private values here. */\n",
    "#define GPUSVM_RC_LID ((int)get_local_id(0))\n",
    "\n",
    "/* sc := the inclusive prefix sums of x over the work-group, in work-item order (GPUSVM__L each). */\n",
    "GPUSVM_INLINE void gpusvm_rc_scan(__local const int *x, __local int *sc)\n",
    "{\n",
    "    barrier(CLK_LOCAL_MEM_FENCE); /* x written; the last scan's readers done */\n",
    "    sc[GPUSVM_RC_LID] = x[GPUSVM_RC_LID];\n",
    "    gpusvm_scan_local(sc);\n",
    "}\n",
    "\n",
    "/* slot of the work-item in the victims' window (the ring from the hand, GPUSVM__L at a time) */\n",
    "#define GPUSVM_RC_WIN(cs) ((int)(((long)lhand + lbase + GPUSVM_RC_LID) % (cs)))\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROW_CACHE)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__L, 1, 1)))\n",
    "void gpusvm_row_cache(GPUSVM__ARGS_ROW_CACHE(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int lpos[GPUSVM__Q]; /* the misses' positions, in order */\n",
    "    __local int lm[GPUSVM__L], sc[GPUSVM__L];\n",
    "    __local int lmiss, lfound, lhand, lnext, lbase, lround;\n",
    "    const int p = get_group_id(0);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int q = pi[GPUSVM__PI_Q], h = first ? 0 : q / 2;\n",
    "    __global const int *idx = ws_idx0 + p * qmax;\n",
    "    __global int *slot = ws_slot0 + p * qmax;\n",
    "    __global int *ridx = row_idx0 + p * qmax, *rslot = row_slot0 + p * qmax;\n",
    "    __global int *cmap = cmap0 + pi[GPUSVM__PI_VAR];\n",
    "    __global int *cs = cstate0 + (size_t)p * (GPUSVM__RC_HEAD + 2 * (size_t)cslots);\n",
    "    __global int *own = cs + GPUSVM__RC_HEAD, *used = own + cslots;\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || pi[GPUSVM__PI_WHOLE]) return;\n",
    "    if (GPUSVM_RC_LID == 0) {\n",
    "        lmiss = 0;\n",
    "        lfound = 0;\n",
    "        lbase = 0;\n",
    "        lhand = lnext = first ? q % cslots : cs[GPUSVM__RC_HAND]; /* after the first working set's slots */\n",
    "        lround = cs[GPUSVM__RC_ROUND] + 1;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    if (first) {\n",
    "        /* the host's slots: their old owners and its points' old slots forgotten (writes of -1 only) */\n",
    "        for (int t = GPUSVM_RC_LID; t < q; t += GPUSVM__L) {\n",
    "            const int o = own[slot[t]], s = cmap[idx[t]];\n",
    "            if (o >= 0) cmap[o] = -1;\n",
    "            if (s >= 0) own[s] = -1;\n",
    "        }\n",
    "        barrier(CLK_GLOBAL_MEM_FENCE);\n",
    "        for (int t = GPUSVM_RC_LID; t < q; t += GPUSVM__L) {\n",
    "            own[slot[t]] = idx[t];\n",
    "            cmap[idx[t]] = slot[t];\n",
    "            used[slot[t]] = lround;\n",
    "            ridx[t] = idx[t];\n",
    "            rslot[t] = slot[t];\n",
    "        }\n",
    "        if (GPUSVM_RC_LID == 0) lmiss = q;\n",
    "    } else {\n",
    "        /* the kept half's slots are in use; a new point whose row is held takes its slot */\n",
    "        for (int t = GPUSVM_RC_LID; t < h; t += GPUSVM__L) used[slot[t]] = lround;\n",
    "        for (int c0 = h; c0 < q; c0 += GPUSVM__L) {\n",
    "            lm[GPUSVM_RC_LID] = 0;\n",
    "            if (c0 + GPUSVM_RC_LID < q) {\n",
    "                const int s = cmap[idx[c0 + GPUSVM_RC_LID]];\n",
    "                if (s >= 0) {\n",
    "                    slot[c0 + GPUSVM_RC_LID] = s;\n",
    "                    used[s] = lround;\n",
    "                } else {\n",
    "                    lm[GPUSVM_RC_LID] = 1;\n",
    "                }\n",
    "            }\n",
    "            gpusvm_rc_scan(lm, sc);\n",
    "            if (lm[GPUSVM_RC_LID]) lpos[lmiss + sc[GPUSVM_RC_LID] - 1] = c0 + GPUSVM_RC_LID;\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            if (GPUSVM_RC_LID == 0) lmiss += sc[GPUSVM__L - 1];\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        }\n",
    "        /* the misses' victims: the free slots from the hand on, in ring order (a window's\n",
    "           work-items past the slot count stand aside, so a window holds no slot twice) */\n",
    "        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "        while (lfound < lmiss) { /* uniform */\n",
    "            lm[GPUSVM_RC_LID] = GPUSVM_RC_LID < cslots && used[GPUSVM_RC_WIN(cslots)] != lround;\n",
    "            gpusvm_rc_scan(lm, sc);\n",
    "            if (lm[GPUSVM_RC_LID] && lfound + sc[GPUSVM_RC_LID] - 1 < lmiss) {\n",
    "                const int k = lfound + sc[GPUSVM_RC_LID] - 1, s = GPUSVM_RC_WIN(cslots), t = lpos[k], v = idx[t];\n",
    "                const int o = own[s];\n",
    "                if (o >= 0) cmap[o] = -1; /* its row is overwritten */\n",
    "                own[s] = v;\n",
    "                cmap[v] = s;\n",
    "                used[s] = lround;\n",
    "                slot[t] = s;\n",
    "                ridx[k] = v;\n",
    "                rslot[k] = s;\n",
    "                if (k == lmiss - 1) lnext = (s + 1) % cslots; /* the hand for the next round */\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            if (GPUSVM_RC_LID == 0) {\n",
    "                lfound += sc[GPUSVM__L - 1];\n",
    "                lbase += GPUSVM__L;\n",
    "            }\n",
    "            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "        }\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (GPUSVM_RC_LID == 0) {\n",
    "        rinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_Q] = lmiss;\n",
    "        cs[GPUSVM__RC_HAND] = lnext;\n",
    "        cs[GPUSVM__RC_REUSED] += q - h - lmiss;\n",
    "        cs[GPUSVM__RC_COMPUTED] += lmiss;\n",
    "        cs[GPUSVM__RC_ROUND] = lround;\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/20_select.cl\"\n",
    "/* gpusvm kernels, part 2: optimality check and working-set selection.\n",
    " *\n",
    " * With v_i = -y_i G_i, LIBSVM's sets are\n",
    " *   I_up  = { y=+1, alpha<C } u { y=-1, alpha>0 }\n",
    " *   I_low = { y=+1, alpha>0 } u { y=-1, alpha<C }\n",
    " * and the stopping rule is m - M < eps, m = max_{I_up} v, M = min_{I_low} v.\n",
    " * The nu formulations (LIBSVM's Solver_NU) have one equality constraint per\n",
    " * class, so m and M are taken within each class and the rule is\n",
    " * max(m+ - M+, m- - M-) < eps; every pair of variables comes from one class.\n",
    " *\n",
    " * Both kernels run every problem of a batch in one launch (see part 0):\n",
    " * gpusvm_keys on a grid whose second dimension is the problem, gpusvm_select\n",
    " * with one work-group per problem.\n",
    " *\n",
    " * gpusvm_keys (GPUSVM__KEYS_WI variables per work-item, a work-group's reads\n",
    " * coalesced) writes a sort key per variable and set (smaller key = more\n",
    " * violating; GPUSVM__KEY_NONE = not a candidate, and every variable outside\n",
    " * the problem's share of a split: part 0's PI_LO, PI_HI) and one partial m / M per\n",
    " * work-group: a reduction in Structure-of-Arrays form (Catanzaro's case study), through warp\n",
    " * exchanges where the device has them (part 0).\n",
    " *\n",
    " * gpusvm_select (one work-group per problem) finishes m - M, decides\n",
    " * convergence, and\n",
    " * builds the next working set without a sort: it keeps the newest half of the\n",
    " * previous set (its kernel rows are still in place), then takes the k most\n",
    " * violating new points of I_up and of I_low (with nu, of each class's I_up\n",
    " * and I_low) by radix selection on the keys\n",
    " * (three passes over the key's digits of 11, 11 and 10 bits, three more over\n",
    " * the point index's only when keys tie), so the choice is a total order and\n",
    " * the result is deterministic.\n",
    " */\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_KEYS)\n",
    "__kernel GPUSVM_SG_ATTR void gpusvm_keys(GPUSVM__ARGS_KEYS(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local gpusvm_wide s_up[2][GPUSVM__L];\n",
    "    __local gpusvm_wide s_low[2][GPUSVM__L];\n",
    "    const int lid = get_local_id(0), p = get_group_id(1);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR], nparts = pi[GPUSVM__PI_NPARTS];\n",
    "    const int npts = pi[GPUSVM__PI_SPLIT], lo = pi[GPUSVM__PI_LO], hi = pi[GPUSVM__PI_HI];\n",
    "    __global const gpusvm_wbits *G = G0 + v0, *alpha = alpha0 + v0, *Cv = Cv0 + v0;\n",
    "    __global const char *y = y0 + v0;\n",
    "    __global uint *key_up = key_up0 + v0, *key_low = key_low0 + v0;\n",
    "    __global gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;\n",
    "    __global gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || (int)get_group_id(0) >= nparts) return;\n",
    "\n",
    "    /* class 0: every variable (nu: y = +1), class 1: nu's y = -1 */\n",
    "    gpusvm_wide up[2], low[2]; /* indexed by constants only */\n",
    "    up[0] = up[1] = GPUSVM_W_F(-INFINITY);\n",
    "    low[0] = low[1] = GPUSVM_W_F(INFINITY);\n",
    "    const int base = (int)get_group_id(0) * (GPUSVM__L * GPUSVM__KEYS_WI) + lid;\n",
    "    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) {\n",
    "        const int i = base + u * GPUSVM__L;\n",
    "        if (i < n) {\n",
    "            const int own = GPUSVM__PT(i, npts) >= lo && GPUSVM__PT(i, npts) < hi; /* else a candidate elsewhere */\n",
    "            const gpusvm_wide a = GPUSVM_W_LD(alpha[i]), g = GPUSVM_W_LD(G[i]);\n",
    "            const int pos = y[i] > 0;\n",
    "            const gpusvm_wide C = GPUSVM_W_LD(Cv[i]); /* the class's C times the sample's weight */\n",
    "            const gpusvm_wide v = pos ? GPUSVM_W_NEG(g) : g;\n",
    "            const int in_up = own && (pos ? GPUSVM_W_LT(a, C) : GPUSVM_W_GT(a, GPUSVM_W_F(0.0f)));\n",
    "            const int in_low = own && (pos ? GPUSVM_W_GT(a, GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a, C));\n",
    "            const uint k = gpusvm_float_key(GPUSVM_W_TOF(v));\n",
    "            const int c1 = nu && !pos;\n",
    "            key_up[i] = in_up ? ~k : GPUSVM__KEY_NONE;\n",
    "            key_low[i] = in_low ? k : GPUSVM__KEY_NONE;\n",
    "            up[0] = (in_up && !c1) ? GPUSVM_W_MAX(up[0], v) : up[0];\n",
    "            up[1] = (in_up && c1) ? GPUSVM_W_MAX(up[1], v) : up[1];\n",
    "            low[0] = (in_low && !c1) ? GPUSVM_W_MIN(low[0], v) : low[0];\n",
    "            low[1] = (in_low && c1) ? GPUSVM_W_MIN(low[1], v) : low[1];\n",
    "        }\n",
    "    }\n",
    "#ifdef GPUSVM_SHFL\n",
    "    for (int m = GPUSVM_WARP / 2; m > 0; m >>= 1)\n",
    "        for (int c = 0; c < 2; ++c) {\n",
    "            up[c] = GPUSVM_W_MAX(up[c], gpusvm_xor_w(up[c], m));\n",
    "            low[c] = GPUSVM_W_MIN(low[c], gpusvm_xor_w(low[c], m));\n",
    "        }\n",
    "    if (lid % GPUSVM_WARP == 0)\n",
    "        for (int c = 0; c < 2; ++c) {\n",
    "            s_up[c][lid / GPUSVM_WARP] = up[c];\n",
    "            s_low[c][lid / GPUSVM_WARP] = low[c];\n",
    "        }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    const int nfold = GPUSVM__L / GPUSVM_WARP;\n",
    "#else\n",
    "    for (int c = 0; c < 2; ++c) {\n",
    "        s_up[c][lid] = up[c];\n",
    "        s_low[c][lid] = low[c];\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__L / 2; s > 1; s >>= 1) {\n",
    "        if (lid < s) {\n",
    "            for (int c = 0; c < 2; ++c) {\n",
    "                s_up[c][lid] = GPUSVM_W_MAX(s_up[c][lid], s_up[c][lid + s]);\n",
    "                s_low[c][lid] = GPUSVM_W_MIN(s_low[c][lid], s_low[c][lid + s]);\n",
    "            }\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    const int nfold = 2;\n",
    "#endif\n",
    "    if (lid < 4) { /* the four partials, one work-item each */\n",
    "        const int c = lid >> 1, g = get_group_id(0);\n",
    "        __local gpusvm_wide *sv = (lid & 1) ? s_low[c] : s_up[c];\n",
    "        gpusvm_wide m = sv[0];\n",
    "        for (int u = 1; u < nfold; ++u) m = (lid & 1) ? GPUSVM_W_MIN(m, sv[u]) : GPUSVM_W_MAX(m, sv[u]);\n",
    "        ((lid & 1) ? part_low : part_up)[c * nparts + g] = GPUSVM_W_ST(m);\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The radix passes: the key's 32 bits as digits of 11, 11 and 10 bits from the top (passes 0-2),\n",
    " * then the index's likewise (passes 3-5), each counted into GPUSVM_SEL_BINS bins. (Three passes\n",
    " * of 2048 bins rather than four of 256: fewer walks over the keys, and over the grid fewer\n",
    " * launches.) */\n",
    "#define GPUSVM_SEL_BINS GPUSVM__SEL_BINS\n",
    "#define GPUSVM_SEL_PASSES 6\n",
    "#define GPUSVM_SEL_SHIFT(pass) ((pass) % 3 == 0 ? 21 : (pass) % 3 == 1 ? 10 : 0)\n",
    "#define GPUSVM_SEL_DIGIT(pass) ((pass) % 3 == 2 ? 0x3FFu : 0x7FFu)\n",
    "#define GPUSVM_SEL_WI ((int)get_local_id(0)) /* read afresh after barriers (PoCL 3.1; see part 3) */\n",
    "\n",
    "/* Scratch of a selection (in local memory, or one per problem in global memory for the grid's).\n",
    " * stage: 0 key passes, 1 take key <= found, 3 ties need the index (its passes; over the grid\n",
    " * gpusvm_sel_ties), 4 take ties up to an index, 2 take every candidate, 5 none. arrived: the\n",
    " * grid's work-groups done with a pass. */\n",
    "typedef struct {\n",
    "    uint hist[GPUSVM_SEL_BINS];\n",
    "    uint prefix, mask, need, found, stage;\n",
    "    int count;\n",
    "    uint arrived;\n",
    "} gpusvm_sel_scratch;\n",
    "typedef char gpusvm_sel_scratch_check[sizeof(gpusvm_sel_scratch) == GPUSVM__SEL_SCRATCH ? 1 : -1]; /* the host's size */\n",
    "\n",
    "/* Where the running count of the bins lh reaches need (at least 1): res[0] the bin, res[1] the\n",
    " * count before it, res[2] the count of all (res[0] and res[1] unset when all are fewer). Every\n",
    " * work-item takes part: each sums GPUSVM_SEL_BINS / GPUSVM__L consecutive bins, a scan over ls\n",
    " * (GPUSVM__L words) gives each sum's start, and the work-item whose bins hold the crossing walks\n",
    " * them. */\n",
    "GPUSVM_INLINE void gpusvm_sel_find(__local const uint *lh, __local int *ls, __local uint *res, uint need)\n",
    "{\n",
    "    const int per = GPUSVM_SEL_BINS / GPUSVM__L;\n",
    "    uint sum = 0;\n",
    "    for (int u = 0; u < per; ++u) sum += lh[GPUSVM_SEL_WI * per + u];\n",
    "    ls[GPUSVM_SEL_WI] = (int)sum; /* counts of points: below 2^31 */\n",
    "    gpusvm_scan_local(ls);\n",
    "    {\n",
    "        const uint incl = (uint)ls[GPUSVM_SEL_WI];\n",
    "        uint cum = GPUSVM_SEL_WI > 0 ? (uint)ls[GPUSVM_SEL_WI - 1] : 0u;\n",
    "        if (GPUSVM_SEL_WI == GPUSVM__L - 1) res[2] = incl;\n",
    "        if (cum < need && incl >= need) {\n",
    "            int b = GPUSVM_SEL_WI * per;\n",
    "            for (; b < GPUSVM_SEL_WI * per + per - 1 && cum + lh[b] < need; ++b) cum += lh[b];\n",
    "            res[0] = (uint)b;\n",
    "            res[1] = cum;\n",
    "        }\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "}\n",
    "\n",
    "/* The decision after pass `pass` from its bins lh and gpusvm_sel_find's res, by one work-item:\n",
    " * the digit where the count reaches what is still needed. Used by the one-work-group passes\n",
    " * (scratch in local memory) and by the grid's last work-group (scratch in global memory). */\n",
    "#define GPUSVM_SEL_APPLY(sc, lh, res, pass)                                            \\\n",
    "    do {                                                                              \\\n",
    "        if ((pass) == 0 && (res)[2] <= (sc)->need) {                                  \\\n",
    "            (sc)->stage = 2; /* fewer candidates than wanted: all of them */          \\\n",
    "        } else {                                                                      \\\n",
    "            const uint b_ = (res)[0];                                                 \\\n",
    "            (sc)->need -= (res)[1];                                                   \\\n",
    "            (sc)->prefix |= b_ << GPUSVM_SEL_SHIFT(pass);                             \\\n",
    "            (sc)->mask |= GPUSVM_SEL_DIGIT(pass) << GPUSVM_SEL_SHIFT(pass);           \\\n",
    "            if ((pass) == 2) { /* the key threshold; do ties need the index? */       \\\n",
    "                (sc)->found = (sc)->prefix;                                           \\\n",
    "                (sc)->stage = ((lh)[b_] == (sc)->need) ? 1 : 3;                       \\\n",
    "                (sc)->prefix = 0;                                                     \\\n",
    "                (sc)->mask = 0;                                                       \\\n",
    "            }                                                                         \\\n",
    "            if ((pass) == 5) (sc)->stage = 4;                                         \\\n",
    "        }                                                                             \\\n",
    "    } while (0)\n",
    "\n",
    "/* One side's radix select: the passes over the keys of the candidates (class cls, or any when\n",
    " * 0), then over the index of those tied at the threshold when more tie than are needed; sc says\n",
    " * afterwards what to take (ls, res: gpusvm_sel_find's scratch; res[3] the next pass). The passes\n",
    " * not needed are not run: the loop's count is in local memory, so it is uniform (a barrier under\n",
    " * a uniform branch instead went wrong on PoCL 3.1). */\n",
    "GPUSVM_INLINE void gpusvm_select_passes(__local gpusvm_sel_scratch *sc, __local int *ls, __local uint *res,\n",
    "                                        __global const uint *keys, __global const char *y, int cls, int n)\n",
    "{\n",
    "    if (GPUSVM_SEL_WI == 0) res[3] = sc->stage == 0 ? 0u : (uint)GPUSVM_SEL_PASSES;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    while (res[3] < (uint)GPUSVM_SEL_PASSES) { /* uniform */\n",
    "        const int pass = (int)res[3];\n",
    "        const int on_index = pass >= 3;\n",
    "        const int shift = GPUSVM_SEL_SHIFT(pass);\n",
    "        const uint digit = GPUSVM_SEL_DIGIT(pass);\n",
    "        const uint prefix = sc->prefix, mask = sc->mask, found = sc->found;\n",
    "        for (int b = GPUSVM_SEL_WI; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sc->hist[b] = 0;\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        for (int i = GPUSVM_SEL_WI; i < n; i += GPUSVM__L) {\n",
    "            const uint key = keys[i];\n",
    "            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;\n",
    "            if (!on_index) {\n",
    "                if ((key & mask) == prefix) atomic_inc(&sc->hist[(key >> shift) & digit]);\n",
    "            } else if (key == found && (((uint)i) & mask) == prefix) {\n",
    "                atomic_inc(&sc->hist[(((uint)i) >> shift) & digit]);\n",
    "            }\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        gpusvm_sel_find(sc->hist, ls, res, sc->need);\n",
    "        if (GPUSVM_SEL_WI == 0) {\n",
    "            const int p = (int)res[3];\n",
    "            GPUSVM_SEL_APPLY(sc, sc->hist, res, p);\n",
    "            /* on while the stage is the passes' own: key passes (0), then index passes (3) */\n",
    "            res[3] = (sc->stage == 0 || sc->stage == 3) ? (uint)(p + 1) : (uint)GPUSVM_SEL_PASSES;\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "}\n",
    "\n",
    "/* Whether a candidate (key, index i) is taken once the passes are done (stage 2 all, 1 every key\n",
    " * up to the threshold, 4 below it and the ties up to an index). */\n",
    "GPUSVM_INLINE int gpusvm_sel_takes(uint stage, uint found, uint ithr, uint key, int i)\n",
    "{\n",
    "    return stage == 2 || key < found || (key == found && (stage == 1 || (uint)i <= ithr));\n",
    "}\n",
    "\n",
    "/* The got chosen points of list in ascending order into keep: each one's rank is the number of\n",
    " * smaller indices (indices are distinct), so no barrier sits inside a loop. A macro, not a\n",
    " * function, so that it stays written out in its kernels (see part 0). */\n",
    "#define GPUSVM_SORT_CHOSEN(list, keep, got, lid)                          \\\n",
    "    for (int c = 0; c < GPUSVM__Q / GPUSVM__L; ++c) {                     \\\n",
    "        const int t = c * GPUSVM__L + (lid);                              \\\n",
    "        if (t < (got)) {                                                  \\\n",
    "            const int v = (list)[t];                                      \\\n",
    "            int rank = 0;                                                 \\\n",
    "            for (int u = 0; u < (got); ++u) rank += (list)[u] < v;        \\\n",
    "            (keep)[rank] = v;                                             \\\n",
    "        }                                                                 \\\n",
    "    }\n",
    "\n",
    "/* One side: up to k more points from keys (class cls, or any when 0) appended to list; both of\n",
    " * a chosen point's keys become NONE. */\n",
    "GPUSVM_INLINE void gpusvm_select_side(__local gpusvm_sel_scratch *sc, __local int *ls, __local uint *res,\n",
    "                                      __local int *list, __global uint *keys, __global uint *other,\n",
    "                                      __global const char *y, int cls, int k, int n)\n",
    "{\n",
    "    if (get_local_id(0) == 0) {\n",
    "        sc->prefix = 0;\n",
    "        sc->mask = 0;\n",
    "        sc->found = 0;\n",
    "        sc->need = (uint)max(k, 0);\n",
    "        sc->stage = (k > 0) ? 0 : 5;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    gpusvm_select_passes(sc, ls, res, keys, y, cls, n);\n",
    "    const uint stage = sc->stage, found = sc->found, ithr = sc->prefix;\n",
    "    if (stage != 5) {\n",
    "        for (int i = get_local_id(0); i < n; i += GPUSVM__L) {\n",
    "            const uint key = keys[i];\n",
    "            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;\n",
    "            if (gpusvm_sel_takes(stage, found, ithr, key, i)) {\n",
    "                list[atomic_inc((volatile __local int *)&sc->count)] = i;\n",
    "                keys[i] = GPUSVM__KEY_NONE;\n",
    "                other[i] = GPUSVM__KEY_NONE;\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "}\n",
    "\n",
    "/* m and M of each class (0: every variable, or nu's y = +1; 1: nu's y = -1) from a problem's\n",
    " * gpusvm_keys partials, by the whole work-group, into r_up[c][0] and r_low[c][0]. */\n",
    "GPUSVM_INLINE void gpusvm_sel_ends(__global const gpusvm_wbits *part_up, __global const gpusvm_wbits *part_low,\n",
    "                                   int nparts, __local gpusvm_wide (*r_up)[GPUSVM__L],\n",
    "                                   __local gpusvm_wide (*r_low)[GPUSVM__L])\n",
    "{\n",
    "    for (int c = 0; c < 2; ++c) {\n",
    "        gpusvm_wide up = GPUSVM_W_F(-INFINITY), low = GPUSVM_W_F(INFINITY);\n",
    "        for (int g = GPUSVM_SEL_WI; g < nparts; g += GPUSVM__L) {\n",
    "            up = GPUSVM_W_MAX(up, GPUSVM_W_LD(part_up[c * nparts + g]));\n",
    "            low = GPUSVM_W_MIN(low, GPUSVM_W_LD(part_low[c * nparts + g]));\n",
    "        }\n",
    "        r_up[c][GPUSVM_SEL_WI] = up;\n",
    "        r_low[c][GPUSVM_SEL_WI] = low;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {\n",
    "        if (GPUSVM_SEL_WI < s) {\n",
    "            for (int c = 0; c < 2; ++c) {\n",
    "                r_up[c][GPUSVM_SEL_WI] = GPUSVM_W_MAX(r_up[c][GPUSVM_SEL_WI], r_up[c][GPUSVM_SEL_WI + s]);\n",
    "                r_low[c][GPUSVM_SEL_WI] = GPUSVM_W_MIN(r_low[c][GPUSVM_SEL_WI], r_low[c][GPUSVM_SEL_WI + s]);\n",
    "            }\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "}\n",
    "\n",
    "/* The round's stop for a problem, by its work-group: m and M from its gpusvm_keys partials, the\n",
    " * gap (nu: the worse class's), converged below eps or at max_iter pair updates, into its status\n",
    " * (a running problem's round counted). Returns GPUSVM__DONE_*. */\n",
    "GPUSVM_INLINE int gpusvm_sel_check(__global const gpusvm_wbits *part_up, __global const gpusvm_wbits *part_low,\n",
    "                                   int nparts, gpusvm_wbits eps, gpusvm_wbits max_iter, __global gpusvm_wbits *status,\n",
    "                                   int nu, __local gpusvm_wide (*r_up)[GPUSVM__L], __local gpusvm_wide (*r_low)[GPUSVM__L])\n",
    "{\n",
    "    gpusvm_sel_ends(part_up, part_low, nparts, r_up, r_low);\n",
    "    const gpusvm_wide gap0 = GPUSVM_W_SUB(r_up[0][0], r_low[0][0]), gap1 = GPUSVM_W_SUB(r_up[1][0], r_low[1][0]);\n",
    "    const int worst = (nu && GPUSVM_W_GT(gap1, gap0)) ? 1 : 0;\n",
    "    const gpusvm_wide gap = worst ? gap1 : gap0;\n",
    "    const int done = GPUSVM__STOP_RULE(GPUSVM_W_GE, gap, GPUSVM_W_LD(eps), GPUSVM_W_LD(status[GPUSVM__ST_ITER]),\n",
    "                                       GPUSVM_W_LD(max_iter));\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (get_local_id(0) == 0) {\n",
    "        status[GPUSVM__ST_GAP] = GPUSVM_W_ST(gap);\n",
    "        status[GPUSVM__ST_MUP] = GPUSVM_W_ST(r_up[worst][0]);\n",
    "        status[GPUSVM__ST_MLOW] = GPUSVM_W_ST(r_low[worst][0]);\n",
    "        status[GPUSVM__ST_DONE] = GPUSVM_W_ST(GPUSVM_W_I(done));\n",
    "        if (!done) status[GPUSVM__ST_OUTER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_OUTER]), GPUSVM_W_F(1.0f)));\n",
    "    }\n",
    "    return done;\n",
    "}\n",
    "\n",
    "/* mode 0: choose a whole working set of q points.\n",
    " * mode 1: keep positions q/2..q-1 of the previous set (moved to the front,\n",
    " *         with their row slots) and choose q/2 new points into the slots of\n",
    " *         the dropped half.\n",
    " * A problem whose working set is every variable only gets the optimality\n",
    " * check, whatever the mode. q is the problem's working-set size.\n",
    " *\n",
    " * The new points are the fresh/2 smallest (key, index) pairs of I_up, then\n",
    " * the smallest of I_low for the rest, then I_up again for whatever I_low\n",
    " * lacked; with nu, a quarter each from I_up and I_low of y = +1, then of\n",
    " * y = -1, then I_up and I_low of either class for whatever is still\n",
    " * missing. A chosen point gets both keys set to NONE. Each choice is a radix\n",
    " * select: three passes over the key (digits of 11, 11 and 10 bits), then,\n",
    " * only when more points tie at the threshold than are still needed, three\n",
    " * passes over the index of the tied points. Every loop that holds a barrier\n",
    " * runs a number of times read from local memory (uniform); passes not needed\n",
    " * are not run. */\n",
    "/* side s of the selection: GPUSVM__SIDE_* (part 0) */\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SELECT)\n",
    "__kernel void gpusvm_select(GPUSVM__ARGS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int list[GPUSVM__Q];\n",
    "    __local int keep[GPUSVM__Q];\n",
    "    __local gpusvm_wide r_up[2][GPUSVM__L];\n",
    "    __local gpusvm_wide r_low[2][GPUSVM__L];\n",
    "    __local gpusvm_sel_scratch sc;\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local uint res[4];\n",
    "    const int lid = get_local_id(0), p = get_group_id(0);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR], nparts = pi[GPUSVM__PI_NPARTS];\n",
    "    const int q = pi[GPUSVM__PI_Q], mode = pi[GPUSVM__PI_WHOLE] ? 2 : mode_in;\n",
    "    __global uint *key_up = key_up0 + v0, *key_low = key_low0 + v0;\n",
    "    __global const char *y = y0 + v0;\n",
    "    __global const gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;\n",
    "    __global const gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;\n",
    "    __global int *ws_idx = ws_idx0 + p * qmax, *ws_slot = ws_slot0 + p * qmax;\n",
    "    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;\n",
    "    __global gpusvm_sel_scratch *sel0 = (__global gpusvm_sel_scratch *)sel_g;\n",
    "    if (!GPUSVM_RUNNING(status)) return;\n",
    "\n",
    "    const int done = gpusvm_sel_check(part_up, part_low, nparts, eps, max_iter, status, nu, r_up, r_low);\n",
    "    if (lid == 0) sc.count = 0;\n",
    "    if (done || mode == 2) return;\n",
    "    if (split) { /* the sides run over the grid (below): their scratch starts empty */\n",
    "        for (int b = lid; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sel0[p].hist[b] = 0;\n",
    "        if (lid == 0) {\n",
    "            sel0[p].count = 0;\n",
    "            sel0[p].arrived = 0;\n",
    "        }\n",
    "    }\n",
    "\n",
    "    /* mode 1: the newest half moves to the front; the dropped half's slots are reused */\n",
    "    const int h = (mode == 1) ? q / 2 : 0;\n",
    "    const int fresh = q - h;\n",
    "    for (int t = lid; t < h; t += GPUSVM__L) {\n",
    "        keep[t] = ws_idx[h + t];\n",
    "        keep[h + t] = ws_slot[h + t];\n",
    "        list[t] = ws_slot[t];\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    for (int t = lid; t < h; t += GPUSVM__L) {\n",
    "        ws_idx[t] = keep[t];\n",
    "        ws_slot[t] = keep[h + t];\n",
    "        ws_slot[h + t] = list[t];\n",
    "        key_up[keep[t]] = GPUSVM__KEY_NONE;\n",
    "        key_low[keep[t]] = GPUSVM__KEY_NONE;\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (split) return;\n",
    "\n",
    "    /* sides: which keys, from which class (0: any), up to how many chosen in all */\n",
    "    for (int side = 0; side < GPUSVM__SIDES(nu); ++side) {\n",
    "        const int low_side = GPUSVM__SIDE_LOW(side, nu), cls = GPUSVM__SIDE_CLS(side, nu);\n",
    "        gpusvm_select_side(&sc, ls, res, list, low_side ? key_low : key_up, low_side ? key_up : key_low, y, cls,\n",
    "                           GPUSVM__SIDE_UPTO(side, nu, fresh) - sc.count, n);\n",
    "    }\n",
    "\n",
    "    const int got = sc.count;\n",
    "    GPUSVM_SORT_CHOSEN(list, keep, got, lid);\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int c = 0; c < GPUSVM__Q / GPUSVM__L; ++c) {\n",
    "        const int t = c * GPUSVM__L + lid;\n",
    "        if (t < got) ws_idx[h + t] = keep[t];\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* A batch whose every problem is solved whole (its working set is all its variables: nothing to\n",
    " * choose) takes gpusvm_select's stop alone, without the radix select's code (a first run on a\n",
    " * GPU compiles the part it uses: NVIDIA H200, 0.42 s for gpusvm_select). */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CHECK)\n",
    "__kernel void gpusvm_check(GPUSVM__ARGS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local gpusvm_wide r_up[2][GPUSVM__L];\n",
    "    __local gpusvm_wide r_low[2][GPUSVM__L];\n",
    "    const int p = get_group_id(0);\n",
    "    const int nparts = pinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_NPARTS];\n",
    "    __global const gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;\n",
    "    __global const gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;\n",
    "    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;\n",
    "    if (!GPUSVM_RUNNING(status)) return;\n",
    "    gpusvm_sel_check(part_up, part_low, nparts, eps, max_iter, status, nu, r_up, r_low);\n",
    "    /* a barrier after work-item 0's writes: ending on them, the kernel never returned on PoCL 3.1\n",
    "     * (its work-group loop ran on, heart_scale's first round) */\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The selection over the grid, for problems too many for one work-group to scan in good time\n",
    " * (the host's choice, GPUSVM__SEL_GRID): gpusvm_select with split checks and keeps the half as\n",
    " * above and empties the problem's scratch; then each side finds its key threshold in three\n",
    " * counting passes (every work-group counts its part of the keys into local bins and adds them to\n",
    " * the problem's; the last work-group to arrive takes the bins, emptying them, and decides: the\n",
    " * first pass in gpusvm_sel_hist for side 0 and in the previous side's gpusvm_sel_take for the\n",
    " * others, the other two in gpusvm_sel_hist); gpusvm_sel_ties finds the index threshold when more\n",
    " * points tie at the key threshold than are still needed (in one launch instead of three index\n",
    " * passes: counts of ties per work-group, then the last work-group walks them); gpusvm_sel_take\n",
    " * takes the points, and the last side's puts them in order. With gpusvm_keys and gpusvm_select,\n",
    " * 3 + 4 x sides launches a round (15; with nu 27). The same rules as the one-work-group path, so\n",
    " * the same working set.\n",
    " * Scratch and list: one gpusvm_sel_scratch and qmax ints per problem. (The ordering keeps no\n",
    " * barrier: with barriers, PoCL 3.1 wrote outside the list. Every work-group reaches every\n",
    " * barrier, and only the last one's result is used: barriers under a branch uniform over the\n",
    " * work-group went wrong on PoCL 3.1.) */\n",
    "/* the work-item and the problem's scratch, read afresh after a barrier (PoCL 3.1 loses such\n",
    " * variables across barriers; see part 3) */\n",
    "#define GPUSVM_SEL_LID ((int)get_local_id(0))\n",
    "#define GPUSVM_SEL_SC ((__global gpusvm_sel_scratch *)sel_g + (int)get_group_id(1))\n",
    "#define GPUSVM_SEL_NPARTS (pinfo[(int)get_group_id(1) * GPUSVM__PI_COUNT + GPUSVM__PI_NPARTS])\n",
    "/* variable u of this work-group's work-item (the keys' order: gpusvm_keys') */\n",
    "#define GPUSVM_SEL_VAR(u) ((int)get_group_id(0) * (GPUSVM__L * GPUSVM__KEYS_WI) + (u) * GPUSVM__L + GPUSVM_SEL_LID)\n",
    "#define GPUSVM_SEL_HEAD                                                                          \\\n",
    "    const int p = get_group_id(1);                                                               \\\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;                                       \\\n",
    "    __global gpusvm_sel_scratch *sc = (__global gpusvm_sel_scratch *)sel_g + p;                  \\\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || pi[GPUSVM__PI_WHOLE]) return;\n",
    "/* side s's keys (1: I_low), class (0: any) and how many it still wants (count taken so far), and\n",
    " * the sides: gpusvm_select's (GPUSVM__SIDE_*), or with cands a split problem's lists\n",
    " * (GPUSVM__CO_*), each wanting fresh */\n",
    "#define GPUSVM_SEL_LOW(s) (cands ? GPUSVM__CO_LOW(s) : GPUSVM__SIDE_LOW(s, nu))\n",
    "#define GPUSVM_SEL_CLS(s) (cands ? GPUSVM__CO_CLS(s, nu) : GPUSVM__SIDE_CLS(s, nu))\n",
    "#define GPUSVM_SEL_WANT(s, fresh, count) (cands ? (fresh) : GPUSVM__SIDE_UPTO(s, nu, fresh) - (count))\n",
    "#define GPUSVM_SEL_NSIDES (cands ? GPUSVM__CO_NLISTS(nu) : GPUSVM__SIDES(nu))\n",
    "/* the side's keys, the other side's, the labels and class filter (gpusvm_sel_hist, _ties, _take) */\n",
    "#define GPUSVM_SEL_KEYS                                                                          \\\n",
    "    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR];                                   \\\n",
    "    const int low_side = GPUSVM_SEL_LOW(side), cls = GPUSVM_SEL_CLS(side);                         \\\n",
    "    __global uint *keys = (low_side ? key_low0 : key_up0) + v0;                                  \\\n",
    "    __global uint *other = (low_side ? key_up0 : key_low0) + v0;                                 \\\n",
    "    __global const char *y = y0 + v0;\n",
    "/* Counting pass `pass` (0-2) over this work-group's candidates in cnt_keys (class cnt_cls, or\n",
    " * any when 0; none when !on) whose key has the bits (prefix, mask): local bins lh by the pass's\n",
    " * digit, added to the problem's; then last (local) says whether this work-group was the last to\n",
    " * add (the arrival count after a device-wide fence, part 0), and the last one's lh holds the\n",
    " * problem's bins, read with atomic exchanges that empty them for the next pass. A macro, so that\n",
    " * it stays written out in its kernels (see part 0). */\n",
    "#define GPUSVM_SEL_COUNT(cnt_keys, cnt_cls, on, pass, prefix, mask)                             \\\n",
    "    for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L) lh[b_] = 0;         \\\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                               \\\n",
    "    for (int u_ = 0; u_ < GPUSVM__KEYS_WI && (on); ++u_) {                                          \\\n",
    "        const int i_ = GPUSVM_SEL_VAR(u_);                                                      \\\n",
    "        if (i_ >= n) continue;                                                                  \\\n",
    "        const uint key_ = (cnt_keys)[i_];                                                       \\\n",
    "        if (key_ == GPUSVM__KEY_NONE || ((cnt_cls) && y[i_] != (cnt_cls))) continue;           \\\n",
    "        if ((key_ & (mask)) == (prefix))                                                        \\\n",
    "            atomic_inc(&lh[(key_ >> GPUSVM_SEL_SHIFT(pass)) & GPUSVM_SEL_DIGIT(pass)]);         \\\n",
    "    }                                                                                           \\\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                               \\\n",
    "    for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L)                       \\\n",
    "        if (lh[b_]) atomic_add(&GPUSVM_SEL_SC->hist[b_], lh[b_]);                               \\\n",
    "    GPUSVM_FENCE_DEVICE();                                                                      \\\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                        \\\n",
    "    if (GPUSVM_SEL_LID == 0) last = atomic_inc(&GPUSVM_SEL_SC->arrived) == (uint)GPUSVM_SEL_NPARTS - 1u; \\\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                               \\\n",
    "    if (last && (on))                                                                           \\\n",
    "        for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L)                   \\\n",
    "            lh[b_] = atomic_xchg(&GPUSVM_SEL_SC->hist[b_], 0u);                                 \\\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "\n",
    "/* A side's start, decided from its first counting pass by the last work-group (sc: the\n",
    " * problem's scratch): k (the count still wanted) <= 0 takes none, else the first digit. */\n",
    "#define GPUSVM_SEL_START(sc, k, lh, res)                                                        \\\n",
    "    do {                                                                                        \\\n",
    "        (sc)->need = (uint)max((k), 0);                                                         \\\n",
    "        (sc)->prefix = (sc)->mask = (sc)->found = 0;                                            \\\n",
    "        (sc)->stage = (k) > 0 ? 0u : 5u;                                                        \\\n",
    "        if ((k) > 0) GPUSVM_SEL_APPLY(sc, lh, res, 0);                                          \\\n",
    "    } while (0)\n",
    "\n",
    "/* Key pass `pass` (0-2) of side `side`. Pass 0 starts the side from the count so far (k <= 0:\n",
    " * none to take, said by work-group 0); the others go on from the scratch. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)\n",
    "__kernel void gpusvm_sel_hist(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local uint lh[GPUSVM_SEL_BINS];\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local uint res[4];\n",
    "    __local int last;\n",
    "    GPUSVM_SEL_HEAD\n",
    "    GPUSVM_SEL_KEYS\n",
    "    const int q = pi[GPUSVM__PI_Q], fresh = q - (mode_in == 1 ? q / 2 : 0);\n",
    "    const int k = GPUSVM_SEL_WANT(side, fresh, sc->count); /* pass 0: still wanted */\n",
    "    if (pass == 0 && k <= 0) {\n",
    "        if (get_group_id(0) == 0 && get_local_id(0) == 0) sc->stage = 5;\n",
    "        return;\n",
    "    }\n",
    "    const uint stage = pass == 0 ? 0u : sc->stage, prefix = pass == 0 ? 0u : sc->prefix;\n",
    "    const uint mask = pass == 0 ? 0u : sc->mask;\n",
    "    /* uniform per work-group */\n",
    "    if (stage != 0 || (int)get_group_id(0) >= pi[GPUSVM__PI_NPARTS]) return;\n",
    "    GPUSVM_SEL_COUNT(keys, cls, 1, pass, prefix, mask)\n",
    "    gpusvm_sel_find(lh, ls, res, pass == 0 ? (uint)k : GPUSVM_SEL_SC->need);\n",
    "    if (last && GPUSVM_SEL_LID == 0) {\n",
    "        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;\n",
    "        if (pass == 0)\n",
    "            GPUSVM_SEL_START(sc1, k, lh, res);\n",
    "        else\n",
    "            GPUSVM_SEL_APPLY(sc1, lh, res, pass);\n",
    "        sc1->arrived = 0;\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* More points tie at the key threshold than are still needed (stage 3): the tied points of the\n",
    " * need smallest indices are taken, so the index threshold is the need-th tied index. Every\n",
    " * work-group counts its ties (ties0, per work-group); the last to arrive finds the work-group\n",
    " * where the running count reaches need, walks that one's variables in index order to the tie\n",
    " * that reaches it, and sets stage 4 with that index. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)\n",
    "__kernel void gpusvm_sel_ties(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local int at[2];\n",
    "    __local uint res[1];\n",
    "    __local int last;\n",
    "    GPUSVM_SEL_HEAD\n",
    "    GPUSVM_SEL_KEYS\n",
    "    const uint found = sc->found;\n",
    "    const int nparts = pi[GPUSVM__PI_NPARTS];\n",
    "    __global uint *cnt = ties0 + (size_t)p * 4 * nparts_max;\n",
    "    /* uniform over the grid, then per work-group */\n",
    "    if (sc->stage != 3 || (int)get_group_id(0) >= nparts) return;\n",
    "#define GPUSVM_SEL_TIED(i) \\\n",
    "    ((i) < n && keys[i] == found && found != GPUSVM__KEY_NONE && (!cls || y[i] == cls))\n",
    "    int c = 0;\n",
    "    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) c += GPUSVM_SEL_TIED(GPUSVM_SEL_VAR(u));\n",
    "    ls[GPUSVM_SEL_LID] = c;\n",
    "    gpusvm_scan_local(ls);\n",
    "    if (GPUSVM_SEL_LID == GPUSVM__L - 1) cnt[get_group_id(0)] = (uint)ls[GPUSVM__L - 1];\n",
    "    GPUSVM_FENCE_DEVICE();\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (GPUSVM_SEL_LID == 0) {\n",
    "        last = atomic_inc(&GPUSVM_SEL_SC->arrived) == (uint)GPUSVM_SEL_NPARTS - 1u;\n",
    "        at[0] = 0;\n",
    "        at[1] = 1;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    /* the work-group where the running count of ties reaches need, and the rank there */\n",
    "    const uint need = GPUSVM_SEL_SC->need;\n",
    "    uint before = 0;\n",
    "    for (int g0 = 0; g0 < nparts; g0 += GPUSVM__L) {\n",
    "        const int g = g0 + GPUSVM_SEL_LID;\n",
    "        const uint cg = g < nparts ? ((volatile __global const uint *)cnt)[g] : 0u;\n",
    "        ls[GPUSVM_SEL_LID] = (int)cg; /* counts of points: below 2^31 */\n",
    "        gpusvm_scan_local(ls);\n",
    "        const uint incl = before + (uint)ls[GPUSVM_SEL_LID];\n",
    "        if (incl - cg < need && incl >= need) {\n",
    "            at[0] = g;\n",
    "            at[1] = (int)(need - (incl - cg));\n",
    "        }\n",
    "        before += (uint)ls[GPUSVM__L - 1];\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    /* that work-group's variables in index order (u, then work-item): the at[1]-th tie */\n",
    "    int seen = 0;\n",
    "    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) {\n",
    "        const int i = at[0] * (GPUSVM__L * GPUSVM__KEYS_WI) + u * GPUSVM__L + GPUSVM_SEL_LID;\n",
    "        const int t = GPUSVM_SEL_TIED(i);\n",
    "        ls[GPUSVM_SEL_LID] = t;\n",
    "        gpusvm_scan_local(ls);\n",
    "        if (t && seen + ls[GPUSVM_SEL_LID] == at[1]) res[0] = (uint)i;\n",
    "        seen += ls[GPUSVM__L - 1];\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "#undef GPUSVM_SEL_TIED\n",
    "    if (last && GPUSVM_SEL_LID == 0) {\n",
    "        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;\n",
    "        sc1->prefix = res[0];\n",
    "        sc1->stage = 4;\n",
    "        sc1->arrived = 0;\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* Takes side `side`'s points (stage 2 all, 1 every key up to the threshold, 4 below it and the\n",
    " * ties up to an index; 5 none), then, in the same launch, counts the next side's first pass over\n",
    " * the same variables (what was just taken is no longer a candidate there) and its last\n",
    " * work-group decides it, from the count of all taken; after the last side, the last work-group\n",
    " * puts the chosen points in ascending order instead: each one's rank is the number of smaller\n",
    " * ones in the list (indices are distinct), so that holds no barrier. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)\n",
    "__kernel void gpusvm_sel_take(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local uint lh[GPUSVM_SEL_BINS];\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local uint res[4];\n",
    "    __local int last;\n",
    "    GPUSVM_SEL_HEAD\n",
    "    GPUSVM_SEL_KEYS\n",
    "    const uint stage = sc->stage, found = sc->found, ithr = sc->prefix;\n",
    "    const int next = side + 1, more = next < GPUSVM_SEL_NSIDES;\n",
    "    const int q = pi[GPUSVM__PI_Q], h = mode_in == 1 ? q / 2 : 0;\n",
    "    /* uniform per work-group */\n",
    "    if ((int)get_group_id(0) >= pi[GPUSVM__PI_NPARTS]) return;\n",
    "    for (int u = 0; u < GPUSVM__KEYS_WI && stage != 5; ++u) {\n",
    "        const int i = GPUSVM_SEL_VAR(u);\n",
    "        if (i >= n) continue;\n",
    "        const uint key = keys[i];\n",
    "        if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;\n",
    "        if (gpusvm_sel_takes(stage, found, ithr, key, i)) {\n",
    "            const int at = atomic_inc((volatile __global int *)&sc->count);\n",
    "            if (cands) { /* a split problem's list: the report, the keys left as they are */\n",
    "                out[GPUSVM__CO_LIST(qmax, side) + 1 + at] = ((ulong)key << 32) | (ulong)(uint)i;\n",
    "                out[GPUSVM__CO_LIST(qmax, side) + 1 + qmax + at] = GPUSVM_W_BITS(G0[v0 + i]);\n",
    "                continue;\n",
    "            }\n",
    "            list0[p * qmax + at] = i;\n",
    "            keys[i] = GPUSVM__KEY_NONE;\n",
    "            other[i] = GPUSVM__KEY_NONE;\n",
    "        }\n",
    "    }\n",
    "    /* the next side's first pass (each work-item counts the variables it took from) */\n",
    "    const int low_n = more && GPUSVM_SEL_LOW(next), cls_n = more ? GPUSVM_SEL_CLS(next) : 0;\n",
    "    __global const uint *keys_n = (low_n ? key_low0 : key_up0) + v0;\n",
    "    GPUSVM_SEL_COUNT(keys_n, cls_n, more, 0, 0u, 0u)\n",
    "    const int k = GPUSVM_SEL_WANT(next, q - h, atomic_add((volatile __global int *)&GPUSVM_SEL_SC->count, 0));\n",
    "    gpusvm_sel_find(lh, ls, res, k > 0 ? (uint)k : 1u);\n",
    "    if (last && cands && GPUSVM_SEL_LID == 0) { /* the list's length; the next list's from 0 */\n",
    "        out[GPUSVM__CO_LIST(qmax, side)] = (ulong)atomic_xchg((volatile __global int *)&GPUSVM_SEL_SC->count, 0);\n",
    "    }\n",
    "    if (last && more && GPUSVM_SEL_LID == 0) {\n",
    "        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;\n",
    "        GPUSVM_SEL_START(sc1, k, lh, res);\n",
    "    }\n",
    "    if (last && !more && !cands) { /* the order */\n",
    "        __global const volatile int *list = list0 + (int)get_group_id(1) * qmax;\n",
    "        const int got = atomic_add((volatile __global int *)&GPUSVM_SEL_SC->count, 0);\n",
    "        for (int t = GPUSVM_SEL_LID; t < got; t += GPUSVM__L) {\n",
    "            const int v = list[t];\n",
    "            int rank = 0;\n",
    "            for (int u = 0; u < got; ++u) rank += list[u] < v;\n",
    "            ws_idx0[(int)get_group_id(1) * qmax + h + rank] = v;\n",
    "        }\n",
    "    }\n",
    "    if (last && GPUSVM_SEL_LID == 0) GPUSVM_SEL_SC->arrived = 0;\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* A problem split by rows (part 0's report, GPUSVM__CO_*): one work-group, problem 0 (a split\n",
    " * batch holds one). gpusvm_keys ran over this share only; this finishes m and M over the share,\n",
    " * copies the status row and the working set with the gradients the share holds, sets the kept\n",
    " * half's keys to NONE as gpusvm_select does, and takes each list's q - h smallest (key, index)\n",
    " * pairs of the share by the same radix passes over the share's variables only (with epsilon-SVR\n",
    " * from its first variable to its last second one), leaving the keys as they are (the host merges the\n",
    " * parts' lists side by side as gpusvm_select takes them, so every list is complete on its own).\n",
    " * With grid (a problem of GPUSVM__SEL_GRID variables or more) the lists are left to the grid's\n",
    " * kernels (gpusvm_sel_* with cands), whose scratch this empties. The host writes the merged\n",
    " * working set back, its gradients through gpusvm_ws_put. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SPLIT)\n",
    "__kernel void gpusvm_cands(GPUSVM__ARGS_CANDS(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local gpusvm_wide r_up[2][GPUSVM__L];\n",
    "    __local gpusvm_wide r_low[2][GPUSVM__L];\n",
    "    __local gpusvm_sel_scratch sc;\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local uint res[4];\n",
    "    const int lid = get_local_id(0);\n",
    "    const int n = pinfo[GPUSVM__PI_NVAR], nparts = pinfo[GPUSVM__PI_NPARTS], q = pinfo[GPUSVM__PI_Q];\n",
    "    const int npts = pinfo[GPUSVM__PI_SPLIT], lo = pinfo[GPUSVM__PI_LO], hi = pinfo[GPUSVM__PI_HI];\n",
    "    const int h = mode_in == 1 ? q / 2 : 0, fresh = q - h;\n",
    "    const int v_lo = lo, span = (n > npts ? npts + hi : hi) - lo; /* the share's variables: [v_lo, v_lo + span) */\n",
    "    for (int t = lid; t < GPUSVM__ST_COUNT; t += GPUSVM__L) out[t] = GPUSVM_W_BITS(status0[t]);\n",
    "    if (!GPUSVM_RUNNING(status0)) return;\n",
    "\n",
    "    gpusvm_sel_ends(part_up0, part_low0, nparts, r_up, r_low);\n",
    "    if (lid < 2) {\n",
    "        out[GPUSVM__CO_ENDS + lid] = GPUSVM_W_BITS(GPUSVM_W_ST(r_up[lid][0]));\n",
    "        out[GPUSVM__CO_ENDS + 2 + lid] = GPUSVM_W_BITS(GPUSVM_W_ST(r_low[lid][0]));\n",
    "    }\n",
    "    for (int t = lid; t < q; t += GPUSVM__L) {\n",
    "        const int v = ws_idx0[t], pt = GPUSVM__PT(v, npts);\n",
    "        out[GPUSVM__CO_IDX + t] = (ulong)(uint)v;\n",
    "        out[GPUSVM__CO_SLOT(qmax) + t] = (ulong)(uint)ws_slot0[t];\n",
    "        out[GPUSVM__CO_G(qmax) + t] = pt >= lo && pt < hi ? GPUSVM_W_BITS(G0[v]) : 0UL; /* else 0.0 */\n",
    "    }\n",
    "    for (int t = lid; t < h; t += GPUSVM__L) {\n",
    "        key_up0[ws_idx0[h + t]] = GPUSVM__KEY_NONE;\n",
    "        key_low0[ws_idx0[h + t]] = GPUSVM__KEY_NONE;\n",
    "    }\n",
    "    if (grid) { /* the lists run over the grid (gpusvm_sel_*): their scratch starts empty */\n",
    "        __global gpusvm_sel_scratch *sc0 = (__global gpusvm_sel_scratch *)sel_g;\n",
    "        for (int b = lid; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sc0->hist[b] = 0;\n",
    "        if (lid == 0) sc0->count = sc0->arrived = 0;\n",
    "        return;\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "\n",
    "    for (int l = 0; l < GPUSVM__CO_NLISTS(nu); ++l) {\n",
    "        __global const uint *keys = (GPUSVM__CO_LOW(l) ? key_low0 : key_up0) + v_lo; /* the passes' index: from v_lo */\n",
    "        __global const char *y = y0 + v_lo;\n",
    "        const int cls = GPUSVM__CO_CLS(l, nu), base = GPUSVM__CO_LIST(qmax, l);\n",
    "        if (GPUSVM_SEL_WI == 0) {\n",
    "            sc.prefix = sc.mask = sc.found = 0;\n",
    "            sc.need = (uint)max(fresh, 0);\n",
    "            sc.stage = fresh > 0 ? 0u : 5u;\n",
    "            sc.count = 0;\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        gpusvm_select_passes(&sc, ls, res, keys, y, cls, span);\n",
    "        const uint stage = sc.stage, found = sc.found, ithr = sc.prefix;\n",
    "        for (int i = GPUSVM_SEL_WI; i < span && stage != 5; i += GPUSVM__L) {\n",
    "            const uint key = keys[i];\n",
    "            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;\n",
    "            if (gpusvm_sel_takes(stage, found, ithr, key, i)) {\n",
    "                const int at = atomic_inc((volatile __local int *)&sc.count);\n",
    "                out[base + 1 + at] = ((ulong)key << 32) | (ulong)(uint)(v_lo + i);\n",
    "                out[base + 1 + qmax + at] = GPUSVM_W_BITS(G0[v_lo + i]);\n",
    "            }\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        if (GPUSVM_SEL_WI == 0) out[base] = (ulong)sc.count;\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The merged working set's gradients (the host's, from the parts that hold them) into G. */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SPLIT)\n",
    "__kernel void gpusvm_ws_put(GPUSVM__ARGS_WS_PUT(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const int t = get_global_id(0);\n",
    "    if (!GPUSVM_RUNNING(status0) || t >= pinfo[GPUSVM__PI_Q]) return;\n",
    "    G0[ws_idx0[t]] = gws[t];\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/30_smo.cl\"\n",
    "/* gpusvm kernels, part 3: the inner solve.\n",
    " *\n",
    " * One work-group per problem of the batch runs LIBSVM's SMO on that\n",
    " * problem's working-set subproblem (so the pairs of one-vs-one and the folds\n",
    " * of a cross-validation solve side by side on the device): the\n",
    " * maximal-violating i, the second-order j (WSS2, Fan, Chen and Lin 2005), the\n",
    " * analytic two-variable step with LIBSVM's clipping, and the gradient update\n",
    " * of the working set, all in local memory. Kernel values come from the rows\n",
    " * gpusvm_rows_tiled left in K, which gpusvm_gather_block copies into the working set's\n",
    " * contiguous q x q block first (row and column = working-set position), so\n",
    " * that every row sweep is coalesced. Reductions are arg-extrema in\n",
    " * Structure-of-Arrays form (value array, index array), ties going to the\n",
    " * larger position as LIBSVM's \">=\" does; a pair update waits on them, so\n",
    " * where the device has warp exchanges (part 0) they run in registers, one\n",
    " * barrier each. The orders are total ((value, position) pairs), so every\n",
    " * reduction order gives the same answer as LIBSVM's linear scan.\n",
    " *\n",
    " * With nu (LIBSVM's Solver_NU) i and the stop test are taken per class and j\n",
    " * is paired with the i of its own class.\n",
    " *\n",
    " * It stops at m - M < max(eps, ratio * outer gap) on the subproblem, or after\n",
    " * max_inner pair updates, or when the run's max_iter is reached; a problem\n",
    " * whose working set is every variable solves it to eps (ratio 0, at most\n",
    " * whole_inner pair updates per launch). It writes the\n",
    " * new alphas and, per working-set position, coef = y * (alpha_new - alpha_old)\n",
    " * for gpusvm_update.\n",
    " *\n",
    " * Two barriers a pair update with warp exchanges (Catanzaro's point: the\n",
    " * inner loop is bound by its synchronisations and memory latencies, not its\n",
    " * arithmetic); the work-group is GPUSVM__SMO_L wide (the host's choice). Work-item\n",
    " * w owns working-set positions w, w + L, ...: their alpha and gradient live\n",
    " * in its registers. After i's reduction (barrier 1) it publishes them to\n",
    " * local memory; after j's (barrier 2) every work-item computes the same\n",
    " * two-variable step from the published values (contraction is off, so the\n",
    " * same bits), starts loading j's row at once and updates its own positions.\n",
    " * The publication of the next trip comes after the next barrier 1, so no\n",
    " * reader of this trip's values can see it early; i's row, read for j's\n",
    " * choice, stays in registers for the gradient update, and its value at each\n",
    " * position goes to local memory for the step's K_ij.\n",
    " *\n",
    " * The local id is read with get_local_id() wherever it is used, never kept\n",
    " * in a variable across the loop's barriers: PoCL 3.1 loses such a variable.\n",
    " */\n",
    "#define GPUSVM_LID ((int)get_local_id(0))\n",
    "#define GPUSVM_PER ((GPUSVM__Q + GPUSVM__SMO_L - 1) / GPUSVM__SMO_L) /* working-set positions a work-item owns */\n",
    "#define GPUSVM_OWN(c) (GPUSVM_LID + (c) * GPUSVM__SMO_L)      /* its c-th */\n",
    "\n",
    "/* The choices of i and j compare scores: with double the values themselves; with float pairs\n",
    " * their floats (a pair's hi, part 0), which choose as well (a tie within a float's precision\n",
    " * goes to the larger position) and keep each pair update's chain of dependent operations\n",
    " * short (H200, a9a: the inner solve with every choice in pairs took 2.7 times as long). The\n",
    " * step takes the pairs. */\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "typedef float gpusvm_score;\n",
    "#define GPUSVM_SC(v) ((v).hi)\n",
    "#define GPUSVM_XOR_SC(v, m) gpusvm_xor_f((v), (m))\n",
    "#else\n",
    "typedef double gpusvm_score;\n",
    "#define GPUSVM_SC(v) (v)\n",
    "#define GPUSVM_XOR_SC(v, m) gpusvm_xor_w((v), (m))\n",
    "#endif\n",
    "\n",
    "/* (a, ia) := the larger of (a, ia) and (b, ib) in the order of (value, position). */\n",
    "#define GPUSVM_ARGMAX(a, ia, b, ib)                                   \\\n",
    "    do {                                                              \\\n",
    "        const gpusvm_score b_ = (b);                                  \\\n",
    "        const int ib_ = (ib);                                         \\\n",
    "        const int take_ = (b_ > (a)) || (b_ == (a) && ib_ > (ia));    \\\n",
    "        (a) = take_ ? b_ : (a);                                       \\\n",
    "        (ia) = take_ ? ib_ : (ia);                                    \\\n",
    "    } while (0)\n",
    "\n",
    "#ifdef GPUSVM_SHFL\n",
    "#define GPUSVM_NW (GPUSVM__SMO_L / GPUSVM_WARP)\n",
    "#if GPUSVM_NW > GPUSVM_WARP\n",
    "#error \"gpusvm_smo folds one partial per warp in one warp: GPUSVM__SMO_L is at most 1024\"\n",
    "#endif\n",
    "#if defined(GPUSVM_NV_REDUX) && defined(GPUSVM_NO_FP64)\n",
    "/* (v, t) := the warp's arg-max of (v, t), in every lane: two redux.sync (part 0), the float's\n",
    "   order key and the position among the lanes that hold it */\n",
    "#define GPUSVM_WARP_ARGMAX(v, t)                                                  \\\n",
    "    do {                                                                          \\\n",
    "        const uint k_ = gpusvm_float_key((v) + 0.0f);                             \\\n",
    "        const uint K_ = gpusvm_redux_max(k_);                                     \\\n",
    "        const uint T_ = gpusvm_redux_max(k_ == K_ ? (uint)((t) + 1) : 0u);       \\\n",
    "        v = gpusvm_key_float(K_);                                                 \\\n",
    "        t = (int)T_ - 1;                                                          \\\n",
    "    } while (0)\n",
    "/* v := the warp's maximum of v, in every lane: one */\n",
    "#define GPUSVM_WARP_MAX(v) v = gpusvm_key_float(gpusvm_redux_max(gpusvm_float_key((v) + 0.0f)))\n",
    "#elif defined(GPUSVM_NV_REDUX)\n",
    "/* (v, t) := the warp's arg-max of (v, t), in every lane: three redux.sync (part 0) */\n",
    "#define GPUSVM_WARP_ARGMAX(v, t)                                                  \\\n",
    "    do {                                                                          \\\n",
    "        const ulong k_ = gpusvm_wide_key(v);                                      \\\n",
    "        const uint hi_ = (uint)(k_ >> 32), lo_ = (uint)k_;                        \\\n",
    "        const uint H_ = gpusvm_redux_max(hi_);                                    \\\n",
    "        const uint L_ = gpusvm_redux_max(hi_ == H_ ? lo_ : 0u);                   \\\n",
    "        const uint T_ = gpusvm_redux_max(hi_ == H_ && lo_ == L_ ? (uint)((t) + 1) : 0u); \\\n",
    "        v = gpusvm_key_wide(((ulong)H_ << 32) | L_);                              \\\n",
    "        t = (int)T_ - 1;                                                          \\\n",
    "    } while (0)\n",
    "/* v := the warp's maximum of v, in every lane: two */\n",
    "#define GPUSVM_WARP_MAX(v)                                                        \\\n",
    "    do {                                                                          \\\n",
    "        const ulong k_ = gpusvm_wide_key(v);                                      \\\n",
    "        const uint hi_ = (uint)(k_ >> 32);                                        \\\n",
    "        const uint H_ = gpusvm_redux_max(hi_);                                    \\\n",
    "        const uint L_ = gpusvm_redux_max(hi_ == H_ ? (uint)k_ : 0u);              \\\n",
    "        v = gpusvm_key_wide(((ulong)H_ << 32) | L_);                              \\\n",
    "    } while (0)\n",
    "#else\n",
    "/* (v, t) := the warp's arg-max of (v, t), in every lane */\n",
    "#define GPUSVM_WARP_ARGMAX(v, t)                                                  \\\n",
    "    for (int m_ = GPUSVM_WARP / 2; m_ > 0; m_ >>= 1)                              \\\n",
    "        GPUSVM_ARGMAX(v, t, GPUSVM_XOR_SC(v, m_), gpusvm_xor_i(t, m_))\n",
    "/* v := the warp's maximum of v, in every lane */\n",
    "#define GPUSVM_WARP_MAX(v)                                                        \\\n",
    "    for (int m_ = GPUSVM_WARP / 2; m_ > 0; m_ >>= 1) v = fmax(v, GPUSVM_XOR_SC(v, m_))\n",
    "#endif\n",
    "/* (v, t) := the arg-max of the warps' partials rv[0..NW), ri[0..NW) (after the barrier that\n",
    " * follows their writing), in every work-item: lane u reads partial u mod NW, so every NW lanes\n",
    " * hold all of them, and a warp arg-max finishes it */\n",
    "#define GPUSVM_WARPS_ARGMAX(v, t, rv, ri)                                         \\\n",
    "    do {                                                                          \\\n",
    "        const int u_ = GPUSVM_LID % GPUSVM_NW;                                    \\\n",
    "        v = (rv)[u_];                                                             \\\n",
    "        t = (ri)[u_];                                                             \\\n",
    "        GPUSVM_WARP_ARGMAX(v, t);                                                 \\\n",
    "    } while (0)\n",
    "/* v := the maximum of the warps' partials r[0..NW), likewise */\n",
    "#define GPUSVM_WARPS_MAX(v, r)                                                    \\\n",
    "    do {                                                                          \\\n",
    "        v = (r)[GPUSVM_LID % GPUSVM_NW];                                          \\\n",
    "        GPUSVM_WARP_MAX(v);                                                       \\\n",
    "    } while (0)\n",
    "#endif\n",
    "\n",
    "/* Work-group arg-max (or arg-min when neg) of (v, t); the result's index in every\n",
    "   work-item (rv, ri: scratch of GPUSVM__SMO_L / 32 words with warp exchanges, else GPUSVM__SMO_L). */\n",
    "int gpusvm_argbest(__local gpusvm_score *rv, __local int *ri, gpusvm_score v, int t, int neg)\n",
    "{\n",
    "#ifdef GPUSVM_SHFL\n",
    "    if (neg) v = -v; /* the arg-min of v is the arg-max of -v, ties alike */\n",
    "    GPUSVM_WARP_ARGMAX(v, t);\n",
    "    if (GPUSVM_LID % GPUSVM_WARP == 0) {\n",
    "        rv[GPUSVM_LID / GPUSVM_WARP] = v;\n",
    "        ri[GPUSVM_LID / GPUSVM_WARP] = t;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    GPUSVM_WARPS_ARGMAX(v, t, rv, ri);\n",
    "    return t;\n",
    "#else\n",
    "    rv[GPUSVM_LID] = v;\n",
    "    ri[GPUSVM_LID] = t;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__SMO_L / 2; s > 0; s >>= 1) {\n",
    "        if (GPUSVM_LID < s) {\n",
    "            const gpusvm_score a = rv[GPUSVM_LID], b = rv[GPUSVM_LID + s];\n",
    "            const int ia = ri[GPUSVM_LID], ib = ri[GPUSVM_LID + s];\n",
    "            const int take_b = (neg ? b < a : b > a) || (b == a && ib > ia);\n",
    "            rv[GPUSVM_LID] = take_b ? b : a;\n",
    "            ri[GPUSVM_LID] = take_b ? ib : ia;\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    return ri[0];\n",
    "#endif\n",
    "}\n",
    "\n",
    "/* The working set's q x q block, contiguous: Kq[position r][position t] = K[slot of r][point of\n",
    " * t], so that the inner solve reads a row of it with one coalesced sweep instead of q scattered\n",
    " * words of an n-wide row (grid: positions t, positions r, problems). */\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)\n",
    "__kernel void gpusvm_gather_block(GPUSVM__ARGS_GATHER(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const int t = get_global_id(0), r = get_global_id(1), p = get_global_id(2);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int q = pi[GPUSVM__PI_Q];\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || t >= q || r >= q) return;\n",
    "    Kq0[((size_t)p * qmax + r) * qmax + t] =\n",
    "        K0[((size_t)p * qmax + ws_slot0[p * qmax + r]) * ldk + GPUSVM__PT(ws_idx0[p * qmax + t], pi[GPUSVM__PI_SPLIT])];\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* This work-item's candidates for i (the maximal violator in I_up, per class) and the maxima\n",
    " * of -v over I_low, over its own positions (alpha a, gradient g, bound C, label yv in registers);\n",
    " * class 1 only with nu (y = -1), as Solver_NU. */\n",
    "GPUSVM_INLINE void gpusvm_smo_scan_i(const gpusvm_wide *a, const gpusvm_wide *g, const gpusvm_wide *C, const char *yv,\n",
    "                                     int m, int nu, gpusvm_score *bv0, int *bi0, gpusvm_score *bv1, int *bi1,\n",
    "                                     gpusvm_score *g20, gpusvm_score *g21)\n",
    "{\n",
    "    for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "        const int t = GPUSVM_OWN(c);\n",
    "        if (t >= m) break;\n",
    "        const int pos = yv[c] > 0;\n",
    "        const gpusvm_score v = pos ? -GPUSVM_SC(g[c]) : GPUSVM_SC(g[c]);\n",
    "        const int in_up = pos ? GPUSVM_W_LT(a[c], C[c]) : GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f));\n",
    "        const int in_low = pos ? GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[c], C[c]);\n",
    "        if (nu && !pos) {\n",
    "            if (in_up && (v > *bv1 || (v == *bv1 && t > *bi1))) { *bv1 = v; *bi1 = t; }\n",
    "            if (in_low) *g21 = fmax(*g21, -v);\n",
    "        } else {\n",
    "            if (in_up && (v > *bv0 || (v == *bv0 && t > *bi0))) { *bv0 = v; *bi0 = t; }\n",
    "            if (in_low) *g20 = fmax(*g20, -v);\n",
    "        }\n",
    "    }\n",
    "}\n",
    "\n",
    "/* One reduction for all four: both classes' arg-max and both maxima over I_low (the barriers,\n",
    " * not the arithmetic, are what a pair update waits on); the results in every work-item. The\n",
    " * scratch: one word per warp with warp exchanges, else one per work-item. */\n",
    "GPUSVM_INLINE void gpusvm_smo_reduce_i(__local gpusvm_score *rv, __local int *ri, __local gpusvm_score *rv1,\n",
    "                                       __local int *ri1, __local gpusvm_score *rg, __local gpusvm_score *rg2, int nu,\n",
    "                                       gpusvm_score bv0, int bi0, gpusvm_score bv1, int bi1, gpusvm_score g20,\n",
    "                                       gpusvm_score g21, gpusvm_score *Gmax0, int *i0, gpusvm_score *Gmax1, int *i1,\n",
    "                                       gpusvm_score *Gmax20, gpusvm_score *Gmax21)\n",
    "{\n",
    "#ifdef GPUSVM_SHFL\n",
    "    GPUSVM_WARP_ARGMAX(bv0, bi0);\n",
    "    GPUSVM_WARP_MAX(g20);\n",
    "    if (nu) { /* uniform */\n",
    "        GPUSVM_WARP_ARGMAX(bv1, bi1);\n",
    "        GPUSVM_WARP_MAX(g21);\n",
    "    }\n",
    "    if (GPUSVM_LID % GPUSVM_WARP == 0) {\n",
    "        const int w = GPUSVM_LID / GPUSVM_WARP;\n",
    "        rv[w] = bv0;\n",
    "        ri[w] = bi0;\n",
    "        rv1[w] = bv1;\n",
    "        ri1[w] = bi1;\n",
    "        rg[w] = g20;\n",
    "        rg2[w] = g21;\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    gpusvm_score G0, G1 = -INFINITY, G20, G21 = -INFINITY;\n",
    "    int j0, j1 = -1;\n",
    "    GPUSVM_WARPS_ARGMAX(G0, j0, rv, ri);\n",
    "    GPUSVM_WARPS_MAX(G20, rg);\n",
    "    if (nu) { /* uniform */\n",
    "        GPUSVM_WARPS_ARGMAX(G1, j1, rv1, ri1);\n",
    "        GPUSVM_WARPS_MAX(G21, rg2);\n",
    "    }\n",
    "#else\n",
    "    rv[GPUSVM_LID] = bv0;\n",
    "    ri[GPUSVM_LID] = bi0;\n",
    "    rv1[GPUSVM_LID] = bv1;\n",
    "    ri1[GPUSVM_LID] = bi1;\n",
    "    rg[GPUSVM_LID] = g20;\n",
    "    rg2[GPUSVM_LID] = g21;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__SMO_L / 2; s > 0; s >>= 1) {\n",
    "        if (GPUSVM_LID < s) {\n",
    "            const int u = GPUSVM_LID + s;\n",
    "            gpusvm_score a = rv[GPUSVM_LID], b = rv[u];\n",
    "            int ia = ri[GPUSVM_LID], ib = ri[u];\n",
    "            int take = (b > a) || (b == a && ib > ia);\n",
    "            rv[GPUSVM_LID] = take ? b : a;\n",
    "            ri[GPUSVM_LID] = take ? ib : ia;\n",
    "            a = rv1[GPUSVM_LID];\n",
    "            b = rv1[u];\n",
    "            ia = ri1[GPUSVM_LID];\n",
    "            ib = ri1[u];\n",
    "            take = (b > a) || (b == a && ib > ia);\n",
    "            rv1[GPUSVM_LID] = take ? b : a;\n",
    "            ri1[GPUSVM_LID] = take ? ib : ia;\n",
    "            rg[GPUSVM_LID] = fmax(rg[GPUSVM_LID], rg[u]);\n",
    "            rg2[GPUSVM_LID] = fmax(rg2[GPUSVM_LID], rg2[u]);\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    const gpusvm_score G0 = rv[0], G1 = rv1[0], G20 = rg[0], G21 = rg2[0];\n",
    "    const int j0 = ri[0], j1 = ri1[0];\n",
    "    barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read rv, ri before j's reduction reuses them */\n",
    "#endif\n",
    "    *Gmax0 = G0;\n",
    "    *i0 = j0;\n",
    "    *Gmax1 = nu ? G1 : -INFINITY;\n",
    "    *i1 = nu ? j1 : -1;\n",
    "    *Gmax20 = G20;\n",
    "    *Gmax21 = G21;\n",
    "}\n",
    "\n",
    "/* This work-item's candidate for j: the second-order choice over I_low among its own\n",
    " * positions, against the i of its own class (Ki0 / Ki1: the i's rows, Kii0 / Kii1 their\n",
    " * diagonals); *bj -1 when none. Each position's value of the row it used goes to ki (registers)\n",
    " * and lki (local memory). */\n",
    "GPUSVM_INLINE void gpusvm_smo_scan_j(const gpusvm_wide *a, const gpusvm_wide *g, const gpusvm_wide *C, const char *yv,\n",
    "                                     __local const float *lqd, __local float *lki, float *ki, int m, int nu,\n",
    "                                     gpusvm_score Gmax0, gpusvm_score Gmax1, __global const float *Ki0,\n",
    "                                     __global const float *Ki1, gpusvm_wide Kii0, gpusvm_wide Kii1, gpusvm_score *bo,\n",
    "                                     int *bj)\n",
    "{\n",
    "    for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "        const int t = GPUSVM_OWN(c);\n",
    "        if (t >= m) break;\n",
    "        const int pos = yv[c] > 0;\n",
    "        const int c1 = nu && !pos;\n",
    "        ki[c] = (c1 ? Ki1 : Ki0)[t];\n",
    "        lki[t] = ki[c];\n",
    "    }\n",
    "    for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "        const int t = GPUSVM_OWN(c);\n",
    "        if (t >= m) break;\n",
    "        const int pos = yv[c] > 0;\n",
    "        const int c1 = nu && !pos;\n",
    "        const int in_low = pos ? GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[c], C[c]);\n",
    "        const gpusvm_score v = pos ? -GPUSVM_SC(g[c]) : GPUSVM_SC(g[c]);\n",
    "        const gpusvm_score b = (c1 ? Gmax1 : Gmax0) - v;\n",
    "        if (in_low && b > 0.0f) {\n",
    "            const gpusvm_wide qw = GPUSVM_W_SUB(GPUSVM_W_ADD(c1 ? Kii1 : Kii0, GPUSVM_W_F(lqd[t])),\n",
    "                                                GPUSVM_W_MULF(GPUSVM_W_F(ki[c]), 2.0f)); /* exact */\n",
    "            gpusvm_score quad = GPUSVM_SC(qw);\n",
    "            if (quad <= 0.0f) quad = GPUSVM_SC(GPUSVM_W_TAU);\n",
    "            const gpusvm_score o = -(b * b) / quad;\n",
    "            if (o < *bo || (o == *bo && t > *bj)) { *bo = o; *bj = t; }\n",
    "        }\n",
    "    }\n",
    "}\n",
    "\n",
    "/* The two-variable step on working-set positions (i, j), exactly as LIBSVM's Solver::Solve, from\n",
    " * the published alphas and gradients: the new alphas into *ai, *aj (every work-item computes it). */\n",
    "GPUSVM_INLINE void gpusvm_smo_pair(__local const gpusvm_wide *la, __local const gpusvm_wide *lg,\n",
    "                                   __local const gpusvm_wide *lC, __local const float *lqd, __local const char *lyv,\n",
    "                                   int i, int j, gpusvm_wide Kij, gpusvm_wide Kii, gpusvm_wide *ai_out,\n",
    "                                   gpusvm_wide *aj_out)\n",
    "{\n",
    "    const int yi = lyv[i], yj = lyv[j];\n",
    "    const gpusvm_wide Ci = lC[i], Cj = lC[j], zero = GPUSVM_W_F(0.0f);\n",
    "    gpusvm_wide ai = la[i], aj = la[j];\n",
    "    gpusvm_wide quad = GPUSVM_W_SUB(GPUSVM_W_ADD(Kii, GPUSVM_W_F(lqd[j])), GPUSVM_W_MULF(Kij, 2.0f));\n",
    "    if (GPUSVM_W_LE(quad, zero)) quad = GPUSVM_W_TAU;\n",
    "    if (yi != yj) {\n",
    "        const gpusvm_wide delta = GPUSVM_W_DIV(GPUSVM_W_SUB(GPUSVM_W_NEG(lg[i]), lg[j]), quad);\n",
    "        const gpusvm_wide diff = GPUSVM_W_SUB(ai, aj);\n",
    "        ai = GPUSVM_W_ADD(ai, delta);\n",
    "        aj = GPUSVM_W_ADD(aj, delta);\n",
    "        if (GPUSVM_W_GT(diff, zero)) { if (GPUSVM_W_LT(aj, zero)) { aj = zero; ai = diff; } }\n",
    "        else { if (GPUSVM_W_LT(ai, zero)) { ai = zero; aj = GPUSVM_W_NEG(diff); } }\n",
    "        if (GPUSVM_W_GT(diff, GPUSVM_W_SUB(Ci, Cj))) { if (GPUSVM_W_GT(ai, Ci)) { ai = Ci; aj = GPUSVM_W_SUB(Ci, diff); } }\n",
    "        else { if (GPUSVM_W_GT(aj, Cj)) { aj = Cj; ai = GPUSVM_W_ADD(Cj, diff); } }\n",
    "    } else {\n",
    "        const gpusvm_wide delta = GPUSVM_W_DIV(GPUSVM_W_SUB(lg[i], lg[j]), quad);\n",
    "        const gpusvm_wide sum = GPUSVM_W_ADD(ai, aj);\n",
    "        ai = GPUSVM_W_SUB(ai, delta);\n",
    "        aj = GPUSVM_W_ADD(aj, delta);\n",
    "        if (GPUSVM_W_GT(sum, Ci)) { if (GPUSVM_W_GT(ai, Ci)) { ai = Ci; aj = GPUSVM_W_SUB(sum, Ci); } }\n",
    "        else { if (GPUSVM_W_LT(aj, zero)) { aj = zero; ai = sum; } }\n",
    "        if (GPUSVM_W_GT(sum, Cj)) { if (GPUSVM_W_GT(aj, Cj)) { aj = Cj; ai = GPUSVM_W_SUB(sum, Cj); } }\n",
    "        else { if (GPUSVM_W_LT(ai, zero)) { ai = zero; aj = sum; } }\n",
    "    }\n",
    "    *ai_out = ai;\n",
    "    *aj_out = aj;\n",
    "}\n",
    "\n",
    "/* gpusvm_smo's local arrays against the sizes the host plans with (part 0's GPUSVM__SMO_LOCAL) */\n",
    "typedef char gpusvm_smo_pos_check[3 * sizeof(gpusvm_wide) + 2 * sizeof(float) + 1 == GPUSVM__SMO_POS_BYTES ? 1 : -1];\n",
    "typedef char gpusvm_smo_item_check[4 * sizeof(gpusvm_score) + 2 * sizeof(int) <= GPUSVM__SMO_ITEM_BYTES ? 1 : -1];\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SMO)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__SMO_L, 1, 1))) GPUSVM_SG_ATTR\n",
    "void gpusvm_smo(GPUSVM__ARGS_SMO(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local gpusvm_wide la[GPUSVM__Q]; /* published alphas and gradients (see above) */\n",
    "    __local gpusvm_wide lg[GPUSVM__Q];\n",
    "    __local gpusvm_wide lC[GPUSVM__Q];\n",
    "    __local float lqd[GPUSVM__Q];\n",
    "    __local float lki[GPUSVM__Q]; /* the i row's value at each position */\n",
    "    __local char lyv[GPUSVM__Q];\n",
    "#ifdef GPUSVM_SHFL /* the reductions' scratch: one word per warp */\n",
    "    __local gpusvm_score wv[GPUSVM_NW], wv1[GPUSVM_NW], wg[GPUSVM_NW], wg2[GPUSVM_NW], wjv[GPUSVM_NW];\n",
    "    __local int wi[GPUSVM_NW], wi1[GPUSVM_NW], wji[GPUSVM_NW]; /* j's scratch apart: no barrier between */\n",
    "#else /* one word per work-item (j's reduction reuses i's: a barrier closes each trip) */\n",
    "    __local gpusvm_score rv[GPUSVM__SMO_L];\n",
    "    __local int ri[GPUSVM__SMO_L];\n",
    "    __local gpusvm_score rv1[GPUSVM__SMO_L];\n",
    "    __local int ri1[GPUSVM__SMO_L];\n",
    "    __local gpusvm_score rg[GPUSVM__SMO_L];\n",
    "    __local gpusvm_score rg2[GPUSVM__SMO_L];\n",
    "#endif\n",
    "    const int p = get_group_id(0);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int v0 = pi[GPUSVM__PI_VAR], m = pi[GPUSVM__PI_Q];\n",
    "    const int whole = pi[GPUSVM__PI_WHOLE];\n",
    "    const gpusvm_wide ratio = whole ? GPUSVM_W_F(0.0f) : GPUSVM_W_LD(ratio_in);\n",
    "    const int max_inner = whole ? whole_inner : max_inner_in;\n",
    "    __global const float *K = Kq0 + (size_t)p * qmax * qmax; /* its q x q block, by position, then position */\n",
    "    __global const int *ws_idx = ws_idx0 + p * qmax;\n",
    "    __global gpusvm_wbits *alpha = alpha0 + v0, *coef = coef0 + p * qmax;\n",
    "    __global const gpusvm_wbits *G = G0 + v0, *Cv = Cv0 + v0;\n",
    "    __global const char *y = y0 + v0;\n",
    "    __global const float *qd = qd0 + v0;\n",
    "    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;\n",
    "    gpusvm_wide a[GPUSVM_PER], g[GPUSVM_PER], C[GPUSVM_PER]; /* this work-item's positions */\n",
    "    float ki[GPUSVM_PER], kj[GPUSVM_PER];\n",
    "    char yv[GPUSVM_PER];\n",
    "    if (!GPUSVM_RUNNING(status)) return;\n",
    "\n",
    "    for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "        const int t = GPUSVM_OWN(c);\n",
    "        a[c] = g[c] = C[c] = GPUSVM_W_F(0.0f);\n",
    "        yv[c] = 1;\n",
    "        ki[c] = kj[c] = 0.0f;\n",
    "        if (t >= m) continue;\n",
    "        const int i = ws_idx[t]; /* K is read at the point, GPUSVM__PT(i) */\n",
    "        a[c] = la[t] = GPUSVM_W_LD(alpha[i]);\n",
    "        g[c] = lg[t] = GPUSVM_W_LD(G[i]);\n",
    "        C[c] = lC[t] = GPUSVM_W_LD(Cv[i]);\n",
    "        yv[c] = lyv[t] = y[i];\n",
    "        lqd[t] = qd[i];\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "\n",
    "    const gpusvm_wide eps_in = GPUSVM_W_MAX(GPUSVM_W_LD(eps), GPUSVM_W_MUL(ratio, GPUSVM_W_LD(status[GPUSVM__ST_GAP])));\n",
    "    const gpusvm_wide left = GPUSVM_W_SUB(GPUSVM_W_LD(max_iter), GPUSVM_W_LD(status[GPUSVM__ST_ITER]));\n",
    "    const int budget = GPUSVM_W_TOI(GPUSVM_W_MIN(GPUSVM_W_I(max_inner), GPUSVM_W_MAX(left, GPUSVM_W_F(0.0f))));\n",
    "    /* One exit, at the loop header, and every barrier reached on every trip: the\n",
    "     * stop tests only switch the work off (a uniform flag). */\n",
    "    int it = 0, trip = 0;\n",
    "    while (trip < budget) {\n",
    "        /* i: maximal violator in I_up; Gmax2 over I_low for the stop test. With nu,\n",
    "         * one of each per class (class 0: y = +1, class 1: y = -1), as Solver_NU. */\n",
    "        gpusvm_score bv0 = -INFINITY, bv1 = -INFINITY, g20 = -INFINITY, g21 = -INFINITY;\n",
    "        int bi0 = -1, bi1 = -1;\n",
    "        gpusvm_smo_scan_i(a, g, C, yv, m, nu, &bv0, &bi0, &bv1, &bi1, &g20, &g21);\n",
    "        gpusvm_score Gmax0, Gmax1, Gmax20, Gmax21;\n",
    "        int i0, i1;\n",
    "#ifdef GPUSVM_SHFL\n",
    "        gpusvm_smo_reduce_i(wv, wi, wv1, wi1, wg, wg2, nu, bv0, bi0, bv1, bi1, g20, g21, &Gmax0, &i0, &Gmax1, &i1,\n",
    "                            &Gmax20, &Gmax21);\n",
    "#else\n",
    "        gpusvm_smo_reduce_i(rv, ri, rv1, ri1, rg, rg2, nu, bv0, bi0, bv1, bi1, g20, g21, &Gmax0, &i0, &Gmax1, &i1,\n",
    "                            &Gmax20, &Gmax21);\n",
    "#endif\n",
    "        for (int c = 0; c < GPUSVM_PER; ++c) { /* publish (everyone has read the last trip's values) */\n",
    "            const int t = GPUSVM_OWN(c);\n",
    "            if (t >= m) break;\n",
    "            la[t] = a[c];\n",
    "            lg[t] = g[c];\n",
    "        }\n",
    "        const gpusvm_score eps_s = GPUSVM_SC(eps_in);\n",
    "        const int go = nu ? !(fmax(Gmax0 + Gmax20, Gmax1 + Gmax21) < eps_s) : (i0 >= 0) && !(Gmax0 + Gmax20 < eps_s);\n",
    "\n",
    "        /* j: second-order choice over I_low (with nu, against its own class's i) */\n",
    "        const __global float *Ki0 = K + (size_t)max(i0, 0) * qmax;\n",
    "        const __global float *Ki1 = K + (size_t)max(i1, 0) * qmax;\n",
    "        const gpusvm_wide Kii0 = GPUSVM_W_F(lqd[max(i0, 0)]), Kii1 = GPUSVM_W_F(lqd[max(i1, 0)]);\n",
    "        gpusvm_score bo = INFINITY;\n",
    "        int bj = -1;\n",
    "        if (go) gpusvm_smo_scan_j(a, g, C, yv, lqd, lki, ki, m, nu, Gmax0, Gmax1, Ki0, Ki1, Kii0, Kii1, &bo, &bj);\n",
    "#ifdef GPUSVM_SHFL\n",
    "        const int j = gpusvm_argbest(wjv, wji, bo, bj, 1);\n",
    "#else\n",
    "        const int j = gpusvm_argbest(rv, ri, bo, bj, 1);\n",
    "#endif\n",
    "        const int step_ok = go && j >= 0;\n",
    "        if (step_ok) {\n",
    "            const int use1 = nu && lyv[j] < 0;\n",
    "            const int i = use1 ? i1 : i0;\n",
    "            const __global float *Ki = use1 ? Ki1 : Ki0;\n",
    "            const __global float *Kj = K + (size_t)j * qmax;\n",
    "            for (int c = 0; c < GPUSVM_PER; ++c) { /* j's row on its way while the step is computed */\n",
    "                const int t = GPUSVM_OWN(c);\n",
    "                if (t >= m) break;\n",
    "                kj[c] = Kj[t];\n",
    "                if (nu) ki[c] = Ki[t]; /* the chosen i's row (a position of the other class read the other) */\n",
    "            }\n",
    "            gpusvm_wide ai, aj;\n",
    "            gpusvm_smo_pair(la, lg, lC, lqd, lyv, i, j, GPUSVM_W_F(lki[j]), use1 ? Kii1 : Kii0, &ai, &aj);\n",
    "            const gpusvm_wide di = GPUSVM_W_SUB(ai, la[i]), dj = GPUSVM_W_SUB(aj, la[j]);\n",
    "            const int yi = lyv[i], yj = lyv[j];\n",
    "            for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "                const int t = GPUSVM_OWN(c);\n",
    "                if (t >= m) break;\n",
    "                const float qi = (yv[c] == yi) ? ki[c] : -ki[c];\n",
    "                const float qj = (yv[c] == yj) ? kj[c] : -kj[c];\n",
    "                g[c] = GPUSVM_W_ADD(g[c], GPUSVM_W_ADD(GPUSVM_W_MULF(di, qi), GPUSVM_W_MULF(dj, qj)));\n",
    "                if (t == i) a[c] = ai;\n",
    "                if (t == j) a[c] = aj;\n",
    "            }\n",
    "        }\n",
    "#ifndef GPUSVM_SHFL\n",
    "        barrier(CLK_LOCAL_MEM_FENCE); /* all have read j (ri[0]) before i's reduction writes ri */\n",
    "#endif\n",
    "        it += step_ok;\n",
    "        trip = step_ok ? trip + 1 : budget;\n",
    "    }\n",
    "\n",
    "    for (int c = 0; c < GPUSVM_PER; ++c) {\n",
    "        const int t = GPUSVM_OWN(c);\n",
    "        if (t >= m) break;\n",
    "        const int i = ws_idx[t];\n",
    "        const gpusvm_wbits old = alpha[i];\n",
    "        const gpusvm_wide a0 = GPUSVM_W_LD(old), d = GPUSVM_W_SUB(a[c], a0);\n",
    "        coef[t] = GPUSVM_W_ST(yv[c] > 0 ? d : GPUSVM_W_NEG(d));\n",
    "        alpha[i] = GPUSVM_W_ST_EXACT(a[c], a0, old, C[c], Cv[i]);\n",
    "    }\n",
    "    /* every work-item read status[ITER] for its budget before the loop; the local fences of the\n",
    "     * loop's barriers do not order global memory, this one does */\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n",
    "    if (GPUSVM_LID == 0) {\n",
    "        status[GPUSVM__ST_ITER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_ITER]), GPUSVM_W_I(it)));\n",
    "        status[GPUSVM__ST_INNER] = GPUSVM_W_ST(GPUSVM_W_I(it));\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/40_update.cl\"\n",
    "/* gpusvm kernels, part 4: gradient update and decision values.\n",
    " *\n",
    " *   out[i] += s_i * sum_t coef[t] * K[slot[t]][i]\n",
    " *\n",
    " * with s_i = y_i in training (G_i += sum_t Q_it dalpha_t, coef = y dalpha) and\n",
    " * s_i = 1 in prediction (decision values, coef = the support vectors' y alpha).\n",
    " * One work-item per point reads down a column of the row block, so adjacent\n",
    " * work-items read adjacent words; the coefficients are staged in local memory\n",
    " * (GTSVM, algorithm 1) GPUSVM__L at a time, the zero ones dropped and the\n",
    " * rest kept in order (a scan of the nonzero flags), so the loop reads only\n",
    " * rows that count and has GPUSVM_UPD_U independent loads in flight (a\n",
    " * round's update is bound by reading the rows; one load at a time left it\n",
    " * waiting on latency: H100, dense 1M x 32, 1892 rounds, 2.16 s before, 1.69 s\n",
    " * after). The sum is wide (part 0), in t order over the nonzero\n",
    " * coefficients. coef_off and out_off select one of several coefficient\n",
    " * vectors and output rows (prediction evaluates every pairwise decision of a\n",
    " * multiclass model from one kernel tile).\n",
    " *\n",
    " * Grid dimension 1 is the problem of a batch (see part 0): problem p updates\n",
    " * its own variables from its own rows, with its working-set size (at most m).\n",
    " * var_off, var_end and k_off take a window of them: variables [var_off,\n",
    " * var_end), variable i reading word GPUSVM__PT(i) - k_off of each row (the\n",
    " * rows of a split problem's share, part 1's b_mode 1); 0, INT_MAX and 0 take\n",
    " * them all. (Streamed points keep no rows: gpusvm_rows_update below.)\n",
    " */\n",
    "#define GPUSVM_UPD_U 4 /* rows read ahead */\n",
    "/* the local id, read afresh wherever used (PoCL 3.1; see part 3) */\n",
    "#define GPUSVM_UPD_LID ((int)get_local_id(0))\n",
    "\n",
    "/* The nonzero coefficients of [c0, c0 + GPUSVM__L) of the m, in order, to lc / ls; their count\n",
    "   (sc: GPUSVM__L ints of scratch, an inclusive scan of the flags). */\n",
    "GPUSVM_INLINE int gpusvm_upd_stage(__global const gpusvm_wbits *coef, __global const int *slot, int c0, int m,\n",
    "                                   __local gpusvm_wide *lc, __local int *ls, __local int *sc)\n",
    "{\n",
    "    const int t = c0 + GPUSVM_UPD_LID;\n",
    "    const gpusvm_wide c = t < m ? GPUSVM_W_LD(coef[t]) : GPUSVM_W_F(0.0f);\n",
    "    const int flag = !GPUSVM_W_EQ(c, GPUSVM_W_F(0.0f));\n",
    "    barrier(CLK_LOCAL_MEM_FENCE); /* the last chunk's readers are done */\n",
    "    sc[GPUSVM_UPD_LID] = flag;\n",
    "    gpusvm_scan_local(sc);\n",
    "    if (flag) {\n",
    "        lc[sc[GPUSVM_UPD_LID] - 1] = c;\n",
    "        ls[sc[GPUSVM_UPD_LID] - 1] = slot[t];\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    return sc[GPUSVM__L - 1];\n",
    "}\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_UPDATE)\n",
    "__kernel void gpusvm_update(GPUSVM__ARGS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local gpusvm_wide lc[GPUSVM__L];\n",
    "    __local int ls[GPUSVM__L], sc[GPUSVM__L];\n",
    "    const int i = var_off + (int)get_global_id(0), p = get_group_id(1);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const int v0 = pi[GPUSVM__PI_VAR], n = min(pi[GPUSVM__PI_NVAR], var_end), npts = pi[GPUSVM__PI_SPLIT];\n",
    "    const int m = min(m_in, pi[GPUSVM__PI_Q]);\n",
    "    __global gpusvm_wbits *out = out0 + v0;\n",
    "    __global const char *y = y0 + v0;\n",
    "    /* a point past n reads column 0, which every row has */\n",
    "    __global const float *K = K0 + (size_t)p * qmax * ldk + (i < n ? GPUSVM__PT(i, npts) - k_off : 0);\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) ||\n",
    "        var_off + (int)get_group_id(0) * GPUSVM__L >= n)\n",
    "        return;\n",
    "\n",
    "    gpusvm_wide sum = GPUSVM_W_F(0.0f);\n",
    "    for (int c0 = 0; c0 < m; c0 += GPUSVM__L) {\n",
    "        const int cnt = gpusvm_upd_stage(coef0 + p * qmax + coef_off, slot0 + p * qmax, c0, m, lc, ls, sc);\n",
    "        int t = 0;\n",
    "        for (; t + GPUSVM_UPD_U <= cnt; t += GPUSVM_UPD_U) {\n",
    "            float k[GPUSVM_UPD_U];\n",
    "            for (int u = 0; u < GPUSVM_UPD_U; ++u) k[u] = K[(size_t)ls[t + u] * ldk];\n",
    "            for (int u = 0; u < GPUSVM_UPD_U; ++u) sum = GPUSVM_W_ACC(sum, lc[t + u], k[u]);\n",
    "        }\n",
    "        for (; t < cnt; ++t) sum = GPUSVM_W_ACC(sum, lc[t], K[(size_t)ls[t] * ldk]);\n",
    "    }\n",
    "    if (i < n)\n",
    "        out[out_off + i] = GPUSVM_W_ST(\n",
    "            GPUSVM_W_ADD(GPUSVM_W_LD(out[out_off + i]), (use_y && y[i] < 0) ? GPUSVM_W_NEG(sum) : sum));\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* The update of a tile of streamed points with no room for its rows (host section, stream):\n",
    " * each work-group takes GPUSVM__TILE of the tile's points and walks the moved variables' rows\n",
    " * GPUSVM__TILE at a time, each block computed as part 1's tile computes it (GPUSVM_TILE_DOTS,\n",
    " * then the same kernel function: the same bits) and put into local memory a quarter at a\n",
    " * time, where each point's work-item adds it to its sum in row order, with the product and\n",
    " * the sum gpusvm_update forms: the same bits, so the gradients are the resident path's.\n",
    " * Nothing is written but the gradients, so a tile needs 2 dpad words a point of the budget\n",
    " * instead of 2 dpad + q (H100, 1M x 64 points under 64 MB: 125 tiles a round become 14).\n",
    " * Part 1's arguments with b_mode 1 (the tile's points [b_off, b_end)), the moved rows as\n",
    " * idx and nrows (K unused), then: out0 (the gradients), y0, coef (the rows' coefficients,\n",
    " * in row order, none 0). A point's variables are it and, epsilon-SVR, it + its problem's\n",
    " * split. Grid: points / GPUSVM__TILE x GPUSVM__TILE_WI, GPUSVM__TILE_WI, problems; work-groups of\n",
    " * GPUSVM__TILE_WI x GPUSVM__TILE_WI. */\n",
    "#define GPUSVM_RU_QR (GPUSVM__TILE / 4) /* rows of a quarter block */\n",
    "/* the local id and what comes of it, read afresh wherever used (PoCL 3.1; see part 3) */\n",
    "#define GPUSVM_RU_LX ((int)get_local_id(0))\n",
    "#define GPUSVM_RU_LY ((int)get_local_id(1))\n",
    "#define GPUSVM_RU_TID (GPUSVM_RU_LY * GPUSVM__TILE_WI + GPUSVM_RU_LX)\n",
    "#define GPUSVM_RU_LR (GPUSVM_RU_TID % GPUSVM__TILE)\n",
    "#define GPUSVM_RU_LF (GPUSVM_RU_TID / GPUSVM__TILE)\n",
    "\n",
    "/* Point c's variables (c, and epsilon-SVR's c + split) take sum into their gradients. */\n",
    "GPUSVM_INLINE void gpusvm_ru_put(__global const int *pi, __global gpusvm_wbits *out0, __global const char *y0, int c,\n",
    "                                 int hi, int split, gpusvm_wide sum)\n",
    "{\n",
    "    const int n = pi[GPUSVM__PI_NVAR], v0 = pi[GPUSVM__PI_VAR];\n",
    "    if (c >= hi) return;\n",
    "    for (int v = c; v < n; v += split) {\n",
    "        out0[v0 + v] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(out0[v0 + v]), y0[v0 + v] < 0 ? GPUSVM_W_NEG(sum) : sum));\n",
    "        if (split <= 0) break;\n",
    "    }\n",
    "}\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_UPD)\n",
    "__kernel __attribute__((reqd_work_group_size(GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1)))\n",
    "void gpusvm_rows_update(GPUSVM_ROWS_PARAMS, GPUSVM__ARGS_ROWS_UPD(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local float4 As[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];\n",
    "    __local float4 Bs[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];\n",
    "    __local float Ks[GPUSVM_RU_QR][GPUSVM__TILE];\n",
    "    const int i0 = GPUSVM_B_LO + (int)get_group_id(0) * GPUSVM__TILE;\n",
    "    const int p = get_group_id(2);\n",
    "    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;\n",
    "    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]); /* the problem's own (a grid's differ) */\n",
    "    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];\n",
    "    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_B_HI(nb, pi[GPUSVM__PI_Q]);\n",
    "    const int ws = p * qmax;\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || nr <= 0 || i0 >= hi) return;\n",
    "    if (a_pos) A += (size_t)p * dpad * pitch_a;\n",
    "    const int col_b = GPUSVM_B_COL(min(i0 + GPUSVM_RU_LR, hi - 1));\n",
    "    gpusvm_wide sum = GPUSVM_W_F(0.0f);\n",
    "    for (int r0 = 0; r0 < nr; r0 += GPUSVM__TILE) {\n",
    "        const int ra = min(r0 + GPUSVM_RU_LR, nr - 1);\n",
    "        const int col_a =\n",
    "            a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));\n",
    "        GPUSVM_TILE_DOTS(acc, GPUSVM_RU_LX, GPUSVM_RU_LY, GPUSVM_RU_LR, GPUSVM_RU_LF)\n",
    "        /* quarter k: rows 32 k .. of the block, held by ly in [8 (k % 2), + 8) as their a in [4 (k / 2), + 4)\n",
    "           (both loops of constant length, so that acc is indexed by constants) */\n",
    "        for (int k = 0; k < 4; ++k) {\n",
    "            for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {\n",
    "                const int r = r0 + GPUSVM_TOFF(GPUSVM_RU_LY, a);\n",
    "                if (a / 4 != k / 2 || GPUSVM_RU_LY / 8 != k % 2 || r >= nr) continue;\n",
    "                const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + r], split));\n",
    "                const float na = norm_a[ca];\n",
    "                for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {\n",
    "                    const int cb = GPUSVM_B_PT(min(i0 + GPUSVM_TOFF(GPUSVM_RU_LX, b), hi - 1));\n",
    "                    Ks[GPUSVM_TOFF(GPUSVM_RU_LY, a) - GPUSVM_RU_QR * k][GPUSVM_TOFF(GPUSVM_RU_LX, b)] =\n",
    "                        gpusvm_kfun(ktype, self && ca == cb ? na : acc[a][b], na, norm_b[cb], gamma, coef0, degree);\n",
    "                }\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            if (GPUSVM_RU_TID < GPUSVM__TILE) {\n",
    "                const int rq = r0 + GPUSVM_RU_QR * k, n = min(GPUSVM_RU_QR, nr - rq);\n",
    "                for (int t = 0; t < n; ++t)\n",
    "                    sum = GPUSVM_W_ACC(sum, GPUSVM_W_LD(coef[ws + row_off + rq + t]), Ks[t][GPUSVM_RU_TID]);\n",
    "                /* after the last quarter, here: past the loop PoCL 3.1 ran it for every work-item */\n",
    "                if (r0 + GPUSVM__TILE >= nr && k == 3)\n",
    "                    gpusvm_ru_put(pi, out0, y0, i0 + GPUSVM_RU_TID, hi, split, sum);\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        }\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "#line 1 \"kernels/50_cs.cl\"\n",
    "/* gpusvm kernels, part 5: Crammer and Singer's joint multiclass SVM, every step of an outer\n",
    " * iteration on the device (the host reads back only the status).\n",
    " *\n",
    " * The dual (Crammer and Singer 2001; GTSVM's eqs. 3-4, seed 003): per point i and class r a\n",
    " * coefficient alpha_ir <= U_i [r = y_i] with sum_r alpha_ir = 0, responses\n",
    " * c_ir = sum_j alpha_jr k(x_i, x_j) and gradients g_ir = [r = y_i] - c_ir. One outer iteration:\n",
    " *\n",
    " *   gpusvm_cs_resp    (one work-item per coefficient) c_ir += sum_t dA_tr k(x_t, x_i) over the\n",
    " *                     working-set points the last sweeps moved (GTSVM's response update, algorithm\n",
    " *                     1: the rows read down their columns); an item per GPUSVM__CS_RESP_CLASSES classes of a\n",
    " *                     point, not per point, so that n m / GPUSVM__CS_RESP_CLASSES items fill the device (an\n",
    " *                     item per point left letter's 15000 points in 59 work-groups; H200, letter\n",
    " *                     -s 5 -c 8 -g 2: double 1.34 s to 1.20 s, float pairs 1.85 s to 1.50 s).\n",
    " *   gpusvm_cs_update  (one work-item per point) the point's first-order violation\n",
    " *                     v_i = max_{r: alpha_ir < U_ir} g_ir - min_r g_ir and its share of the duality\n",
    " *                     gap, gap_i = U_i max(0, max_{r != y} 1 + c_ir - c_iy) - sum_r alpha_ir g_ir\n",
    " *                     (>= 0; zero exactly when the point's block is optimal), the work-group's\n",
    " *                     sums of the primal and dual terms, and the work-group's qc points with the\n",
    " *                     largest gap_i (a bitonic sort in local memory) as candidates.\n",
    " *   gpusvm_cs_select  (one work-group) the relative gap 2 (P - D) / (P + D) and the stop; the\n",
    " *                     working set: the q candidates with the largest gap_i (a radix selection,\n",
    " *                     part 2's), in ascending index order; the points whose kernel rows are\n",
    " *                     not in the row cache go to the rows kernels' list (part 1), whose count\n",
    " *                     it writes where they read it (the problem table's Q).\n",
    " *   gpusvm_rows*      the missing rows (part 1).\n",
    " *   gpusvm_cs_solve   (one work-group) sweeps of exact per-point block solves over the working\n",
    " *                     set (Gauss-Seidel; the set's q x q kernel block and its responses in local\n",
    " *                     memory, classes across work-items) until the set's largest violation is a\n",
    " *                     fraction `ratio` of its first (or eps).\n",
    " *\n",
    " * Selecting by gap_i rather than by v_i aims at the stopping rule itself: on letter it took\n",
    " * a tenth fewer outer iterations. Each block solve is the projection\n",
    " * beta = argmin |beta - D|^2, beta_r <= Ub_r, sum beta = 0, D = alpha_i + g_i / k(x_i, x_i):\n",
    " * beta_r = min(Ub_r, D_r - theta). Work-item r tries the partition in which the classes ahead\n",
    " * of r (larger D - Ub, ties by class) are capped and r and those after it are free; the first\n",
    " * consistent partition gives theta. After the first sweep, points whose violation is below half\n",
    " * the sweeps' aim are left as they are (half the block solves, as many outer iterations). The\n",
    " * plain-C backend runs the same steps in the same order.\n",
    " */\n",
    "\n",
    "/* 64-bit sort key of a point: its gap share (larger first), then its index */\n",
    "#define GPUSVM_CS_KEY(k, i) (((ulong)(k) << 32) | (ulong)(uint)(i))\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)\n",
    "__kernel void gpusvm_cs_resp(GPUSVM__ARGS_CS_RESP(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    const int e = get_global_id(0), p = get_group_id(1);\n",
    "    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;\n",
    "    const int n = ci_[GPUSVM__CI_N], m = ci_[GPUSVM__CI_M];\n",
    "    status += p * GPUSVM__ST_COUNT;\n",
    "    const int nb = (m + GPUSVM__CS_RESP_CLASSES - 1) / GPUSVM__CS_RESP_CLASSES;\n",
    "    if (!GPUSVM_RUNNING(status) || e >= n * nb) return;\n",
    "    const int nq = GPUSVM_W_STI(status, GPUSVM__ST_CS_Q), i = e / nb, r0 = (e - i * nb) * GPUSVM__CS_RESP_CLASSES;\n",
    "    moved += p * q;\n",
    "    dA += (size_t)p * q * mmax + r0;\n",
    "    gpusvm_wide acc[GPUSVM__CS_RESP_CLASSES];\n",
    "    for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u) acc[u] = GPUSVM_W_F(0.0f);\n",
    "    for (int t = 0; t < nq; ++t) {\n",
    "        const int s = moved[t];\n",
    "        if (s < 0) continue;\n",
    "        const float k = K[(size_t)s * ldk + i];\n",
    "        for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u)\n",
    "            if (r0 + u < m) acc[u] = GPUSVM_W_ACC_RAW(acc[u], dA[t * m + u], k);\n",
    "    }\n",
    "    c += ci_[GPUSVM__CI_A] + (size_t)i * m + r0;\n",
    "    for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u)\n",
    "        if (r0 + u < m) c[u] = GPUSVM_W_ST(GPUSVM_W_ADDF(GPUSVM_W_LD(c[u]), GPUSVM_W_NORM(acc[u])));\n",
    "}\n",
    "#endif\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)\n",
    "__kernel void gpusvm_cs_update(GPUSVM__ARGS_CS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local ulong skey[GPUSVM__L];\n",
    "    __local gpusvm_wide red[4][GPUSVM__L];\n",
    "    const int lid = get_local_id(0), i = get_global_id(0), g = get_group_id(0), p = get_group_id(1);\n",
    "    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;\n",
    "    const int v0 = ci_[GPUSVM__CI_VAR], n = ci_[GPUSVM__CI_N], m = ci_[GPUSVM__CI_M];\n",
    "    status += p * GPUSVM__ST_COUNT;\n",
    "    /* uniform per work-group */\n",
    "    if (!GPUSVM_RUNNING(status) || g * GPUSVM__L >= n) return;\n",
    "    c += ci_[GPUSVM__CI_A];\n",
    "    alpha += ci_[GPUSVM__CI_A];\n",
    "    cls += v0;\n",
    "    U += v0;\n",
    "    part += ((size_t)p * nparts_max + g) * 4;\n",
    "    cand_key += ((size_t)p * nparts_max + g) * qc;\n",
    "    cand_idx += ((size_t)p * nparts_max + g) * qc;\n",
    "    const gpusvm_wide zero = GPUSVM_W_F(0.0f), one = GPUSVM_W_F(1.0f);\n",
    "    gpusvm_wide aka = zero, loss = zero, lin = zero, vmax = zero;\n",
    "    uint key = GPUSVM__KEY_NONE;\n",
    "    if (i < n) {\n",
    "        __global const gpusvm_wbits *ci = c + (size_t)i * m;\n",
    "        __global const gpusvm_wbits *ai = alpha + (size_t)i * m;\n",
    "        const int y = cls[i];\n",
    "        const gpusvm_wide cy = GPUSVM_W_LD(ci[y]), Ui = GPUSVM_W_LD(U[i]);\n",
    "        gpusvm_wide up = GPUSVM_W_F(-INFINITY), low = GPUSVM_W_F(INFINITY), worst = zero, ag = zero;\n",
    "        for (int r = 0; r < m; ++r) {\n",
    "            const gpusvm_wide cr = GPUSVM_W_LD(ci[r]), ar = GPUSVM_W_LD(ai[r]);\n",
    "            const gpusvm_wide gr = GPUSVM_W_SUB(r == y ? one : zero, cr);\n",
    "            const gpusvm_wide hinge = GPUSVM_W_SUB(GPUSVM_W_ADD(one, cr), cy);\n",
    "            if (GPUSVM_W_LT(ar, r == y ? Ui : zero) && GPUSVM_W_GT(gr, up)) up = gr;\n",
    "            if (GPUSVM_W_LT(gr, low)) low = gr;\n",
    "            if (r != y && GPUSVM_W_GT(hinge, worst)) worst = hinge;\n",
    "            aka = GPUSVM_W_ADDF_RAW(aka, GPUSVM_W_MUL(ar, cr));\n",
    "            ag = GPUSVM_W_ADDF_RAW(ag, GPUSVM_W_MUL(ar, gr));\n",
    "        }\n",
    "        aka = GPUSVM_W_NORM(aka);\n",
    "        ag = GPUSVM_W_NORM(ag);\n",
    "        loss = GPUSVM_W_MUL(Ui, worst);\n",
    "        lin = GPUSVM_W_LD(ai[y]);\n",
    "        vmax = GPUSVM_W_SUB(up, low);\n",
    "        const gpusvm_wide gi = GPUSVM_W_SUB(loss, ag);\n",
    "        if (GPUSVM_W_GT(gi, zero)) key = ~gpusvm_float_key(GPUSVM_W_TOF(gi));\n",
    "    }\n",
    "    red[0][lid] = aka;\n",
    "    red[1][lid] = loss;\n",
    "    red[2][lid] = lin;\n",
    "    red[3][lid] = vmax;\n",
    "    skey[lid] = GPUSVM_CS_KEY(key, i);\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {\n",
    "        if (lid < s) {\n",
    "            red[0][lid] = GPUSVM_W_ADDF(red[0][lid], red[0][lid + s]);\n",
    "            red[1][lid] = GPUSVM_W_ADDF(red[1][lid], red[1][lid + s]);\n",
    "            red[2][lid] = GPUSVM_W_ADDF(red[2][lid], red[2][lid + s]);\n",
    "            red[3][lid] = GPUSVM_W_MAX(red[3][lid], red[3][lid + s]);\n",
    "        }\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    if (lid < 4) part[lid] = GPUSVM_W_ST(red[lid][0]);\n",
    "    /* bitonic sort of the group's keys, ascending: its best qc are the first */\n",
    "    for (int k = 2; k <= GPUSVM__L; k <<= 1)\n",
    "        for (int j = k >> 1; j > 0; j >>= 1) {\n",
    "            const int o = lid ^ j;\n",
    "            if (o > lid) {\n",
    "                const ulong a = skey[lid], b = skey[o];\n",
    "                if (((lid & k) == 0) == (a > b)) {\n",
    "                    skey[lid] = b;\n",
    "                    skey[o] = a;\n",
    "                }\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        }\n",
    "    if (lid < qc) {\n",
    "        cand_key[lid] = (uint)(skey[lid] >> 32);\n",
    "        cand_idx[lid] = (int)(uint)skey[lid];\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)\n",
    "__kernel void gpusvm_cs_select(GPUSVM__ARGS_CS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int list[GPUSVM__Q];\n",
    "    __local int keep[GPUSVM__Q];\n",
    "    __local gpusvm_wide red[4][GPUSVM__L];\n",
    "    __local gpusvm_sel_scratch sc;\n",
    "    __local int ls[GPUSVM__L];\n",
    "    __local uint res[4];\n",
    "    __local int nmiss;\n",
    "    const int lid = get_local_id(0), p = get_group_id(0);\n",
    "    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;\n",
    "    const int v0 = ci_[GPUSVM__CI_VAR], nparts = (ci_[GPUSVM__CI_N] + GPUSVM__L - 1) / GPUSVM__L;\n",
    "    const int qc = min(q, GPUSVM__L);\n",
    "    status += p * GPUSVM__ST_COUNT;\n",
    "    if (!GPUSVM_RUNNING(status)) return;\n",
    "    part += (size_t)p * nparts_max * 4;\n",
    "    cand_key += (size_t)p * nparts_max * qc;\n",
    "    cand_idx += (size_t)p * nparts_max * qc;\n",
    "    ws += p * q;\n",
    "    row_idx += p * qmax;\n",
    "    row_slot += p * qmax;\n",
    "    have += v0;\n",
    "    gpusvm_wide s0 = GPUSVM_W_F(0.0f), s1 = s0, s2 = s0;\n",
    "    for (int p = lid; p < nparts; p += GPUSVM__L) {\n",
    "        s0 = GPUSVM_W_ADD(s0, GPUSVM_W_LD(part[(size_t)p * 4]));\n",
    "        s1 = GPUSVM_W_ADD(s1, GPUSVM_W_LD(part[(size_t)p * 4 + 1]));\n",
    "        s2 = GPUSVM_W_ADD(s2, GPUSVM_W_LD(part[(size_t)p * 4 + 2]));\n",
    "    }\n",
    "    red[0][lid] = s0;\n",
    "    red[1][lid] = s1;\n",
    "    red[2][lid] = s2;\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {\n",
    "        if (lid < s)\n",
    "            for (int u = 0; u < 3; ++u) red[u][lid] = GPUSVM_W_ADD(red[u][lid], red[u][lid + s]);\n",
    "        barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    }\n",
    "    const gpusvm_wide P = GPUSVM_W_ADD(GPUSVM_W_MULF(red[0][0], 0.5f), red[1][0]);\n",
    "    const gpusvm_wide D = GPUSVM_W_SUB(red[2][0], GPUSVM_W_MULF(red[0][0], 0.5f));\n",
    "    const gpusvm_wide PD = GPUSVM_W_ADD(P, D);\n",
    "    const gpusvm_wide gap = GPUSVM_W_GT(PD, GPUSVM_W_F(0.0f)) ? GPUSVM_W_DIV(GPUSVM_W_MULF(GPUSVM_W_SUB(P, D), 2.0f), PD)\n",
    "                                                              : GPUSVM_W_F(0.0f);\n",
    "    const int done = GPUSVM__STOP_RULE(GPUSVM_W_GE, gap, GPUSVM_W_LD(eps), GPUSVM_W_LD(status[GPUSVM__ST_ITER]),\n",
    "                                       GPUSVM_W_LD(max_iter));\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (lid == 0) {\n",
    "        status[GPUSVM__ST_GAP] = GPUSVM_W_ST(gap);\n",
    "        status[GPUSVM__ST_CS_P] = GPUSVM_W_ST(P);\n",
    "        status[GPUSVM__ST_CS_D] = GPUSVM_W_ST(D);\n",
    "        status[GPUSVM__ST_DONE] = GPUSVM_W_ST(GPUSVM_W_I(done));\n",
    "        sc.count = 0;\n",
    "        nmiss = 0;\n",
    "    }\n",
    "    if (done) return;\n",
    "    const int ncand = nparts * qc;\n",
    "    gpusvm_select_side(&sc, ls, res, list, cand_key, cand_key, (__global const char *)0, 0, q, ncand);\n",
    "    const int got = sc.count;\n",
    "    for (int c0 = 0; c0 < GPUSVM__Q / GPUSVM__L; ++c0) { /* positions -> points, ascending */\n",
    "        const int t = c0 * GPUSVM__L + lid;\n",
    "        if (t < got) list[t] = cand_idx[list[t]];\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    GPUSVM_SORT_CHOSEN(list, keep, got, lid);\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int t = lid; t < got; t += GPUSVM__L) {\n",
    "        const int v = keep[t];\n",
    "        ws[t] = v;\n",
    "        if (!cache || !have[v]) { /* its row: computed this round */\n",
    "            const int k = atomic_inc(&nmiss);\n",
    "            row_idx[k] = v;\n",
    "            row_slot[k] = cache ? v0 + v - p * qmax : t;\n",
    "            if (cache) have[v] = 1;\n",
    "        }\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n",
    "    if (lid == 0) {\n",
    "        status[GPUSVM__ST_CS_Q] = GPUSVM_W_ST(GPUSVM_W_I(got));\n",
    "        pinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_Q] = nmiss;\n",
    "    }\n",
    "}\n",
    "#endif\n",
    "\n",
    "/* scr (part 0's GPUSVM__CS_SCR_BYTES): m wide words each of D, D - Ub, Ub, alpha, the step, the\n",
    " * candidates' theta, and (float pairs) the violation's terms; then the working set's alpha (q x m),\n",
    " * and its points' bounds, diagonals (GPUSVM_CS_KII) and classes (q each): the sweeps touch only\n",
    " * local memory */\n",
    "#define GPUSVM_CS_SD(r) scr[(r)]\n",
    "#define GPUSVM_CS_SE(r) scr[m + (r)]\n",
    "#define GPUSVM_CS_SU(r) scr[2 * m + (r)]\n",
    "#define GPUSVM_CS_SA(r) scr[3 * m + (r)]\n",
    "#define GPUSVM_CS_SL(r) scr[4 * m + (r)]\n",
    "#define GPUSVM_CS_ST(r) scr[5 * m + (r)]\n",
    "#define GPUSVM_CS_SV(r) scr[6 * m + (r)]\n",
    "#define GPUSVM_CS_LA(e) scr[GPUSVM__CS_SCR_ROWS * m + (e)]\n",
    "#define GPUSVM_CS_LU(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + (t)]\n",
    "#define GPUSVM_CS_LK(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + q + (t)]\n",
    "#define GPUSVM_CS_LY(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + 2 * q + (t)]\n",
    "typedef char gpusvm_cs_scr_check[sizeof(gpusvm_wide) == 8 ? 1 : -1]; /* the host's word size */\n",
    "\n",
    "/* Class s against r in the search for theta (r's partition): whether s is ahead of r (larger D -\n",
    " * Ub, ties by class), the sum of the capped Ub and the free D into acc, the count k of those ahead\n",
    " * and their least D - Ub emin. With double one sum in class order (the C backend's); with float\n",
    " * pairs four apart, added at the end: each step is several dependent float operations there, and\n",
    " * a quarter of the chain: H200, letter's 26 classes, 2.95 s to 2.75 s against double's 1.47 s). */\n",
    "#define GPUSVM_CS_AHEAD(s, acc)                                                                   \\\n",
    "    do {                                                                                        \\\n",
    "        const gpusvm_wide es_ = GPUSVM_CS_SE(s);                                                \\\n",
    "        const int ahead_ = GPUSVM_W_GT(es_, er) || (GPUSVM_W_EQ(es_, er) && (s) < r);           \\\n",
    "        acc = GPUSVM_W_ADDF(acc, ahead_ ? GPUSVM_CS_SU(s) : GPUSVM_CS_SD(s));                   \\\n",
    "        k += ahead_;                                                                            \\\n",
    "        if (ahead_) emin = GPUSVM_W_MIN(emin, es_);                                             \\\n",
    "    } while (0)\n",
    "/* A point's violation v, max over free classes of the gradient minus min over all (computed by\n",
    " * every work-item alike, from what each class put), and its step's D = alpha + g / k_ii. With\n",
    " * float pairs the diagonal's reciprocal is kept, so that the step multiplies (a pair's division is\n",
    " * several dependent steps), and the violation is taken in floats, from each class's (g if free,\n",
    " * else -inf; g) put beside it: it only decides which points the sweeps skip and when they stop\n",
    " * (H200, letter: with the atomic first free class and moved flag below, the responses' sums\n",
    " * renormalized once and the cws walk by steps, 2.78 s to 1.85 s; double 1.47 s to 1.35 s). */\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "#define GPUSVM_CS_PART(j) part##j\n",
    "#define GPUSVM_CS_SUM GPUSVM_W_ADDF(GPUSVM_W_ADDF(part0, part1), GPUSVM_W_ADDF(part2, part3))\n",
    "#define GPUSVM_CS_KII(k) GPUSVM_W_DIV(GPUSVM_W_F(1.0f), (k))\n",
    "#define GPUSVM_CS_OVER_K(g, k) GPUSVM_W_MUL((g), (k))\n",
    "#define GPUSVM_CS_VIOL_PUT(r, a, ub, g) \\\n",
    "    (GPUSVM_CS_SV(r) = gpusvm_w_make(GPUSVM_W_LT((a), (ub)) ? (g).hi : -INFINITY, (g).hi))\n",
    "#define GPUSVM_CS_VIOL(v)                                                                       \\\n",
    "    float up_ = -INFINITY, low_ = INFINITY;                                                     \\\n",
    "    for (int r_ = 0; r_ < m; ++r_) {                                                            \\\n",
    "        const gpusvm_wide w_ = GPUSVM_CS_SV(r_);                                                \\\n",
    "        up_ = fmax(up_, w_.hi);                                                                 \\\n",
    "        low_ = fmin(low_, w_.lo);                                                               \\\n",
    "    }                                                                                           \\\n",
    "    const gpusvm_wide v = GPUSVM_W_F(up_ - low_)\n",
    "#else\n",
    "#define GPUSVM_CS_PART(j) part0\n",
    "#define GPUSVM_CS_SUM part0\n",
    "#define GPUSVM_CS_KII(k) (k)\n",
    "#define GPUSVM_CS_OVER_K(g, k) ((g) / (k))\n",
    "#define GPUSVM_CS_VIOL_PUT(r, a, ub, g) ((void)0)\n",
    "#define GPUSVM_CS_VIOL(v)                                                                       \\\n",
    "    gpusvm_wide up_ = -INFINITY, low_ = INFINITY;                                               \\\n",
    "    for (int r_ = 0; r_ < m; ++r_) {                                                            \\\n",
    "        const gpusvm_wide g_ = GPUSVM_CS_SL(r_);                                                \\\n",
    "        if (GPUSVM_CS_SA(r_) < GPUSVM_CS_SU(r_) && g_ > up_) up_ = g_;                           \\\n",
    "        if (g_ < low_) low_ = g_;                                                               \\\n",
    "    }                                                                                           \\\n",
    "    const gpusvm_wide v = up_ - low_\n",
    "#endif\n",
    "\n",
    "#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)\n",
    "__kernel void gpusvm_cs_solve(GPUSVM__ARGS_CS_SOLVE(GPUSVM__PARAM, GPUSVM__COMMA))\n",
    "{\n",
    "    __local int wsl[GPUSVM__Q];\n",
    "    __local int ksl, mvl; /* a point's step: the first free class (atomic_min), whether a class moved */\n",
    "    const int lid = get_local_id(0), p = get_group_id(0);\n",
    "    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;\n",
    "    const int pv = ci_[GPUSVM__CI_VAR], m = ci_[GPUSVM__CI_M];\n",
    "    status += p * GPUSVM__ST_COUNT;\n",
    "    if (!GPUSVM_RUNNING(status)) return;\n",
    "    const int nq = GPUSVM_W_STI(status, GPUSVM__ST_CS_Q);\n",
    "    alpha += ci_[GPUSVM__CI_A];\n",
    "    c += ci_[GPUSVM__CI_A];\n",
    "    cls += pv;\n",
    "    U += pv;\n",
    "    kd += pv;\n",
    "    ws += p * q;\n",
    "    dA += (size_t)p * q * mmax;\n",
    "    moved += p * q;\n",
    "    /* the row of working-set position t */\n",
    "#define GPUSVM_CS_ROW(t) (cache ? pv + wsl[t] : p * qmax + (t))\n",
    "    for (int t = lid; t < nq; t += GPUSVM__CS_L) {\n",
    "        const int it = ws[t];\n",
    "        wsl[t] = it;\n",
    "        const gpusvm_wide kdi = GPUSVM_W_LD(kd[it]);\n",
    "        GPUSVM_CS_LU(t) = GPUSVM_W_LD(U[it]);\n",
    "        GPUSVM_CS_LK(t) = GPUSVM_CS_KII(GPUSVM_W_GT(kdi, GPUSVM_W_F(0.0f)) ? kdi : GPUSVM_W_TAU);\n",
    "        GPUSVM_CS_LY(t) = GPUSVM_W_I(cls[it]);\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    for (int e = lid; e < nq * nq; e += GPUSVM__CS_L) { /* row of position t at the point of u */\n",
    "        const int t = e / nq, u = e - t * nq;\n",
    "        kws[t * q + u] = K[(size_t)GPUSVM_CS_ROW(t) * ldk + wsl[u]];\n",
    "    }\n",
    "    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) {\n",
    "        const int t = e / m;\n",
    "        const size_t at = (size_t)wsl[t] * m + (e - t * m);\n",
    "        cws[e] = GPUSVM_W_LD(c[at]);\n",
    "        GPUSVM_CS_LA(e) = GPUSVM_W_LD(alpha[at]);\n",
    "    }\n",
    "    barrier(CLK_LOCAL_MEM_FENCE);\n",
    "    const gpusvm_wide zero = GPUSVM_W_F(0.0f), ratio_w = GPUSVM_W_LD(ratio), eps_w = GPUSVM_W_LD(eps);\n",
    "    gpusvm_wide v0 = GPUSVM_W_F(-1.0f), upd = zero, skip = zero;\n",
    "    /* the cws update's element e = lid + j L is at (u, r) = (e / m, e % m), walked by steps of L */\n",
    "    const int stp_u = GPUSVM__CS_L / m, stp_r = GPUSVM__CS_L - stp_u * m, u_0 = lid / m, r_0 = lid - u_0 * m;\n",
    "    for (int sweep = 0; sweep < 100; ++sweep) {\n",
    "        gpusvm_wide vin = zero;\n",
    "        for (int t = 0; t < nq; ++t) {\n",
    "            const int y = GPUSVM_W_TOI(GPUSVM_CS_LY(t));\n",
    "            const gpusvm_wide kii = GPUSVM_CS_LK(t);\n",
    "            if (lid == 0) {\n",
    "                ksl = m - 1;\n",
    "                mvl = 0;\n",
    "            }\n",
    "            for (int r = lid; r < m; r += GPUSVM__CS_L) {\n",
    "                const gpusvm_wide a = GPUSVM_CS_LA(t * m + r);\n",
    "                const gpusvm_wide gr = GPUSVM_W_SUB(GPUSVM_W_F(r == y ? 1.0f : 0.0f), cws[t * m + r]);\n",
    "                const gpusvm_wide ub = r == y ? GPUSVM_CS_LU(t) : zero;\n",
    "                GPUSVM_CS_SA(r) = a;\n",
    "                GPUSVM_CS_SU(r) = ub;\n",
    "                const gpusvm_wide dr = GPUSVM_W_ADD(a, GPUSVM_CS_OVER_K(gr, kii));\n",
    "                GPUSVM_CS_SD(r) = dr;\n",
    "                GPUSVM_CS_SE(r) = GPUSVM_W_SUB(dr, ub);\n",
    "                GPUSVM_CS_SL(r) = gr; /* the gradient until the step replaces it */\n",
    "                GPUSVM_CS_VIOL_PUT(r, a, ub, gr);\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            GPUSVM_CS_VIOL(viol); /* every work-item, the same answer */\n",
    "            vin = GPUSVM_W_MAX(vin, viol);\n",
    "            /* uniform: optimal (within tau's 1e-12), or already below the sweeps' aim */\n",
    "            if (!GPUSVM_W_GT(viol, GPUSVM_W_TAU) || GPUSVM_W_LT(viol, skip)) {\n",
    "                barrier(CLK_LOCAL_MEM_FENCE);\n",
    "                continue;\n",
    "            }\n",
    "            for (int r = lid; r < m; r += GPUSVM__CS_L) { /* r first free: the classes ahead capped */\n",
    "                const gpusvm_wide er = GPUSVM_CS_SE(r);\n",
    "                gpusvm_wide part0 = zero, emin = GPUSVM_W_F(INFINITY);\n",
    "#ifdef GPUSVM_NO_FP64\n",
    "                gpusvm_wide part1 = zero, part2 = zero, part3 = zero;\n",
    "#endif\n",
    "                int k = 0, s = 0;\n",
    "                for (; s + 4 <= m; s += 4) {\n",
    "                    GPUSVM_CS_AHEAD(s, part0);\n",
    "                    GPUSVM_CS_AHEAD(s + 1, GPUSVM_CS_PART(1));\n",
    "                    GPUSVM_CS_AHEAD(s + 2, GPUSVM_CS_PART(2));\n",
    "                    GPUSVM_CS_AHEAD(s + 3, GPUSVM_CS_PART(3));\n",
    "                }\n",
    "                for (; s < m; ++s) GPUSVM_CS_AHEAD(s, part0);\n",
    "                const gpusvm_wide th = GPUSVM_W_DIV(GPUSVM_CS_SUM, GPUSVM_W_I(m - k));\n",
    "                GPUSVM_CS_ST(k) = th;\n",
    "                if ((k == 0 || GPUSVM_W_GE(emin, th)) && GPUSVM_W_LT(er, th)) atomic_min(&ksl, k);\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            const gpusvm_wide theta = GPUSVM_CS_ST(ksl); /* the first k that qualifies, else m - 1 */\n",
    "            for (int r = lid; r < m; r += GPUSVM__CS_L) {\n",
    "                const gpusvm_wide d = GPUSVM_W_SUB(GPUSVM_CS_SD(r), theta), ub = GPUSVM_CS_SU(r);\n",
    "                const gpusvm_wide beta = GPUSVM_W_LT(d, ub) ? d : ub;\n",
    "                const gpusvm_wide step = GPUSVM_W_SUB(beta, GPUSVM_CS_SA(r));\n",
    "                GPUSVM_CS_SL(r) = step;\n",
    "                GPUSVM_CS_LA(t * m + r) = beta;\n",
    "                if (!GPUSVM_W_EQ(step, zero)) mvl = 1;\n",
    "            }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "            const int mv = mvl;\n",
    "            upd = GPUSVM_W_ADD(upd, GPUSVM_W_I(mv));\n",
    "            if (mv)\n",
    "                for (int e = lid, u = u_0, r = r_0; e < nq * m; e += GPUSVM__CS_L) {\n",
    "                    cws[e] = GPUSVM_W_ACC(cws[e], GPUSVM_CS_SL(r), kws[t * q + u]);\n",
    "                    u += stp_u;\n",
    "                    r += stp_r;\n",
    "                    if (r >= m) {\n",
    "                        r -= m;\n",
    "                        ++u;\n",
    "                    }\n",
    "                }\n",
    "            barrier(CLK_LOCAL_MEM_FENCE);\n",
    "        }\n",
    "        if (GPUSVM_W_LT(v0, zero)) v0 = vin;\n",
    "        if (GPUSVM_W_LT(vin, GPUSVM_W_MUL(ratio_w, v0)) || GPUSVM_W_LT(vin, eps_w)) break;\n",
    "        skip = GPUSVM_W_MUL(GPUSVM_W_MULF(ratio_w, 0.5f), v0); /* later sweeps: only points at least half the aim over it */\n",
    "    }\n",
    "    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) { /* the steps, and alpha written back */\n",
    "        const int t = e / m;\n",
    "        const size_t at = (size_t)wsl[t] * m + (e - t * m);\n",
    "        const gpusvm_wbits old = alpha[at];\n",
    "        const gpusvm_wide a0 = GPUSVM_W_LD(old);\n",
    "        dA[e] = GPUSVM_W_SUB(GPUSVM_CS_LA(e), a0); /* the kernels' own: wide as it is */\n",
    "        alpha[at] = GPUSVM_W_ST_EXACT(GPUSVM_CS_LA(e), a0, old, GPUSVM_CS_LU(t), U[wsl[t]]); /* U: y's bound */\n",
    "    }\n",
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n",
    "    for (int t = lid; t < nq; t += GPUSVM__CS_L) {\n",
    "        int mv = 0;\n",
    "        for (int r = 0; r < m; ++r) mv |= !GPUSVM_W_EQ(dA[t * m + r], zero);\n",
    "        moved[t] = mv ? GPUSVM_CS_ROW(t) : -1;\n",
    "    }\n",
    "    if (lid == 0) {\n",
    "        status[GPUSVM__ST_ITER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_ITER]), upd));\n",
    "        status[GPUSVM__ST_OUTER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_OUTER]), GPUSVM_W_F(1.0f)));\n",
    "    }\n",
    "}\n",
    "#endif\n",
};
#define GPUSVM__KERNEL_SOURCE_LINES 3531
// <<kernels

static const char *const *gpusvm__kernel_lines(gpusvm__cl_uint *count)
{
    *count = (gpusvm__cl_uint)GPUSVM__KERNEL_SOURCE_LINES;
    return gpusvm__kernel_source;
}
#endif /* GPUSVM_NO_OPENCL */

#ifdef GPUSVM_PREDICT_ONLY
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#elif defined(_MSC_VER)
#pragma warning(pop)
#endif
#endif
#endif /* GPUSVM_IMPLEMENTATION_ONCE */
#endif /* GPUSVM_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the gpusvm authors

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/
