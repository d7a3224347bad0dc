/* Tests of the glTF writer, exporter and checker, the JSON reader and rig
 * lists (tools/gltf/, tools/util/json_parse.c, tools/util/rig.c), hosted.
 * Usage: gltf-tests [CORPUS_DIR]; prints `N passed, N failed[, N skipped]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/tool_cres.h"
#include "cli/tool_decode.h"
#include "cli/tool_input.h"
#include "gltf/gltf_check.h"
#include "gltf/gltf_export.h"
#include "gltf/gltf_import.h"
#include "util/json_parse.h"
#include "util/demo_data.h"
#include "util/files.h"
#include "util/rig.h"
#include "pb_bytes.h"

#include "hosted_check.h"

/* scratch for skin jobs (PLUMBOB_GMDC_SKIN_WORK_SIZE) */
static unsigned char skin_work[PLUMBOB_GMDC_SKIN_WORK_SIZE];
#define CHECK_NEAR(a, b, eps) CHECK((a) - (b) <= (eps) && (b) - (a) <= (eps))

static const char demo_rig[] = "b__ROOT__\nb__Spine0__ b__ROOT__   # the spine\nb__Spine1__ b__Spine0__\n";

/* The demo's cylinder, clip and rig, decoded (freed by scene_free). */
typedef struct demo_scene {
    tool_input mesh_in, clip_in;
    plumbob_gmdc mesh;
    unsigned char *mesh_mem;
    tool_clip clip;
    tool_rig rig;
    gltf_export_src src;
} demo_scene;

static int scene_load(demo_scene *s) {
    memset(s, 0, sizeof *s);
    s->mesh_in.size = demo_gmdc(&s->mesh_in.data);
    s->clip_in.size = demo_clip(&s->clip_in.data);
    if (!s->mesh_in.size || !s->clip_in.size || tool_gmdc_decode(&s->mesh_in, &s->mesh, &s->mesh_mem) != PLUMBOB_OK ||
        tool_clip_decode(&s->clip_in, &s->clip) != PLUMBOB_OK ||
        !tool_rig_parse(demo_rig, sizeof demo_rig - 1, "rig", &s->rig))
        return 0;
    s->src.mesh = &s->mesh;
    s->src.rig = &s->rig;
    s->src.clip = &s->clip.clip;
    return 1;
}

static void scene_free(demo_scene *s) {
    free(s->mesh_mem);
    tool_clip_free(&s->clip);
    tool_free(&s->mesh_in);
    tool_free(&s->clip_in);
    tool_rig_free(&s->rig);
}

static int export_bytes(const gltf_export_src *src, int binary, tool_buf *out) {
    gltf_export_stats st;
    memset(out, 0, sizeof *out);
    return gltf_export_build(src, binary, out, &st);
}

static int valid(const unsigned char *p, size_t n, char *why, size_t cap) {
    gltf_check_report rep;
    return gltf_check(p, n, &rep, why, cap);
}

static void test_json(void) {
    static const struct { const char *text, *why; } bad[] = {
        {"", "byte 0: unexpected end of text"},
        {"[1,]", "byte 3: expected a value"},
        {"{\"a\" 1}", "byte 5: expected ':'"},
        {"01", "byte 1: text after the value"},
        {"\"a\tb\"", "control character"},
        {"\"\\ud800x\"", "unpaired surrogate"},
        {"\"\\udc00\"", "unpaired surrogate"},
        {"\"\\u12\"", "short \\u escape"},
        {"\"\\u12g4\"", "bad hex digit"},
        {"[1 2]", "expected ',' or ']'"},
        {"tru", "expected a value"},
        {"1.", "digit expected after '.'"},
        {"-", "expected a value"},
        {"\"abc", "unterminated string"},
    };
    json_value v;
    char why[128], deep[200];
    size_t i;
    {
        const char *t = " {\"a\": [1, -2.5e1, true, false, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\"} ";
        CHECK(json_parse(t, strlen(t), &v, why, sizeof why));
        CHECK(v.kind == JSON_OBJECT && v.count == 2);
        CHECK(json_get(&v, "a") && json_get(&v, "a")->count == 5);
        CHECK(json_get(&v, "a")->items[1].number == -25.0);
        CHECK(json_get(&v, "a")->items[2].kind == JSON_BOOL && json_get(&v, "a")->items[2].number == 1);
        CHECK(json_get(&v, "a")->items[4].kind == JSON_NULL);
        CHECK(json_get(&v, "s") && json_get(&v, "s")->len == 8 &&
              memcmp(json_get(&v, "s")->str, "x\xC3\xA9\xF0\x9F\x98\x80\n", 8) == 0);
        CHECK(json_get(&v, "missing") == NULL && json_get(&v.items[0], "a") == NULL);
        json_free(&v);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int ok = json_parse(bad[i].text, strlen(bad[i].text), &v, why, sizeof why);
        CHECK(!ok && strstr(why, bad[i].why) != NULL);
        if (ok || !strstr(why, bad[i].why)) printf("  json case %zu: %s\n", i, ok ? "accepted" : why);
    }
    memset(deep, '[', sizeof deep); /* 64 levels parse, 65 do not */
    CHECK(json_parse(deep, 64, &v, why, sizeof why) == 0 && strstr(why, "unexpected end"));
    memset(deep + 64, ']', 64);
    CHECK(json_parse(deep, 128, &v, why, sizeof why));
    json_free(&v);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    CHECK(json_parse(deep, 130, &v, why, sizeof why) == 0 && strstr(why, "nested too deeply"));
}

static void test_rig(void) {
    static const struct { const char *text, *why; } bad[] = {
        {"a\nb c\n", "line 2: parent 'c' of 'b' is not listed above it"},
        {"a\na\n", "line 2: bone 'a' is listed twice"},
        {"a\nb a extra\n", "line 2: expected NAME [PARENT]"},
    };
    tool_rig rig;
    size_t i;
    CHECK(tool_rig_parse(demo_rig, sizeof demo_rig - 1, "rig", &rig));
    CHECK(rig.count == 3 && rig.parent[0] == -1 && rig.parent[1] == 0 && rig.parent[2] == 1);
    CHECK(rig.hash[0] == plumbob_fnv32_str("b__ROOT__") && strcmp(rig.names[2], "b__Spine1__") == 0);
    CHECK(tool_rig_find(&rig, plumbob_fnv32_str("b__spine0__")) == 1); /* the games hash lowercased names */
    tool_rig_free(&rig);
    CHECK(tool_rig_parse("# only a comment\n\n", 18, "rig", &rig) && rig.count == 0);
    tool_rig_free(&rig);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* errors go to stderr; what matters here is the refusal */
        CHECK(!tool_rig_parse(bad[i].text, strlen(bad[i].text), "rig", &rig));
    }
}

/* Float k of element e of accessor a, read from a GLB's BIN chunk. */
static float glb_float(const unsigned char *glb, const json_value *root, long a, uint32_t e, uint32_t k) {
    const json_value *acc = &json_get(root, "accessors")->items[a];
    const json_value *view = &json_get(root, "bufferViews")->items[(long)json_get(acc, "bufferView")->number];
    const json_value *type = json_get(acc, "type");
    uint32_t comps = strcmp(type->str, "SCALAR") == 0 ? 1u : strcmp(type->str, "MAT4") == 0 ? 16u : (uint32_t)(type->str[3] - '0');
    size_t bin = 28 + pb_le32(glb + 12);
    return pb_f32le(glb + bin + (size_t)json_get(view, "byteOffset")->number + 4u * ((size_t)comps * e + k));
}

static void test_demo_export(void) {
    demo_scene s;
    tool_buf glb, gltf;
    gltf_check_report rep;
    json_value root, root2;
    char why[256];
    size_t jl;
    if (!scene_load(&s)) {
        CHECK(0);
        return;
    }
    CHECK(export_bytes(&s.src, 1, &glb) && export_bytes(&s.src, 0, &gltf));
    CHECK(gltf_check(glb.data, glb.size, &rep, why, sizeof why));
    CHECK(rep.binary == 1 && rep.nodes == 4 && rep.meshes == 1 && rep.primitives == 1 && rep.vertices == 108);
    CHECK(rep.targets == 2 && rep.skins == 1 && rep.joints == 3 && rep.animations == 1 && rep.channels == 4);
    CHECK(rep.accessors == 16);
    CHECK(gltf_check(gltf.data, gltf.size, &rep, why, sizeof why) && rep.binary == 0 && rep.vertices == 108);
    jl = pb_le32(glb.data + 12);
    CHECK(pb_le32(glb.data) == 0x46546C67u && pb_le32(glb.data + 8) == glb.size && jl % 4 == 0);
    CHECK(json_parse((const char *)glb.data + 20, jl, &root, why, sizeof why));
    CHECK(json_parse((const char *)gltf.data, gltf.size, &root2, why, sizeof why));
    {
        /* the .gltf's data URI holds the .glb's BIN chunk, byte for byte */
        const json_value *uri = json_get(&json_get(&root2, "buffers")->items[0], "uri");
        const char *b64 = strchr(uri->str, ',') + 1;
        size_t bl = pb_le32(glb.data + 20 + jl), i, o = 0;
        uint32_t acc = 0;
        int bits = 0, same = 1;
        for (i = 0; b64[i] && b64[i] != '='; i++) {
            char ch = b64[i];
            int d = ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
                  : ch >= '0' && ch <= '9' ? ch - '0' + 52 : ch == '+' ? 62 : 63;
            acc = acc << 6 | (uint32_t)d;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                if (o >= bl || glb.data[28 + jl + o] != (unsigned char)(acc >> bits)) same = 0;
                o++;
            }
        }
        CHECK(same && o == bl);
    }
    {
        const json_value *nodes = json_get(&root, "nodes"), *t1 = json_get(&nodes->items[1], "translation");
        const json_value *mesh = &json_get(&root, "meshes")->items[0], *prim = &json_get(mesh, "primitives")->items[0];
        const json_value *attrs = json_get(prim, "attributes"), *anim = &json_get(&root, "animations")->items[0];
        const json_value *names = json_get(json_get(mesh, "extras"), "targetNames");
        const json_value *skin = &json_get(&root, "skins")->items[0];
        const json_value *sampler0 = &json_get(anim, "samplers")->items[0];
        long pos = (long)json_get(attrs, "POSITION")->number, w = (long)json_get(attrs, "WEIGHTS_0")->number;
        long ibm = (long)json_get(skin, "inverseBindMatrices")->number;
        long in0 = (long)json_get(sampler0, "input")->number, out0 = (long)json_get(sampler0, "output")->number;
        CHECK(strcmp(json_get(&nodes->items[1], "name")->str, "b__Spine0__") == 0);
        /* spine0 sits 1 above the root: Z-up z = 1 became Y-up y = 1 */
        CHECK(t1 && t1->items[0].number == 0 && t1->items[1].number == 1 && t1->items[2].number == 0);
        CHECK(names && names->count == 2 && strcmp(names->items[0].str, "bulge") == 0 && strcmp(names->items[1].str, "pinch") == 0);
        /* vertex 12 (ring 1, segment 0) was (0.5, 0, 0.25) Z-up: (0.5, 0.25, 0) Y-up */
        CHECK(glb_float(glb.data, &root, pos, 12, 0) == 0.5f && glb_float(glb.data, &root, pos, 12, 1) == 0.25f &&
              glb_float(glb.data, &root, pos, 12, 2) == 0.0f);
        /* ring 4 stores weights 0.6, 0.2 and implies 0.2 for the third slot */
        CHECK_NEAR(glb_float(glb.data, &root, w, 48, 0), 0.6f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, w, 48, 1), 0.2f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, w, 48, 2), 0.2f, 1e-6f);
        CHECK(glb_float(glb.data, &root, w, 0, 0) == 1.0f && glb_float(glb.data, &root, w, 0, 1) == 0.0f);
        /* joint 2's inverse bind moves y by -2 (column 3 of the MAT4) */
        CHECK(glb_float(glb.data, &root, ibm, 2, 13) == -2.0f && glb_float(glb.data, &root, ibm, 2, 15) == 1.0f);
        /* the spine track: 31 keys over 2 s, 90 degrees about Z at 1 s, then
         * a 32nd holding the last to the clip's end (61 ticks: 2.033 s) */
        CHECK(json_get(&json_get(&root, "accessors")->items[in0], "count")->number == 32);
        CHECK_NEAR(glb_float(glb.data, &root, in0, 15, 0), 1.0f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, in0, 30, 0), 2.0f, 1e-6f);
        CHECK(glb_float(glb.data, &root, in0, 31, 0) == plumbob_clip_duration(&s.clip.clip));
        CHECK(glb_float(glb.data, &root, out0, 31, 3) == glb_float(glb.data, &root, out0, 30, 3));
        CHECK_NEAR(glb_float(glb.data, &root, out0, 15, 2), 0.70710678f, 2e-3f);
        CHECK_NEAR(glb_float(glb.data, &root, out0, 15, 3), 0.70710678f, 2e-3f);
        {
            /* the events and slots ride in extras; the morph track plays the
             * mesh's bulge, so none is left for extras */
            const json_value *ex = json_get(json_get(anim, "extras"), "plumbob");
            const json_value *ev = ex ? json_get(ex, "events") : NULL;
            CHECK(ex && ev && ev->count == 2 && strcmp(json_get(&ev->items[0], "kind")->str, "sound") == 0);
            CHECK(ex && json_get(ex, "morphTracks")->count == 0 && json_get(ex, "slots")->count == 0);
            CHECK(ex && (float)json_get(ex, "duration")->number == plumbob_clip_duration(&s.clip.clip));
        }
    }
    json_free(&root);
    json_free(&root2);
    tb_free(&glb);
    tb_free(&gltf);
    {
        /* the clip alone: nodes named by hash, no mesh */
        gltf_export_src only;
        memset(&only, 0, sizeof only);
        only.clip = &s.clip.clip;
        CHECK(export_bytes(&only, 0, &gltf));
        CHECK(gltf_check(gltf.data, gltf.size, &rep, why, sizeof why) && rep.nodes == 2 && rep.meshes == 0 && rep.channels == 3);
        CHECK(strstr((const char *)gltf.data, "\"name\": \"0x6FA96266\"") != NULL);
        /* without a mesh the morph track is in extras, keys held to the end */
        CHECK(strstr((const char *)gltf.data, "\"morphTracks\": [{\"hash\": \"0x84B0668E\", \"times\": [0, ") != NULL);
        tb_free(&gltf);
    }
    scene_free(&s);
}

/* A triangle with D3DCOLOR vertex colours, normals, bump normals (the
 * tangents) and binormals, written by plumbob's writer: COLOR_0 is R, G, B, A
 * of 0xAARRGGBB over 255, and TANGENT's w is +1 where the binormal agrees
 * with cross(normal, tangent) and -1 where it is the opposite.  Values
 * worked by hand in the game's Z-up space: N (0, 0, 1) x T (1, 0, 0) is
 * (0, 1, 0), so binormal (0, 1, 0) gives +1 and (0, -1, 0) gives -1 (the
 * Z-up to Y-up turn keeps handedness). */
static void test_colour_and_tangent_export(void) {
    static const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, up[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1},
                       tan_[9] = {1, 0, 0, 1, 0, 0, 1, 0, 0}, bin[9] = {0, 1, 0, 0, -1, 0, 0, 1, 0};
    static const uint32_t colours[3] = {0x40C08020u, 0xFF102030u, 0x00FFFFFFu};
    static const float want_rgba[3][4] = {{192 / 255.0f, 128 / 255.0f, 32 / 255.0f, 64 / 255.0f},
                                          {16 / 255.0f, 32 / 255.0f, 48 / 255.0f, 1.0f},
                                          {1.0f, 1.0f, 1.0f, 0.0f}};
    static const float want_w[3] = {1.0f, -1.0f, 1.0f};
    static const uint32_t ids[5] = {PLUMBOB_GMDC_VERTICES, PLUMBOB_GMDC_NORMALS, PLUMBOB_GMDC_BUMP_NORMALS,
                                    PLUMBOB_GMDC_BINORMALS, PLUMBOB_GMDC_COLOUR};
    unsigned char data[5][36], refs[10], faces[6], *file, *mem = NULL;
    plumbob_gmdc_element els[5];
    plumbob_gmdc_linkage link;
    plumbob_gmdc_group grp;
    plumbob_gmdc g, dg;
    plumbob_arena arena;
    gltf_export_src src;
    tool_buf glb;
    json_value root;
    char why[256];
    size_t n = 0, need = 0;
    uint32_t i, k;
    memset(els, 0, sizeof els);
    for (k = 0; k < 5; k++) {
        for (i = 0; i < 9 && k < 4; i++)
            pb_put_f32le(data[k] + 4 * i, (k == 0 ? pos : k == 1 ? up : k == 2 ? tan_ : bin)[i]);
        for (i = 0; i < 3 && k == 4; i++) pb_put_le32(data[k] + 4 * i, colours[i]);
        els[k].count = 3;
        els[k].identity = ids[k];
        els[k].format = k == 4 ? 4u : 2u;
        els[k].set = k == 0 || k == 4 ? 0u : 1u;
        els[k].byte_size = k == 4 ? 12u : 36u;
        els[k].data = data[k];
        pb_put_le16(refs + 2 * k, (uint16_t)k);
    }
    for (i = 0; i < 3; i++) pb_put_le16(faces + 2 * i, (uint16_t)i);
    memset(&link, 0, sizeof link);
    link.refs.data = refs;
    link.refs.count = 5;
    link.vertex_count = 3;
    link.active_count = 5;
    memset(&grp, 0, sizeof grp);
    grp.primitive = PLUMBOB_GMDC_PRIMITIVE_TRIANGLES;
    grp.name.ptr = "tri";
    grp.name.len = 3;
    grp.faces.data = faces;
    grp.faces.count = 3;
    grp.opacity = 0xFFFFFFFFu;
    memset(&g, 0, sizeof g);
    g.version = 4;
    g.index_size = 2;
    g.head.resource_name.ptr = "tri_tslocator_gmdc";
    g.head.resource_name.len = 18;
    g.element_count = 5;
    g.elements = els;
    g.linkage_count = 1;
    g.linkages = &link;
    g.group_count = 1;
    g.groups = &grp;
    file = (unsigned char *)malloc(4096);
    CHECK(file && plumbob_gmdc_write(&g, file, 4096, &n) == PLUMBOB_OK);
    CHECK(plumbob_gmdc_measure(file, n, &need) == PLUMBOB_OK && (mem = (unsigned char *)malloc(need + 1)) != NULL);
    if (!mem) {
        free(file);
        return;
    }
    plumbob_arena_init(&arena, mem, need);
    CHECK(plumbob_gmdc_decode(file, n, &arena, &dg) == PLUMBOB_OK);
    memset(&src, 0, sizeof src);
    src.mesh = &dg;
    CHECK(export_bytes(&src, 1, &glb));
    CHECK(valid(glb.data, glb.size, why, sizeof why));
    CHECK(json_parse((const char *)glb.data + 20, pb_le32(glb.data + 12), &root, why, sizeof why));
    {
        const json_value *mesh = &json_get(&root, "meshes")->items[0], *prim = &json_get(mesh, "primitives")->items[0];
        const json_value *attrs = json_get(prim, "attributes");
        const json_value *col = json_get(attrs, "COLOR_0"), *tan = json_get(attrs, "TANGENT");
        CHECK(col != NULL && tan != NULL);
        for (i = 0; col && tan && i < 3; i++) {
            for (k = 0; k < 4; k++) CHECK_NEAR(glb_float(glb.data, &root, (long)col->number, i, k), want_rgba[i][k], 1e-7f);
            /* the tangent itself: (1, 0, 0) in either space */
            CHECK(glb_float(glb.data, &root, (long)tan->number, i, 0) == 1.0f);
            CHECK(glb_float(glb.data, &root, (long)tan->number, i, 1) == 0.0f);
            CHECK(glb_float(glb.data, &root, (long)tan->number, i, 3) == want_w[i]);
        }
    }
    json_free(&root);
    tb_free(&glb);
    free(mem);
    free(file);
}

/* Text edits of the demo .gltf, each breaking one rule. */
static void test_checker_rejects(void) {
    static const struct { const char *from, *to, *why; } cases[] = {
        {"\"count\": 108", "\"count\": 109", "accessors[0]: 109 elements from byte 0 need more than bufferView 0"},
        {"\"version\": \"2.0\"", "\"version\": \"1.0\"", "asset.version"},
        {"\"children\": [1]", "\"children\": [0]", "nodes[0]: its parents form a cycle"},
        {"\"children\": [2]", "\"children\": [2, 3]", "scenes[0].nodes[1]: node 3 is not a root"},
        {"\"joints\": [0, 1, 2]", "\"joints\": [0, 1, 1]", "skins[0]: node 1 is a joint twice"},
        {"\"min\": [-0.5, 0, -0.5]", "\"min\": [-0.6, 0, -0.5]", "accessors[0].min[0]: declared -0.6"},
        {"\"path\": \"rotation\"", "\"path\": \"rotate\"", "target.path: not translation, rotation, scale or weights"},
        {"\"interpolation\": \"LINEAR\"", "\"interpolation\": \"CUBIC\"", "interpolation: not LINEAR, STEP or CUBICSPLINE"},
        {"\"indices\": 4", "\"indices\": 0", "primitives[0]: indices are not unsigned SCALAR"},
        {"\"weights\": [0, 0]", "\"weights\": [0]", "meshes[0].weights: 1 weights for 2 targets"},
        {"\"scene\": 0", "\"scene\": 5", "scene: 5 is out of range"},
        /* a fuzz find: an index far past any integer type was cast before it was compared (undefined
         * behaviour that UBSan stops on); now compared as a double and refused */
        {"\"scene\": 0", "\"scene\": 7777777777777777777777777777777770", "is out of range (1 there)"},
        {"\"scene\": 0", "\"scene\": 1e300", "is out of range (1 there)"},
        {"\"scene\": 0", "\"scene\": 0.5", "scene: not a non-negative integer"},
        {"\"scene\": 0", "\"scene\": -1", "scene: not a non-negative integer"},
        {"\"inverseBindMatrices\": 7", "\"inverseBindMatrices\": 0", "skins[0].inverseBindMatrices: need 3 float MAT4"},
        {"\"mesh\": 0, \"skin\": 0", "\"mesh\": 0", ""}, /* a mesh with joints but no skin is fine */
        {"data:application/octet-stream;base64,", "demo.bin#", "external files are not supported"},
        {"\"rotation\": [0, 0, 0, 1]", "\"rotation\": [0, 0, 0, 2]", "nodes[0].rotation: not a unit quaternion"},
        {"\"node\": 0, \"path\": \"rotation\"", "\"node\": 1, \"path\": \"rotation\"", "a second channel for node 1 rotation"},
        {"\"node\": 3, \"path\": \"weights\"", "\"node\": 1, \"path\": \"weights\"", "weights of node 1, which has no morph targets"},
    };
    demo_scene s;
    tool_buf gltf;
    char why[256];
    size_t i;
    if (!scene_load(&s) || !export_bytes(&s.src, 0, &gltf)) {
        CHECK(0);
        scene_free(&s);
        return;
    }
    CHECK(!valid((const unsigned char *)"[1]", 3, why, sizeof why) && strstr(why, "not a JSON object"));
    CHECK(!valid((const unsigned char *)"{\"asset\": {}}", 13, why, sizeof why) && strstr(why, "asset.version"));
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *text = (const char *)gltf.data, *at = strstr(text, cases[i].from);
        size_t fl = strlen(cases[i].from), tl = strlen(cases[i].to), n;
        char *edit;
        int ok;
        CHECK(at != NULL);
        if (!at) { printf("  case %zu: '%s' not in the file\n", i, cases[i].from); continue; }
        n = gltf.size - fl + tl;
        edit = (char *)malloc(n);
        memcpy(edit, text, (size_t)(at - text));
        memcpy(edit + (at - text), cases[i].to, tl);
        memcpy(edit + (at - text) + tl, at + fl, gltf.size - (size_t)(at - text) - fl);
        ok = valid((const unsigned char *)edit, n, why, sizeof why);
        if (!*cases[i].why) CHECK(ok);
        else CHECK(!ok && strstr(why, cases[i].why) != NULL);
        if (*cases[i].why && (ok || !strstr(why, cases[i].why))) printf("  case %zu: %s\n", i, ok ? "accepted" : why);
        free(edit);
    }
    tb_free(&gltf);
    scene_free(&s);
}

/* Writes `value` (2 or 4 bytes, little-endian) at off, checks that the
 * checker rejects the file saying `why`, and puts the bytes back. */
static int bad_edit(tool_buf *glb, size_t off, unsigned width, uint32_t value, const char *why_wanted) {
    unsigned char save[4];
    char why[256];
    int rejected;
    memcpy(save, glb->data + off, width);
    if (width == 2) pb_put_le16(glb->data + off, (uint16_t)value);
    else pb_put_le32(glb->data + off, value);
    rejected = !valid(glb->data, glb->size, why, sizeof why) && strstr(why, why_wanted) != NULL;
    if (!rejected) printf("  edit at %zu: %s\n", off, why);
    memcpy(glb->data + off, save, width);
    return rejected;
}

/* Binary edits of the demo .glb: the data rules. */
static void test_checker_data(void) {
    demo_scene s;
    tool_buf glb;
    json_value root;
    char why[256];
    size_t jl, bin;
    if (!scene_load(&s) || !export_bytes(&s.src, 1, &glb)) {
        CHECK(0);
        scene_free(&s);
        return;
    }
    jl = pb_le32(glb.data + 12);
    bin = 28 + jl;
    CHECK(json_parse((const char *)glb.data + 20, jl, &root, why, sizeof why));
    {
        const json_value *attrs = json_get(&json_get(&json_get(&root, "meshes")->items[0], "primitives")->items[0], "attributes");
        const json_value *views = json_get(&root, "bufferViews"), *accs = json_get(&root, "accessors");
        long w = (long)json_get(attrs, "WEIGHTS_0")->number, n = (long)json_get(attrs, "NORMAL")->number;
        long j = (long)json_get(attrs, "JOINTS_0")->number;
        size_t woff = bin + (size_t)json_get(&views->items[(long)json_get(&accs->items[w], "bufferView")->number], "byteOffset")->number;
        size_t noff = bin + (size_t)json_get(&views->items[(long)json_get(&accs->items[n], "bufferView")->number], "byteOffset")->number;
        size_t joff = bin + (size_t)json_get(&views->items[(long)json_get(&accs->items[j], "bufferView")->number], "byteOffset")->number;
        size_t ioff = bin + (size_t)json_get(&views->items[(long)json_get(&accs->items[4], "bufferView")->number], "byteOffset")->number;
        CHECK(bad_edit(&glb, woff, 4, pb_bits_from_f32(0.5f), "the weights of vertex 0 sum to 0.5"));
        CHECK(bad_edit(&glb, noff, 4, pb_bits_from_f32(3.0f), "NORMAL 0 is not unit length"));
        CHECK(bad_edit(&glb, joff, 2, 7, "JOINTS_0 0 names joint 7 of 3"));
        CHECK(bad_edit(&glb, ioff, 4, 108, "index 0 is 108, there are 108 vertices"));
        CHECK(valid(glb.data, glb.size, why, sizeof why));
        pb_put_le32(glb.data + 8, (uint32_t)glb.size + 4);
        CHECK(!valid(glb.data, glb.size, why, sizeof why) && strstr(why, "GLB: header says"));
        pb_put_le32(glb.data + 8, (uint32_t)glb.size);
        pb_put_le32(glb.data + 4, 1);
        CHECK(!valid(glb.data, glb.size, why, sizeof why) && strstr(why, "GLB: version 1"));
        pb_put_le32(glb.data + 4, 2);
    }
    json_free(&root);
    /* every prefix: a clean verdict (the GLB length makes all of them errors) */
    {
        size_t n, errors = 0;
        for (n = 0; n < glb.size; n++) errors += !valid(glb.data, n, why, sizeof why);
        CHECK(errors == glb.size);
    }
    /* every bit of the JSON chunk and of the first 2 KiB of BIN flipped: a verdict, never a crash */
    {
        size_t bit, last = (20 + jl + 2048 < glb.size ? 20 + jl + 2048 : glb.size) * 8, rejected = 0, tried = 0;
        for (bit = 0; bit < last; bit++) {
            glb.data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            rejected += !valid(glb.data, glb.size, why, sizeof why);
            tried++;
            glb.data[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        }
        CHECK(tried > 0 && rejected > tried / 2); /* most flips break something the checker sees */
        CHECK(valid(glb.data, glb.size, why, sizeof why));
    }
    tb_free(&glb);
    scene_free(&s);
}

static void test_gltf_text_sweeps(void) {
    demo_scene s;
    tool_buf gltf;
    char why[256];
    size_t n, ok_prefixes = 0;
    if (!scene_load(&s) || !export_bytes(&s.src, 0, &gltf)) {
        CHECK(0);
        scene_free(&s);
        return;
    }
    for (n = 0; n < gltf.size; n++) ok_prefixes += valid(gltf.data, n, why, sizeof why);
    CHECK(ok_prefixes == 1); /* only the file without its final newline */
    for (n = 0; n < gltf.size; n += 7) { /* a byte replaced every 7: a verdict, never a crash */
        unsigned char save = gltf.data[n];
        gltf.data[n] = (unsigned char)(save ^ 0x21);
        (void)valid(gltf.data, gltf.size, why, sizeof why);
        gltf.data[n] = save;
    }
    CHECK(valid(gltf.data, gltf.size, why, sizeof why));
    tb_free(&gltf);
    scene_free(&s);
}

/* Real files: the teapot mesh and every Sims 3 clip, exported and checked. */
static void test_corpus(const char *corpus) {
    char path[1024];
    tool_input in;
    plumbob_gmdc g;
    unsigned char *mem;
    gltf_export_src src;
    tool_buf out;
    gltf_check_report rep;
    char why[256];
    FILE *f;
    snprintf(path, sizeof path, "%s/sims2/teapot_model.package", corpus);
    f = fopen(path, "rb");
    if (!f) {
        printf("skip: corpus tests (%s not found)\n", path);
        skipped++;
        return;
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/sims2/teapot_model.package@3AFDFD2CFF515126", corpus);
    CHECK(tool_load(path, &in));
    CHECK(tool_gmdc_decode(&in, &g, &mem) == PLUMBOB_OK);
    memset(&src, 0, sizeof src);
    src.mesh = &g;
    CHECK(export_bytes(&src, 1, &out));
    CHECK(gltf_check(out.data, out.size, &rep, why, sizeof why) && rep.vertices == 13248 && rep.primitives == 1);
    tb_free(&out);
    free(mem);
    tool_free(&in);
    {
        static const char *const clips[] = {"sims3/EWBreastfeed.package@3D40CC19DAAFD164",
                                            "sims3/PetFightingSkill.package@C06363A8DEA2048E"};
        /* the bones each clip animates (distinct hashes of its rotation and
         * translation tracks, counted from the clip's track table) */
        static const uint32_t bones[] = {141, 162};
        size_t i;
        for (i = 0; i < 2; i++) {
            tool_clip tc;
            snprintf(path, sizeof path, "%s/%s", corpus, clips[i]);
            CHECK(tool_load(path, &in));
            CHECK(tool_clip_decode(&in, &tc) == PLUMBOB_OK);
            memset(&src, 0, sizeof src);
            src.clip = &tc.clip;
            CHECK(export_bytes(&src, i == 1, &out));
            CHECK(gltf_check(out.data, out.size, &rep, why, sizeof why));
            /* a node per animated bone, a rotation and a translation channel
             * each: the bone count from the file, and again from the decoded
             * track table (an empty export has 0 == 2 * 0) */
            CHECK(rep.nodes == bones[i] && rep.channels == 2 * bones[i]);
            {
                uint32_t t, u, distinct = 0;
                for (t = 0; t < tc.clip.track_count; t++) {
                    const plumbob_clip_track *tt = &tc.clip.tracks[t];
                    int seen = tt->target != PLUMBOB_CLIP_TARGET_ROTATION && tt->target != PLUMBOB_CLIP_TARGET_TRANSLATION;
                    for (u = 0; u < t && !seen; u++)
                        seen = tc.clip.tracks[u].hash == tt->hash &&
                               (tc.clip.tracks[u].target == PLUMBOB_CLIP_TARGET_ROTATION ||
                                tc.clip.tracks[u].target == PLUMBOB_CLIP_TARGET_TRANSLATION);
                    distinct += !seen;
                }
                CHECK(distinct == bones[i]);
            }
            if (!rep.channels) printf("  %s: %s\n", clips[i], why);
            tb_free(&out);
            tool_clip_free(&tc);
            tool_free(&in);
        }
    }
}


/* ---- The Sims 2 body: CRES skeleton, 65-joint mesh, ANIM ---------------- */

typedef struct { double m[4][4]; } m4;

static m4 m4_trs(const double q[4], const double t[3]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m4 r;
    memset(&r, 0, sizeof r);
    r.m[0][0] = 1 - 2 * (y * y + z * z); r.m[0][1] = 2 * (x * y - w * z); r.m[0][2] = 2 * (x * z + w * y);
    r.m[1][0] = 2 * (x * y + w * z); r.m[1][1] = 1 - 2 * (x * x + z * z); r.m[1][2] = 2 * (y * z - w * x);
    r.m[2][0] = 2 * (x * z - w * y); r.m[2][1] = 2 * (y * z + w * x); r.m[2][2] = 1 - 2 * (x * x + y * y);
    r.m[0][3] = t[0]; r.m[1][3] = t[1]; r.m[2][3] = t[2]; r.m[3][3] = 1;
    return r;
}

static m4 m4_mul(const m4 *a, const m4 *b) {
    m4 r;
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            r.m[i][j] = 0;
            for (k = 0; k < 4; k++) r.m[i][j] += a->m[i][k] * b->m[k][j];
        }
    return r;
}

/* Node n's model transform in the GLB at key `key` of the animation's
 * samplers (key < 0: the rest pose), read the way a viewer reads it. */
static m4 node_global(const unsigned char *glb, const json_value *root, long n, long key) {
    const json_value *nodes = json_get(root, "nodes"), *node = &nodes->items[n];
    const json_value *r = json_get(node, "rotation"), *t = json_get(node, "translation");
    const json_value *anims = json_get(root, "animations");
    double q[4] = {0, 0, 0, 1}, tr[3] = {0, 0, 0};
    long i, k, parent = -1;
    m4 local;
    for (k = 0; r && k < 4; k++) q[k] = r->items[k].number;
    for (k = 0; t && k < 3; k++) tr[k] = t->items[k].number;
    if (key >= 0 && anims && anims->count) {
        const json_value *an = &anims->items[0], *ch = json_get(an, "channels"), *sa = json_get(an, "samplers");
        for (i = 0; i < (long)ch->count; i++) {
            const json_value *target = json_get(&ch->items[i], "target");
            const json_value *smp = &sa->items[(long)json_get(&ch->items[i], "sampler")->number];
            long out = (long)json_get(smp, "output")->number;
            int rot = strcmp(json_get(target, "path")->str, "rotation") == 0;
            if ((long)json_get(target, "node")->number != n) continue;
            for (k = 0; k < (rot ? 4 : 3); k++) {
                double v = glb_float(glb, root, out, (uint32_t)key, (uint32_t)k);
                if (rot) q[k] = v; else tr[k] = v;
            }
        }
    }
    local = m4_trs(q, tr);
    for (i = 0; i < (long)nodes->count && parent < 0; i++) {
        const json_value *c = json_get(&nodes->items[i], "children");
        for (k = 0; c && k < (long)c->count; k++)
            if ((long)c->items[k].number == n) parent = i;
    }
    if (parent >= 0) {
        m4 pg = node_global(glb, root, parent, key);
        return m4_mul(&pg, &local);
    }
    return local;
}

/* Vertex v of the GLB's mesh skinned the glTF way (joint matrix = node
 * global * inverse bind, weighted sum), Y-up. */
static void glb_skin(const unsigned char *glb, const json_value *root, long key, uint32_t v, double out[3]) {
    const json_value *prim = &json_get(&json_get(root, "meshes")->items[0], "primitives")->items[0];
    const json_value *attrs = json_get(prim, "attributes"), *skin = &json_get(root, "skins")->items[0];
    long pos = (long)json_get(attrs, "POSITION")->number, wa = (long)json_get(attrs, "WEIGHTS_0")->number;
    long ja = (long)json_get(attrs, "JOINTS_0")->number, ibm = (long)json_get(skin, "inverseBindMatrices")->number;
    const json_value *acc = &json_get(root, "accessors")->items[ja];
    const json_value *view = &json_get(root, "bufferViews")->items[(long)json_get(acc, "bufferView")->number];
    size_t bin = 28 + pb_le32(glb + 12) + (size_t)json_get(view, "byteOffset")->number;
    const json_value *targets = json_get(prim, "targets"), *anims = json_get(root, "animations");
    double p[4];
    int k, r, c;
    long t;
    for (k = 0; k < 3; k++) p[k] = glb_float(glb, root, pos, v, (uint32_t)k);
    p[3] = 1;
    /* morph targets first, with the weights channel's key (none: weight 0) */
    for (t = 0; key >= 0 && targets && anims && t < (long)targets->count; t++) {
        const json_value *an = &anims->items[0], *ch = json_get(an, "channels"), *sa = json_get(an, "samplers");
        long i, tp = (long)json_get(&targets->items[t], "POSITION")->number;
        for (i = 0; i < (long)ch->count; i++) {
            const json_value *target = json_get(&ch->items[i], "target");
            const json_value *smp = &sa->items[(long)json_get(&ch->items[i], "sampler")->number];
            double w;
            if (strcmp(json_get(target, "path")->str, "weights") != 0) continue;
            w = glb_float(glb, root, (long)json_get(smp, "output")->number, (uint32_t)(key * (long)targets->count + t), 0);
            for (k = 0; k < 3; k++) p[k] += w * glb_float(glb, root, tp, v, (uint32_t)k);
        }
    }
    out[0] = out[1] = out[2] = 0;
    for (k = 0; k < 4; k++) {
        double w = glb_float(glb, root, wa, v, (uint32_t)k);
        uint32_t j = pb_le16(glb + bin + 8u * v + 2u * (uint32_t)k);
        m4 g, ib, jm;
        if (w == 0) continue;
        g = node_global(glb, root, (long)json_get(skin, "joints")->items[j].number, key);
        for (r = 0; r < 4; r++)
            for (c = 0; c < 4; c++) ib.m[r][c] = glb_float(glb, root, ibm, j, (uint32_t)(4 * c + r));
        jm = m4_mul(&g, &ib);
        for (r = 0; r < 3; r++) out[r] += w * (jm.m[r][0] * p[0] + jm.m[r][1] * p[1] + jm.m[r][2] * p[2] + jm.m[r][3]);
    }
}

/* The same vertices through the core: the ANIM pose at `ms` on the CRES
 * skeleton, palette, plumbob_gmdc_skin (Z-up), converted to Y-up. */
static void core_skin(const plumbob_gmdc *g, const tool_cres *tc, const plumbob_anim *a, float ms, float *pos) {
    uint32_t n = tc->sk.skeleton.bone_count, j;
    plumbob_bone_pose *poses = (plumbob_bone_pose *)calloc(n, sizeof *poses);
    plumbob_mat34 *model = (plumbob_mat34 *)calloc(n, sizeof *model);
    plumbob_mat34 *jm = (plumbob_mat34 *)calloc(g->joint_count, sizeof *jm);
    plumbob_mat34 *pal = (plumbob_mat34 *)calloc(g->joint_count, sizeof *pal);
    int32_t *map = (int32_t *)calloc(g->joint_count, sizeof *map);
    plumbob_gmdc_skin_job job;
    float *weights = (float *)calloc(g->morph_count + 1u, sizeof(float));
    if (a) { /* the core's binding and sampler */
        plumbob_anim_binding bind;
        plumbob_anim_sampler smp;
        plumbob_arena arena;
        size_t need = plumbob_anim_bind_size(a) + PLUMBOB_ANIM_SAMPLER_SIZE(a->channel_count, a->component_count);
        unsigned char *mem = (unsigned char *)malloc(need);
        plumbob_arena_init(&arena, mem, need);
        CHECK(plumbob_anim_bind(a, &tc->sk, g, &arena, &bind) == PLUMBOB_OK);
        CHECK(bind.morph_channel_count == 1);
        CHECK(plumbob_anim_sampler_init(&bind, &arena, &smp) == PLUMBOB_OK);
        CHECK(plumbob_anim_sampler_sample(&smp, ms, poses, n, weights, g->morph_count) == PLUMBOB_OK);
        free(mem);
    } else {
        plumbob_skeleton_rest_pose(&tc->sk.skeleton, 0, n, poses, n);
    }
    CHECK(plumbob_skeleton_model(&tc->sk.skeleton, poses, model, n) == PLUMBOB_OK);
    CHECK(plumbob_cres_joint_map(&tc->sk, g->joint_count, map) == g->joint_count);
    for (j = 0; j < g->joint_count; j++) jm[j] = model[map[j]];
    plumbob_gmdc_palette(g, jm, pal, g->joint_count);
    memset(&job, 0, sizeof job);
    job.work = skin_work;
    job.gmdc = g;
    job.palette = pal;
    job.palette_count = g->joint_count;
    job.morph_weights = weights;
    job.morph_weight_count = g->morph_count + 1u;
    job.positions = pos;
    job.position_stride = 3;
    job.position_count = g->linkages[0].vertex_count; /* the caller's pos */
    CHECK(plumbob_gmdc_skin(&job) == PLUMBOB_OK);
    free(poses); free(model); free(jm); free(pal); free(map); free(weights);
}

static void test_body_export(void) {
    tool_input mi, ci, ai;
    plumbob_gmdc g;
    plumbob_anim a;
    tool_cres tc;
    unsigned char *gmem = NULL, *amem = NULL;
    gltf_export_src src;
    tool_buf glb;
    gltf_check_report rep;
    json_value root;
    char why[256];
    float *pos;
    static const uint32_t verts[5] = {0, 1, 13, 130, 259};
    uint32_t i, k;
    memset(&mi, 0, sizeof mi); memset(&ci, 0, sizeof ci); memset(&ai, 0, sizeof ai);
    mi.size = demo_skel_gmdc(&mi.data);
    ci.size = demo_skel_cres(&ci.data);
    ai.size = demo_skel_anim(&ai.data);
    CHECK(tool_gmdc_decode(&mi, &g, &gmem) == PLUMBOB_OK && tool_cres_decode(&ci, &tc) == PLUMBOB_OK &&
          tool_anim_decode(&ai, &a, &amem) == PLUMBOB_OK);
    if (failed) return;
    CHECK(g.joint_count == DEMO_SKEL_JOINTS && tc.sk.skeleton.bone_count == DEMO_SKEL_JOINTS + 2);
    memset(&src, 0, sizeof src);
    src.mesh = &g;
    src.skeleton = &tc.sk;
    src.anim = &a;
    CHECK(export_bytes(&src, 1, &glb));
    CHECK(gltf_check(glb.data, glb.size, &rep, why, sizeof why));
    CHECK(rep.nodes == DEMO_SKEL_JOINTS + 3 && rep.joints == DEMO_SKEL_JOINTS && rep.targets == 2 && rep.channels == 4);
    CHECK(json_parse((const char *)glb.data + 20, pb_le32(glb.data + 12), &root, why, sizeof why));
    {
        const json_value *nodes = json_get(&root, "nodes"), *joints = json_get(&json_get(&root, "skins")->items[0], "joints");
        const json_value *in = NULL;
        long key = 15;
        /* joint j is the node named after CRES joint j; bone_03 hangs under root_rot */
        CHECK(joints->count == DEMO_SKEL_JOINTS);
        CHECK(strcmp(json_get(&nodes->items[(long)joints->items[0].number], "name")->str, "root_trans") == 0);
        CHECK(strcmp(json_get(&nodes->items[(long)joints->items[64].number], "name")->str, "bone_64") == 0);
        {
            const json_value *c = json_get(&nodes->items[(long)joints->items[1].number], "children");
            int found = 0;
            for (k = 0; c && k < c->count; k++) found |= (long)c->items[k].number == (long)joints->items[3].number;
            CHECK(found);
        }
        /* at rest, glTF skinning gives the stored points (Y-up) */
        for (i = 0; i < 5; i++) {
            double p[3];
            glb_skin(glb.data, &root, -1, verts[i], p);
            for (k = 0; k < 3; k++) CHECK_NEAR(p[k], glb_float(glb.data, &root, 0, verts[i], k), 1e-5);
        }
        /* at the animation's key 15 (0.5 s: "fat" at 0.5), glTF skinning agrees with plumbob_gmdc_skin */
        in = &json_get(&json_get(&root, "animations")->items[0], "samplers")->items[0];
        {
            float t = glb_float(glb.data, &root, (long)json_get(in, "input")->number, (uint32_t)key, 0);
            pos = (float *)malloc(sizeof(float) * 3u * g.linkages[0].vertex_count);
            core_skin(&g, &tc, &a, t * 1000.0f, pos);
            CHECK_NEAR(t, 0.5f, 1e-6f);
            for (i = 0; i < 5; i++) {
                double p[3];
                plumbob_vec3 z, y;
                glb_skin(glb.data, &root, key, verts[i], p);
                z.x = pos[3 * verts[i]]; z.y = pos[3 * verts[i] + 1]; z.z = pos[3 * verts[i] + 2];
                y = gltf_z_up_to_y_up(z);
                CHECK_NEAR(p[0], y.x, 1e-4);
                CHECK_NEAR(p[1], y.y, 1e-4);
                CHECK_NEAR(p[2], y.z, 1e-4);
            }
            /* and the pose moved them: the root rose 0.1 and turned 45 degrees */
            CHECK(pos[3 * 259 + 2] > glb_float(glb.data, &root, 0, 259, 1) + 0.05f);
            free(pos);
        }
    }
    json_free(&root);
    tb_free(&glb);
    free(gmem); free(amem);
    free(tc.mem);
    free(tc.sk_mem);
    tool_free(&mi); tool_free(&ci); tool_free(&ai);
}


/* Issue 44: a clip of our writer with an IK slot table of 4 chains (chain 2
 * empty, one slot field with padding of its own), events and header fields
 * of its own goes through export and import with all of them byte for byte:
 * the bytes after the tracks (slot table, actor, events, end block) equal. */
static void test_clip_extras_round_trip(void) {
    demo_scene s;
    plumbob_clip c, ca, cb;
    plumbob_clip_slot slots[5];
    static unsigned char raw[512], arena_a[1 << 16], arena_b[1 << 16];
    unsigned char *a = NULL, *b = NULL;
    size_t na, nb, ga = 0, gb = 0;
    plumbob_arena ar;
    tool_buf text;
    gltf_doc doc;
    clip_import ci;
    clip_import_opts o;
    gltf_export_src only;
    char why[256];
    static const char *const actor[5] = {"x", "baby", "x", "x", "x"};
    static const char *const slot[5] = {"b__L_ThighTarget_slot", "IKtarget_baby", "Root_info", "L_footWorld", "rootWorld"};
    static const uint32_t chain[5] = {0, 0, 1, 3, 3}, index[5] = {0, 1, 0, 2, 5};
    uint32_t k;
    if (!scene_load(&s)) {
        CHECK(0);
        return;
    }
    memset(slots, 0, sizeof slots);
    memset(raw, 0x23, sizeof raw);
    memcpy(raw, "rootWorld\0\x7e\x7e\x7e", 13); /* not the name, NUL, '#' padding the writer makes */
    for (k = 0; k < 5; k++) {
        slots[k].chain = chain[k];
        slots[k].index = index[k];
        slots[k].actor.ptr = actor[k];
        slots[k].actor.len = strlen(actor[k]);
        slots[k].slot.ptr = slot[k];
        slots[k].slot.len = strlen(slot[k]);
    }
    slots[4].slot_raw = raw;
    c = s.clip.clip;
    c.slots = slots;
    c.slot_count = 5;
    c.chain_count = 4;
    c.flags = 5;
    c.header_unknown[0] = 0;
    c.header_unknown[1] = 1;
    c.tick_pad = 7;
    c.source.ptr = "synth.ma";
    c.source.len = 8;
    na = plumbob_clip_write_size(&c);
    a = (unsigned char *)malloc(na);
    CHECK(a && plumbob_clip_write(&c, a, na, &ga) == PLUMBOB_OK);
    plumbob_arena_init(&ar, arena_a, sizeof arena_a);
    CHECK(plumbob_clip_decode(a, ga, &ar, &ca) == PLUMBOB_OK && ca.slot_count == 5 && ca.chain_count == 4 &&
          ca.events_decoded == 2);
    memset(&only, 0, sizeof only);
    only.clip = &ca;
    CHECK(export_bytes(&only, 0, &text));
    CHECK(gltf_read(text.data, text.size, "x.gltf", &doc, why, sizeof why));
    memset(&o, 0, sizeof o);
    o.fps = 30;
    o.max_rotation_deg = 0.01;
    o.max_translation = 0.0001;
    o.max_morph = 0.001;
    o.source = "x.gltf";
    CHECK(gltf_import_clip(&doc, &o, &ci, why, sizeof why));
    CHECK(ci.has_events && ci.has_slots && ci.has_header && ci.slots_skipped == 0 && ci.events_skipped == 0);
    nb = plumbob_clip_write_size(&ci.clip);
    b = nb != SIZE_MAX ? (unsigned char *)malloc(nb) : NULL;
    CHECK(b && plumbob_clip_write(&ci.clip, b, nb, &gb) == PLUMBOB_OK);
    plumbob_arena_init(&ar, arena_b, sizeof arena_b);
    CHECK(plumbob_clip_decode(b, gb, &ar, &cb) == PLUMBOB_OK);
    CHECK(cb.slot_count == 5 && cb.chain_count == 4 && cb.events_decoded == 2 && cb.flags == 5 && cb.tick_pad == 7 &&
          cb.header_unknown[1] == 1 && cb.source.len == 8 && memcmp(cb.source.ptr, "synth.ma", 8) == 0);
    for (k = 0; k < 5 && cb.slot_count == 5; k++)
        CHECK(cb.slots[k].chain == chain[k] && cb.slots[k].index == index[k] &&
              memcmp(cb.slots[k].actor_raw, ca.slots[k].actor_raw, 512) == 0 &&
              memcmp(cb.slots[k].slot_raw, ca.slots[k].slot_raw, 512) == 0);
    CHECK(cb.slot_count == 5 && memcmp(cb.slots[4].slot_raw, raw, 512) == 0);
    /* everything after the tracks, byte for byte */
    CHECK(ca.slot_pos && cb.slot_pos && ga - ca.slot_pos == gb - cb.slot_pos &&
          memcmp(a + ca.slot_pos, b + cb.slot_pos, ga - ca.slot_pos) == 0);
    clip_import_free(&ci);
    gltf_doc_free(&doc);
    tb_free(&text);
    free(a);
    free(b);
    scene_free(&s);
}

/* The demo body's GMDC, decoded into gmem for a test to patch; 0 (after
 * CHECK) when it does not decode. */
static int demo_body_open(tool_input *mi, plumbob_gmdc *g, unsigned char **gmem) {
    memset(mi, 0, sizeof *mi);
    *gmem = NULL;
    mi->size = demo_body_gmdc(&mi->data);
    CHECK(mi->size && tool_gmdc_decode(mi, g, gmem) == PLUMBOB_OK);
    return !failed;
}

/* g exported as GLB into glb and its JSON parsed into root; the accessor
 * index of the first primitive's attribute, -1 (after CHECK) without it. */
static long export_attribute(const plumbob_gmdc *g, const char *attribute, tool_buf *glb, json_value *root) {
    gltf_export_src src;
    char why[256];
    const json_value *prim, *at;
    long a;
    memset(&src, 0, sizeof src);
    src.mesh = g;
    CHECK(export_bytes(&src, 1, glb));
    CHECK(json_parse((const char *)glb->data + 20, pb_le32(glb->data + 12), root, why, sizeof why));
    prim = &json_get(&json_get(root, "meshes")->items[0], "primitives")->items[0];
    at = json_get(json_get(prim, "attributes"), attribute);
    a = at ? (long)at->number : -1;
    CHECK(a >= 0);
    return a;
}

/* COLOR_0 of a vertex whose colour is not opaque: the demo body's colour
 * element (format 4, D3DCOLOR 0xAARRGGBB) gets 0x40C08020 at vertex 0 in
 * its input bytes, then the export must give RGBA (0xC0, 0x80, 0x20, 0x40)
 * / 255, worked out by hand (the demo's own colours are all opaque). */
static void test_colour_alpha(void) {
    tool_input mi;
    plumbob_gmdc g;
    unsigned char *gmem;
    const plumbob_gmdc_element *col;
    tool_buf glb;
    json_value root;
    long a;
    if (!demo_body_open(&mi, &g, &gmem)) return;
    col = plumbob_gmdc_find_element(&g, g.groups[0].link, PLUMBOB_GMDC_COLOUR, 0);
    CHECK(col && col->format == 4 && col->items.count == 0 && col->count > 0);
    if (!col || col->format != 4) return;
    pb_put_le32((unsigned char *)(uintptr_t)col->data, 0x40C08020u); /* vertex 0 */
    a = export_attribute(&g, "COLOR_0", &glb, &root);
    if (a >= 0) {
        CHECK_NEAR(glb_float(glb.data, &root, a, 0, 0), 192.0f / 255.0f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, a, 0, 1), 128.0f / 255.0f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, a, 0, 2), 32.0f / 255.0f, 1e-6f);
        CHECK_NEAR(glb_float(glb.data, &root, a, 0, 3), 64.0f / 255.0f, 1e-6f);
    }
    json_free(&root);
    tb_free(&glb);
    free(gmem);
    tool_free(&mi);
}

/* WEIGHTS_0 sum to 1 even when the stored weights do not: vertex 2 of the
 * demo body stores 0.5, 0.25, 0.125 (its fourth slot takes the 0.125 left);
 * with the first made 0.75 the stored ones sum to 1.125, the fourth gets
 * nothing, and the export divides by 1.125: 2/3, 2/9, 1/9, 0 (by hand). */
static void test_weights_total(void) {
    tool_input mi;
    plumbob_gmdc g;
    unsigned char *gmem;
    const plumbob_gmdc_element *bw;
    tool_buf glb;
    json_value root;
    long a;
    if (!demo_body_open(&mi, &g, &gmem)) return;
    bw = plumbob_gmdc_find_element(&g, g.groups[0].link, PLUMBOB_GMDC_BONE_WEIGHTS, 0);
    CHECK(bw && bw->format == 2 && bw->items.count == 0 && bw->count > 2);
    if (!bw || bw->format != 2 || bw->count <= 2) return;
    CHECK(plumbob_gmdc_float(bw, 2, 0) == 0.5f && plumbob_gmdc_float(bw, 2, 1) == 0.25f &&
          plumbob_gmdc_float(bw, 2, 2) == 0.125f);
    pb_put_f32le((unsigned char *)(uintptr_t)bw->data + 12u * 2u, 0.75f);
    a = export_attribute(&g, "WEIGHTS_0", &glb, &root);
    if (a >= 0) {
        CHECK_NEAR(glb_float(glb.data, &root, a, 2, 0), 2.0 / 3.0, 1e-6);
        CHECK_NEAR(glb_float(glb.data, &root, a, 2, 1), 2.0 / 9.0, 1e-6);
        CHECK_NEAR(glb_float(glb.data, &root, a, 2, 2), 1.0 / 9.0, 1e-6);
        CHECK(glb_float(glb.data, &root, a, 2, 3) == 0.0f);
    }
    json_free(&root);
    tb_free(&glb);
    free(gmem);
    tool_free(&mi);
}

int main(int argc, char **argv) {
    test_json();
    test_rig();
    test_demo_export();
    test_clip_extras_round_trip();
    test_colour_and_tangent_export();
    test_body_export();
    test_colour_alpha();
    test_weights_total();
    test_checker_rejects();
    test_checker_data();
    test_gltf_text_sweeps();
    test_corpus(argc > 1 ? argv[1] : "../shared/corpus");
    return hosted_summary();
}
