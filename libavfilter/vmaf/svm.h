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
 * Support-vector regression as LIBSVM evaluates it: the text model format
 * (as embedded in VMAF model files) and the RBF-kernel prediction, with
 * LIBSVM's summation order so that scores are bit-identical.
 */

#ifndef AVFILTER_VMAF_SVM_H
#define AVFILTER_VMAF_SVM_H

#include <stddef.h>

typedef struct FFVmafSvm FFVmafSvm;

/**
 * Parse a LIBSVM text model (epsilon_svr or nu_svr, rbf kernel).
 *
 * @param nb_features  inputs the caller will pass; a support vector with a
 *                     larger index is rejected
 * @param err          on failure, "line N: <what is wrong>"
 * @return 0, AVERROR_INVALIDDATA or AVERROR(ENOMEM)
 */
int ff_vmaf_svm_parse(FFVmafSvm **svm, const char *text, size_t len,
                      int nb_features, char *err, size_t err_size);

void ff_vmaf_svm_free(FFVmafSvm **svm);

int ff_vmaf_svm_nb_sv(const FFVmafSvm *svm);

/**
 * The regression value sum_i coef_i * K(x, sv_i) - rho for the dense
 * input x[0..nb_features-1] (LIBSVM indices 1..nb_features).
 */
double ff_vmaf_svm_predict(const FFVmafSvm *svm, const double *x);

#endif /* AVFILTER_VMAF_SVM_H */
