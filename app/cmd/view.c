/* The window and its pictures: the default, view, learn, render, export and web. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "app/cmd/cmd.h"

int cmd_default(const ws_call *k)
{
    (void)k;
    data_dirs d;
    viewer_opts o;
    memset(&o, 0, sizeof o);
    o.cap.version = "v0";
    o.cap.blocks_traced = UINT32_MAX; /* one block: the grid view has its partial sum, as view's has */
    o.event = o.phase = o.step = -1;
    int rc = find_viewer_data(&o, &d, 0);
    return rc ? rc : viewer_window(&o);
}

int cmd_view(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = find_viewer_data(&o, &d, 0))) return rc;
    return viewer_window(&o);
}

/* warpscope learn [LESSON] [viewer flags]: the lesson menu, or one lesson */
int cmd_learn(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc || (rc = find_viewer_data(&o, &d, 1))) return rc;
    o.learn = k->npos ? k->pos[0] : "";
    return viewer_window(&o);
}


int cmd_render(const ws_call *k)
{
    viewer_opts o;
    data_dirs d;
    int rc = read_viewer(k, &o);
    if (rc) return rc;
    if (!o.out && !o.frames) return usage_error("render needs -o out.png or --frames DIR%s%s", "", "");
    if (k->v[WF_EXERCISE].given && (rc = exercise_viewer(k->v[WF_EXERCISE].text, o.cap.kernel, &o))) return rc;
    if (!o.file && !o.cap.version && !o.bench && !o.learn)
        return usage_error("render needs a trace file, --version ID, --learn LESSON, --exercise EXERCISE or --bench FILE%s%s", "", "");
    if ((rc = find_viewer_data(&o, &d, o.learn != NULL))) return rc;
    work_bar bar;
    with_progress(&o, &bar);
    return viewer_stopped(viewer_render(&o), &bar);
}

/* ---- export ---- */

int cmd_export(const ws_call *k)
{
    const cli_value *v = k->v;
    export_opts eo;
    memset(&eo, 0, sizeof eo);
    int rc = read_viewer(k, &eo.v);
    if (rc) return rc;
    eo.from = v[WF_FROM].given ? (long)v[WF_FROM].num : -1;
    eo.to = v[WF_TO].given ? (long)v[WF_TO].num : -1;
    eo.no_motion = v[WF_NO_MOTION].given;
    eo.lesson = v[WF_LESSON].given ? v[WF_LESSON].text : eo.v.learn; /* render's spelling, --learn, works too */
    static const struct { ws_flag flag; double lo, hi; } reals[] = {{WF_FPS, 1, EXPORT_FPS_MAX}, {WF_SPEED, 0.1, 60}};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        const cli_value *x = &v[reals[i].flag];
        if (!x->given) continue;
        char *end;
        errno = 0;
        double d = strtod(x->text, &end);
        if (errno || end == x->text || *end || !(d >= reals[i].lo && d <= reals[i].hi)) {
            fprintf(stderr, "warpscope: %s expects a number from %g to %g, got \"%s\"\n", ws_flags[reals[i].flag].spec.name, reals[i].lo,
                    reals[i].hi, x->text);
            return EXIT_BAD;
        }
        if (reals[i].flag == WF_FPS) eo.fps = d;
        else eo.speed = d;
    }
    eo.out = eo.v.out;
    const viewer_opts *o = &eo.v;
    if (!eo.out) return usage_error("export needs -o OUT: a .gif, .mp4, .webm or .svg file, or a folder for PNG frames%s%s", "", "");
    if (eo.lesson && !eo.lesson[0]) return usage_error("--lesson needs a lesson: an id (\"03\") or a file%s%s", "", "");
    if (eo.lesson && (o->file || o->cap.version || o->compare))
        return usage_error("--lesson shows what the lesson shows: give no trace file, --version or --compare with it%s%s", "", "");
    if (eo.lesson && (eo.from >= 0 || eo.to >= 0 || o->step >= 0 || o->phase >= 0 || o->event >= 0))
        return usage_error("--lesson exports every step of the lesson: no --from, --to, --step, --phase or --event%s%s", "", "");
    if (!eo.lesson && !o->file && !o->cap.version) return usage_error("export needs a trace file, --version ID or --lesson FILE%s%s", "", "");
    if ((eo.from >= 0 || eo.to >= 0) && (o->step >= 0 || o->phase >= 0 || o->event >= 0))
        return usage_error("give --from/--to or one of --step, --phase, --event%s%s", "", "");
    data_dirs d;
    if ((rc = find_viewer_data(&eo.v, &d, eo.lesson != NULL))) return rc;
    work_bar bar;
    with_progress(&eo.v, &bar);
    eo.progress = export_progress;
    eo.progress_user = &bar;
    return viewer_stopped(viewer_export(&eo), &bar);
}

/* ---- list ---- */

/* warpscope web -o DIR: the page's data */
int cmd_web(const ws_call *k)
{
    const char *dir = k->v[WF_OUT].text;
    if (!dir) return usage_error("give -o DIR, the folder the page's data goes into%s%s", "", "");
    if (!is_dir(dir)) return usage_error("%s: no such folder%s", dir, "");
    data_dirs d;
    int rc = find_data(&d, 1, 1);
    if (rc) return rc;
    catch_interrupts();
    char err[512] = "";
    web_pack_stats st;
    rc = web_pack_write(&(web_pack_opts){.dir = dir, .lesson_dir = d.lessons, .assets_dir = d.assets, .cancel = &interrupted}, &st, err,
                        sizeof err);
    if (rc == -2 || (rc && interrupted)) return report_interrupt("nothing written");
    if (rc) { fprintf(stderr, "warpscope: %s\n", err); return EXIT_BAD; }
    fprintf(stderr, "warpscope: %zu files and %zu traces (%.1f MB) -> %s/warpscope.pack and warpscope.rest.pack\n", st.files, st.traces,
            (double)st.bytes / 1e6, dir);
    if (st.skipped) fprintf(stderr, "warpscope: %zu captures did not run and are not in the pack (the page says so where they are asked for)\n", st.skipped);
    return 0;
}

/* warpscope cards: the card table */
