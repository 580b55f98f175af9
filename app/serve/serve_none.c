/* serve_none: `warpscope serve` in a build without libmicrohttpd or SQLite: it says what to install. */
#include <stdio.h>

#include "app/commands.h"

int cmd_serve(const ws_call *k)
{
    (void)k;
    fprintf(stderr, "warpscope: this warpscope was built without the class server: install libmicrohttpd-dev and libsqlite3-dev "
                    "(tools/setup-debian.sh) and build again\n");
    return 2;
}

int cmd_grades(const ws_call *k)
{
    (void)k;
    fprintf(stderr, "warpscope: this warpscope was built without the class server: install libmicrohttpd-dev and libsqlite3-dev "
                    "(tools/setup-debian.sh) and build again\n");
    return 2;
}
