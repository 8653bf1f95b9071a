/* Shows, on the Oclgrind used, the false report that tests/kernels/oclgrind.sh avoids with
   GPUSVM_BUFFERS=keep: a buffer's shadow (which bytes are initialised) is kept by
   buffer id and sized by the buffer's host writes; a buffer released and a new one created take
   the same id, and the new one's shadow stays the old one's size until the host writes it. Here:
   buffer A, 64 bytes, written by the host and released; buffer B, 256 bytes, takes A's id, is
   filled by a kernel and read back by another; every value read is the one written (checked), yet
   Oclgrind reports the words past A's 64 bytes as uninitialised. Prints "reproduced" and exits 0
   when both hold; tests/kernels/oclgrind.sh runs it under OCLGRIND_UNINITIALIZED=1 and counts the
   reports. Links OpenCL directly (-l:libOpenCL.so.1, the headers from opencl-c-headers). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static const char *src = "__kernel void fill(__global uint *p) { p[get_global_id(0)] = 7u; }\n"
                         "__kernel void add(__global const uint *p, __global uint *q) {\n"
                         "    const size_t i = get_global_id(0); q[i] = p[i] + 1u; }\n";

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_context c;
    cl_command_queue q;
    cl_program prog;
    cl_kernel fill, add;
    cl_mem a, b, out;
    cl_int e;
    unsigned host[64];
    size_t n = 64, i, bad = 0;
    memset(host, 0, sizeof host);
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
        return 2;
    c = clCreateContext(NULL, 1, &device, NULL, NULL, &e);
    q = clCreateCommandQueue(c, device, 0, &e);
    prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
    if (clBuildProgram(prog, 1, &device, "", NULL, NULL) != CL_SUCCESS) return 2;
    fill = clCreateKernel(prog, "fill", &e);
    add = clCreateKernel(prog, "add", &e);
    a = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &e); /* A: 16 words, written by the host */
    clEnqueueWriteBuffer(q, a, CL_TRUE, 0, 64, host, 0, NULL, NULL);
    clReleaseMemObject(a);
    b = clCreateBuffer(c, CL_MEM_READ_WRITE, 256, NULL, &e); /* B: 64 words, A's id */
    out = clCreateBuffer(c, CL_MEM_READ_WRITE, 256, NULL, &e);
    clSetKernelArg(fill, 0, sizeof b, &b);
    clEnqueueNDRangeKernel(q, fill, 1, NULL, &n, NULL, 0, NULL, NULL); /* every word of B: 7 */
    clSetKernelArg(add, 0, sizeof b, &b);
    clSetKernelArg(add, 1, sizeof out, &out);
    clEnqueueNDRangeKernel(q, add, 1, NULL, &n, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, 256, host, 0, NULL, NULL);
    for (i = 0; i < 64; ++i) bad += host[i] != 8u;
    printf("oclgrind_ids: %s (%lu of 64 words read not as written)\n", bad ? "values wrong" : "reproduced",
           (unsigned long)bad);
    return bad ? 1 : 0;
}
