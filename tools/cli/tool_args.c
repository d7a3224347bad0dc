/* Option values for every command: numbers checked against their range
 * (junk, NaN and infinities refused), a missing value named as such, the
 * time options (--time SECONDS, --frame N) turned into seconds. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "tool_args.h"

/* Every option of the tool that takes a value: at the end of a line it
 * lacks that value ("-o needs a value"), wherever else it is misplaced. */
static const char *const value_options[] = {
    "-o", "--time", "--frame", "--track", "--rig", "--cres", "--mesh", "--anim", "--pose", "--morph",
    "--channel", "--request", "--seed", "--max-steps", "--max-actions", "--enter", "--next", "--actor", "--param",
    "--type", "--group", "--instance", "--package", "--names", "--out", "--write",
};

int tool_bad_argument(int argc, char **argv, int i) {
    size_t k;
    if (i == argc - 1)
        for (k = 0; k < sizeof value_options / sizeof value_options[0]; k++)
            if (strcmp(argv[i], value_options[k]) == 0) {
                tool_error(NULL, "%s needs a value", argv[i]);
                return 2;
            }
    tool_error(NULL, "unexpected argument '%s' (see plumbob %.*s --help)", argv[i],
               (int)strcspn(tool_command(), " "), tool_command());
    return 2;
}

int tool_arg_extension(const char *path, const char *a, const char *b, const char *c) {
    if (tool_ends_with(path, a) || (b && tool_ends_with(path, b)) || (c && tool_ends_with(path, c))) return 1;
    tool_error(path, "%s writes %s%s%s%s%s; name the output with one of those", tool_command(), a,
               b ? (c ? ", " : " or ") : "", b ? b : "", c ? " or " : "", c ? c : "");
    return 0;
}

int tool_arg_number(const char *opt, const char *s, double lo, double hi, double *out) {
    char *end, buf[128];
    double v;
    size_t len = strlen(s), from = 0;
    /* spaces around the number (a pasted "1.5 ") are no part of it */
    while (from < len && (s[from] == ' ' || s[from] == '\t')) from++;
    while (len > from && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' || s[len - 1] == '\n')) len--;
    if (len - from >= sizeof buf) len = from + sizeof buf - 1u;
    memcpy(buf, s + from, len - from);
    buf[len - from] = '\0';
    errno = 0;
    v = strtod(buf, &end);
    if (end == buf || *end || errno == ERANGE || !(v - v == 0) || v < lo || v > hi) {
        if (end != buf && *end == ',' && strchr(end + 1, ',') == NULL && end[1] >= '0' && end[1] <= '9')
            tool_error(NULL, "%s needs a number with a '.' decimal point, got '%s'", opt, s);
        else if (end == buf || *end || v != v) tool_error(NULL, "%s needs a number, got '%s'", opt, s);
        else if (lo == -HUGE_VAL || hi == HUGE_VAL) tool_error(NULL, "%s %s is out of range", opt, s);
        else tool_error(NULL, "%s %s is out of range (%g to %g)", opt, s, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int tool_arg_time(const char *time_arg, const char *frame_arg, double frame_seconds, double duration, double *seconds) {
    double v;
    if (time_arg && frame_arg) {
        tool_error(NULL, "give --time SECONDS or --frame N, not both");
        return 0;
    }
    if (!time_arg && !frame_arg) {
        tool_error(NULL, "--time SECONDS or --frame N is required");
        return 0;
    }
    if (time_arg) {
        if (!tool_arg_number("--time", time_arg, -HUGE_VAL, HUGE_VAL, &v)) return 0;
        if (v < 0 || v > duration + 1e-6 || !(v - v == 0)) {
            tool_error(NULL, "--time %s is outside the animation: it lasts %.4f s (--time 0 to %.4f)", time_arg,
                       duration, duration);
            return 0;
        }
        *seconds = v;
        return 1;
    }
    if (!tool_arg_number("--frame", frame_arg, -HUGE_VAL, HUGE_VAL, &v)) return 0;
    if (v != floor(v)) {
        tool_error(NULL, "--frame needs a whole frame number, got '%s' (use --time SECONDS for times between frames)",
                   frame_arg);
        return 0;
    }
    if (v < 0 || v * frame_seconds > duration + 1e-6) {
        tool_error(NULL, "--frame %s is not a frame of the animation: frames 0 to %.0f (%.4f s each)", frame_arg,
                   floor(duration / frame_seconds + 1e-6), frame_seconds);
        return 0;
    }
    *seconds = v * frame_seconds;
    return 1;
}
