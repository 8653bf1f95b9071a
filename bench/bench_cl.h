/* bench_cl.h: what the OpenCL benchmarks (bench/micro.c, bench/probe.c) share: a fatal message
   with the program's name (BENCH_NAME, defined before this header), and a checked OpenCL call
   through gpusvm's loaded API. */
#ifndef BENCH_CL_H
#define BENCH_CL_H
#define DIE(...)                                                                                                     \
    do {                                                                                                             \
        fprintf(stderr, BENCH_NAME ": " __VA_ARGS__);                                                                \
        fprintf(stderr, "\n");                                                                                       \
        exit(1);                                                                                                     \
    } while (0)
#define CLOK(call)                                                                                                   \
    do {                                                                                                             \
        gpusvm__cl_int e_ = (call);                                                                                  \
        if (e_ != 0) DIE("%s returned %d", #call, (int)e_);                                                          \
    } while (0)
#endif
