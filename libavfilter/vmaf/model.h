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
 * VMAF models: loading libvmaf's model JSON files (single nu-SVR models and
 * bootstrap collections), the features they need, and the per-frame score.
 *
 * Typical use:
 *   ff_vmaf_model_open(&m, "version=vmaf_v0.6.1:name=vmaf", log_ctx);
 *   for each input j: instantiate ff_vmaf_model_input(m, j)->extractor
 *       with its opts, and read its value under
 *       ff_vmaf_feature_key(instance, ff_vmaf_model_input(m, j)->feature);
 *   per frame: ff_vmaf_model_predict(m, inputs, nb, outputs) and store
 *       outputs[k] under ff_vmaf_model_output_key(m, k).
 */

#ifndef AVFILTER_VMAF_MODEL_H
#define AVFILTER_VMAF_MODEL_H

#include <stddef.h>

typedef struct FFVmafModel FFVmafModel;

/** Model version used when a description names neither version nor path. */
#define FF_VMAF_MODEL_DEFAULT_VERSION "vmaf_v0.6.1"

typedef struct FFVmafModelConfig {
    /** Output key; NULL means "vmaf". Collections add "<name>_0001", ... */
    const char *name;
    /** Ignore the model's score_clip (every member of a collection). */
    int disable_clip;
    /** Apply score_transform even without "enabled": true in the file. */
    int enable_transform;
} FFVmafModelConfig;

/** One input value of the model, as an extractor instance computes it. */
typedef struct FFVmafModelInput {
    /** libvmaf's internal name, e.g. "VMAF_integer_feature_adm2_score". */
    const char *feature;
    /** The extractor computing it, e.g. "adm", "float_vif", "cambi". */
    const char *extractor;
    /**
     * Options to instantiate the extractor with, as ff_vmaf_feature_alloc()
     * takes them ("adm_enhn_gain_limit=1.0:adm_csf_mode=2"), or "".
     */
    const char *opts;
} FFVmafModelInput;

/**
 * Load a model from JSON text.
 *
 * @param origin  names the text in error messages ("'/path/x.json'")
 * @param cfg     NULL for the defaults
 * @return 0, AVERROR_INVALIDDATA for a malformed or unsupported model
 *         (logged with what is wrong and where), AVERROR(ENOMEM)
 */
int ff_vmaf_model_load_buffer(FFVmafModel **m, const char *json, size_t len,
                              const FFVmafModelConfig *cfg,
                              const char *origin, void *log_ctx);

/** Load a model file; a missing or unreadable file is logged by name. */
int ff_vmaf_model_load_file(FFVmafModel **m, const char *path,
                            const FFVmafModelConfig *cfg, void *log_ctx);

/**
 * Load a built-in model by its exact version name; an unknown name is
 * AVERROR(EINVAL), logged with the list of built-in versions.
 */
int ff_vmaf_model_load_builtin(FFVmafModel **m, const char *version,
                               const FFVmafModelConfig *cfg, void *log_ctx);

/**
 * Load a model from one entry of the "model" option of FFmpeg's libvmaf
 * filter: ':'-separated key=value pairs, keys version, path, name,
 * enable_transform, disable_clip (a bare flag means true) and
 * <extractor>.<option> overrides such as adm.adm_enhn_gain_limit=1.0.
 * Neither version nor path means FF_VMAF_MODEL_DEFAULT_VERSION.
 */
int ff_vmaf_model_open(FFVmafModel **m, const char *desc, void *log_ctx);

/**
 * Log that the model of entry desc (as given to ff_vmaf_model_open()) could
 * not be loaded, in the words of FFmpeg's libvmaf filter ("could not load
 * libvmaf model with version: ..."): once per failed entry, after the
 * messages that say why.
 */
void ff_vmaf_model_log_not_loaded(const char *desc, void *log_ctx);

/**
 * Set option opt=value on every input computed by extractor (libvmaf's
 * model feature overload); it replaces a value the model file gave.
 * @return the number of inputs changed (0: the model does not use that
 *         extractor), or a negative AVERROR
 */
int ff_vmaf_model_set_feature_option(FFVmafModel *m, const char *extractor,
                                     const char *opt, const char *value);

void ff_vmaf_model_free(FFVmafModel **m);

/** The configured name, the key of the main output. */
const char *ff_vmaf_model_name(const FFVmafModel *m);

int ff_vmaf_model_nb_inputs(const FFVmafModel *m);
const FFVmafModelInput *ff_vmaf_model_input(const FFVmafModel *m, int j);

/**
 * Outputs per frame: 1 for a single model; for a bootstrap collection of
 * members "0".."K": name, name_0001 .. name_K (%04d), name_bagging,
 * name_stddev, name_ci_p95_lo, name_ci_p95_hi.
 */
int ff_vmaf_model_nb_outputs(const FFVmafModel *m);
const char *ff_vmaf_model_output_key(const FFVmafModel *m, int k);

/**
 * Score one frame. inputs[j] is the value of ff_vmaf_model_input(m, j);
 * outputs receives ff_vmaf_model_nb_outputs() values. Thread-safe: the
 * model is only read.
 */
int ff_vmaf_model_predict(const FFVmafModel *m, const double *inputs,
                          int nb_inputs, double *outputs);

/** Log the model's kind, inputs and outputs at the given level. */
void ff_vmaf_model_describe(const FFVmafModel *m, void *log_ctx, int level);

/**
 * The embedded file of a built-in version.
 * @return 0, or AVERROR(ENOENT) when there is no such version
 */
int ff_vmaf_model_builtin(const char *version, const char **json,
                          size_t *len);

/** Version name of the i-th built-in model; NULL past the last. */
const char *ff_vmaf_model_builtin_version(int i);

/** Write "vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, ..." for error messages. */
void ff_vmaf_model_builtin_list(char *buf, size_t size);

#endif /* AVFILTER_VMAF_MODEL_H */
