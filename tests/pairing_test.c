/*
 * The pairing rule of vmaf/pairing.h on timelines as containers write them:
 * every distorted frame must meet the reference frame of its instant.
 *
 * Each case builds the two inputs' timestamps (ns) from a frame rate, a
 * time base the container rounds to and an offset, runs them through
 * ff_vmaf_pairing_choose() the way the filter does (reference frames read
 * one at a time, at most the few it keeps), and compares every pair with
 * the truth: the frame index each distorted frame should meet.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavfilter/vmaf/pairing.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    if (ok)
        passed++;
    else
        failed++;
}

/* Frame n's time at num/den fps, rounded to the container's tick (ns, 0:
 * exact), plus an offset. Matroska rounds to the nearest millisecond. */
static int64_t frame_time(int64_t n, int num, int den, int64_t tick, int64_t offset)
{
    /* n * den / num seconds, to the nearest ns */
    int64_t t = (n * den * (int64_t)FF_VMAF_NS * 2 + num) / (2 * num);
    if (tick > 1)
        t = (t + tick / 2) / tick * tick;
    return t + offset;
}

typedef struct Timeline {
    int num, den;           ///< frame rate
    int64_t tick;           ///< container rounding (ns; 0: none)
    int64_t offset;         ///< ns
    int nb;
    const int *drop;        ///< frame numbers missing from the stream, -1 ended
} Timeline;

static int dropped(const Timeline *tl, int n)
{
    for (int i = 0; tl->drop && tl->drop[i] >= 0; i++)
        if (tl->drop[i] == n)
            return 1;
    return 0;
}

/* The frames of a timeline: times and frame numbers. */
static int frames(const Timeline *tl, int64_t *t, int *num)
{
    int nb = 0;
    for (int n = 0; n < tl->nb; n++) {
        if (dropped(tl, n))
            continue;
        t[nb]   = frame_time(n, tl->num, tl->den, tl->tick, tl->offset);
        num[nb] = n;
        nb++;
    }
    return nb;
}

/*
 * Pair as the filter does: a queue of at most four reference frames, read
 * one at a time while the rule waits. out[i]: the reference frame number
 * paired with distorted frame i, -2 before the reference, -3 after it.
 */
static void pair_all(const FFVmafPairingRule *r, const int64_t *dt, int nd,
                     const int64_t *rt, const int *rn, int nr, int *out, int *nb_off,
                     int *nb_unused, int *max_queue)
{
    int64_t q[4];
    int qn[4], used[4], nq = 0, next = 0;

    *nb_off = *nb_unused = *max_queue = 0;
    for (int i = 0; i < nd; i++) {
        int k;
        for (;;) {
            k = ff_vmaf_pairing_choose(r, dt[i], q, nq, next == nr);
            if (k != FF_VMAF_PAIR_WAIT)
                break;
            if (nq > 1) {
                for (int j = 0; j < nq - 1; j++)
                    *nb_unused += !used[j];
                q[0] = q[nq - 1]; qn[0] = qn[nq - 1]; used[0] = used[nq - 1];
                nq = 1;
            }
            q[nq] = rt[next]; qn[nq] = rn[next]; used[nq] = 0;
            nq++, next++;
            if (nq > *max_queue)
                *max_queue = nq;
        }
        if (k < 0) {
            out[i] = k;
            continue;
        }
        for (int j = 0; j < k; j++)
            *nb_unused += !used[j];
        memmove(q, q + k, (nq - k) * sizeof(*q));
        memmove(qn, qn + k, (nq - k) * sizeof(*qn));
        memmove(used, used + k, (nq - k) * sizeof(*used));
        nq -= k;
        used[0] = 1;
        out[i] = qn[0];
        *nb_off += ff_vmaf_pairing_is_off(r, dt[i], q[0]);
    }
    /* The reference frames read and never used, as the filter counts them
     * at the end. */
    for (int j = 0; j < nq; j++)
        *nb_unused += !used[j];
}

#define MAXF 4000

/* dist and ref timelines; expect(n) the reference frame number distorted
 * frame number n should meet (or -2, -3); the counts expected. */
static void run_case(const char *name, const Timeline *dist, const Timeline *ref,
                     int (*expect)(int n, const void *arg), const void *arg,
                     int want_off, int want_unused)
{
    static int64_t dt[MAXF], rt[MAXF];
    static int dn[MAXF], rn[MAXF], out[MAXF];
    FFVmafPairingRule r;
    int nd = frames(dist, dt, dn), nr = frames(ref, rt, rn);
    int wrong = 0, first_wrong = -1, nb_off, nb_unused, max_queue;
    char what[512];

    ff_vmaf_pairing_rule(&r, frame_time(1, dist->num, dist->den, 0, 0),
                         frame_time(1, ref->num, ref->den, 0, 0),
                         dist->tick > 1 ? dist->tick : 1, ref->tick > 1 ? ref->tick : 1);
    pair_all(&r, dt, nd, rt, rn, nr, out, &nb_off, &nb_unused, &max_queue);
    for (int i = 0; i < nd; i++) {
        if (out[i] != expect(dn[i], arg)) {
            if (first_wrong < 0)
                first_wrong = i;
            wrong++;
        }
    }
    snprintf(what, sizeof(what), "%s: %d distorted frames, %d wrong", name, nd, wrong);
    if (wrong)
        snprintf(what + strlen(what), sizeof(what) - strlen(what),
                 " (first: frame %d at %"PRId64" ns met %d, not %d)", dn[first_wrong],
                 dt[first_wrong], out[first_wrong], expect(dn[first_wrong], arg));
    if (want_off >= 0 && nb_off != want_off)
        snprintf(what + strlen(what), sizeof(what) - strlen(what), "; %d off, not %d",
                 nb_off, want_off), wrong++;
    if (want_unused >= 0 && nb_unused != want_unused)
        snprintf(what + strlen(what), sizeof(what) - strlen(what), "; %d unused, not %d",
                 nb_unused, want_unused), wrong++;
    if (max_queue > 4)
        snprintf(what + strlen(what), sizeof(what) - strlen(what), "; queue of %d",
                 max_queue), wrong++;
    check(!wrong, what);
}

static int same(int n, const void *arg) { return n; }
static int scaled(int n, const void *arg)
{
    /* the reference frame on screen at distorted frame n: floor(n * ratio) */
    const int *ratio = arg;   /* ref fps num, dist fps num (same den) */
    return (int)((int64_t)n * ratio[0] / ratio[1]);
}
static int shifted(int n, const void *arg)
{
    int k = n - *(const int *)arg;
    return k < 0 ? FF_VMAF_PAIR_BEFORE : k;
}
static int until(int n, const void *arg)
{
    return n < *(const int *)arg ? n : FF_VMAF_PAIR_AFTER;
}
/* Frame n of the distorted meets n, or n - 1 when n is missing from the reference. */
static int gap(int n, const void *arg)
{
    return n == *(const int *)arg ? n - 1 : n;
}

int main(void)
{
    const int64_t ms = 1000000;
    static const int none[] = { -1 };

    /* The reported case: a 29.97 fps encode in Matroska (1 ms) against
     * its y4m source (exact): every third frame lands a fraction of a
     * millisecond before its source frame. */
    for (int c = 0; c < 4; c++) {
        static const struct { int num, den; const char *name; } rates[] = {
            { 30000, 1001, "29.97" }, { 24000, 1001, "23.976" },
            { 60000, 1001, "59.94" }, { 25, 1, "25" },
        };
        Timeline mkv = { rates[c].num, rates[c].den, ms, 0, 3000, none };
        Timeline y4m = { rates[c].num, rates[c].den, 0, 0, 3000, none };
        Timeline ts  = { rates[c].num, rates[c].den, 0, 0, 3000, none };
        char name[128];
        snprintf(name, sizeof(name), "%s fps: mkv (1 ms) against y4m", rates[c].name);
        run_case(name, &mkv, &y4m, same, NULL, 0, 0);
        snprintf(name, sizeof(name), "%s fps: y4m against mkv (1 ms)", rates[c].name);
        run_case(name, &y4m, &mkv, same, NULL, 0, 0);
        snprintf(name, sizeof(name), "%s fps: mkv against mkv", rates[c].name);
        run_case(name, &mkv, &mkv, same, NULL, 0, 0);
        /* MPEG-TS: 1/90000, with a start offset the demuxer keeps under
         * -copyts when both come from one stream (the same offset). */
        ts.tick = 11111;
        ts.offset = 1400 * ms;
        y4m.offset = 1400 * ms;
        snprintf(name, sizeof(name), "%s fps: ts (1/90000) against y4m, both from 1.4 s",
                 rates[c].name);
        run_case(name, &ts, &y4m, same, NULL, 0, 0);
    }

    /* Timestamps off by less than half a frame either way (jitter, an
     * encoder's start delay that was not cut, a rate labelled 30 against
     * 29.97 for a few seconds). */
    {
        Timeline d = { 25, 1, 0, 19 * ms, 500, none }, r = { 25, 1, 0, 0, 500, none };
        run_case("25 fps, distorted 19 ms late", &d, &r, same, NULL, 0, 0);
        d.offset = -19 * ms;
        run_case("25 fps, distorted 19 ms early", &d, &r, same, NULL, 0, 0);
        d.offset = 21 * ms;
        r.nb = 501;
        /* More than half a frame: frame n is nearest to reference n + 1. */
        {
            int one = -1;
            run_case("25 fps, distorted 21 ms late: the next reference frame", &d, &r,
                     shifted, &one, 0, 1);
        }
    }
    {
        Timeline d = { 30, 1, ms, 0, 300, none }, r = { 30000, 1001, 0, 0, 300, none };
        run_case("30 against 29.97 fps (the same rate, labelled apart), 10 s", &d, &r, same, NULL,
                 0, 0);
    }

    /* Other rates: each distorted frame meets the reference frame on
     * screen at its instant; the others are left out. */
    {
        Timeline d = { 25, 1, ms, 0, 250, none }, r = { 50, 1, 0, 0, 500, none };
        int ratio[2] = { 50, 25 };
        run_case("25 fps distorted (mkv) against 50 fps reference", &d, &r, scaled, ratio, 0, 250);
        {
            Timeline d2 = { 50, 1, 0, 0, 500, none }, r2 = { 25, 1, ms, 0, 250, none };
            int ratio2[2] = { 25, 50 };
            run_case("50 fps distorted against 25 fps reference (mkv)", &d2, &r2, scaled, ratio2,
                     0, 0);
        }
        {
            Timeline d3 = { 60000, 1001, ms, 0, 600, none }, r3 = { 30000, 1001, ms, 0, 300, none };
            int ratio3[2] = { 1, 2 };
            run_case("59.94 against 29.97 fps, both in mkv", &d3, &r3, scaled, ratio3, 0, 0);
            run_case("29.97 against 59.94 fps, both in mkv", &r3, &d3, scaled,
                     (int[2]){ 2, 1 }, 0, 300);
        }
        {
            Timeline d4 = { 24000, 1001, ms, 0, 240, none }, r4 = { 30000, 1001, 0, 0, 300, none };
            /* 23.976 against 29.97: frame n is at n * 1001 / 24000 s; the
             * reference frame on screen is floor(n * 30 / 24). */
            int ratio4[2] = { 30, 24 };
            run_case("23.976 fps (mkv) against 29.97 fps", &d4, &r4, scaled, ratio4, 0, 60);
        }
    }

    /* Frames missing: from the distorted input (the reference frame of
     * that instant is left out) and from the reference (the distorted
     * frame meets the previous one, counted off). */
    {
        static const int drop17[] = { 17, -1 };
        Timeline d = { 30000, 1001, ms, 0, 100, drop17 }, r = { 30000, 1001, 0, 0, 100, none };
        int g = 17;
        run_case("29.97 fps mkv with frame 17 dropped", &d, &r, same, NULL, 0, 1);
        d.drop = none;
        r.drop = drop17;
        run_case("29.97 fps reference with frame 17 dropped", &d, &r, gap, &g, 1, 0);
    }

    /* Starts and ends. */
    {
        Timeline d = { 25, 1, 0, 0, 100, none }, r = { 25, 1, 0, 200 * ms, 100, none };
        int five = 5, ninety = 90;
        run_case("the reference starts 5 frames late", &d, &r, shifted, &five, 0, 1);
        r.offset = 0;
        r.nb = 90;
        run_case("the reference ends 10 frames early", &d, &r, until, &ninety, 0, 0);
    }
    {
        /* No overlap: the distorted input 10 s later. */
        Timeline d = { 25, 1, 0, 10000 * ms, 75, none }, r = { 25, 1, 0, 0, 75, none };
        run_case("no overlap: every distorted frame after the reference's end", &d, &r,
                 until, (int[]){ -1 }, 0, 75);
    }

    /* The rule itself. */
    {
        FFVmafPairingRule r;
        int64_t q[3] = { 0, 40 * ms, 80 * ms };
        ff_vmaf_pairing_rule(&r, 40 * ms, 40 * ms, ms, 1);
        check(r.same_rate && r.tolerance == 20 * ms, "same rate: half a frame of tolerance");
        check(ff_vmaf_pairing_choose(&r, 5 * ms, q, 1, 0) == FF_VMAF_PAIR_WAIT,
              "a distorted frame waits for a reference frame after its instant");
        check(ff_vmaf_pairing_choose(&r, 19 * ms, q, 3, 0) == 0 &&
              ff_vmaf_pairing_choose(&r, 20 * ms, q, 3, 0) == 0 &&
              ff_vmaf_pairing_choose(&r, 21 * ms, q, 3, 0) == 1,
              "the nearer reference frame, the earlier one on a tie");
        ff_vmaf_pairing_rule(&r, 20 * ms, 40 * ms, ms, 1);
        check(!r.same_rate && r.tolerance == 1000, "other rates, exact times: 1 us");
        ff_vmaf_pairing_rule(&r, 33366667, 16683333, ms, 1);
        check(!r.same_rate && r.tolerance == ms, "other rates, mkv: one tick");
        check(ff_vmaf_pairing_is_off(&r, 40 * ms, 0) && !ff_vmaf_pairing_is_off(&r, 15 * ms, 0),
              "a pair is off once the reference frame has left the screen");
        ff_vmaf_pairing_rule(&r, 0, 0, ms, ms);
        check(!r.same_rate && r.tolerance == 2 * ms && !ff_vmaf_pairing_is_off(&r, 900 * ms, 0),
              "unknown rates: the rounding of both, never off");
    }

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
