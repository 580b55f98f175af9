/* json_internal: what the trace and results readers share (not part of the public API). */
#ifndef WARPSCOPE_JSON_INTERNAL_H
#define WARPSCOPE_JSON_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Parses len bytes (need not end in NUL); NULL with "line:column: ..." in err when the text is
 * not JSON. The caller frees the tree with cJSON_Delete. */
cJSON *json_parse_at(const char *text, size_t len, char *err, size_t errlen);

#endif
