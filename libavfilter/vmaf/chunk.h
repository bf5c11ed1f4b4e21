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
 * The chunk format (log_fmt=chunk): the values of a run's frames [start,
 * end) at full precision, and what a merge of chunks needs to write the
 * log of the whole run byte for byte. The engine writes it
 * (engine_chunk.c); tools/merge reads it.
 *
 * One JSON object (RFC 8259), its members in this order:
 *
 *   "vmaf_hip_chunk": FF_VMAF_CHUNK_VERSION
 *   "version":     the libvmaf release whose numbers these are ("3.2.0")
 *   "model", "feature": the filter's options as given (null when unset):
 *                  chunks of other options do not merge
 *   "n_subsample": n; only frames whose run index is a multiple are held
 *   "width", "height", "bpc", "ss_x", "ss_y": the geometry
 *   "start", "end": the frames of the whole run the chunk holds, [start, end)
 *   "run_frames":  the whole run's number of frames when the chunk saw its
 *                  inputs end (the last chunk: end), else null
 *   "frames_pushed", "fps": frames scored with their context, and how fast
 *   "backends":    where the features ran when a GPU did, else null
 *   "pairing":     null, or {"mode", "pairs", "pairs_off",
 *                  "reference_unused", "distorted_unpaired"}: the pairing's
 *                  counts of these frames (frames left out between two
 *                  pairs count with the later pair; after the last pair,
 *                  with the last chunk)
 *   "keys":        the values' names, internal (the logs' writer aliases
 *                  them), in the order a run from frame 0 creates them
 *   "sums":        per extractor with sequence-level values (aggregates),
 *                  in registration order: {"feature": its name,
 *                  "options": ff_vmaf_feature_options(), "values": the
 *                  integer sums of FFVmafExtractor.get_sums() over the
 *                  chunk's frames}
 *   "frames":      [{"frame": run index, "values": [...]}...], the frames
 *                  that have values, in order; values[k] is that of
 *                  keys[k], a string that strtod() reads back to the same
 *                  double ("%a": "0x1.ec8p-1", "inf", "-nan"), or null
 */

#ifndef AVFILTER_VMAF_CHUNK_H
#define AVFILTER_VMAF_CHUNK_H

/** Changes when a reader of an older format could misread the file. */
#define FF_VMAF_CHUNK_VERSION 1

/** Sums of one extractor, at most. */
#define FF_VMAF_CHUNK_MAX_SUMS 64

#endif /* AVFILTER_VMAF_CHUNK_H */
