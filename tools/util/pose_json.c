/* POSE.json: a small reader for exactly this shape, after the JSON parser
 * has said the text is JSON: each "rotation" and "translation" key takes
 * the numbers of the array after it, in order of appearance. */
#include <stdlib.h>
#include <string.h>
#include "pose_json.h"
#include "json_parse.h"
#include "files.h"

int tool_pose_parse(const char *text, size_t size, const char *where, uint32_t joints, plumbob_mat34 *model) {
    const char *p;
    char *copy;
    uint32_t nr = 0, nt = 0, j;
    plumbob_quat *q;
    plumbob_vec3 *t;
    json_value doc;
    char why[128];
    int ok = 1;
    /* not JSON at all: say so, not "the pose gives 0 rotations" */
    if (!json_parse(text, size, &doc, why, sizeof why)) {
        tool_error(where, "not a pose: not JSON (%s); a pose is {\"joints\": [{\"rotation\": [x,y,z,w], "
                          "\"translation\": [x,y,z]}, ...]}", why);
        return 0;
    }
    json_free(&doc);
    copy = (char *)malloc(size + 1);
    q = (plumbob_quat *)calloc(joints + 1u, sizeof *q);
    t = (plumbob_vec3 *)calloc(joints + 1u, sizeof *t);
    if (!copy || !q || !t) {
        tool_error(where, "out of memory");
        free(copy); free(q); free(t);
        return 0;
    }
    memcpy(copy, text, size);
    copy[size] = 0; /* the scan below stops at the end (JSON text holds no NUL) */
    for (p = copy; ok && (p = strchr(p, '"')) != NULL; p++) {
        int is_r = strncmp(p, "\"rotation\"", 10) == 0, is_t = strncmp(p, "\"translation\"", 13) == 0;
        float v[4] = {0, 0, 0, 0};
        int want = is_r ? 4 : 3, k;
        char *end;
        if (!is_r && !is_t) continue;
        p = strchr(p, '[');
        if (!p) break;
        p++;
        for (k = 0; k < want; k++) {
            v[k] = strtof(p, &end);
            if (end == p || !(v[k] - v[k] == 0)) break;
            p = end;
            while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        }
        if (k != want) {
            tool_error(where, "%s entry %u needs %d finite numbers", is_r ? "rotation" : "translation",
                       (unsigned)(is_r ? nr : nt), want);
            ok = 0;
            break;
        }
        if (is_r && nr < joints) { q[nr].x = v[0]; q[nr].y = v[1]; q[nr].z = v[2]; q[nr].w = v[3]; }
        if (is_t && nt < joints) { t[nt].x = v[0]; t[nt].y = v[1]; t[nt].z = v[2]; }
        if (is_r) nr++; else nt++;
        if (!*p) break; /* strtof may stop at the end */
    }
    free(copy);
    if (ok && (nr != joints || nt != joints)) {
        tool_error(where, "the mesh has %u joints; the pose gives %u rotations and %u translations",
                   (unsigned)joints, (unsigned)nr, (unsigned)nt);
        ok = 0;
    }
    for (j = 0; ok && j < joints; j++) model[j] = plumbob_mat34_from_rt(plumbob_quat_normalize(q[j]), t[j]);
    free(q);
    free(t);
    return ok;
}
