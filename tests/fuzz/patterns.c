/* The data patterns the lesson reader checks names against. The fuzz build leaves out the
 * producing library (emulator and kernels), whose capture.c holds this table; keep the two equal
 * (the replay tests link the real one). */
#include <stddef.h>

extern const char *const capture_patterns[];
const char *const capture_patterns[] = {"ones", "ramp", "random-int", "random-float", NULL};
