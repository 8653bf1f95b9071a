/* cli_mpi.h: the tools across MPI ranks (make mpi builds build/gpusvm-train-mpi and
   build/gpusvm-grid-mpi with this). Every rank reads the data. gpusvm-train-mpi: the ranks make
   the same calls on a context split across them (desc.split): each holds the kernel rows and
   gradient of its share of the points, and they agree on every working set through
   MPI_Allgather, so the model is the one a single process trains; each rank on the C backend, or
   with GPUSVM_BACKEND=opencl on an OpenCL device: GPUSVM_DEVICE as a comma-separated list
   gives each rank on a host the entry of its local rank (modulo the list's length), one device
   each. gpusvm-grid-mpi: the ranks take
   the grid's gamma values in turn, each on a context of its own, and rank 0 gathers the rates.
   Rank 0 prints and writes; a failing rank aborts all. */
#ifndef GPUSVM_CLI_MPI_H
#define GPUSVM_CLI_MPI_H

#include "cli.h"
#include <mpi.h>
#include <unistd.h>

#define CLI_MPI_CHUNK ((size_t)1 << 26) /* bytes per rank in one MPI_Allgather (its counts are ints) */

static int cli_mpi_size_ = 1;
static char cli_mpi_device_[256]; /* this rank's entry of a device list */
static int cli_mpi_split_ = 0; /* the context is split across the ranks */
static unsigned char *cli_mpi_tmp_ = NULL; /* size x CLI_MPI_CHUNK, for gathers larger than a chunk */

static int cli_mpi_allgather(void *user, const void *send, void *recv, size_t bytes)
{
    const size_t parts = (size_t)cli_mpi_size_;
    size_t off, r;
    (void)user;
    if (bytes <= CLI_MPI_CHUNK)
        return MPI_Allgather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, MPI_COMM_WORLD) != MPI_SUCCESS;
    if (!cli_mpi_tmp_ && !(cli_mpi_tmp_ = (unsigned char *)malloc(parts * CLI_MPI_CHUNK))) return 1;
    for (off = 0; off < bytes; off += CLI_MPI_CHUNK) {
        const size_t n = bytes - off < CLI_MPI_CHUNK ? bytes - off : CLI_MPI_CHUNK;
        if (MPI_Allgather((const unsigned char *)send + off, (int)n, MPI_BYTE, cli_mpi_tmp_, (int)n, MPI_BYTE,
                          MPI_COMM_WORLD) != MPI_SUCCESS)
            return 1;
        for (r = 0; r < parts; ++r) memcpy((unsigned char *)recv + r * bytes + off, cli_mpi_tmp_ + r * n, n);
    }
    return 0;
}

/* Entry `at` (modulo their count) of the comma-separated list into cli_mpi_device_. */
static void cli_mpi_pick(const char *list, int at)
{
    int n = 1, k = 0;
    const char *p = list, *e;
    size_t len;
    for (e = list; *e; ++e) n += *e == ',';
    at %= n;
    while (k < at) k += *p++ == ',';
    e = strchr(p, ',');
    len = e ? (size_t)(e - p) : strlen(p);
    if (len >= sizeof cli_mpi_device_) len = sizeof cli_mpi_device_ - 1;
    memcpy(cli_mpi_device_, p, len);
    cli_mpi_device_[len] = 0;
}

/* The split, a device list's entry for this rank, and unless GPUSVM_THREADS says otherwise, this
   host's cores shared among its ranks. */
static void cli_mpi_desc(gpusvm_context_desc *d)
{
    const char *env = getenv("GPUSVM_THREADS"), *dev = d->device ? d->device : getenv("GPUSVM_DEVICE");
    MPI_Comm local;
    int local_size = 1, local_rank = 0, rank = 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (cli_mpi_split_) {
        d->split.parts = cli_mpi_size_;
        d->split.rank = rank;
        d->split.allgather = cli_mpi_allgather;
    }
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
        MPI_Comm_size(local, &local_size);
        MPI_Comm_rank(local, &local_rank);
        MPI_Comm_free(&local);
    }
    if (cli_mpi_split_ && dev && strchr(dev, ',')) {
        cli_mpi_pick(dev, local_rank);
        d->device = cli_mpi_device_;
    }
    if (!(env && *env) && cores > 0) d->threads = cores / local_size > 1 ? (int)(cores / local_size) : 1;
}

/* Success: every rank finalizes; a failure on any rank ends them all (the others would wait). */
static void cli_mpi_exit(int code)
{
    free(cli_mpi_tmp_);
    cli_mpi_tmp_ = NULL;
    if (code) MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Finalize();
}

/* Every rank's v[0..n) summed into each (the values a rank did not compute: zeros). */
CLI_MAYBE_UNUSED static void cli_mpi_sum(double *v, size_t n)
{
    size_t off;
    for (off = 0; off < n; off += CLI_MPI_CHUNK / sizeof(double)) {
        const size_t k = n - off < CLI_MPI_CHUNK / sizeof(double) ? n - off : CLI_MPI_CHUNK / sizeof(double);
        if (MPI_Allreduce(MPI_IN_PLACE, v + off, (int)k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS)
            cli_check(GPUSVM_ERROR_IO, "MPI_Allreduce");
    }
}

/* split: the tool's context is split across the ranks (gpusvm-train-mpi), else each rank's is its own. */
static void cli_mpi_init(int *argc, char ***argv, int split)
{
    MPI_Init(argc, argv);
    cli_mpi_split_ = split;
    MPI_Comm_size(MPI_COMM_WORLD, &cli_mpi_size_);
    MPI_Comm_rank(MPI_COMM_WORLD, &cli_rank_);
    cli_desc_hook_ = cli_mpi_desc;
    cli_exit_hook_ = cli_mpi_exit;
}

#endif
