/* libFuzzer target for the tool's small text formats: a rig list
 * (`NAME [PARENT]` lines, tools/util/rig.c) and POSE.json
 * (tools/util/pose_json.c, after the JSON parser).  The first byte picks
 * the parser and, for a pose, the joint count.  A parsed rig has every
 * parent before its child and every hash matching its name; a parsed pose
 * gives finite rigid transforms; every refusal prints one message. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/files.h"
#include "util/pose_json.h"
#include "util/rig.h"

static unsigned messages;

/* The tool's message functions, formatted (so a bad argument list is
 * caught) into a buffer rather than printed a million times. */
void tool_error(const char *where, const char *fmt, ...) {
    char line[512];
    va_list ap;
    (void)where;
    va_start(ap, fmt);
    if (vsnprintf(line, sizeof line, fmt, ap) <= 0) __builtin_trap();
    va_end(ap);
    messages++;
}
void tool_warning(const char *where, const char *fmt, ...) {
    char line[512];
    va_list ap;
    (void)where;
    va_start(ap, fmt);
    (void)vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
}
int tool_read_file(const char *path, unsigned char **data, size_t *size) {
    (void)path; (void)data; (void)size;
    return 0;
}

static int finite(float x) { return x - x == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data + 1;
    size_t n = size ? size - 1 : 0;
    if (size == 0) return 0;
    messages = 0;
    if (data[0] & 1) {
        tool_rig rig;
        uint32_t i;
        if (!tool_rig_parse(text, n, "fuzz", &rig)) {
            if (messages != 1) __builtin_trap();
            return 0;
        }
        if (rig.count > RIG_MAX_BONES) __builtin_trap();
        for (i = 0; i < rig.count; i++) {
            if (rig.parent[i] >= (int32_t)i || rig.parent[i] < -1) __builtin_trap();
            if (strlen(rig.names[i]) >= RIG_MAX_NAME || rig.hash[i] != plumbob_fnv32_str(rig.names[i]))
                __builtin_trap();
        }
        tool_rig_free(&rig);
    } else {
        uint32_t joints = data[0] >> 1, j;
        plumbob_mat34 model[128];
        if (!tool_pose_parse(text, n, "fuzz", joints, model)) {
            if (messages != 1) __builtin_trap();
            return 0;
        }
        for (j = 0; j < joints; j++) {
            const float *m = &model[j].m[0][0];
            int k;
            for (k = 0; k < 12; k++)
                if (!finite(m[k])) __builtin_trap();
        }
    }
    return 0;
}
