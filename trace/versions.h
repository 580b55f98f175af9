/* The versions that have a kernel file, in ladder order: one list for every table that maps an
 * id to compiled code (the emulator entries in trace/ladder.c, the GPU launchers of the bench). */
#ifndef WARPSCOPE_VERSIONS_H
#define WARPSCOPE_VERSIONS_H
#define WS_VERSIONS(X) X(naive) X(naive_race) X(v0) X(v1) X(v2) X(v3) X(v4) X(v4s) X(v4_novolatile) X(v5) X(v6) X(v7) X(v8)
#endif
