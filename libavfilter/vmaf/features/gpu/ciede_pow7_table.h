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

#ifndef AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_TABLE_H
#define AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_TABLE_H

#include "ciede_pow7.h"

/**
 * The host's powf(x, 7) against x^7 rounded to nearest, for every argument
 * near a midpoint in every binade of the range: made on the first call
 * (about 0.1 s on one core), kept for the process. AVERROR(ENOSYS) if the host's powf
 * is further off than one float there (then the GPU cannot follow it).
 */
int ff_ciede_powf_table(const FFCiedePowfTable **tab);

#endif /* AVFILTER_VMAF_FEATURES_GPU_CIEDE_POW7_TABLE_H */
