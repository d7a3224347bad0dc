/* libFuzzer target: plumbob's glTF checker (and its JSON reader) on
 * arbitrary bytes.  It must give a verdict without reading outside the
 * input; a valid verdict must be stable (checking twice agrees). */
#include <stdlib.h>
#include "gltf/gltf_check.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    gltf_check_report a, b;
    char why[256], why2[256];
    int ok = gltf_check(data, size, &a, why, sizeof why);
    if (ok != gltf_check(data, size, &b, why2, sizeof why2)) abort();
    if (ok && (a.nodes != b.nodes || a.accessors != b.accessors)) abort();
    return 0;
}
