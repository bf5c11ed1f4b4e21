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
 * Built with -DDRIVER_PRELOAD as a library for LD_PRELOAD, it starts the
 * same thread as another program (ffmpeg) starts, and joins it as that
 * program exits: the driver's start beside that program's own work, with
 * nothing of ours in the process. There CUDA_PROBE_PINNED_MB=N also
 * allocates N MiB of page-locked memory in 14 MiB pieces (the filter's
 * ring slots for 1080p) once the context is ready.
 *
 * Times (ms from the start) go to stderr; the caller times the whole
 * process. tools/gpu-driver-bounds.sh and tools/gpu-swdecode-probe.sh run
 * it. Build: cc -O2 -pthread cuda-driver-probe.c -ldl, or cc -O2 -pthread
 * -shared -fPIC -DDRIVER_PRELOAD -o cuda-driver-probe.so cuda-driver-probe.c
 * -ldl.
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
typedef int (*SetCurrentFn)(void *);
typedef int (*HostAllocFn)(void **, size_t, unsigned);

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
#ifdef DRIVER_PRELOAD
        return NULL;            /* the program runs on without it */
#else
        exit(2);
#endif
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
#ifdef DRIVER_PRELOAD
    if (!r2 && getenv("CUDA_PROBE_PINNED_MB")) {
        SetCurrentFn set_current = (SetCurrentFn)dlsym(lib, "cuCtxSetCurrent");
        HostAllocFn host_alloc   = (HostAllocFn)dlsym(lib, "cuMemHostAlloc");
        long left = atol(getenv("CUDA_PROBE_PINNED_MB"));
        int failed = !set_current || !host_alloc || set_current(ctx);
        void *p;

        for (; left > 0 && !failed; left -= 14)
            failed = host_alloc(&p, (size_t)(left < 14 ? left : 14) << 20, 0) != 0;
        fprintf(stderr, "pid %d: %s MiB page-locked in %.1f ms, ready at %.1f ms%s\n",
                (int)getpid(), getenv("CUDA_PROBE_PINNED_MB"), now_ms() - c,
                now_ms() - start_ms, failed ? " (FAILED)" : "");
    }
#endif
    return NULL;
}

#ifdef DRIVER_PRELOAD
static pthread_t preload_thread;
static int preload_started;

__attribute__((constructor)) static void preload_start(void)
{
    start_ms = now_ms();
    preload_started = !pthread_create(&preload_thread, NULL, start_driver, NULL);
}

/* As the program exits: it must not tear down a driver still starting. */
__attribute__((destructor)) static void preload_join(void)
{
    if (preload_started)
        pthread_join(preload_thread, NULL);
}
#else

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
#endif
