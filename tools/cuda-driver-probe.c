/*
 * What the CUDA driver itself costs a process, with nothing of ours in the
 * way: a thread loads libcuda, runs cuInit and retains device 0's primary
 * context (what the filter's warm-up does), and the main thread then
 *
 *   cuda-driver-probe wait         waits for it, then returns from main()
 *                                  (the context is torn down by the exit);
 *   cuda-driver-probe release      waits for it, releases the context and
 *                                  times that, then returns;
 *   cuda-driver-probe quick        waits for it, then _exit(0) (no exit
 *                                  handlers: what the kernel's part costs);
 *   cuda-driver-probe exit MS      returns from main() MS ms after the start,
 *                                  whatever the thread is doing.
 *
 * Times (ms from the start) go to stderr; the caller times the whole
 * process. tools/gpu-driver-bounds.sh runs it. Build: cc -O2 -pthread
 * cuda-driver-probe.c -ldl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*InitFn)(unsigned);
typedef int (*DeviceGetFn)(int *, int);
typedef int (*RetainFn)(void **, int);
typedef int (*ReleaseFn)(int);

static double start_ms;
static volatile int stage;      /* 0 loading, 1 cuInit, 2 context, 3 ready */
static ReleaseFn release;
static int device;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *start_driver(void *arg)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    InitFn init;
    DeviceGetFn device_get;
    RetainFn retain;
    void *ctx;
    double a, b, c;
    int r0, r1 = -1, r2 = -1;

    if (!lib) {
        fprintf(stderr, "libcuda.so.1 cannot be loaded\n");
        exit(2);
    }
    init       = (InitFn)dlsym(lib, "cuInit");
    device_get = (DeviceGetFn)dlsym(lib, "cuDeviceGet");
    retain     = (RetainFn)dlsym(lib, "cuDevicePrimaryCtxRetain");
    release    = (ReleaseFn)dlsym(lib, "cuDevicePrimaryCtxRelease_v2");
    if (!release)
        release = (ReleaseFn)dlsym(lib, "cuDevicePrimaryCtxRelease");
    stage = 1;
    a  = now_ms();
    r0 = init(0);
    b  = now_ms();
    stage = 2;
    if (!r0 && !(r1 = device_get(&device, 0)))
        r2 = retain(&ctx, device);
    c = now_ms();
    stage = 3;
    fprintf(stderr, "pid %d: cuInit %.1f ms, context %.1f ms, ready at %.1f ms%s\n", (int)getpid(),
            b - a, c - b, c - start_ms, r0 || r1 || r2 ? " (FAILED)" : "");
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "wait";
    pthread_t thread;
    double t;

    start_ms = now_ms();
    if (pthread_create(&thread, NULL, start_driver, NULL))
        return 2;
    if (!strcmp(mode, "exit")) {
        usleep((argc > 2 ? atoi(argv[2]) : 0) * 1000);
        fprintf(stderr, "returning from main at %.1f ms, the driver in stage %d\n",
                now_ms() - start_ms, stage);
        return 0;
    }
    pthread_join(thread, NULL);
    if (!strcmp(mode, "release")) {
        t = now_ms();
        release(device);
        fprintf(stderr, "context released in %.1f ms\n", now_ms() - t);
    } else if (!strcmp(mode, "quick")) {
        _exit(0);
    }
    fprintf(stderr, "returning from main at %.1f ms\n", now_ms() - start_ms);
    return 0;
}
