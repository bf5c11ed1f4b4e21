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
 * The feature-extractor interface shared by every CPU and GPU extractor.
 *
 * An extractor is a table entry: its name as libvmaf spells it, its options,
 * the per-instance context size and a few callbacks. The engine creates one
 * FFVmafFeature per distinct configuration (libvmaf de-duplicates instances
 * by their key names), feeds it picture pairs and collects the named values
 * it writes. A GPU twin is another FFVmafExtractor with the same name,
 * options and outputs.
 */

#ifndef AVFILTER_VMAF_FEATURE_H
#define AVFILTER_VMAF_FEATURE_H

#include <stddef.h>
#include <stdint.h>

#include "picture.h"

struct FFVmafFeatureCollector;

enum FFVmafOptionType {
    FF_VMAF_OPT_BOOL,   ///< int, written as true/false (1/0 accepted)
    FF_VMAF_OPT_INT,
    FF_VMAF_OPT_DOUBLE,
    FF_VMAF_OPT_STRING, ///< char *, owned by the instance
};

typedef struct FFVmafOption {
    const char *name;
    /** Short name used in key suffixes; NULL means the name itself. */
    const char *alias;
    enum FFVmafOptionType type;
    size_t offset;              ///< into the instance's private context
    double def;                 ///< default for bool, int and double
    const char *def_str;        ///< default for strings
    double min, max;            ///< accepted range for int and double
    /**
     * A feature parameter: a non-default value renames the outputs
     * (libvmaf's suffix rule), and instances with different values coexist.
     */
    int is_param;
} FFVmafOption;

/** Frames must reach extract() in index order (state carried across frames). */
#define FF_VMAF_EXTRACTOR_TEMPORAL (1 << 0)
/** Runs on every frame even when n_subsample skips it. */
#define FF_VMAF_EXTRACTOR_EVERY_FRAME (1 << 1)
/**
 * A GPU twin: extract() queues work on the GPU stream, collect() writes the
 * values once the frame's work has run. Its private context begins with
 * the CPU extractor's, options included, so the two convert both ways.
 */
#define FF_VMAF_EXTRACTOR_GPU (1 << 2)
/** The GPU twin reads the chroma planes too. */
#define FF_VMAF_EXTRACTOR_CHROMA (1 << 3)

/** Stages of FFVmafExtractor.collect_stage(). */
#define FF_VMAF_COLLECT_STAGES 2

struct FFVmafGpu;

typedef struct FFVmafFeature FFVmafFeature;

typedef struct FFVmafExtractor {
    const char *name;           ///< libvmaf's extractor name: "psnr", "vif", ...
    const FFVmafOption *options;///< terminated by an entry with name == NULL
    size_t priv_size;
    unsigned flags;
    /**
     * The outputs the extractor declares, by libvmaf's internal names,
     * NULL-terminated. Only these are renamed by the suffix rule.
     */
    const char *const *provides;
    /**
     * Outputs it may also write, under their own name whatever the options
     * (not declared, so not renamed), NULL-terminated; NULL for none. With
     * provides, every name it can write: names are checked before the
     * first frame, and so are the features a model asks for.
     */
    const char *const *plain_outputs;
    /**
     * How many later frames must be pushed before the values of a frame
     * are final (integer motion2 needs the next frame: 1).
     */
    int frame_delay;
    /**
     * The frames around a frame whose pictures its values depend on,
     * through the state the extractor carries from frame to frame, for the
     * options of instance f (set, before init): *before earlier frames
     * (motion compares a reference frame with the previous one: 1), *after
     * later ones (motion2 needs the next frame's motion: 1). A chunk of a
     * stream scored on its own is fed these frames around its own, so that
     * its values are those of the whole run. NULL: none.
     */
    void (*context)(const FFVmafFeature *f, int *before, int *after);

    /**
     * Called once the stream geometry is known; options are already set.
     * GPU twins: sets up the GPU side only, on a context whose CPU
     * extractor's init has run (at the start of the stream, or in its
     * middle, the CPU extractor's state then that of the frames it
     * scored), and leaves that state as it is, on failure too: the CPU
     * extractor goes on with it when the twin cannot. Host memory a
     * failed init allocated is freed by it.
     */
    int  (*init)(FFVmafFeature *f, const FFVmafGeometry *geo);
    /** Compute frame index from (ref, dis) and write its values. */
    int  (*extract)(FFVmafFeature *f, const FFVmafPicture *ref,
                    const FFVmafPicture *dis, unsigned index,
                    struct FFVmafFeatureCollector *fc);
    /** End of stream: write values still pending. May be NULL. */
    int  (*flush)(FFVmafFeature *f, struct FFVmafFeatureCollector *fc);
    /** Free what init allocated; priv itself is freed by the caller. */
    void (*close)(FFVmafFeature *f);

    /** GPU twins: write the values of frame index, whose work has run. */
    int  (*collect)(FFVmafFeature *f, unsigned index,
                    struct FFVmafFeatureCollector *fc);
    /**
     * GPU twins, optional: the host work of collect() that comes before
     * it, in stages, so that a stage of every twin of a frame runs at once
     * on the ring's threads instead of one twin's after the other's. Stage
     * `stage` (0 to FF_VMAF_COLLECT_STAGES - 1, in order, all before
     * collect()) of frame index: sets *job, run as job(f->priv, j, n) for
     * j < n, and returns n (0: nothing at this stage). collect() must
     * still give the same values when the stages were not run.
     */
    int  (*collect_stage)(FFVmafFeature *f, unsigned index, int stage,
                          void (**job)(void *priv, int j, int nb_jobs));
    /**
     * GPU twins without state across frames: sets of device intermediates
     * the twin keeps, frame index using set index % gpu_sets. Each set gets
     * a lane of its own, so that that many of its frames run at once (for
     * chains of kernels that cannot fill the GPU alone). 0: one.
     */
    int gpu_sets;
    /**
     * GPU twins: turn the instance into its CPU extractor after a GPU
     * failure, so that it can compute frames first..last (still in the
     * GPU ring's host copies) and go on; the engine then calls the CPU
     * extract() for them. NULL when the CPU context is complete already
     * (no state across frames on the GPU; the GPU resources are the
     * ring's, freed with it).
     */
    int  (*to_cpu)(FFVmafFeature *f, unsigned first);
    /**
     * GPU twins with device state across frames, optional: the ring was
     * made in the middle of the stream, after the CPU extractor scored
     * frames up to first - 1, and holds frames first - FF_VMAF_GPU_LOOKBACK
     * to first - 1 again (uploaded, nothing run on them). Queue on the
     * twin's lane (as for frame first - 1) what makes the device state
     * that of a twin that ran frame first - 1, without writing or
     * changing any host state. NULL: the twin's device state needs only
     * the ring's frames.
     */
    int  (*from_cpu)(FFVmafFeature *f, unsigned first);
    /** GPU twins: the CPU extractor of the same name. */
    const struct FFVmafExtractor *cpu;

    /**
     * Extractors with sequence-level values (aggregates, written at flush):
     * the integer sums they are made of, over the frames
     * [sum_first, sum_end) of FFVmafFeature, so that chunks of a stream
     * scored apart merge into the aggregates of the whole run. get_sums()
     * writes up to max of them and returns how many; add_sums() adds
     * another chunk's (nb of them, as get_sums() gave them) before flush().
     * flush() writes only aggregates when no frame was extracted. NULL: no
     * aggregate.
     */
    int  (*get_sums)(const FFVmafFeature *f, uint64_t *sums, int max);
    int  (*add_sums)(FFVmafFeature *f, const uint64_t *sums, int nb);
} FFVmafExtractor;

struct FFVmafFeature {
    const FFVmafExtractor *ex;
    void *priv;                 ///< ex->priv_size bytes, options at their offsets
    /** "" or the suffix of non-default feature parameters, e.g. "_egl_1". */
    char suffix[256];
    /** ex->frame_delay, or less for this configuration (set by init). */
    int frame_delay;
    /**
     * The frames whose values enter the sums behind aggregates
     * (FFVmafExtractor.get_sums): [0, UINT_MAX) but in a chunk of a
     * stream, whose context frames are left out (set by the engine).
     */
    unsigned sum_first, sum_end;
    /** The GPU ring, for GPU twins. */
    struct FFVmafGpu *gpu;
    /** GPU twins: the ring's lane (stream) its kernels are queued on. */
    int gpu_lane;
    void *log_ctx;
    /**
     * Registration order in the engine: the keys it creates are placed by
     * it (ff_vmaf_collector_write_ranked()), so that they keep a
     * single-threaded run's order.
     */
    int rank;
    /**
     * The frame whose extract() (or flush: the number of frames) is
     * running, for the order of the keys it creates; -1: the collector's
     * step (set by the engine for the frame it pushes).
     */
    int64_t step;
    /**
     * The collector's handles of the names written so far: after its first
     * frame, a feature writes its values without building a key or taking
     * a lock.
     */
    struct {
        char name[80];
        int handle;
    } handles[24];
    int nb_handles;
};

/** Look up an extractor by libvmaf's name; NULL if there is none. */
const FFVmafExtractor *ff_vmaf_extractor_find(const char *name);

/** The GPU twin of a CPU extractor; NULL if it has none. */
const FFVmafExtractor *ff_vmaf_gpu_extractor_find(const FFVmafExtractor *cpu);

/** Space-separated list of every extractor name, for error messages. */
const char *ff_vmaf_extractor_names(void);

/**
 * Create an instance with default options, then apply opts, a
 * ':'-separated list of key=value (NULL or "" for none).
 * Unknown options and out-of-range values are errors naming what is accepted.
 */
int ff_vmaf_feature_alloc(FFVmafFeature **f, const FFVmafExtractor *ex,
                          const char *opts, void *log_ctx);

/** Set one option by name; value parsed by the option's type. */
int ff_vmaf_feature_set_option(FFVmafFeature *f, const char *key,
                               const char *value);

/** Recompute f->suffix after options changed. */
void ff_vmaf_feature_update_suffix(FFVmafFeature *f);

/**
 * Every option of f as ff_vmaf_feature_alloc() reads them back, giving an
 * instance with the same values ("name=value:...", doubles in hexadecimal).
 * AVERROR(EINVAL) for a string that holds ':' or '=', AVERROR(ENOSPC) when
 * buf is too small.
 */
int ff_vmaf_feature_options(const FFVmafFeature *f, char *buf, size_t size);

void ff_vmaf_feature_free(FFVmafFeature **f);

/**
 * A new instance of the same extractor with the same options, suffix and
 * rank, not initialised: the engine's per-thread copy of a feature that
 * keeps no state from frame to frame.
 */
int ff_vmaf_feature_clone(FFVmafFeature **dst, const FFVmafFeature *src);

/**
 * The key under which output `name` of instance f is stored: the internal
 * name when f has no suffix, else alias(name) followed by the suffix for
 * declared outputs, and the plain name for undeclared ones.
 */
void ff_vmaf_feature_key(const FFVmafFeature *f, const char *name,
                         char *buf, size_t size);

/** Write one value of frame index under ff_vmaf_feature_key(f, name). */
int ff_vmaf_feature_write(FFVmafFeature *f, struct FFVmafFeatureCollector *fc,
                          const char *name, unsigned index, double value);

/**
 * libvmaf's output alias of an internal name
 * ("VMAF_integer_feature_adm2_score" -> "integer_adm2"); the name itself
 * when it has no alias.
 */
const char *ff_vmaf_feature_alias(const char *name);

#endif /* AVFILTER_VMAF_FEATURE_H */
