/*
 * The log file's lifecycle (vmaf/log_file.h) without ffmpeg, in a fresh
 * directory: a complete log replaces the older one, a failed write keeps
 * it and leaves no temporary file, a dangling symlink's target gets the
 * log and the link stays, a second owner of one file is refused (under
 * another spelling too) until the first closes, set_aside moves an older
 * log to .old, discard leaves no temporary file, an instance cut short
 * leaves the next one a part file, and a run that pushed nothing writes
 * none.
 *
 * Usage: log_file_test
 */

#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libavutil/error.h"
#include "libavutil/log.h"

#include "libavfilter/vmaf/engine.h"
#include "libavfilter/vmaf/log_file.h"

#define W 64
#define H 64

static int passed, failed;
static char dir[4096];
static char messages[16384];

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    if (ok)
        passed++;
    else
        failed++;
}

/* The messages of the module, kept to look for its words. */
static void log_callback(void *avcl, int level, const char *fmt, va_list vl)
{
    size_t len = strlen(messages);

    if (level <= AV_LOG_WARNING && len < sizeof(messages) - 1)
        vsnprintf(messages + len, sizeof(messages) - len, fmt, vl);
}

static const char *in_dir(const char *name)
{
    static char buf[4][4400];
    static int next;
    char *p = buf[next++ % 4];

    snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
    return p;
}

static int put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;

    if (f && fclose(f))
        ok = 0;
    return ok ? 0 : -1;
}

/* The first bytes of a file, "" when it cannot be read. */
static const char *head(const char *path)
{
    static char buf[64];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

    buf[n] = 0;
    if (f)
        fclose(f);
    return buf;
}

/* How many names of the directory hold s ("tmp-": temporary files). */
static int count_names(const char *s)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    while (d && (de = readdir(d)))
        n += de->d_name[0] != '.' && strstr(de->d_name, s) != NULL;
    if (d)
        closedir(d);
    return n;
}

/* Empty the directory between cases. */
static void clear_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *de;

    while (d && (de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            remove(in_dir(de->d_name));
    if (d)
        closedir(d);
    messages[0] = 0;
}

static int write_xml(FFVmafLogFile *lf, const FFVmafEngine *e, int stream_ended)
{
    return ff_vmaf_log_file_write(lf, e, FF_VMAF_LOG_XML, 25.0, NULL, NULL, stream_ended);
}

/* psnr of two frames of 64x64 4:2:0, enough for a log. */
static int make_engine(FFVmafEngine **e, int nb_frames)
{
    static uint8_t ref[W * H * 3 / 2], dis[W * H * 3 / 2];
    FFVmafGeometry geo = { W, H, 8, 1, 1 };
    int ret;

    for (int i = 0; i < W * H * 3 / 2; i++) {
        ref[i] = i * 7 % 251;
        dis[i] = ref[i] ^ (i % 3);
    }
    if ((ret = ff_vmaf_engine_alloc(e, NULL)) < 0 ||
        (ret = ff_vmaf_engine_parse_models(*e, "")) < 0 ||
        (ret = ff_vmaf_engine_parse_features(*e, "name=psnr")) < 0 ||
        (ret = ff_vmaf_engine_configure(*e, &geo, 1, 1)) < 0)
        return ret;
    for (int n = 0; n < nb_frames; n++) {
        FFVmafPicture pr = { { ref, ref + W * H, ref + W * H * 5 / 4 }, { W, W / 2, W / 2 } };
        FFVmafPicture pd = { { dis, dis + W * H, dis + W * H * 5 / 4 }, { W, W / 2, W / 2 } };
        ff_vmaf_picture_set_geometry(&pr, &geo);
        ff_vmaf_picture_set_geometry(&pd, &geo);
        if ((ret = ff_vmaf_engine_push(*e, &pr, &pd)) < 0)
            return ret;
    }
    return ff_vmaf_engine_flush(*e);
}

static void test_replace(const FFVmafEngine *e)
{
    const char *path = in_dir("vmaf.xml");
    FFVmafLogFile *lf = NULL;
    int ret;

    clear_dir();
    put(path, "older log\n");
    ret = ff_vmaf_log_file_open(&lf, path, "first", NULL);
    check(ret >= 0 && count_names("vmaf.xml.tmp-") == 1 && !strcmp(head(path), "older log\n"),
          "open: a temporary file beside log_path, the older log untouched");
    ret = write_xml(lf, e, 1);
    check(ret >= 0 && !strncmp(head(path), "<VMAF version=", 14) && !count_names("tmp-") &&
          !ff_vmaf_log_file_failed(lf),
          "write: the complete log renamed over the older one, no temporary file left");
    ff_vmaf_log_file_close(&lf);
    check(!lf && !strncmp(head(path), "<VMAF version=", 14), "close after write: the log stays");
}

static void test_failed_write(const FFVmafEngine *e)
{
    const char *path = in_dir("vmaf.xml");
    struct rlimit old_lim, lim;
    void (*old_handler)(int);
    FFVmafLogFile *lf = NULL;
    int ret;

    clear_dir();
    put(path, "older log\n");
    if (ff_vmaf_log_file_open(&lf, path, "first", NULL) < 0) {
        check(0, "failed write: open");
        return;
    }
    /* Files limited to a few bytes: the log cannot be written (EFBIG). */
    fflush(stdout);
    getrlimit(RLIMIT_FSIZE, &old_lim);
    lim = old_lim;
    lim.rlim_cur = 16;
    old_handler = signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    ret = write_xml(lf, e, 1);
    setrlimit(RLIMIT_FSIZE, &old_lim);
    signal(SIGXFSZ, old_handler);
    check(ret < 0 && ff_vmaf_log_file_failed(lf) && !strcmp(head(path), "older log\n") &&
          !count_names("tmp-"),
          "a failed write keeps the older log and leaves no temporary file");
    check(strstr(messages, "Error writing the log to '") &&
          strstr(messages, "The previous log_path is kept.") != NULL,
          "a failed write says so, and that the previous log is kept");
    check(write_xml(lf, e, 1) == 0 && !strcmp(head(path), "older log\n"),
          "a write after a failure does nothing");
    ff_vmaf_log_file_close(&lf);
}

static void test_dangling_symlink(const FFVmafEngine *e)
{
    const char *link = in_dir("link.xml"), *target = in_dir("target.xml");
    FFVmafLogFile *lf = NULL;
    struct stat st;
    char buf[64];
    ssize_t len;
    int ret;

    clear_dir();
    /* Relative: to the link's directory, not the process's. */
    if (symlink("target.xml", link)) {
        check(0, "dangling symlink: cannot create one");
        return;
    }
    ret = ff_vmaf_log_file_open(&lf, link, "first", NULL);
    if (ret >= 0)
        ret = write_xml(lf, e, 1);
    ff_vmaf_log_file_close(&lf);
    len = readlink(link, buf, sizeof(buf) - 1);
    if (len >= 0)
        buf[len] = 0;
    check(ret >= 0 && !strncmp(head(target), "<VMAF version=", 14) &&
          !lstat(link, &st) && S_ISLNK(st.st_mode) && len > 0 && !strcmp(buf, "target.xml") &&
          !count_names("tmp-"),
          "a dangling symlink's target gets the log, the link stays");
}

static void test_two_owners(void)
{
    const char *path = in_dir("vmaf.xml");
    FFVmafLogFile *a = NULL, *b = NULL, *c = NULL, *n1 = NULL, *n2 = NULL;
    char other[4400];
    int ret;

    clear_dir();
    snprintf(other, sizeof(other), "%s/./vmaf.xml", dir);
    ret = ff_vmaf_log_file_open(&a, path, "first", NULL);
    check(ret >= 0 && a, "the first owner of a file is accepted");
    ret = ff_vmaf_log_file_open(&b, other, "second", NULL);
    check(ret == AVERROR(EINVAL) && !b && count_names("tmp-") == 1,
          "a second owner of the file, spelled another way, is refused and leaves no file");
    check(strstr(messages, "first and second both write their log to '") &&
          strstr(messages, "Give each instance its own log_path.") != NULL,
          "the refusal names both owners");
    ff_vmaf_log_file_close(&a);
    ret = ff_vmaf_log_file_open(&c, other, "third", NULL);
    check(ret >= 0 && c, "once the first owner closes, the file is free again");
    ff_vmaf_log_file_close(&c);
    check(!count_names("tmp-"), "closing without a write leaves no temporary file");

    /* Devices keep nothing to protect: not counted. */
    ret = ff_vmaf_log_file_open(&n1, "/dev/null", "first", NULL);
    if (ret >= 0)
        ret = ff_vmaf_log_file_open(&n2, "/dev/null", "second", NULL);
    check(ret >= 0 && n1 && n2, "/dev/null twice is accepted");
    ff_vmaf_log_file_close(&n1);
    ff_vmaf_log_file_close(&n2);
}

static void test_set_aside(void)
{
    const char *path = in_dir("vmaf.xml"), *old = in_dir("vmaf.xml.old");
    FFVmafLogFile *lf = NULL;
    struct stat st;

    clear_dir();
    put(path, "older log\n");
    if (ff_vmaf_log_file_open(&lf, path, "first", NULL) < 0) {
        check(0, "set_aside: open");
        return;
    }
    ff_vmaf_log_file_set_aside(lf);
    check(stat(path, &st) && !strcmp(head(old), "older log\n") && !count_names("tmp-"),
          "set_aside moves the older log to .old and leaves no temporary file");
    check(strstr(messages, "held an earlier run's log: it was moved to '") != NULL,
          "set_aside says where the older log went");
    ff_vmaf_log_file_close(&lf);
}

static void test_discard(const FFVmafEngine *e)
{
    const char *path = in_dir("vmaf.xml");
    FFVmafLogFile *lf = NULL;
    struct stat st;

    clear_dir();
    if (ff_vmaf_log_file_open(&lf, path, "first", NULL) < 0) {
        check(0, "discard: open");
        return;
    }
    ff_vmaf_log_file_discard(lf);
    check(!count_names("tmp-") && stat(path, &st), "discard leaves no temporary file and no log");
    check(write_xml(lf, e, 1) == 0 && stat(path, &st), "a write after discard does nothing");
    ff_vmaf_log_file_close(&lf);
    ff_vmaf_log_file_close(&lf);
    check(!lf, "close twice is harmless");
}

static void test_nothing_pushed(const FFVmafEngine *empty)
{
    const char *path = in_dir("vmaf.xml");
    FFVmafLogFile *lf = NULL;
    struct stat st;
    int ret;

    clear_dir();
    put(path, "older log\n");
    ret = ff_vmaf_log_file_open(&lf, path, "first", NULL);
    if (ret >= 0)
        ret = write_xml(lf, empty, 1);
    ff_vmaf_log_file_close(&lf);
    check(ret == 0 && !strcmp(head(path), "older log\n") && !count_names("tmp-") &&
          !stat(path, &st), "no frame pushed: no log written, the older one kept");
}

static void test_parts(const FFVmafEngine *e)
{
    const char *path = in_dir("vmaf.xml"), *part2 = in_dir("vmaf.part2.xml");
    FFVmafLogFile *lf = NULL;
    struct stat st;
    int ret;

    clear_dir();
    /* An instance cut short, then the next one reaching the end. */
    ret = ff_vmaf_log_file_open(&lf, path, "first", NULL);
    if (ret >= 0)
        ret = write_xml(lf, e, 0);
    ff_vmaf_log_file_close(&lf);
    if (ret >= 0)
        ret = ff_vmaf_log_file_open(&lf, path, "second", NULL);
    if (ret >= 0)
        ret = write_xml(lf, e, 1);
    ff_vmaf_log_file_close(&lf);
    check(ret >= 0 && !strncmp(head(path), "<VMAF version=", 14) &&
          !strncmp(head(part2), "<VMAF version=", 14) && !count_names("tmp-") &&
          strstr(messages, "writing this part's log to '") != NULL,
          "after an instance cut short, the next one writes a part file and says so");

    /* That one saw the end of its stream: the next run starts over. */
    remove(part2);
    ret = ff_vmaf_log_file_open(&lf, path, "third", NULL);
    if (ret >= 0)
        ret = write_xml(lf, e, 1);
    ff_vmaf_log_file_close(&lf);
    check(ret >= 0 && stat(part2, &st) && !strncmp(head(path), "<VMAF version=", 14),
          "an instance that saw the end of its stream ends the series of parts");
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    FFVmafEngine *e = NULL, *empty = NULL;
    char templ[4096], *real;
    int ret;

    av_log_set_callback(log_callback);
    snprintf(templ, sizeof(templ), "%s/log_file_test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    /* By its canonical name, as the module names an existing log. */
    if (!mkdtemp(templ) || !(real = realpath(templ, NULL))) {
        printf("FAIL cannot create a directory from %s\n", templ);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    snprintf(dir, sizeof(dir), "%s", real);
    free(real);

    if ((ret = make_engine(&e, 2)) < 0 || (ret = make_engine(&empty, 0)) < 0) {
        printf("FAIL engine: %s\n", av_err2str(ret));
        failed++;
        goto end;
    }

    check(ff_vmaf_log_file_check_path("", NULL) == AVERROR(EINVAL) &&
          strstr(messages, "log_path is empty") &&
          ff_vmaf_log_file_check_path(NULL, NULL) == 0 &&
          ff_vmaf_log_file_check_path("vmaf.xml", NULL) == 0,
          "an empty log_path is refused, no log_path or a name accepted");
    test_replace(e);
    test_failed_write(e);
    test_dangling_symlink(e);
    test_two_owners();
    test_set_aside();
    test_discard(e);
    test_nothing_pushed(empty);
    test_parts(e);

end:
    clear_dir();
    rmdir(dir);
    ff_vmaf_engine_free(&e);
    ff_vmaf_engine_free(&empty);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
