/* JSON output helpers for the commands' --json dumps. */
#include <stdio.h>
#include "plumbob.h"
#include "tool_output.h"
#include "util/tool_buf.h"

/* The JSON text helpers write through tool_buf, so the escaping rules live
 * in one place (tools/util/tool_buf.c). */
void json_string(FILE *out, const char *s, size_t len) {
    tool_buf b = {0};
    tb_json_string(&b, s, len);
    fwrite(b.data, 1, b.size, out);
    tb_free(&b);
}

void json_float(FILE *out, float f) {
    char text[32];
    fwrite(text, 1, tb_format_json_float(text, f), out);
}

void json_floats(FILE *out, const float *v, unsigned n) {
    unsigned i;
    fputc('[', out);
    for (i = 0; i < n; i++) {
        if (i) fputs(", ", out);
        json_float(out, v[i]);
    }
    fputc(']', out);
}

void json_bone_pose(FILE *out, const plumbob_bone_pose *local, const plumbob_mat34 *model, const plumbob_quat *mq) {
    float v[4];
    v[0] = local->translation.x; v[1] = local->translation.y; v[2] = local->translation.z;
    fputs("\"translation\": ", out);
    json_floats(out, v, 3);
    v[0] = local->rotation.x; v[1] = local->rotation.y; v[2] = local->rotation.z; v[3] = local->rotation.w;
    fputs(", \"rotation\": ", out);
    json_floats(out, v, 4);
    v[0] = local->scale.x; v[1] = local->scale.y; v[2] = local->scale.z;
    fputs(", \"scale\": ", out);
    json_floats(out, v, 3);
    v[0] = model->m[0][3]; v[1] = model->m[1][3]; v[2] = model->m[2][3];
    fputs(", \"model_translation\": ", out);
    json_floats(out, v, 3);
    v[0] = mq->x; v[1] = mq->y; v[2] = mq->z; v[3] = mq->w;
    fputs(", \"model_rotation\": ", out);
    json_floats(out, v, 4);
}
