/* File loading, error messages and the format registry of the tool. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

void tool_error(const char *where, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "plumbob: %s: ", where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int tool_load(const char *path, tool_input *in) {
    FILE *f = fopen(path, "rb");
    long len;
    memset(in, 0, sizeof *in);
    in->name = path;
    if (!f) {
        tool_error(path, "cannot open: %s", strerror(errno));
        return 0;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        tool_error(path, "cannot determine the size (not a regular file?)");
        fclose(f);
        return 0;
    }
    in->data = (unsigned char *)malloc(len > 0 ? (size_t)len : 1);
    if (!in->data || fread(in->data, 1, (size_t)len, f) != (size_t)len) {
        tool_error(path, "cannot read %ld bytes", len);
        free(in->data);
        in->data = NULL;
        fclose(f);
        return 0;
    }
    fclose(f);
    in->size = (size_t)len;
    return 1;
}

void tool_free(tool_input *in) {
    free(in->data);
    in->data = NULL;
    in->size = 0;
}

/* Formats the tool can decode; filled in as each format lands. */
static const tool_format formats[] = {
    {PLUMBOB_FORMAT_UNKNOWN, NULL, NULL},
};

const tool_format *tool_format_for(plumbob_format f) {
    size_t i;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == f && formats[i].info) return &formats[i];
    return NULL;
}
