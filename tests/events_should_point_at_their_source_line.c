/* Every event of every version points at a line of its own kernel file that holds what made it:
 * a shuffle's line calls __shfl, a barrier's __syncthreads, a warp sync's __syncwarp, an atomic's
 * atomicInc, a fence's __threadfence, and a memory access's line indexes an array. This catches
 * events attributed to another file's lines (two files defining the same helper, for one). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/capture/capture.h"
#include "check.h"
#include "trace/view.h"
#include "trace/ladder.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static void line_text(const char *text, unsigned line, char *out, size_t cap)
{
    const char *p = text;
    for (unsigned l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p) { out[0] = '\0'; return; }
    size_t n = strcspn(p, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

int main(void)
{
    for (size_t i = 0; i < ladder_count; i++) {
        const ladder_version *v = &ladder_versions[i];
        char path[512];
        snprintf(path, sizeof path, "%s/%s", WS_ROOT, v->file);
        const char *text = slurp(path);
        CHECK(text != NULL, "cannot read %s", path);
        if (!text) continue;
        capture_desc d;
        memset(&d, 0, sizeof d);
        d.version = v->id;
        d.n = 3000; /* several blocks and passes */
        d.blocks_traced = 3;
        trace t;
        trace_init(&t);
        char err[256];
        CHECK(capture_cpu(&d, &t, err, sizeof err) == 0, "%s: %s", v->id, err);
        /* the watched register is the first `float NAME =` the kernel (after __global__) declares:
         * its assignments read "NAME =" or "NAME +=" */
        char reg_assign[2][48] = {"", ""};
        const char *decl = strstr(text, "__global__");
        while (decl && (decl = strstr(decl + 1, "float ")) != NULL) {
            const char *name = decl + strlen("float ");
            int len = 0;
            while (len < 40 && (isalnum((unsigned char)name[len]) || name[len] == '_')) len++;
            if (len && strncmp(name + len, " =", 2) == 0) {
                snprintf(reg_assign[0], sizeof reg_assign[0], "%.*s =", len, name);
                snprintf(reg_assign[1], sizeof reg_assign[1], "%.*s +=", len, name);
                break;
            }
        }
        int bad = 0;
        for (size_t e = 0; e < t.nevents && bad < 3; e++) {
            const trace_event *ev = &t.events[e];
            if (ev->kind == TRACE_EXIT) continue;
            char l[256];
            line_text(text, ev->line, l, sizeof l);
            const char *want = ev->kind == TRACE_SHUFFLE ? "__shfl" : ev->kind == TRACE_BARRIER ? "__syncthreads"
                             : ev->kind == TRACE_WARP_SYNC ? "__syncwarp" : ev->kind == TRACE_GLOBAL_ATOMIC ? "atomicInc"
                             : ev->kind == TRACE_FENCE ? "__threadfence" : "[";
            int found = ev->kind == TRACE_REGISTER ? decl && (strstr(l, reg_assign[0]) || strstr(l, reg_assign[1])) : strstr(l, want) != NULL;
            if (!found) {
                bad++;
                CHECK(0, "%s: a %s event at line %u, which reads \"%s\"", v->id, trace_kind_label((trace_kind)ev->kind), ev->line, l);
            }
        }
        /* --phase P lands on the step that defines the phase: every phase that touches shared
         * memory or shuffles has its defining step on a line that indexes an array ("[") or
         * shuffles, never on a barrier's or the exit's */
        view_model m;
        if (view_build(&m, &t, 0, 0, 0, err, sizeof err) == 0) {
            for (unsigned ph = 0; ph < m.nphases; ph++) {
                long st = view_phase_defining(&m, ph);
                CHECK(st >= 0, "%s: phase %u has no defining step", v->id, ph);
                if (st < 0) continue;
                int k = m.steps[st].kind, touches = 0;
                for (size_t q = 0; q < m.nsteps; q++)
                    touches |= m.steps[q].phase == ph && (m.steps[q].kind == TRACE_SHARED_LOAD || m.steps[q].kind == TRACE_SHARED_STORE ||
                                                          m.steps[q].kind == TRACE_SHUFFLE);
                char l[256];
                line_text(text, m.steps[st].line, l, sizeof l);
                if (touches)
                    CHECK((k == TRACE_SHARED_LOAD || k == TRACE_SHARED_STORE || k == TRACE_SHUFFLE) && (strchr(l, '[') || strstr(l, "__shfl")),
                          "%s: phase %u lands on a %s at line %u (\"%s\")", v->id, ph, trace_kind_label((trace_kind)k), m.steps[st].line, l);
            }
            view_free(&m);
        } else {
            CHECK(0, "%s: view_build: %s", v->id, err);
        }
        trace_free(&t);
    }
    CHECK_DONE("events_should_point_at_their_source_line");
}
