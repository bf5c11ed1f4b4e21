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


/**
 * @file
 * The log file's lifecycle: a temporary file beside log_path renamed over
 * it once complete, the files this process writes, the parts of a stream
 * cut by graph re-creations, and SIGHUP while a log is open.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"

#if HAVE_DIRENT_H
#include <dirent.h>
#endif
#if HAVE_UNISTD_H
#include <unistd.h>
#endif

#include "libavutil/avstring.h"
#include "libavutil/error.h"
#include "libavutil/file_open.h"
#include "libavutil/log.h"
#include "libavutil/macros.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"

#include "log_file.h"

struct FFVmafLogFile {
    void *log_ctx;
    char *path;                 ///< log_path as given, as the messages name it
    char *final;                ///< path, or the file its symlinks name
    /* NULL when final is written directly (a device, a pipe). */
    char *tmp;
    /* A device, a pipe or a file descriptor's name (/dev/stdout): opened
     * only to write the log, at the end, as libvmaf opens it. ffmpeg
     * initializes a filter once more than it runs it, and opening a named
     * pipe at init would end its reader's input before the log. */
    int direct;
    FILE *file;
    int done;                   ///< written, or given up
    int failed;                 ///< the log could not be written
    int holds_sighup;           ///< counted in hup_users

    /* In the list of files this process writes (log_files). */
    FFVmafLogFile *next;
    int registered;
    char *owner;
    char *abs_path;
    int has_inode;
    dev_t dev;
    ino_t ino;
};

/*
 * Logs written in this process by instances of the filter that did not see
 * the end of their stream: ffmpeg re-creates the filter graph when an
 * input's resolution changes, without an end of stream for the old one,
 * and the new instance must not replace the log of the frames before.
 */
static AVMutex cut_logs_lock = AV_MUTEX_INITIALIZER;
static struct {
    char *path;
    int parts;
} cut_logs[32];

/*
 * The part of the stream a log of path holds: 1, or 2, 3... after parts
 * written by instances cut short. An instance that saw the end of its
 * stream ends the series: a later graph scores another stream.
 */
static int claim_log_part(const char *path, int stream_ended)
{
    int part = 1, i, n;

    ff_mutex_lock(&cut_logs_lock);
    for (n = 0; n < FF_ARRAY_ELEMS(cut_logs) && cut_logs[n].path; n++)
        ;
    for (i = 0; i < n; i++)
        if (!strcmp(cut_logs[i].path, path))
            break;
    if (i < n)
        part = cut_logs[i].parts + 1;
    if (stream_ended && i < n) {
        av_freep(&cut_logs[i].path);
        cut_logs[i] = cut_logs[n - 1];
        cut_logs[n - 1].path = NULL;
    } else if (!stream_ended && i < FF_ARRAY_ELEMS(cut_logs)) {
        if (i == n)
            cut_logs[i].path = av_strdup(path);
        cut_logs[i].parts = part;
    }
    ff_mutex_unlock(&cut_logs_lock);
    return part;
}

/* "dir/vmaf.json" -> "dir/vmaf.part2.json" */
static char *log_part_name(const char *path, int part)
{
    const char *base = strrchr(path, '/'), *dot;

    base = base ? base + 1 : path;
    dot  = strrchr(base, '.');
    if (!dot || dot == base)
        return av_asprintf("%s.part%d", path, part);
    return av_asprintf("%.*s.part%d%s", (int)(dot - path), path, part, dot);
}

/*
 * Whether this process has the file st describes open. When ffmpeg
 * configures the graph that scores them, its inputs are open: a log_path
 * naming one would replace it. Only where /proc/self/fd lists the open
 * files (Linux); elsewhere the temporary file at least keeps the input
 * intact until it has been read.
 */
static int is_open_in_process(const struct stat *st)
{
    int found = 0;
#if HAVE_DIRENT_H
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *de;

    if (!dir)
        return 0;
    while (!found && (de = readdir(dir))) {
        char fd_path[300];
        struct stat fd_st;
        if (de->d_name[0] == '.')
            continue;
        snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%s", de->d_name);
        found = !stat(fd_path, &fd_st) && fd_st.st_dev == st->st_dev &&
                fd_st.st_ino == st->st_ino;
    }
    closedir(dir);
#endif
    return found;
}

#define MAX_LINK_DEPTH 40

/*
 * Where the chain of symlinks that starts at path ends, the file there
 * existing or not (realpath() fails on a dangling link): the log goes
 * there and the links stay, as with libvmaf's fopen(), where a rename
 * over path would replace the first link. A relative target is relative
 * to its link's directory. *target is NULL when path is no symlink.
 */
static int follow_log_links(const char *path, char **target)
{
    *target = NULL;
#if HAVE_LSTAT && HAVE_UNISTD_H
    for (int depth = 0;; depth++) {
        const char *link = *target ? *target : path, *slash = strrchr(link, '/');
        char buf[4096], *next;
        struct stat st;
        ssize_t len;

        if (lstat(link, &st) || !S_ISLNK(st.st_mode))
            return 0;
        if (depth == MAX_LINK_DEPTH) {
            av_freep(target);
            return AVERROR(ELOOP);
        }
        if ((len = readlink(link, buf, sizeof(buf))) < 0 || len >= (ssize_t)sizeof(buf)) {
            int err = len < 0 ? errno : ENAMETOOLONG;
            av_freep(target);
            return AVERROR(err);
        }
        buf[len] = 0;
        next = buf[0] == '/' || !slash ? av_strdup(buf)
             : av_asprintf("%.*s/%s", (int)(slash - link), link, buf);
        av_free(*target);
        if (!(*target = next))
            return AVERROR(ENOMEM);
    }
#else
    return 0;
#endif
}

/*
 * The absolute name of path, which may not exist yet (its directory then
 * resolved); path itself where it cannot be resolved.
 */
static char *absolute_log_path(const char *path)
{
#if HAVE_LSTAT && HAVE_UNISTD_H
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char *real = realpath(path, NULL), *dir, *ret;

    if (!real) {
        dir  = slash ? av_strndup(path, slash - path + 1) : av_strdup(".");
        real = dir ? realpath(dir, NULL) : NULL;
        av_free(dir);
        if (!real)
            return av_strdup(path);
        ret = av_asprintf("%s%s%s", real, real[strlen(real) - 1] == '/' ? "" : "/", base);
    } else {
        ret = av_strdup(real);
    }
    free(real);
    return ret;
#else
    return av_strdup(path);
#endif
}

/*
 * The log files the instances of the filter in this process write. Two
 * instances writing one file would each replace the other's log, the one
 * that ends last winning: the second is refused at init. A file is known
 * by its absolute name and, where it exists, by its device and inode
 * (another spelling, a hard link). Devices and pipes are not counted
 * (log_path=/dev/null twice is fine). ffmpeg frees a graph before it
 * creates the one that replaces it (an input's resolution changed), so
 * the new instance finds the file free.
 */
static AVMutex log_files_lock = AV_MUTEX_INITIALIZER;
static FFVmafLogFile *log_files;

static int claim_log_file(FFVmafLogFile *lf, const char *owner_name)
{
    FFVmafLogFile *o;
    struct stat st;

    lf->owner    = av_strdup(owner_name);
    lf->abs_path = absolute_log_path(lf->final);
    if (!lf->owner || !lf->abs_path)
        return AVERROR(ENOMEM);
    if (!stat(lf->final, &st)) {
        lf->has_inode = 1;
        lf->dev = st.st_dev;
        lf->ino = st.st_ino;
    }

    ff_mutex_lock(&log_files_lock);
    for (o = log_files; o; o = o->next)
        if (!strcmp(o->abs_path, lf->abs_path) ||
            (o->has_inode && lf->has_inode && o->dev == lf->dev && o->ino == lf->ino))
            break;
    if (o) {
        av_log(lf->log_ctx, AV_LOG_ERROR, "%s and %s both write their log to '%s' (log_path "
               "'%s'): the log of the one that ends last would replace the other's. Give each "
               "instance its own log_path.\n", o->owner, lf->owner, o->abs_path, lf->path);
    } else {
        lf->next       = log_files;
        log_files      = lf;
        lf->registered = 1;
    }
    ff_mutex_unlock(&log_files_lock);

    return o ? AVERROR(EINVAL) : 0;
}

static void release_log_file(FFVmafLogFile *lf)
{
    FFVmafLogFile **p;

    if (!lf->registered)
        return;
    ff_mutex_lock(&log_files_lock);
    for (p = &log_files; *p; p = &(*p)->next) {
        if (*p == lf) {
            *p = lf->next;
            break;
        }
    }
    ff_mutex_unlock(&log_files_lock);
    lf->registered = 0;
}

#if HAVE_SIGACTION
/*
 * SIGHUP (the terminal or the ssh session closed) kills the process where
 * its action is the default, and ffmpeg handles SIGINT and SIGTERM (it
 * ends the run, and uninit writes the log) but not SIGHUP: the run left
 * no log, only an empty temporary file. A filter cannot end the run
 * itself, so while an instance with a log lives, SIGHUP raises SIGTERM,
 * and ffmpeg's handler ends the run as for SIGTERM (a program that does
 * not handle SIGTERM ends as SIGHUP would have ended it). An action
 * someone else chose (SIG_IGN under nohup, a handler) is kept, and the
 * default comes back with the last instance if ours is still there.
 */
static AVMutex hup_lock = AV_MUTEX_INITIALIZER;
static int hup_users;
static int hup_installed;

static void sighup_to_sigterm(int sig)
{
    raise(SIGTERM);
}
#endif

static void hold_sighup(FFVmafLogFile *lf)
{
#if HAVE_SIGACTION
    struct sigaction old, sa = { 0 };

    ff_mutex_lock(&hup_lock);
    if (!hup_users++ && !sigaction(SIGHUP, NULL, &old) &&
        !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
        sa.sa_handler = sighup_to_sigterm;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags   = SA_RESTART;
        hup_installed = !sigaction(SIGHUP, &sa, NULL);
    }
    ff_mutex_unlock(&hup_lock);
    lf->holds_sighup = 1;
#endif
}

static void release_sighup(FFVmafLogFile *lf)
{
#if HAVE_SIGACTION
    struct sigaction cur, dfl = { 0 };

    if (!lf->holds_sighup)
        return;
    lf->holds_sighup = 0;
    ff_mutex_lock(&hup_lock);
    if (!--hup_users && hup_installed) {
        if (!sigaction(SIGHUP, NULL, &cur) && !(cur.sa_flags & SA_SIGINFO) &&
            cur.sa_handler == sighup_to_sigterm) {
            dfl.sa_handler = SIG_DFL;
            sigemptyset(&dfl.sa_mask);
            sigaction(SIGHUP, &dfl, NULL);
        }
        hup_installed = 0;
    }
    ff_mutex_unlock(&hup_lock);
#endif
}

int ff_vmaf_log_file_check_path(const char *path, void *log_ctx)
{
    if (path && !*path) {
        av_log(log_ctx, AV_LOG_ERROR, "log_path is empty: give a file name, or leave log_path "
               "out to write no log.\n");
        return AVERROR(EINVAL);
    }
    return 0;
}

/* log_path cannot be written (err): say so, and return err. */
static int cannot_open(FFVmafLogFile *lf, int err)
{
    av_log(lf->log_ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: %s.\n",
           lf->path, av_err2str(err));
    return err;
}

/* Whether path names an open file by its descriptor, not by a path. */
static int names_descriptor(const char *path)
{
    return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
           av_strstart(path, "/dev/fd/", NULL) || av_strstart(path, "/proc/", NULL);
}

/*
 * Create the log's temporary file beside the path, so that an unwritable
 * path fails before any frame, and the path itself is only replaced once
 * the log is complete.
 */
static int create_log(FFVmafLogFile *lf)
{
    struct stat st;
    int fd = -1, pid = 0, ret;

    /* A device, a pipe (by its name or a symlink's: stat() follows them),
     * or a name of an open file (/dev/stdout, whose links end in
     * "pipe:[...]" where it is a pipe): written directly,
     * once the log is complete. Checked here so that an unwritable one
     * fails before any frame. */
    if (!stat(lf->path, &st) && !S_ISDIR(st.st_mode) &&
        (!S_ISREG(st.st_mode) || names_descriptor(lf->path))) {
        if (!(lf->final = av_strdup(lf->path)))
            return AVERROR(ENOMEM);
#if HAVE_UNISTD_H
        if (access(lf->path, W_OK))
            return cannot_open(lf, AVERROR(errno));
#endif
        lf->direct = 1;
        return 0;
    }
    /* The target of a symlink gets the log, as it did when the path was
     * opened for writing; the links stay. */
    if ((ret = follow_log_links(lf->path, &lf->final)) < 0)
        return cannot_open(lf, ret);
#if HAVE_LSTAT && HAVE_UNISTD_H
    /* An existing target by its canonical name, as the messages give it. */
    if (lf->final) {
        char *real = realpath(lf->final, NULL);
        if (real) {
            av_free(lf->final);
            lf->final = av_strdup(real);
            free(real);
            if (!lf->final)
                return AVERROR(ENOMEM);
        }
    }
#endif
    if (!lf->final && !(lf->final = av_strdup(lf->path)))
        return AVERROR(ENOMEM);

    if (!stat(lf->final, &st)) {
        if (S_ISDIR(st.st_mode)) {
            av_log(lf->log_ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: it is a "
                   "directory.\n", lf->path);
            return AVERROR(EISDIR);
        }
        if (is_open_in_process(&st)) {
            av_log(lf->log_ctx, AV_LOG_ERROR, "log_path '%s' is a file this process has open "
                   "(one of the inputs?): the log would replace it. Choose another log_path.\n",
                   lf->path);
            return AVERROR(EINVAL);
        }
    }

#if HAVE_UNISTD_H
    pid = getpid();
#endif
    /* O_EXCL: never write into a file someone else is writing (another
     * instance of the filter, a left-over of a killed run). */
    for (int n = 0; n < 100 && fd < 0; n++) {
        av_freep(&lf->tmp);
        lf->tmp = n ? av_asprintf("%s.tmp-%d-%d", lf->final, pid, n)
                    : av_asprintf("%s.tmp-%d", lf->final, pid);
        if (!lf->tmp)
            return AVERROR(ENOMEM);
        fd = avpriv_open(lf->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0 || !(lf->file = fdopen(fd, "w"))) {
        ret = AVERROR(errno);
        av_log(lf->log_ctx, AV_LOG_ERROR, "Cannot open log_path '%s' for writing: cannot "
               "create the file '%s' beside it: %s.\n", lf->path, lf->tmp, av_err2str(ret));
        if (fd >= 0) {
            close(fd);
            remove(lf->tmp);
        }
        av_freep(&lf->tmp);
        return ret;
    }
    return 0;
}

int ff_vmaf_log_file_open(FFVmafLogFile **plf, const char *path,
                          const char *owner_name, void *log_ctx)
{
    FFVmafLogFile *lf;
    int ret;

    *plf = NULL;
    if ((ret = ff_vmaf_log_file_check_path(path, log_ctx)) < 0)
        return ret;
    if (!(lf = av_mallocz(sizeof(*lf))))
        return AVERROR(ENOMEM);
    lf->log_ctx = log_ctx;
    if (!(lf->path = av_strdup(path))) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    /* Only a file renamed into place can replace another instance's log. */
    if ((ret = create_log(lf)) < 0 ||
        (lf->tmp && (ret = claim_log_file(lf, owner_name)) < 0))
        goto fail;
    hold_sighup(lf);
    *plf = lf;
    return 0;
fail:
    ff_vmaf_log_file_close(&lf);
    return ret;
}

void ff_vmaf_log_file_discard(FFVmafLogFile *lf)
{
    if (!lf)
        return;
    if (lf->file)
        fclose(lf->file);
    lf->file = NULL;
    if (lf->tmp)
        remove(lf->tmp);
    av_freep(&lf->tmp);
    lf->done = 1;
}

/*
 * A run that scored no pair writes no log, and an older log at log_path
 * must not pass for its result (a script that reads it without looking at
 * the exit status): it is moved aside, and the run says where.
 */
void ff_vmaf_log_file_set_aside(FFVmafLogFile *lf)
{
    struct stat st;
    char *old;

    if (!lf)
        return;
    ff_vmaf_log_file_discard(lf);
    if (lf->direct || !lf->final || stat(lf->final, &st) || !S_ISREG(st.st_mode))
        return;
    if (!(old = av_asprintf("%s.old", lf->final)))
        return;
    if (rename(lf->final, old))
        av_log(lf->log_ctx, AV_LOG_ERROR, "log_path '%s' holds an earlier run's log, which "
               "could not be moved aside to '%s' (%s): it is not this run's result.\n",
               lf->path, old, av_err2str(AVERROR(errno)));
    else
        av_log(lf->log_ctx, AV_LOG_ERROR, "log_path '%s' held an earlier run's log: it was "
               "moved to '%s' so that it is not taken for this run's result; this run wrote "
               "no log.\n", lf->path, old);
    av_free(old);
}

/* Rename the written temporary file over the path, or over its part's name. */
static int put_in_place(FFVmafLogFile *lf, int stream_ended)
{
    char *dst = NULL;
    int part, ret = 0;

    if ((part = claim_log_part(lf->final, stream_ended)) > 1) {
        if (!(dst = log_part_name(lf->final, part))) {
            ff_vmaf_log_file_discard(lf);
            return AVERROR(ENOMEM);
        }
        av_log(lf->log_ctx, AV_LOG_WARNING, "An earlier instance of this filter wrote log_path "
               "'%s' without reaching the end of its stream: ffmpeg re-created the filter graph "
               "(an input's resolution changed, say), so "
               "this instance scored only the frames from there on; writing this part's log "
               "to '%s' to keep the earlier one. For one log of the whole stream, give the "
               "filter one size (a scale filter before it) and add -reinit_filter 0 before "
               "the input.\n", lf->final, dst);
    }
    if (rename(lf->tmp, dst ? dst : lf->final)) {
        ret = AVERROR(errno);
        av_log(lf->log_ctx, AV_LOG_ERROR, "Cannot put the log in place: renaming '%s' to '%s' "
               "failed: %s.\n", lf->tmp, dst ? dst : lf->final, av_err2str(ret));
        ff_vmaf_log_file_discard(lf);
        lf->failed = 1;
    } else {
        av_freep(&lf->tmp);
    }
    av_free(dst);
    return ret;
}

int ff_vmaf_log_file_write(FFVmafLogFile *lf, const FFVmafEngine *e,
                           enum FFVmafLogFormat fmt, double fps,
                           const char *pairing_mode,
                           const FFVmafPairingStats *pairing, int stream_ended)
{
    int ret;

    if (!lf || (!lf->file && !lf->direct) || lf->done)
        return 0;
    if (!ff_vmaf_engine_nb_pushed(e)) {
        ff_vmaf_log_file_discard(lf);
        return 0;
    }
    lf->done = 1;
    if (lf->direct && !(lf->file = avpriv_fopen_utf8(lf->final, "w"))) {
        lf->failed = 1;
        return cannot_open(lf, AVERROR(errno));
    }
    ret = fmt == FF_VMAF_LOG_CHUNK ?
          ff_vmaf_engine_write_chunk(e, lf->file, fps, pairing_mode, pairing) :
          ff_vmaf_engine_write_log(e, lf->file, fmt, fps, pairing_mode, pairing);
    if (ret >= 0 && fflush(lf->file))
        ret = AVERROR(errno);
#if HAVE_UNISTD_H
    /* On the disk before the rename: a crash then leaves the old log or
     * the new one, never a part. */
    if (ret >= 0 && lf->tmp && fsync(fileno(lf->file)))
        ret = AVERROR(errno);
#endif
    if (fclose(lf->file) && ret >= 0)
        ret = AVERROR(errno);
    lf->file = NULL;
    if (ret < 0) {
        av_log(lf->log_ctx, AV_LOG_ERROR, "Error writing the log to '%s': %s.%s\n",
               lf->tmp ? lf->tmp : lf->final, av_err2str(ret),
               lf->tmp ? " The previous log_path is kept." : "");
        ff_vmaf_log_file_discard(lf);
        lf->failed = 1;
        return ret;
    }
    return lf->tmp ? put_in_place(lf, stream_ended) : 0;
}

int ff_vmaf_log_file_failed(const FFVmafLogFile *lf)
{
    return lf && lf->failed;
}

void ff_vmaf_log_file_close(FFVmafLogFile **plf)
{
    FFVmafLogFile *lf = *plf;

    if (!lf)
        return;
    ff_vmaf_log_file_discard(lf);
    release_log_file(lf);
    release_sighup(lf);
    av_freep(&lf->path);
    av_freep(&lf->final);
    av_freep(&lf->owner);
    av_freep(&lf->abs_path);
    av_freep(plf);
}
