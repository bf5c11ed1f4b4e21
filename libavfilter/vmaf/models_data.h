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
 * The built-in model files, embedded verbatim by tools/embed-models.sh
 * (which generates models_data.c from the .json files of models/ at build
 * time).
 */

#ifndef AVFILTER_VMAF_MODELS_DATA_H
#define AVFILTER_VMAF_MODELS_DATA_H

#include <stddef.h>

typedef struct FFVmafBuiltinModel {
    const char *version;        ///< the file name without ".json"
    const unsigned char *json;  ///< the file's bytes, followed by a 0 byte
    size_t len;                 ///< the file's size, without that 0
} FFVmafBuiltinModel;

/** Sorted by version (C locale), terminated by an entry with version NULL. */
extern const FFVmafBuiltinModel ff_vmaf_builtin_models[];

#endif /* AVFILTER_VMAF_MODELS_DATA_H */
