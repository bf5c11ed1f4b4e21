/*
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */


#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/time.h"

#include "amd_code.h"
#include "gpu_functions.h"
#include "gpu_runtime.h"
#include "libavfilter/vmaf/test_hooks.h"


typedef struct Symbol {
    size_t offset;
    const char *name;
} Symbol;

#define SYM(field, name) { offsetof(GpuFunctions, field), name }

static const Symbol cuda_symbols[] = {
    SYM(init,            "cuInit"),
    SYM(device_count,    "cuDeviceGetCount"),
    SYM(module_load,     "cuModuleLoadData"),
    SYM(module_unload,   "cuModuleUnload"),
    SYM(module_function, "cuModuleGetFunction"),
    SYM(launch,          "cuLaunchKernel"),
    SYM(malloc,          "cuMemAlloc_v2"),
    SYM(free,            "cuMemFree_v2"),
    SYM(host_alloc,      "cuMemHostAlloc"),
    SYM(host_free,       "cuMemFreeHost"),
    SYM(stream_create,   "cuStreamCreate"),
    SYM(stream_destroy,  "cuStreamDestroy_v2"),
    SYM(stream_sync,     "cuStreamSynchronize"),
    SYM(event_create,    "cuEventCreate"),
    SYM(event_destroy,   "cuEventDestroy_v2"),
    SYM(event_record,    "cuEventRecord"),
    SYM(event_sync,      "cuEventSynchronize"),
    SYM(event_query,     "cuEventQuery"),
    SYM(event_elapsed,   "cuEventElapsedTime"),
    SYM(stream_wait_event, "cuStreamWaitEvent"),
    SYM(upload,          "cuMemcpyHtoDAsync_v2"),
    SYM(download,        "cuMemcpyDtoHAsync_v2"),
    SYM(memset8,         "cuMemsetD8Async"),
    SYM(cu_device_get,   "cuDeviceGet"),
    SYM(cu_device_name,  "cuDeviceGetName"),
    SYM(cu_ctx_retain,   "cuDevicePrimaryCtxRetain"),
    SYM(cu_ctx_release,  "cuDevicePrimaryCtxRelease_v2"),
    SYM(cu_ctx_push,     "cuCtxPushCurrent_v2"),
    SYM(cu_ctx_pop,      "cuCtxPopCurrent_v2"),
    SYM(cu_error_name,   "cuGetErrorName"),
    SYM(cu_ctx_get_device, "cuCtxGetDevice"),
};

/* Optional: graphs and kernels' parameter layouts (gpu_graph.c). */
static const Symbol cuda_graph_symbols[] = {
    SYM(func_param_info,    "cuFuncGetParamInfo"),
    SYM(capture_begin,      "cuStreamBeginCapture_v2"),
    SYM(capture_end,        "cuStreamEndCapture"),
    SYM(graph_instantiate,  "cuGraphInstantiateWithFlags"),
    SYM(graph_launch,       "cuGraphLaunch"),
    SYM(graph_exec_destroy, "cuGraphExecDestroy"),
    SYM(graph_destroy,      "cuGraphDestroy"),
};

static const Symbol hip_symbols[] = {
    SYM(init,            "hipInit"),
    SYM(device_count,    "hipGetDeviceCount"),
    SYM(module_load,     "hipModuleLoadData"),
    SYM(module_unload,   "hipModuleUnload"),
    SYM(module_function, "hipModuleGetFunction"),
    SYM(launch,          "hipModuleLaunchKernel"),
    SYM(malloc,          "hipMalloc"),
    SYM(free,            "hipFree"),
    SYM(host_alloc,      "hipHostMalloc"),
    SYM(host_free,       "hipHostFree"),
    SYM(stream_create,   "hipStreamCreateWithFlags"),
    SYM(stream_destroy,  "hipStreamDestroy"),
    SYM(stream_sync,     "hipStreamSynchronize"),
    SYM(event_create,    "hipEventCreateWithFlags"),
    SYM(event_destroy,   "hipEventDestroy"),
    SYM(event_record,    "hipEventRecord"),
    SYM(event_sync,      "hipEventSynchronize"),
    SYM(event_query,     "hipEventQuery"),
    SYM(event_elapsed,   "hipEventElapsedTime"),
    SYM(stream_wait_event, "hipStreamWaitEvent"),
    SYM(upload,          "hipMemcpyHtoDAsync"),
    SYM(download,        "hipMemcpyDtoHAsync"),
    SYM(memset8,         "hipMemsetD8Async"),
    SYM(hip_set_device,  "hipSetDevice"),
    SYM(hip_device_name, "hipDeviceGetName"),
    SYM(hip_error_name,  "hipGetErrorName"),
};

/* Flag values shared by both APIs. */
#define STREAM_NON_BLOCKING  1
#define EVENT_DISABLE_TIMING 2
/* Error codes shared by both APIs. */
#define ERROR_NOT_READY      600

#define gpu_log(g, ...) do { if (!(g)->quiet) av_log((g)->log_ctx, __VA_ARGS__); } while (0)

static const char *error_name(const FFGpu *g, int err)
{
    const char *name = NULL;
    if (g->platform == FF_GPU_PLATFORM_SIMULATED)
        return err == FF_GPU_SIMULATED_LAUNCH_ERROR ? "simulated GPU: kernels do not run" : "simulated GPU error";
    if (g->platform == FF_GPU_PLATFORM_CUDA && g->fn.cu_error_name)
        g->fn.cu_error_name(err, &name);
    else if (g->platform == FF_GPU_PLATFORM_HIP && g->fn.hip_error_name)
        name = g->fn.hip_error_name(err);
    return name ? name : "unknown error";
}

int ff_gpu_check(const FFGpu *g, int err, const char *call)
{
    if (!err)
        return 0;
    gpu_log(g, AV_LOG_ERROR, "GPU call %s failed on %s: %s (%d).\n",
           call, ff_gpu_platform_name(g),
           error_name(g, err), err);
    return AVERROR_EXTERNAL;
}

#define CHECK(g, call, name) ff_gpu_check(g, call, name)

static int load_symbols(FFGpu *g, const Symbol *syms, int nb)
{
    for (int i = 0; i < nb; i++) {
        void *p = dlsym(g->lib, syms[i].name);
        if (!p) {
            gpu_log(g, AV_LOG_VERBOSE, "GPU runtime lacks %s.\n", syms[i].name);
            return AVERROR(ENOSYS);
        }
        memcpy((uint8_t *)&g->fn + syms[i].offset, &p, sizeof(p));
    }
    return 0;
}

/* All of syms or none: a runtime without them still does everything else. */
static void load_optional(FFGpu *g, const Symbol *syms, int nb)
{
    if (load_symbols(g, syms, nb) < 0)
        for (int i = 0; i < nb; i++)
            memset((uint8_t *)&g->fn + syms[i].offset, 0, sizeof(void *));
}

/* The warm-up's state (ff_gpu_warm_up() below). warm_join_lock guards
 * the thread's start and join; warm_lock (which the thread itself takes, so
 * never held across the join) what it reports as it goes. */
static pthread_mutex_t warm_join_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t warm_thread;
static int warm_state;          ///< 0 not started, 1 running, 2 joined
static int warm_device;
static FFGpu warm_gpu;
static pthread_mutex_t warm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t warm_cond = PTHREAD_COND_INITIALIZER;
/* For ff_gpu_warm_up_pending(): the thread was started, it loaded a
 * runtime (whose slow initialisation follows), it has finished. */
static int warm_started, warm_loaded, warm_finished;
/* Tests: a simulated GPU that takes this long to start (VMAF_HIP_SIMULATE_START_MS). */
static int64_t warm_simulated_us;

static void warm_mark(int *flag)
{
    pthread_mutex_lock(&warm_lock);
    *flag = 1;
    pthread_cond_broadcast(&warm_cond);
    pthread_mutex_unlock(&warm_lock);
}

/* hipDeviceProp_t is larger than this in no ROCm (1.5 KiB in 6.x). */
#define HIP_PROPS_SIZE 16384

/* The device's architecture, from hipGetDeviceProperties. Its structure
 * changed with ROCm 6 (and the entry point with it: R0600), so the name is
 * looked for rather than read at an offset. */
static void hip_arch(FFGpu *g, int device)
{
    int (*props)(void *p, int dev) = dlsym(g->lib, "hipGetDevicePropertiesR0600");
    uint8_t *buf;

    if (!props)
        props = dlsym(g->lib, "hipGetDeviceProperties");
    if (!props || !(buf = av_mallocz(HIP_PROPS_SIZE)))
        return;
    if (props(buf, device) || ff_gpu_amd_arch_in(buf, HIP_PROPS_SIZE, g->arch, sizeof(g->arch)) < 0)
        g->arch[0] = 0;
    av_free(buf);
}

static int open_platform(FFGpu *g, enum FFGpuPlatform platform, int device)
{
    static const char *const hip_libs[]  = { "libamdhip64.so", "libamdhip64.so.7",
                                             "libamdhip64.so.6", "libamdhip64.so.5" };
    static const char *const cuda_libs[] = { "libcuda.so.1", "libcuda.so" };
    const char *const *libs = platform == FF_GPU_PLATFORM_HIP ? hip_libs : cuda_libs;
    int nb_libs = platform == FF_GPU_PLATFORM_HIP ? FF_ARRAY_ELEMS(hip_libs)
                                                  : FF_ARRAY_ELEMS(cuda_libs);
    const char *pname = platform == FF_GPU_PLATFORM_HIP ? "HIP" : "CUDA";
    int count = 0, ret;

    g->platform = platform;
    for (int i = 0; i < nb_libs && !g->lib; i++)
        g->lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
    if (!g->lib) {
        gpu_log(g, AV_LOG_VERBOSE, "No %s runtime (%s not found).\n", pname, libs[0]);
        return AVERROR(ENODEV);
    }
    if (platform == FF_GPU_PLATFORM_HIP)
        ret = load_symbols(g, hip_symbols, FF_ARRAY_ELEMS(hip_symbols));
    else
        ret = load_symbols(g, cuda_symbols, FF_ARRAY_ELEMS(cuda_symbols));
    if (ret < 0)
        return ret;
    if (platform == FF_GPU_PLATFORM_CUDA)
        load_optional(g, cuda_graph_symbols, FF_ARRAY_ELEMS(cuda_graph_symbols));
    if (g == &warm_gpu)
        warm_mark(&warm_loaded);

    /* With no device, HIP's init and count report errors: not a failure
     * worth more than a verbose line, since the CPU takes over. */
    if (g->fn.init(0) || g->fn.device_count(&count) || count < 1) {
        gpu_log(g, AV_LOG_VERBOSE, "The %s runtime sees no GPU.\n", pname);
        return AVERROR(ENODEV);
    }
    if (device >= count) {
        gpu_log(g, AV_LOG_ERROR, "device=%d, but %s sees %d GPU%s (0 to %d).\n",
               device, pname, count, count > 1 ? "s" : "", count - 1);
        return AVERROR(EINVAL);
    }

    if (platform == FF_GPU_PLATFORM_CUDA) {
        if ((ret = CHECK(g, g->fn.cu_device_get(&g->device, device), "cuDeviceGet")) < 0 ||
            (ret = CHECK(g, g->fn.cu_ctx_retain(&g->cu_ctx, g->device),
                         "cuDevicePrimaryCtxRetain")) < 0)
            return ret;
        g->fn.cu_device_name(g->name, sizeof(g->name), g->device);
    } else {
        g->device = device;
        if ((ret = CHECK(g, g->fn.hip_set_device(device), "hipSetDevice")) < 0)
            return ret;
        g->fn.hip_device_name(g->name, sizeof(g->name), device);
        hip_arch(g, device);
    }
    return 0;
}

static void close_platform(FFGpu *g)
{
    if (g->platform == FF_GPU_PLATFORM_CUDA && g->cu_ctx && !g->borrowed_ctx)
        g->fn.cu_ctx_release(g->device);
    g->cu_ctx = NULL;
    /* The runtimes are never dlclose()d: other users in the process may
     * hold them, and some do not survive being unloaded. */
    g->lib = NULL;
    memset(&g->fn, 0, sizeof(g->fn));
}

/*
 * The warm-up: loading the runtime, initialising it and creating a
 * device's context take a quarter of a second, most of a short run. A
 * filter starts it on a thread as soon as it is created, while ffmpeg opens
 * its inputs and decodes the first frames; ff_gpu_open() then finds the
 * work done. The warm GPU keeps its reference to the context for the life
 * of the process, so that later filter instances (and the end of this one)
 * do not create and destroy it again.
 */
static void *warm_up(void *arg)
{
    static const enum FFGpuPlatform order[] = { FF_GPU_PLATFORM_HIP, FF_GPU_PLATFORM_CUDA };
    for (int i = 0; i < FF_ARRAY_ELEMS(order) && !warm_simulated_us; i++) {
        memset(&warm_gpu, 0, sizeof(warm_gpu));
        /* Quietly: the real open logs what went wrong, if anything does. */
        warm_gpu.quiet = 1;
        if (open_platform(&warm_gpu, order[i], warm_device) >= 0)
            break;
        close_platform(&warm_gpu);
    }
    if (warm_simulated_us) {
        warm_mark(&warm_loaded);
        av_usleep(warm_simulated_us);
    }
    warm_mark(&warm_finished);
    return NULL;
}

static void warm_wait(void)
{
    pthread_mutex_lock(&warm_join_lock);
    if (warm_state == 1) {
        pthread_join(warm_thread, NULL);
        warm_state = 2;
    }
    pthread_mutex_unlock(&warm_join_lock);
}

void ff_gpu_warm_up(int device)
{
    if (ff_vmaf_test_simulated_gpu()) {
        if (!ff_vmaf_test_simulated_start_ms())
            return;
        warm_simulated_us = ff_vmaf_test_simulated_start_ms() * INT64_C(1000);
    }
    pthread_mutex_lock(&warm_join_lock);
    /* A process that ends before opening the GPU (an input that cannot be
     * read, say) waits for the warm-up rather than exit under it. */
    if (!warm_state && !atexit(warm_wait)) {
        warm_device = device;
        warm_state  = pthread_create(&warm_thread, NULL, warm_up, NULL) ? 2 : 1;
        if (warm_state == 1)
            warm_mark(&warm_started);
    }
    pthread_mutex_unlock(&warm_join_lock);
}

/* Measured on the H200 host: a process that starts the driver and its
 * primary context and exits lives 316 ms, median of 7 (cuInit about 100
 * ms, the context about 115: tools/results/gpu-driver-bounds-h200.txt). */
#define GPU_START_COST_MS 300

int ff_gpu_start_cost_ms(void)
{
    if (ff_vmaf_test_simulated_gpu())
        return ff_vmaf_test_simulated_start_ms();
    return GPU_START_COST_MS;
}

int ff_gpu_warm_up_pending(void)
{
    int pending;
    pthread_mutex_lock(&warm_lock);
    /* Loading a runtime takes milliseconds: wait for that much, so that a
     * machine without one is told apart from a GPU still starting. */
    while (warm_started && !warm_loaded && !warm_finished)
        pthread_cond_wait(&warm_cond, &warm_lock);
    pending = warm_started && warm_loaded && !warm_finished;
    pthread_mutex_unlock(&warm_lock);
    return pending;
}

int ff_gpu_open(FFGpu **pg, int device, void *log_ctx)
{
    static const enum FFGpuPlatform order[] = { FF_GPU_PLATFORM_HIP, FF_GPU_PLATFORM_CUDA };
    FFGpu *g = av_mallocz(sizeof(*g));
    int ret = AVERROR(ENODEV);

    if (!g)
        return AVERROR(ENOMEM);
    g->log_ctx = log_ctx;
    if (ff_vmaf_test_simulated_gpu()) {
        warm_wait();
        g->platform = FF_GPU_PLATFORM_SIMULATED;
        ff_gpu_simulated_functions(&g->fn);
        snprintf(g->name, sizeof(g->name), "simulated GPU");
        if (ff_vmaf_test_simulated_arch())
            av_strlcpy(g->arch, ff_vmaf_test_simulated_arch(), sizeof(g->arch));
        av_log(log_ctx, AV_LOG_WARNING, "VMAF_HIP_SIMULATE_GPU=1: a simulated GPU whose "
               "kernels fail, for tests.\n");
        *pg = g;
        return 0;
    }
    warm_wait();
    for (int i = 0; i < FF_ARRAY_ELEMS(order); i++) {
        ret = open_platform(g, order[i], device);
        if (ret >= 0) {
            *pg = g;
            return 0;
        }
        close_platform(g);
        if (ret != AVERROR(ENODEV) && ret != AVERROR(ENOSYS))
            break;
    }
    av_free(g);
    return ret == AVERROR(ENOSYS) ? AVERROR(ENODEV) : ret;
}

int ff_gpu_open_cuda_context(FFGpu **pg, void *cu_ctx, void *log_ctx)
{
    static const char *const cuda_libs[] = { "libcuda.so.1", "libcuda.so" };
    FFGpu *g = av_mallocz(sizeof(*g));
    void *popped;
    int ret;

    if (!g)
        return AVERROR(ENOMEM);
    g->log_ctx  = log_ctx;
    g->platform = FF_GPU_PLATFORM_CUDA;
    for (int i = 0; i < FF_ARRAY_ELEMS(cuda_libs) && !g->lib; i++)
        g->lib = dlopen(cuda_libs[i], RTLD_NOW | RTLD_LOCAL);
    if (!g->lib) {
        av_log(log_ctx, AV_LOG_ERROR, "CUDA frames, but the CUDA driver (%s) cannot be loaded.\n",
               cuda_libs[0]);
        av_free(g);
        return AVERROR(ENODEV);
    }
    if ((ret = load_symbols(g, cuda_symbols, FF_ARRAY_ELEMS(cuda_symbols))) < 0) {
        close_platform(g);
        av_free(g);
        return AVERROR(ENODEV);
    }
    load_optional(g, cuda_graph_symbols, FF_ARRAY_ELEMS(cuda_graph_symbols));
    /* The frames' context is live already (the decoder made it): no init,
     * no primary context, and close() leaves it alone. */
    g->cu_ctx       = cu_ctx;
    g->borrowed_ctx = 1;
    if ((ret = CHECK(g, g->fn.cu_ctx_push(cu_ctx), "cuCtxPushCurrent")) < 0) {
        close_platform(g);
        av_free(g);
        return ret;
    }
    ret = CHECK(g, g->fn.cu_ctx_get_device(&g->device), "cuCtxGetDevice");
    if (ret >= 0)
        g->fn.cu_device_name(g->name, sizeof(g->name), g->device);
    g->fn.cu_ctx_pop(&popped);
    if (ret < 0) {
        close_platform(g);
        av_free(g);
        return ret;
    }
    *pg = g;
    return 0;
}

void ff_gpu_close(FFGpu **pg)
{
    if (!*pg)
        return;
    close_platform(*pg);
    av_freep(&(*pg)->layouts);
    av_freep(pg);
}

enum FFGpuPlatform ff_gpu_platform(const FFGpu *g)
{
    return g->platform;
}

const char *ff_gpu_platform_name(const FFGpu *g)
{
    return g->platform == FF_GPU_PLATFORM_CUDA ? "CUDA (NVIDIA)" :
           g->platform == FF_GPU_PLATFORM_HIP  ? "HIP (AMD)" : "simulated";
}

const char *ff_gpu_device_name(const FFGpu *g)
{
    return g->name;
}

int ff_gpu_enter(FFGpu *g)
{
    if (g->platform == FF_GPU_PLATFORM_CUDA)
        return CHECK(g, g->fn.cu_ctx_push(g->cu_ctx), "cuCtxPushCurrent");
    if (g->platform == FF_GPU_PLATFORM_SIMULATED)
        return 0;
    return CHECK(g, g->fn.hip_set_device(g->device), "hipSetDevice");
}

int ff_gpu_leave(FFGpu *g)
{
    void *ctx;
    if (g->platform == FF_GPU_PLATFORM_CUDA)
        return CHECK(g, g->fn.cu_ctx_pop(&ctx), "cuCtxPopCurrent");
    return 0;
}

/* The code object of bundle *image for this device's architecture. A
 * bundle this cannot read (a compressed one) goes to HIP whole: it picks. */
static int amd_code(FFGpu *g, const char *what, const unsigned char **image)
{
    FFGpuAmdCode codes[FF_GPU_AMD_MAX_CODES];
    int nb = ff_gpu_amd_codes(*image, 0, codes, FF_ARRAY_ELEMS(codes));
    int i, told = g->arch_told;

    if (nb < 0)
        return 0;
    g->arch_told = 1;
    i = ff_gpu_amd_pick(codes, nb, g->arch);
    if (i < 0) {
        char list[FF_GPU_AMD_MAX_CODES * 8] = "";
        for (int k = 0; k < nb; k++)
            av_strlcatf(list, sizeof(list), "%s%s", k ? ", " : "", codes[k].target);
        gpu_log(g, told ? AV_LOG_DEBUG : AV_LOG_WARNING,
                "This build has no AMD code object for %s (%s)%s; %s has %s.\n",
                g->arch, g->name, ff_gpu_amd_generic(g->arch) ? " nor its family's generic target" : "",
                what, *list ? list : "none");
        return AVERROR(ENOSYS);
    }
    if (told)
        gpu_log(g, AV_LOG_DEBUG, "%s: the AMD code object for %s.\n", what, codes[i].target);
    else
        gpu_log(g, AV_LOG_VERBOSE, "%s (%s) runs the AMD code objects for %s.\n",
                g->arch, g->name, codes[i].target);
    *image = codes[i].image;
    return 0;
}

int ff_gpu_module_load(FFGpu *g, FFGpuModule *mod, const char *what,
                       const unsigned char *amd, const unsigned char *nv)
{
    const unsigned char *image = g->platform == FF_GPU_PLATFORM_CUDA ? nv : amd;
    int err, ret;

    /* The simulated GPU loads anything, unless it plays an AMD one. */
    if (g->platform == FF_GPU_PLATFORM_SIMULATED && !g->arch[0])
        return CHECK(g, g->fn.module_load(mod, image), "ModuleLoad");

    if (!image) {
        gpu_log(g, AV_LOG_WARNING,
               "This build has no %s code object for %s (%s was not found at build time).\n",
               g->platform == FF_GPU_PLATFORM_CUDA ? "NVIDIA" : "AMD", what,
               g->platform == FF_GPU_PLATFORM_CUDA ? "nvcc" : "its AMD device compiler");
        return AVERROR(ENOSYS);
    }
    if (g->platform != FF_GPU_PLATFORM_CUDA && g->arch[0] && (ret = amd_code(g, what, &image)) < 0)
        return ret;
    err = g->fn.module_load(mod, image);
    if (err) {
        gpu_log(g, AV_LOG_WARNING,
               "The %s code object of %s has no code for %s: %s (%d).\n",
               g->platform == FF_GPU_PLATFORM_CUDA ? "NVIDIA" : "AMD", what,
               g->name, error_name(g, err), err);
        return AVERROR(ENOSYS);
    }
    return 0;
}

int ff_gpu_module_unload(FFGpu *g, FFGpuModule mod)
{
    return mod ? CHECK(g, g->fn.module_unload(mod), "ModuleUnload") : 0;
}

int ff_gpu_function(FFGpu *g, FFGpuModule mod, const char *name, FFGpuFunction *fn)
{
    int err = g->fn.module_function(fn, mod, name);
    if (err) {
        gpu_log(g, AV_LOG_ERROR, "GPU kernel %s not found in its code object: %s (%d).\n",
               name, error_name(g, err), err);
        return AVERROR_EXTERNAL;
    }
    return 0;
}

int ff_gpu_malloc(FFGpu *g, FFGpuPtr *p, size_t size)
{
    return CHECK(g, g->fn.malloc(p, size), "MemAlloc");
}

int ff_gpu_free(FFGpu *g, FFGpuPtr *p)
{
    int ret = 0;
    if (*p)
        ret = CHECK(g, g->fn.free(*p), "MemFree");
    *p = 0;
    return ret;
}

int ff_gpu_host_alloc(FFGpu *g, void **p, size_t size)
{
    return CHECK(g, g->fn.host_alloc(p, size, 0), "MemHostAlloc");
}

int ff_gpu_host_free(FFGpu *g, void **p)
{
    int ret = 0;
    if (*p)
        ret = CHECK(g, g->fn.host_free(*p), "MemFreeHost");
    *p = NULL;
    return ret;
}

int ff_gpu_stream_create(FFGpu *g, FFGpuStream *s)
{
    return CHECK(g, g->fn.stream_create(s, STREAM_NON_BLOCKING), "StreamCreate");
}

int ff_gpu_stream_destroy(FFGpu *g, FFGpuStream *s)
{
    int ret = 0;
    if (*s)
        ret = CHECK(g, g->fn.stream_destroy(*s), "StreamDestroy");
    *s = NULL;
    return ret;
}

int ff_gpu_stream_sync(FFGpu *g, FFGpuStream s)
{
    int ret;
    if (g->rec && (ret = g->recorder->flush(g, s)) < 0)
        return ret;
    return CHECK(g, g->fn.stream_sync(s), "StreamSynchronize");
}

int ff_gpu_event_create(FFGpu *g, FFGpuEvent *e)
{
    return CHECK(g, g->fn.event_create(e, EVENT_DISABLE_TIMING), "EventCreate");
}

int ff_gpu_event_create_timed(FFGpu *g, FFGpuEvent *e)
{
    return CHECK(g, g->fn.event_create(e, 0), "EventCreate");
}

int ff_gpu_event_query(FFGpu *g, FFGpuEvent e)
{
    int err = g->fn.event_query(e);
    if (err == ERROR_NOT_READY)
        return 0;
    return err ? CHECK(g, err, "EventQuery") : 1;
}

int ff_gpu_event_elapsed(FFGpu *g, FFGpuEvent start, FFGpuEvent end, double *seconds)
{
    float ms = 0;
    int ret = CHECK(g, g->fn.event_elapsed(&ms, start, end), "EventElapsedTime");
    *seconds = ms / 1000.0;
    return ret;
}

int ff_gpu_event_destroy(FFGpu *g, FFGpuEvent *e)
{
    int ret = 0;
    if (*e)
        ret = CHECK(g, g->fn.event_destroy(*e), "EventDestroy");
    *e = NULL;
    return ret;
}

int ff_gpu_event_record(FFGpu *g, FFGpuEvent e, FFGpuStream s)
{
    int ret;
    if (g->rec && (ret = g->recorder->flush(g, s)) < 0)
        return ret;
    return CHECK(g, g->fn.event_record(e, s), "EventRecord");
}

int ff_gpu_event_sync(FFGpu *g, FFGpuEvent e)
{
    return CHECK(g, g->fn.event_sync(e), "EventSynchronize");
}

int ff_gpu_stream_wait_event(FFGpu *g, FFGpuStream s, FFGpuEvent e)
{
    int ret;
    if (g->rec && (ret = g->recorder->flush(g, s)) < 0)
        return ret;
    return CHECK(g, g->fn.stream_wait_event(s, e, 0), "StreamWaitEvent");
}

int ff_gpu_upload(FFGpu *g, FFGpuPtr dst, const void *src, size_t size, FFGpuStream s)
{
    int ret;
    if (g->rec && (ret = g->recorder->flush(g, s)) < 0)
        return ret;
    return CHECK(g, g->fn.upload(dst, src, size, s), "MemcpyHtoDAsync");
}

int ff_gpu_download(FFGpu *g, void *dst, FFGpuPtr src, size_t size, FFGpuStream s)
{
    int ret;
    if (g->rec && (ret = g->recorder->flush(g, s)) < 0)
        return ret;
    return CHECK(g, g->fn.download(dst, src, size, s), "MemcpyDtoHAsync");
}

int ff_gpu_memset(FFGpu *g, FFGpuPtr dst, int value, size_t size, FFGpuStream s)
{
    if (g->rec && s == g->rec_stream)
        return g->recorder->memset(g, dst, value, size);
    return CHECK(g, g->fn.memset8(dst, value, size, s), "MemsetD8Async");
}

int ff_gpu_launch(FFGpu *g, FFGpuFunction fn, const char *name,
                  unsigned gx, unsigned gy, unsigned bx, unsigned by,
                  FFGpuStream s, void **args)
{
    int err;
    if (g->rec && s == g->rec_stream)
        return g->recorder->launch(g, fn, name, gx, gy, bx, by, args);
    err = g->fn.launch(fn, gx, gy, 1, bx, by, 1, 0, s, args, NULL);
    if (err) {
        gpu_log(g, AV_LOG_ERROR, "GPU launch of %s (%ux%u blocks of %ux%u) failed: %s (%d).\n",
               name, gx, gy, bx, by, error_name(g, err), err);
        return AVERROR_EXTERNAL;
    }
    return 0;
}
