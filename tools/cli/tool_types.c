/* Names and file extensions of resource types a modder meets in packages. */
#include <stdio.h>
#include <string.h>
#include "plumbob.h"
#include "util/ascii.h"
#include "util/files.h"
#include "tool_types.h"

static const struct {
    uint32_t type;
    const char *name, *ext;
} types[] = {
    /* the formats plumbob decodes */
    {0x6B20C4F3u, "CLIP", "clip"}, {0x02D5DF13u, "JAZZ", "jazz"}, {0x0166038Cu, "KEY", "key"},
    {0xAC4F8687u, "GMDC", "gmdc"}, {0xFB00791Eu, "ANIM", "anim"}, {0xE519C933u, "CRES", "cres"},
    {0x8EAF13DEu, "RIG", "rig"},   {0xE86B1EEFu, "DIR", "dir"},   {0x033260E3u, "TKMK", "tkmk"},
    /* Sims 3: text, scripts, tuning */
    {0x220557DAu, "STBL", "stbl"}, {0x0333406Cu, "XML", "xml"},   {0x73E93EEBu, "XML", "xml"},
    {0x03B33DDFu, "ITUN", "itun"}, {0x073FAA07u, "S3SA", "s3sa"}, {0xA8D58BE5u, "SKIL", "skil"},
    {0xF3A38370u, "NGMP", "ngmp"},
    /* Sims 3: objects, models, materials */
    {0x319E4F1Du, "OBJD", "objd"}, {0x02DC343Fu, "OBJK", "objk"}, {0x01661233u, "MODL", "modl"},
    {0x01D10F34u, "MLOD", "mlod"}, {0x015A1849u, "GEOM", "simgeom"}, {0x01D0E75Du, "MATD", "matd"},
    {0x02019972u, "MTST", "mtst"}, {0x736884F1u, "VPXY", "vpxy"}, {0x03B4C61Du, "LITE", "lite"},
    {0xD3044521u, "RSLT", "rslt"}, {0xD382BF57u, "FTPT", "ftpt"}, {0x034AEECBu, "CASP", "casp"},
    {0x067CAA11u, "BGEO", "bgeo"}, {0x0354796Au, "TONE", "tone"}, {0x0358B08Au, "FACE", "face"},
    {0x0355E0A6u, "BOND", "bond"},
    /* Sims 3: images */
    {0x00B2D882u, "DDS", "dds"},   {0x8FFB80F6u, "DDS", "dds"},   {0x2F7D0004u, "IMAG", "png"},
    {0x2F7D0002u, "IMAG", "jpg"},  {0x2E75C764u, "ICON", "png"},  {0x2E75C765u, "ICON", "png"},
    {0x2E75C766u, "ICON", "png"},  {0x2E75C767u, "ICON", "png"},  {0xD84E7FC5u, "ICON", "png"},
    {0xD84E7FC6u, "ICON", "png"},  {0xD84E7FC7u, "ICON", "png"},  {0x0580A2B4u, "THUM", "png"},
    {0x0580A2B5u, "THUM", "png"},  {0x0580A2B6u, "THUM", "png"},  {0xAD366F95u, "THUM", "png"},
    {0xAD366F96u, "THUM", "png"},  {0x6B6D837Du, "SNAP", "png"},  {0x6B6D837Eu, "SNAP", "png"},
    {0x6B6D837Fu, "SNAP", "png"},
    /* Sims 2 scenegraph */
    {0x7BA3838Cu, "GMND", "gmnd"}, {0xFC6EB1F7u, "SHPE", "shpe"}, {0x49596978u, "TXMT", "txmt"},
    {0x1C4A276Cu, "TXTR", "txtr"},
};

const char *tool_type_name(uint32_t type) {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == type) return types[i].name;
    return NULL;
}

const char *tool_type_ext(uint32_t type) {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == type) return types[i].ext;
    return NULL;
}

int tool_type_game(uint32_t type) {
    switch (type) {
    case PLUMBOB_TYPE_GMDC: case PLUMBOB_TYPE_ANIM: case PLUMBOB_TYPE_CRES: case PLUMBOB_TYPE_SIMS2_DIR:
    case 0x7BA3838Cu: case 0xFC6EB1F7u: case 0x49596978u: case 0x1C4A276Cu: /* GMND SHPE TXMT TXTR */
        return 2;
    }
    return tool_type_name(type) ? 3 : 0;
}

int tool_parse_type(const char *s, size_t len, uint64_t *out) {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (tool_ascii_ieq(s, len, types[i].name)) {
            *out = types[i].type;
            return 1;
        }
    }
    return tool_parse_hex(s, len, out) && *out <= 0xFFFFFFFFu;
}

plumbob_format tool_format_of_type(uint32_t type) {
    switch (type) {
    case PLUMBOB_TYPE_CLIP: return PLUMBOB_FORMAT_CLIP;
    case PLUMBOB_TYPE_JAZZ: return PLUMBOB_FORMAT_JAZZ;
    case PLUMBOB_TYPE_GMDC: return PLUMBOB_FORMAT_GMDC;
    case PLUMBOB_TYPE_ANIM: return PLUMBOB_FORMAT_ANIM;
    case PLUMBOB_TYPE_RIG: return PLUMBOB_FORMAT_RIG;
    case PLUMBOB_TYPE_CRES: return PLUMBOB_FORMAT_CRES;
    case PLUMBOB_TYPE_KEY: return PLUMBOB_FORMAT_KEY;
    case PLUMBOB_TYPE_GEOM: return PLUMBOB_FORMAT_GEOM;
    case PLUMBOB_TYPE_TRACK_MASK: return PLUMBOB_FORMAT_TRACK_MASK;
    }
    return PLUMBOB_FORMAT_UNKNOWN;
}

void tool_type_label(uint32_t type, char *out, size_t cap) {
    const char *tn = tool_type_name(type);
    if (tn) snprintf(out, cap, "%s (type 0x%08X)", tn, (unsigned)type);
    else snprintf(out, cap, "type 0x%08X", (unsigned)type);
}
