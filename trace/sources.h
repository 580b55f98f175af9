/* sources: the kernel files' text, embedded at build time so the viewer can always show them. */
#ifndef WARPSCOPE_SOURCES_H
#define WARPSCOPE_SOURCES_H
/* The text of "kernels/v0.cu" etc., or NULL. */
const char *sources_find(const char *file);
#endif
