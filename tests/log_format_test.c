/*
 * The four log formats against libvmaf 3.2.0's own logs of the same run
 * (src01 576x324, 3 frames, model vmaf_v0.6.1 + psnr): byte for byte,
 * except the measured fps, which is replaced before comparing.
 *
 * Usage: log_format_test <testdata-dir> <format-sample-dir> <tmp-dir>
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libavutil/error.h"
#include "libavutil/log.h"
#include "libavutil/mem.h"

#include "libavfilter/vmaf/engine.h"

#define W 576
#define H 324

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(n + 1);
    if (buf && fread(buf, 1, n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

/* Replace the digits of the fps value with "FPS". */
static void mask_fps(char *s)
{
    char *p = strstr(s, "fps");
    if (!p)
        return;
    p += 3;
    while (*p && !(*p >= '0' && *p <= '9'))
        p++;
    if (!*p)
        return;
    {
        char *end = p;
        while ((*end >= '0' && *end <= '9') || *end == '.')
            end++;
        memmove(p + 3, end, strlen(end) + 1);
        memcpy(p, "FPS", 3);
    }
}

static int load(uint8_t *buf, const char *path, int n)
{
    size_t size = W * H * 3 / 2;
    FILE *f = fopen(path, "rb");
    int ok = f && !fseek(f, (long)(size * n), SEEK_SET) && fread(buf, 1, size, f) == size;
    if (f)
        fclose(f);
    return ok ? 0 : AVERROR(EIO);
}

int main(int argc, char **argv)
{
    static const char *const fmts[] = { "xml", "json", "csv", "sub" };
    FFVmafGeometry geo = { W, H, 8, 1, 1 };
    FFVmafEngine *e = NULL;
    uint8_t *ref = av_malloc(W * H * 3 / 2), *dis = av_malloc(W * H * 3 / 2);
    char path[4096];
    int passed = 0, failed = 0, ret;

    if (argc < 4) {
        fprintf(stderr, "usage: %s <testdata-dir> <format-dir> <tmp-dir>\n", argv[0]);
        return 2;
    }
    av_log_set_level(AV_LOG_ERROR);
    if ((ret = ff_vmaf_engine_alloc(&e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(e, "version=vmaf_v0.6.1")) < 0 ||
        (ret = ff_vmaf_engine_parse_features(e, "name=psnr")) < 0 ||
        (ret = ff_vmaf_engine_configure(e, &geo, 1, 1)) < 0)
        goto fail;
    for (int n = 0; n < 3; n++) {
        FFVmafPicture pr = { { ref, ref + W * H, ref + W * H * 5 / 4 }, { W, W / 2, W / 2 } };
        FFVmafPicture pd = { { dis, dis + W * H, dis + W * H * 5 / 4 }, { W, W / 2, W / 2 } };
        ff_vmaf_picture_set_geometry(&pr, &geo);
        ff_vmaf_picture_set_geometry(&pd, &geo);
        snprintf(path, sizeof(path), "%s/src01_hrc00_576x324_3f.yuv", argv[1]);
        if ((ret = load(ref, path, n)) < 0)
            goto fail;
        snprintf(path, sizeof(path), "%s/src01_hrc01_576x324_3f.yuv", argv[1]);
        if ((ret = load(dis, path, n)) < 0 || (ret = ff_vmaf_engine_push(e, &pr, &pd)) < 0)
            goto fail;
    }
    if ((ret = ff_vmaf_engine_flush(e)) < 0)
        goto fail;

    for (int i = 0; i < 4; i++) {
        char *ours, *theirs;
        size_t n1, n2;
        FILE *f;

        snprintf(path, sizeof(path), "%s/log_format_test.%s", argv[3], fmts[i]);
        if (!(f = fopen(path, "w")) ||
            ff_vmaf_engine_write_log(e, f, ff_vmaf_log_format_from_name(fmts[i]), 123.45, NULL, NULL) < 0) {
            if (f)
                fclose(f);
            printf("FAIL log %s: cannot write %s\n", fmts[i], path);
            failed++;
            continue;
        }
        fclose(f);
        ours = slurp(path, &n1);
        snprintf(path, sizeof(path), "%s/format_sample_src01_576x324_3f_8bit.%s", argv[2], fmts[i]);
        theirs = slurp(path, &n2);
        if (!ours || !theirs) {
            printf("FAIL log %s: missing %s\n", fmts[i], path);
            failed++;
        } else {
            mask_fps(ours);
            mask_fps(theirs);
            if (strcmp(ours, theirs)) {
                size_t k = 0;
                while (ours[k] && ours[k] == theirs[k])
                    k++;
                printf("FAIL log %s: differs from libvmaf's at byte %zu:\n  ours:   %.60s\n  libvmaf: %.60s\n",
                       fmts[i], k, ours + k, theirs + k);
                failed++;
            } else {
                printf("PASS log %s: identical to libvmaf's (fps masked)\n", fmts[i]);
                passed++;
            }
        }
        free(ours);
        free(theirs);
    }
    goto end;
fail:
    printf("FAIL engine: %s\n", av_err2str(ret));
    failed++;
end:
    ff_vmaf_engine_free(&e);
    av_free(ref);
    av_free(dis);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
