/* What bytes are, before anything is loaded as a kind: the package type a
 * file's bytes stand for (plumbob_identify's format), each kind's
 * name and command family, and the common non-game files by their magic. */
#include <stddef.h>
#include <string.h>
#include "plumbob.h"
#include "tool_identify.h"
#include "tool_types.h"

static const tool_kind kinds[] = {
    {PLUMBOB_TYPE_CLIP, "Sims 3 CLIP", "clip"},
    {PLUMBOB_TYPE_JAZZ, "jazz state machine", "jazz"},
    {PLUMBOB_TYPE_GMDC, "Sims 2 GMDC mesh", "gmdc"},
    {PLUMBOB_TYPE_ANIM, "Sims 2 ANIM", "anim"},
    {PLUMBOB_TYPE_CRES, "Sims 2 CRES", "cres"},
    {PLUMBOB_TYPE_RIG, "Sims 3 rig", "rig"},
    {PLUMBOB_TYPE_GEOM, "Sims 3 GEOM mesh", "geom"},
};

const tool_kind *tool_kind_of_type(uint32_t type) {
    size_t i;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].type == type) return &kinds[i];
    return NULL;
}

uint32_t tool_identify_type(const unsigned char *data, size_t size) {
    plumbob_format f = plumbob_identify(data, size);
    size_t i;
    if (f == PLUMBOB_FORMAT_UNKNOWN) return 0;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) /* the one type <-> format map: tool_types.c */
        if (tool_format_of_type(kinds[i].type) == f) return kinds[i].type;
    return 0;
}

/* Common files that are no game file, by their magic bytes: a PNG renamed
 * .package is said to be a PNG, not a "truncated" package. */
static const char *foreign_kind(const unsigned char *d, size_t n) {
    static const struct { const char *magic; size_t len; const char *name; } magic[] = {
        {"\x89PNG\r\n\x1a\n", 8, "PNG image"},
        {"\xff\xd8\xff", 3, "JPEG image"},
        {"GIF8", 4, "GIF image"},
        {"PK\x03\x04", 4, "ZIP archive"},
        {"PK\x05\x06", 4, "ZIP archive (empty)"},
        {"\x1f\x8b", 2, "gzip-compressed file"},
        {"7z\xbc\xaf\x27\x1c", 6, "7-Zip archive"},
        {"Rar!", 4, "RAR archive"},
        {"glTF", 4, "binary glTF (GLB)"},
        {"DDS ", 4, "DDS texture"},
        {"%PDF", 4, "PDF document"},
        {"\x7f" "ELF", 4, "ELF executable"},
        {"MZ", 2, "Windows executable"},
    };
    size_t i, k;
    for (i = 0; i < sizeof magic / sizeof magic[0]; i++)
        if (n >= magic[i].len && memcmp(d, magic[i].magic, magic[i].len) == 0) return magic[i].name;
    for (k = 0; k < n && (d[k] == ' ' || d[k] == '\t' || d[k] == '\r' || d[k] == '\n'); k++) {}
    if (k < n && d[k] == '{') { /* JSON: a .gltf when it has an "asset" */
        size_t m = n - k < 65536 ? n - k : 65536, j;
        for (j = 0; j + 7 <= m; j++)
            if (memcmp(d + k + j, "\"asset\"", 7) == 0) return "glTF (JSON text)";
    }
    return NULL;
}

const char *tool_kind_name(const unsigned char *data, size_t size) {
    const tool_kind *k;
    plumbob_format f = plumbob_identify(data, size);
    if ((k = tool_kind_of_type(tool_identify_type(data, size))) != NULL) return k->name;
    switch (f) {
    case PLUMBOB_FORMAT_DBPF: return "DBPF package";
    case PLUMBOB_FORMAT_REFPACK: return "RefPack-compressed stream";
    case PLUMBOB_FORMAT_SIMS2_RCOL: return "Sims 2 RCOL resource";
    case PLUMBOB_FORMAT_KEY: return "Sims 3 KEY name table";
    case PLUMBOB_FORMAT_TRACK_MASK: return "Sims 3 track mask";
    default: return f == PLUMBOB_FORMAT_UNKNOWN ? foreign_kind(data, size) : plumbob_format_name(f);
    }
}
