/*
 * Recorded work and graphs (libavfilter/vmaf/gpu/gpu_graph.c), on the
 * simulated GPU (no GPU needed), whose kernels have two parameters (8 and 4
 * bytes), whose launches fail and whose memsets write host memory:
 *  - while a stream is recorded, its launches and memsets are held, not
 *    run, and other streams' are not;
 *  - two recordings are equal only with the same operations, grids and
 *    argument bytes (a copy, not the caller's variables);
 *  - running recorded work runs it in the order it was queued;
 *  - anything else queued on the recorded stream runs what was held first,
 *    and the rest of the work then runs as it comes;
 *  - a graph captured from work runs it.
 * A graph is only ever run for work equal to the work it was made from, so
 * an equality that misses a difference would score frames with another
 * frame's arguments: that is what most of the checks are about.
 *
 * Usage: gpu_graph_test
 */

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"

#include "libavfilter/vmaf/gpu/gpu_runtime.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    ok ? passed++ : failed++;
}

/* One kernel launch and one memset on s, as a twin queues them. */
static int queue(FFGpu *g, FFGpuStream s, FFGpuFunction fn, uint64_t a, uint32_t b,
                 unsigned gx, FFGpuPtr buf, int value)
{
    void *args[2] = { &a, &b };
    int ret = ff_gpu_memset(g, buf, value, 16, s);
    return ret < 0 ? ret : ff_gpu_launch(g, fn, "test_kernel", gx, 1, 32, 1, s, args);
}

static int record(FFGpu *g, FFGpuStream s, FFGpuWork *w, FFGpuFunction fn, uint64_t a,
                  uint32_t b, unsigned gx, FFGpuPtr buf, int value)
{
    int ret = ff_gpu_record_begin(g, s, w);
    if (ret >= 0)
        ret = queue(g, s, fn, a, b, gx, buf, value);
    ff_gpu_record_end(g);
    return ret;
}

int main(void)
{
    FFGpu *g = NULL;
    FFGpuStream s = NULL, other = NULL;
    FFGpuModule mod = NULL;
    FFGpuFunction fn = NULL;
    FFGpuEvent ev = NULL;
    FFGpuPtr buf = 0;
    FFGpuGraph graph = NULL;
    FFGpuWork w1 = { 0 }, w2 = { 0 }, w3 = { 0 };
    const uint8_t *mem;
    static const unsigned char image[1];
    int ret;

    av_log_set_level(AV_LOG_QUIET);
    setenv("VMAF_HIP_SIMULATE_GPU", "1", 1);
    if (ff_gpu_open(&g, 0, NULL) < 0 || ff_gpu_stream_create(g, &s) < 0 ||
        ff_gpu_stream_create(g, &other) < 0 || ff_gpu_event_create(g, &ev) < 0 ||
        ff_gpu_module_load(g, &mod, "test", image, image) < 0 ||
        ff_gpu_function(g, mod, "test_kernel", &fn) < 0 || ff_gpu_malloc(g, &buf, 16) < 0) {
        printf("FAIL the simulated GPU could not be set up\n0 passed, 1 failed\n");
        return 1;
    }
    mem = (const uint8_t *)(uintptr_t)buf;
    check(ff_gpu_has_graphs(g), "the simulated GPU records work and makes graphs");

    /* Held, not run: the memset leaves the buffer alone, the launch (which
     * fails when run) succeeds. */
    ret = record(g, s, &w1, fn, 0x1122334455667788ULL, 7, 4, buf, 0x5a);
    check(ret >= 0 && w1.nb_ops == 2 && !w1.partial && mem[0] == 0,
          "a recorded stream's memset and launch are held, not run");
    ret = ff_gpu_record_begin(g, s, &w3);
    ret = ret >= 0 ? queue(g, other, fn, 1, 2, 4, buf, 0x11) : ret;
    ff_gpu_record_end(g);
    check(ret == AVERROR_EXTERNAL && w3.nb_ops == 0 && mem[0] == 0x11,
          "another stream's work runs at once while one is recorded");
    ff_gpu_memset(g, buf, 0, 16, s);

    /* Equality: the same work, then one difference at a time. */
    record(g, s, &w2, fn, 0x1122334455667788ULL, 7, 4, buf, 0x5a);
    check(ff_gpu_work_equal(&w1, &w2), "the same work recorded twice is equal");
    record(g, s, &w2, fn, 0x1122334455667789ULL, 7, 4, buf, 0x5a);
    check(!ff_gpu_work_equal(&w1, &w2), "one byte more in an 8-byte argument: not equal");
    record(g, s, &w2, fn, 0x1122334455667788ULL, 7 + (1u << 24), 4, buf, 0x5a);
    check(!ff_gpu_work_equal(&w1, &w2), "the top byte of a 4-byte argument: not equal");
    record(g, s, &w2, fn, 0x1122334455667788ULL, 7, 5, buf, 0x5a);
    check(!ff_gpu_work_equal(&w1, &w2), "another grid: not equal");
    record(g, s, &w2, fn, 0x1122334455667788ULL, 7, 4, buf + 1, 0x5a);
    check(!ff_gpu_work_equal(&w1, &w2), "a memset elsewhere: not equal");
    record(g, s, &w2, fn, 0x1122334455667788ULL, 7, 4, buf, 0x5b);
    check(!ff_gpu_work_equal(&w1, &w2), "a memset of another value: not equal");
    {
        /* The arguments are copied when queued: changing the caller's
         * variables afterwards changes nothing. */
        uint64_t a = 0x1122334455667788ULL;
        uint32_t b = 7;
        void *args[2] = { &a, &b };
        ff_gpu_record_begin(g, s, &w2);
        ff_gpu_memset(g, buf, 0x5a, 16, s);
        ff_gpu_launch(g, fn, "test_kernel", 4, 1, 32, 1, s, args);
        ff_gpu_record_end(g);
        a = b = 0;
        check(ff_gpu_work_equal(&w1, &w2), "recorded arguments are copies of the caller's");
    }
    ret = ff_gpu_work_copy(&w3, &w1);
    check(ret >= 0 && ff_gpu_work_equal(&w1, &w3), "a copy of work is equal to it");

    /* Running it: the memset first, then the launch, which fails. */
    ret = ff_gpu_work_run(g, &w1, s);
    check(ret == AVERROR_EXTERNAL && mem[0] == 0x5a && mem[15] == 0x5a,
          "recorded work runs in its order (the memset, then the failing launch)");

    /* An event on the recorded stream: what was held runs first, the rest
     * as it comes, and the work is partial (never equal, never captured). */
    ff_gpu_memset(g, buf, 0, 16, s);
    ff_gpu_record_begin(g, s, &w2);
    ff_gpu_memset(g, buf, 0x21, 8, s);
    ret = ff_gpu_event_record(g, ev, s);
    check(ret >= 0 && mem[0] == 0x21 && w2.partial,
          "an event on the recorded stream runs the held work first");
    ff_gpu_memset(g, buf + 8, 0x22, 8, s);
    ff_gpu_record_end(g);
    check(mem[8] == 0x22 && w2.nb_ops == 1 && !ff_gpu_work_equal(&w2, &w2),
          "after it, the work runs as it comes, and partial work equals nothing");
    ret = ff_gpu_graph_make(g, &graph, &w2);
    check(ret < 0 && !graph, "partial work is never captured");

    /* A graph runs its work: memsets alone here, then with the launch. */
    ff_gpu_memset(g, buf, 0, 16, s);
    ff_gpu_record_begin(g, s, &w2);
    ff_gpu_memset(g, buf, 0x31, 4, s);
    ff_gpu_memset(g, buf + 4, 0x32, 4, s);
    ff_gpu_record_end(g);
    ret = ff_gpu_graph_make(g, &graph, &w2);
    check(ret >= 0 && graph && mem[0] == 0, "capturing a graph runs nothing");
    ret = graph ? ff_gpu_graph_launch(g, graph, s) : AVERROR_BUG;
    check(ret >= 0 && mem[0] == 0x31 && mem[4] == 0x32 && mem[8] == 0,
          "a graph runs the work it was made from");
    ff_gpu_graph_free(g, &graph);
    ff_gpu_memset(g, buf, 0, 16, s);
    ret = ff_gpu_graph_make(g, &graph, &w1);
    ret = ret >= 0 ? ff_gpu_graph_launch(g, graph, s) : ret;
    check(ret == AVERROR_EXTERNAL && mem[0] == 0x5a,
          "a graph with a kernel fails where the kernel does, after the memset before it");
    ff_gpu_graph_free(g, &graph);

    ff_gpu_work_free(&w1);
    ff_gpu_work_free(&w2);
    ff_gpu_work_free(&w3);
    ff_gpu_free(g, &buf);
    ff_gpu_event_destroy(g, &ev);
    ff_gpu_stream_destroy(g, &s);
    ff_gpu_stream_destroy(g, &other);
    ff_gpu_module_unload(g, mod);
    ff_gpu_close(&g);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
