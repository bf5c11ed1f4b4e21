/*
 * The GPU ring's host threads, on the simulated GPU (no GPU needed):
 *  - work posted to the background thread (ff_vmaf_gpu_background()) runs
 *    once, after the work posted before it, beside the caller's own
 *    ff_vmaf_gpu_parallel() calls on the staging threads;
 *  - ff_vmaf_gpu_parallel() called from the background runs every job
 *    exactly once, none of them on the caller's thread;
 *  - freeing the ring waits for the background work still running;
 *  - a ring asked for at most n threads (n_threads) stages on n.
 * The engine hands SpEED's block models to that thread while the caller
 * stages and queues the next frame; a lost, doubled or overlapping job
 * there would change values only now and then.
 *
 * Usage: gpu_ring_test
 */

#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libavutil/cpu.h"
#include "libavutil/log.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"

#include "libavfilter/vmaf/gpu/vmaf_gpu.h"

#define NB_JOBS 64
#define ROUNDS  300

typedef struct Jobs {
    atomic_int hits[NB_JOBS];
    atomic_int on_caller;       ///< jobs that ran on the caller's thread
    pthread_t caller;
} Jobs;

static void count_job(void *priv, int j, int nb_jobs)
{
    Jobs *s = priv;
    atomic_fetch_add(&s->hits[j], 1);
    if (pthread_equal(pthread_self(), s->caller))
        atomic_fetch_add(&s->on_caller, 1);
    /* Long enough for the jobs to spread over the threads. */
    for (volatile int k = 0; k < 2000; k++)
        ;
}

static void reset(Jobs *s, pthread_t caller)
{
    for (int j = 0; j < NB_JOBS; j++)
        atomic_store(&s->hits[j], 0);
    atomic_store(&s->on_caller, 0);
    s->caller = caller;
}

static int counts_ok(Jobs *s)
{
    for (int j = 0; j < NB_JOBS; j++)
        if (atomic_load(&s->hits[j]) != 1)
            return 0;
    return 1;
}

typedef struct Background {
    FFVmafGpu *g;
    int finished;               ///< the last round whose work ended
    int out_of_order;           ///< a round began before the one before it ended
    int wrong_counts;
} Background;

/* One round's work; two in turn, so that a round is set up while the one
 * before may still run. */
typedef struct Round {
    Background *b;
    int round;
    Jobs jobs;
} Round;

static void background_round(void *priv)
{
    Round *w = priv;
    Background *b = w->b;
    if (b->finished != w->round - 1)
        b->out_of_order++;
    ff_vmaf_gpu_parallel(b->g, count_job, &w->jobs, NB_JOBS);
    if (!counts_ok(&w->jobs))
        b->wrong_counts++;
    b->finished = w->round;
}

static void slow_work(void *priv)
{
    av_usleep(50000);
    atomic_store((atomic_int *)priv, 1);
}

static int passed, failed;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    ok ? passed++ : failed++;
}

int main(void)
{
    /* 1080p, luma only: a ring with several staging threads, whatever
     * the machine's cores. */
    FFVmafGeometry geo = { .width = 1920, .height = 1080, .bpc = 8, .ss_x = 1, .ss_y = 1 };
    Background *b = calloc(1, sizeof(*b));
    Round *w = calloc(2, sizeof(*w));
    Jobs *mine = calloc(1, sizeof(*mine));
    atomic_int slow_done = 0;
    int caller_jobs = 0, own_ok = 1, ret = 0, r;

    /* A deadlock (two threads in one pool) ends the test, which then
     * reports nothing: a failure, not a hung make check. */
    alarm(60);
    setenv("VMAF_HIP_SIMULATE_GPU", "1", 1);
    av_log_set_level(AV_LOG_ERROR);
    av_cpu_force_count(8);
    if (!b || !w || !mine || ff_vmaf_gpu_alloc(&b->g, 0, NULL, NULL, &geo, 1, 0, NULL) < 0) {
        printf("FAIL the simulated ring could not be made\n0 passed, 1 failed\n");
        return 1;
    }
    check(ff_vmaf_gpu_nb_threads(b->g) > 1, "the ring has staging threads");

    for (r = 1; r <= ROUNDS && ret >= 0; r++) {
        /* Round r - 2, the last to use this one, ended before round r - 1
         * was posted. */
        Round *cur = &w[r & 1];
        cur->b     = b;
        cur->round = r;
        reset(&cur->jobs, pthread_self());
        /* Round r - 1 may still run: posting waits for it. */
        ret = ff_vmaf_gpu_background(b->g, background_round, cur);
        if (r > 1)
            caller_jobs += atomic_load(&w[(r - 1) & 1].jobs.on_caller);
        /* Meanwhile the caller's own jobs, on the staging threads. */
        reset(mine, pthread_self());
        ff_vmaf_gpu_parallel(b->g, count_job, mine, NB_JOBS);
        own_ok &= counts_ok(mine);
    }
    ff_vmaf_gpu_background_wait(b->g);
    caller_jobs += atomic_load(&w[(r - 1) & 1].jobs.on_caller);
    check(ret >= 0, "the background thread started and took every round");
    check(b->finished == ROUNDS, "every round's background work ended");
    check(!b->out_of_order, "each round's work began after the one before had ended");
    check(!b->wrong_counts, "ff_vmaf_gpu_parallel() from the background ran each job once");
    check(!caller_jobs, "no background job ran on the caller's thread");
    check(own_ok, "the caller's own jobs ran once each, beside the background's");

    /* Freeing the ring with work still running waits for it. */
    ret = ff_vmaf_gpu_background(b->g, slow_work, &slow_done);
    ff_vmaf_gpu_free(&b->g);
    check(ret >= 0 && atomic_load(&slow_done), "freeing the ring waits for the background work");

    /* n_threads bounds the ring's threads too (processes sharing cores). */
    for (int t = 1; t <= 2; t++) {
        FFVmafGpu *g = NULL;
        ret = ff_vmaf_gpu_alloc(&g, 0, NULL, NULL, &geo, 1, t, NULL);
        check(ret >= 0 && ff_vmaf_gpu_nb_threads(g) == t,
              t == 1 ? "n_threads=1: the pictures are staged on the caller's thread alone"
                     : "n_threads=2: the pictures are staged on 2 threads");
        ff_vmaf_gpu_free(&g);
    }

    free(b);
    free(w);
    free(mine);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
