/*
 * Lifecycle: the vmaf_hip filter created, run and destroyed many times in
 * one process through the public libavfilter API leaks nothing: no file
 * descriptor, no thread, no memory, no file beside its logs.
 *
 * Each iteration builds a small graph (testsrc2 64x36, 3 frames, split into
 * both inputs of vmaf_hip), configures it, pulls every frame from its
 * buffersink(s), checks that each frame carries a VMAF score and that the
 * JSON log was written, and frees the graph. The iterations cycle through
 *   bit 0: backend=cpu / backend=auto (a GPU runtime is looked for)
 *   bit 1: n_threads=1 / n_threads=3
 *   bit 2: one vmaf_hip / two in one graph, fed by split copies
 *   bits 3-4: every frame pulled / the graph freed after the first frame /
 *             configured, freed without pulling a frame / freed unconfigured
 *   bit 5: avfilter_graph_parse_ptr() / filters created and linked one by one
 * and every fourth one also builds a graph that must fail (in init, or in
 * configuration after the log file was created).
 *
 * Open descriptors (/proc/self/fd), threads (/proc/self/task) and the heap
 * in use (mallinfo2: uordblks + hblkhd, glibc's tcache off) are measured
 * after a warm-up (64 iterations: every combination once) and at the end;
 * descriptors and threads also after every iteration. The heap may grow by
 * less than 8 kB over the rest: a leak of the smallest block in one
 * iteration of four fails it.
 *
 * Usage: lifecycle_test <tmp-dir> [iterations [warm-up]]
 * The last line reads "N passed, N failed".
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libavfilter/avfilter.h"
#include "libavfilter/buffersink.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/frame.h"
#include "libavutil/log.h"

#define SRC       "testsrc2=size=64x36:rate=25:duration=0.12"
#define NB_FRAMES 3
#define MAX_SINKS 2
#define MEM_BOUND (8 * 1024)

static int passed, failed;

/* While capturing, the messages logged go here instead of stderr. */
static int capturing;
static char captured[4096];

static void log_callback(void *avcl, int level, const char *fmt, va_list vl)
{
    char line[1024];
    int print_prefix = 1;
    size_t len;

    if (!capturing) {
        av_log_default_callback(avcl, level, fmt, vl);
        return;
    }
    if (level > AV_LOG_ERROR)
        return;
    av_log_format_line2(avcl, level, fmt, vl, line, sizeof(line), &print_prefix);
    len = strlen(captured);
    snprintf(captured + len, sizeof(captured) - len, "%s", line);
}

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s ", ok ? "PASS" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    ok ? passed++ : failed++;
}

/* Entries of a directory, "." and ".." aside; -1 if it cannot be read. */
static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *de;
    int n = 0;

    if (!d)
        return -1;
    while ((de = readdir(d)))
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(d);
    return n;
}

/* Descriptors open, the one opendir() uses to count them aside. */
static int count_fds(void)
{
    int n = count_entries("/proc/self/fd");
    return n < 0 ? -1 : n - 1;
}

static int count_threads(void)
{
    return count_entries("/proc/self/task");
}

/*
 * A thread's pthread_join() may return a moment before the kernel removes
 * it from /proc/self/task: counts that differ from the expected one are
 * taken again for up to 100 ms.
 */
static int settled_count(int (*count)(void), int expected)
{
    int n = count();
    for (int i = 0; i < 50 && n != expected; i++) {
        usleep(2000);
        n = count();
    }
    return n;
}

/*
 * The heap in use. glibc's per-thread caches (tcache) keep freed chunks
 * that mallinfo2() counts as in use, and fill up over hundreds of
 * iterations; main() runs the test with them off.
 */
static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static int file_has(const char *path, const char *needle)
{
    char buf[65536];
    FILE *f = fopen(path, "rb");
    size_t n;

    if (!f)
        return 0;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle) != NULL;
}

/* The vmaf_hip options of instance k of iteration it. */
static void vmaf_args(char *buf, size_t size, const char *dir, int it, int k)
{
    snprintf(buf, size, "log_fmt=json:log_path=%s/log-%d-%d.json:backend=%s:n_threads=%d",
             dir, it, k, it & 1 ? "auto" : "cpu", it & 2 ? 3 : 1);
}

static int create(AVFilterGraph *g, AVFilterContext **f, const char *name,
                  const char *inst, const char *args)
{
    return avfilter_graph_create_filter(f, avfilter_get_by_name(name), inst, args, NULL, g);
}

/* testsrc2 -> split -> vmaf_hip (x nb) -> buffersink, filter by filter. */
static int build_explicit(AVFilterGraph *g, const char *dir, int it, int nb)
{
    AVFilterContext *src, *split, *vmaf, *sink;
    char args[512], name[32];
    int ret;

    snprintf(args, sizeof(args), "%d", 2 * nb);
    if ((ret = create(g, &src, "testsrc2", "src", strchr(SRC, '=') + 1)) < 0 ||
        (ret = create(g, &split, "split", "split", args)) < 0 ||
        (ret = avfilter_link(src, 0, split, 0)) < 0)
        return ret;
    for (int k = 0; k < nb; k++) {
        vmaf_args(args, sizeof(args), dir, it, k);
        snprintf(name, sizeof(name), "vmaf%d", k);
        if ((ret = create(g, &vmaf, "vmaf_hip", name, args)) < 0)
            return ret;
        snprintf(name, sizeof(name), "sink%d", k);
        if ((ret = create(g, &sink, "buffersink", name, NULL)) < 0 ||
            (ret = avfilter_link(split, 2 * k, vmaf, 0)) < 0 ||
            (ret = avfilter_link(split, 2 * k + 1, vmaf, 1)) < 0 ||
            (ret = avfilter_link(vmaf, 0, sink, 0)) < 0)
            return ret;
    }
    return 0;
}

static int build_parsed(AVFilterGraph *g, const char *dir, int it, int nb)
{
    char desc[2048], args[512];
    int len;

    len = snprintf(desc, sizeof(desc), SRC ",split=%d[a0][b0]%s;", 2 * nb, nb > 1 ? "[a1][b1]" : "");
    for (int k = 0; k < nb; k++) {
        vmaf_args(args, sizeof(args), dir, it, k);
        len += snprintf(desc + len, sizeof(desc) - len, "[a%d][b%d]vmaf_hip=%s,buffersink;", k, k, args);
    }
    return avfilter_graph_parse_ptr(g, desc, NULL, NULL, NULL);
}

/*
 * Runs the graph, pulling from every buffersink in turn, at most max_frames
 * from each; frames[k] and scored[k] count what sink k gave (and how many
 * frames had a VMAF score).
 */
static int run_graph(AVFilterGraph *g, int max_frames, int *nb_sinks, int *frames, int *scored)
{
    AVFilterContext *sinks[MAX_SINKS];
    int done[MAX_SINKS] = { 0 }, nb_done = 0, ret;
    AVFrame *frame;

    *nb_sinks = 0;
    if ((ret = avfilter_graph_config(g, NULL)) < 0)
        return ret;
    for (unsigned i = 0; i < g->nb_filters; i++)
        if (!strcmp(g->filters[i]->filter->name, "buffersink") && *nb_sinks < MAX_SINKS)
            sinks[(*nb_sinks)++] = g->filters[i];
    if (!(frame = av_frame_alloc()))
        return AVERROR(ENOMEM);
    while (nb_done < *nb_sinks) {
        for (int k = 0; k < *nb_sinks; k++) {
            if (done[k])
                continue;
            if (frames[k] >= max_frames) {
                done[k] = 1;
                nb_done++;
                continue;
            }
            ret = av_buffersink_get_frame(sinks[k], frame);
            if (ret == AVERROR_EOF) {
                done[k] = 1;
                nb_done++;
                continue;
            }
            if (ret < 0)
                goto end;
            frames[k]++;
            scored[k] += !!av_dict_get(frame->metadata, "lavfi.vmaf.score", NULL, 0);
            av_frame_unref(frame);
        }
    }
    ret = 0;
end:
    av_frame_free(&frame);
    return ret;
}

/* One iteration's graph; 0 when it scored and logged what it should. */
static int iteration(const char *dir, int it, char *why, size_t why_size)
{
    int nb = it & 4 ? 2 : 1, ending = it >> 3 & 3;
    int max_frames = ending == 0 ? NB_FRAMES : ending == 1 ? 1 : 0;
    int frames[MAX_SINKS] = { 0 }, scored[MAX_SINKS] = { 0 }, nb_sinks = 0, ret;
    AVFilterGraph *g = avfilter_graph_alloc();

    if (!g) {
        snprintf(why, why_size, "avfilter_graph_alloc failed");
        return -1;
    }
    ret = it & 32 ? build_explicit(g, dir, it, nb) : build_parsed(g, dir, it, nb);
    if (ret >= 0 && ending != 3)
        ret = run_graph(g, max_frames, &nb_sinks, frames, scored);
    avfilter_graph_free(&g);
    if (ret < 0) {
        snprintf(why, why_size, "graph failed: %s", av_err2str(ret));
        return -1;
    }
    if (ending != 3 && nb_sinks != nb) {
        snprintf(why, why_size, "%d buffersinks, expected %d", nb_sinks, nb);
        return -1;
    }
    for (int k = 0; k < nb; k++) {
        char log[1024], frame_num[32];
        if (frames[k] != max_frames || scored[k] != max_frames) {
            snprintf(why, why_size, "instance %d: %d frames, %d with a score; expected %d",
                     k, frames[k], scored[k], max_frames);
            return -1;
        }
        snprintf(log, sizeof(log), "%s/log-%d-%d.json", dir, it, k);
        if (!max_frames) {
            /* Nothing scored: no log, or an empty one. */
            unlink(log);
            continue;
        }
        /* Freed early, the filter may have sent more frames than were pulled. */
        snprintf(frame_num, sizeof(frame_num), "\"frameNum\": %d", max_frames - 1);
        if (!file_has(log, frame_num) || !file_has(log, "\"vmaf\": {")) {
            snprintf(why, why_size, "instance %d: %s lacks %s or the VMAF aggregate", k, log, frame_num);
            return -1;
        }
        unlink(log);
    }
    return 0;
}

/*
 * A graph that must fail, cycling through: an unknown feature (init fails
 * after the engine was allocated), mismatched input sizes (configuration
 * fails after the log file was created), no model and no feature (the
 * engine refuses to configure), an unwritable log_path.
 */
static int failing_iteration(const char *dir, int n, char *why, size_t why_size)
{
    static const char *const expected[] = {
        "Unknown feature 'nosuch'", "main (distorted) is 64x36", "Nothing to compute",
        "Cannot open log_path",
    };
    char desc[1024];
    AVFilterGraph *g = avfilter_graph_alloc();
    int frames[MAX_SINKS] = { 0 }, scored[MAX_SINKS] = { 0 }, nb_sinks, ret;

    if (!g)
        return -1;
    switch (n % 4) {
    case 0:
        snprintf(desc, sizeof(desc), SRC ",split[a][b];[a][b]vmaf_hip=feature=name=nosuch:"
                 "log_fmt=json:log_path=%s/bad.json,buffersink", dir);
        break;
    case 1:
        snprintf(desc, sizeof(desc), SRC "[a];testsrc2=size=32x18:rate=25:duration=0.12[b];"
                 "[a][b]vmaf_hip=log_fmt=json:log_path=%s/bad.json:n_threads=3:backend=%s,buffersink",
                 dir, n & 4 ? "auto" : "cpu");
        break;
    case 2:
        snprintf(desc, sizeof(desc), SRC ",split[a][b];[a][b]vmaf_hip=model=:n_threads=3:"
                 "log_fmt=json:log_path=%s/bad.json,buffersink", dir);
        break;
    default:
        snprintf(desc, sizeof(desc), SRC ",split[a][b];[a][b]vmaf_hip=log_path=%s/no/such/dir/bad.xml,"
                 "buffersink", dir);
        break;
    }
    captured[0] = 0;
    capturing = 1;
    ret = avfilter_graph_parse_ptr(g, desc, NULL, NULL, NULL);
    if (ret >= 0)
        ret = run_graph(g, NB_FRAMES, &nb_sinks, frames, scored);
    avfilter_graph_free(&g);
    capturing = 0;
    if (ret >= 0) {
        snprintf(why, why_size, "'%s' succeeded", desc);
        return -1;
    }
    if (!strstr(captured, expected[n % 4])) {
        snprintf(why, why_size, "'%s' failed without saying '%s': %s", desc, expected[n % 4], captured);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir;
    int iterations = 1000, warmup = 64;
    int fds0 = 0, threads0 = 0, fds1, threads1, bad = 0, bad_fail = 0, nb_fail = 0;
    int fd_it = -1, thread_it = -1, file_it = -1;
    size_t heap0 = 0, heap1;
    char why[1024] = "", first_why[1200] = "", fail_why[2048] = "";
    struct timespec t0, t1;

    /* Run again with glibc's tcache off (see heap_in_use()), unless under
     * valgrind, which would not follow. */
    {
        const char *tun = getenv("GLIBC_TUNABLES"), *pre = getenv("LD_PRELOAD");
        char env[1024];
        if ((!tun || !strstr(tun, "glibc.malloc.tcache_count=0")) &&
            !(pre && strstr(pre, "vgpreload"))) {
            snprintf(env, sizeof(env), "%s%sglibc.malloc.tcache_count=0",
                     tun ? tun : "", tun && *tun ? ":" : "");
            setenv("GLIBC_TUNABLES", env, 1);
            execv("/proc/self/exe", argv);
            /* Measured with the cache then. */
        }
    }
    if (argc < 2) {
        fprintf(stderr, "Usage: %s <tmp-dir> [iterations [warm-up]]\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    if (argc > 2)
        iterations = atoi(argv[2]);
    if (argc > 3)
        warmup = atoi(argv[3]);
    if (strpbrk(dir, ":,;[]'\\= ")) {
        fprintf(stderr, "%s: the directory's name must not need escaping in a filter graph\n", dir);
        return 2;
    }
    if (count_entries(dir) != 0) {
        fprintf(stderr, "%s: not an empty directory\n", dir);
        return 2;
    }
    if (!avfilter_get_by_name("vmaf_hip") || !avfilter_get_by_name("testsrc2") ||
        !avfilter_get_by_name("split")) {
        printf("SKIP this libavfilter lacks vmaf_hip, testsrc2 or split\n0 passed, 0 failed\n");
        return 0;
    }
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(log_callback);
    clock_gettime(CLOCK_MONOTONIC, &t0);

    for (int it = 0; it < iterations; it++) {
        if (it == warmup) {
            fds0     = count_fds();
            threads0 = count_threads();
            heap0    = heap_in_use();
        }
        if (iteration(dir, it, why, sizeof(why)) < 0 && !bad++)
            snprintf(first_why, sizeof(first_why), "iteration %d: %s", it, why);
        if (it % 4 == 3) {
            nb_fail++;
            if (failing_iteration(dir, it / 4, why, sizeof(why)) < 0 && !bad_fail++)
                snprintf(fail_why, sizeof(fail_why), "%s", why);
        }
        if (it >= warmup) {
            if (fd_it < 0 && settled_count(count_fds, fds0) != fds0)
                fd_it = it;
            if (thread_it < 0 && settled_count(count_threads, threads0) != threads0)
                thread_it = it;
        }
        if (file_it < 0 && count_entries(dir) != 0)
            file_it = it;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Before anything is printed: stdout's buffer is allocated then. */
    fds1     = settled_count(count_fds, fds0);
    threads1 = settled_count(count_threads, threads0);
    heap1    = heap_in_use();

    check(!bad, "%d graphs (backend cpu/auto, n_threads 1/3, one or two instances, all "
          "frames, one or none pulled or never configured, parsed or built filter by filter) "
          "each scored and logged what it should%s%s",
          iterations, bad ? ": " : "", first_why);
    check(!bad_fail, "%d graphs that must fail (unknown feature, mismatched sizes, nothing to "
          "compute, unwritable log_path) failed%s%s", nb_fail,
          bad_fail ? ": " : "", fail_why);
    check(file_it < 0, "no file left beside the logs (temporary files, logs of failed graphs)%s",
          file_it < 0 ? "" : " (first left after an iteration)");
    if (file_it >= 0)
        printf("  first after iteration %d\n", file_it);

    if (iterations > warmup) {
        check(fd_it < 0 && fds1 == fds0, "open descriptors: %d after %d warm-up iterations, %d "
              "after %d%s", fds0, warmup, fds1, iterations, fd_it < 0 ? "" : " (changed at an iteration)");
        if (fd_it >= 0)
            printf("  first changed after iteration %d\n", fd_it);
        check(thread_it < 0 && threads1 == threads0, "threads: %d after %d warm-up iterations, "
              "%d after %d", threads0, warmup, threads1, iterations);
        if (thread_it >= 0)
            printf("  first changed after iteration %d\n", thread_it);
        if (!heap0 && !heap1)
            printf("heap: not measured (malloc is not glibc's: valgrind?)\n");
        else
            check(heap1 < heap0 + MEM_BOUND, "heap in use: %zu bytes after %d warm-up iterations, "
                  "%zu after %d (growth %+lld, bound %d)", heap0, warmup, heap1, iterations,
                  (long long)heap1 - (long long)heap0, MEM_BOUND);
    }
    printf("time: %.1f s for %d iterations\n",
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, iterations);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
