/* capture_key: see capture.h. Alone in its file because the page, which links no emulator, finds
 * its bundled traces by it too. */
#include "trace/capture/capture.h"

#include <stdio.h>

void capture_key(const capture_desc *d, char *buf, size_t len)
{
    char seed[32] = "-", sched[40] = "lockstep";
    if (d->seed_set || d->seed) snprintf(seed, sizeof seed, "%llu", (unsigned long long)d->seed);
    if (d->schedule && d->schedule[0]) snprintf(sched, sizeof sched, "%s", d->schedule);
    for (char *c = sched; *c; c++) /* a file name: its:1 -> its-1 */
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) *c = '-';
    snprintf(buf, len, "%s_b%u_n%llu_%s_s%s_e%u_t%u_%s_d%u", d->version ? d->version : "-", d->block, (unsigned long long)d->n,
             d->data && d->data[0] ? d->data : "-", seed, d->ept, d->blocks_traced, sched, d->drop_barrier);
}
