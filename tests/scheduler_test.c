/*
 * The backend scheduler (libavfilter/vmaf/scheduler.c) on synthetic frames
 * and the simulated GPU (its start delayed, its kernels failing), without
 * ffmpeg:
 *  - pairs sent while the GPU starts are held, then scored in the order
 *    they came, each distorted frame handed back once with its index, with
 *    the values of a CPU run; whether the inputs go on or end meanwhile;
 *  - backend=auto scores on the CPU first, starts the GPU once the stream
 *    has run cpu_first ms, holds the pairs while it starts and moves the
 *    features to it mid-stream, with the CPU run's values;
 *  - a run shorter than cpu_first never starts the GPU;
 *  - once the inputs end with no pair held, the CPU's start takes all the
 *    threads asked for.
 * Each case runs in a process of its own: the GPU's warm-up is once per
 * process.
 *
 * Usage: scheduler_test
 */

#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libavutil/common.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"

#include "libavfilter/vmaf/engine.h"
#include "libavfilter/vmaf/scheduler.h"

#define W 176
#define H 144

static const FFVmafGeometry geo = { .width = W, .height = H, .bpc = 8, .ss_x = 1, .ss_y = 1 };

/* Shared by the cases' processes. */
static struct { int passed, failed; } *counts;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    fflush(stdout);
    ok ? counts->passed++ : counts->failed++;
}

/* The case's log, verbose lines and above. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_text[1 << 16];
static size_t log_len;

static void capture(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > AV_LOG_VERBOSE)
        return;
    pthread_mutex_lock(&log_lock);
    if (log_len < sizeof(log_text) - 1) {
        int n = vsnprintf(log_text + log_len, sizeof(log_text) - log_len, fmt, vl);
        if (n > 0)
            log_len = FFMIN(log_len + n, sizeof(log_text) - 1);
    }
    pthread_mutex_unlock(&log_lock);
}

static int logged(const char *s)
{
    return !!strstr(log_text, s);
}

/* The number that starts the line holding s, after prefix (-1: no such line). */
static int logged_number(const char *prefix, const char *s)
{
    const char *p = strstr(log_text, s), *line;
    int n;
    if (!p)
        return -1;
    for (line = p; line > log_text && line[-1] != '\n'; line--)
        ;
    if (strncmp(line, prefix, strlen(prefix)) || sscanf(line + strlen(prefix), "%d", &n) != 1)
        return -1;
    return n;
}

/* Frame n: stripes that move by 2 pixels a frame, with noise on the
 * distorted one, so that every feature has something to measure. */
static AVFrame *make_frame(int n, int distorted)
{
    AVFrame *f = av_frame_alloc();
    uint32_t seed = n * 2654435761u + 1;

    if (!f)
        return NULL;
    f->format = AV_PIX_FMT_YUV420P;
    f->width  = W;
    f->height = H;
    if (av_frame_get_buffer(f, 0) < 0) {
        av_frame_free(&f);
        return NULL;
    }
    for (int p = 0; p < 3; p++)
        for (int y = 0; y < (p ? H / 2 : H); y++)
            for (int x = 0; x < (p ? W / 2 : W); x++) {
                int v = ((x + 2 * n) / 8 + y / 12) & 1 ? 190 : 60;
                seed = seed * 1664525 + 1013904223;
                if (distorted)
                    v += (int)(seed >> 28) - 8;
                f->data[p][y * f->linesize[p] + x] = v + p * 10;
            }
    f->pts = n;
    return f;
}

typedef struct Run {
    FFVmafEngine *e;
    FFVmafScheduler *s;
    int64_t next;           ///< the pts of the next frame to come back
    int wrong;              ///< frames back out of order, or with another index
} Run;

/* Host frames, read in place; held when the engine reads them later. */
static int run_pictures(void *opaque, const AVFrame *dist, const AVFrame *ref,
                        FFVmafPicture *pic, FFVmafPicture *host, AVFrame **hold, int *nb_hold)
{
    Run *r = opaque;
    const AVFrame *in[2] = { ref, dist };

    for (int w = 0; w < 2; w++) {
        if (ff_vmaf_engine_keeps_frames(r->e) && !(hold[(*nb_hold)++] = av_frame_clone(in[w])))
            return AVERROR(ENOMEM);
        ff_vmaf_picture_set_geometry(&pic[w], &geo);
        for (int p = 0; p < 3; p++) {
            pic[w].data[p]     = in[w]->data[p];
            pic[w].linesize[p] = in[w]->linesize[p];
        }
    }
    return 0;
}

static int run_leave(void *opaque, AVFrame *dist, const AVFrame *ref, int64_t index)
{
    Run *r = opaque;
    r->wrong += dist->pts != r->next++ || index != dist->pts;
    av_frame_free(&dist);
    return 0;
}

static int run_open_threads(Run *r, enum FFVmafBackend backend, int cpu_first, int n_threads)
{
    FFVmafSchedulerOptions opts = {
        .backend = backend, .n_threads = n_threads, .n_subsample = 1,
        .startup_buffer = 2048, .cpu_first = cpu_first,
    };
    FFVmafSchedulerCallbacks cb = { .opaque = r, .pictures = run_pictures, .leave = run_leave };
    int ret;

    memset(r, 0, sizeof(*r));
    if ((ret = ff_vmaf_engine_alloc(&r->e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(r->e, "version=vmaf_v0.6.1")) < 0 ||
        (ret = ff_vmaf_engine_parse_features(r->e, "name=psnr|name=motion:motion_five_frame_window=true")) < 0 ||
        (ret = ff_vmaf_scheduler_alloc(&r->s, r->e, &opts, &cb, NULL)) < 0)
        return ret;
    return ff_vmaf_scheduler_configure(r->s, &geo);
}

static int run_open(Run *r, enum FFVmafBackend backend, int cpu_first)
{
    return run_open_threads(r, backend, cpu_first, 2);
}

/* Frames [first, last), sleep_us after each. */
static int run_send(Run *r, int first, int last, int sleep_us)
{
    int ret = 0;
    for (int n = first; n < last && ret >= 0; n++) {
        AVFrame *dist = make_frame(n, 1), *ref = make_frame(n, 0);
        ret = dist && ref ? ff_vmaf_scheduler_send(r->s, dist, ref, 0) : AVERROR(ENOMEM);
        if (!ref)
            av_frame_free(&dist);
        av_frame_free(&ref);
        if (sleep_us)
            av_usleep(sleep_us);
    }
    return ret;
}

static int run_finish(Run *r)
{
    int ret = ff_vmaf_scheduler_release(r->s, FF_VMAF_SCHEDULER_INPUTS_ENDED);
    return ret < 0 ? ret : ff_vmaf_scheduler_flush(r->s);
}

static void run_close(Run *r)
{
    ff_vmaf_scheduler_free(&r->s);
    ff_vmaf_engine_free(&r->e);
}

/* Whether r has every value of ref, bit for bit, under the same keys in
 * the same order (as logged), over nb frames. */
static int same_values(const Run *r, const Run *ref, unsigned nb)
{
    const FFVmafFeatureCollector *a = ff_vmaf_engine_results(r->e);
    const FFVmafFeatureCollector *b = ff_vmaf_engine_results(ref->e);
    int nb_keys = ff_vmaf_collector_nb_keys(b), values = 0;

    if (ff_vmaf_engine_nb_done(r->e) != nb || ff_vmaf_engine_nb_done(ref->e) != nb ||
        ff_vmaf_collector_nb_keys(a) != nb_keys)
        return 0;
    for (int k = 0; k < nb_keys; k++) {
        if (strcmp(ff_vmaf_collector_key(a, k), ff_vmaf_collector_key(b, k)))
            return 0;
        for (unsigned i = 0; i < nb; i++) {
            double va, vb;
            int ra = ff_vmaf_collector_read_at(a, k, i, &va);
            int rb = ff_vmaf_collector_read_at(b, k, i, &vb);
            if ((ra < 0) != (rb < 0) || (rb >= 0 && memcmp(&va, &vb, sizeof(va))))
                return 0;
            values += rb >= 0;
        }
    }
    return values > 0;
}

/* The CPU's values of frames [0, nb). */
static int cpu_run(Run *cpu, int nb)
{
    int ret;
    if ((ret = run_open(cpu, FF_VMAF_BACKEND_CPU, 0)) < 0 ||
        (ret = run_send(cpu, 0, nb, 0)) < 0 || (ret = run_finish(cpu)) < 0)
        return ret;
    return cpu->wrong ? AVERROR_BUG : 0;
}

/* Pairs held while the GPU starts; with go_on, more pairs come once it
 * has started, and the held ones are scored a few with each. */
static void case_held(int go_on)
{
    const int nb = go_on ? 60 : 20;
    char what[256];
    Run cpu, r;
    int ret, held, pushed_held;

    setenv("VMAF_HIP_SIMULATE_START_MS", "300", 1);
    if ((ret = cpu_run(&cpu, nb)) < 0 || (ret = run_open(&r, FF_VMAF_BACKEND_AUTO, 0)) < 0) {
        check(0, "held pairs: the runs could not be set up");
        return;
    }
    check(logged("The GPU is still starting: up to 2048 MiB of frames are held until it is ready."),
          "held pairs: the engine waits for the GPU, and pairs are held meanwhile");
    ret = run_send(&r, 0, 20, 0);
    pushed_held = ff_vmaf_engine_nb_pushed(r.e) == 0 && r.next == 0;
    if (go_on) {
        av_usleep(400000);
        if (ret >= 0)
            ret = run_send(&r, 20, nb, 0);
    }
    if (ret >= 0)
        ret = run_finish(&r);
    held = logged_number("", " were held while the GPU started.");
    snprintf(what, sizeof(what), "held pairs (%s): the 20 pairs sent while the GPU started were "
             "held, then scored in order with the CPU run's values", go_on ?
             "more pairs after it started" : "the inputs ended while it started");
    check(ret >= 0 && pushed_held && held == 20 && !r.wrong && r.next == nb &&
          logged("The GPU failed; finishing the stream on the CPU from frame 0.") &&
          same_values(&r, &cpu, nb), what);
    run_close(&r);
    run_close(&cpu);
}

/* backend=auto: the CPU first, then the GPU mid-stream. */
static void case_cpu_first(void)
{
    const int nb = 80;
    char moved[64];
    Run cpu, r;
    int ret, from, held;

    setenv("VMAF_HIP_SIMULATE_START_MS", "150", 1);
    if ((ret = cpu_run(&cpu, nb)) < 0 || (ret = run_open(&r, FF_VMAF_BACKEND_AUTO, 50)) < 0) {
        check(0, "CPU first: the runs could not be set up");
        return;
    }
    check(logged("on the CPU, and on a GPU if the stream runs past cpu_first and one answers"),
          "CPU first: the stream starts on the CPU");
    /* 5 ms a pair: the stream runs past cpu_first (50 ms) and the GPU's
     * start (150 ms) well before its end. */
    if ((ret = run_send(&r, 0, nb, 5000)) >= 0)
        ret = run_finish(&r);
    from = logged_number("From frame ", " on the GPU (simulated GPU");
    held = logged_number("", " were held while the GPU started.");
    snprintf(moved, sizeof(moved), "The GPU failed; finishing the stream on the CPU from frame %d.",
             from);
    check(ret >= 0 && logged("The stream has run 50 ms: starting the GPU; frame pairs are held "
                             "until it is ready.") &&
          from >= 1 && from < nb && held >= 1 && logged(moved),
          "CPU first: past cpu_first the GPU starts, pairs are held meanwhile, and the features "
          "move to it mid-stream");
    check(ret >= 0 && !r.wrong && r.next == nb && same_values(&r, &cpu, nb),
          "CPU first: every frame back in order, with the CPU run's values");
    run_close(&r);
    run_close(&cpu);
}

/* A run shorter than cpu_first. The GPU's start would cost 20 s: worth it
 * for none of the pairs left at the end. */
static void case_short(void)
{
    const int nb = 20;
    Run cpu, r;
    int ret;

    setenv("VMAF_HIP_SIMULATE_START_MS", "20000", 1);
    if ((ret = cpu_run(&cpu, nb)) < 0 || (ret = run_open(&r, FF_VMAF_BACKEND_AUTO, 60000)) < 0) {
        check(0, "short run: the runs could not be set up");
        return;
    }
    if ((ret = run_send(&r, 0, nb, 0)) >= 0)
        ret = run_finish(&r);
    check(ret >= 0 && !ff_vmaf_engine_uses_gpu(r.e) && !logged("starting the GPU") &&
          !logged("simulated GPU"), "short run: a run shorter than cpu_first never starts the GPU");
    check(ret >= 0 && !r.wrong && r.next == nb && same_values(&r, &cpu, nb),
          "short run: every frame back in order, with the CPU run's values");
    run_close(&r);
    run_close(&cpu);
}

/* The inputs end while the stream is on the CPU first, no pair held (fewer
 * than the CPU's frame slots): the pairs left are scored on the 8 threads
 * asked for, not the 4 of the CPU's start. */
static void case_ended_threads(void)
{
    const int nb = 3;
    Run cpu, r;
    int ret, first;

    setenv("VMAF_HIP_SIMULATE_START_MS", "20000", 1);
    if ((ret = cpu_run(&cpu, nb)) < 0 ||
        (ret = run_open_threads(&r, FF_VMAF_BACKEND_AUTO, 60000, 8)) < 0) {
        check(0, "inputs ended: the runs could not be set up");
        return;
    }
    first = ff_vmaf_engine_nb_threads(r.e);
    if ((ret = run_send(&r, 0, nb, 0)) >= 0)
        ret = run_finish(&r);
    check(ret >= 0 && first == 4 && ff_vmaf_engine_nb_threads(r.e) == 8 &&
          logged("The inputs have ended: the CPU scores on 8 threads, not 4.") &&
          !ff_vmaf_engine_uses_gpu(r.e),
          "inputs ended, no pair held: the CPU's start on 4 threads, then the pairs left on the 8 asked for");
    check(ret >= 0 && !r.wrong && r.next == nb && same_values(&r, &cpu, nb),
          "inputs ended: every frame back in order, with the CPU run's values");
    run_close(&r);
    run_close(&cpu);
}

static void in_process(void (*fn)(void), const char *name)
{
    int status;
    pid_t pid;

    fflush(stdout);
    if (!(pid = fork())) {
        av_log_set_callback(capture);
        fn();
        /* _exit(): the stdio buffers it has of the parent are not its own. */
        fflush(stdout);
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
        printf("FAIL %s: the case's process failed\n", name);
        counts->failed++;
    }
}

static void held_on(void)    { case_held(1); }
static void held_ended(void) { case_held(0); }

int main(void)
{
    counts = mmap(NULL, sizeof(*counts), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (counts == MAP_FAILED) {
        printf("0 passed, 1 failed (no shared memory)\n");
        return 1;
    }
    /* A case that hangs ends the test, which then reports nothing. */
    alarm(120);
    setenv("VMAF_HIP_SIMULATE_GPU", "1", 1);
    in_process(held_on, "held pairs, more after the GPU started");
    in_process(held_ended, "held pairs, the inputs ended while the GPU started");
    in_process(case_cpu_first, "CPU first");
    in_process(case_short, "short run");
    in_process(case_ended_threads, "inputs ended on the CPU first");
    printf("%d passed, %d failed\n", counts->passed, counts->failed);
    return counts->failed ? 1 : 0;
}
