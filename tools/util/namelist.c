/* Lists of names for warnings, each name once (issue 44). */
#include <string.h>
#include <stdio.h>
#include "util/namelist.h"

int tool_namelist_add(char *list, size_t cap, const char *what, unsigned max) {
    size_t used = strlen(list), wl = strlen(what);
    const char *p = list;
    unsigned items = 0;
    while (*p) { /* each item, up to the next ", " */
        const char *end = strstr(p, ", ");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == wl && memcmp(p, what, wl) == 0) return 0;
        items++;
        p += len + (end ? 2u : 0u);
    }
    if (items >= max || used + 2 >= cap) return 0;
    snprintf(list + used, cap - used, "%s%s", used ? ", " : "", what);
    return 1;
}
