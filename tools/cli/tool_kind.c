/* Loading an input as the kind of resource a command wants: a file of
 * another kind is named as what it is, with the command that fits; a whole
 * package stands for its only resource of that kind, or lists them. */
#include <stdio.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/rig.h"
#include "tool_families.h"
#include "tool_identify.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_types.h"

/* The package type an input stands for: the index's type for a resource,
 * else what the bytes are (0: a package or nothing plumbob reads). */
static uint32_t type_of_input(const tool_input *in) {
    return in->from_package ? in->entry.type : tool_identify_type(in->data, in->size);
}

/* "try plumbob clip dump": the same subcommand when the fitting family has it. */
static void fitting_command(const tool_kind *k, char *out, size_t cap) {
    const char *sub = strchr(tool_command(), ' ');
    snprintf(out, cap, "plumbob %s %s", k->family, sub && tool_family_has(k->family, sub + 1) ? sub + 1 : "dump");
}

/* A whole package given where one resource is wanted. */
static int from_package(const char *path, const tool_kind *want, tool_input *in) {
    plumbob_package pkg;
    tool_names names;
    plumbob_package_entry e, only;
    uint32_t i, n = 0, shown = 0;
    char spec[1200], nm[256];
    if (plumbob_package_open(&pkg, in->data, in->size) != PLUMBOB_OK) {
        tool_error(in->name, "is a DBPF package that does not open (plumbob info says why), not a %s", want->name);
        return 0;
    }
    memset(&only, 0, sizeof only);
    for (i = 0; plumbob_package_next_of_type(&pkg, want->type, &i, &e) == PLUMBOB_OK;)
        if (n++ == 0) only = e;
    if (n == 1) { /* the package's only one: that is the one meant */
        snprintf(spec, sizeof spec, "%s@%08X:%08X:%016llX", path, (unsigned)only.type, (unsigned)only.group,
                 (unsigned long long)only.instance);
        tool_free(in);
        return tool_load(spec, in);
    }
    if (n == 0) {
        tool_error(in->name, "is a DBPF package with no %s in it (plumbob ls lists what it holds)", want->name);
        return 0;
    }
    tool_error(in->name, "is a DBPF package holding %u resources of kind %s; name one as PACKAGE@INSTANCE:",
               (unsigned)n, want->name);
    tool_names_load(&pkg, &names);
    for (i = 0; shown < 20 && plumbob_package_next_of_type(&pkg, want->type, &i, &e) == PLUMBOB_OK;) {
        if (!tool_resource_name(&pkg, &names, &e, nm, sizeof nm)) nm[0] = 0;
        fprintf(stderr, "    %s@%016llX  %s\n", path, (unsigned long long)e.instance, nm);
        shown++;
    }
    if (shown < n) fprintf(stderr, "    ... and %u more (plumbob ls %s)\n", (unsigned)(n - shown), path);
    tool_names_free(&names);
    return 0;
}

int tool_text_not_binary(const tool_input *in, const char *opt, const char *wants) {
    const char *is = tool_kind_name(in->data, in->size);
    size_t k;
    if (!is) /* no kind plumbob names, but not text either: NUL or control bytes */
        for (k = 0; k < in->size; k++)
            if (in->data[k] < 0x20 && in->data[k] != '\t' && in->data[k] != '\n' && in->data[k] != '\r' &&
                in->data[k] != '\f' && in->data[k] != '\v') {
                tool_error(in->name, "%s wants %s; this is binary data, not text (byte 0x%02X at offset %zu)", opt,
                           wants, in->data[k], k);
                return 0;
            }
    if (!is) return 1;
    tool_error(in->name, "%s wants %s; this is a %s%s", opt, wants, is,
               plumbob_identify(in->data, in->size) == PLUMBOB_FORMAT_DBPF
                   ? " (name a resource inside it: PACKAGE@INSTANCE; plumbob ls lists them)" : "");
    return 0;
}

void tool_unknown_format(const tool_input *in) {
    const char *is = tool_kind_name(in->data, in->size);
    if (is)
        tool_error(in->name, "is a %s (%zu bytes), not a package nor any resource plumbob reads", is, in->size);
    else
        tool_error(in->name, "unknown format (%zu bytes): not a package nor any resource plumbob reads", in->size);
}

int tool_rig_list_load(const char *path, const char *opt, tool_rig *rig) {
    tool_input in;
    int ok;
    if (!tool_load(path, &in)) return 0;
    ok = tool_text_not_binary(&in, opt, "a `NAME [PARENT]` list") &&
         tool_rig_parse((const char *)in.data, in.size, in.name, rig);
    tool_free(&in);
    return ok;
}

int tool_load_kind(const char *path, uint32_t type, const char *opt, tool_input *in) {
    const tool_kind *want = tool_kind_of_type(type), *is;
    uint32_t t;
    char cmd[64], label[64];
    if (!tool_load(path, in)) return 0;
    if (!want) return 1;
    t = type_of_input(in);
    if (t == type) return 1;
    if (!in->from_package && plumbob_identify(in->data, in->size) == PLUMBOB_FORMAT_DBPF) {
        if (from_package(path, want, in)) return 1;
    } else if ((is = tool_kind_of_type(t)) != NULL) {
        if (opt) { /* an option's file: the fix is another file, not another command */
            tool_error(in->name, "%s wants a %s; this is a %s", opt, want->name, is->name);
        } else {
            fitting_command(is, cmd, sizeof cmd);
            tool_error(in->name, "is a %s, not a %s; try %s", is->name, want->name, cmd);
        }
    } else if (in->from_package) {
        tool_type_label(in->entry.type, label, sizeof label);
        tool_error(in->name, "is a %s resource, not a %s", label, want->name);
    } else if (plumbob_identify(in->data, in->size) != PLUMBOB_FORMAT_UNKNOWN) {
        tool_error(in->name, "is a %s, not a %s (plumbob info says more)", tool_kind_name(in->data, in->size),
                   want->name);
    } else {
        return 1; /* bytes nothing recognises: the decoder says where they go wrong */
    }
    tool_free(in);
    return 0;
}
