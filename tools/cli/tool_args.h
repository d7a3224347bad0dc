/* Option values (tool_args.c). */
#ifndef PLUMBOB_TOOL_ARGS_H
#define PLUMBOB_TOOL_ARGS_H


/* Option values (tool_args.c).  argv[i] was taken by no option: prints
 * "OPT needs a value" when it is a value option at the end of the line, else
 * "unexpected argument"; returns 2 (the usage exit status). */
int tool_bad_argument(int argc, char **argv, int i);
/* Does the output name end in one of the extensions (".gltf"; b, c may be
 * NULL)?  Else prints what the command writes and returns 0. */
int tool_arg_extension(const char *path, const char *a, const char *b, const char *c);
/* Parses s as a number in [lo, hi] for option opt; prints why (naming opt)
 * and returns 0 on junk, NaN or out of range. */
int tool_arg_number(const char *opt, const char *s, double lo, double hi, double *out);
/* --time SECONDS or --frame N (exactly one given) as seconds within [0,
 * duration]; frames are frame_seconds long.  Prints why and returns 0. */
int tool_arg_time(const char *time_arg, const char *frame_arg, double frame_seconds, double duration, double *seconds);

#endif
