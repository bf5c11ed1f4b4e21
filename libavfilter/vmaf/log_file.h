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
 * The log file's lifecycle, from the path given to the log in place.
 *
 * The log is written into a temporary file beside the path and renamed
 * over it once complete, so a run that fails or is killed keeps the
 * previous log; devices and pipes are written directly. A symlink's
 * target gets the log and the links stay. Two open logs of one process
 * may not name one file; an instance cut short by a graph re-creation
 * leaves its log to the next one's "part" files; while a log is open,
 * SIGHUP ends the run as SIGTERM does, so the log is written.
 *
 * The functions after open take NULL (no log_path) and then do nothing.
 */

#ifndef AVFILTER_VMAF_LOG_FILE_H
#define AVFILTER_VMAF_LOG_FILE_H

#include "engine.h"
#include "output.h"
#include "pairing.h"

typedef struct FFVmafLogFile FFVmafLogFile;

/**
 * An empty path is refused with a message, before anything else is done
 * (it would fail only once the stream is scored).
 */
int ff_vmaf_log_file_check_path(const char *path, void *log_ctx);

/**
 * Create the log's temporary file beside path (or open a device or pipe
 * there), so that an unwritable path fails before any frame. owner_name
 * (not NULL) names the instance in the message refusing a second owner of
 * the file.
 * On failure the reason is logged and nothing is left behind.
 */
int ff_vmaf_log_file_open(FFVmafLogFile **lf, const char *path,
                          const char *owner_name, void *log_ctx);

/**
 * Write e's log and put it in place. stream_ended is 0 for an instance cut
 * short (uninit before the end of its stream): a later instance then
 * writes its log beside this one, as a part. Nothing pushed: no log, the
 * temporary file removed. A failure keeps the previous log and is
 * returned; later calls do nothing.
 */
int ff_vmaf_log_file_write(FFVmafLogFile *lf, const FFVmafEngine *e,
                           enum FFVmafLogFormat fmt, double fps,
                           const char *pairing_mode,
                           const FFVmafPairingStats *pairing, int stream_ended);

/** Give the log up: the temporary file is removed, the previous log stays. */
void ff_vmaf_log_file_discard(FFVmafLogFile *lf);

/**
 * Give the log up after a run that scored nothing, and move an older log
 * at the path to path.old, so that it is not taken for this run's result.
 */
void ff_vmaf_log_file_set_aside(FFVmafLogFile *lf);

/** Whether writing the log or putting it in place failed. */
int ff_vmaf_log_file_failed(const FFVmafLogFile *lf);

/** Discard what was not written, release the file and free *lf. */
void ff_vmaf_log_file_close(FFVmafLogFile **lf);

#endif /* AVFILTER_VMAF_LOG_FILE_H */
