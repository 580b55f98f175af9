/* version: which build this is, for `warpscope --version`. The values are written at build time
 * by app/version.cmake into the build folder's generated/ws_version.c: the project's version
 * (CMakeLists.txt), the commit (`git describe --always --dirty`, "unknown" outside git) and
 * whether CUDA is in the build. */
#ifndef WARPSCOPE_VERSION_H
#define WARPSCOPE_VERSION_H

extern const char ws_version[];      /* "0.9.0" */
extern const char ws_commit[];       /* "0047197-dirty", or "unknown" */
extern const int ws_cuda;            /* 1 when the build has the CUDA parts */
extern const char ws_cuda_version[]; /* nvcc's version, "" without CUDA */
extern const char ws_cuda_archs[];   /* CMAKE_CUDA_ARCHITECTURES, "" without CUDA */

#endif
