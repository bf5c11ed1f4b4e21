/*
 * Whether uploading a frame from its own memory (page-locked for the copy
 * with cuMemHostRegister, then unregistered) costs less than the staging
 * copy into page-locked memory the ring makes now. Per 1080p 8-bit frame
 * (3,110,400 bytes, a fresh allocation each time, as ffmpeg's raw reader
 * makes them), the median over ITER frames of:
 *   staging: memcpy into a page-locked buffer, then the upload from it;
 *   register: cuMemHostRegister, the upload, cuMemHostUnregister.
 *
 *   cuda-register-probe [ITER]
 * Build: cc -O2 cuda-register-probe.c -ldl. Run several at once to see them
 * share the machine (tools/gpu-driver-bounds.sh does).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FRAME_BYTES 3110400

typedef int (*Fn)();

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof(*v), cmp);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    int iter = argc > 1 ? atoi(argv[1]) : 200, dev;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL), *ctx, *pinned;
    uint64_t dptr;
    Fn init, device_get, retain, set_current, mem_alloc, alloc_host, copy, reg, unreg;
    double *t_copy, *t_up_pinned, *t_reg, *t_up_reg, *t_unreg;

    if (!lib || iter < 1)
        return 2;
#define SYM(v, name) if (!(v = (Fn)dlsym(lib, name))) { fprintf(stderr, "no %s\n", name); return 2; }
    SYM(init, "cuInit");
    SYM(device_get, "cuDeviceGet");
    SYM(retain, "cuDevicePrimaryCtxRetain");
    SYM(set_current, "cuCtxSetCurrent");
    SYM(mem_alloc, "cuMemAlloc_v2");
    SYM(alloc_host, "cuMemAllocHost_v2");
    SYM(copy, "cuMemcpyHtoD_v2");
    SYM(reg, "cuMemHostRegister_v2");
    SYM(unreg, "cuMemHostUnregister");
    if (init(0) || device_get(&dev, 0) || retain(&ctx, dev) || set_current(ctx) ||
        mem_alloc(&dptr, (size_t)FRAME_BYTES) || alloc_host(&pinned, (size_t)FRAME_BYTES))
        return 3;
    t_copy = calloc(iter, sizeof(double));
    t_up_pinned = calloc(iter, sizeof(double));
    t_reg = calloc(iter, sizeof(double));
    t_up_reg = calloc(iter, sizeof(double));
    t_unreg = calloc(iter, sizeof(double));
    for (int i = 0; i < iter; i++) {
        uint8_t *frame = malloc(FRAME_BYTES);
        double a, b, c, d;
        int r;
        memset(frame, i, FRAME_BYTES);          /* as a reader fills it */
        a = now_us();
        memcpy(pinned, frame, FRAME_BYTES);
        b = now_us();
        copy(dptr, pinned, (size_t)FRAME_BYTES);
        c = now_us();
        t_copy[i] = b - a;
        t_up_pinned[i] = c - b;
        a = now_us();
        r = reg(frame, (size_t)FRAME_BYTES, 0u);
        b = now_us();
        if (r) {
            fprintf(stderr, "cuMemHostRegister failed: %d\n", r);
            return 4;
        }
        copy(dptr, frame, (size_t)FRAME_BYTES);
        c = now_us();
        unreg(frame);
        d = now_us();
        t_reg[i] = b - a;
        t_up_reg[i] = c - b;
        t_unreg[i] = d - c;
        free(frame);
    }
    printf("median of %d frames: staging copy %.0f us + upload %.0f us = %.0f us; "
           "register %.0f us + upload %.0f us + unregister %.0f us = %.0f us\n", iter,
           median(t_copy, iter), median(t_up_pinned, iter),
           median(t_copy, iter) + median(t_up_pinned, iter),
           median(t_reg, iter), median(t_up_reg, iter), median(t_unreg, iter),
           median(t_reg, iter) + median(t_up_reg, iter) + median(t_unreg, iter));
    return 0;
}
