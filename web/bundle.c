/* bundle: the page's captures. The page has no emulator (its warps are fibers, which WebAssembly
 * does not have): every capture it shows was made by the desktop program (`warpscope web`) and
 * packed beside the page. A capture is found by its key (capture_key); one that was not bundled
 * says so on the status line, where the desktop program would have captured it. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app/viewer/strings.h"
#include "trace/capture/capture.h"

/* the page's language, for what the page says it lacks (web/page.c) */
str_lang bundle_lang(void);

int capture_cpu(const capture_desc *d, trace *t, char *err, size_t errlen)
{
    char key[256], path[300];
    capture_key(d, key, sizeof key);
    snprintf(path, sizeof path, "traces/%s.wstrace", key);
    struct stat st;
    if (stat(path, &st) != 0) {
        str_lang lang = bundle_lang();
        snprintf(err, errlen, str_get(lang, STR_PAGE_NOT_CARRIED), d->version ? d->version : "?",
                 d->schedule && d->schedule[0] ? d->schedule : str_get(lang, d->drop_barrier ? STR_PAGE_NO_BARRIER : STR_PAGE_THIS_SIZE));
        return -1;
    }
    return trace_read_file(t, path, err, errlen);
}

int capture_with(const char *backend, const capture_desc *d, trace *t, char *note, size_t notelen, char *err, size_t errlen)
{
    (void)backend;
    if (note && notelen) note[0] = '\0';
    return capture_cpu(d, t, err, errlen);
}

/* the page judges no file: a check runs where the emulator does (warpscope exercise check, serve) */
int capture_batch(const capture_desc *d, capture_batch_run *runs, size_t nruns, char *err, size_t errlen)
{
    (void)d, (void)runs, (void)nruns;
    snprintf(err, errlen, "the page runs no kernel file: warpscope exercise check, or a class's server, judges it");
    return -1;
}
