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


/*
 * The engine's capacity, without ffmpeg's reader: N distinct frame pairs
 * are made in memory once and pushed through the engine again and again;
 * frames per second from the first push to the end of the flush.
 *
 *   engine_bench [-s WxH] [-b 8|10] [-n pairs] [-f frames] [-t threads]
 *                [-B cpu|gpu|auto] [-F features] [-m model] [-D 0|1] [-T 0|1] [-G 0|1]
 *
 * -B hip is the same as -B gpu, as for the filter's backend option.
 *
 * Defaults: 1920x1080, 8-bit, 16 pairs, 600 frames, one thread per core,
 * backend auto, the default model (vmaf_v0.6.1) and no extra feature. The
 * pairs are a moving gradient with texture against a copy with a 3x3 box
 * blur and noise, so that every feature has work to do. The pixels live
 * for the whole run: the engine reads them in place (no hold, no copy).
 *
 * -D 1 (NVIDIA only): the pairs are also copied once into device memory of
 * the CUDA driver's primary context (libcuda.so.1, loaded at run time), the
 * engine is given that context (ff_vmaf_engine_set_cuda_frames(), as for
 * NVDEC frames) and every push gives it device pictures, read in place with
 * no upload; features on the CPU read the host copy (pic->host). This is
 * the capacity for frames that are already on the GPU.
 *
 * -T 1 (the default): the engine measures the GPU time of every frame
 * (ff_vmaf_engine_set_gpu_timing()), from its upload to its read-back; a
 * second line gives it per frame, and as a share of the wall time (frames
 * overlap on the lanes; each moment counts once). -T 0: no timing.
 *
 * -G 1: each feature's GPU work of a frame runs as a captured graph where
 * the platform has them (ff_vmaf_engine_set_gpu_graphs()); a line says how
 * many did. -G 0 (the default, as in the engine): every kernel launched on
 * its own.
 */

#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libavutil/error.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/engine.h"

typedef struct Pair {
    uint8_t *planes[2][3];
    FFVmafPicture pic[2];
    uint64_t dev[2][3];         ///< -D 1: device copies of the planes (CUdeviceptr)
    FFVmafPicture dev_pic[2];   ///< -D 1: pictures of them, host = pic
} Pair;

/*
 * -D 1: the few CUDA driver calls that put the pairs in device memory, in
 * the primary context of device 0 (the one the engine would open itself).
 */
typedef int CUresult;
typedef struct Cuda {
    void *lib;
    void *ctx;
    int device;
    CUresult (*init)(unsigned);
    CUresult (*device_get)(int *, int);
    CUresult (*ctx_retain)(void **, int);
    CUresult (*ctx_release)(int);
    CUresult (*ctx_push)(void *);
    CUresult (*ctx_pop)(void **);
    CUresult (*mem_alloc)(uint64_t *, size_t);
    CUresult (*mem_free)(uint64_t);
    CUresult (*memcpy_htod)(uint64_t, const void *, size_t);
} Cuda;

static int cuda_check(CUresult r, const char *what)
{
    if (r) {
        fprintf(stderr, "%s failed: CUDA error %d\n", what, r);
        return -1;
    }
    return 0;
}

static int cuda_open(Cuda *c)
{
    void *popped;
    memset(c, 0, sizeof(*c));
    if (!(c->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
        fprintf(stderr, "-D 1: the CUDA driver (libcuda.so.1) cannot be loaded\n");
        return -1;
    }
#define SYM(field, name) \
    if (!(*(void **)&c->field = dlsym(c->lib, name))) { \
        fprintf(stderr, "-D 1: %s missing from libcuda.so.1\n", name); \
        return -1; \
    }
    SYM(init,        "cuInit")
    SYM(device_get,  "cuDeviceGet")
    SYM(ctx_retain,  "cuDevicePrimaryCtxRetain")
    SYM(ctx_release, "cuDevicePrimaryCtxRelease_v2")
    SYM(ctx_push,    "cuCtxPushCurrent_v2")
    SYM(ctx_pop,     "cuCtxPopCurrent_v2")
    SYM(mem_alloc,   "cuMemAlloc_v2")
    SYM(mem_free,    "cuMemFree_v2")
    SYM(memcpy_htod, "cuMemcpyHtoD_v2")
#undef SYM
    if (cuda_check(c->init(0), "cuInit") < 0 ||
        cuda_check(c->device_get(&c->device, 0), "cuDeviceGet") < 0 ||
        cuda_check(c->ctx_retain(&c->ctx, c->device), "cuDevicePrimaryCtxRetain") < 0)
        return -1;
    if (cuda_check(c->ctx_push(c->ctx), "cuCtxPushCurrent") < 0) {
        c->ctx_release(c->device);
        c->ctx = NULL;
        return -1;
    }
    c->ctx_pop(&popped);
    return 0;
}

/* Device copies of a pair's planes, and pictures of them. */
static int cuda_upload_pair(Cuda *c, Pair *p)
{
    void *popped;
    int ret = 0;
    if (cuda_check(c->ctx_push(c->ctx), "cuCtxPushCurrent") < 0)
        return -1;
    for (int which = 0; which < 2 && !ret; which++) {
        p->dev_pic[which] = p->pic[which];
        for (int k = 0; k < 3 && !ret; k++) {
            size_t size = (size_t)p->pic[which].linesize[k] * p->pic[which].h[k];
            if ((ret = cuda_check(c->mem_alloc(&p->dev[which][k], size), "cuMemAlloc")) < 0 ||
                (ret = cuda_check(c->memcpy_htod(p->dev[which][k], p->planes[which][k], size),
                                  "cuMemcpyHtoD")) < 0)
                break;
            p->dev_pic[which].data[k] = (const uint8_t *)(uintptr_t)p->dev[which][k];
        }
        p->dev_pic[which].on_device = 1;
        p->dev_pic[which].host      = &p->pic[which];
    }
    c->ctx_pop(&popped);
    return ret;
}

static void cuda_close(Cuda *c, Pair *pairs, int nb_pairs)
{
    void *popped;
    if (c->ctx && pairs && !c->ctx_push(c->ctx)) {
        for (int n = 0; n < nb_pairs; n++)
            for (int which = 0; which < 2; which++)
                for (int k = 0; k < 3; k++)
                    if (pairs[n].dev[which][k])
                        c->mem_free(pairs[n].dev[which][k]);
        c->ctx_pop(&popped);
    }
    if (c->ctx)
        c->ctx_release(c->device);
    if (c->lib)
        dlclose(c->lib);
    memset(c, 0, sizeof(*c));
}

static uint32_t rng = 12345;
static unsigned next_rand(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 16;
}

static void make_pair(Pair *p, int w, int h, int bpc, int n)
{
    const int bytes = bpc > 8 ? 2 : 1, max = (1 << bpc) - 1;
    for (int k = 0; k < 3; k++) {
        int pw = k ? w / 2 : w, ph = k ? h / 2 : h;
        for (int which = 0; which < 2; which++) {
            p->planes[which][k] = av_malloc((size_t)pw * ph * bytes);
            p->pic[which].data[k]     = p->planes[which][k];
            p->pic[which].linesize[k] = (ptrdiff_t)pw * bytes;
            p->pic[which].w[k] = pw;
            p->pic[which].h[k] = ph;
        }
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                /* The reference: a gradient that moves with n, and texture. */
                int v = ((x + 3 * n) * 255 / (pw + 1) + (y * 128) / (ph + 1) +
                         ((x * 7 + y * 13 + n * 5) & 7)) & 255;
                int r = v << (bpc - 8);
                if (bytes == 2)
                    ((uint16_t *)p->planes[0][k])[y * pw + x] = r;
                else
                    p->planes[0][k][y * pw + x] = r;
            }
        /* The distorted: a 3x3 box blur of it, and noise. */
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                int sum = 0, cnt = 0, v;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int yy = y + dy, xx = x + dx;
                        if (yy < 0 || yy >= ph || xx < 0 || xx >= pw)
                            continue;
                        sum += bytes == 2 ? ((uint16_t *)p->planes[0][k])[yy * pw + xx]
                                          : p->planes[0][k][yy * pw + xx];
                        cnt++;
                    }
                v = sum / cnt + (int)(next_rand() % 9) - 4;
                v = v < 0 ? 0 : v > max ? max : v;
                if (bytes == 2)
                    ((uint16_t *)p->planes[1][k])[y * pw + x] = v;
                else
                    p->planes[1][k][y * pw + x] = v;
            }
    }
    for (int which = 0; which < 2; which++) {
        p->pic[which].bpc = bpc;
        p->pic[which].chroma = FF_VMAF_CHROMA_PLANAR;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int w = 1920, h = 1080, bpc = 8, nb_pairs = 16, nb_frames = 600, threads = 0;
    int device_frames = 0, gpu_timing = 1, gpu_graphs = 0;
    Cuda cuda = { 0 };
    const char *backend = "auto", *features = "", *model = "version=vmaf_v0.6.1";
    enum FFVmafBackend be;
    FFVmafEngine *e = NULL;
    Pair *pairs;
    double t0, t1, c0, c1, score = 0;
    char backends[1024];
    int ret;

    for (int i = 1; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        if (!strcmp(o, "-s"))      sscanf(v, "%dx%d", &w, &h);
        else if (!strcmp(o, "-b")) bpc = atoi(v);
        else if (!strcmp(o, "-n")) nb_pairs = atoi(v);
        else if (!strcmp(o, "-f")) nb_frames = atoi(v);
        else if (!strcmp(o, "-t")) threads = atoi(v);
        else if (!strcmp(o, "-B")) backend = v;
        else if (!strcmp(o, "-F")) features = v;
        else if (!strcmp(o, "-m")) model = v;
        else if (!strcmp(o, "-D")) device_frames = atoi(v);
        else if (!strcmp(o, "-T")) gpu_timing = atoi(v);
        else if (!strcmp(o, "-G")) gpu_graphs = atoi(v);
        else {
            fprintf(stderr, "unknown option %s\n", o);
            return 2;
        }
    }
    if (w < 16 || h < 16 || (bpc != 8 && bpc != 10) || nb_pairs < 1 || nb_frames < 1) {
        fprintf(stderr, "usage: %s [-s WxH (16x16 or more)] [-b 8|10] [-n pairs] [-f frames] "
                "[-t threads] [-B cpu|gpu|auto] [-F features] [-m model] [-D 0|1] [-T 0|1] [-G 0|1]\n",
                argv[0]);
        return 2;
    }
    be = !strcmp(backend, "cpu") ? FF_VMAF_BACKEND_CPU :
         !strcmp(backend, "gpu") || !strcmp(backend, "hip") ? FF_VMAF_BACKEND_GPU :
         FF_VMAF_BACKEND_AUTO;
    if (device_frames && be == FF_VMAF_BACKEND_CPU) {
        fprintf(stderr, "-D 1 needs a GPU backend (-B gpu or auto)\n");
        return 2;
    }

    if (!(pairs = av_calloc(nb_pairs, sizeof(*pairs))))
        return 1;
    for (int n = 0; n < nb_pairs; n++)
        make_pair(&pairs[n], w, h, bpc, n);
    if (device_frames) {
        ret = AVERROR_EXTERNAL;
        if (cuda_open(&cuda) < 0)
            goto fail;
        for (int n = 0; n < nb_pairs; n++)
            if (cuda_upload_pair(&cuda, &pairs[n]) < 0)
                goto fail;
    }

    {
        FFVmafGeometry geo = { w, h, bpc, 1, 1 };
        if ((ret = ff_vmaf_engine_alloc(&e, NULL)) < 0 ||
            (ret = ff_vmaf_engine_parse_models(e, model)) < 0 ||
            (ret = ff_vmaf_engine_parse_features(e, features)) < 0)
            goto fail;
        ff_vmaf_engine_set_backend(e, be, 0);
        ff_vmaf_engine_set_gpu_timing(e, gpu_timing);
        ff_vmaf_engine_set_gpu_graphs(e, gpu_graphs);
        if (device_frames)
            ff_vmaf_engine_set_cuda_frames(e, cuda.ctx, NULL);
        if ((ret = ff_vmaf_engine_configure(e, &geo, threads, 1)) < 0)
            goto fail;
        if (device_frames && !ff_vmaf_engine_gpu_reads_device(e)) {
            fprintf(stderr, "-D 1: the engine does not read device pictures (no GPU?)\n");
            ret = AVERROR(ENODEV);
            goto fail;
        }
    }
    ff_vmaf_engine_describe_backends(e, backends, sizeof(backends));

    t0 = now();
    c0 = cpu_seconds();
    for (int i = 0; i < nb_frames; i++) {
        const Pair *p = &pairs[i % nb_pairs];
        const FFVmafPicture *pic = device_frames ? p->dev_pic : p->pic;
        if ((ret = ff_vmaf_engine_push_frames(e, &pic[0], &pic[1], NULL, 0)) < 0)
            goto fail;
    }
    if ((ret = ff_vmaf_engine_flush(e)) < 0)
        goto fail;
    t1 = now();
    c1 = cpu_seconds();
    if (ff_vmaf_engine_nb_models(e) > 0)
        ff_vmaf_engine_pool(e, ff_vmaf_engine_model_key(e, 0), FF_VMAF_POOL_MEAN, &score);

    printf("%dx%d %d-bit, %d frames (%d distinct pairs%s), %d thread%s; %s\n", w, h, bpc,
           nb_frames, nb_pairs, device_frames ? ", in device memory" : "",
           ff_vmaf_engine_nb_threads(e), ff_vmaf_engine_nb_threads(e) == 1 ? "" : "s", backends);
    {
        unsigned timed = 0;
        double busy = ff_vmaf_engine_gpu_busy(e, &timed);
        if (timed)
            printf("gpu: %.3f ms of GPU time per frame (kernels and read-back, the upload beside them; %u frames timed), "
                   "%.1f%% of the wall time\n", busy * 1e3 / timed, timed,
                   busy / (t1 - t0) * 100);
        else
            printf("gpu: no GPU time measured%s\n", gpu_timing ? "" : " (-T 0)");
    }
    {
        unsigned graphs, direct;
        ff_vmaf_engine_gpu_graph_runs(e, &graphs, &direct);
        printf("graphs: %u of %u feature frames on the GPU ran as captured graphs%s\n", graphs,
               graphs + direct, gpu_graphs ? "" : " (-G 0)");
    }
    printf("engine: %.1f fps, %.2f fps per CPU-second, mean score %.6f\n",
           nb_frames / (t1 - t0), nb_frames / (c1 - c0), score);
    ret = 0;
fail:
    if (ret < 0)
        fprintf(stderr, "engine error: %s\n", av_err2str(ret));
    ff_vmaf_engine_free(&e);
    if (device_frames)
        cuda_close(&cuda, pairs, nb_pairs);
    for (int n = 0; n < nb_pairs; n++)
        for (int which = 0; which < 2; which++)
            for (int k = 0; k < 3; k++)
                av_free(pairs[n].planes[which][k]);
    av_free(pairs);
    return ret < 0;
}
